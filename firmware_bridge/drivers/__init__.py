"""Device drivers: protocol decoding over an already-open port or USB device."""

"""Transports: opening real serial ports (pyserial) and USB devices (pyusb) with clear errors."""

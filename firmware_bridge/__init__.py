"""firmware_bridge package."""

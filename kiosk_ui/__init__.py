"""kiosk_ui package."""

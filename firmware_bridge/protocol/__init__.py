"""The framed serial protocol shared by every peripheral (docs/protocol.md)."""

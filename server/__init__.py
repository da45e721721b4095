"""The authoritative WebSocket server (issue: modernart-server)."""

__version__ = "0.1.0"

"""The authoritative WebSocket server (issue: modernart-server)."""

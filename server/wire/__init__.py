"""The wire: connections, frames, typed messages and what is written each turn."""

"""Play over SSH: the listener and its sessions (server.py), keys, PTYs, the screen relay,
the output filter, and the client process a session runs (client.py)."""

"""Play in a browser: `modernart-server --web-port 8080` serves a page with a terminal.

The page (xterm.js, served from this package) opens one WebSocket to `/ws`;
each one is a client session on a terminal, the same sessions the SSH door
runs. `page.py` holds the HTTP side (the page, its files, its headers),
`identity.py` the cookie, `gate.py` the listener and its sessions.
"""

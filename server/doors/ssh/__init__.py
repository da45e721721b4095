"""Play over SSH: the listener and its channels (server.py), its options (cli.py), keys
(keys.py) and the admission of connections not signed in yet (startups.py). The sessions
themselves are the transport-agnostic terminal sessions of server/doors/terminal/."""

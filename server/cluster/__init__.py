"""Several `modernart-server` processes as one server, over Redis (issue 30).

bus.py is the link (Redis pub/sub, in order), nodes.py what each process knows of
the others (their rooms, seated players and people, who is alive, who owns a room),
relay.py a client's messages carried to its room's process and the answers carried
back, who.py `who` over every process, orphans.py the rooms nobody holds, adopted.
Without `--redis` none of this is imported: one process, as before.
"""

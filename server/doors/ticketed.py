"""The game server's side of doors on machines of their own (server/doors/machine.py).

A door machine's sessions reach the game server with signed tickets (server/wire/tickets.py)
naming the player's address and the session's key. What the hub tells a door
(server/doors/registry.py) about such a connection cannot reach the door's memory, so this
door answers it here from the ticket and the shared store:

- the list of devices names the connection by its key, as for a session on this machine;
- a `claim` with a code moves an SSH key to the claimed identity in the store's key table,
  so the key's next sign-in, on any door machine, lands there.

What stays on the door machine: a browser key's move to a claimed identity (its cookie,
set on the next visit) and a revoked device's session ending at once; the door learns
of neither (docs/decisions/30-doors.md).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from modernart.server.store.devices import SSH_GUEST, key_label
from modernart.server.wire.tickets import Ticket, Tickets

if TYPE_CHECKING:
    from modernart.server.store.port import StorePort
    from modernart.server.wire.session import Conn

log = logging.getLogger("modernart.server.doors")

BROWSER_PREFIX = "web:"  # server/doors/web/identity.py's BrowserKeys.PREFIX


class TicketDoor:
    """The `Door` of every door machine that holds this server's door secret."""

    def __init__(self, tickets: Tickets, store: StorePort) -> None:
        self.tickets = tickets
        self.store = store

    def _ticket(self, conn: Conn) -> Ticket | None:
        return self.tickets.read(conn.ticket)

    def welcomed(self, conn: Conn, token: str) -> None:
        """Nothing to keep: a door machine makes a guest's identity before its client
        starts (Terminals.open), so the session knows its token already."""

    def claimed(self, conn: Conn, token: str) -> None:
        ticket = self._ticket(conn)
        if ticket is None or ticket.key is None or ticket.key.startswith(BROWSER_PREFIX):
            return
        self.store.put_key_token(ticket.key, token)
        log.info("key %s now plays another identity (a hand-off code, door machine)", ticket.key)

    def device_label(self, conn: Conn) -> str | None:
        ticket = self._ticket(conn)
        if ticket is None:
            return None
        return key_label(ticket.key) if ticket.key is not None else SSH_GUEST

    def revoked(self, digest: str, by: str) -> None:
        """Nothing to end here: the revoked device's client was replaced when the revoking
        device connected, and its token no longer works (the store); the door machine's
        session shows that until its player leaves or its idle timeout."""

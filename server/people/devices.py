"""An identity's devices (issue 33): codes that add one, the list, and revoking one.

A `claim`ed code (server/people/handoff.py) gives the claiming device a token of its own,
never the token of the device that asked for the code: each device can then be
told apart, listed (`devices`, to the identity's own client only: ids, labels and
dates, never a token) and revoked (`revoke_device`) without touching the others.

One identity has one connection at a time (docs/decisions/33-devices.md): a
`hello` from another of its devices replaces the connection, and the replaced one
is told which device took over (`replaced {device, by, same}`) before it is closed
(4000); clients do not reconnect after 4000, so two devices never throw each other
out in a loop. A revoked device's token stops working at once; a terminal session
(SSH, the browser page) still open with it is ended by its door, told why
(server/doors/registry.py).
"""

from __future__ import annotations

import logging
import secrets
import time
from typing import TYPE_CHECKING, Any

from modernart.server.doors.registry import Doors
from modernart.server.people.handoff import VALID_S, Handoff, HandoffCodes, shown
from modernart.server.store.devices import Device
from modernart.server.store.sqlite import Store, StoreError
from modernart.server.wire.messages import Claim, Devices, RevokeDevice
from modernart.server.wire.messages import Handoff as HandoffAsk
from modernart.server.wire.refusal import Refused, reply

if TYPE_CHECKING:
    from modernart.server.wire.session import Conn

log = logging.getLogger("modernart.server")

MAX_DEVICES = 20  # devices one identity may have (a code is refused beyond: revoke one)
SEEN_EVERY = 60.0  # a device's `seen` is written at most this often (a hello each time)
NATIVE = "terminal client"  # a client that is no terminal session of this server's doors


class DeviceDesk:
    """The hub's handlers about devices (`handoff`, `claim`, `devices`, `revoke_device`)
    and what a `hello` asks of it (`arrived`, `replaced`)."""

    def __init__(
        self,
        store: Store,
        handoffs: HandoffCodes,
        doors: Doors,
    ) -> None:
        """`handoffs`, `doors`: the hub's (the browser door redeems codes too, a
        terminal session's key follows its client's claim, a door names its sessions'
        devices and ends a revoked one's session)."""
        self.store = store
        self.handoffs = handoffs
        self.doors = doors

    def label(self, conn: Conn) -> str:
        return self.doors.label(conn) or NATIVE

    # ----------------------------------------------------------------- hello

    def arrived(self, conn: Conn, token: str) -> None:
        """A `hello` with `token` was welcomed: the connection's device, its label (the
        door it came through) and when it was last seen."""
        device = self.store.device_of(token)
        if device is None:  # cannot be: the hello found or made it
            return
        conn.device = device.id
        label = self.label(conn)
        if label != device.label or time.time() - device.seen > SEEN_EVERY:
            try:
                self.store.device_seen(device.id, label)
            except StoreError as exc:  # only the list's dates: the hello goes on
                log.warning("%s", exc)

    def replaced(self, old: Conn, new: Conn) -> None:
        """`old`'s identity said hello from `new`: `old` is told from which device, then
        closed (4000; a client does not reconnect after it)."""
        same = new.device == old.device  # another window of the same device
        old.send({"t": "replaced", "device": new.device, "by": self.label(new), "same": same})
        old.close(4000, "replaced by a newer connection")

    # ------------------------------------------------------------- requests

    def on_handoff(self, conn: Conn, msg: HandoffAsk, rid: int | None) -> None:
        """A one-time code with which another device joins this identity (`claim`,
        or the browser page): server/people/handoff.py."""
        identity = conn.identity
        assert identity is not None  # handlers run after hello
        self._check_room(identity.id)
        code = self.handoffs.issue(identity.id, conn.device)
        conn.send(reply({"t": "handoff", "code": shown(code), "expires_s": int(VALID_S)}, rid))

    def on_claim(self, conn: Conn, msg: Claim, rid: int | None) -> None:
        """A new device (this client) for the identity a `handoff` code stands for: its
        own token, and the identity's name; the code is used up."""
        code = msg.code
        claimed = self.claim_code(code, conn.address, self.label(conn))
        if claimed is None:
            raise Refused("wrong_code", "this code is wrong, used or expired", abuse=True)
        token, name = claimed
        conn.send(reply({"t": "claimed", "token": token, "name": name}, rid))
        self.doors.claimed(conn, token)

    def claim_code(self, code: str, address: str, label: str) -> tuple[str, str] | None:
        """Redeem `code` (tried from `address`) for a new device labelled `label`: (its
        token, the identity's name); None if the code is wrong, used or expired, or its
        identity is gone. Refused `rate_limited` (the code is not tried) after too many
        wrong codes from `address`, `limit_reached` (`claim`). The browser door's way in
        too (server/doors/web/gate.py)."""
        if not self.handoffs.may_try(address):
            raise Refused("rate_limited", "too many wrong codes; wait a minute")
        handoff = self.handoffs.redeem(code, address)
        return None if handoff is None else self.claim(handoff, label)

    def claim(self, handoff: Handoff, label: str) -> tuple[str, str] | None:
        """A redeemed code's new device: (its token, the identity's name); None if the
        identity is gone (it expired meanwhile). Refused if it has MAX_DEVICES."""
        name = self.store.identity_name(handoff.identity_id)
        if name is None:
            return None
        self._check_room(handoff.identity_id)
        token = secrets.token_urlsafe(32)
        self.store.add_device(handoff.identity_id, token, label)
        log.info("identity %s: a new device (%s) with a code", handoff.identity_id, label)
        return token, name

    def on_devices(self, conn: Conn, msg: Devices, rid: int | None) -> None:
        """The identity's devices, oldest first, this one marked `current`."""
        conn.send(reply(self._listing(conn), rid))

    def on_revoke(self, conn: Conn, msg: RevokeDevice, rid: int | None) -> None:
        """Revoke another device of this identity: its token stops working now, a code
        it asked for too, and a terminal session open with it ends. The answer is the
        list without it."""
        identity = conn.identity
        assert identity is not None
        device = msg.device
        if device == conn.device:
            raise Refused("not_allowed", "this is the device you use now: quit here instead")
        digest = self.store.remove_device(identity.id, device)
        if digest is None:
            raise Refused("no_such_device", "you have no such device (revoked already?)")
        self.handoffs.cancel(identity.id, device)
        by = self.label(conn)
        log.info("identity %s: device %s revoked from %s", identity.id, device, by)
        self.doors.revoked(digest, by)
        conn.send(reply({**self._listing(conn), "revoked": device}, rid))

    # --------------------------------------------------------------- helpers

    def _listing(self, conn: Conn) -> dict[str, Any]:
        assert conn.identity is not None
        devices = self.store.devices_of(conn.identity.id)
        return {"t": "devices", "devices": [self._entry(d, conn) for d in devices]}

    @staticmethod
    def _entry(device: Device, conn: Conn) -> dict[str, Any]:
        return {
            "id": device.id,
            "label": device.label,
            "created": int(device.created),
            "seen": int(device.seen),
            "current": device.id == conn.device,
        }

    def _check_room(self, identity_id: str) -> None:
        if len(self.store.devices_of(identity_id)) >= MAX_DEVICES:
            raise Refused(
                "limit_reached",
                f"this identity has {MAX_DEVICES} devices: revoke one first (d in the lobby)",
            )

"""One-time codes that hand an identity to another device ("play this identity elsewhere").

A connected client asks for a code (`handoff`); another device that presents
the code (`claim`, or the browser page) becomes a device of that identity, with a
token of its own (server/people/devices.py: never the giver's token). A code is
8 characters of Crockford's base32 (40 bits), used once, valid 10 minutes, and
an identity has at most one at a time. Wrong codes count against the address
like wrong room passwords, so guessing one of 2^40 in 10 minutes is hopeless.
One process alone keeps its codes in memory (`HandoffCodes`): a restart forgets them
(ask for a new one). The processes of a cluster keep them in the store they share
(`StoredHandoffCodes`, server/store/handoffs.py), so a code is good once on any of
them, and count each other's wrong codes (server/cluster/rates.py).
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from modernart.server.limits import PASSWORD_TRIES, Buckets
from modernart.server.store.errors import token_hash

if TYPE_CHECKING:
    from modernart.server.store.port import StorePort

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford: no I, L, O, U
LENGTH = 8
VALID_S = 600.0
# Letters people mistype for digits, as Crockford's decoding reads them.
READS_AS = str.maketrans({"I": "1", "L": "1", "O": "0"})


def normal(code: str) -> str:
    """The code as typed, without dashes or spaces, in upper case, I/L/O read as 1/1/0."""
    return "".join(c for c in code.upper() if c.isalnum()).translate(READS_AS)


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def shown(code: str) -> str:
    """`ABCD-EFGH`: how the lobby shows a code."""
    return f"{code[:4]}-{code[4:]}"


@dataclass
class Handoff:
    identity_id: str
    device: str | None  # the device that asked for it (a revoked device's code goes too)
    expires: float


class HandoffCodes:
    """The codes issued and not yet used; `tries` limits wrong codes per address."""

    def __init__(self, tries_per_minute: float) -> None:
        self.codes: dict[str, Handoff] = {}
        self.by_identity: dict[str, str] = {}
        self.tries = Buckets(PASSWORD_TRIES, tries_per_minute / 60) if tries_per_minute else None

    def issue(self, identity_id: str, device: str | None, now: float | None = None) -> str:
        """A new code for the identity (its earlier one stops working)."""
        now = time.monotonic() if now is None else now
        self.prune(now)
        old = self.by_identity.pop(identity_id, None)
        if old is not None:
            self.codes.pop(old, None)
        code = new_code()
        while code in self.codes:
            code = new_code()
        self.codes[code] = Handoff(identity_id, device, now + VALID_S)
        self.by_identity[identity_id] = code
        return code

    def may_try(self, address: str) -> bool:
        """Whether `address` may present a code now (wrong ones spend its tries)."""
        return self.tries is None or self.tries[address].ready()

    def redeem(self, code: str, address: str, now: float | None = None) -> Handoff | None:
        """The hand-off of a valid code, which is then used up; None (a try spent) if not."""
        now = time.monotonic() if now is None else now
        self.prune(now)
        handoff = self.codes.pop(normal(code), None)
        if handoff is None:
            self.wrong(address)
            return None
        del self.by_identity[handoff.identity_id]
        return handoff

    def wrong(self, address: str) -> None:
        """A wrong code from `address`: one of its tries spent."""
        if self.tries is not None:
            self.tries.take(address)

    def cancel(self, identity_id: str, device: str) -> None:
        """The identity's code stops working if `device` asked for it (now revoked)."""
        code = self.by_identity.get(identity_id)
        if code is not None and self.codes[code].device == device:
            del self.codes[code], self.by_identity[identity_id]

    def prune(self, now: float) -> None:
        for code, handoff in list(self.codes.items()):
            if handoff.expires <= now:
                del self.codes[code]
                del self.by_identity[handoff.identity_id]
        if self.tries is not None:
            self.tries.prune()


class StoredHandoffCodes(HandoffCodes):
    """A cluster's codes: in the shared store (server/store/handoffs.py), hashed, each
    taken once by whichever process it is presented to; the same rules as in memory.
    Expiry is wall-clock time, which the processes share."""

    def __init__(self, store: StorePort, tries_per_minute: float) -> None:
        super().__init__(tries_per_minute)
        self.store = store

    def issue(self, identity_id: str, device: str | None, now: float | None = None) -> str:
        now = time.time() if now is None else now
        while True:  # another identity's code with the same hash: 1 in 2^40, draw again
            code = new_code()
            if self.store.put_handoff(token_hash(code), identity_id, device, now + VALID_S, now):
                return code

    def redeem(self, code: str, address: str, now: float | None = None) -> Handoff | None:
        now = time.time() if now is None else now
        self.prune(now)
        taken = self.store.take_handoff(token_hash(normal(code)), now)
        if taken is None:
            self.wrong(address)
            return None
        return Handoff(*taken)

    def cancel(self, identity_id: str, device: str) -> None:
        self.store.cancel_handoff(identity_id, device)

    def prune(self, now: float) -> None:
        """The tries' full buckets (expired codes go with the next code issued)."""
        if self.tries is not None:
            self.tries.prune()

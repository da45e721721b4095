"""One-time codes that hand an identity to another device ("play this identity elsewhere").

A connected client asks for a code (`handoff`); another device that presents
the code (`claim`, or the browser page) becomes a device of that identity, with a
token of its own (server/people/devices.py: never the giver's token). A code is
8 characters of Crockford's base32 (40 bits), used once, valid 10 minutes, and
an identity has at most one at a time. Wrong codes count against the address
like wrong room passwords, so guessing one of 2^40 in 10 minutes is hopeless.
Codes live in memory only: a restart forgets them (ask for a new one).
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass

from modernart.server.limits import PASSWORD_TRIES, Buckets

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford: no I, L, O, U
LENGTH = 8
VALID_S = 600.0
# Letters people mistype for digits, as Crockford's decoding reads them.
READS_AS = str.maketrans({"I": "1", "L": "1", "O": "0"})


def normal(code: str) -> str:
    """The code as typed, without dashes or spaces, in upper case, I/L/O read as 1/1/0."""
    return "".join(c for c in code.upper() if c.isalnum()).translate(READS_AS)


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
        code = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
        while code in self.codes:
            code = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
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
            if self.tries is not None:
                self.tries[address].take()
            return None
        del self.by_identity[handoff.identity_id]
        return handoff

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

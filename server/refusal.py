"""`Refused`: a well-formed request that may not be done now, answered `error {code}`."""

from __future__ import annotations

from typing import Any


class Refused(Exception):
    """A well-formed request that may not be done now: `error {code}`; an `abuse`
    refusal also counts towards closing the connection. `extra`: more fields of the
    error (e.g. `name_taken`'s `suggestion`)."""

    def __init__(
        self, code: str, message: str, *, abuse: bool = False, extra: dict[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.abuse = abuse
        self.extra = extra or {}

"""`Refused`: a well-formed request that may not be done now, answered `error {code}`;
and the shape of answers (`error`, `reply`)."""

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


def error(code: str, message: str, rid: int | None) -> dict[str, Any]:
    """The `error` a refused request is answered with (`re`: its id, if it had one)."""
    out: dict[str, Any] = {"t": "error", "code": code, "message": message}
    if rid is not None:
        out["re"] = rid
    return out


def reply(message: dict[str, Any], rid: int | None) -> dict[str, Any]:
    """`message` as the answer to the request with id `rid` (if it had one)."""
    if rid is not None:
        message["re"] = rid
    return message

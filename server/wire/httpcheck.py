"""What both listeners read of an HTTP request's headers, read so that a malformed
request is a 400 and never an exception (issue 33: two `Origin` headers raised
websockets' `MultipleValuesError`, an HTTP 500 and a traceback per request).

A header the server acts on that must have one value (`Origin`, `Host`,
`Authorization`) and comes twice is refused; list headers (`X-Forwarded-For`,
`Cookie`) may come in several lines, which are read together as HTTP says.
"""

from __future__ import annotations

from websockets.datastructures import Headers

PAGE_METHODS = ("GET", "HEAD")  # what the page and its files answer (405 to others)


class BadRequest(Exception):
    """A request the server does not read further: answered 400 with this text."""


def single(headers: Headers, name: str) -> str | None:
    """The one value of header `name`, None if absent; BadRequest if it comes twice."""
    values = headers.get_all(name)
    if len(values) > 1:
        raise BadRequest(f"more than one {name} header")
    return values[0] if values else None


def forwarded_for(headers: Headers) -> str | None:
    """The last address of `X-Forwarded-For` (the one the trusted proxy added), all
    its lines together; None if there is none."""
    values = headers.get_all("X-Forwarded-For")
    last = ",".join(values).split(",")[-1].strip() if values else ""
    return last or None


def cookies(headers: Headers) -> str | None:
    """Every `Cookie` line as one (a proxy may split them)."""
    values = headers.get_all("Cookie")
    return "; ".join(values) if values else None


def small_int(value: str, digits: int = 6) -> int | None:
    """A query parameter's decimal number of at most `digits` ASCII digits, else None
    (`int()` of 5,000 digits or of `²` raises)."""
    if len(value) <= digits and value.isascii() and value.isdigit():
        return int(value)
    return None

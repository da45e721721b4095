"""The browser's identity: its token in an HttpOnly cookie, set on the WebSocket handshake.

The page never sees the token: the cookie is HttpOnly (no script reads it),
SameSite=Strict (no other site's page sends it), Secure when the page came
over HTTPS, scoped to this server's path `/`. It is set on the 101 answer of
the WebSocket handshake, the one response that knows the identity: on the
first visit (a new identity), when the server no longer knew the old token, and
when a code from another device took an identity over.
"""

from __future__ import annotations

from http.cookies import CookieError, SimpleCookie

from modernart.server.doors.terminal import KeyTokens

COOKIE = "modernart_token"
MAX_AGE = 400 * 24 * 3600  # the longest browsers keep a cookie (400 days)
SUBPROTOCOL = "modernart.v1"
CLAIM_PREFIX = "claim."


def cookie_token(header: str | None) -> str | None:
    """The token in a `Cookie:` header, if there is one."""
    if not header:
        return None
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(header)
    except CookieError:
        return None
    morsel = jar.get(COOKIE)
    return morsel.value if morsel is not None and morsel.value else None


def set_cookie(token: str, secure: bool) -> str:
    """The `Set-Cookie:` value that keeps `token` in this browser."""
    parts = [f"{COOKIE}={token}", "Path=/", f"Max-Age={MAX_AGE}", "HttpOnly", "SameSite=Strict"]
    if secure:
        parts.append("Secure")
    return "; ".join(parts)


def claimed_code(protocols: list[str]) -> str | None:
    """The hand-off code the page offers as a subprotocol `claim.CODE`, if any."""
    for protocol in protocols:
        if protocol.startswith(CLAIM_PREFIX):
            return protocol[len(CLAIM_PREFIX) :]
    return None


class BrowserKeys:
    """The terminals' key table with browsers' keys in front: `web:<device id>` → token.

    A browser's token comes from its cookie on every visit, so its entries live
    in memory only, put by the gate before a session opens; any other key (an
    SSH key's fingerprint) goes to the table this one wraps. A browser key given
    another identity's token (the page's client took that identity over with a
    code, `claim`) is remembered in `moved` until the browser's next visit,
    whose handshake then sets its cookie to the claimed identity.
    """

    PREFIX = "web:"

    def __init__(self, other: KeyTokens | None) -> None:
        self.other = other
        self.tokens: dict[str, str] = {}
        self.moved: dict[str, str] = {}

    def get(self, key: str) -> str | None:
        if key.startswith(self.PREFIX):
            return self.tokens.get(key)
        return self.other.get(key) if self.other is not None else None

    def put(self, key: str, token: str) -> None:
        if key.startswith(self.PREFIX):
            if self.tokens.get(key, token) != token:
                self.moved[key] = token
            self.tokens[key] = token
        elif self.other is not None:
            self.other.put(key, token)

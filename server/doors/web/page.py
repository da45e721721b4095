"""The HTTP side of the browser door: the page, its static files and their headers.

Everything the page loads comes from this package (`static/`): xterm.js and its
fit addon as npm builds them, our script and style. The page's
Content-Security-Policy allows nothing else: scripts and styles from this
origin only (xterm.js's own <style> elements carry the page's nonce), the
WebSocket back to this origin, no frames, no forms elsewhere.
"""

from __future__ import annotations

import http
import secrets
from importlib import resources

from websockets.datastructures import Headers
from websockets.http11 import Response

STATIC = {
    "xterm.js": "text/javascript; charset=utf-8",
    "addon-fit.js": "text/javascript; charset=utf-8",
    "page.js": "text/javascript; charset=utf-8",
    "xterm.css": "text/css; charset=utf-8",
    "page.css": "text/css; charset=utf-8",
}


def _read(name: str) -> bytes:
    return resources.files(__package__).joinpath("static", name).read_bytes()


FILES = {name: _read(name) for name in STATIC}
INDEX = _read("index.html").decode()

COMMON = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}


def csp(nonce: str) -> str:
    """The page's policy: this origin only, inline styles only with the nonce."""
    return "; ".join(
        [
            "default-src 'none'",
            "script-src 'self'",
            f"style-src 'self' 'nonce-{nonce}'",
            "connect-src 'self'",
            "img-src 'self'",
            "font-src 'self'",
            "base-uri 'none'",
            "form-action 'none'",
            "frame-ancestors 'none'",
        ]
    )


def respond(status: int, body: bytes, content_type: str, **extra: str) -> Response:
    headers = Headers(COMMON)
    headers["Content-Type"] = content_type
    headers["Content-Length"] = str(len(body))
    for name, value in extra.items():
        headers[name.replace("_", "-")] = value
    return Response(status, http.HTTPStatus(status).phrase, headers, body)


def text(status: int, message: str) -> Response:
    return respond(
        status, (message + "\n").encode(), "text/plain; charset=utf-8", Cache_Control="no-store"
    )


def page() -> Response:
    """`/`: the page, with a fresh nonce for xterm.js's styles."""
    nonce = secrets.token_urlsafe(16)
    body = INDEX.replace("{nonce}", nonce).encode()
    return respond(
        200,
        body,
        "text/html; charset=utf-8",
        Content_Security_Policy=csp(nonce),
        Cache_Control="no-store",
        X_Frame_Options="DENY",
    )


def static(name: str) -> Response:
    """`/static/NAME`: one of the package's files, or 404."""
    if name not in STATIC:
        return text(404, "not found")
    return respond(200, FILES[name], STATIC[name], Cache_Control="public, max-age=3600")


def not_allowed(methods: tuple[str, ...]) -> Response:
    """405 to a method the path does not answer, with the ones it does."""
    return respond(
        405,
        b"method not allowed\n",
        "text/plain; charset=utf-8",
        Allow=", ".join(methods),
        Cache_Control="no-store",
    )


def for_method(method: str, response: Response) -> Response:
    """`response` as GET gets it, or to HEAD: the same headers without the body."""
    if method == "HEAD":
        return Response(response.status_code, response.reason_phrase, response.headers, b"")
    return response

"""The store's error and how it keeps tokens (server/store/sqlite.py and its tables use both)."""

from __future__ import annotations

import hashlib


def token_hash(token: str) -> str:
    """Tokens are long random secrets, so a plain SHA-256 is enough to match them."""
    return hashlib.sha256(token.encode()).hexdigest()


class StoreError(OSError):
    """The database refused a write (or could not be opened): nothing was stored.
    An OSError, so that the command line reports it in one line like other I/O errors."""

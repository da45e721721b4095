"""A worker's memory: handing back what its ended sessions held (issue 33 item 7).

Python frees objects into its own allocator and glibc's, which keep the pages for
later: a worker that grew under a hostile session stayed at its peak after the
session ended. A full collection (the zygote's frozen objects are not visited:
zygote.py; the worker runs it when its sessions are quiet: collector.py) and then
glibc's `malloc_trim(0)` give the free pages back to the system.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from functools import cache
from typing import Any


@cache
def _libc() -> Any:
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name)
        libc.malloc_trim  # noqa: B018 (glibc only)
    except (OSError, AttributeError, TypeError):
        return None
    return libc


def hand_back() -> None:
    """Give free heap pages back to the system (after a full collection)."""
    libc = _libc()
    if libc is not None:
        libc.malloc_trim(0)

"""A review worker's part that waits for the test (issue 32): the first part of a
review blocks on a FIFO until the test writes to it, so a test knows a review is
under way, without a guessed sleep. Module-level and used through
`functools.partial`, so the spawned review worker can unpickle it."""

from __future__ import annotations

import contextlib
import os
import pathlib
from typing import Any

from modernart.server.rooms.reviewwork import review_part


def held_part(fifo: str, *args: Any) -> list[dict[str, Any]]:
    """`review_part(*args)`, after one byte from `fifo` if it is still there (the
    first part only: the FIFO is removed once read)."""
    if os.path.exists(fifo):
        with open(fifo, "rb") as f:
            f.read(1)
        os.unlink(fifo)
    return review_part(*args)


def crashing_part(*args: Any) -> list[dict[str, Any]]:
    """A review worker that dies in the middle of a part."""
    os._exit(3)


def release(fifo: pathlib.Path) -> None:
    """Let the held part go on (blocks until the worker opened the FIFO: run it in a
    thread)."""
    with open(fifo, "wb") as f:
        f.write(b"x")


def unblock(fifo: pathlib.Path) -> None:
    """After a test: whoever still waits at the FIFO (worker or releasing thread) goes on."""
    for flags in (os.O_WRONLY, os.O_RDONLY):
        with contextlib.suppress(OSError):
            fd = os.open(fifo, flags | os.O_NONBLOCK)
            if flags == os.O_WRONLY:
                os.write(fd, b"x")
            os.close(fd)

"""Waiting for a state that changes with nothing to await (the server's own loop, a
process as /proc shows it): tests poll it until it holds, never sleep a guessed time."""

from __future__ import annotations

import asyncio
from collections.abc import Callable


async def eventually(
    predicate: Callable[[], object],
    what: str = "the condition",
    timeout: float = 10.0,
    interval: float = 0.01,
) -> None:
    """Return once `predicate()` holds; fail after `timeout` seconds, naming `what`."""
    try:
        async with asyncio.timeout(timeout):
            while not predicate():
                await asyncio.sleep(interval)
    except TimeoutError:
        raise AssertionError(f"timed out waiting for {what}") from None

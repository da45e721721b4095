"""Rooms nobody holds, found by a scan of the store and adopted.

A process killed (`kill -9`) between a room's creation and its next beat (`SOON_S`)
leaves a room no other process heard of: no beat named it, so nobody takes it when the
process falls silent, and its owner key was never set. So each process looks, every
`SCAN_S` or so (jittered, so that the processes' scans spread out), for the store's
unfinished rooms made more than `ORPHAN_AGE_S` ago that neither it nor any living
process lists, and claims those whose owner key is missing with the take-over's
compare-and-set (nodes.py's `CLAIM`, for nobody): two processes scanning at once
cannot both win a room, and a room whose owner lives is never taken, however slow its
renewal: its key lasts `OWNER_TTL_MS` and only a missing key counts. The rooms won are
restored and their players seated again as after a take-over (relay.py's `adopt`).

Why the age: a new room is in the store before its first beat sets its key (`SOON_S`
later, a round trip to Redis after that); `ORPHAN_AGE_S` is far past it, and past
`OWNER_TTL_MS`, so a room that old without a key has had no holder renewing it for
that long. Cost, with nothing to find: one query of the store's unfinished rooms' ids
(an index of those rows alone, server/store/postgresql.py) per `SCAN_S`, no Redis call.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from modernart.server.cluster.nodes import Nodes

if TYPE_CHECKING:
    from modernart.server.store.port import StorePort

log = logging.getLogger("modernart.server")

SCAN_S = 10.0  # a scan about this often (from half to one and a half times) …
ORPHAN_AGE_S = 30.0  # … for rooms made at least this long ago


class ScanHost(Protocol):
    """What the scan needs of the hub (server/hub.py's `Hub`)."""

    store: StorePort
    rooms: dict[str, Any]
    stopping: bool


class OrphanScan:
    def __init__(
        self,
        hub: ScanHost,
        nodes: Nodes,
        adopt: Callable[[list[str], str], list[str]],
        *,
        every: float | None = None,
        older_than: float | None = None,
    ) -> None:
        """`adopt`: restores rooms this process claimed (relay.py's `Cluster.adopt`);
        `every`, `older_than`: `SCAN_S` and `ORPHAN_AGE_S` unless given."""
        self.hub = hub
        self.nodes = nodes
        self._adopt = adopt
        self.every = SCAN_S if every is None else every
        self.older_than = ORPHAN_AGE_S if older_than is None else older_than
        self._task: asyncio.Task | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._scans())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    async def _scans(self) -> None:
        while True:
            await asyncio.sleep(self.every * random.uniform(0.5, 1.5))
            try:
                await self.once()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("cluster: the scan for rooms nobody holds failed")

    async def once(self) -> list[str]:
        """One scan: the rooms this process adopted."""
        hub = self.hub
        if hub.stopping:
            return []
        made_before = time.time() - self.older_than
        unheld = [
            room_id
            for room_id in hub.store.unfinished_room_ids(made_before)
            if room_id not in hub.rooms and self.nodes.owner_of(room_id) is None
        ]
        if not unheld:
            return []
        won = await self.nodes.claim(unheld)  # only where the owner key is missing
        if hub.stopping:
            return []  # its keys lapse: the next scan of another process finds them
        return self._adopt(won, "no process (a scan of the store)")

"""The processes' link: Redis pub/sub, each process on a channel of its own.

Sending never awaits (the hub is synchronous): a payload is queued and one writer
task publishes what is queued, in order: everything queued for one channel since the
last write goes as one Redis message (a msgpack list of payloads), all channels in one
pipelined round trip. Redis delivers a channel's messages in the order they were
published, so a client's answers reach its process in the order the room's process
made them. A reader task hands every payload received to `on_message`, one at a time,
on the loop. (One message per payload cost twice the CPU an act in a two-process
cluster: redis-py's work per command and per message read is most of a hop's cost.)
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import msgpack
import redis.asyncio as redis

log = logging.getLogger("modernart.server")

PREFIX = "modernart:"
LOBBY = PREFIX + "lobby"  # every process's beats: its rooms and seated players


def channel_of(node: str) -> str:
    """The channel a process reads what is sent to it on."""
    return f"{PREFIX}to:{node}"


class Bus:
    def __init__(self, url: str, node: str) -> None:
        self.url = url
        self.node = node
        self.redis = redis.Redis.from_url(url)
        self._queue: dict[str, list[dict]] = {}  # channel → payloads, in order
        self._wake = asyncio.Event()
        self._drained = asyncio.Event()  # set when the queue is empty and published
        self._busy = False  # a batch is being published
        self._tasks: list[asyncio.Task] = []
        self.on_message: Callable[[str, dict], None] = lambda channel, payload: None
        self.published = 0  # Redis messages published (for the benchmarks)

    async def start(self, on_message: Callable[[str, dict], None]) -> None:
        """Connect and subscribe (raises if Redis cannot be reached)."""
        self.on_message = on_message
        await self.redis.ping()
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(channel_of(self.node), LOBBY)
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._read()), loop.create_task(self._write())]

    async def stop(self) -> None:
        await self.flush()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks = []
        await self._pubsub.aclose()
        await self.redis.aclose()

    def send(self, node: str, payload: dict) -> None:
        """`payload` to process `node`, after everything sent before it."""
        self.publish(channel_of(node), payload)

    def publish(self, channel: str, payload: dict) -> None:
        queued = self._queue.get(channel)
        if queued is None:
            self._queue[channel] = [payload]
            self._wake.set()
        else:
            queued.append(payload)

    async def flush(self) -> None:
        """Until what is queued now has been published (shutdown, tests)."""
        while (self._queue or self._busy) and self._tasks and not self._tasks[1].done():
            self._drained.clear()
            await self._drained.wait()

    async def _write(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            batch, self._queue = self._queue, {}
            if batch:
                self._busy = True
                pipe = self.redis.pipeline(transaction=False)
                for channel, payloads in batch.items():
                    pipe.publish(channel, msgpack.packb(payloads, use_bin_type=True))
                try:
                    await pipe.execute()
                    self.published += len(batch)  # Redis messages
                except Exception:
                    log.exception("cluster: messages to %d processes lost", len(batch))
                self._busy = False
            if not self._queue:
                self._drained.set()

    async def _read(self) -> None:
        while True:
            try:
                message = await self._pubsub.get_message(timeout=None)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("cluster: reading from Redis failed")
                await asyncio.sleep(1)  # not a busy loop while Redis is away
                continue
            if message is None:
                continue
            channel = message["channel"].decode()
            try:
                payloads = msgpack.unpackb(message["data"], raw=False)
            except Exception:
                log.exception("cluster: an unreadable message on %s", channel)
                continue
            for payload in payloads:
                try:
                    self.on_message(channel, payload)
                except Exception:
                    log.exception("cluster: a message on %s failed", channel)

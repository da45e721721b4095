"""Fairness inside the shared terminal workers (issue 33 item 7): where sessions are
placed, each session's share of its worker's input, and a worker's memory."""

from __future__ import annotations

import asyncio

import asyncssh

from .sshgate import lobby


def workers_of(gate) -> dict[int, list[str]]:
    """The sessions' peers by the pid of the worker that holds them."""
    workers: dict[int, list[str]] = {}
    for session in gate.sessions:
        workers.setdefault(session.process.pid, []).append(session.process.peer)
    return workers


async def test_sessions_of_one_address_never_fill_a_worker(ssh):
    gate = await ssh()  # 8 sessions a worker, 4 an address, 2 of an address a worker
    keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(4)]
    await asyncio.gather(*(lobby(gate, k, f"m{i}", "127.0.0.7") for i, k in enumerate(keys)))
    spread = workers_of(gate)
    assert sorted(len(peers) for peers in spread.values()) == [2, 2]
    # Another address joins a worker that has room; it is not given one of its own.
    await lobby(gate, asyncssh.generate_private_key("ssh-ed25519"), "n", "127.0.0.8")
    after = workers_of(gate)
    assert len(after) == 2 and sorted(len(p) for p in after.values()) == [2, 3]

"""Fixtures shared by the server's and the client's tests: a real in-process server."""

from __future__ import annotations

import gc
import pathlib
from collections.abc import AsyncIterator, Iterator

import pytest
from longfirst import long_first
from nursery import Nursery

from modernart.server.doors.terminal import workers
from modernart.server.wire.app import Server


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    long_first(items)


def pytest_collection_finish(session: pytest.Session) -> None:
    """What the imports and the collection made lives as long as the test process:
    frozen, no full garbage collection walks it again. Each walked about 136,000 objects
    (75 ms of CPU), a tenth of the client's tests' CPU (docs/decisions/29-vtime.md)."""
    gc.collect()
    gc.freeze()


@pytest.fixture(autouse=True, scope="session")
def zygotes_from_one_warm_process() -> Iterator[None]:
    """Every terminal door's zygote is forked from this test process's nursery
    (tests/nursery.py) instead of importing and warming up the client again."""
    nursery = Nursery()
    workers.launch = nursery.launch
    yield
    workers.launch = workers.run_zygote
    nursery.stop()


@pytest.fixture
async def server(tmp_path: pathlib.Path) -> AsyncIterator[Server]:
    """`modernart-server --dev` in this event loop, on a free loopback port."""
    srv = Server(tmp_path / "server-data", port=0, dev=True)
    await srv.start()
    yield srv
    await srv.stop()


@pytest.fixture
def url(server: Server) -> str:
    return f"ws://127.0.0.1:{server.port}/"

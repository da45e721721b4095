"""Fixtures shared by the server's and the client's tests: a real in-process server."""

from __future__ import annotations

import pathlib
from collections.abc import AsyncIterator

import pytest
from longfirst import long_first

from modernart.server.wire.app import Server


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    long_first(items)


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

"""A throwaway Redis for the cluster's tests (issue 30): Debian's `redis-server`, one
per test, reached only through a unix socket in a temporary folder (no TCP port,
nothing saved). Where redis-server or redis-py is absent the tests skip saying why,
but fail under `CI` (.ci/run installs redis-server).
"""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import tempfile
from collections.abc import Iterator

import pytest

from .pgcluster import require

REDIS = "/usr/bin/redis-server"


def missing() -> str | None:
    """Why the cluster's tests cannot run here (None: they can)."""
    if not os.path.exists(REDIS):
        return "needs Debian's redis-server (apt-get install redis-server; .ci/run installs it)"
    try:
        import redis  # noqa: F401
    except ImportError:
        return "needs redis-py (pip install -e '.[test]')"
    return None


class RedisServer:
    """A running redis-server; `url` reaches it."""

    def __init__(self) -> None:
        self.dir = pathlib.Path(tempfile.mkdtemp(prefix="modernart-redis-"))
        self.socket = self.dir / "redis.sock"
        self.proc = subprocess.Popen(
            [
                REDIS,
                "--port",
                "0",
                "--unixsocket",
                str(self.socket),
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.dir),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        assert self.proc.stdout is not None
        seen = []
        for line in self.proc.stdout:  # until it says it is ready (or exits)
            seen.append(line)
            if "ready to accept connections" in line.lower():
                break
        else:
            raise RuntimeError("redis-server did not start:\n" + "".join(seen))
        self.url = f"unix://{self.socket}"

    def stop(self) -> None:
        self.proc.kill()
        self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture
def redis_url() -> Iterator[str]:
    require(missing())
    server = RedisServer()
    yield server.url
    server.stop()

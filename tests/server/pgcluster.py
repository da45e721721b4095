"""A throwaway PostgreSQL for the store's tests (issue 30): Debian's binaries, a
cluster of the test session's own in a temporary folder, reached only through a
unix socket there, and a fresh database per test.

PostgreSQL refuses to run as root: as root (CI) the cluster belongs to the
`postgres` user Debian's package creates, and its commands run through `runuser`.
Where PostgreSQL or psycopg is absent the tests that need it skip, saying why
(`.ci/run` installs PostgreSQL, so CI never skips them).
"""

from __future__ import annotations

import glob
import itertools
import os
import pathlib
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator

import pytest

from .wsclient import free_port

BACKENDS = ["sqlite", "postgresql"]


def bin_dir() -> pathlib.Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return pathlib.Path(found[-1]).parent if found else None


def missing() -> str | None:
    """Why the PostgreSQL tests cannot run here (None: they can)."""
    if bin_dir() is None:
        return "needs Debian's postgresql (apt-get install postgresql; .ci/run installs it)"
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "needs psycopg (pip install -e '.[test]')"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "runs as root and finds no `postgres` user to run PostgreSQL as"
    return None


class Cluster:
    """A running cluster: `database()` makes an empty database and gives its URL."""

    def __init__(self) -> None:
        binaries = bin_dir()
        assert binaries is not None
        self.bin = binaries
        self.dir = pathlib.Path(tempfile.mkdtemp(prefix="modernart-pg-"))
        self.port = free_port()  # names the socket file; no TCP listener
        self._as: list[str] = []
        if os.geteuid() == 0:
            self._as = ["runuser", "-u", "postgres", "--"]
            shutil.chown(self.dir, "postgres", "postgres")
        self._count = itertools.count()
        data = self.dir / "data"
        self._run("initdb", "-D", data, "-U", "modernart", "--auth=trust", "-E", "UTF8", "-N")
        # Durability is not what these tests are about: no fsync, for speed; small, as
        # each test worker (pytest-xdist) starts a cluster of its own.
        options = (
            f"-k {self.dir} -p {self.port} -c listen_addresses= -c fsync=off"
            " -c synchronous_commit=off -c full_page_writes=off"
            " -c shared_buffers=16MB -c max_connections=30"
        )
        log = self.dir / "log"
        self._run("pg_ctl", "-D", data, "-l", log, "-w", "-o", options, "start")
        self.data = data

    def _run(self, tool: str, *args: object) -> None:
        cmd = [*self._as, str(self.bin / tool), *map(str, args)]
        subprocess.run(cmd, check=True, capture_output=True)

    def url(self, database: str) -> str:
        return f"postgresql://modernart@/{database}?host={self.dir}&port={self.port}"

    def database(self) -> str:
        import psycopg

        name = f"t{next(self._count)}"
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self) -> None:
        self._run("pg_ctl", "-D", self.data, "-m", "immediate", "stop")
        shutil.rmtree(self.dir, ignore_errors=True)


def require(reason: str | None) -> None:
    """A test that needs what `reason` says is missing skips, saying why; under `CI`
    (whose .ci/run installs it) it fails instead. None: nothing is missing."""
    if reason is not None:
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    require(missing())
    cluster = Cluster()
    yield cluster
    cluster.stop()


@pytest.fixture(params=BACKENDS)
def store_url(request: pytest.FixtureRequest) -> str | None:
    """None: SQLite in the data directory (the default); else an empty PostgreSQL
    database's URL (`--store`). Tests taking it run on both backends."""
    if request.param == "sqlite":
        return None
    cluster: Cluster = request.getfixturevalue("pg_cluster")
    return cluster.database()

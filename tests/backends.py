"""PostgreSQL for the tests: the ``store`` / ``store_backend`` fixtures (conftest) run a
test on SQLite and on a real PostgreSQL.

PostgreSQL comes from ``TEST_DATABASE_URL`` (``.ci/run`` starts a throwaway cluster and
sets it); without it, when the PostgreSQL binaries are installed (Debian keeps them in
/usr/lib/postgresql/<v>/bin), each test session starts its own throwaway cluster in a
temporary directory on a free loopback port and stops it at the end.  With neither,
the PostgreSQL cases skip and the run ends with one line saying so.
Every PostgreSQL test gets a fresh database of its own (dropped afterwards).
"""

from __future__ import annotations

import asyncio
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

ENV = "TEST_DATABASE_URL"


def pg_bindir() -> str | None:
    found = shutil.which("initdb")
    if found:
        return str(Path(found).resolve().parent)
    dirs = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: [int(x) for x in p.split("/")[4].split(".") if x.isdigit()],
    )
    return str(Path(dirs[-1]).parent) if dirs else None


def availability() -> tuple[bool, str]:
    """(usable, why not) without starting anything."""
    if os.environ.get(ENV):
        return True, ""
    if pg_bindir() is None:
        return False, f"{ENV} is not set and no PostgreSQL binaries (initdb) were found"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return False, "running as root and there is no 'postgres' user to run a throwaway cluster"
    return True, ""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """A throwaway PostgreSQL cluster (fsync off: test data only)."""

    def __init__(self, bindir: str):
        self.bindir = bindir
        self.dir = tempfile.mkdtemp(prefix="tg-pg-")
        self.port = _free_port()
        self.as_user: list[str] = []
        if os.geteuid() == 0:  # PostgreSQL refuses to run as root
            shutil.chown(self.dir, "postgres")
            self.as_user = ["runuser", "-u", "postgres", "--"]

    def run(self, *args: str) -> None:
        subprocess.run([*self.as_user, *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def start(self) -> str:
        data = f"{self.dir}/data"
        self.run(f"{self.bindir}/initdb", "-D", data, "-A", "trust", "-U", "postgres", "--no-sync")
        opts = (
            f"-k {self.dir} -p {self.port} -c listen_addresses=127.0.0.1 -c fsync=off"
            " -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        )
        self.run(f"{self.bindir}/pg_ctl", "-D", data, "-w", "-l", f"{self.dir}/log", "-o", opts, "start")
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def stop(self) -> None:
        try:
            self.run(f"{self.bindir}/pg_ctl", "-D", f"{self.dir}/data", "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="session")
def pg_server():
    """The admin URL of a PostgreSQL server, or a skip."""
    ok, why = availability()
    if not ok:
        pytest.skip(f"PostgreSQL tests skipped: {why}")
    if os.environ.get(ENV):
        yield os.environ[ENV]
        return
    bindir = pg_bindir()
    assert bindir is not None
    cluster = Cluster(bindir)
    try:
        url = cluster.start()
    except subprocess.CalledProcessError as exc:
        cluster.stop()
        pytest.fail(f"could not start a throwaway PostgreSQL cluster: {exc.stderr.decode(errors='replace')}")
    yield url
    cluster.stop()


def with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + name))


async def _admin(url: str, sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@pytest.fixture
def pg_database(pg_server):
    """A fresh, empty database on the server (dropped afterwards): its URL."""
    name = "t_" + uuid.uuid4().hex[:16]
    asyncio.run(_admin(pg_server, f"CREATE DATABASE {name}"))
    yield with_database(pg_server, name)
    asyncio.run(_admin(pg_server, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))


class Backend(str):
    """A backend name ("sqlite", "postgresql") that also carries the URL of its fresh database."""

    url: str

    def __new__(cls, name: str, url: str) -> Backend:
        self = super().__new__(cls, name)
        self.url = url
        return self


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    ok, why = availability()
    if not ok:
        terminalreporter.write_line(f"PostgreSQL tests skipped: {why}")

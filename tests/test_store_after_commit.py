"""What follows a write must not rewrite its outcome (issue 28 items 14 and 15).

* PostgreSQL: handing a connection back to the pool resets it (a query of its own).
  When that fails after a successful COMMIT (the server restarting just then), the
  change was saved and the caller is told so: the COMMIT decides, not the reset.
* SQLite on a full disk: ``close()`` checkpoints the write-ahead log into the
  database file; when the disk has no room for it, the store still closes, says
  what was left in the log, and nothing committed is lost (the log is applied when
  the database is next opened).  The full disk is a real one for the SQLite driver:
  the process may not grow a file past a size (RLIMIT_FSIZE), so its writes come
  back short and SQLite answers SQLITE_FULL, "database or disk is full".
"""

from __future__ import annotations

import logging
import os
import resource
import signal
import sqlite3
import subprocess

import asyncpg
import pytest

from store import Seat, SqliteStore, landed

on_postgres = pytest.mark.parametrize("store_backend", ["postgresql"], indirect=True)


async def _game(store, channel: int = 10):
    return await store.create_game(
        guild_id=1, channel_id=channel, game="thunder_road", host_id=5, options={}, seed=7, seats=[Seat("p1", 5)]
    )


@on_postgres
async def test_a_reset_failing_after_commit_leaves_the_commit_committed(store, monkeypatch, caplog):
    row = await _game(store)
    real_reset = asyncpg.connection.Connection.reset
    failing = {"on": False, "failed": 0}

    async def reset(self, *, timeout=None):
        if failing["on"]:  # the server went away after answering COMMIT
            failing["failed"] += 1
            raise asyncpg.exceptions.ConnectionDoesNotExistError("connection was closed in the middle of operation")
        return await real_reset(self, timeout=timeout)

    monkeypatch.setattr(asyncpg.connection.Connection, "reset", reset)
    failing["on"] = True
    with caplog.at_level(logging.WARNING, logger="tabletop.store"):
        version = await store.update_game(row.id, row.version, to_act=["p1"])
    failing["on"] = False
    assert failing["failed"] >= 1, "the reset after the COMMIT did fail"
    assert version == row.version + 1, "the caller learns the change was committed"
    fresh = await store.get_game(row.id)
    assert fresh is not None and fresh.version == row.version + 1 and fresh.to_act == ["p1"]
    assert any("could not be reset" in r.getMessage() for r in caplog.records)
    # the pool dropped the broken connection and goes on serving
    assert (await store.update_game(row.id, fresh.version, to_act=[])) == fresh.version + 1


@on_postgres
async def test_a_commit_through_the_one_commit_survives_a_failing_reset(store, monkeypatch):
    from store import ChangeSet, GameChange

    row = await _game(store)

    async def reset(self, *, timeout=None):
        raise asyncpg.exceptions.ConnectionDoesNotExistError("connection was closed in the middle of operation")

    monkeypatch.setattr(asyncpg.connection.Connection, "reset", reset)
    done = await store.commit(ChangeSet(game=GameChange(row.id, row.version, to_act=["p1"])))
    monkeypatch.undo()
    assert done.version == row.version + 1
    assert landed() == ("committed", row.id, row.version + 1)
    assert (await store.get_game(row.id)).version == row.version + 1


# ---------------------------------------------------------------- a full disk
def _size(path) -> int:
    return os.stat(path).st_size if os.access(path, os.F_OK) else -1


#: tables written before the close: few enough that SQLite's automatic checkpoint (every 1,000
#: pages of log) has not yet moved them into the database file, so the close must grow it
GAMES = 60


async def _filled(path):
    """A store at ``path`` whose write-ahead log holds far more than its database file."""
    store = SqliteStore(path)
    await store.open()
    for channel in range(10, 10 + GAMES):
        await _game(store, channel)
    assert _size(f"{path}-wal") > _size(path)
    return store


async def _closes_and_keeps_everything(store, path, caplog, reason: str, lift=lambda: None) -> None:
    """``lift``: undoes what made the checkpoint fail, before the store is opened again."""
    with caplog.at_level(logging.WARNING, logger="tabletop.store"):
        await store.close()  # raised the driver's error before
    said = [r.getMessage() for r in caplog.records if "checkpointed" in r.getMessage()]
    assert said, "the log says what was not checkpointed"
    assert reason in said[0] and f"{path}-wal" in said[0] and "bytes" in said[0], said[0]
    assert _size(f"{path}-wal") > 0, "what was not checkpointed stays in the log"
    lift()
    again = SqliteStore(path)  # nothing committed is lost: the next open applies the log
    await again.open()
    try:
        assert await again.count_games() == GAMES
    finally:
        await again.close()
    con = sqlite3.connect(path)
    try:
        assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    finally:
        con.close()


async def test_close_when_the_file_may_not_grow_closes_and_says_what_was_not_checkpointed(tmp_path, caplog):
    path = tmp_path / "full.db"
    store = await _filled(path)
    old = resource.getrlimit(resource.RLIMIT_FSIZE)
    old_handler = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    # no file may grow past a few bytes beyond the database file's size now: the
    # checkpoint's writes past it fail in the driver (EFBIG: "disk I/O error")
    resource.setrlimit(resource.RLIMIT_FSIZE, (_size(path) + 100, old[1]))
    try:
        await _closes_and_keeps_everything(
            store, path, caplog, "disk I/O error", lambda: resource.setrlimit(resource.RLIMIT_FSIZE, old)
        )
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, old)
        signal.signal(signal.SIGXFSZ, old_handler)


@pytest.fixture
def small_disk(tmp_path):
    """A real 16 MiB file system (tmpfs), where the system lets this test mount one."""
    where = tmp_path / "disk"
    where.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(where)]).returncode:
        pytest.skip("mounting a small file system needs root (the RLIMIT_FSIZE case covers the same path)")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


async def test_close_on_a_full_disk_closes_and_says_what_was_not_checkpointed(small_disk, caplog):
    path = small_disk / "full.db"
    store = await _filled(path)
    filler = small_disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:  # every block left, taken
        while os.write(fd, b"\0" * 4096):
            pass
    except OSError:
        pass
    finally:
        os.close(fd)
    await _closes_and_keeps_everything(store, path, caplog, "database or disk is full")

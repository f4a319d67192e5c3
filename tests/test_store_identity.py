"""SQLite's database file is the bot's identity: one process holds it (also through a
hard link, also when its ``-lock`` file was deleted), and a file deleted or replaced
under a running store takes no more writes, said once in the log."""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from store import Seat, SqliteStore, StoreError, StoreInUse, StoreUnavailable

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import asyncio, sys
from store import StoreError, open_store

async def main(url):
    store = open_store(url, due=None)  # only opens: times no table
    try:
        await store.open()
    except StoreError as exc:
        print(exc, file=sys.stderr)
        sys.exit(2)
    print("started", flush=True)
    await store.close()

asyncio.run(main(sys.argv[1]))
"""


def second_process(db: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", CHILD, str(db)], capture_output=True, text=True, cwd=ROOT, timeout=60)


def refused_once(proc: subprocess.CompletedProcess) -> str:
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2 and len(lines) == 1, (proc.returncode, proc.stdout, proc.stderr)
    assert proc.stdout == ""
    return lines[0]


async def _game(store: SqliteStore, channel: int = 10):
    return await store.create_game(
        guild_id=1, channel_id=channel, game="thunder_road", host_id=5, options={}, seed=7, seats=[Seat("p1", 5)]
    )


@pytest.fixture
async def held(tmp_path):
    store = SqliteStore(tmp_path / "t.db")
    await store.open()
    yield store
    await store.close()


# ------------------------------------------------------------ one process
async def test_a_second_process_through_a_hard_link_is_refused(held, tmp_path):
    link = tmp_path / "elsewhere" / "link.db"
    link.parent.mkdir()
    os.link(held.path, link)
    line = refused_once(await asyncio.to_thread(second_process, link))
    assert "in use by another bot process" in line and f"pid {os.getpid()}" in line
    assert not await asyncio.to_thread(os.path.exists, f"{link}-wal"), "the refused process opened nothing"


async def test_a_second_process_after_the_lock_file_was_deleted_is_refused(held, tmp_path):
    os.unlink(f"{held.path}-lock")
    line = refused_once(await asyncio.to_thread(second_process, Path(held.path)))
    assert "in use by another bot process" in line and f"pid {os.getpid()}" in line


async def test_a_second_process_after_the_database_file_was_deleted_is_refused(held):
    await _game(held)
    os.unlink(held.path)
    line = refused_once(await asyncio.to_thread(second_process, Path(held.path)))
    assert "in use by another bot process" in line


async def test_the_same_process_through_a_hard_link_is_refused(held, tmp_path):
    link = tmp_path / "link.db"
    os.link(held.path, link)
    other = SqliteStore(link)
    with pytest.raises(StoreInUse, match="hard link"):
        await other.open()


async def test_after_the_holder_closes_the_linked_file_opens(tmp_path):
    db, link = tmp_path / "t.db", tmp_path / "link.db"
    first = SqliteStore(db)
    await first.open()
    await _game(first)
    os.link(db, link)
    assert refused_once(await asyncio.to_thread(second_process, link))
    await first.close()
    os.unlink(link)
    ok = await asyncio.to_thread(second_process, db)
    assert ok.returncode == 0 and ok.stdout.strip() == "started", ok.stderr


async def test_a_hard_linked_database_is_warned_about_at_open(tmp_path, caplog):
    db = tmp_path / "t.db"
    sqlite3.connect(db).close()
    os.link(db, tmp_path / "copy.db")
    store = SqliteStore(db)
    with caplog.at_level(logging.WARNING, logger="tabletop.store"):
        await store.open()
    await store.close()
    assert any("2 hard links" in r.getMessage() for r in caplog.records)


# ------------------------------------------------------ a file that is gone
async def test_a_deleted_file_takes_no_more_commits_and_acknowledges_nothing(held, caplog):
    row = await _game(held)
    await held.update_game(row.id, row.version, to_act=["p1"])  # committed while the file is in place
    os.unlink(held.path)
    with caplog.at_level(logging.ERROR, logger="tabletop.store"):
        for _ in range(3):
            with pytest.raises(StoreUnavailable, match="was deleted"):
                await held.update_game(row.id, row.version + 1, to_act=[])
        with pytest.raises(StoreUnavailable):
            await _game(held, channel=11)
        with pytest.raises(StoreUnavailable):
            await held.check()
    lines = [r.getMessage() for r in caplog.records if r.name == "tabletop.store"]
    assert len(lines) == 1 and "was deleted while the bot ran" in lines[0] and "\n" not in lines[0]
    fresh = await held.get_game(row.id)  # reads still show what was committed
    assert fresh is not None and fresh.version == row.version + 1 and fresh.to_act == ["p1"]
    assert await held.count_games() == 1
    # the last committed state can still be copied out of the process, WAL included
    fd = int(lines[0].rsplit("/fd/", 1)[1].rstrip(")"))
    rescue = Path(held.path).with_name("rescued.db")
    shutil.copyfile(f"/proc/{os.getpid()}/fd/{fd}", rescue)
    con = sqlite3.connect(rescue)
    try:
        assert con.execute("SELECT version, to_act_json FROM games").fetchall() == [(row.version + 1, '["p1"]')]
    finally:
        con.close()


async def test_a_file_deleted_inside_a_transaction_is_not_committed_into(held):
    row = await _game(held)
    real_step = held._step

    async def delete_then_step(name: str) -> None:
        if name == "commit":
            os.unlink(held.path)
        await real_step(name)

    held._step = delete_then_step  # type: ignore[method-assign]
    with pytest.raises(StoreUnavailable):
        await held.update_game(row.id, row.version, to_act=["p1"])
    assert (await held.get_game(row.id)).version == row.version, "rolled back, not committed"


async def test_a_replaced_file_takes_no_more_commits(held, tmp_path, caplog):
    row = await _game(held)
    other = tmp_path / "other.db"
    sqlite3.connect(other).close()
    os.replace(other, held.path)
    with caplog.at_level(logging.ERROR, logger="tabletop.store"):
        await asyncio.sleep(0)
        with pytest.raises(StoreUnavailable, match="was replaced"):
            await held.check()  # the periodic check notices it before anybody plays
        with pytest.raises(StoreUnavailable):
            await held.update_game(row.id, row.version, to_act=["p1"])
    assert [r.getMessage() for r in caplog.records if "was replaced by another file" in r.getMessage()]
    assert (await held.get_game(row.id)).version == row.version
    con = sqlite3.connect(held.path)
    try:
        assert con.execute("SELECT name FROM sqlite_master").fetchall() == [], "the new file was not written"
    finally:
        con.close()


async def test_a_file_moved_away_takes_no_more_commits(held, tmp_path):
    row = await _game(held)
    os.rename(held.path, tmp_path / "moved.db")
    with pytest.raises(StoreUnavailable, match="was moved away"):
        await held.update_game(row.id, row.version, to_act=["p1"])


async def test_an_untouched_file_keeps_committing_and_checks_pass(held):
    row = await _game(held)
    await held.check()
    await held.update_game(row.id, row.version, to_act=["p1"])
    assert (await held.get_game(row.id)).version == row.version + 1


async def test_a_file_that_is_no_database_is_refused_and_leaves_no_claim(tmp_path):
    db = tmp_path / "t.db"
    db.write_bytes(b"not a database " * 400)
    store = SqliteStore(db)
    with pytest.raises(StoreError, match="not a database") as caught:
        await store.open()
    assert not isinstance(caught.value, StoreInUse)
    db.unlink()
    again = SqliteStore(db)
    await again.open()  # the failed open held nothing
    await again.close()

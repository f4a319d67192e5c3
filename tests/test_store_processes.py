"""Several processes on one database: concurrent first starts, and SQLite's one-process rule."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from store import SqliteStore, StoreInUse
from store.migrations import MIGRATIONS

ROOT = Path(__file__).resolve().parent.parent

# open the store at a common moment, hold it open a while, close
CHILD = r"""
import asyncio, sys, time
from store import StoreError, open_store

async def main(url, until):
    store = open_store(url)
    try:
        await store.open()
    except StoreError as exc:
        print(exc, file=sys.stderr)
        sys.exit(2)
    print("started", await store.schema_version(), flush=True)
    await asyncio.sleep(max(0.0, until - time.time()))
    await store.close()

url, start, until = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
time.sleep(max(0.0, start - time.time()))
asyncio.run(main(url, until))
"""


def start_together(url: str, n: int, hold: float = 2.0) -> list[subprocess.CompletedProcess]:
    start = time.time() + 1.5 + 0.1 * n  # every child is up and waiting by then
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", CHILD, url, str(start), str(start + hold)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        for _ in range(n)
    ]
    out = []
    for p in procs:
        stdout, stderr = p.communicate(timeout=60)
        out.append(subprocess.CompletedProcess(p.args, p.returncode, stdout, stderr))
    return out


def test_concurrent_first_starts_on_postgresql_all_start(pg_database):
    results = start_together(pg_database, 8)
    latest = MIGRATIONS[-1][0]
    assert [(r.returncode, r.stdout.strip(), r.stderr) for r in results] == [(0, f"started {latest}", "")] * 8


def test_concurrent_first_starts_on_sqlite_one_starts_the_others_are_refused(tmp_path):
    db = tmp_path / "fresh.db"
    results = start_together(str(db), 6)
    started = [r for r in results if r.returncode == 0]
    refused = [r for r in results if r.returncode != 0]
    assert len(started) == 1 and started[0].stdout.strip() == f"started {MIGRATIONS[-1][0]}"
    assert len(refused) == 5
    for r in refused:
        lines = r.stderr.strip().splitlines()
        assert r.returncode == 2 and len(lines) == 1, r.stderr
        assert "in use by another bot process" in lines[0] and "postgresql://" in lines[0]


async def test_a_second_process_is_refused_but_the_same_process_may_reopen(tmp_path):
    db = tmp_path / "t.db"
    first = SqliteStore(db)
    await first.open()
    again = SqliteStore(db)  # same process: allowed (tests, tools)
    await again.open()
    await again.close()
    child = await asyncio.to_thread(run_child, db)
    assert child.returncode == 2 and f"pid {os.getpid()}" in child.stderr
    await first.close()
    child = await asyncio.to_thread(run_child, db)
    assert child.returncode == 0, child.stderr


def run_child(db: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", CHILD, str(db), "0", "0"], capture_output=True, text=True, cwd=ROOT, timeout=60
    )


def test_a_killed_process_leaves_no_claim(tmp_path):
    db = tmp_path / "t.db"
    holder = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(db), "0", str(time.time() + 60)], stdout=subprocess.PIPE, text=True, cwd=ROOT
    )
    assert holder.stdout.readline().startswith("started")
    with pytest.raises(StoreInUse):
        _claim(db)
    holder.kill()
    holder.wait()
    _claim(db)  # SIGKILL released it


def _claim(db: Path) -> None:
    async def go():
        store = SqliteStore(db)
        await store.open()
        await store.close()

    asyncio.run(go())


def test_bot_refuses_a_database_in_use_with_one_line_before_logging_in(tmp_path):
    db = tmp_path / "bot.db"
    holder = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(db), "0", str(time.time() + 60)], stdout=subprocess.PIPE, text=True, cwd=ROOT
    )
    try:
        assert holder.stdout.readline().startswith("started")
        env = {**os.environ, "DISCORD_TOKEN": "not-a-real-token", "TG_DATABASE": str(db)}
        proc = subprocess.run(
            [sys.executable, str(ROOT / "bot.py")], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60
        )
    finally:
        holder.kill()
        holder.wait()
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert proc.returncode == 2 and len(lines) == 1, proc.stderr
    assert "in use by another bot process" in lines[0] and "TG_DATABASE=postgresql://" in lines[0]

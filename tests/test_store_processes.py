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
    store = open_store(url, due=None)  # only opens: times no table
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


# ------------------------------------------- two processes' services on one PostgreSQL
async def _two_services(pg_database):
    from store import open_store
    from tables import TableService, due_times

    stores = [open_store(pg_database, due=due_times), open_store(pg_database, due=due_times)]
    for s in stores:
        await s.open()
    return stores, [TableService(s) for s in stores]


async def test_two_processes_racing_one_click_apply_it_once(pg_database):
    from engine import get_game
    from store import Seat
    from tables import TurnRefused

    stores, services = await _two_services(pg_database)
    try:
        game = get_game("thunder_road")
        row = await stores[0].create_game(
            guild_id=1,
            channel_id=1,
            game="thunder_road",
            host_id=7,
            options={},
            seed=5,
            seats=[Seat("p1", 7), Seat("p2", 8)],
            status="active",
            state_json=game.new(["p1", "p2"], {}, 5).model_dump_json(),
        )
        for _ in range(15):
            fresh = await stores[0].get_game(row.id)
            state = game.load(fresh.state_json)
            seat = game.to_act(state)[0]
            uid = fresh.user_of(seat)
            results = await asyncio.gather(
                *[
                    svc.act(row.id, uid, lambda g, st, s, legal: g.ai_action(st, s), expected_version=fresh.version)
                    for svc in services
                ],
                return_exceptions=True,
            )
            applied = [r for r in results if not isinstance(r, BaseException)]
            refused = [r for r in results if isinstance(r, TurnRefused)]
            assert len(applied) == 1 and len(refused) == 1 and refused[0].code == "stale", results
        log = await stores[1].actions(row.id, limit=1000)
        assert len(log) == 15 and len({a.version for a in log}) == 15
    finally:
        for s in stores:
            await s.close()


async def test_two_processes_claim_one_reminder_once(pg_database):
    from store import Seat

    stores, services = await _two_services(pg_database)
    try:
        row = await stores[0].create_game(
            guild_id=1,
            channel_id=1,
            game="thunder_road",
            host_id=7,
            options={},
            seed=5,
            seats=[Seat("p1", 7), Seat("p2", 8)],
            status="active",
            state_json="{}",
            table={"reminder": 1},
        )
        await stores[0].update_game(row.id, row.version, to_act=["p1"])
        row = await stores[0].get_game(row.id)
        now = row.turn_started_at + 61
        dues = [await svc.due(now) for svc in services]
        assert [[d.row.id for d in due] for due in dues] == [[row.id], [row.id]]
        claims = await asyncio.gather(*[svc.claim_reminder(due[0].row, now) for svc, due in zip(services, dues)])
        assert sorted(claims) == [False, True]
        assert [await svc.due(now) for svc in services] == [[], []]
    finally:
        for s in stores:
            await s.close()


async def test_two_processes_fire_one_turn_timer_once(pg_database):
    from engine import get_game
    from store import Seat
    from tables import TurnRefused

    stores, services = await _two_services(pg_database)
    try:
        game = get_game("thunder_road")
        row = await stores[0].create_game(
            guild_id=1,
            channel_id=1,
            game="thunder_road",
            host_id=7,
            options={},
            seed=5,
            seats=[Seat("p1", 7), Seat("p2", 8)],
            status="active",
            state_json=game.new(["p1", "p2"], {}, 5).model_dump_json(),
            table={"turn_timer": 1},
        )
        state = game.new(["p1", "p2"], {}, 5)
        await stores[0].update_game(row.id, row.version, to_act=game.to_act(state))
        row = await stores[0].get_game(row.id)
        now = row.turn_started_at + 61
        dues = [await svc.due(now) for svc in services]
        assert [[(d.row.id, d.kind) for d in due] for due in dues] == [[(row.id, "timeout")]] * 2
        results = await asyncio.gather(
            *[svc.timeout(due[0].row.id, due[0].row.version) for svc, due in zip(services, dues)],
            return_exceptions=True,
        )
        assert sum(not isinstance(r, BaseException) for r in results) == 1
        assert [r.code for r in results if isinstance(r, TurnRefused)] == ["stale"]
        assert (await stores[1].get_game(row.id)).version == row.version + 1
    finally:
        for s in stores:
            await s.close()

"""Issue 20 item 10: the stored log records who took each step: the player, an AI seat,
or the platform ("auto": a forced single choice), on both backends; steps stored
before it was recorded read as "" and are told apart the old way (a member or not)."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import make_store

import store.migrations as migrations
from engine import get_game
from store import Seat, SqliteStore
from tables import TableService, due_times
from tables.rules.decisions import decisions, taken_by

FIXTURES = Path(__file__).parent / "fixtures"
GAME = get_game("thunder_road")


async def _play(service: TableService, gid: int, turns: int) -> None:
    game = GAME
    for _ in range(turns):
        loaded = await service.load(gid, statuses=("active", "finished"))
        if loaded.row.status != "active":
            return
        seat = game.to_act(loaded.state)[0]
        await service.act(gid, loaded.row.user_of(seat), lambda g, st, s, legal: g.ai_action(st, s))


async def test_each_step_says_who_took_it(store):
    service = TableService(store)
    state = GAME.new(["p1", "p2", "p3"], {}, 21)
    row = await store.create_game(
        guild_id=1,
        channel_id=10,
        game=GAME.id,
        host_id=501,
        options={},
        seed=21,
        seats=[Seat("p1", 501), Seat("p2", 502), Seat("p3", None)],
        status="active",
        state_json=state.model_dump_json(),
    )
    await _play(service, row.id, 120)
    log = await store.actions(row.id, limit=100_000)
    assert {a.by for a in log} == {"player", "ai", "auto"}, "a three-seat race has all three"
    for a in log:
        assert a.by == taken_by(a)
        if a.seat == "p3":
            assert a.by == "ai" and a.user_id is None
        else:
            assert a.by in ("player", "auto") and a.user_id in (501, 502), "a forced step is still the member's seat"
    for a in (a for a in log if a.by == "auto"):  # the platform only takes a step with one choice
        replay = GAME.replay(["p1", "p2", "p3"], {}, 21, [(b.seat, b.action) for b in log if b.id < a.id])
        assert len(GAME.legal_actions(replay, a.seat)) == 1
    groups = decisions(log)
    assert sum(len(d.steps) for d in groups) == len(log)
    assert any(d.by == "auto" for d in groups) and all(len({a.by for a in d.steps}) == 1 for d in groups)


async def test_steps_stored_before_it_was_recorded_read_the_old_way(tmp_path):
    """The stored-data fixture (made by f4ba435): migrated, its steps say "", read as
    "ai" without a member and "player" with one; steps played on are recorded."""
    db = tmp_path / "old.sqlite"
    shutil.copy(FIXTURES / "stored_f4ba435.sqlite", db)
    s = SqliteStore(db, clock=lambda: 1_800_000_000.0, due=due_times)
    await s.open()
    try:
        old = await s.actions(2, limit=100_000)  # table 2: Thunder Road in mid-play
        assert old and {a.by for a in old} == {""}
        assert {taken_by(a) for a in old} <= {"ai", "player"}
        assert all(taken_by(a) == ("ai" if a.user_id is None else "player") for a in old)
        await _play(TableService(s), 2, 30)
        log = await s.actions(2, limit=100_000)
        new = log[len(old) :]
        assert new and all(a.by in ("player", "ai", "auto") for a in new)
        assert [a.id for a in log[: len(old)]] == [a.id for a in old] and all(a.by == "" for a in log[: len(old)])
    finally:
        await s.close()


async def test_the_migration_keeps_the_rows_it_finds(store_backend, tmp_path, monkeypatch):
    """A database at the schema before this column, with a logged step in it, migrates
    on both backends; the step keeps everything and says ""."""
    backend, url, spec = str(store_backend), store_backend.url, store_backend
    mine = next(v for v, script in migrations.MIGRATIONS if "taken_by" in script)
    monkeypatch.setattr(migrations, "MIGRATIONS", [m for m in migrations.MIGRATIONS if m[0] < mine])
    before = await make_store(spec, tmp_path)
    await before.close()
    # the rows as that schema held them (this code reads columns that came later)
    sqls = [
        "INSERT INTO games(id, guild_id, channel_id, game, status, host_id, seed, created_at, updated_at)"
        f" VALUES (1, 1, 5, '{GAME.id}', 'lobby', 7, 3, 1.0, 1.0)",
        "INSERT INTO seats(game_id, position, seat, user_id) VALUES (1, 0, 'p1', 7), (1, 1, 'p2', 8)",
        "INSERT INTO actions(game_id, seat, user_id, action_json, events_json, version, created_at)"
        " VALUES (1,'p1',7,'{\"kind\": \"x\"}','[]',2,1.5)",
    ]
    if backend == "sqlite":
        import sqlite3

        con = sqlite3.connect(url)
        for sql in sqls:
            con.execute(sql)
        con.commit()
        con.close()
    else:
        import asyncpg

        conn = await asyncpg.connect(url)
        for sql in sqls:
            await conn.execute(sql)
        await conn.close()
    monkeypatch.undo()
    after = await make_store(spec, tmp_path)
    try:
        assert await after.schema_version() == migrations.MIGRATIONS[-1][0] >= mine
        (a,) = await after.actions(1)
        assert (a.seat, a.user_id, a.action, a.events, a.version, a.by) == ("p1", 7, {"kind": "x"}, [], 2, "")
        assert taken_by(a) == "player"
    finally:
        await after.close()

"""Moving up and backing up: ``python -m store copy`` between backends, online SQLite
backups and their restore."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from tablekit import open_vote

from bot import Config, create_bot
from engine import get_game
from store import Seat, open_store
from store.base import ActionRow, Caps, ChangeSet, GameChange, NewSnapshot, NewVote, Owed, RatingChange, ResultRow
from store.tools import SKIP, backup, copy, restore, tables_of
from tables import due_times

ROOT = Path(__file__).resolve().parent.parent


async def fill(store) -> None:
    """At least one row in every table of the schema."""
    camp = await store.create_campaign(guild_id=1, game="armor_clash", name="East", points=[10, 6], created_by=5)
    row = await store.create_game(
        guild_id=1,
        channel_id=10,
        game="city_of_fury",
        host_id=5,
        options={"hero": "李"},
        seed=2**47 + 3,
        seats=[Seat("p1", 1_234_567_890_123_456_789), Seat("p2", None, "hard")],
        status="active",
        state_json='{"s":"状态"}',
        table={"turn_timer": 30},
        campaign_id=camp.id,
    )
    v = await store.update_game(
        row.id, row.version, actions=[ActionRow("p1", 5, {"k": i}, events=[{"e": i}]) for i in range(3)], to_act=["p1"]
    )
    log = await store.actions(row.id)
    v = await store.update_game(row.id, v, revert=[log[-1].id], by_user=5)
    assert await store.fill_snapshots(row.id, v, [NewSnapshot("city_of_fury/s1/x", '{"快照":2}', log[1].id)])
    await store.update_game(
        row.id, v, status="finished", to_act=[], results=[ResultRow("p1", 1_234_567_890_123_456_789, 1, True, 2.5, 9)]
    )
    other = await store.create_game(
        guild_id=1, channel_id=11, game="automobile", host_id=6, options={}, seed=1, seats=[Seat("p1", 6)]
    )
    await store.quarantine(other.id, "bad state")
    waiting = await store.create_game(
        guild_id=1,
        channel_id=12,
        game="thunder_road",
        host_id=6,
        options={},
        seed=2,
        seats=[Seat("p1", 6)],
        status="active",
        state_json="{}",
    )
    moved = await store.commit(  # a seat waiting (its due times) and its board owed (the outbox)
        ChangeSet(
            game=GameChange(waiting.id, waiting.version, to_act=["p1"]),
            owed=Owed("board", [{"note": "timeout", "seats": [["p1", 6]]}], "1.ab", 60.0),
        )
    )
    assert moved.version is not None
    await open_vote(store, game_id=row.id, kind="undo", payload={"a": 1}, base_version=2, voters=[5], created_by=5)
    await store.commit(ChangeSet(new_votes=[NewVote(row.id, "handover", {"seat": "p1"}, 3, [5], 5, "seat:p1")]))
    await store.claim_rate("thread", 1, 5, 1000.5, 3600, Caps(member=5))
    await store.set_lobby_message(other.id, 2**60 + 7)
    await store.update_guild_settings(1, lambda _: {"reminder": 60})
    await store.set_user_prefs(5, {"quiet": [22, 7]})
    await store.set_meta("command_hash:global", "abc")
    await store.set_member_name(1, 5, "Zoë «五»", 1000.5)  # a display name (tables/people/names.py)
    await store.set_member_name(0, 5, "Zoë", 1000.5)
    await store.commit(ChangeSet(ratings=[RatingChange(1, "thunder_road", 5, 0, 27.5, 7.9, 1)]))
    await store.follow(waiting.id, 5, "digest", 1)
    await store.set_followers_closed(row.id, True)
    league = await store.create_league(
        guild_id=1,
        channel_id=10,
        game="armor_clash",
        name="联赛 <@&1>",
        format="swiss",
        config={"rounds": 3},
        state={"players": {"5": {"division": 1}}, "rounds": [{"tables": [{"game_id": row.id}]}]},
        created_by=5,
    )
    await store.update_league(league.id, league.version, status="running")
    assert await store.claim_league_step(league.id, 1, "open:0", 100.0, 600)
    await store.finish_league_step(league.id, 1, "open:0", 101.5)
    await store.web_token_put("0" * 64, "session", 5, None, 2_000_000_000.0)  # a web companion session
    await store.calendar_feed_put(5, "1" * 64, 1000.5, replace=False)  # a calendar feed's secret (its hash)
    assert await store.notify_claim("digest:5:2027-01-15", 5, 1000.5)  # a digest sent once (tables/people/notify.py)


async def dump(url: str) -> dict[str, list[tuple]]:
    store = open_store(url, due=due_times)
    await store.open()
    try:
        out = {}
        for table in sorted(set(await tables_of(store)) - SKIP):
            rows = await store.sql(f'SELECT * FROM "{table}"')
            out[table] = sorted(tuple(_norm(v) for v in r) for r in rows)
        return out
    finally:
        await store.close()


def _norm(v):
    return float(v) if isinstance(v, int | float) and not isinstance(v, bool) else v


async def test_copy_sqlite_to_postgresql_and_back_keeps_every_row_of_every_table(tmp_path, pg_database):
    src = f"sqlite:///{tmp_path / 'src.db'}"
    store = open_store(src, due=due_times)
    await store.open()
    await fill(store)
    await store.close()
    before = await dump(src)
    empty = [t for t, rows in before.items() if not rows]
    assert not empty, f"fill() must put rows in every table of the schema (a migration added {empty}?)"

    copied = await copy(src, pg_database)
    assert {c.table for c in copied} == set(before) and sum(c.rows for c in copied) == sum(map(len, before.values()))
    assert await dump(pg_database) == before
    back = f"sqlite:///{tmp_path / 'back.db'}"
    await copy(pg_database, back)
    assert await dump(back) == before

    # ids go on after the copied ones
    pg = open_store(pg_database, due=due_times)
    await pg.open()
    try:
        row = await pg.create_game(
            guild_id=1, channel_id=99, game="automobile", host_id=6, options={}, seed=1, seats=[Seat("p1", 6)]
        )
        assert row.id > max(r[0] for r in before["games"])
        v = await pg.update_game(row.id, row.version, actions=[ActionRow("p1", 6, {"k": 9})])
        assert v == row.version + 1
    finally:
        await pg.close()


async def test_copy_refuses_a_database_that_is_not_empty(tmp_path, database_url):
    src = f"sqlite:///{tmp_path / 'src.db'}"
    for url in (src, database_url):
        store = open_store(url, due=due_times)
        await store.open()
        await store.set_meta("k", url)
        await store.close()
    with pytest.raises(Exception, match="not empty"):
        await copy(src, database_url)
    assert (await dump(database_url))["meta"] == [("k", database_url)]


def test_copy_command_line(tmp_path, pg_database):
    src = tmp_path / "cli.db"

    async def make():
        store = open_store(str(src), due=due_times)
        await store.open()
        await fill(store)
        await store.close()

    asyncio.run(make())
    proc = subprocess.run(
        [sys.executable, "-m", "store", "copy", f"sqlite:///{src}", pg_database],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "games: 3 rows" in proc.stdout and proc.stdout.strip().splitlines()[-1].startswith("copied ")


async def test_after_copying_to_postgresql_the_bot_plays_on(table, pg_database):
    alice = table.fd.add_user(101, "alice")
    bob = table.fd.add_user(102, "bob")
    await table.start()
    gid, _ = await table.open_table(alice, "thunder_road", [bob])
    await table.play_ai(gid, steps=3)
    played = table.sql("SELECT COUNT(*) FROM actions WHERE game_id=?", gid)[0][0]
    await table.fd.stop(table.bot)

    await copy(str(table.db), pg_database)
    bot = create_bot(
        Config(token="test-token", database=pg_database, sync="auto", scheduler=False),
        clock=table.clock,
        guild_ready_timeout=0.05,
    )
    await table.fd.start(bot)
    pg = open_store(pg_database, due=due_times)
    await pg.open()
    try:
        row = await pg.get_game(gid)
        game = get_game(row.game)
        state = game.load(row.state_json)
        seat = next(s for s in game.to_act(state) if row.user_of(s) is not None)
        user = table.fd.users[row.user_of(seat)]
        ex = await table.fd.slash(user, "game status")
        board = await table.wait_board(ex)
        panel = [c for c in board.custom_ids if c.startswith(f"tg:p:{gid}:")]
        target = board
        if panel:
            ex = await table.fd.click(user, board, panel[0])
            target = await ex.wait(
                lambda e: next((m for m in e.messages if m.ephemeral and m.custom_ids), None), 5, "a private panel"
            )
        idx = game.legal_actions(state, seat).index(game.ai_action(state, seat))
        cid, values = table.custom_id_for(target, gid, row.version, idx)
        ex = await (table.fd.click(user, target, cid) if values is None else table.fd.select(user, target, cid, values))
        for _ in range(200):
            if (await pg.get_game(gid)).version > row.version:
                break
            await asyncio.sleep(0.05)
        assert (await pg.get_game(gid)).version > row.version
        assert await pg.count_actions(gid) > played
    finally:
        await pg.close()
        await table.fd.stop(bot)


# ------------------------------------------------------------------ backups
async def test_online_backup_while_writing_then_restore(tmp_path):
    db = tmp_path / "live.db"
    store = open_store(str(db), due=due_times)
    await store.open()
    row = await store.create_game(
        guild_id=1, channel_id=1, game="city_of_fury", host_id=5, options={}, seed=1, seats=[Seat("p1", 5)]
    )
    version = row.version
    stop = asyncio.Event()

    async def writer():  # the bot keeps playing meanwhile
        nonlocal version
        while not stop.is_set():
            version = await store.update_game(row.id, version, actions=[ActionRow("p1", 5, {"v": version})])
            await asyncio.sleep(0)

    task = asyncio.create_task(writer())
    await asyncio.sleep(0.2)
    copies = []
    for i in range(3):
        dest = tmp_path / f"backup{i}.db"
        assert await asyncio.to_thread(backup, str(db), dest) == 1
        copies.append(dest)
        await asyncio.sleep(0.05)
    stop.set()
    await task
    for dest in copies:  # each one consistent: the version matches the log it holds
        con = sqlite3.connect(dest)
        (v,) = con.execute("SELECT version FROM games WHERE id=?", (row.id,)).fetchone()
        (n,) = con.execute("SELECT COUNT(*) FROM actions WHERE game_id=?", (row.id,)).fetchone()
        assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        con.close()
        assert v == 1 + n and n > 0
    assert not await asyncio.to_thread(Path(f"{copies[0]}-wal").exists)

    # restore refuses while the bot runs, works once it stopped, keeps the replaced database
    with pytest.raises(Exception, match="in use"):
        restore(copies[0], str(db))
    final = version
    await store.close()
    kept = restore(copies[0], str(db))
    store = open_store(str(db), due=due_times)
    await store.open()
    got = await store.get_game(row.id)
    assert got.version == 1 + await store.count_actions(row.id) < final
    # and the bot plays on from the restored state
    assert await store.update_game(row.id, got.version, actions=[ActionRow("p1", 5, {"after": 1})]) == got.version + 1
    await store.close()
    con = sqlite3.connect(kept)
    assert con.execute("SELECT version FROM games").fetchone() == (final,)
    con.close()


def test_backup_and_restore_command_line(tmp_path):
    db = tmp_path / "t.db"

    async def make():
        store = open_store(str(db), due=due_times)
        await store.open()
        await fill(store)
        await store.close()

    asyncio.run(make())
    run = lambda *a: subprocess.run(  # noqa: E731
        [sys.executable, "-m", "store", *a], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    ok = run("backup", "--database", str(db), str(tmp_path / "b.db"))
    assert ok.returncode == 0 and "b.db" in ok.stdout, ok.stderr
    again = run("backup", "--database", str(db), str(tmp_path / "b.db"))
    assert again.returncode == 2 and "already exists" in again.stderr
    restored = run("restore", str(tmp_path / "b.db"), "--database", str(tmp_path / "new.db"))
    assert restored.returncode == 0, restored.stderr
    assert asyncio.run(dump(str(tmp_path / "new.db"))) == asyncio.run(dump(str(db)))

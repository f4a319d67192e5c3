"""`/privacy forget` reaches every table a member ever sat at or hosted, running or
finished, and every place the store keeps their id (issue 19, item 3); `/privacy show`
then counts nothing of theirs; an admin sees one server's data and no personal
settings.  Through the table service on both store backends."""

from __future__ import annotations

import random
import re

import pytest
from tablekit import open_vote

from store import PERSONAL_DATA, Caps, PersonalData, Seat, register_personal_data
from tables import TableService, TurnRefused

HOST, BOB, CAROL = 310_000_000_000_000_007, 310_000_000_000_000_008, 310_000_000_000_000_009
AI = lambda g, st, s, legal: g.ai_action(st, s)  # noqa: E731
#: schema columns that hold a member's id (tests below: each is covered by PERSONAL_DATA)
MEMBER_COLUMN = re.compile(r"^(user_id|host_id|by_user|created_by|owner_id|member_id|voters_json|yes_json|no_json)$")


async def three_at_a_table(store, service, guild=1, campaign_id=None):
    row = await store.create_game(
        guild_id=guild,
        channel_id=random.randrange(1, 1 << 40),
        game="thunder_road",
        host_id=HOST,
        options={},
        seed=5,
        seats=[Seat("p1", HOST), Seat("p2", BOB), Seat("p3", CAROL)],
        campaign_id=campaign_id,
    )
    await service.lobby(row.id, HOST, "start")
    return row.id


async def play(service, gid, moves):
    for _ in range(moves):
        loaded = await service.load(gid)
        if loaded.row.status != "active":
            return
        seat = loaded.game.to_act(loaded.state)[0]
        await service.act(gid, loaded.row.user_of(seat), AI, seat=seat)


async def play_out(service, gid):
    for _ in range(20_000):
        loaded = await service.load(gid, statuses=("active", "finished"))
        if loaded.row.status != "active":
            return
        seat = loaded.game.to_act(loaded.state)[0]
        await service.act(gid, loaded.row.user_of(seat), AI, seat=seat)
    raise AssertionError("the game never ended")


def nothing_kept(seen: dict) -> bool:
    return all(v == 0 for k, v in seen.items() if k != "prefs") and not seen.get("prefs")


def ids_in(value) -> set[int]:
    """Every integer (and integer-looking object key) in parsed JSON."""
    if isinstance(value, bool):
        return set()
    if isinstance(value, int):
        return {value}
    if isinstance(value, list):
        return set().union(*(ids_in(v) for v in value)) if value else set()
    if isinstance(value, dict):
        keys = {int(k) for k in value if re.fullmatch(r"-?\d+", k)}
        return keys.union(*(ids_in(v) for v in value.values())) if value else keys
    return set()


async def member_ids_everywhere(store, user_id: int) -> list[str]:
    """Where the store still keeps ``user_id``: every column of every table, read raw."""
    import json

    found = []
    tables = [
        r[0]
        for r in await store.sql(
            "SELECT name FROM sqlite_master WHERE type='table'"
            if type(store).__name__ == "SqliteStore"
            else "SELECT table_name FROM information_schema.tables WHERE table_schema='public'"
        )
    ]
    for table in tables:
        for row in await store.sql(f'SELECT * FROM "{table}"'):
            for value in row:
                if value == user_id:
                    found.append(table)
                elif isinstance(value, str) and str(user_id) in value:
                    try:
                        if user_id in ids_in(json.loads(value)):
                            found.append(table)
                    except ValueError:
                        pass
    return found


async def test_forget_after_resign_reaches_the_running_table_and_it_stays_forgotten_when_it_ends(store):
    service = TableService(store)
    service.snapshot_every = 2  # snapshots too: they must keep serving after the forget
    camp = await store.create_campaign(guild_id=1, game="thunder_road", name="Cup", points=[3, 1], created_by=HOST)
    gid = await three_at_a_table(store, service, campaign_id=camp.id)
    await play(service, gid, 6)
    await store.follow(gid, HOST, "turn", 1)
    loaded = await service.load(gid)
    await open_vote(
        store,  # a ballot naming HOST as voter, owner and opener
        game_id=gid,
        kind="handover",
        payload={"seat": "p2", "to": HOST, "owner": BOB},
        base_version=loaded.row.version,
        voters=[HOST, CAROL],
        created_by=HOST,
    )
    await store.claim_rate("thread", 1, HOST, 1.0, 3600, Caps())
    with pytest.raises(TurnRefused) as exc:  # still seated: refused, naming the table
        await service.forget(HOST)
    assert exc.value.code == "still_seated" and f"#{gid}" in exc.value.params["ids"]
    assert "resign" in exc.value.text("en")
    assert (await service.footprint(HOST))["actions"] > 0
    export_before = await service.export_data(await store.get_game(gid))

    await service.resign(gid, HOST)  # the seat goes to the AI; the table runs on
    assert (await store.get_game(gid)).status == "active"
    before = await service.footprint(HOST)
    assert before["hosted"] == 1 and before["actions"] > 0 and before["votes"] == 1 and before["campaigns"] == 1
    done = await service.forget(HOST)
    assert done["actions"] == before["actions"] and done["hosted"] == 1 and done["votes"] == 1
    after = await service.footprint(HOST)
    assert {k: v for k, v in after.items() if k != "prefs"} == dict.fromkeys(set(after) - {"prefs"}, 0)
    assert await member_ids_everywhere(store, HOST) == []

    row = await store.get_game(gid)
    anon = row.host_id
    assert anon < 0 and row.user_of("p1") is None  # the AI plays the seat
    logged = {a.user_id for a in await store.actions(gid, limit=100_000)}
    assert anon in logged and HOST not in logged  # one pseudonym everywhere: the log still tells players apart
    vote = (await store.open_votes(gid))[0]
    assert vote.created_by == anon and vote.voters == [anon, CAROL] and vote.payload["to"] == anon
    assert set((await store.campaign_by_id(camp.id)).progress["members"]) == {str(anon), str(BOB), str(CAROL)}

    await play_out(service, gid)  # the table plays on and ends: nothing of HOST comes back
    assert nothing_kept(await service.footprint(HOST))
    assert await member_ids_everywhere(store, HOST) == []
    row = await store.get_game(gid)
    game, state, n, total = await service.replay_state(row, None)  # replay and export still work
    assert n == total and state.model_dump_json() == game.load(row.state_json).model_dump_json()
    _, early, _, _ = await service.replay_state(row, 3)
    assert early.model_dump_json() != state.model_dump_json()
    export = await service.export_data(row)
    assert export["log"][: len(export_before["log"])] == export_before["log"]
    assert export["seats"] == export_before["seats"] and export["seed"] == export_before["seed"]


async def test_a_host_who_never_sat_down_is_forgotten_and_votes_of_finished_tables_too(store):
    service = TableService(store)
    gid = await three_at_a_table(store, service)
    await play(service, gid, 3)
    await service.resign(gid, HOST)
    await service.resign(gid, BOB)
    await play_out(service, gid)  # CAROL and the AI finish it
    await service.forget(HOST)
    assert nothing_kept(await service.footprint(HOST))
    assert await member_ids_everywhere(store, HOST) == []
    assert (await service.footprint(CAROL))["tables"] == 1  # the others keep theirs


async def test_an_admin_sees_and_forgets_one_servers_data_and_never_personal_settings(store):
    service = TableService(store)
    ids = {}
    for guild in (1, 2):
        ids[guild] = await three_at_a_table(store, service, guild=guild)
        await play(service, ids[guild], 4)
    await service.settings.update_user(HOST, lambda p: {**p, "utc_offset": 8, "quiet": [22, 7], "away": [[1, 2]]})
    mine = await service.footprint(HOST)
    assert mine["prefs"]["utc_offset"] == 8 and mine["tables"] == 2
    admin_view = await service.footprint(HOST, guild_id=1)
    assert "prefs" not in admin_view and admin_view["tables"] == 1  # one server, no settings
    assert admin_view["actions"] == (await service.footprint(HOST, guild_id=1))["actions"] < mine["actions"]
    with pytest.raises(TurnRefused) as exc:  # seated on server 1: refused there
        await service.forget(HOST, guild_id=1)
    assert exc.value.params["ids"] == f"#{ids[1]}"
    await service.resign(ids[1], HOST)
    await service.forget(HOST, guild_id=1)
    assert set((await service.footprint(HOST, guild_id=1)).values()) == {0}
    left = await service.footprint(HOST)
    assert left["tables"] == 1 and left["prefs"]["quiet"] == [22, 7]  # server 2 and their settings stay


def test_every_member_id_column_of_the_schema_is_a_personal_data_place():
    """A new table keeping member ids (the web companion's sessions, say) must add a
    store.PersonalData entry, or show/forget would miss it."""
    import sqlite3

    from store.migrations import MIGRATIONS, SQLITE, statements

    db = sqlite3.connect(":memory:")
    for _, script in MIGRATIONS:
        for stmt in statements(script, SQLITE):
            db.execute(stmt)
    covered = {(e.table, e.column) for e in PERSONAL_DATA}
    missing = []
    for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'"):
        for col in db.execute(f'PRAGMA table_info("{table}")'):
            if MEMBER_COLUMN.match(col[1]) and (table, col[1]) not in covered:
                missing.append(f"{table}.{col[1]}")
    assert missing == [], f"add store.PersonalData entries (store/privacy.py PERSONAL_DATA) for {missing}"


async def test_a_registered_place_is_counted_and_forgotten_and_forget_hooks_run(store):
    await store.sql("CREATE TABLE web_sessions (token TEXT PRIMARY KEY, user_id BIGINT NOT NULL, guild_id BIGINT)")
    entry = PersonalData("sessions", "web_sessions", "user_id", "delete", None)
    register_personal_data(entry)
    try:
        await store.sql("INSERT INTO web_sessions VALUES ('a', ?, 1), ('b', ?, 1)", HOST, BOB)
        service = TableService(store)
        heard = []

        async def hook(user_id, guild_id):
            heard.append((user_id, guild_id))

        service.privacy.on_forget(hook)
        assert (await service.footprint(HOST))["sessions"] == 1
        assert "sessions" not in await service.footprint(HOST, guild_id=1)  # not server data
        assert (await service.forget(HOST))["sessions"] == 1
        assert await store.sql("SELECT user_id FROM web_sessions") == [(BOB,)]
        assert heard == [(HOST, None)]
    finally:
        PERSONAL_DATA.remove(entry)

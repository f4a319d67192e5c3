"""The store's behaviour, on SQLite and on a real PostgreSQL (the ``store`` fixture runs
each test once per backend; see tests/backends.py)."""

import asyncio

import pytest

from store import ChannelBusy, CorruptRow, Seat, SqliteStore, VersionConflict, open_store
from store.base import ActionRow, CampaignChange, ChangeSet, ResultRow, VoteChange
from store.migrations import MIGRATIONS, POSTGRES_MIGRATIONS


def backend(store) -> str:
    return "sqlite" if isinstance(store, SqliteStore) else "postgresql"


async def _new(store, channel=10, **kw):
    return await store.create_game(
        guild_id=1,
        channel_id=channel,
        game="city_of_fury",
        host_id=5,
        options={"hero": "a"},
        seed=7,
        seats=[Seat("p1", 5)],
        **kw,
    )


def test_both_backends_have_the_same_migration_versions():
    assert [v for v, _ in MIGRATIONS] == [v for v, _ in POSTGRES_MIGRATIONS]


async def test_migrations_applied_once(store, database_url):
    assert await store.schema_version() == MIGRATIONS[-1][0]
    # reopening applies nothing twice
    again = open_store(database_url)
    await again.open()
    assert await again.schema_version() == await store.schema_version()
    assert await again.sql("SELECT COUNT(*) FROM schema_migrations") == [(len(MIGRATIONS),)]
    await again.close()


async def test_sqlite_wal_and_foreign_keys(tmp_path):
    store = SqliteStore(tmp_path / "t.db")
    await store.open()
    assert await store.sql("PRAGMA journal_mode") == [("wal",)]
    assert await store.sql("PRAGMA foreign_keys") == [(1,)]
    await store.close()


async def test_big_discord_ids_and_seeds_round_trip(store):
    snowflake, seed = 1_234_567_890_123_456_789, 2**48 - 1
    row = await store.create_game(
        guild_id=snowflake,
        channel_id=snowflake + 1,
        game="city_of_fury",
        host_id=snowflake + 2,
        options={},
        seed=seed,
        seats=[Seat("p1", snowflake + 3), Seat("p2", None)],
    )
    got = await store.get_game(row.id)
    assert (got.guild_id, got.channel_id, got.host_id, got.seed) == (snowflake, snowflake + 1, snowflake + 2, seed)
    assert got.seats == [Seat("p1", snowflake + 3), Seat("p2", None)]


async def test_one_open_game_per_channel(store):
    row = await _new(store)
    with pytest.raises(ChannelBusy):
        await _new(store)
    await store.update_game(row.id, row.version, status="abandoned")
    other = await _new(store)
    assert other.id != row.id and (await store.active_game(10)).id == other.id


async def test_racing_lobbies_in_one_channel_one_wins(store):
    results = await asyncio.gather(*[_new(store, channel=77) for _ in range(6)], return_exceptions=True)
    assert sum(not isinstance(r, BaseException) for r in results) == 1
    assert all(isinstance(r, ChannelBusy) for r in results if isinstance(r, BaseException))


async def test_compare_and_swap_lets_exactly_one_writer_win(store):
    row = await _new(store, status="active", state_json="{}")
    results = await asyncio.gather(
        *[
            store.update_game(
                row.id, row.version, state_json=f'{{"n":{i}}}', actions=[ActionRow("p1", 5, {"kind": "x", "i": i})]
            )
            for i in range(5)
        ],
        return_exceptions=True,
    )
    winners = [r for r in results if isinstance(r, int)]
    assert len(winners) == 1 and sum(isinstance(r, VersionConflict) for r in results) == 4
    assert (await store.get_game(row.id)).version == row.version + 1
    assert len(await store.actions(row.id)) == 1


async def test_compare_and_swap_across_two_stores(store, database_url):
    """Two stores = two processes' worth of connections (PostgreSQL only: SQLite refuses a second process)."""
    if backend(store) == "sqlite":
        pytest.skip("SQLite serves one process")
    other = open_store(database_url)
    await other.open()
    try:
        row = await _new(store, status="active", state_json="{}")
        for _ in range(20):
            v = (await store.get_game(row.id)).version
            results = await asyncio.gather(
                store.update_game(row.id, v, state_json="{}", actions=[ActionRow("p1", 5, {"kind": "a"})]),
                other.update_game(row.id, v, state_json="{}", actions=[ActionRow("p1", 5, {"kind": "b"})]),
                return_exceptions=True,
            )
            assert sorted(type(r).__name__ for r in results) == ["VersionConflict", "int"]
        assert await store.count_actions(row.id) == 20
        assert (await other.get_game(row.id)).version == row.version + 20
    finally:
        await other.close()


async def test_update_game_writes_everything_in_one_change(store):
    row = await _new(store, status="lobby")
    v = await store.update_game(
        row.id,
        row.version,
        status="active",
        state_json='{"s":1}',
        seats=[Seat("p1", 5), Seat("p2", None)],
        options={"x": 1},
        to_act=["p1"],
        table={"turn_timer": 30},
        actions=[ActionRow("p1", 5, {"kind": "go"}, events=[{"e": 1}])],
    )
    got = await store.get_game(row.id)
    assert got.version == v == row.version + 1
    assert (got.status, got.state_json, got.options, got.to_act, got.table) == (
        "active",
        '{"s":1}',
        {"x": 1},
        ["p1"],
        {"turn_timer": 30},
    )
    assert got.seats == [Seat("p1", 5), Seat("p2", None)] and got.turn_started_at is not None
    [a] = await store.actions(row.id)
    assert (a.seat, a.user_id, a.action, a.events, a.version) == ("p1", 5, {"kind": "go"}, [{"e": 1}], v)
    assert [g.id for g in await store.waiting_tables()] == [row.id]
    await store.mark_reminded(row.id, 123.5)
    assert (await store.get_game(row.id)).last_reminder_at == 123.5


async def test_a_failed_change_writes_nothing(store):
    row = await _new(store, status="active", state_json='{"s":0}')
    with pytest.raises(Exception):  # noqa: B017 -- the revert names an action that does not exist: foreign key
        await store.update_game(
            row.id,
            row.version,
            state_json='{"s":1}',
            seats=[Seat("p9", 9)],
            actions=[ActionRow("p1", 5, {"kind": "x"})],
            revert=[999_999],
        )
    got = await store.get_game(row.id)
    assert (got.version, got.state_json, got.seats) == (row.version, '{"s":0}', [Seat("p1", 5)])
    assert await store.count_actions(row.id) == 0


async def test_undo_reverts_and_results(store):
    row = await _new(store, status="active", state_json="{}")
    v = await store.update_game(
        row.id, row.version, actions=[ActionRow("p1", 5, {"k": 1}), ActionRow("p1", 5, {"k": 2})]
    )
    log = await store.actions(row.id)
    v = await store.update_game(row.id, v, revert=[log[1].id], by_user=5)
    assert [a.action for a in await store.actions(row.id)] == [{"k": 1}]
    assert await store.count_actions(row.id) == 1
    await store.update_game(
        row.id, v, status="finished", to_act=[], results=[ResultRow("p1", 5, 1, True, score=3, record=12)]
    )
    got = await store.get_game(row.id)
    assert got.status == "finished" and got.finished_at is not None and await store.active_game(10) is None
    [stat] = await store.stats(1)
    assert (stat.game, stat.user_id, stat.played, stat.wins, stat.best_low, stat.best_high) == (
        "city_of_fury",
        5,
        1,
        1,
        12,
        12,
    )
    assert await store.stats(1, game="automobile") == [] and await store.stats(1, user_id=6) == []


async def test_action_log_is_append_only(store):
    row = await _new(store, status="active", state_json="{}")
    await store.update_game(row.id, row.version, state_json="{}", actions=[ActionRow("p1", 5, {"kind": "a"})])
    with pytest.raises(Exception, match="append-only"):
        await store.sql("UPDATE actions SET seat='p2'")


async def test_corrupt_row_is_reported_and_quarantined(store):
    row = await _new(store)
    await store.sql("UPDATE games SET options_json='{not json' WHERE id=?", row.id)
    with pytest.raises(CorruptRow):
        await store.get_game(row.id)
    assert await store.games_of_user(5) == []  # listings skip it
    await store.quarantine(row.id, "unreadable")
    assert await store.quarantined() == [(row.id, "unreadable")]
    assert await store.active_game(10) is None  # the channel is free again


async def test_games_of_user_and_meta(store):
    await _new(store, channel=1)
    await _new(store, channel=2)
    assert [g.channel_id for g in await store.games_of_user(5)] == [1, 2]
    assert [g.channel_id for g in await store.games_of_user(5, guild_id=1)] == [1, 2]
    assert await store.games_of_user(5, guild_id=2) == []
    assert await store.games_of_user(6) == []
    assert await store.count_games() == 2
    assert await store.get_meta("k") is None
    await store.set_meta("k", "v1")
    await store.set_meta("k", "v2")
    assert await store.get_meta("k") == "v2"


async def test_settings_prefs_campaigns_votes(store):
    assert await store.guild_settings(1) == {}
    await store.set_guild_settings(1, {"reminder": 60})
    await store.set_guild_settings(1, {"reminder": 30})
    assert await store.guild_settings(1) == {"reminder": 30}
    await store.set_user_prefs(5, {"quiet": [22, 7]})
    assert await store.user_prefs(5) == {"quiet": [22, 7]}

    camp = await store.create_campaign(guild_id=1, game="armor_clash", name="c", points=[10, 6], created_by=5)
    with pytest.raises(ChannelBusy):
        await store.create_campaign(guild_id=1, game="armor_clash", name="c", points=[1], created_by=5)
    await store.commit(ChangeSet(campaigns=[CampaignChange(camp.id, camp.version, {"story": {"n": 1}})]))
    assert (await store.campaign(1, "c")).progress == {"story": {"n": 1}}
    assert [c.id for c in await store.campaigns(1)] == [camp.id]
    row = await _new(store, status="active", state_json="{}", campaign_id=camp.id)
    await store.update_game(row.id, row.version, status="finished", results=[ResultRow("p1", 5, 1, True)])
    assert [(r.user_id, r.place, r.won) for r in await store.results_of_campaign(camp.id)] == [(5, 1, True)]

    vote = await store.create_vote(
        game_id=row.id, kind="undo", payload={"a": 1}, base_version=3, voters=[5, 6], created_by=5
    )
    await store.commit(ChangeSet(votes=[VoteChange(vote.id, vote.version, yes=[6, 5, 6], no=[], status="passed")]))
    got = await store.get_vote(vote.id)
    assert (got.yes, got.no, got.status, got.payload, got.base_version) == ([5, 6], [], "passed", {"a": 1}, 3)
    assert await store.get_vote(vote.id + 1000) is None


# ------------------------------------------------------------ due times (scheduler)
async def _waiting(store, channel, table=None, seats=(("p1", 5), ("p2", None)), to_act=("p1", "p2")):
    row = await store.create_game(
        guild_id=1,
        channel_id=channel,
        game="thunder_road",
        host_id=5,
        options={},
        seed=1,
        seats=[Seat(s, u) for s, u in seats],
        status="active",
        state_json="{}",
        table=table,
    )
    await store.update_game(row.id, row.version, to_act=list(to_act))
    return await store.get_game(row.id)


async def due_ids(store, at):
    return [g.id for g in await store.due_tables(at)]


async def test_due_times_follow_the_table_then_the_server_then_the_default(store):
    own = await _waiting(store, 1, table={"reminder": 60, "turn_timer": 120})
    server = await _waiting(store, 2)
    default = await _waiting(store, 3)
    await store.set_guild_settings(1, {"reminder": 30})
    t0 = own.turn_started_at
    assert await due_ids(store, t0 + 29 * 60) == []
    assert await due_ids(store, t0 + 31 * 60) == [server.id, default.id]  # the server's 30 min
    await store.set_guild_settings(1, {})  # back to the platform default (12 hours): retimed at once
    assert await due_ids(store, t0 + 61 * 60) == [own.id]
    assert await due_ids(store, t0 + 719 * 60) == [own.id]
    assert await due_ids(store, t0 + 721 * 60) == [own.id, server.id, default.id]
    # the AI seat has no clock; the human seat has both
    rows = await store.sql("SELECT seat, remind_at - since, expire_at - since FROM turn_clocks WHERE game_id=?", own.id)
    assert rows == [("p1", 3600.0, 7200.0)]


async def test_a_claimed_reminder_is_due_again_one_interval_later_and_a_move_restarts_the_clock(store):
    now = [1_800_000_000.0]
    store.clock = lambda: now[0]
    row = await _waiting(store, 1, table={"reminder": 60})
    t0 = row.turn_started_at
    assert t0 == now[0]
    assert await due_ids(store, t0 + 3601) == [row.id]
    assert await store.mark_reminded(row.id, t0 + 3601, expected_version=row.version, previous=None)
    assert await due_ids(store, t0 + 3601) == []
    assert await due_ids(store, t0 + 7202) == [row.id]
    now[0] = t0 + 5000
    v = await store.update_game(row.id, row.version, to_act=["p1"])  # a new decision: its clock starts now
    assert await due_ids(store, t0 + 7202) == [] and await due_ids(store, t0 + 5000 + 3601) == [row.id]
    await store.update_game(row.id, v, status="finished", to_act=[])
    assert await due_ids(store, t0 + 10**6) == []
    other = await _waiting(store, 2)
    await store.quarantine(other.id, "broken")
    assert await due_ids(store, t0 + 10**6) == [] and await store.sql("SELECT COUNT(*) FROM turn_clocks") == [(0,)]


async def test_opening_an_older_database_fills_in_the_due_times(store, database_url):
    row = await _waiting(store, 1, table={"turn_timer": 5})
    # back to schema 3, as a database written before due times existed
    await store.sql("DROP TABLE outbox")  # and what later migrations created
    await store.sql("DROP TABLE snapshots")
    await store.sql("DROP TABLE web_tokens")
    if str(database_url).startswith("postgres"):  # the web companion's change notification
        await store.sql("DROP TRIGGER games_notify ON games")
        await store.sql("DROP FUNCTION tg_table_changed()")
    await store.sql("DROP TABLE turn_clocks")
    for table in ("league_steps", "leagues", "follow_closed", "follows", "ratings"):  # and what later migrations added
        await store.sql(f"DROP TABLE {table}")
    await store.sql("DROP INDEX actions_user")
    await store.sql("ALTER TABLE seats DROP COLUMN ai_level")
    await store.sql("DROP TABLE rate_events")
    for index in ("votes_one_per_decision", "games_host"):
        await store.sql(f"DROP INDEX {index}")
    await store.sql("ALTER TABLE votes DROP COLUMN decision")
    await store.sql("ALTER TABLE games DROP COLUMN lobby_message_id")
    await store.sql("DELETE FROM schema_migrations WHERE version >= 4")
    await store.close()
    again = open_store(database_url)
    await again.open()
    try:
        assert await again.schema_version() == MIGRATIONS[-1][0]
        assert await due_ids(again, row.turn_started_at + 301) == [row.id]
    finally:
        await again.close()
        await store.open()  # the fixture closes it

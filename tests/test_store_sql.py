"""The one SQL core and its two dialect adapters (store/sql.py): the spellings that
differ, and the behaviour behind them, run on SQLite and on a real PostgreSQL."""

import pytest

from store import Caps, ChangeSet, LimitReached, RatingChange, Seat, StoreError, open_store
from store.postgres import dollars
from store.sql import POSTGRESQL, SQLITE


def test_placeholders_become_numbered_for_postgresql():
    assert dollars("SELECT 1") == "SELECT 1"
    assert dollars("a=? AND b IN (?,?)") == "a=$1 AND b IN ($2,$3)"
    assert dollars("x=?") == "x=$1"


def test_a_list_parameter_is_spelled_per_dialect():
    assert SQLITE.within("g.id", [1, 2, 3]) == ("g.id IN (?,?,?)", [1, 2, 3])
    assert POSTGRESQL.within("g.id", [1, 2, 3]) == ("g.id = ANY(CAST(? AS BIGINT[]))", [[1, 2, 3]])
    assert POSTGRESQL.within("status", ["lobby"], "TEXT") == ("status = ANY(CAST(? AS TEXT[]))", [["lobby"]])
    for dialect in (SQLITE, POSTGRESQL):
        assert dialect.within("id", []) == ("1=0", [])
    # SQLite's one writer needs no row locks or advisory locks; PostgreSQL's many do
    assert (SQLITE.for_update, SQLITE.lock) == ("", "")
    assert POSTGRESQL.for_update == " FOR UPDATE" and "pg_advisory_xact_lock" in POSTGRESQL.lock


async def _table(store, channel: int, seats: list[Seat]) -> int:
    row = await store.create_game(
        guild_id=1, channel_id=channel, game="thunder_road", host_id=5, options={}, seed=7, seats=seats
    )
    return row.id


async def test_seats_come_back_in_seat_order_with_big_ids_and_levels(store):
    """Seats are read as one JSON column per row (json_group_array / json_agg), in position order."""
    big = 2**63 - 5
    seats = [Seat(f"p{i}", None if i == 3 else big - i, "hard" if i == 1 else None) for i in range(12)]
    gid = await _table(store, 10, list(reversed(seats)))
    row = await store.get_game(gid)
    assert row is not None and row.seats == list(reversed(seats))
    listed = await store.games_of_user(big - 11)
    assert [r.id for r in listed] == [gid] and listed[0].seats == row.seats


async def test_lists_longer_than_one_sqlite_statement_takes(store):
    """SQLite binds at most a few hundred ids per statement (the dialect chunks them);
    PostgreSQL passes one array."""
    ids = [await _table(store, 100 + i, [Seat("p1", 9)]) for i in range(3)]
    asked = list(range(-1200, 0)) + ids + list(range(10**6, 10**6 + 1200))
    assert await store.table_versions(asked) == {i: 1 for i in ids}
    assert await store.results_of_games(asked) == {}
    rated = [RatingChange(1, "thunder_road", u, 0, 25.0 + u % 7, 8.0, 1) for u in (3, 2000, 4000)]
    await store.commit(ChangeSet(ratings=rated))
    rows = await store.ratings(1, user_ids=list(range(1, 4500)))
    assert [(r.user_id, r.mu) for r in rows] == [(3, 28.0), (2000, 30.0), (4000, 28.0)]


async def test_release_gives_back_exactly_one_of_two_equal_events(store):
    """The physical row id (SQLite rowid, PostgreSQL ctid) picks one of two equal rows."""
    caps = Caps(member=2)
    await store.claim_rate("threads", 1, 7, 100.0, 3600.0, caps)
    await store.claim_rate("threads", 1, 7, 100.0, 3600.0, caps)
    with pytest.raises(LimitReached):
        await store.claim_rate("threads", 1, 7, 101.0, 3600.0, caps)
    await store.release_rate("threads", 7, 100.0)
    assert await store.sql("SELECT COUNT(*) FROM rate_events") == [(1,)]
    await store.claim_rate("threads", 1, 7, 102.0, 3600.0, caps)  # room for one again


async def test_without_a_due_time_policy_a_running_table_is_not_changed(store, database_url):
    """The store keeps due times; when they fall is the table service's rule (tables/rules/clocks.py),
    given by whoever opens the store: one opened without it (a copy tool) refuses to time a table."""
    gid = await _table(store, 10, [Seat("p1", 9), Seat("p2", 8)])
    bare = open_store(database_url, due=None)
    await bare.open()
    try:
        with pytest.raises(StoreError, match="policy"):
            await bare.update_game(gid, 1, status="active", to_act=["p1"])
    finally:
        await bare.close()
    row = await store.get_game(gid)
    assert row is not None and (row.status, row.version) == ("lobby", 1)  # nothing written


def _timer_of(seconds: float):
    """A due-time policy: each waiting member's timer runs out ``seconds`` after their wait began."""

    def policy(*, status, to_act, seats, table, guild, since, last_reminder_at, prefs):
        users = dict(seats)
        return [(seat, users[seat], since, None, since + seconds) for seat in to_act if users.get(seat) is not None]

    return policy


async def test_each_store_times_tables_by_the_policy_it_was_opened_with(store, database_url):
    """The due-time policy is given when a store is opened, not registered once per process on
    import: two stores open at once on one database, with different policies, each time the
    table they change by their own (before: one module-wide policy, the last registered)."""
    a = await _table(store, 10, [Seat("p1", 9), Seat("p2", 8)])
    b = await _table(store, 11, [Seat("p1", 7), Seat("p2", 6)])
    quick = open_store(database_url, clock=lambda: 1000.0, due=_timer_of(100))
    slow = open_store(database_url, clock=lambda: 1000.0, due=_timer_of(500))
    for s in (quick, slow):
        await s.open()
    try:
        await quick.update_game(a, 1, status="active", to_act=["p1"])
        await slow.update_game(b, 1, status="active", to_act=["p2"])
        for s in (store, quick, slow):  # the due times are stored: every store reads the same
            assert [g.id for g in await s.due_tables(1099.0)] == []
            assert [g.id for g in await s.due_tables(1100.0)] == [a]
            assert [g.id for g in await s.due_tables(1500.0)] == [a, b]
        await slow.update_game(a, 2, to_act=["p2"])  # re-timed by the store that changed it
        assert [g.id for g in await store.due_tables(1100.0)] == []
        assert [g.id for g in await store.due_tables(1500.0)] == [a, b]
    finally:
        for s in (quick, slow):
            await s.close()

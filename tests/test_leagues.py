"""Leagues without Discord (tables/leagues/rounds.py and the store's league rows): every
change compare-and-swap on the league, each round step claimed once across
processes, a whole season through the service.  Runs on every store backend."""

from __future__ import annotations

import asyncio
import itertools

import pytest
from conftest import Clock, make_store

from store import ChannelBusy, Seat, VersionConflict
from tables import TableService, TurnRefused
from tables.leagues.rounds import LeagueService, compute_standings, standings, table_points

GUILD = 1


async def test_league_rows_compare_and_swap(store):
    row = await store.create_league(
        guild_id=GUILD,
        channel_id=5,
        game="armor_clash",
        name="Spring <@&1>",
        format="swiss",
        config={"rounds": 3},
        state={"players": {}},
        created_by=9,
    )
    assert row.version == 1 and row.status == "signup" and row.name == "Spring <@&1>"
    with pytest.raises(ChannelBusy):
        await store.create_league(
            guild_id=GUILD, channel_id=5, game="armor_clash", name=row.name, format="swiss",
            config={}, state={}, created_by=9,
        )  # fmt: skip
    v = await store.update_league(row.id, 1, state={"players": {"7": {}}})
    assert v == 2
    with pytest.raises(VersionConflict):
        await store.update_league(row.id, 1, status="running")  # decided on a stale read: nothing written
    got = await store.league(row.id)
    assert got.status == "signup" and got.state == {"players": {"7": {}}} and got.config == {"rounds": 3}
    await store.update_league(row.id, 2, status="running")
    assert [r.id for r in await store.leagues(statuses=["running"])] == [row.id]
    assert await store.leagues(GUILD, statuses=["finished"]) == []
    assert (await store.league_named(GUILD, row.name)).id == row.id


async def test_round_step_claimed_once(store_backend, tmp_path):
    a = await make_store(store_backend, tmp_path)
    b = await make_store(store_backend, tmp_path)  # a second process on the same database
    try:
        row = await a.create_league(
            guild_id=GUILD, channel_id=5, game="armor_clash", name="x", format="swiss",
            config={}, state={}, created_by=9,
        )  # fmt: skip
        got = await asyncio.gather(*(s.claim_league_step(row.id, 1, "open:0", 100.0, 600) for s in (a, b, a, b)))
        assert sorted(got) == [False, False, False, True]
        assert not await b.claim_league_step(row.id, 1, "open:0", 650.0, 600)  # within the lease
        assert await b.claim_league_step(row.id, 1, "open:0", 700.0, 600)  # its process died: claimable again
        await b.finish_league_step(row.id, 1, "open:0", 701.0)
        assert await a.sql(
            "SELECT done_at IS NOT NULL FROM league_steps WHERE league_id=? AND round=1 AND step='open:0'", row.id
        ) == [(True,)]
        assert not await a.claim_league_step(row.id, 1, "open:0", 10_000.0, 600)  # done is done
        assert await a.claim_league_step(row.id, 2, "open:0", 100.0, 600)  # another round's step
    finally:
        await a.close()
        await b.close()


def test_points_per_placing_share_ties():
    assert table_points({1: 1, 2: 2}) == {1: 1.0, 2: 0.0}
    assert table_points({1: 1, 2: 1}) == {1: 0.5, 2: 0.5}  # a two-seat draw
    assert table_points({1: 1, 2: 2, 3: 2, 4: 3}) == {1: 3.0, 2: 1.5, 3: 1.5, 4: 0.0}


async def _finish_round(leagues: LeagueService, league_id: int, channel: list[int]):
    row = await leagues.get(league_id)
    for n, k, _ in leagues.unopened(row):
        assert await leagues.claim_open(league_id, n, k)
        assert not await leagues.claim_open(league_id, n, k)  # a second process is refused
        channel[0] += 1
        await leagues.open_table(league_id, n, k, channel[0], locale="en", seed=n * 100 + k)


async def test_swiss_season_through_the_service(store_backend, tmp_path):
    clock = Clock()
    store = await make_store(store_backend, tmp_path, clock=clock)
    try:
        tables = TableService(store, clock=clock)
        leagues = LeagueService(tables)
        with pytest.raises(TurnRefused) as exc:
            await leagues.create(
                guild_id=GUILD, channel_id=5, game="automobile", name="cars", format="swiss", created_by=9
            )
        assert exc.value.key == "league.two_seat_only"
        lg = await leagues.create(
            guild_id=GUILD,
            channel_id=5,
            game="armor_clash",
            name="Duel cup",
            format="swiss",
            created_by=9,
            rounds=3,
            round_hours=24,
            options={"scenario": "duel"},
        )
        for uid in (11, 12, 13, 14, 15):
            await leagues.signup(lg.id, uid)
        with pytest.raises(TurnRefused):
            await leagues.signup(lg.id, 12)  # twice
        await leagues.start(lg.id)
        channel = [1000]
        byes: list[int] = []
        events = await leagues.advance(lg.id)
        for n in (1, 2, 3):
            # a round starts in the pass that ended the one before
            started = [e for e in events if e.kind == "round_started"]
            assert [e.round for e in started] == [n]
            byes += started[0].byes
            await _finish_round(leagues, lg.id, channel)
            row = await leagues.get(lg.id)
            assert all(tb["status"] == "open" for tb in row.state["rounds"][n - 1]["tables"])
            clock.advance(24 * 60 + 1)  # the deadline: nobody moved anywhere, every table a double forfeit
            events = await leagues.advance(lg.id)
            assert "deadline" in [e.kind for e in events]
        assert [e.kind for e in events][-1] == "season_ended"
        assert len(byes) == 3 and len(set(byes)) == 3  # a different player each round
        row = await leagues.get(lg.id)
        assert row.status == "finished" and row.state["podium"]["1"]
        met = [frozenset(tb["seats"]) for r in row.state["rounds"] for tb in r["tables"]]
        assert len(met) == len(set(met))  # no rematch
        standing = await leagues.standings(lg.id)
        # issue 29 item 3: a table nobody moved at gives nobody a point and moves no rating
        assert sum(r.points for r in standing.rows) == 3 * 1.0  # the byes alone
        assert sum(r.absent for r in standing.rows) == 3 * 2 * 2 and sum(r.wins for r in standing.rows) == 0
        assert [r.rank for r in standing.rows] == [1, 2, 3, 4, 5]
        assert all(r.rating_change == 0 for r in standing.rows) and await store.ratings(GUILD) == []
        ended = [table_row for r in row.state["rounds"] for table_row in r["tables"]]
        assert all(tb["places"] == {} and len(tb["forfeit"]) == 2 for tb in ended)
        again = await leagues.advance(lg.id)
        assert again == []  # a finished season does nothing more (and posts its end once)
    finally:
        await store.close()


async def test_drop_replace_and_late_signup(store):
    clock = Clock()
    tables = TableService(store, clock=clock)
    leagues = LeagueService(tables)
    lg = await leagues.create(
        guild_id=GUILD, channel_id=5, game="armor_clash", name="p", format="pods", created_by=9,
        rounds=2, seats=2, options={"scenario": "duel"},
    )  # fmt: skip
    for uid in (21, 22, 23, 24):
        await leagues.signup(lg.id, uid)
    await leagues.start(lg.id)
    await leagues.advance(lg.id)
    await _finish_round(leagues, lg.id, [2000])
    row = await leagues.get(lg.id)
    first = row.state["rounds"][0]["tables"][0]
    old = first["seats"][0]
    row, moved = await leagues.replace_player(lg.id, old, 29)
    assert moved == [first["game_id"]]
    assert (await store.get_game(first["game_id"])).seat_of(29) == "p1"
    row, handed = await leagues.drop(lg.id, 29)
    assert handed == [first["game_id"]]
    await leagues.signup(lg.id, 25)  # late: joins from round 2
    assert row.state["players"].get("25") is None
    row = await leagues.get(lg.id)
    assert row.state["players"]["25"]["joined"] == 2
    with pytest.raises(TurnRefused):
        await leagues.drop(lg.id, 29)  # dropped already


def test_head_to_head_breaks_a_tie():
    from store import LeagueRow

    row = LeagueRow(
        id=1, guild_id=1, channel_id=1, game="armor_clash", name="x", format="pods", status="running",
        config={"seats": 2}, created_by=1, created_at=0, updated_at=0,
        state={
            "players": {"1": {}, "2": {}, "3": {}},
            "rounds": [
                {"byes": [], "tables": [{"seats": [1, 2], "status": "ended", "places": {"1": 2, "2": 1}}]},
                {"byes": [], "tables": [{"seats": [1, 3], "status": "ended", "places": {"1": 1, "3": 2}}]},
                {"byes": [], "tables": [{"seats": [2, 3], "status": "ended", "places": {"2": 2, "3": 1}}]},
            ],
        },
    )  # fmt: skip
    rows = compute_standings(row, {1: 30.0, 2: 20.0, 3: 10.0})
    assert [r.points for r in rows] == [1.0, 1.0, 1.0]
    # all tied on points and on head-to-head (a cycle): the rating decides
    assert [r.user_id for r in rows] == [1, 2, 3]
    row.state["rounds"][2]["tables"][0]["places"] = {"2": 1, "3": 2}
    rows = compute_standings(row, {1: 30.0, 2: 20.0, 3: 10.0})
    assert [r.user_id for r in rows][:1] == [2]


_ = Seat


async def test_round_robin_with_divisions_then_promotion_and_relegation(store):
    clock = Clock()
    tables = TableService(store, clock=clock)
    leagues = LeagueService(tables)
    lg = await leagues.create(
        guild_id=GUILD, channel_id=5, game="armor_clash", name="RR", format="round_robin", created_by=9,
        round_hours=1, divisions=2, promote=1, options={"scenario": "duel"},
    )  # fmt: skip
    players = list(range(41, 49))
    for uid in players:
        await leagues.signup(lg.id, uid)
    row = await leagues.start(lg.id)
    assert row.config["rounds"] == 3  # four players a division: everyone meets everyone once
    with pytest.raises(TurnRefused) as exc:
        await leagues.signup(lg.id, 99)
    assert exc.value.key == "league.late_round_robin"
    channel = [3000]
    await leagues.advance(lg.id)
    for _ in range(3):
        await _finish_round(leagues, lg.id, channel)
        clock.advance(61)
        await leagues.advance(lg.id)
    row = await leagues.get(lg.id)
    assert row.status == "finished"
    for d in (1, 2):
        members = {int(u) for u, p in row.state["players"].items() if p["division"] == d}
        assert len(members) == 4
        met = [frozenset(tb["seats"]) for r in row.state["rounds"] for tb in r["tables"] if tb["div"] == d]
        assert sorted(map(sorted, met)) == sorted(map(sorted, map(frozenset, itertools.combinations(members, 2))))
    table = await standings(store, lg.id)  # what the web companion reads
    assert table is not None and table.tie_breaks == ("head_to_head",) and table.divisions == [1, 2]
    top2 = table.division(2)[0].user_id
    last1 = table.division(1)[-1].user_id
    nxt = await leagues.next_season(lg.id, "RR 2", 9)
    assert nxt.status == "signup" and nxt.config["previous"] == lg.id
    assert nxt.state["players"][str(top2)]["division"] == 1  # promoted
    assert nxt.state["players"][str(last1)]["division"] == 2  # relegated
    await leagues.start(nxt.id)
    again = await leagues.get(nxt.id)
    assert again.state["players"][str(top2)]["division"] == 1  # kept at the start, not re-seeded
    assert await standings(store, 999) is None


async def test_privacy_forget_takes_a_member_out_of_league_rosters(store):
    lg = await store.create_league(
        guild_id=GUILD, channel_id=5, game="armor_clash", name="f", format="swiss", config={},
        state={"players": {"77": {"division": 1}, "78": {}}, "roster": [77, 78],
               "rounds": [{"tables": [{"seats": [77, 78], "places": {"77": 1, "78": 2}}]}]},
        created_by=9,
    )  # fmt: skip
    done = await store.forget_user(77, -5)
    assert done["leagues"] == 1
    got = await store.league(lg.id)
    assert "77" not in got.state["players"] and got.state["roster"] == [-5, 78]
    assert got.state["rounds"][0]["tables"][0] == {"seats": [-5, 78], "places": {"-5": 1, "78": 2}}


async def test_a_table_never_opened_is_void_at_the_deadline(store):
    clock = Clock()
    leagues = LeagueService(TableService(store, clock=clock))
    lg = await leagues.create(
        guild_id=GUILD, channel_id=5, game="armor_clash", name="v", format="swiss", created_by=9,
        rounds=2, round_hours=1, options={"scenario": "duel"},
    )  # fmt: skip
    for uid in (61, 62, 63, 64):
        await leagues.signup(lg.id, uid)
    await leagues.start(lg.id)
    await leagues.advance(lg.id)
    row = await leagues.get(lg.id)
    n, k, _ = leagues.unopened(row)[0]
    await leagues.open_table(lg.id, n, k, 7001, locale="en", seed=1)  # the other table's thread fails
    assert await leagues.advance(lg.id) == []  # before the deadline the round waits
    clock.advance(61)
    events = await leagues.advance(lg.id)
    assert [e.kind for e in events] == ["deadline", "table_ended", "round_started"]
    first = (await leagues.get(lg.id)).state["rounds"][0]["tables"]
    assert [tb.get("void", False) for tb in first] == [False, True] and first[1]["places"] == {}
    assert leagues.unopened(await leagues.get(lg.id))  # round 2's tables, not the void one
    assert all(r.points <= 1 for r in (await leagues.standings(lg.id)).rows)

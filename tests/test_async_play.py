"""Ratings (recorded with the result, in one transaction) and privacy (`forget`),
through the table service on every store backend.  Followers and `/game mine`:
tests/test_people.py."""

from __future__ import annotations

import random

import pytest
from tablekit import open_vote

from engine import get_game
from store import InjectedCrash, Seat
from tables import TableService, TurnRefused
from tables.rules import ratings

HOST, BOB, CAROL = 7, 8, 9
AI = lambda g, st, s, legal: g.ai_action(st, s)  # noqa: E731


async def start(store, service, game="thunder_road", humans=(HOST, BOB), table=None, ai=0, channel=None):
    seats = [Seat(f"p{i + 1}", u) for i, u in enumerate(humans)]
    seats += [Seat(f"p{len(seats) + i + 1}", None) for i in range(ai)]
    row = await store.create_game(
        guild_id=1,
        channel_id=channel or random.randrange(1, 1 << 40),
        game=game,
        host_id=HOST,
        options={},
        seed=11,
        seats=seats,
        table=table or {},
    )
    await service.lobby(row.id, HOST, "start")
    return row.id


async def play_to_the_last_move(service, gid):
    """Play with the AI's choices until the next move ends the game; (loaded, seat)."""
    game = None
    for _ in range(20_000):
        loaded = await service.load(gid)
        game = loaded.game
        seat = game.to_act(loaded.state)[0]
        after, _ = game.apply(loaded.state, seat, game.ai_action(loaded.state, seat))
        after, _, _ = service.run_ai(loaded.row, game, after)
        if game.outcome(after) is not None:
            return loaded, seat
        await service.act(gid, loaded.row.user_of(seat), AI, seat=seat)
    raise AssertionError("the game never ended")


async def test_a_result_and_its_ratings_land_together_or_not_at_all(store):
    service = TableService(store)
    gid = await start(store, service)
    loaded, seat = await play_to_the_last_move(service, gid)
    last = lambda: service.act(gid, loaded.row.user_of(seat), AI, seat=seat, expected_version=loaded.row.version)  # noqa: E731
    for step in ("results", "ratings", "commit"):
        store.inject_crash(step)
        with pytest.raises(InjectedCrash):
            await last()
        store.inject_crash(None)
        assert await store.ratings(1) == [] and await store.stats(1) == []
    res = await last()
    assert res.finished
    rated = {r.user_id: r for r in await store.ratings(1, "thunder_road")}
    stats = {s.user_id: s for s in await store.stats(1, game="thunder_road")}
    assert set(rated) == {HOST, BOB} and all(r.played == 1 for r in rated.values())
    winner = next(u for u, s in stats.items() if s.wins)
    loser = next(u for u in rated if u != winner)
    assert rated[winner].mu > ratings.initial()[0] > rated[loser].mu
    assert rated[winner].sigma < ratings.initial()[1]


async def test_ratings_move_on_from_the_stored_ones_and_a_lost_race_is_decided_again(store):
    service = TableService(store)
    for n in range(2):
        gid = await start(store, service)
        loaded, seat = await play_to_the_last_move(service, gid)
        if n == 1:  # another table's result moved BOB's rating on under us: decided again, both count
            before = {r.user_id: r for r in await store.ratings(1, "thunder_road")}
            from store import ChangeSet, RatingChange

            b = before[BOB]
            await store.commit(
                ChangeSet(ratings=[RatingChange(1, "thunder_road", BOB, b.version, b.mu, b.sigma, b.played + 1)])
            )
        await service.act(gid, loaded.row.user_of(seat), AI, seat=seat, expected_version=loaded.row.version)
    rated = {r.user_id: r for r in await store.ratings(1, "thunder_road")}
    assert rated[HOST].played == 2 and rated[BOB].played == 3


async def test_ai_seats_are_not_rated_and_a_table_with_one_human_rates_nobody(store):
    service = TableService(store)
    gid = await start(store, service, humans=(HOST,), ai=1)
    loaded, seat = await play_to_the_last_move(service, gid)
    await service.act(gid, loaded.row.user_of(seat), AI, seat=seat)
    assert [s.user_id for s in await store.stats(1)] == [HOST]
    assert await store.ratings(1) == []


async def test_forget_removes_stats_ratings_and_settings_and_replays_still_work(store):
    service = TableService(store)
    channel = random.randrange(1, 1 << 40)
    gid = await start(store, service, channel=channel)
    with pytest.raises(TurnRefused) as exc:  # still seated at a running table
        await service.forget(HOST)
    assert exc.value.code == "still_seated"
    loaded, seat = await play_to_the_last_move(service, gid)
    await service.act(gid, loaded.row.user_of(seat), AI, seat=seat)
    await service.settings.set_user(HOST, {"quiet": [22, 7]})
    seen = await service.footprint(HOST)
    assert seen["results"] == 1 and seen["ratings"] == 1 and seen["actions"] > 0 and seen["prefs"]
    done = await service.forget(HOST)
    assert done["results"] == 1 and done["ratings"] == 1 and done["actions"] == seen["actions"]
    after = await service.footprint(HOST)
    counts = {k: v for k, v in after.items() if k != "prefs"}
    assert {"results", "ratings", "tables", "actions", "follows", "hosted", "votes"} <= set(counts)
    assert set(counts.values()) == {0}
    assert after["prefs"] == {}
    assert {r.user_id for r in await store.ratings(1)} == {BOB}  # the others keep theirs
    row = await store.get_game(gid)
    anon = row.user_of("p1")
    assert anon is not None and anon < 0 and row.host_id == anon
    assert {a.user_id for a in await store.actions(gid, limit=100_000)} <= {anon, BOB, None}
    game, state, n, total = await service.replay_state(row, None)
    assert n == total and state.model_dump_json() == get_game(row.game).load(row.state_json).model_dump_json()


async def test_an_admin_forgets_a_member_who_left_on_this_server_only_votes_and_campaigns_included(store):
    from store import ResultRow

    service = TableService(store)
    camp = await store.create_campaign(
        guild_id=1,
        game="thunder_road",
        name="Cup",
        points=[3, 1],
        created_by=HOST,
        progress={"members": {str(HOST): "p1"}},
    )
    games = {}
    for guild in (1, 2):
        row = await store.create_game(
            guild_id=guild,
            channel_id=random.randrange(1, 1 << 40),
            game="thunder_road",
            host_id=BOB,
            options={},
            seed=1,
            seats=[Seat("p1", HOST), Seat("p2", BOB)],
            status="active",
            state_json="{}",
            campaign_id=camp.id if guild == 1 else None,
        )
        await open_vote(
            store,
            game_id=row.id,
            kind="handover",
            payload={"seat": "p1", "owner": HOST},
            base_version=1,
            voters=[BOB],
            created_by=BOB,
        )
        await store.update_game(
            row.id, row.version, status="finished", to_act=[], results=[ResultRow("p1", HOST, 1, True)]
        )
        games[guild] = row.id
    await service.settings.set_user(HOST, {"quiet": [1, 2]})
    done = await service.forget(HOST, guild_id=1)
    assert done["results"] == 1 and done["votes"] == 1 and done["campaigns"] == 1
    assert [s.user_id for s in await store.stats(2)] == [HOST]  # another server's data stays
    assert await service.settings.user(HOST) == {"quiet": [1, 2]}  # their own settings are theirs to forget
    anon = (await store.get_game(games[1])).user_of("p1")
    assert anon < 0 and (await store.get_game(games[2])).user_of("p1") == HOST
    vote = (await store.open_votes(games[1]))[0]
    assert vote.payload["owner"] == anon
    progress = (await store.campaign_by_id(camp.id)).progress
    assert progress["members"] == {str(anon): "p1"}
    assert (await store.open_votes(games[2]))[0].payload["owner"] == HOST

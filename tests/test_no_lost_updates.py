"""No lost updates across processes (issue 19, item 6): two table services, each with
its own store connection(s) on ONE database (what two bot processes on PostgreSQL are;
on SQLite two stores of one process on one file), racing each other.  Both backends."""

from __future__ import annotations

import asyncio
import random

import pytest
from conftest import make_store

from store import Seat
from tables import TableService, TurnRefused

HOST, BOB, CAROL = 7, 8, 9
GUILD = 1
AI = lambda g, st, s, legal: g.ai_action(st, s)  # noqa: E731


@pytest.fixture
async def two(store, store_backend, tmp_path):
    """(service A on the test's store, service B on a second store of the same database)."""
    other = await make_store(store_backend, tmp_path)
    try:
        yield TableService(store), TableService(other)
    finally:
        await other.close()


async def new_table(service, humans=(HOST, BOB, CAROL), table=None, seed=1) -> int:
    row = await service.store.create_game(
        guild_id=GUILD,
        channel_id=random.randrange(1, 1 << 40),
        game="thunder_road",
        host_id=humans[0],
        options={},
        seed=seed,
        seats=[Seat(f"p{i + 1}", u) for i, u in enumerate(humans)],
        table=table or {},
    )
    await service.lobby(row.id, humans[0], "start")
    return row.id


async def test_two_admins_changing_different_settings_at_once_both_keep_theirs(two):
    a, b = two
    for i in range(20):
        told = await asyncio.gather(
            a.settings.update_guild(GUILD, lambda s, i=i: {**s, "reminder": 100 + i}),
            b.settings.update_guild(GUILD, lambda s, i=i: {**s, "threads": {**s["threads"], f"g{i}": True}}),
        )
        stored = await a.store.guild_settings(GUILD)
        assert stored["reminder"] == 100 + i and stored["threads"] == {f"g{n}": True for n in range(i + 1)}, i
        assert told[0]["reminder"] == 100 + i and told[1]["threads"][f"g{i}"] is True  # each told the truth
    # the same setting at once: the later write wins, and each was told what it wrote
    told = await asyncio.gather(
        a.settings.update_guild(GUILD, lambda s: {**s, "turn_timer": 30}),
        b.settings.update_guild(GUILD, lambda s: {**s, "turn_timer": 60}),
    )
    assert [t["turn_timer"] for t in told] == [30, 60]
    assert (await a.store.guild_settings(GUILD))["turn_timer"] in (30, 60)


async def test_a_members_preferences_changed_from_two_places_at_once_keep_both(two):
    a, b = two
    for i in range(20):
        await asyncio.gather(
            a.settings.update_user(HOST, lambda p, i=i: {**p, "quiet": [i % 24, 7]}),
            b.settings.update_user(HOST, lambda p, i=i: {**p, "utc_offset": i}),
        )
        prefs = await a.settings.user(HOST)
        assert prefs["quiet"] == [i % 24, 7] and prefs["utc_offset"] == i, i
    # a vacation taken while the quiet hours change elsewhere: both kept
    await asyncio.gather(a.go_away(HOST, 3), b.settings.update_user(HOST, lambda p: {**p, "quiet": [1, 2]}))
    prefs = await a.settings.user(HOST)
    assert prefs["away"] and prefs["quiet"] == [1, 2]


async def test_two_processes_expiring_the_same_bank_open_one_vote(two):
    a, b = two
    for n in range(10):
        gid = await new_table(a, seed=n)
        row = await a.store.get_game(gid)
        seat = row.to_act[0]
        opened = await asyncio.gather(
            a.expiry_votes(gid, row.version, [seat]), b.expiry_votes(gid, row.version, [seat])
        )
        assert sum(len(o) for o in opened) == 1
        votes = await a.store.open_votes(gid)
        assert len(votes) == 1 and votes[0].payload["seat"] == seat
        # later passes over the same decision open nothing either
        assert await b.expiry_votes(gid, row.version, [seat]) == []


async def test_one_vote_per_seat_and_decision_also_when_it_was_already_answered(two):
    a, b = two
    gid = await new_table(a)
    row = await a.store.get_game(gid)
    seat = row.to_act[0]
    opened = await a.expiry_votes(gid, row.version, [seat])
    vote = opened[0].vote
    await a.ballot(vote.id, row.user_of(seat), False)  # the owner refuses
    assert (await a.store.get_vote(vote.id)).status == "refused"
    assert await b.expiry_votes(gid, row.version, [seat]) == []  # not asked again for this decision
    with pytest.raises(TurnRefused) as exc:  # nor by hand, for the same seat and decision
        voter = next(u for u in row.humans if u not in (row.user_of(seat), row.host_id))  # not the host
        await b.handover(gid, voter, seat, None, now=1e12)
    assert exc.value.code == "vote_exists" and "already" in exc.value.text("en")


async def test_an_undo_racing_another_process_move_is_answered_on_fresh_data_and_keeps_the_snapshots(two):
    a, b = two
    a.snapshot_every = b.snapshot_every = 1
    gid = await new_table(a, humans=(HOST, BOB), seed=7)
    for _ in range(200):  # play until HOST has moved (a few times) and BOB is to move
        loaded = await a.load(gid)
        seat = loaded.row.to_act[0]
        log = await a.store.actions(gid, limit=1000)
        if len(log) >= 4 and log[-1].user_id == HOST and loaded.row.user_of(seat) == BOB:
            break
        await a.act(gid, loaded.row.user_of(seat), AI, seat=seat)
    else:
        raise AssertionError("HOST never moved before BOB")
    cached = await a.store.snapshots(gid)
    assert cached
    # BOB's move through process B lands between A's read of the table and its read of the log
    real = a.store.replay_source
    raced = []

    async def replay_source(*args, **kw):
        if not raced:
            mover = await b.load(gid)
            seat = mover.row.to_act[0]
            raced.append(await b.act(gid, mover.row.user_of(seat), AI, seat=seat))
        return await real(*args, **kw)

    a.store.replay_source = replay_source  # type: ignore[method-assign]
    try:
        result = await a.undo(gid, HOST)
    finally:
        a.store.replay_source = real  # type: ignore[method-assign]
    assert raced, "the race happened"
    # BOB moved since HOST's move: BOB must agree (a vote), on the table as it is now
    assert result.vote is not None and result.vote.voters == [BOB]
    assert result.vote.vote.base_version == (await a.store.get_game(gid)).version
    kept = {(s.action_id, s.key) for s in await a.store.snapshots(gid)}
    assert {(s.action_id, s.key) for s in cached} <= kept, "the snapshot cache was not dropped"
    passed = await b.ballot(result.vote.vote.id, BOB, True)  # and the undo then works, from B
    assert passed.status == "passed" and passed.result is not None

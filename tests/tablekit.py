"""Helpers the table tests share (tests/test_kernel.py, test_lobby.py, test_turns.py,
test_seats.py, test_votes.py, test_campaigns.py, ...): a table in a store, playing it
on with the AI's choices, and crash injection that proves a call lands whole or not at all."""

from __future__ import annotations

import random

import pytest

from store import ChangeSet, InjectedCrash, NewVote, Seat

HOST, BOB, CAROL = 7, 8, 9
AI = lambda g, st, s, legal: g.ai_action(st, s)  # noqa: E731


async def snapshot(store, gid: int) -> tuple:
    """Everything a service call may write about table ``gid``, read through the store."""
    row = await store.get_game(gid)
    camp = await store.campaign_by_id(row.campaign_id) if row.campaign_id else None
    votes = []
    for vid in range(1, 20):
        v = await store.get_vote(vid)
        if v is not None:
            votes.append((v.id, v.status, v.yes, v.no, v.version))
    return (
        row.version,
        row.status,
        row.state_json,
        [(s.seat, s.user_id) for s in row.seats],
        row.options,
        row.to_act,
        row.outcome,
        [(a.seat, a.user_id, a.action) for a in await store.actions(gid, limit=100_000)],
        await store.stats(1),
        (camp.progress, camp.version) if camp else None,
        votes,
    )


async def open_vote(store, *, game_id, kind, payload, base_version, voters, created_by):
    """A vote opened as the features open one: a NewVote in one commit."""
    done = await store.commit(ChangeSet(new_votes=[NewVote(game_id, kind, payload, base_version, voters, created_by)]))
    return await store.get_vote(done.vote_ids[0])


async def new_table(store, game="thunder_road", seats=((("p1", HOST)), ("p2", BOB)), campaign_id=None, options=None):
    return await store.create_game(
        guild_id=1,
        channel_id=random.randrange(1, 1 << 40),
        game=game,
        host_id=HOST,
        options=options or {},
        seed=11,
        seats=[Seat(s, u) for s, u in seats],
        campaign_id=campaign_id,
    )


async def play_until(service, gid, until, limit=5000):
    for _ in range(limit):
        loaded = await service.load(gid)
        if until(loaded):
            return loaded
        seat = loaded.game.to_act(loaded.state)[0]
        await service.act(gid, loaded.row.user_of(seat), AI, seat=seat)
    raise AssertionError("condition never reached")


CRASH_TRIES: dict[str, list[int]] = {}


async def all_or_nothing(store, gid, name: str, steps, call, check_after):
    """Crash ``call`` at each of ``steps``: nothing of it lands; then it runs whole."""
    tried = partial = 0
    for step in steps:
        before = await snapshot(store, gid)
        store.inject_crash(step)
        with pytest.raises(InjectedCrash):
            await call()
        store.inject_crash(None)
        tried += 1
        partial += await snapshot(store, gid) != before
    CRASH_TRIES[name] = [tried, partial]
    assert partial == 0, f"{name}: {partial} of {tried} crashes left a partial change"
    result = await call()
    await check_after(result)
    return result

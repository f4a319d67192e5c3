"""People (tables/people/mine.py) on every store backend: follows and ``/game mine``.
Privacy (footprint, forget): tests/test_privacy.py and tests/test_async_play.py."""

from __future__ import annotations

import random

import pytest
from tablekit import AI, BOB, CAROL, HOST

from store import Seat
from tables import TableService, TurnRefused
from tables.rules import clocks


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


async def test_followers_hear_of_each_turn_once_and_a_closed_table_takes_none(store):
    service = TableService(store)
    channel = random.randrange(1, 1 << 40)
    gid = await start(store, service, channel=channel)
    now = 1_900_000_000.0
    store.clock = lambda: now
    await service.follow(channel, CAROL, "turn")
    await service.follow(channel, 99, "digest")
    assert await service.follow_updates(now) == []  # nothing happened since they started following
    loaded = await service.load(gid)
    seat = loaded.row.to_act[0]
    await service.act(gid, loaded.row.user_of(seat), AI, seat=seat)
    due = await service.follow_updates(now)
    assert [(f.user_id, f.mode) for f, *_ in due] == [(CAROL, "turn")]  # the digest waits a day
    f, row, game, state = due[0]
    assert await service.follow_sent(gid, CAROL, row.version, f.sent_version, now)
    assert not await service.follow_sent(gid, CAROL, row.version, f.sent_version, now)  # claimed once
    assert await service.follow_updates(now) == []
    assert [x.user_id for x, *_ in await service.follow_updates(now + 86400)] == [99]
    with pytest.raises(TurnRefused) as exc:
        await service.close_to_followers(channel, BOB, True)
    assert exc.value.code == "host_only"
    await service.close_to_followers(channel, HOST, True)
    assert await store.sql("SELECT user_id FROM follows WHERE game_id=?", gid) == []
    with pytest.raises(TurnRefused) as exc:
        await service.follow(channel, CAROL)
    assert exc.value.code == "closed"
    await service.close_to_followers(channel, HOST, False)
    await service.follow(channel, CAROL)
    assert await service.unfollow(CAROL, channel_id=channel) == gid
    with pytest.raises(TurnRefused):
        await service.unfollow(CAROL, channel_id=channel)


async def test_mine_lists_the_tables_waiting_on_me_soonest_deadline_first(store):
    clock = [1_800_000_000.0]
    store.clock = lambda: clock[0]
    service = TableService(store, clock=lambda: clock[0])
    relaxed = {"reminder": 0, "turn_timer": 0, "clock": clocks.new_clock("relaxed")}
    fast = {"reminder": 0, "turn_timer": 0, "clock": clocks.new_clock("fast")}
    tables = [
        await start(store, service, humans=(HOST,), ai=1, table=relaxed),
        await start(store, service, humans=(HOST,), ai=1, table=fast),
        await start(store, service, game="city_of_fury", humans=(HOST,), table={"reminder": 0, "turn_timer": 0}),
    ]
    mine = await service.mine(HOST, 1)
    assert [r.id for r, _, _ in mine] == [tables[1], tables[0], tables[2]]
    assert mine[0][2] == pytest.approx(clock[0] + clocks.DAY) and mine[2][2] is None

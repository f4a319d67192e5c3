"""The schedule (tables/play/schedule.py) on every store backend: a reminder is due once
the table's interval has passed, is booked by one pass only and can be given back;
a member on vacation is neither reminded nor timed out.  Time banks, their expiry
policies and the vacation allowance: tests/test_clocks.py."""

from __future__ import annotations

import pytest
from tablekit import HOST

from store import Seat
from tables import TableService, TurnRefused


async def started(store, service, table):
    row = await store.create_game(
        guild_id=1, channel_id=5150, game="thunder_road", host_id=HOST, options={}, seed=5,
        seats=[Seat("p1", HOST), Seat("p2", 8)], table=table,
    )  # fmt: skip
    await service.lobby(row.id, HOST, "start")
    return await store.get_game(row.id)


async def test_a_reminder_is_due_after_the_interval_and_booked_once(store):
    service = TableService(store)
    row = await started(store, service, {"reminder": 60, "turn_timer": 0})
    start = row.turn_started_at or row.updated_at
    assert [d for d in await service.due(start + 59 * 60) if d.row.id == row.id] == []
    due = [d for d in await service.due(start + 61 * 60) if d.row.id == row.id]
    assert len(due) == 1 and due[0].kind == "remind"
    waiting = [(s, row.user_of(s)) for s in row.to_act]
    assert due[0].seats == waiting and due[0].users == [u for _, u in waiting]
    now = start + 61 * 60
    assert await service.claim_reminder(due[0].row, now)
    assert not await service.claim_reminder(due[0].row, now), "another pass reminded already"
    await service.release_reminder(due[0].row, now)  # the message could not be sent: still due
    assert [d.kind for d in await service.due(now) if d.row.id == row.id] == ["remind"]


async def test_a_turn_timer_times_out_the_waiting_seat_unless_its_member_is_away(store):
    service = TableService(store)
    row = await started(store, service, {"reminder": 0, "turn_timer": 30})
    start = row.turn_started_at or row.updated_at
    due = [d for d in await service.due(start + 31 * 60) if d.row.id == row.id]
    assert [d.kind for d in due] == ["timeout"] and due[0].seats == [(s, row.user_of(s)) for s in row.to_act]
    member = row.user_of(row.to_act[0])
    with pytest.raises(TurnRefused) as err:
        await service.come_back(member)
    assert err.value.code == "not_away"
    began, until = await service.go_away(member, 2)
    assert until - began == pytest.approx(2 * 86400)
    assert [d for d in await service.due(start + 31 * 60) if d.row.id == row.id] == []
    await service.come_back(member)
    assert [d.kind for d in await service.due(service.clock() + 31 * 60) if d.row.id == row.id] == ["timeout"]
    with pytest.raises(TurnRefused) as err:
        await service.go_away(member, 0)
    assert err.value.code == "bad_number"
    result, timed = await service.timeout(row.id, row.version)
    assert timed == [(s, row.user_of(s)) for s in row.to_act] and result.notes[0]["note"] == "timeout"

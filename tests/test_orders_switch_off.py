"""Standing orders switch themselves off in the commit that ends them, and their owner is told
then (issue 31, the platform's gaps): every commit of a turn looks at every armed order of every
seat, not only the seats asked (an order whose phase, round or game ended; one whose move an undo
took back); a member who no longer holds the seat (handed to another member or the AI, resigned,
voted away) loses their orders in that change's commit, with a private message saying why, and
the new owner inherits none; a forget, or anything else removing orders, leaves no due step for
the scheduler to find.  Both backends; the toy game Bids (tests/ordertoy/)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from conftest import Clock, make_store
from tablekit import BOB, CAROL, HOST
from test_orders_platform import bids, click, started, to_act  # noqa: F401 -- bids: the game's fixture

from engine.i18n import LOCALES, t
from store import OrdersChange
from tables import TableService, order_noticed, order_notices
from tables.core import standing

DAVE = 10


def told(label: str, reason: str, locale: str = "en") -> str:
    return t("core.order.switched_off", locale, label=t(label, locale), reason=t(reason, locale))


async def dm_owed(store, service, gid: int, version: int) -> set[int]:
    """The members a private message is owed to by the commit making ``version``."""
    keys = [m.key for m in await store.due_messages(service.clock() + 3600)]
    return {int(k.rsplit(":", 1)[1]) for k in keys if k.startswith(f"dm:{gid}:{version}:")}


# ------------------------------------------------------------------ scope ended
async def test_an_order_whose_phase_ended_switches_off_in_that_commit_not_when_its_seat_is_next_asked(store):
    service = TableService(store)
    gid = await started(store, service)
    await service.arm_order(gid, CAROL, "keep_passing")
    await click(service, gid, HOST, "pass")
    result = await click(service, gid, BOB, "pass")  # her order passes for her: the bidding phase ends
    assert [s.seat for s in result.steps] == ["p2", "p3"] and await to_act(service, gid) == ["p1"]
    version = result.row.version
    row = await store.get_game(gid)
    # the phase it was for ended in this commit: off now, and she is told now (she is not to act
    # again until HOST and BOB have kept their dice)
    assert await service.my_orders(gid, CAROL) == []
    for locale in LOCALES:
        assert order_notices(row, CAROL, version, locale) == [
            told("bids.order.keep_passing", "core.order.scope_ended", locale)
        ]
    assert await dm_owed(store, service, gid, version) == {CAROL}
    assert order_noticed(row, version) == [CAROL]


async def test_a_round_order_held_through_the_round_switches_off_in_the_commit_that_ends_the_round(store):
    service = TableService(store)
    gid = await started(store, service)
    await service.arm_order(gid, CAROL, "keep_passing")
    await service.arm_order(gid, CAROL, "bid_once")  # asked after "keep passing": it never gets to bid
    for user in (HOST, BOB):
        await click(service, gid, user, "pass")
    assert [o.kind for o in await service.my_orders(gid, CAROL)] == ["bid_once"]  # holds in the dice phase
    await click(service, gid, HOST, "keep")
    await click(service, gid, BOB, "keep")
    result = await click(service, gid, CAROL, "keep")  # her own click ends round 1
    assert await to_act(service, gid) == ["p1"]
    assert await service.my_orders(gid, CAROL) == []
    row = await store.get_game(gid)
    assert order_notices(row, CAROL, result.row.version, "en") == [
        told("bids.order.bid_once", "core.order.scope_ended")
    ]


async def test_an_undo_that_takes_the_game_back_before_an_order_was_armed_switches_it_off_saying_so(store):
    service = TableService(store)
    gid = await started(store, service)
    for user in (HOST, BOB, CAROL):
        await click(service, gid, user, "pass")
    for user in (HOST, BOB, CAROL):
        await click(service, gid, user, "keep")  # CAROL's keep ends round 1
    await service.arm_order(gid, CAROL, "bid_once")  # for round 2
    undone = await service.undo(gid, CAROL)  # round 1 again: her order's round has not come
    assert undone.done is not None and await to_act(service, gid) == ["p3"]
    assert await service.my_orders(gid, CAROL) == []
    row = await store.get_game(gid)
    assert order_notices(row, CAROL, undone.done.row.version, "en") == [
        told("bids.order.bid_once", "standing.taken_back")
    ]
    assert "ended" not in order_notices(row, CAROL, undone.done.row.version, "en")[0]


async def test_an_order_still_in_its_scope_is_not_switched_off_by_another_seats_commit(store):
    service = TableService(store)
    gid = await started(store, service)
    await service.arm_order(gid, CAROL, "keep_passing")
    await service.arm_order(gid, BOB, "decline_reroll")
    result = await click(service, gid, HOST, "pass")
    assert [o.kind for o in await service.my_orders(gid, CAROL)] == ["keep_passing"]
    assert [o.kind for o in await service.my_orders(gid, BOB)] == ["decline_reroll"]
    assert order_noticed(await store.get_game(gid), result.row.version) == []


# ------------------------------------------------------------------ the seat changes hands
async def _carol_to_act(service, gid):
    await click(service, gid, HOST, "pass")
    await click(service, gid, BOB, "pass")


async def _by_host_to_dave(service, gid, clock):
    return await service.handover(gid, HOST, "p3", DAVE)


async def _by_host_to_ai(service, gid, clock):
    return await service.handover(gid, HOST, "p3", None)


async def _resigned(service, gid, clock):
    return await service.resign(gid, CAROL)


async def _voted_away(service, gid, clock):
    clock.advance(24 * 60)  # her seat waited longer than the table's idle time
    res = await service.handover(gid, BOB, "p3", DAVE)
    assert res.vote is not None
    result = None
    for voter in res.vote.voters:
        ballot = await service.ballot(res.vote.vote.id, voter, True)
        result = ballot.result or result
    return result


@pytest.mark.parametrize(
    "change, reason, new_owner",
    [
        (_by_host_to_dave, "standing.unseated.member", DAVE),
        (_by_host_to_ai, "standing.unseated.ai", None),
        (_resigned, "standing.unseated.resigned", None),
        (_voted_away, "standing.unseated.vote", DAVE),
    ],
)
async def test_a_member_who_loses_the_seat_loses_its_orders_in_that_commit_and_is_told_why(
    store, change, reason, new_owner
):
    clock = Clock()
    service = TableService(store, clock=clock)
    service.kernel.order_delay = lambda: 300.0
    gid = await started(store, service)
    await service.arm_order(gid, CAROL, "decline_reroll")  # holds in the bidding phase
    await service.arm_order(gid, BOB, "decline_reroll")
    await _carol_to_act(service, gid)
    result = await change(service, gid, clock)
    if hasattr(result, "done"):
        result = result.done
    assert result is not None
    version = result.row.version
    row = await store.get_game(gid)
    assert row.user_of("p3") == new_owner and row.version == version
    left = standing.parse(row.orders_json).armed
    assert [(o.user, o.seat) for o in left] == [(BOB, "p2")]  # hers are gone, in the change's commit
    for locale in LOCALES:
        assert order_notices(row, CAROL, version, locale) == [told("bids.order.decline_reroll", reason, locale)]
        assert t(reason, locale) != reason
    assert CAROL in await dm_owed(store, service, gid, version) and order_noticed(row, version) == [CAROL]
    if new_owner is not None:  # the new owner inherits nothing, and may arm their own
        assert await service.my_orders(gid, new_owner) == []
        assert not any(c.armed for c in await service.order_choices(gid, new_owner, "en"))


# ------------------------------------------------------------------ nothing left due
@pytest.fixture
async def timed(store_backend, tmp_path):
    """(clock, store, service): the store's due times on the service's clock."""
    clock = Clock()
    s = await make_store(store_backend, tmp_path, clock=clock)
    yield clock, s, TableService(s, clock=clock)
    await s.close()


async def _orphan_due(store, service, clock) -> int:
    """A running table whose stored orders hold a delayed step of a member who left it, as the
    platform wrote them before a seat change removed them (a hand-over kept them stored)."""
    service.kernel.order_delay = lambda: 300.0
    gid = await started(store, service)
    await service.arm_order(gid, CAROL, "decline_reroll")
    for user in (HOST, BOB, CAROL):
        await click(service, gid, user, "pass")
    await click(service, gid, HOST, "keep")
    await click(service, gid, BOB, "keep")  # her hidden "keep" is due in 300 s
    row = await store.get_game(gid)
    assert standing.due(standing.parse(row.orders_json)) == clock() + 300
    seats = [replace(s, user_id=DAVE) if s.seat == "p3" else s for s in row.seats]
    await store.update_game(gid, row.version, seats=seats)  # the seat changed hands, the orders stayed
    return gid


async def test_a_forget_leaves_no_due_step_for_the_scheduler_to_read(timed):
    clock, store, service = timed
    gid = await _orphan_due(store, service, clock)
    later = clock() + 3600
    assert gid in [r.id for r in await store.due_tables(later)]
    await service.privacy.forget(CAROL)
    row = await store.get_game(gid)
    assert str(CAROL) not in (row.orders_json or "")
    # the scheduler no longer reads the table's row every pass to find nothing there
    assert gid not in [r.id for r in await store.due_tables(later)]
    assert [d for d in await service.due(later) if d.row.id == gid] == []


async def test_a_forget_keeps_the_due_step_of_another_members_order(timed):
    clock, store, service = timed
    gid = await _orphan_due(store, service, clock)
    row = await store.get_game(gid)
    book = standing.parse(row.orders_json)
    bob = standing.Standing(**{**book.armed[0].model_dump(), "user": BOB, "seat": "p2", "due_at": clock() + 900})
    book.armed.append(bob)
    assert await store.set_orders(gid, row.version, OrdersChange(row.orders_json, standing.dump(book), clock() + 300))
    await service.privacy.forget(CAROL)
    row = await store.get_game(gid)
    assert [o.user for o in standing.parse(row.orders_json).armed] == [BOB]
    assert gid not in [r.id for r in await store.due_tables(clock() + 899)]
    assert gid in [r.id for r in await store.due_tables(clock() + 900)]

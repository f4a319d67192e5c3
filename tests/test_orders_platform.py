"""Standing orders on the platform (issue 31 items 1-6): stored with the table's row and
applied by the one autopilot in the table's compare-and-swap commit, on both backends.
The toy game Bids (tests/ordertoy/) offers an order for every path of the contract."""

from __future__ import annotations

import asyncio

import ordertoy
import pytest
from conftest import Clock, make_store
from tablekit import BOB, CAROL, HOST, new_table

from engine import canonical, get_game, register, unregister
from engine.i18n import t
from store import StillSeated
from tables import TableService, TurnRefused, order_notices
from tables.core import standing
from tables.rules.decisions import decisions, order_label, taken_by

SEATS = (("p1", HOST), ("p2", BOB), ("p3", CAROL))


@pytest.fixture(autouse=True)
def bids():
    game = register(ordertoy.GAME)
    yield game
    unregister("bids")


async def started(store, service, options=None) -> int:
    row = await new_table(store, game="bids", seats=SEATS, options=options)
    await service.lobby(row.id, HOST, "start")
    return row.id


def pick(kind):
    return lambda g, st, s, legal: next(a for a in legal if a.kind == kind)


async def click(service, gid, user, kind):
    return await service.act(gid, user, pick(kind))


async def to_act(service, gid):
    loaded = await service.load(gid)
    return loaded.game.to_act(loaded.state)


async def test_an_order_armed_while_another_seat_acts_fires_in_the_commit_of_the_click_before_it(store):
    service = TableService(store)
    gid = await started(store, service)
    before = await store.get_game(gid)
    armed = await service.arm_order(gid, CAROL, "keep_passing")
    assert armed.turn is None and [o.kind for o in armed.orders] == ["keep_passing"]
    after = await store.get_game(gid)
    # arming moves nothing anyone sees: not the state, not the version (others' buttons stay live)
    assert (after.version, after.state_json, after.to_act) == (before.version, before.state_json, before.to_act)
    assert await service.my_orders(gid, BOB) == [] and [o.kind for o in await service.my_orders(gid, CAROL)] == [
        "keep_passing"
    ]
    offered = {c.kind: c for c in await service.order_choices(gid, CAROL, "zh")}
    assert offered["keep_passing"].armed and offered["keep_passing"].label == t("bids.order.keep_passing", "zh")
    assert not offered["decline_reroll"].armed
    await click(service, gid, HOST, "pass")
    result = await click(service, gid, BOB, "pass")
    log = await store.actions(gid, limit=100)
    last = log[-1]
    assert (last.seat, last.user_id, last.action["kind"], last.version) == ("p3", CAROL, "pass", result.row.version)
    assert taken_by(last) == "order" and order_label(last.by).key == "bids.order.keep_passing"
    assert [s.seat for s in result.steps] == ["p2", "p3"]  # BOB's click and CAROL's order, one commit
    assert await to_act(service, gid) == ["p1"]  # the dice phase: HOST decides


async def test_a_one_use_order_is_removed_once_used_and_a_lapse_tells_its_owner_privately(store):
    service = TableService(store)
    gid = await started(store, service)
    await service.arm_order(gid, BOB, "bid_once")
    await service.arm_order(gid, CAROL, "keep_passing")
    result = await click(service, gid, HOST, "pass")
    # BOB's one bid is taken (and his order used up); CAROL's "keep passing" then lapses: someone bid
    log = await store.actions(gid, limit=100)
    assert [(a.seat, a.action["kind"], taken_by(a)) for a in log] == [("p1", "pass", "player"), ("p2", "bid", "order")]
    assert await service.my_orders(gid, BOB) == [] and await service.my_orders(gid, CAROL) == []
    assert await to_act(service, gid) == ["p3"]  # CAROL decides herself now
    version = result.row.version
    row = await store.get_game(gid)
    assert order_notices(row, CAROL, version, "en") == [
        "Your standing order “keep passing” switched off. Someone bid after you armed it."
    ]
    assert order_notices(row, CAROL, version, "zh")[0].startswith("你的常备指令“一直不出价”已关闭。")
    assert order_notices(row, BOB, version, "en") == [] and order_notices(row, HOST, version, "en") == []
    # her private message is owed in the same commit (the outbox), nobody else's
    owed = [m.key for m in await store.due_messages(service.clock() + 3600)]
    assert f"dm:{gid}:{version}:{CAROL}" in owed and f"dm:{gid}:{version}:{HOST}" not in owed


@pytest.mark.parametrize(
    "user, kind, params, code",
    [
        (CAROL, "nope", None, "bad_order"),  # not a kind the game offers
        (CAROL, "keep_passing", {"high": 3}, "bad_order"),  # forged parameters
        (CAROL, "keep_passing", "high", "bad_order"),  # parameters that are no object
        (CAROL, {"kind": "x"}, None, "bad_order"),
        (99, "keep_passing", None, "not_seated"),
    ],
)
async def test_bad_arming_is_refused_with_a_clear_message_and_changes_nothing(store, user, kind, params, code):
    service = TableService(store)
    gid = await started(store, service)
    before = await store.get_game(gid)
    with pytest.raises(TurnRefused) as exc:
        await service.arm_order(gid, user, kind, params)
    assert exc.value.code == code
    assert exc.value.text("en") != exc.value.key and exc.value.text("zh") != exc.value.text("en")
    after = await store.get_game(gid)
    assert (after.version, after.orders_json, after.state_json) == (before.version, None, before.state_json)
    with pytest.raises(TurnRefused) as exc:
        await service.disarm_order(gid, CAROL, "keep_passing")
    assert exc.value.code == "order_not_armed" and exc.value.text("en") != exc.value.key


async def test_no_order_is_armed_at_a_finished_table(store):
    service = TableService(store)
    gid = await started(store, service, {"rounds": 1})
    for user in (HOST, BOB, CAROL):
        await click(service, gid, user, "pass")
    for user in (HOST, BOB, CAROL):
        await click(service, gid, user, "keep")
    assert (await store.get_game(gid)).status == "finished"
    with pytest.raises(TurnRefused) as exc:
        await service.arm_order(gid, CAROL, "decline_reroll")
    assert exc.value.code == "game_over"
    assert await service.my_orders(gid, CAROL) == []


async def test_disarming_switches_an_order_off_without_moving_the_table(store):
    service = TableService(store)
    gid = await started(store, service)
    await service.arm_order(gid, CAROL, "keep_passing")
    version = (await store.get_game(gid)).version
    assert await service.disarm_order(gid, CAROL, "keep_passing") == []
    assert (await store.get_game(gid)).version == version
    await click(service, gid, HOST, "pass")
    await click(service, gid, BOB, "pass")
    assert await to_act(service, gid) == ["p3"]  # nothing took CAROL's decision


async def test_arming_when_it_is_your_turn_takes_the_step_at_once(store):
    service = TableService(store)
    gid = await started(store, service)
    armed = await service.arm_order(gid, HOST, "keep_passing")
    assert armed.turn is not None and [s.seat for s in armed.turn.steps] == ["p1"]
    assert armed.turn.steps[0].by == "player"  # the public board reads it as HOST's own decision
    assert await to_act(service, gid) == ["p2"]


# ------------------------------------------------------------------ hidden timing
async def _at_carols_dice(service, gid):
    for user in (HOST, BOB, CAROL):
        await click(service, gid, user, "pass")
    await click(service, gid, HOST, "keep")
    return await click(service, gid, BOB, "keep")


async def test_a_hidden_timing_order_takes_its_step_after_a_random_delay_through_the_scheduler(store):
    clock = Clock()
    service = TableService(store, clock=clock)
    service.kernel.order_delay = lambda: 300.0
    gid = await started(store, service)
    await service.arm_order(gid, CAROL, "decline_reroll")
    result = await _at_carols_dice(service, gid)
    # her order would keep at once, which would tell the others it exists: the step waits
    assert [s.seat for s in result.steps] == ["p2"] and await to_act(service, gid) == ["p3"]
    assert [d.kind for d in await service.due(clock() + 299) if d.row.id == gid and d.kind == "order"] == []
    assert [d.kind for d in await service.due(clock() + 300) if d.row.id == gid and d.kind == "order"] == ["order"]
    assert await service.orders_due(gid) is None  # not due yet: nothing happens
    clock.advance(5)
    done = await service.orders_due(gid)
    assert done is not None and [s.seat for s in done.steps] == ["p3"]
    last = (await store.actions(gid, limit=100))[-1]
    assert (last.seat, last.action["kind"], taken_by(last), taken_by(last, "p1")) == ("p3", "keep", "order", "player")
    assert [d for d in await service.due(clock() + 10_000) if d.row.id == gid and d.kind == "order"] == []
    assert await service.orders_due(gid) is None  # a second pass (another process) finds nothing to do


async def test_a_member_who_acts_before_the_delay_simply_acts(store):
    clock = Clock()
    service = TableService(store, clock=clock)
    service.kernel.order_delay = lambda: 300.0
    gid = await started(store, service)
    await service.arm_order(gid, CAROL, "decline_reroll")
    await _at_carols_dice(service, gid)
    await click(service, gid, CAROL, "reroll")
    last = (await store.actions(gid, limit=100))[-1]
    assert (last.seat, last.action["kind"], taken_by(last)) == ("p3", "reroll", "player")
    clock.advance(10)
    assert [d for d in await service.due(clock()) if d.row.id == gid and d.kind == "order"] == []
    assert await service.orders_due(gid) is None
    assert [o.kind for o in await service.my_orders(gid, CAROL)] == ["decline_reroll"]  # still armed


async def test_a_timer_running_out_fires_the_seats_hidden_order_at_once_in_its_commit(store):
    clock = Clock()
    service = TableService(store, clock=clock)
    service.kernel.order_delay = lambda: 300.0
    gid = await started(store, service)
    await service.arm_order(gid, CAROL, "decline_reroll")
    await _at_carols_dice(service, gid)
    row = await store.get_game(gid)
    result, seats = await service.timeout(gid, row.version, ["p3"])
    assert seats == [("p3", CAROL)]
    last = (await store.actions(gid, limit=100))[-1]
    assert (last.seat, last.action["kind"], taken_by(last), last.version) == ("p3", "keep", "order", result.row.version)


# ------------------------------------------------------------------ consistency
async def test_two_processes_racing_never_apply_one_order_twice(store_backend, tmp_path):
    a = await make_store(store_backend, tmp_path)
    b = await make_store(store_backend, tmp_path)  # a second bot process
    try:
        one, two = TableService(a), TableService(b)
        gid = await started(a, one)
        await one.arm_order(gid, CAROL, "bid_once")
        await click(one, gid, HOST, "pass")
        version = (await a.get_game(gid)).version
        results = await asyncio.gather(
            *[s.act(gid, BOB, pick("pass"), expected_version=version) for s in (one, two)], return_exceptions=True
        )
        assert sorted(type(r).__name__ for r in results) == ["TurnRefused", "TurnResult"], results
        log = await b.actions(gid, limit=100)
        assert [(x.seat, x.action["kind"]) for x in log].count(("p3", "bid")) == 1
        assert await two.my_orders(gid, CAROL) == []
        # arming in one process while the other commits a step that fires an order: one wins, none is lost
        await two.arm_order(gid, HOST, "decline_reroll")
        stale = await a.get_game(gid)
        loaded = await one.load(gid)
        await two.disarm_order(gid, HOST, "decline_reroll")
        assert not await a.set_orders(gid, stale.version, standing.OrdersChange(stale.orders_json, None))
        assert loaded.row.orders_json == stale.orders_json
    finally:
        await a.close()
        await b.close()


async def test_undo_of_a_step_the_members_order_took_disarms_it_and_does_not_refire(store):
    service = TableService(store)
    gid = await started(store, service)
    await service.arm_order(gid, BOB, "keep_passing")
    await click(service, gid, HOST, "pass")
    assert await to_act(service, gid) == ["p3"]  # BOB's order passed for him
    undone = await service.undo(gid, BOB)
    assert undone.done is not None  # his own decision, nothing revealed since: taken back at once
    assert await to_act(service, gid) == ["p2"] and await service.my_orders(gid, BOB) == []
    await click(service, gid, BOB, "bid")  # he decides himself; the order is not there to refire
    log = await store.actions(gid, limit=100)
    assert [(a.seat, a.action["kind"], taken_by(a)) for a in log] == [("p1", "pass", "player"), ("p2", "bid", "player")]


async def test_export_carries_who_took_each_step_and_replays_to_the_same_state(store):
    service = TableService(store)
    gid = await started(store, service, {"rounds": 2})
    await service.arm_order(gid, BOB, "keep_passing")
    await service.arm_order(gid, CAROL, "always_reroll")
    for _ in range(60):
        if (await store.get_game(gid)).status != "active":
            break
        loaded = await service.load(gid)
        seat = loaded.game.to_act(loaded.state)[0]
        await service.act(gid, loaded.row.user_of(seat), pick("keep" if loaded.state.phase else "pass"), seat=seat)
    row = await store.get_game(gid)
    assert row.status == "finished"
    data = await service.export_data(row)
    by = [(e["seat"], e["by"]) for e in data["log"]]
    assert ("p2", "order") in by and ("p3", "order") in by and ("p1", "player") in by
    assert {e["by"] for e in data["log"]} <= {"player", "ai", "auto", "timer", "order", "league"}
    game = get_game("bids")
    replayed = game.replay(
        data["seats"], data["options"], data["seed"], [(e["seat"], e["action"]) for e in data["log"]]
    )
    assert canonical(game.dump(replayed)) == canonical(game.dump(game.load(row.state_json)))
    assert standing.parse(row.orders_json).armed == []  # the game ended: every order with it


async def test_another_member_never_reads_an_order_in_the_log(store):
    service = TableService(store)
    gid = await started(store, service)
    await service.arm_order(gid, CAROL, "keep_passing")
    await click(service, gid, HOST, "pass")
    await click(service, gid, BOB, "pass")
    log = await store.actions(gid, limit=100)
    assert [d.by for d in decisions(log, "p1")] == ["player", "player", "player"]
    assert [d.by for d in decisions(log, None)] == ["player", "player", "player"]
    assert [d.by for d in decisions(log, "p3")] == ["player", "player", "order"]
    for seat in ("p1", "p2", None):
        view = (await service.load(gid)).game.view((await service.load(gid)).state, seat)
        assert "keep_passing" not in view.model_dump_json()


async def test_privacy_forget_removes_the_members_armed_orders(store):
    service = TableService(store)
    gid = await started(store, service)
    await service.arm_order(gid, CAROL, "decline_reroll")
    await service.arm_order(gid, BOB, "decline_reroll")
    with pytest.raises(StillSeated):
        await service.privacy.forget(CAROL)
    await service.handover(gid, CAROL, "p3", None, admin=True)  # she leaves; her order stays stored
    assert str(CAROL) in (await store.get_game(gid)).orders_json
    await service.privacy.forget(CAROL)
    row = await store.get_game(gid)
    assert str(CAROL) not in (row.orders_json or "")
    assert [o.user for o in standing.parse(row.orders_json).armed] == [BOB]


# ------------------------------------------------------------------ a real game
async def test_automobile_with_the_typical_orders_plays_to_the_end_through_the_table_service(store):
    """Automobile's own orders (engine/automobile/orders.py), armed by every member as a typical
    player does (the pass again each round), through the table service: they take steps on
    clicks and, the pass's timing hidden, through the scheduler's due step; the game ends,
    every armed order with it, and the export replays to the stored state."""
    clock = Clock()
    service = TableService(store, clock=clock)
    service.kernel.order_delay = lambda: 120.0
    row = await new_table(store, game="automobile", seats=SEATS)
    await service.lobby(row.id, HOST, "start")
    gid = row.id
    due_steps = 0
    for _ in range(2000):
        row = await store.get_game(gid)
        if row.status != "active":
            break
        when = standing.due(standing.parse(row.orders_json))
        if when is not None and await to_act(service, gid) == [s for s in row.to_act]:
            clock.now = max(clock.now, when)
            if [d for d in await service.due(clock()) if d.row.id == gid and d.kind == "order"]:
                due_steps += (await service.orders_due(gid)) is not None
                continue
        for _, user in SEATS:
            armed = {o.kind for o in await service.my_orders(gid, user)}
            for kind in {"sell_distributors", "exec_pass"} - armed:
                offered = {c.kind for c in await service.order_choices(gid, user, "en")}
                if kind in offered:
                    await service.arm_order(gid, user, kind)
        row = await store.get_game(gid)
        if row.status != "active":
            break
        loaded = await service.load(gid)
        waiting = loaded.game.to_act(loaded.state)
        if not waiting or standing.due(standing.parse(loaded.row.orders_json)) is not None:
            continue
        seat = waiting[0]
        await service.act(gid, loaded.row.user_of(seat), lambda g, st, s, legal: g.ai_action(st, s), seat=seat)
    row = await store.get_game(gid)
    assert row.status == "finished"
    log = await store.actions(gid, limit=100_000)
    kinds = {order_label(a.by).key for a in log if taken_by(a) == "order"}
    assert kinds == {"automobile.order.sell_distributors", "automobile.order.exec_pass"}
    assert due_steps > 0  # the hidden pass went through the scheduler
    assert standing.parse(row.orders_json).armed == []
    data = await service.export_data(row)
    game = get_game("automobile")
    replayed = game.replay(
        data["seats"], data["options"], data["seed"], [(e["seat"], e["action"]) for e in data["log"]]
    )
    assert canonical(game.dump(replayed)) == canonical(game.dump(game.load(row.state_json)))


async def test_a_league_deadline_plays_a_members_order_out_at_once_in_its_commit(store):
    """Armor Clash in a league (its orders hide their timing): at the deadline the play-out takes
    the member's standing order first, at once (the deadline's moment tells nothing)."""
    from test_league_deadline import _season, moved_by_both

    from tables.leagues.rounds import LeagueService

    clock = Clock()
    tables = TableService(store, clock=clock)
    leagues = LeagueService(tables)
    lid, (tb,) = await _season(leagues, [21, 22], name="Orders")
    gid = tb["game_id"]
    await moved_by_both(tables, gid, tb["seats"])
    offered = {c.kind: c for c in await tables.order_choices(gid, 22, "en")}
    assert offered, "Armor Clash offers orders"
    for kind, choice in offered.items():
        await tables.arm_order(gid, 22, kind, choice.params)
    seat = (await tables.load(gid)).row.seat_of(22)
    clock.advance(3601)
    assert "deadline" in [e.kind for e in await leagues.advance(lid)]
    ended = await store.get_game(gid)
    assert ended.status == "finished"
    steps = [a for a in await store.actions(gid, limit=100_000) if a.version == ended.version]
    by_order = [a for a in steps if taken_by(a) == "order"]
    assert by_order and {a.seat for a in by_order} == {seat} and all(a.user_id == 22 for a in by_order)
    assert {taken_by(a) for a in steps} <= {"order", "league", "auto"}
    assert standing.parse(ended.orders_json).armed == []


def test_only_the_owners_verbs_and_the_autopilot_read_armed_orders():
    """No board, page, view, log or export is built from the stored orders: the modules that read
    them are the kernel's (autopilot, commit, scheduler, undo, forget) and the owner's verbs; the
    edges get only the owner's own notices (``order_notices``)."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    readers = set()
    for folder in ("cogs", "web", "tables"):
        for path in (root / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            if "orders_json" in text or re.search(r"import standing\b|core\.standing import", text):
                readers.add(path.relative_to(root).as_posix())
    assert readers == {
        "tables/__init__.py",  # order_notices only
        "tables/core/autopilot.py",
        "tables/core/kernel.py",
        "tables/core/standing.py",
        "tables/people/privacy.py",
        "tables/play/orders.py",
        "tables/play/schedule.py",
        "tables/play/seats.py",
    }
    assert "from tables.core.standing import notice_lines as order_notices" in (root / "tables/__init__.py").read_text()


async def test_two_processes_taking_one_delayed_step_take_it_once(store_backend, tmp_path):
    clock = Clock()
    a = await make_store(store_backend, tmp_path, clock=clock)
    b = await make_store(store_backend, tmp_path, clock=clock)  # a second bot process
    try:
        one, two = TableService(a, clock=clock), TableService(b, clock=clock)
        for s in (one, two):
            s.kernel.order_delay = lambda: 300.0
        gid = await started(a, one)
        await one.arm_order(gid, CAROL, "decline_reroll")
        await _at_carols_dice(one, gid)
        clock.advance(6)
        plain = two.kernel.off_loop
        raced = []

        async def racing(fn, *args):
            """While this process decides the due step, the other one takes it first."""
            if not raced:
                raced.append(await one.orders_due(gid))
            return await plain(fn, *args)

        two.kernel.off_loop = racing  # type: ignore[method-assign]
        assert await two.orders_due(gid) is None  # lost the compare-and-swap: nothing twice, no error
        assert raced[0] is not None and [s.seat for s in raced[0].steps] == ["p3"]
        log = await b.actions(gid, limit=100)
        assert [(x.seat, x.action["kind"], taken_by(x)) for x in log].count(("p3", "keep", "order")) == 1
    finally:
        await a.close()
        await b.close()


async def test_the_catch_up_shows_what_the_members_order_did_since_their_own_decision(store):
    service = TableService(store)
    gid = await started(store, service)
    await click(service, gid, HOST, "pass")
    await click(service, gid, BOB, "pass")
    await click(service, gid, CAROL, "pass")  # her own last decision
    await service.arm_order(gid, CAROL, "decline_reroll")
    service.kernel.order_delay = lambda: 0.0
    await click(service, gid, HOST, "keep")
    await click(service, gid, BOB, "keep")
    assert (await service.orders_due(gid)) is not None  # her order keeps for her
    await click(service, gid, HOST, "bid")
    loaded = await service.load(gid)
    mine = await service.catchup(loaded.row, loaded.game, loaded.state, CAROL)
    said = [(s.seat, s.by.split(":", 1)[0]) for s in mine.steps]
    assert said == [("p1", "player"), ("p2", "player"), ("p3", "order"), ("p1", "player")]
    assert order_label(mine.steps[2].by).key == "bids.order.decline_reroll"
    theirs = await service.catchup(loaded.row, loaded.game, loaded.state, BOB)
    assert [(s.seat, s.by) for s in theirs.steps] == [("p3", "player"), ("p1", "player")]  # her decision, to him

"""Time banks, vacations and the expiry policy, with a clock under the test's control
(no sleeping), on every store backend: increments, the cap, no running while a seat
need not act, simultaneous turns (Armor Clash orders), a restart in between, and
what happens when a bank runs out."""

from __future__ import annotations

import random

import pytest

from store import Seat, SqliteStore
from store.postgres import PostgresStore
from tables import TableService, TurnRefused, due_times
from tables.rules import clocks

HOST, BOB, CAROL = 7, 8, 9
DAY, HOUR = clocks.DAY, clocks.HOUR
AI = lambda g, st, s, legal: g.ai_action(st, s)  # noqa: E731


class Clock:
    def __init__(self, now: float = 1_800_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


@pytest.fixture
def clock(store):
    c = Clock()
    store.clock = c
    return c


def service_of(store, clock) -> TableService:
    return TableService(store, clock=clock)


async def banked_table(store, service, game="thunder_road", humans=(HOST, BOB), profile="relaxed", policy="ai"):
    row = await store.create_game(
        guild_id=1,
        channel_id=random.randrange(1, 1 << 40),
        game=game,
        host_id=HOST,
        options={},
        seed=11,
        seats=[Seat(f"p{i + 1}", u) for i, u in enumerate(humans)],
        table={"reminder": 0, "turn_timer": 0, "clock": clocks.new_clock(profile, policy)},
    )
    await service.lobby(row.id, HOST, "start")
    return row.id


async def banks(service, gid):
    row = (await service.load(gid)).row
    return row, dict(row.table["clock"]["banks"])


async def finish_turn(service, gid):
    """The seat to act plays (AI choices) until its turn is handed on; returns that seat."""
    loaded = await service.load(gid)
    seat = loaded.game.to_act(loaded.state)[0]
    while True:
        await service.act(gid, loaded.row.user_of(seat), AI, seat=seat)
        loaded = await service.load(gid)
        if seat not in loaded.game.to_act(loaded.state):
            return seat


async def test_a_bank_runs_only_while_its_seat_is_to_act_and_gains_the_increment_up_to_the_cap(store, clock):
    service = service_of(store, clock)
    gid = await banked_table(store, service)
    row, b = await banks(service, gid)
    assert b == {"p1": 3 * DAY, "p2": 3 * DAY}
    first = row.to_act[0]
    other = "p1" if first == "p2" else "p2"
    clock.advance(10 * HOUR)
    assert await finish_turn(service, gid) == first
    _, b = await banks(service, gid)
    # waited 10 h, then +1 day for handing the turn on; the other seat did not run at all
    assert b[first] == pytest.approx(3 * DAY - 10 * HOUR + DAY)
    assert b[other] == 3 * DAY
    # quick turns: the bank grows by a day per turn, never beyond the 5-day cap
    for _ in range(6):
        clock.advance(60)
        await finish_turn(service, gid)
    _, b = await banks(service, gid)
    assert b[first] == pytest.approx(5 * DAY) and b[other] == pytest.approx(5 * DAY)


async def test_the_due_time_is_when_the_bank_runs_out_and_the_ai_then_moves_for_the_seat(store, clock):
    service = service_of(store, clock)
    gid = await banked_table(store, service, profile="fast", policy="ai")
    row, b = await banks(service, gid)
    seat = row.to_act[0]
    start = clock()
    expire = dict((s, e) for s, e in await store.sql("SELECT seat, expire_at FROM turn_clocks WHERE game_id=?", gid))
    assert expire == {seat: pytest.approx(start + DAY)}
    (line,) = [x for x in await service.bank_lines(row) if x[2] and x[3]]
    assert line[0] == seat and line[2] == pytest.approx(start + DAY)
    assert clocks.discord_time(line[2]) == f"<t:{int(start + DAY)}:R>"
    clock.advance(DAY - 1)
    assert await service.due(clock()) == []
    clock.advance(2)
    (due,) = await service.due(clock())
    assert due.kind == "timeout" and due.policy == "ai" and due.seats == [(seat, row.user_of(seat))]
    result, seats = await service.timeout(gid, due.row.version, [s for s, _ in due.seats], due.policy)
    assert seats == [(seat, row.user_of(seat))]
    log = await store.actions(gid, limit=10_000)
    assert log[-1].seat != seat or log[-1].user_id is None  # the AI took the decision for the seat
    assert any(a.seat == seat and a.user_id is None for a in log)
    _, b = await banks(service, gid)
    if seat not in result.row.to_act:  # handed on: an empty bank gets the increment
        assert b[seat] == pytest.approx(12 * HOUR)


async def test_simultaneous_orders_run_every_waiting_seat_at_once(store, clock):
    service = service_of(store, clock)
    gid = await banked_table(store, service, game="armor_clash", profile="fast")
    loaded = await service.load(gid)
    assert sorted(loaded.row.to_act) == ["p1", "p2"]
    clock.advance(3 * HOUR)
    await service.act(gid, HOST, AI, seat="p1")
    _, b = await banks(service, gid)
    # p2 did not act, but it was to act all along: its bank ran for the 3 hours too
    assert b["p2"] == pytest.approx(DAY - 3 * HOUR)
    assert b["p1"] <= DAY - 3 * HOUR + 12 * HOUR + 1
    rows = dict(await store.sql("SELECT seat, expire_at FROM turn_clocks WHERE game_id=?", gid))
    assert rows["p2"] == pytest.approx(clock() + DAY - 3 * HOUR)


async def test_a_restart_in_between_keeps_every_bank(store, clock, store_backend, tmp_path):
    service = service_of(store, clock)
    gid = await banked_table(store, service, profile="fast")
    row, _ = await banks(service, gid)
    seat = row.to_act[0]
    clock.advance(5 * HOUR)
    await store.close()  # the bot stops; nothing was running
    again = (
        SqliteStore(store.path, clock=clock, due=due_times)
        if isinstance(store, SqliteStore)
        else PostgresStore(store.dsn, clock=clock, due=due_times)
    )
    await again.open()
    try:
        fresh = service_of(again, clock)
        clock.advance(DAY - 5 * HOUR - 10)
        assert await fresh.due(clock()) == []
        clock.advance(20)
        (due,) = await fresh.due(clock())
        assert due.seats[0][0] == seat
    finally:
        await again.close()
        await store.open()


async def test_a_vacation_pauses_the_bank_and_the_pings_and_back_early_restarts_them(store, clock):
    service = service_of(store, clock)
    gid = await banked_table(store, service, profile="fast")
    row, _ = await banks(service, gid)
    seat = row.to_act[0]
    uid = row.user_of(seat)
    start = clock()
    clock.advance(2 * HOUR)
    began, end = await service.go_away(uid, 3)
    assert began == clock() and end == pytest.approx(clock() + 3 * DAY)
    expire = (await store.sql("SELECT expire_at FROM turn_clocks WHERE game_id=?", gid))[0][0]
    assert expire == pytest.approx(start + DAY + 3 * DAY)  # paused for the 3 days away
    clock.advance(DAY)
    assert await service.due(clock()) == []  # would have run out; away
    with pytest.raises(TurnRefused) as exc:  # never timed out while away
        await service.timeout(gid, row.version, [seat], "ai")
    assert exc.value.code == "not_your_turn"
    clock.advance(HOUR)
    await service.come_back(uid)  # back after 1 day 1 hour
    expire = (await store.sql("SELECT expire_at FROM turn_clocks WHERE game_id=?", gid))[0][0]
    assert expire == pytest.approx(start + DAY + DAY + HOUR)
    with pytest.raises(TurnRefused) as exc:
        await service.come_back(uid)
    assert exc.value.code == "not_away"


async def test_the_vacation_allowance_is_per_year(store, clock):
    service = service_of(store, clock)
    await service.go_away(HOST, 15)
    await service.come_back(HOST)  # 0 days used: back at once
    await service.go_away(HOST, 15)
    clock.advance(16 * DAY)
    with pytest.raises(TurnRefused) as exc:
        await service.go_away(HOST, 7)
    assert exc.value.code == "away_allowance" and exc.value.params["days"] == 6
    await service.go_away(HOST, 6)
    with pytest.raises(TurnRefused):
        await service.go_away(HOST, 0)


async def test_an_away_owner_is_never_voted_off(store, clock):
    service = service_of(store, clock)
    gid = await banked_table(store, service, humans=(HOST, BOB, CAROL))
    row = (await service.load(gid)).row
    while row.user_of(row.to_act[0]) == HOST:  # a vote is about somebody else's seat
        await finish_turn(service, gid)
        row = (await service.load(gid)).row
    seat = row.to_act[0]
    owner = row.user_of(seat)
    voter = next(u for u in (BOB, CAROL) if u != owner)
    await service.go_away(owner, 5)
    clock.advance(2 * DAY)
    with pytest.raises(TurnRefused) as exc:
        await service.handover(gid, voter, seat, None)
    assert exc.value.code == "owner_away"


async def test_expiry_policy_vote_opens_one_vote_for_the_other_players(store, clock):
    service = service_of(store, clock)
    gid = await banked_table(store, service, humans=(HOST, BOB, CAROL), profile="fast", policy="vote")
    row = (await service.load(gid)).row
    seat = row.to_act[0]
    clock.advance(DAY + 1)
    (due,) = await service.due(clock())
    assert due.policy == "vote"
    (opened,) = await service.expiry_votes(gid, due.row.version, [s for s, _ in due.seats])
    assert opened.owner == row.user_of(seat) and sorted(opened.voters) == sorted(set(row.humans) - {opened.owner})
    assert opened.needed == 2
    assert await service.expiry_votes(gid, due.row.version, [seat]) == []  # never twice
    for voter in opened.voters:
        res = await service.ballot(opened.vote.id, voter, True)
    assert res.status == "passed"
    assert (await store.get_game(gid)).user_of(seat) is None  # the AI has the seat now


async def test_expiry_policy_default_takes_the_games_default_action(store, clock):
    service = service_of(store, clock)
    gid = await banked_table(store, service, profile="blitz", policy="default")
    loaded = await service.load(gid)
    seat = loaded.row.to_act[0]
    expected = loaded.game.default_action(loaded.state, seat)
    clock.advance(HOUR + 1)
    (due,) = await service.due(clock())
    await service.timeout(gid, due.row.version, [seat], due.policy)
    log = await store.actions(gid, limit=10_000)
    first = next(a for a in log if a.user_id is None and a.seat == seat)
    assert first.action == loaded.game.parse_action(expected).model_dump(mode="json")


def test_bank_arithmetic_with_vacations():
    away = [(100.0, 200.0), (300.0, 350.0)]
    assert clocks.running_seconds(0, 400, away) == 250
    assert clocks.running_seconds(150, 320, away) == 100
    assert clocks.runs_out_at(0, 100, away) == 100
    assert clocks.runs_out_at(0, 101, away) == 201
    assert clocks.runs_out_at(0, 250, away) == 400
    assert clocks.handed_on("p1", ["p1", "p1"], ["p1"]) is False
    assert clocks.handed_on("p1", ["p1", "p2"], ["p1"]) is True
    assert clocks.handed_on("p1", ["p1"], ["p2"]) is True
    assert clocks.handed_on("p1", [], ["p2"]) is False


async def test_expiry_policy_vote_with_nobody_present_to_vote_lets_the_ai_move(store, clock):
    service = service_of(store, clock)
    gid = await banked_table(store, service, profile="fast", policy="vote")
    row = (await service.load(gid)).row
    other = next(u for u in row.humans if u != row.user_of(row.to_act[0]))
    await service.go_away(other, 5)
    clock.advance(DAY + 1)
    (due,) = await service.due(clock())
    assert due.policy == "ai"
    assert await service.expiry_votes(gid, due.row.version, [s for s, _ in due.seats]) == []

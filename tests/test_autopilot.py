"""The autopilot (tables/core/autopilot.py; issue 30 item 2): one function takes every step
nobody clicked, inside the change that caused it.  A fake standing order ("always the
first legal action", a policy as standing orders will plug in) is driven through a
click, a turn timer running out and a league deadline: each time the same function
asks it and applies what it decides, in the same commit as the step that triggered it."""

from __future__ import annotations

import sys
from typing import Any

from conftest import Clock
from tablekit import AI, BOB, HOST, new_table
from test_league_deadline import _season, moved_by_both

from engine.base import BaseState, Game
from store import GameRow
from tables import TableService
from tables.core import autopilot
from tables.leagues.rounds import LeagueService
from tables.rules.decisions import taken_by


class FirstLegal:
    """A fake standing order of ``members``: always their seat's first legal action."""

    source = "order"

    def __init__(self, members: set[int]) -> None:
        self.members = members
        self.trigger = ""
        #: (trigger, table, seat, action as stored) of every step it decided
        self.taken: list[tuple[str, int, str, Any]] = []
        #: the functions that asked it
        self.callers: set[Any] = set()

    def decide(self, game: Game, row: GameRow, state: BaseState, seat: str) -> Any | None:
        self.callers.add(sys._getframe(1).f_code)
        if row.user_of(seat) not in self.members:
            return None
        action = game.legal_actions(state, seat)[0]
        self.taken.append((self.trigger, row.id, seat, game.parse_action(action).model_dump(mode="json")))
        return action


async def _steps_of(store, gid: int, version: int, seat: str) -> list[Any]:
    """The stored actions of ``seat`` committed with ``version``."""
    return [a.action for a in await store.actions(gid, limit=100_000) if a.version == version and a.seat == seat]


def _taken(order: FirstLegal, trigger: str, gid: int, seat: str) -> list[Any]:
    return [a for t, g, s, a in order.taken if (t, g, s) == (trigger, gid, seat)]


async def _until_the_order_moves(store, order: FirstLegal, trigger: str, gid: int, call) -> None:
    """Trigger ``call`` (a click, a timer) until the order took a step in its commit;
    each time, what the order decided is exactly what that commit stored for its seat."""
    for _ in range(40):
        before = len(order.taken)
        version = await call()
        stored = await _steps_of(store, gid, version, "p2")
        assert stored == [a for _, g, s, a in order.taken[before:] if (g, s) == (gid, "p2")]
        assert all(t == trigger for t, *_ in order.taken[before:])
        if stored:
            return
        if (await store.get_game(gid)).status != "active":
            break
    raise AssertionError(f"the order never moved on a {trigger}")


async def test_one_function_takes_a_standing_orders_steps_on_a_click_a_timer_and_a_league_deadline(store):
    # a click and a turn timer: BOB left the order, HOST plays (p1), BOB (p2) never waits
    service = TableService(store)
    order = FirstLegal({BOB})
    service.kernel.standing = (order,)
    row = await new_table(store)
    await service.lobby(row.id, HOST, "start")

    async def click() -> int:
        loaded = await service.load(row.id)
        assert "p2" not in loaded.game.to_act(loaded.state), "the order left BOB's seat waiting"
        return (await service.act(row.id, HOST, AI)).row.version

    async def timer() -> int:
        fresh = await store.get_game(row.id)
        result, seats = await service.timeout(row.id, fresh.version)
        assert seats == [("p1", HOST)]
        # the log says who took each step and why: the timer took HOST's (no member: not his decision)
        mine = [a for a in await store.actions(row.id, limit=100_000) if a.version == result.row.version]
        assert [(a.seat, a.user_id, taken_by(a)) for a in mine][0] == ("p1", None, "timer")
        assert {taken_by(a) for a in mine if a.seat == "p2"} <= {"order"}
        return result.row.version

    order.trigger = "click"
    await _until_the_order_moves(store, order, "click", row.id, click)
    order.trigger = "timer"
    await _until_the_order_moves(store, order, "timer", row.id, timer)

    # a league deadline: both members moved, the table is played out with 22's order first
    clock = Clock()
    tables = TableService(store, clock=clock)
    league_order = FirstLegal({22})
    league_order.trigger = "league"
    leagues = LeagueService(tables)
    lid, (tb,) = await _season(leagues, [21, 22], name="Orders")
    gid = tb["game_id"]
    await moved_by_both(tables, gid, tb["seats"])
    seat22 = (await tables.load(gid)).row.seat_of(22)
    assert seat22 is not None
    tables.kernel.standing = (league_order,)  # left after both moved
    clock.advance(3601)
    events = await leagues.advance(lid)
    assert "deadline" in [e.kind for e in events]
    ended = await store.get_game(gid)
    assert ended.status == "finished"
    played_by_order = await _steps_of(store, gid, ended.version, seat22)
    assert played_by_order and played_by_order == _taken(league_order, "league", gid, seat22)
    sources = {(a.seat, taken_by(a)) for a in await store.actions(gid, limit=100_000) if a.version == ended.version}
    assert {by for s, by in sources if s == seat22} == {"order"} and {by for s, by in sources if s != seat22} == {
        "league"
    }

    # every time, the one function of the autopilot asked the order
    assert order.callers == league_order.callers == {autopilot._next.__code__}

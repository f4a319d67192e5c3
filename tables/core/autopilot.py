"""The autopilot: the one place that decides and applies every step nobody clicked.

A step nobody clicked is taken by a **policy**: an object that, for a seat to act,
returns the action to take or None when it does not apply (:class:`Policy`), and
names itself (``source``: who took the step).  The platform's policies:

* ``ai`` (:class:`SeatFiller`): a seat without a member is the seat-filler AI's;
* ``auto`` (:class:`ForcedChoice`): a member's decision with exactly one legal choice;
* ``timer`` (:class:`TimerDefault`): the turn timer or time bank of these seats ran
  out: the game's default action (or the AI's choice), once per seat;
* ``league`` (:class:`LeaguePlayOut`): a league table at its deadline is played out
  by the AI from where it stands, every seat;
* ``order`` (:class:`~tables.core.standing.OrderPolicy`): the members' standing
  orders (the kernel's ``standing_orders``; tables/core/standing.py).

:func:`run` is the loop: after a change, while the game goes on, it asks the policies
in priority order, each for the seats to act in the game's order, applies the first
action one returns, and starts again; it stops when no policy applies, or after one
cap on steps (the kernel's ``max_ai_steps``: a game that never ends stops there).  A trigger passes the policies it adds
(the timer its default, the league its play-out) instead of looping itself; the
kernel (``Kernel.policies``) puts the AI seats and forced choices first, then the
standing orders, then the trigger's own.  It is pure and synchronous: the kernel
runs it off the event loop between loading a table and its one compare-and-swap
commit, so every step it takes is saved with the change that caused it, or none is.

Who took a step is stored with it (``ActionRow.by``): the policy's source ("ai",
"auto", "timer", "league"; a standing order's step "order:" with the order's kind and
label, tables/core/standing.py), and whether the seat's member is recorded as the
one who decided (:data:`RECORDED`).  Only this module and the kernel's apply of a
member's own click apply actions to a table (tests/test_architecture.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol, runtime_checkable

from engine.base import BaseState, Event, Game
from store import ActionRow, GameRow
from tables.core.common import log_entry
from tables.core.standing import OrderPolicy
from tables.rules.levels import ai_move, timer_move

#: whether a source's steps record the seat's member as the one who decided: a forced
#: single choice and the member's standing order do (their decision: undo treats it so);
#: the AI, a timer that ran out and a league's deadline do not
RECORDED: dict[str, bool] = {"ai": False, "auto": True, "timer": False, "league": False, "order": True}


@runtime_checkable
class Policy(Protocol):
    """Decides a step nobody clicked: for ``seat`` (to act in ``state``), the action
    to take, or None when this policy does not apply to it."""

    #: who takes the step: "ai", "auto", "timer", "league", "order"
    source: str

    def decide(self, game: Game, row: GameRow, state: BaseState, seat: str) -> Any | None: ...


class SeatFiller:
    """The seat-filler AI plays every seat without a member, at the seat's level."""

    source = "ai"

    def decide(self, game: Game, row: GameRow, state: BaseState, seat: str) -> Any | None:
        return ai_move(game, row, state, seat) if row.user_of(seat) is None else None


class ForcedChoice:
    """A member's decision with exactly one legal choice is no decision: taken."""

    source = "auto"

    def decide(self, game: Game, row: GameRow, state: BaseState, seat: str) -> Any | None:
        if row.user_of(seat) is None:
            return None
        legal = game.legal_actions(state, seat)
        return legal[0] if len(legal) == 1 else None


class TimerDefault:
    """The timer of ``seats`` ran out: each takes one step, the game's default action
    (``mode`` "default") or the seat-filler AI's choice (``mode`` "ai").  A seat that
    stopped waiting before its turn came (the game moved on) is not timed out."""

    source = "timer"

    def __init__(self, seats: Iterable[str], mode: str = "default") -> None:
        self.pending = list(seats)
        self.mode = mode

    def decide(self, game: Game, row: GameRow, state: BaseState, seat: str) -> Any | None:
        waiting = game.to_act(state)
        self.pending = [s for s in self.pending if s in waiting]
        if seat not in self.pending:
            return None
        self.pending.remove(seat)
        return ai_move(game, row, state, seat) if self.mode == "ai" else timer_move(game, row, state, seat)


class LeaguePlayOut:
    """A league table at its deadline: the AI plays every seat until the game ends."""

    source = "league"

    def decide(self, game: Game, row: GameRow, state: BaseState, seat: str) -> Any | None:
        return ai_move(game, row, state, seat)


def step(game: Game, row: GameRow, state: BaseState, seat: str, policy: Policy, action: Any):
    """Apply one step ``policy`` took: the new state, its log row, its events."""
    state, events = game.apply(state, seat, action)
    user = row.user_of(seat) if RECORDED.get(policy.source, True) else None
    by = policy.by() if isinstance(policy, OrderPolicy) else policy.source
    entry = log_entry(game, seat, user, action, events, by=by)
    return state, entry, events


def run(
    row: GameRow, game: Game, state: BaseState, policies: Sequence[Policy], cap: int
) -> tuple[BaseState, list[ActionRow], list[Event]]:
    """Take every step ``policies`` decide (see the module docstring): the state
    after them, their log rows and their events; at most ``cap`` steps."""
    entries: list[ActionRow] = []
    events: list[Event] = []
    while policies and len(entries) < cap and game.outcome(state) is None:
        taken = _next(row, game, state, policies)
        if taken is None:
            break
        policy, seat, action = taken
        state, entry, evs = step(game, row, state, seat, policy, action)
        entries.append(entry)
        events += evs
    return state, entries, events


def _next(row: GameRow, game: Game, state: BaseState, policies: Sequence[Policy]) -> tuple[Policy, str, Any] | None:
    acting = game.to_act(state)
    for policy in policies:
        for seat in acting:
            action = policy.decide(game, row, state, seat)
            if action is not None:
                return policy, seat, action
    return None

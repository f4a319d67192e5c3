"""What a seat is offered on its board: its choices, each a chain of legal actions.

Every game's decisions are small (one step each: a hex, a class, a count).  A
player thinks of some runs of them as *one* decision, so the platform offers
those runs whole, saved as a chain of single steps (all or nothing, see
:meth:`tables.TableService.act`):

* **runs** -- a decision whose actions are all of one kind (a car's steps, hex
  by hex) is offered as its *destinations*: every state reachable through a
  run of decisions of that kind; paths to the same result are one choice (the
  first path is taken), so a path is asked for only when it matters; when
  there are more than :data:`MAX_CHOICES` (a long move), the farthest complete
  breadth-first level that fits is offered (its results and its waypoints),
  and the run goes on from the waypoint picked;
* **compound decisions** -- otherwise, when every way through the seat's next
  decisions (until its turn passes) has at most :data:`MAX_CHOICES` distinct
  results, they are offered as one select (an Automobile build: model and
  count in one pick).  When there are more only because a first step leaves
  the decision (its result has a step straight back: ``back``, ``cancel``), the
  rest are merged and each such step is a choice of its own beside them.

A choice that destroys one of the seat's own pieces (:meth:`engine.base.Game.self_harm`:
a car driven off the road) comes last, its label saying so first.  Labels tell
every choice apart on their own: within one message no two are the same, and a
chain too long for a component's label keeps its first and last steps and the
steps that differ from the choices it would otherwise look like
(``A → … → <the differing step> → … → Z``), within :data:`LABEL_LIMIT`, or puts
the differing steps first (:mod:`tables.rules.choice_labels`).

Neither ever looks past hidden information: a chain ends at the first step
that rolls, shuffles or reveals (:func:`tables.rules.preview.step_ends_chain`), so
the player sees it, then goes on.  An action that returns to an earlier state
of the chain (``back``, ``cancel``) is never part of one.  When neither rule
applies (too many results, or nothing to merge), each legal action is a choice
of its own.  The same state always gives the same list, so a click names a
choice by its index and the service recomputes it under the table's lock.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from engine import GameError
from engine.base import BaseState, Game
from engine.i18n import t
from tables.rules.choice_labels import ELLIPSIS, _heads, _Label, _path, _run_label, _unique
from tables.rules.preview import step_ends_chain

MAX_CHOICES = 25
#: engine steps one expansion may simulate (a board is built in milliseconds)
BUDGET = 200
MAX_DEPTH = 12


#: a choice's label fits a button's (80) and so a select option's (100) limit
LABEL_LIMIT = 80


@dataclass(frozen=True)
class Choice:
    chain: tuple[int, ...]  # legal-action indices, one per step
    kind: str  # "single", "run" or "compound"
    harm: str | None = None  # catalog key: how it destroys one of the seat's own pieces


class _Spent(Exception):
    """The expansion outgrew its budget or :data:`MAX_CHOICES`; ``best`` is the
    last complete breadth-first level that fitted (results and waypoints)."""

    def __init__(self, best: list[tuple[int, ...]] | None = None):
        super().__init__("spent")
        self.best = best or []


def _fingerprint(state: BaseState, step: bool = True) -> str:
    """What a state is; ``step=False``: the step counter aside (a step back, then
    forth again, returns to the same state)."""
    return state.model_dump_json() if step else state.model_dump_json(exclude={"step"})


def _expand(
    game: Game,
    state: BaseState,
    seat: str,
    *,
    same_kind: str | None,
    budget: list[int],
    exits: dict[int, str] | None = None,
) -> list[tuple[int, ...]]:
    """One chain per distinct result reachable from ``state``, breadth first (so
    each is the shortest way there; a state reached twice is explored once).
    ``same_kind``: follow only decisions whose actions are all of that kind (a
    run); else follow every deterministic step until the turn passes.
    ``exits``: first steps that leave the decision (see :func:`_exits`), left out,
    and their results never entered from deeper steps either (states are then
    compared without the step counter)."""
    step = exits is None
    leaves: list[tuple[int, ...]] = []
    visited = {_fingerprint(state, step), *(exits or {}).values()}
    frontier: list[tuple[tuple[int, ...], BaseState]] = [((), state)]
    best: list[tuple[int, ...]] = []  # a complete level that fits: its results and its waypoints
    while frontier:
        nxt_frontier: list[tuple[tuple[int, ...], BaseState]] = []
        for chain, st in frontier:
            for i, action in enumerate(game.legal_actions(st, seat)):
                if not chain and exits and i in exits:
                    continue
                budget[0] -= 1
                if budget[0] < 0:
                    raise _Spent(best)
                try:
                    after, _ = game.apply(st, seat, action)
                except GameError:
                    continue
                fp = _fingerprint(after, step)
                if fp in visited:  # back / cancel, or a second path to the same result
                    continue
                visited.add(fp)
                here = chain + (i,)
                if step_ends_chain(game, st, after, seat) or len(here) >= MAX_DEPTH:
                    leaves.append(here)
                    continue
                follow = game.legal_actions(after, seat)
                if same_kind is not None and not all(getattr(a, "kind", None) == same_kind for a in follow):
                    leaves.append(here)  # the run ends: the next decision is of another kind
                    continue
                nxt_frontier.append((here, after))
            if len(leaves) > MAX_CHOICES:
                raise _Spent(best)
        frontier = nxt_frontier
        level = leaves + [c for c, _ in frontier]
        if len(level) <= MAX_CHOICES:
            best = level
    return leaves


def choices(game: Game, state: BaseState, seat: str) -> list[Choice]:
    """The seat's choices in a stable order (see the module's docstring); those
    that destroy one of the seat's own pieces last."""
    offered = _choices(game, state, seat)
    if not offered or type(game)._self_harm is Game._self_harm:
        return offered
    marked = [replace(c, harm=_harm(game, state, seat, c.chain)) for c in offered]
    return [c for c in marked if c.harm is None] + [c for c in marked if c.harm is not None]


def _harm(game: Game, state: BaseState, seat: str, chain: tuple[int, ...]) -> str | None:
    st = state
    try:
        for i in chain:
            st, _ = game.apply(st, seat, game.legal_actions(st, seat)[i])
    except (GameError, IndexError):
        return None
    return game.self_harm(state, st, seat)


def _choices(game: Game, state: BaseState, seat: str) -> list[Choice]:
    legal = game.legal_actions(state, seat)
    singles = [Choice((i,), "single") for i in range(len(legal))]
    if seat not in game.to_act(state) or game.outcome(state) is not None or not legal:
        return []
    budget = [BUDGET]
    kinds = {getattr(a, "kind", None) for a in legal}
    try:
        if len(kinds) == 1 and None not in kinds:
            try:
                chains = _expand(game, state, seat, same_kind=next(iter(kinds)), budget=budget)
            except _Spent as spent:
                # too many results: the farthest waypoints that fit, from which the run goes on
                chains = spent.best
            if any(len(c) > 1 for c in chains) and len(chains) <= MAX_CHOICES:
                return [Choice(c, "run") for c in chains]
        if budget[0] <= 0:
            return singles
        chains = _expand(game, state, seat, same_kind=None, budget=budget)
    except _Spent:
        return _around_exits(game, state, seat, legal) or singles
    if any(len(c) > 1 for c in chains) and len(chains) <= MAX_CHOICES:
        return [Choice(c, "compound") for c in chains]
    return singles


def _exits(game: Game, state: BaseState, seat: str, legal: list) -> dict[int, str]:
    """The first steps that leave the decision the seat is in (back, cancel): their
    result has a step straight back here.  Index -> the result's fingerprint."""
    here = _fingerprint(state, False)
    budget = BUDGET
    out: dict[int, str] = {}
    for i, action in enumerate(legal):
        try:
            after, _ = game.apply(state, seat, action)
        except GameError:
            continue
        if step_ends_chain(game, state, after, seat):
            continue
        for back in game.legal_actions(after, seat):
            budget -= 1
            if budget < 0:
                return out
            try:
                again, _ = game.apply(after, seat, back)
            except GameError:
                continue
            if _fingerprint(again, False) == here:
                out[i] = _fingerprint(after, False)
                break
    return out


def _around_exits(game: Game, state: BaseState, seat: str, legal: list) -> list[Choice] | None:
    """A compound decision with a way out (an Automobile build's "Back"): the ways
    through, without the exits, as one select when they fit, each exit a choice of
    its own beside them.  None: nothing to merge."""
    exits = _exits(game, state, seat, legal)
    if not exits or len(exits) == len(legal):
        return None
    try:
        chains = _expand(game, state, seat, same_kind=None, budget=[BUDGET], exits=exits)
    except _Spent:
        return None
    if not any(len(c) > 1 for c in chains) or len(chains) + len(exits) > MAX_CHOICES:
        return None
    offered = [Choice(c, "compound") for c in chains] + [Choice((i,), "single") for i in exits]
    return sorted(offered, key=lambda c: c.chain)


def chain_of(game: Game, state: BaseState, seat: str, index: int) -> tuple[int, ...] | None:
    """The chain of choice ``index`` for this state (None: no such choice)."""
    offered = choices(game, state, seat)
    return offered[index].chain if 0 <= index < len(offered) else None


def _marks_board(game: Game) -> bool:
    return type(game)._board_mark is not Game._board_mark


def destinations(game: Game, state: BaseState, seat: str, offered: list[Choice]) -> list[str | None]:
    """The board location each choice marks: :meth:`engine.base.Game.board_mark`
    of its last step, taken where the steps before it lead (so a roll or a reveal
    at the end is not looked past); None: no place, or a game that marks none."""
    if not _marks_board(game):
        return [None] * len(offered)
    out: list[str | None] = []
    for choice in offered:
        try:
            st, last = list(_steps(game, state, seat, choice.chain))[-1]
        except (GameError, IndexError):
            out.append(None)
            continue
        out.append(game.board_mark(st, last, seat))
    return out


def _steps(game: Game, state: BaseState, seat: str, chain: tuple[int, ...]) -> Iterator[tuple[BaseState, Any]]:
    """Each step of ``chain`` as (the state it is taken in, its action)."""
    st = state
    for n, i in enumerate(chain):
        action = game.legal_actions(st, seat)[i]
        yield st, action
        if n < len(chain) - 1:
            st, _ = game.apply(st, seat, action)


def numbering(places: list[str | None]) -> tuple[list[int | None], dict[str, int]]:
    """Each choice's number and the board's ``{location: number}``: the offered
    locations numbered 1, 2, ... in the choices' order; choices that end on the
    same place share its number (their labels tell the paths apart)."""
    marks: dict[str, int] = {}
    numbers: list[int | None] = []
    for place in places:
        if place is None:
            numbers.append(None)
            continue
        numbers.append(marks.setdefault(place, len(marks) + 1))
    return numbers, marks


def describe(
    game: Game,
    state: BaseState,
    seat: str,
    offered: list[Choice],
    locale: str,
    labels=None,
    numbers: list[int | None] | None = None,
    limit: int = LABEL_LIMIT,
) -> list[tuple[str, str]]:
    """(label, group) of each choice: its steps' labels joined by arrows, and the
    group (select menu) of its first step; ``numbers`` (see :func:`numbering`):
    a numbered choice's label starts with its number, as its place on the board.
    A choice that destroys the seat's own piece says so first (after its number and place).  Every label is
    at most ``limit`` characters and no two are the same (see the module's docstring)."""
    items: list[_Label] = []
    groups: list[str] = []
    for k, choice in enumerate(offered):
        parts, group = [], ""
        for n, (st, action) in enumerate(_steps(game, state, seat, choice.chain)):
            if n == 0:
                group = game.action_group(st, action)
            parts.append(game.action_label(st, action, locale, labels))
        number = numbers[k] if numbers is not None and k < len(numbers) else None
        warn = t(choice.harm, locale) if choice.harm else None
        if number is not None:
            # the number and where the choice ends come first: a long path is what a
            # button's length limit may cut, never the place drawn on the board
            # (a self-destroying choice: its warning right after the number and the place)
            path, tail = _path(parts)
            prefix = " · ".join(x for x in (str(number), tail, f"⚠ {warn}" if warn else "") if x)
            items.append(_Label(prefix, _heads(parts), " · ".join(x for x in (prefix, path) if x), None, parts))
        elif choice.kind == "run":
            items.append(_Label("", _heads(parts)[:-1] + parts[-1:], _run_label(parts), warn, parts))
        else:
            items.append(_Label("", parts, " → ".join(parts), warn, parts))
        groups.append(group)
    texts = _unique(items, limit, locale)
    return list(zip(texts, groups))


__all__ = ["ELLIPSIS", "LABEL_LIMIT", "Choice", "_Label", "_unique", "choices", "describe", "destinations", "numbering"]

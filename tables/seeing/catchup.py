""" "Since your turn" (issue 20 item 11): what happened at a table since a member's
last decision, as that member may see it: each step of the other players (and
the AI) since, what touched the member's own seat first, and the board right
after their last decision and now.

Discord-free, so the web companion can show the same catch-up: the caller
formats the steps (the Discord layer with its log lines) and draws the two
boards (``Views.render`` for the member's seat: never another seat's
hidden information)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.base import BaseState, Event, Game
from store import GameRow
from tables.core.common import Step, TurnRefused
from tables.play.history import History
from tables.rules.decisions import taken_by
from tables.seeing.secrecy import visible

#: at most this many log rows are read back (a member away for a very long game sees the latest)
LOOK_BACK = 400


@dataclass
class Catchup:
    row: GameRow
    game: Game
    seat: str
    steps: list[Step] = field(default_factory=list)  # since the member's last decision, what they may see
    first_hit: tuple[Step, Event] | None = None  # the first event of another seat that names the member's seat
    before: BaseState | None = None  # the table right after the member's last decision (None: never decided)
    after: BaseState | None = None  # the table now
    turns: int = 0  # decisions (log rows) since
    earlier: int = 0  # steps since that did not fit in LOOK_BACK

    @property
    def empty(self) -> bool:
        return not self.steps


def _names(value: Any, seat: str) -> bool:
    if isinstance(value, str):
        return value == seat
    if isinstance(value, dict):
        return any(_names(v, seat) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(_names(v, seat) for v in value)
    return False


def touches(event: Event, seat: str) -> bool:
    """Whether an event names ``seat`` in any field (its target, its owner...)."""
    data = event.model_dump(mode="json", exclude={"kind", "to"})
    return _names(data, seat)


async def catchup(history: History, row: GameRow, game: Game, state: BaseState, user_id: int) -> Catchup:
    """The catch-up of member ``user_id`` (seated at ``row``) at the table's state ``state``."""
    seat = row.seat_of(user_id)
    if seat is None:
        raise TurnRefused("not_seated", "core.ui.not_seated")
    store = history.store
    total = await store.count_actions(row.id)
    offset = max(0, total - LOOK_BACK)
    rows = await store.actions(row.id, limit=LOOK_BACK, offset=offset)
    # the member's last own decision (a step their standing order took is shown, not skipped)
    mine = [i for i, a in enumerate(rows) if a.user_id == user_id and taken_by(a) != "order"]
    start = mine[-1] + 1 if mine else 0
    # the member's own forced steps right after their decision are still theirs
    while start < len(rows) and rows[start].user_id == user_id and taken_by(rows[start]) != "order":
        start += 1
    since = visible(game, rows[start:], seat)  # no other crew's private steps (tables/seeing/secrecy.py)
    out = Catchup(row, game, seat, after=state, turns=len(since), earlier=0 if mine else offset)
    for a in since:
        events = game.visible_events(game.load_events(a.events), seat)
        by = taken_by(a, seat)
        step = Step(a.seat, events, a.by if by == "order" else by)  # their own order: with its label
        out.steps.append(step)
        if out.first_hit is None and a.seat != seat:
            hit = next((e for e in events if touches(e, seat)), None)
            if hit is not None:
                out.first_hit = (step, hit)
    if mine:
        _, before, _, _ = await history.replay_state(row, offset + start)
        out.before = before
    return out

"""Refusals that say why (issue 20): a click that cannot be taken is answered
with the reason, never just "out of date":

* not your turn, and whose turn it is;
* not seated at this table (and who is to act);
* the table moved on since the button was sent, and what happened since;
* the table has finished.

Discord-free: a refusal names seats (``TurnRefused.named``: parameter -> seat ids)
and carries the log steps it refers to (``TurnRefused.steps``); the caller puts
the seats' display names in (:func:`text`), so a refusal never shows a seat id.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.base import BaseState, Game, SeatLabel
from engine.i18n import join, t
from store import GameRow
from store.ports import SeatStore
from tables.core.common import Step, TurnRefused
from tables.rules.text import escape

#: how many log rows a "moved on" refusal looks back over (and how many lines it shows)
LOOK_BACK = 40
SHOWN_STEPS = 6


def _named(exc: TurnRefused, row: GameRow, **seats: Sequence[str]) -> TurnRefused:
    exc.row = row
    exc.named = {k: list(v) for k, v in seats.items()}
    return exc


def not_your_turn(row: GameRow, game: Game, state: BaseState) -> TurnRefused:
    """A seated player clicked while another seat is to act."""
    waiting = game.to_act(state)
    return _named(TurnRefused("not_your_turn", "play.refuse.not_your_turn", id=row.id), row, who=waiting)


def not_seated(row: GameRow, game: Game | None = None, state: BaseState | None = None) -> TurnRefused:
    """Someone without a seat clicked a table's button."""
    waiting = game.to_act(state) if game is not None and state is not None and row.status == "active" else []
    key = "play.refuse.not_seated" if waiting else "play.refuse.not_seated_idle"
    return _named(TurnRefused("not_seated", key, id=row.id), row, who=waiting)


def finished(row: GameRow) -> TurnRefused:
    """A click on a table that has ended (finished, or abandoned)."""
    key = "play.refuse.abandoned" if row.status == "abandoned" else "play.refuse.finished"
    exc = TurnRefused("finished", key, id=row.id)
    exc.row = row
    return exc


async def moved_on(
    store: SeatStore, row: GameRow, game: Game, state: BaseState, seat: str | None, since: int
) -> TurnRefused:
    """The table's version is past ``since`` (the version the clicked component
    was drawn for): say what happened since, and whose decision it is now."""
    waiting = game.to_act(state)
    total = await store.count_actions(row.id)
    recent = await store.actions(row.id, limit=LOOK_BACK, offset=max(0, total - LOOK_BACK))
    steps = [
        Step(a.seat, game.load_events(a.events), "ai" if a.user_id is None else "player")
        for a in recent
        if a.version > since
    ]
    if seat is not None and seat in waiting:
        key = "play.refuse.moved_on_yours"
    elif waiting:
        key = "play.refuse.moved_on"
    else:
        key = "play.refuse.moved_on_plain"
    exc = _named(TurnRefused("stale", key, id=row.id), row, who=[s for s in waiting if s != seat])
    exc.steps = steps
    return exc


def names(seats: Sequence[str], labels: Mapping[str, SeatLabel], locale: str) -> str:
    """Seats by their display names, in a list of the reader's language."""
    shown = [escape(labels[s].name) if s in labels else s for s in seats]  # a member's name is markdown-safe
    return join(shown, locale)


def text(
    exc: TurnRefused,
    locale: str,
    labels: Mapping[str, SeatLabel] | None = None,
    lines: Callable[[Sequence[Step]], list[str]] | None = None,
) -> str:
    """The refusal in ``locale``: named seats by display name (``labels``), and
    for a table that moved on, what happened since (``lines``: the log's own
    one-line-per-actor wording)."""
    params: dict[str, Any] = dict(exc.params)
    for key, seats in exc.named.items():
        params[key] = names(seats, labels or {}, locale)
    out = t(exc.key, locale, **params)
    if exc.steps and lines is not None:
        shown = lines(exc.steps)
        if shown:
            more = len(shown) - SHOWN_STEPS
            shown = shown[-SHOWN_STEPS:]
            head = t("play.refuse.since", locale)
            if more > 0:
                head += " " + t("play.refuse.earlier", locale, n=more)
            out += "\n" + head + "\n" + "\n".join(shown)
    return out

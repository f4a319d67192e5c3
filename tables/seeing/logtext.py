"""What a log line says of a step whose events say nothing to its reader (issue 29 item 8).

Some steps leave no event a reader sees: a step of an Automobile build (a model, then
how many), a crew's order being built in secret, a step back.  A log line never reads
a bare "…": the step's own seat, and anyone at an open game, read what was chosen (the
step's action, labelled as its button was); a reader from whom the step is hidden (a
secret order) reads that the seat gave orders (:func:`hidden`).  Discord-free: the
``/game log`` command and the web companion's log use it alike.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from engine import GameError
from engine.base import Game, SeatLabel
from engine.i18n import t
from store import ActionRow, GameRow
from tables.rules.text import escape as _escape

if TYPE_CHECKING:
    from tables.seeing.reads import Reads


class LogLine(Protocol):
    """A line of a log this module fills in (tables/seeing/board.py's ``LogLine``; named here by
    what is filled, so the board, which imports this module, is not imported back)."""

    text: str
    private: bool


#: how many labels of logged steps the table service keeps (``Views.step_labels``: a step's
#: label never changes: the log only grows, and a step taken again after an undo has a new
#: table version; keyed by table, step id, its version, locale and seat names)
CACHED = 4096
#: a whole table's log (tables.seeing.secrecy.ALL)
ALL = 1_000_000


def may_read(game: Game, step: ActionRow, viewer: str | None) -> bool:
    """Whether the reader seated at ``viewer`` (None: anyone) may read what ``step`` chose:
    its own seat always; others unless the game's orders are secret."""
    return not game.private_actions or (viewer is not None and step.seat == viewer)


def hidden(game: Game, locale: str) -> str:
    """A step the reader may not read: that its seat gave orders (secret orders), or
    made a decision (a step whose log no longer replays)."""
    return t("core.log.gave_orders" if game.private_actions else "core.log.decided", locale)


async def chosen(
    reads: Reads,
    row: GameRow,
    game: Game,
    steps: Sequence[ActionRow],
    locale: str,
    labels: Mapping[str, SeatLabel],
) -> dict[int, str]:
    """``{step id: label}``: what each of ``steps`` (logged steps of the table) chose,
    labelled in the state it was taken in (replayed from the nearest snapshot once for
    the steps not labelled before)."""
    names = tuple(sorted((k, v.name) for k, v in labels.items()))
    cache = reads.views.step_labels
    out: dict[int, str] = {}
    missing: dict[int, ActionRow] = {}
    for step in steps:
        hit = cache.get((row.id, step.id, step.version, locale, names))
        if hit is not None:
            out[step.id] = hit
        else:
            missing[step.id] = step
    if not missing:
        return out
    log = await reads.history.actions(row.id, limit=ALL)
    where = [n for n, a in enumerate(log) if a.id in missing]
    if not where:
        return out
    try:
        _, state, _, _ = await reads.history.replay_state(row, where[0])
        for step in log[where[0] : where[-1] + 1]:
            action = game.parse_action(step.action)
            if step.id in missing:
                out[step.id] = cache[(row.id, step.id, step.version, locale, names)] = game.action_label(
                    state, action, locale, dict(labels)
                )
                while len(cache) > CACHED:
                    cache.pop(next(iter(cache)))
            state, _ = game.apply(state, step.seat, action)
    except (GameError, IndexError, KeyError, ValueError):
        pass  # a log that no longer replays: the steps read so far
    return out


async def fill(
    reads: Reads,
    row: GameRow,
    game: Game,
    lines: Mapping[int, Sequence[ActionRow]],
    viewer: str | None,
    locale: str,
    labels: Mapping[str, SeatLabel],
) -> dict[int, str]:
    """The words of each log line that would say nothing: ``lines`` maps a line's key
    to its logged steps; a line's words are its steps' labels joined by arrows, or
    :func:`hidden` for a reader who may not read them."""
    readable = {k: [a for a in steps if may_read(game, a, viewer)] for k, steps in lines.items()}
    labelled = await chosen(reads, row, game, [a for steps in readable.values() for a in steps], locale, labels)
    out: dict[int, str] = {}
    for key in lines:
        words = [labelled[a.id] for a in readable[key] if a.id in labelled]
        out[key] = " → ".join(words) if words else hidden(game, locale)
    return out


async def say_quiet(
    reads: Reads,
    row: GameRow,
    game: Game,
    lines: Sequence[LogLine],
    steps: Sequence[ActionRow],
    viewer: str | None,
    locale: str,
    labels: Mapping[str, SeatLabel],
    *,
    escape: bool = False,
) -> None:
    """Fill in the log ``lines`` (one per step of ``steps``) whose events said nothing to
    the reader at ``viewer`` (``escape``: for a markdown message)."""
    quiet = {k: [steps[k]] for k, line in enumerate(lines) if not line.text}
    if not quiet:
        return
    said = await fill(reads, row, game, quiet, viewer, locale, labels)
    for k in quiet:
        lines[k].text = _escape(said[k], 1000) if escape else said[k]
        # a crew's own secret order step: something only its seat sees
        lines[k].private = lines[k].private or bool(game.private_actions and steps[k].seat == viewer)

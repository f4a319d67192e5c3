"""Steps private to their seat (issue 28 item 11): what a viewer may count of a table.

In a game of secret simultaneous orders (``Game.private_actions``) a seat builds its
order in several steps (pick "move", then a direction, then a distance), each stored
as its own step of the log.  Their events are private to the seat (or there are none),
but their *number* would tell the others what kind of order it gave.  So a step that
leaves the public no event, in such a game, is private to its seat: no one else's log
line, history frame, live update or version counts it.  The order's last step (the
"has given orders" event, public) is the one trace everyone sees, whatever the order.

:func:`seen_by` decides it for one stored step; the web companion's pages, frames and
live updates and ``/game log`` show only the steps their reader may see
(:func:`visible_steps`), numbered among themselves, and tell a change from the
viewer's side by :func:`view_key` (a digest of what the viewer's seat may see), never
by the table's version, which counts every step.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from engine import get_game
from engine.base import BaseState, Event, Game
from store import ActionRow, GameRow

#: how many steps :func:`visible_steps` reads at most (a table's whole log)
ALL = 1_000_000


def private_step(game: Game, events: Sequence[Event]) -> bool:
    """Whether a step with these events is private to its seat: a secret-orders game's
    step that gives the public nothing (a step of an order still being built)."""
    return bool(game.private_actions) and not game.visible_events(list(events), None)


def seen_by(game: Game, step: ActionRow, seat: str | None) -> bool:
    """Whether the viewer seated at ``seat`` (``None``: anyone) may know this stored step
    was taken: every step of an open game; of a secret-orders game, its own steps and
    the steps that say something in public."""
    if not game.private_actions or (seat is not None and step.seat == seat):
        return True
    return not private_step(game, game.load_events(step.events))


def visible(game: Game, steps: Sequence[ActionRow], seat: str | None) -> list[ActionRow]:
    """``steps`` less those the viewer at ``seat`` may not know of."""
    if not game.private_actions:
        return list(steps)
    return [a for a in steps if seen_by(game, a, seat)]


async def visible_steps(tables, game: Game, game_id: int, seat: str | None) -> list[tuple[int, ActionRow]]:
    """(position in the whole log, 1-based, step) of every step the viewer at ``seat``
    may know of, oldest first (``tables``: the table service).  Reads the whole log
    of a secret-orders game; of an open game, every step is visible."""
    rows = await tables.actions(game_id, limit=ALL)
    return [(n, a) for n, a in enumerate(rows, start=1) if seen_by(game, a, seat)]


def view_key(game: Game, state: BaseState, seat: str | None, *extra: object) -> str:
    """A short digest of what ``seat`` (``None``: anyone) sees of ``state`` (the game's
    own view of it, less its step counter) and ``extra`` (names, status): the same
    while nothing the viewer may see changes, whatever others did in private."""
    view = game.view(state, seat)
    data = view.model_dump_json(exclude={"step"}) if hasattr(view, "model_dump_json") else repr(view)
    h = hashlib.sha256(data.encode())
    for x in extra:
        h.update(b"\0" + repr(x).encode())
    return h.hexdigest()[:16]


async def log_window(
    tables, game: Game, game_id: int, seat: str | None, entries: int
) -> tuple[int, list[tuple[int, ActionRow]]]:
    """(how many steps the viewer at ``seat`` may know of, the last ``entries`` of them
    with their positions among those): the log a page shows, numbered as its reader
    may count it."""
    if not game.private_actions:
        total = await tables.count_actions(game_id)
        first = max(0, total - entries)
        rows = await tables.actions(game_id, limit=entries, offset=first) if total else []
        return total, list(enumerate(rows, start=first + 1))
    seen = [a for _, a in await visible_steps(tables, game, game_id, seat)]
    first = max(0, len(seen) - entries)
    return len(seen), list(enumerate(seen[first:], start=first + 1))


async def public_position(tables, row: GameRow, n: int) -> tuple[int, int, int, ActionRow | None]:
    """Position ``n`` of a table's public replay, clamped: (``n``, the replay's length,
    the position in the whole log it stands for, the step that led there).  A
    secret-orders game's replay has one position per public step; its private steps are none."""
    game, game_id = get_game(row.game), row.id
    if not game.private_actions:
        total = await tables.count_actions(game_id)
        n = max(0, min(n, total))
        found = await tables.actions(game_id, limit=1, offset=n - 1) if n else []
        return n, total, n, (found[0] if found else None)
    seen = await visible_steps(tables, game, game_id, None)
    n = max(0, min(n, len(seen)))
    raw, step = seen[n - 1] if n else (0, None)
    return n, len(seen), raw, step

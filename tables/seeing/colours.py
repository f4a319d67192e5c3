"""A table's seat colours: one per seat, by seat order, the same on every board,
text square and page, and never close to a colour with a meaning on the game's
board (see :func:`render.common.seat_colours`)."""

from __future__ import annotations

from render import seat_colours as _seat_colours


def seat_colours(game_id: str, n: int) -> list[tuple[str, str]]:
    """(colour #rrggbb, text square) of seats 1..n of a ``game_id`` table."""
    return _seat_colours(game_id, n)

"""A table's seat colours and symbols: one of each per seat, by seat order, the same on
every board, text square and page; the colours never close to a colour with a meaning
on the game's board, the symbols drawn beside them so colour is never the only signal
(see :func:`render.seat_colours`, ``engine.base.SEAT_SYMBOLS``, docs/rulings.md)."""

from __future__ import annotations

from engine.base import SEAT_SYMBOLS
from render import seat_colours as _seat_colours
from render.common import symbol_points


def seat_colours(game_id: str, n: int) -> list[tuple[str, str]]:
    """(colour #rrggbb, text square) of seats 1..n of a ``game_id`` table."""
    return _seat_colours(game_id, n)


def seat_symbol(index: int) -> str:
    """The symbol of the seat at ``index`` (0: the first seat)."""
    return SEAT_SYMBOLS[index % len(SEAT_SYMBOLS)]


def symbol_svg_points(symbol: str) -> str:
    """``symbol``'s shape as an SVG polygon's points in a 0..10 box (a page's seat mark)."""
    return " ".join(f"{x:.2f},{y:.2f}" for x, y in symbol_points(symbol, 5, 5, 5))

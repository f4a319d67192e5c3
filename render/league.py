"""League standings image: plain rows in, PNG out (no store, no Discord).

One block per division: rank, player, points, the format's two tie-breaks,
games, wins, absences (tables forfeited, in red), the rating now and its change
this season (green up, red down).
Long names are cut with an ellipsis to their column; rows past ``MAX_ROWS`` per
division are left to the text standings (the image says how many)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .common import canvas, fit, text, to_png

ROW_H = 32
MAX_ROWS = 32
WIDTHS = (56, 300, 90, 100, 100, 70, 70, 90, 110, 100)  # with two tie-break columns
MEDALS = {1: "#f1c40f", 2: "#c0c7d0", 3: "#cd7f32"}


@dataclass
class Row:
    rank: int
    name: str
    points: float
    ties: list[float]  # the format's tie-breaks, in order (Swiss: Buchholz, Sonneborn-Berger)
    played: int
    wins: int
    rating: float
    change: float
    dropped: bool = False
    absent: int = 0  # tables forfeited: absent at the deadline, or withdrawn


def _num(x: float) -> str:
    return f"{x:g}" if abs(x - round(x)) > 1e-9 else str(int(round(x)))


def draw(
    title: str,
    subtitle: str,
    headers: Sequence[str],
    divisions: Sequence[tuple[str, Sequence[Row]]],
    more: str = "",
) -> bytes:
    """``headers``: the column titles (rank, player, points, each tie-break, games,
    wins, absences, rating, change); ``divisions``: (heading, rows) in order (heading "" for a
    league without divisions); ``more``: the text for rows left out."""
    ties = len(headers) - 8
    widths = WIDTHS[:3] + (100,) * ties + WIDTHS[5:]
    w = 40 + sum(widths)
    shown = [(head, list(rows)[:MAX_ROWS], max(0, len(rows) - MAX_ROWS)) for head, rows in divisions]
    h = 96 + sum(
        (40 if head else 0) + 26 + ROW_H * max(1, len(rows)) + (28 if cut else 0) + 16 for head, rows, cut in shown
    )
    img, d = canvas(w, h, "#15171c")
    text(d, (20, 12), fit(title, 28, w - 40), 28, "#f1c40f")
    text(d, (20, 48), fit(subtitle, 16, w - 40), 16, "#9aa4b2")
    y = 80
    for head, rows, cut in shown:
        if head:
            text(d, (20, y + 6), fit(head, 20, w - 40), 20, "#e67e22")
            y += 40
        x = 20
        for col, cw in zip(headers, widths):
            text(d, (x, y), fit(col, 14, cw - 8), 14, "#9aa4b2")
            x += cw
        y += 26
        for i, r in enumerate(rows):
            if i % 2 == 0:
                d.rectangle((10, y - 4, w - 10, y + ROW_H - 8), fill="#1d2028")
            base = "#7f8894" if r.dropped else "#e6e6e6"
            cells = [
                (str(r.rank), MEDALS.get(r.rank, base) if not r.dropped else base),
                (r.name, base),
                (_num(r.points), "#ffffff" if not r.dropped else base),
                *((_num(round(v, 2)), base) for v in r.ties),
                (str(r.played), base),
                (str(r.wins), base),
                (str(r.absent), "#e74c3c" if r.absent and not r.dropped else base),
                (f"{r.rating:.1f}", base),
                (
                    f"{r.change:+.1f}",
                    "#2ecc71" if r.change > 0.05 else "#e74c3c" if r.change < -0.05 else "#9aa4b2",
                ),
            ]
            x = 20
            for (cell, colour), cw in zip(cells, widths):
                text(d, (x, y), fit(cell, 18, cw - 10), 18, colour)
                x += cw
            y += ROW_H
        if not rows:
            y += ROW_H
        if cut:
            text(d, (20, y), more.format(n=cut) if more else f"+{cut}", 15, "#9aa4b2")
            y += 28
        y += 16
    return to_png(img)

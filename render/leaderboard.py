"""Leaderboard image: plain rows in, PNG out (no store, no discord)."""

from __future__ import annotations

from collections.abc import Sequence

from .common import canvas, text, to_png

ROW_H = 34


def draw(title: str, headers: Sequence[str], rows: Sequence[Sequence[str]], widths: Sequence[int]) -> bytes:
    w = 40 + sum(widths)
    h = 90 + ROW_H * max(1, len(rows))
    img, d = canvas(w, h, "#15171c")
    text(d, (20, 14), title, 26, "#f1c40f")
    x = 20
    for head, cw in zip(headers, widths):
        text(d, (x, 56), head, 16, "#9aa4b2")
        x += cw
    medal = {0: "#f1c40f", 1: "#c0c7d0", 2: "#cd7f32"}
    for i, row in enumerate(rows):
        y = 84 + i * ROW_H
        if i % 2 == 0:
            d.rectangle((10, y - 4, w - 10, y + ROW_H - 8), fill="#1d2028")
        x = 20
        for j, (cell, cw) in enumerate(zip(row, widths)):
            colour = medal.get(i, "#e6e6e6") if j == 0 else "#e6e6e6"
            text(d, (x, y), str(cell), 18, colour)
            x += cw
    return to_png(img)

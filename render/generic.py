"""Fallback image for a game without (or with a failing) renderer: its summary
and whose turn it is, so a table is never left without a board."""

from __future__ import annotations

from typing import Any

from .common import canvas, text, to_png


def draw(view: dict[str, Any], locale: str, title: str = "", lines: list[str] | None = None) -> bytes:
    img, d = canvas(640, 200)
    text(d, (20, 16), title or str(view.get("game", "")), 26, "#f1c40f")
    y = 60
    for line in (lines or [])[:6]:
        text(d, (20, y), line, 18)
        y += 24
    return to_png(img)

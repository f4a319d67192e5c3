"""Nim's board image: one row of counters per heap (reads only the NimView)."""

from __future__ import annotations

from typing import Any

from engine.i18n import t
from render.common import canvas, text, to_png


def draw(view: Any, locale: str = "en") -> bytes:
    img, d = canvas(420, 60 + 50 * len(view.heaps))
    text(d, (16, 14), t("nim.name", locale), 22, "#f1c40f")
    for i, n in enumerate(view.heaps):
        y = 60 + 50 * i
        text(d, (16, y + 10), str(i + 1), 16)
        for k in range(n):
            d.ellipse((50 + 44 * k, y, 86 + 44 * k, y + 36), fill="#3d8bfd")
    if view.winner:
        text(d, (16, 36), t("nim.render.won", locale, seat=view.label(view.winner)), 14)
    return to_png(img)

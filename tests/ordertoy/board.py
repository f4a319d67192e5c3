"""The Bids board image (a line of text per seat; reads only the BidsView)."""

from __future__ import annotations

from typing import Any

from engine.i18n import t
from render.common import canvas, text, to_png


def draw(view: Any, locale: str = "en") -> bytes:
    img, d = canvas(420, 60 + 30 * len(view.seats))
    text(d, (16, 14), t("bids.summary", locale, round=view.round, high=view.high), 18, "#f1c40f")
    for i, seat in enumerate(view.seats):
        text(d, (16, 50 + 30 * i), f"{view.label(seat)}: {view.bids.get(seat, 0)}", 16)
    return to_png(img)

"""Automobile board image, drawn only from the typed view (``engine.automobile.models.PublicView``).

Laid out for the size Discord shows it inline (issue 12, item 7): 1100x800, so
Discord halves it and the smallest text (16 px) still reads at 8 CSS px.  Each
model space shows its year, price and a short name in the table's language; the
pieces on it are icons in the owner's seat colour, explained by the legend at
the bottom; the players are rows with their display names in their colours.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engine.automobile.models import PublicView, SeatView, SpaceView
from engine.i18n import normalise, t
from engine.locales import DEFAULT
from render.automobile_words import describe as describe  # the image in words: its description's hook
from render.common import draw_symbol, fit, glyph_mask, length, note_text, to_png

W, H = 1100, 800
BG = "#1d1f24"
CLS_COLORS = {"low": "#8a8f98", "mid": "#b07a45", "high": "#d4b040"}
CLASSES = ("high", "mid", "low")
CHARS = ("ford", "kettering", "sloan", "howard", "durant", "chrysler")
# teal and pink: far from every seat colour (a green or orange marker read as a seat's)
BONUS, DISCOUNT = "#14b8a6", "#f472b6"
#: colours with a meaning on the board: no seat colour comes close (render.common.MIN_MEANING_DELTA)
MEANINGFUL = {
    "high": CLS_COLORS["high"],
    "mid": CLS_COLORS["mid"],
    "low": CLS_COLORS["low"],
    "bonus": BONUS,
    "discount": DISCOUNT,
}
#: the seats' colours in seat order (and their squares in texts): any first 3..5 of them
#: keep render.common.MIN_SEAT_DELTA apart in normal and colour-blind vision (docs/rulings.md)
SEATS = (("#b4a5ff", "🟪"), ("#f0ff2d", "🟨"), ("#c32d69", "🟥"), ("#872dff", "🟦"), ("#00ffd2", "🟩"))
#: seat colours when the caller gives none
SEAT_COLORS = [c for c, _ in SEATS]
S = 16  # the smallest text: 8 CSS px once Discord halves the image
M = 12  # margin

# model track: a class label column, then 12 spaces (3 per era)
LW, CW, CH = 64, 84, 104
X0 = M + LW
TY = 48  # era headers
RY = TY + 26  # first class row
# middle band: sales lanes (left) and executive decisions, demand (right)
MY = RY + 3 * (CH + 4) + 6
EX = 620
# character chips, player table, legend
CY = MY + 142
PY = CY + 42
ROW = 30
LY = H - 26


#: while this thread draws the cached base layer: its text runs, kept with it (see :func:`draw`)
_local = threading.local()


@lru_cache(maxsize=4096)
def _glyphs(s: str, size: int, anchor: str) -> tuple[Image.Image, int, int]:
    """A text run as a cached 1-bit mask and its offset from the anchor point
    (fallback fonts included, see :func:`render.common.glyph_mask`)."""
    mask, left, top = glyph_mask(s, size, anchor)
    return mask.point(lambda v: 255 if v >= 128 else 0, "1"), left, top


def text(
    d: ImageDraw.ImageDraw, xy: tuple[float, float], s: str, size: int = S, fill: str = "#ffffff", anchor: str = "la"
) -> None:
    """Like render.common.text (and recorded the same way), for the palette image:
    a flat-colour board encodes as PNG several times faster than an RGB one."""
    sink = getattr(_local, "sink", None)
    if sink is not None:
        sink.append((size, s))
    else:
        note_text(size, s)
    if not s:
        return
    mask, left, top = _glyphs(s, size, anchor)
    d.bitmap((int(round(xy[0])) + left, int(round(xy[1])) + top), mask, fill=fill)


def _color(view: PublicView, seat: str | None) -> str:
    if seat is None or seat not in view.seats:
        return "#666666"
    return view.colour(seat, SEAT_COLORS[view.seats.index(seat) % len(SEAT_COLORS)])


def _ink(fill: str) -> str:
    """Black or white text, whichever reads on ``fill``."""
    r, g, b = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    return "#000000" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#ffffff"


def _factory(d: ImageDraw.ImageDraw, x: int, y: int, fill: str, symbol: str = "") -> None:
    """A sawtooth-roofed factory, 18x20, top-left at (x, y), its owner's seat ``symbol`` on it."""
    d.polygon(
        [
            (x, y + 20),
            (x, y + 7),
            (x + 6, y + 2),
            (x + 6, y + 7),
            (x + 12, y + 2),
            (x + 12, y),
            (x + 17, y),
            (x + 17, y + 20),
        ],
        fill=fill,
        outline="#000000",
    )
    if symbol:
        draw_symbol(d, symbol, x + 8.5, y + 13.5, 4.5, _ink(fill))


def _disc(
    d: ImageDraw.ImageDraw, x: int, y: int, fill: str, mark: str, outline: str = "#000000", size: int = 18
) -> None:
    """A round marker with a letter or sign on it."""
    d.ellipse((x, y, x + size, y + size), fill=fill, outline=outline, width=2)
    text(d, (x + size / 2, y + size / 2), mark, S, _ink(fill), anchor="mm")


def _cars(d: ImageDraw.ImageDraw, x: int, y: int, n: int, fill: str) -> None:
    """A box of ``n`` cars for sale, 36x20."""
    d.rounded_rectangle((x, y, x + 36, y + 20), 4, fill=fill, outline="#000000")
    text(d, (x + 18, y + 10), str(n), S, _ink(fill), anchor="mm")


def _triangle(d: ImageDraw.ImageDraw, x: int, y: int, fill: str) -> None:
    """A distributor, 16x20."""
    d.polygon([(x, y + 20), (x + 8, y), (x + 16, y + 20)], fill=fill, outline="#000000")


@lru_cache(maxsize=16)
def _base(
    loc: str, round_: int, spaces_key: tuple[tuple[int, str, int, int], ...]
) -> tuple[Image.Image, tuple[tuple[int, str], ...]]:
    """Everything that does not change within a round (the model track's printed spaces,
    headers, legend) and the text runs drawn on it."""
    sink: list[tuple[int, str]] = []
    _local.sink = sink
    try:
        return _draw_base(loc, round_, spaces_key), tuple(sink)
    finally:
        _local.sink = None


def _draw_base(loc: str, round_: int, spaces_key: tuple[tuple[int, str, int, int], ...]) -> Image.Image:
    img = Image.new("P", (W, H), BG)
    d = ImageDraw.Draw(img)
    text(d, (M, 10), t("automobile.name", loc), 24, "#ffffff")
    by_cls: dict[str, list[tuple[int, str, int, int]]] = {c: [] for c in CLASSES}
    for sp in spaces_key:
        by_cls[sp[1]].append(sp)
    for era in range(1, 5):
        ex = X0 + (era - 1) * 3 * CW
        live = era <= round_
        years = [sp[2] for cls in CLASSES for sp in by_cls[cls][(era - 1) * 3 : era * 3]]
        span = f"  {min(years)}–{max(years)}" if years else ""
        d.rectangle((ex, TY, ex + 3 * CW - 4, TY + 22), fill="#3a4150" if live else "#26292f")
        label = f"{t('automobile.ui.era', loc)} {era}{span}"
        text(d, (ex + 6, TY + 11), label, S, "#ffffff" if live else "#8a8f98", anchor="lm")
    for row, cls in enumerate(CLASSES):
        y = RY + row * (CH + 4)
        d.rectangle((M, y, M + LW - 4, y + CH), fill=CLS_COLORS[cls])
        text(d, (M + (LW - 4) // 2, y + CH // 2), t(f"automobile.cls_short.{cls}", loc), S, "#000000", anchor="mm")
        for col, (sid, _, _year, cost) in enumerate(by_cls[cls]):
            x = X0 + col * CW
            live = col // 3 + 1 <= round_
            fill = "#3a3f48" if live else "#25282e"
            d.rectangle((x, y, x + CW - 4, y + CH), fill=fill, outline=CLS_COLORS[cls], width=1)
            text(d, (x + 6, y + 4), f"${cost}", S, "#ffffff" if live else "#8a8f98")
            name = fit(t(f"automobile.short.{sid}", loc), S, CW - 10)
            text(d, (x + 6, y + 23), name, S, "#e6e6e6" if live else "#7a7f88")
    # the middle band's and the table's fixed labels
    text(d, (M, MY), t("automobile.ui.lanes", loc), 18, "#ffffff")
    for row, cls in enumerate(CLASSES):
        y = MY + 28 + row * 36
        d.rectangle((M, y, M + LW - 4, y + 28), fill=CLS_COLORS[cls])
        text(d, (M + (LW - 4) // 2, y + 14), t(f"automobile.cls_short.{cls}", loc), S, "#000000", anchor="mm")
    text(d, (EX, MY), t("automobile.phase.6", loc), 18, "#ffffff")
    headers = [
        (36, t("automobile.ui.player", loc)),
        (250, t("automobile.ui.money", loc)),
        (340, t("automobile.ui.loans", loc)),
        (420, t("automobile.ui.loss_points", loc)),
        (520, t("automobile.ui.rd", loc)),
        (590, t("automobile.ui.dist_spare", loc)),
        (730, t("automobile.ui.cars_left", loc)),
        (830, t("automobile.ui.notes", loc)),
    ]
    for x, h in headers:
        text(d, (x, PY), h, S, "#9aa0a8")
    _legend(d, loc)
    return img


def _legend(d: ImageDraw.ImageDraw, loc: str) -> None:
    """What the icons mean, in the table's language (the loss fee is drawn per view)."""
    x, y = M, LY
    items: list[tuple[str, Any]] = [
        ("factory", lambda x: _factory(d, x, y, "#c8c8c8")),
        ("parts", lambda x: _disc(d, x, y, "#dddddd", t("automobile.ui.parts_mark", loc), size=21)),
        ("cars", lambda x: _cars(d, x, y, 3, "#c8c8c8")),
        ("bonus", lambda x: _disc(d, x, y + 1, BONUS, "+")),
        ("discount", lambda x: _disc(d, x, y + 1, DISCOUNT, "−")),
        ("dist", lambda x: _triangle(d, x, y, "#c8c8c8")),
    ]
    for key, icon in items:
        icon(x)
        x += {"cars": 40, "parts": 25}.get(key, 22)
        label = t(f"automobile.ui.legend.{key}", loc)
        text(d, (x, y + 10), label, S, "#c8c8c8", anchor="lm")
        x += int(length(label, S)) + 18


def draw(view: PublicView | dict[str, Any], locale: str = DEFAULT) -> bytes:
    """The board as PNG bytes, from the typed view (a dict is read as one)."""
    if isinstance(view, dict):
        view = SeatView.model_validate(view) if "hand" in view else PublicView.model_validate(view)
    loc = normalise(locale)
    key = tuple((sp.id, sp.cls, sp.year, sp.cost) for sp in view.spaces)
    base, runs = _base(loc, view.round, key)
    for size, s in runs:  # the cached layer's text is on this image too
        note_text(size, s)
    img = base.copy()
    d = ImageDraw.Draw(img)
    _header(d, view, loc)
    _track(d, view, loc)
    _lanes(d, view)
    _exec(d, view, loc)
    _characters(d, view, loc)
    _players(d, view, loc)
    if view.loss_fee and not view.finished:
        fee = t("automobile.ui.legend.loss", loc, fee=view.loss_fee)
        text(d, (W - M, LY + 10), fee, S, "#c8c8c8", anchor="rm")
    return to_png(img)


def _header(d: ImageDraw.ImageDraw, view: PublicView, loc: str) -> None:
    summary = (
        t("automobile.summary.over", loc)
        if view.finished
        else t("automobile.summary.round", loc, round=view.round, phase=t(f"automobile.phase.{view.phase}", loc))
    )
    x = M + int(length(t("automobile.name", loc), 24)) + 24
    text(d, (x, 12), summary, 22, "#e8c547")
    # the round's nine phases, the current one lit
    for ph in range(1, 10):
        bx = W - M - (10 - ph) * 28
        done = view.finished or ph < view.phase
        cur = not view.finished and ph == view.phase
        fill = "#e8c547" if cur else ("#556070" if done else "#2c3038")
        d.rectangle((bx, 10, bx + 24, 34), fill=fill, outline="#111111")
        text(d, (bx + 12, 22), str(ph), S, "#000000" if cur else "#c8c8c8", anchor="mm")


def _track(d: ImageDraw.ImageDraw, view: PublicView, loc: str) -> None:
    by_cls: dict[str, list[SpaceView]] = {c: [] for c in CLASSES}
    for sp in view.spaces:
        by_cls[sp.cls].append(sp)
    for row, cls in enumerate(CLASSES):
        y = RY + row * (CH + 4)
        for col, sp in enumerate(by_cls[cls]):
            x = X0 + col * CW
            owner = sp.owner
            if sp.closed:
                d.rectangle((x + 3, y + 44, x + CW - 7, y + CH - 4), fill="#141518", outline="#aa3333", width=2)
                text(d, (x + (CW - 4) // 2, y + 72), t("automobile.ui.closed", loc), S, "#ff7070", anchor="mm")
                continue
            if owner is None:
                continue
            col_ = _color(view, owner)
            d.rectangle((x, y, x + CW - 4, y + CH), outline=col_, width=4)
            for k in range(sp.factories):
                _factory(d, x + 4 + k * 18, y + 48, col_, view.symbol(owner))
            if sp.parts:
                mark = t("automobile.ui.parts_mark", loc)
                _disc(d, x + 59, y + 47, "#dddddd", mark, outline=col_, size=21)
            if sp.cars > 0:
                _cars(d, x + 5, y + 76, sp.cars, col_)
            if sp.bonus:
                _disc(d, x + 43, y + 77, BONUS, "+")
            if sp.discount:
                _disc(d, x + 62, y + 77, DISCOUNT, "−")
        # markers on spaces nobody owns (placed in phase 6 on any space)
        for col, sp in enumerate(by_cls[cls]):
            if sp.owner is None and not sp.closed and (sp.bonus or sp.discount):
                x = X0 + col * CW
                if sp.bonus:
                    _disc(d, x + 43, y + 77, BONUS, "+")
                if sp.discount:
                    _disc(d, x + 62, y + 77, DISCOUNT, "−")


def _lanes(d: ImageDraw.ImageDraw, view: PublicView) -> None:
    """Each class's sales lane: its slots (open ones lighter; the boxes of later
    rounds dark), the cars sold in seat colours; then the distributors waiting."""
    cap = view.lane_capacity
    boxes = max(1, len(view.boxes_open))
    per_box = max(1, cap // boxes) if cap else max(1, len(view.seats))
    total = per_box * 3
    for row, cls in enumerate(CLASSES):
        y = MY + 28 + row * 36
        sold = view.lanes.get(cls, [])
        for k in range(max(total, len(sold))):
            x = X0 + 4 + k * 22 + (k // per_box) * 8
            d.rectangle((x, y, x + 19, y + 28), fill="#3a3f48" if k < cap else "#1a1c20", outline="#555555")
            if k < len(sold):
                d.rectangle((x + 3, y + 3, x + 16, y + 25), fill=_color(view, sold[k]))
        x = X0 + 4 + total * 22 + 2 * 8 + 16
        for seat in view.seats:
            n = view.players[seat].dist[cls]
            if n:
                _triangle(d, x, y + 4, _color(view, seat))
                text(d, (x + 19, y + 14), str(n), S, _color(view, seat), anchor="lm")
                x += 36


def _exec(d: ImageDraw.ImageDraw, view: PublicView, loc: str) -> None:
    ex = view.exec
    none = t("automobile.ui.none", loc)
    lines: list[tuple[str, str]] = [
        (t("automobile.ui.exec_close", loc, n=ex.close), "#dddddd"),
        (t("automobile.ui.exec_bonus", loc, prices=", ".join(map(str, ex.bonus)) or none), BONUS),
        (t("automobile.ui.exec_discount", loc, groups=", ".join(map(str, ex.discount)) or none), DISCOUNT),
    ]
    if view.phase == 6 and ex.passed:
        names = ", ".join(view.label(s) for s in ex.passed)
        lines.append((t("automobile.ui.exec_passed", loc, names=names), "#aaaaaa"))
    if view.demand:
        dem = "  ".join(
            f"{t(f'automobile.cls_short.{c}', loc)} {view.demand.get(c, 0)}" for c in ("low", "mid", "high")
        )
        # shown from an earlier round (until this round's cards are turned up in phase 7): said so
        key = "automobile.ui.demand_round" if view.revealed_round >= view.round else "automobile.ui.demand_past"
        lines.append((t(key, loc, round=view.revealed_round) + ": " + dem, "#e8c547"))
    if isinstance(view, SeatView) and view.hand:
        lines.append((t("automobile.ui.hand", loc) + ": " + "  ".join(map(str, view.hand)), "#7fd0ff"))
    for k, (s, fill) in enumerate(lines[:5]):
        text(d, (EX, MY + 28 + k * 22), fit(s, S, W - M - EX), S, fill)


def _characters(d: ImageDraw.ImageDraw, view: PublicView, loc: str) -> None:
    """The six characters in board order (the order they act): taken ones in
    their holder's colour and name, free ones with the R&D lying on them."""
    cw = (W - 2 * M + 8) // 6
    for k, c in enumerate(CHARS):
        info = view.characters.get(c)
        holder = info.seat if info else None
        x = M + k * cw
        fill = _color(view, holder) if holder else "#2c3038"
        d.rectangle((x, CY, x + cw - 8, CY + 32), fill=fill, outline="#111111")
        label = t(f"automobile.char.{c}", loc)
        if holder:
            label += " · " + view.label(holder)
        elif info and info.rd:
            label += f"  +{info.rd} {t('automobile.ui.rd', loc)}"
        text(d, (x + 8, CY + 16), fit(label, S, cw - 22), S, _ink(fill), anchor="lm")


def _players(d: ImageDraw.ImageDraw, view: PublicView, loc: str) -> None:
    for k, seat in enumerate(view.seats):
        p = view.players[seat]
        y = PY + 24 + k * ROW
        colour = _color(view, seat)
        if seat in view.to_act:
            d.rectangle((M, y, W - M, y + ROW - 2), fill="#343a46")
            d.rectangle((M, y, M + 4, y + ROW - 2), fill="#e8c547")
        draw_symbol(d, view.symbol(seat), 23, y + 14, 8, colour, "#000000")
        text(d, (36, y + 14), fit(view.label(seat), 18, 200), 18, colour, anchor="lm")
        vals = [
            (250, f"${p.money}"),
            (340, str(p.loans)),
            (420, str(p.losses)),
            (520, str(p.rd)),
            (590, f"{sum(p.dist.values())} ({p.dist_supply})"),
            (730, str(p.cars_supply)),
        ]
        for x, v in vals:
            text(d, (x, y + 14), v, 18, "#ffffff", anchor="lm")
        notes = []
        if p.character:
            notes.append(t(f"automobile.char.{p.character}", loc))
        if seat in view.revealed:
            cards = " ".join(str(c) for c in view.revealed[seat])
            key = "automobile.ui.revealed" if view.revealed_round >= view.round else "automobile.ui.revealed_past"
            notes.append(t(key, loc, round=view.revealed_round, cards=cards))
        if p.arrears:
            notes.append(t("automobile.ui.arrears", loc, money=p.arrears))
        if view.scores:  # the result first: it is what matters at the end
            won = view.finished and view.scores.get(seat) == max(view.scores.values())
            result = [t("automobile.ui.score", loc, money=view.scores.get(seat, 0))]
            # at the end the result alone, so it is never the part cut off
            notes = result + ([t("automobile.ui.winner", loc)] if won else []) + ([] if view.finished else notes)
        text(d, (830, y + 14), fit("  ".join(notes), 18, W - M - 830), 18, "#e8c547", anchor="lm")

"""Automobile board image, drawn only from the typed view (``engine.automobile.models.PublicView``)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engine.automobile.models import PublicView, SeatView, SpaceView
from engine.i18n import normalise, t
from render.common import font, to_png

# Drawn in palette mode ("P"): a flat-colour board encodes about ten times faster
# as PNG than RGB, which keeps a full board under the 40 ms budget.
W, H = 1460, 740
BG = "#1d1f24"
SEAT_COLORS = ["#e05a4f", "#4f8fe0", "#5cc46a", "#e0c04f", "#b46ae0"]
CLS_COLORS = {"low": "#8a8f98", "mid": "#9a6b3f", "high": "#c9a640"}
CLASSES = ("high", "mid", "low")
CHARS = ("ford", "kettering", "sloan", "howard", "durant", "chrysler")


def _color(view: PublicView, seat: str | None) -> str:
    if seat is None or seat not in view.seats:
        return "#666666"
    lab = view.labels.get(seat)
    if lab is not None and lab.colour:
        return lab.colour
    return SEAT_COLORS[view.seats.index(seat) % len(SEAT_COLORS)]


def _fit(s: str, size: int, width: int) -> str:
    f = font(size)
    if f.getlength(s) <= width:
        return s
    while s and f.getlength(s + "…") > width:
        s = s[:-1]
    return s + "…"


@lru_cache(maxsize=4096)
def _glyphs(s: str, size: int) -> tuple[Image.Image, int, int, int, int]:  # mask, left, top, mid-x, mid-y
    """The rendered text as a 1-bit mask, cached: boards repeat the same short strings frame after frame,
    and rasterising them is most of a frame's cost."""
    f = font(size)
    left, top, right, bottom = (int(v) for v in f.getbbox(s))
    w, h = max(1, right - left), max(1, bottom - top)
    mask = Image.new("1", (w, h), 0)
    ImageDraw.Draw(mask).text((-left, -top), s, font=f, fill=1)
    mid = f.getbbox(s, anchor="mm")
    return mask, left, top, int(mid[0]), int(mid[1])


def text(
    d: ImageDraw.ImageDraw, xy: tuple[float, float], s: str, size: int = 16, fill: str = "#ffffff", anchor: str = "la"
) -> None:
    """Like render.common.text (left/top or middle/middle anchors) but from the mask cache."""
    if not s:
        return
    mask, left, top, mid_x, mid_y = _glyphs(s, size)
    x, y = xy
    if anchor == "mm":
        x, y = x + mid_x, y + mid_y
    else:
        x, y = x + left, y + top
    d.bitmap((int(x), int(y)), mask, fill=fill)


CW, CH, TX, TY = 113, 112, 20, 60
TRACK_X, TRACK_Y = 700, 12
DY = TY + 22 + 3 * (CH + 6) + 10
DIST_X = 118 + 15 * 20 + 2 * 8 + 14
COLS = [20, 230, 340, 420, 560, 630, 720, 800]


@lru_cache(maxsize=16)
def _base(loc: str, round_: int, spaces_key: tuple[tuple[int, str, int, str, str, int], ...]) -> Image.Image:
    """Everything that does not change within a round: titles, the model track's printed spaces, labels."""
    zh = loc == "zh"
    img = Image.new("P", (W, H), BG)
    d = ImageDraw.Draw(img)
    text(d, (20, 12), "汽车传奇 Automobile" if zh else "Automobile", 26, "#ffffff")
    for r in range(1, 5):
        for ph in range(1, 10):
            x = TRACK_X + (r - 1) * 182 + (ph - 1) * 19
            fill = "#556070" if r < round_ else "#2c3038"
            d.rectangle((x, TRACK_Y, x + 16, TRACK_Y + 16), fill=fill, outline="#111111")
            text(d, (x + 8, TRACK_Y + 8), str(ph), 10, "#cccccc", anchor="mm")
        text(
            d,
            (TRACK_X + (r - 1) * 182 + 85, TRACK_Y + 28),
            f"{t('automobile.ui.round', loc)} {r}",
            12,
            "#aaaaaa",
            anchor="mm",
        )
    by_cls: dict[str, list[tuple[int, str, int, str, str, int]]] = {c: [] for c in CLASSES}
    for sp in spaces_key:
        by_cls[sp[1]].append(sp)
    for era in range(1, 5):
        ex = TX + 70 + (era - 1) * 3 * CW
        d.rectangle((ex, TY, ex + 3 * CW - 4, TY + 18), fill="#2c3038")
        text(d, (ex + 4, TY + 2), f"{t('automobile.ui.era', loc)} {era}", 13, "#cccccc")
    for row, cls in enumerate(CLASSES):
        y = TY + 22 + row * (CH + 6)
        d.rectangle((TX, y, TX + 64, y + CH), fill=CLS_COLORS[cls])
        text(d, (TX + 32, y + CH // 2), t(f"automobile.cls.{cls}", loc), 12, "#000000", anchor="mm")
        for col, (_, _, year, name, name_zh, cost) in enumerate(by_cls[cls]):
            x = TX + 70 + col * CW
            era = col // 3 + 1
            bg = "#3a3f48" if era <= round_ else "#25282e"
            d.rectangle((x, y, x + CW - 4, y + CH), fill=bg, outline=CLS_COLORS[cls], width=2)
            text(d, (x + 4, y + 3), f"{year}  ${cost}", 12, "#dddddd")
            text(d, (x + 4, y + 18), _fit(name_zh if zh else name, 12, CW - 10), 12, "#bbbbbb")
    for row, cls in enumerate(CLASSES):
        y = DY + 26 + row * 34
        d.rectangle((20, y, 110, y + 28), fill=CLS_COLORS[cls])
        text(d, (65, y + 14), t(f"automobile.cls.{cls}", loc), 13, "#000000", anchor="mm")
        text(d, (DIST_X, y + 6), t("automobile.ui.dist", loc) + ":", 12, "#aaaaaa")
    text(d, (720, DY), t("automobile.ui.exec", loc), 16, "#ffffff")
    headers = [
        "",
        t("automobile.ui.money", loc),
        t("automobile.ui.loans", loc),
        t("automobile.ui.losses", loc),
        t("automobile.ui.rd", loc),
        t("automobile.ui.dist", loc),
        t("automobile.ui.cars", loc),
        "",
    ]
    for h, x in zip(headers, COLS):
        text(d, (x, DY + 140), h, 13, "#aaaaaa")
    return img


def draw(view: PublicView | dict[str, Any], locale: str = "en") -> bytes:
    """The board as PNG bytes, from the typed view (a dict is read as one)."""
    if isinstance(view, dict):
        view = SeatView.model_validate(view) if "hand" in view else PublicView.model_validate(view)
    loc = normalise(locale)
    spaces = view.spaces
    key = tuple((sp.id, sp.cls, sp.year, sp.name, sp.name_zh, sp.cost) for sp in spaces)
    img = _base(loc, view.round, key).copy()
    d = ImageDraw.Draw(img)

    # ---------------------------------------------------------- header
    summary = (
        t("automobile.summary.over", loc)
        if view.finished
        else (t("automobile.summary.round", loc, round=view.round, phase=t(f"automobile.phase.{view.phase}", loc)))
    )
    text(d, (320, 18), summary, 18, "#e8c547")
    # round / phase track: only the current phase is drawn over the printed track
    if not view.finished:
        x = TRACK_X + (view.round - 1) * 182 + (view.phase - 1) * 19
        d.rectangle((x, TRACK_Y, x + 16, TRACK_Y + 16), fill="#e8c547", outline="#111111")
        text(d, (x + 8, TRACK_Y + 8), str(view.phase), 10, "#000000", anchor="mm")

    # ------------------------------------------------------ model track
    by_cls: dict[str, list[SpaceView]] = {c: [] for c in CLASSES}
    for sp in spaces:
        by_cls[sp.cls].append(sp)
    cw, ch, tx, ty = CW, CH, TX, TY
    for row, cls in enumerate(CLASSES):
        y = ty + 22 + row * (ch + 6)
        for col, sp in enumerate(by_cls[cls]):
            x = tx + 70 + col * cw
            if sp.closed:
                d.rectangle((x + 4, y + 36, x + cw - 8, y + 60), fill="#111111", outline="#aa3333")
                text(d, (x + cw // 2 - 2, y + 48), t("automobile.ui.closed", loc), 13, "#ff6666", anchor="mm")
            owner = sp.owner
            if owner is not None and not sp.closed:
                col_ = _color(view, owner)
                for k in range(sp.factories):
                    fx = x + 6 + k * 24
                    d.polygon(
                        [
                            (fx, y + 60),
                            (fx, y + 44),
                            (fx + 8, y + 38),
                            (fx + 8, y + 44),
                            (fx + 16, y + 38),
                            (fx + 20, y + 38),
                            (fx + 20, y + 60),
                        ],
                        fill=col_,
                        outline="#000000",
                    )
                if sp.parts:
                    px = x + 6 + 3 * 24
                    d.ellipse((px, y + 40, px + 18, y + 58), fill="#dddddd", outline=col_, width=3)
                    text(d, (px + 9, y + 49), "P", 11, "#000000", anchor="mm")
            if owner is not None and sp.cars > 0:
                col_ = _color(view, owner)
                d.rectangle((x + 4, y + 66, x + 60, y + 86), fill=col_, outline="#000000")
                text(d, (x + 32, y + 76), f"{sp.cars}", 13, "#000000", anchor="mm")
            if sp.bonus:
                d.ellipse((x + 64, y + 66, x + 84, y + 86), fill="#3fbf7f", outline="#000000")
                text(d, (x + 74, y + 76), "+", 14, "#000000", anchor="mm")
            if sp.discount:
                d.ellipse((x + 88, y + 66, x + 108, y + 86), fill="#e07a3f", outline="#000000")
                text(d, (x + 98, y + 76), "−", 14, "#000000", anchor="mm")
            if owner is not None:
                d.rectangle((x + 4, y + 96, x + cw - 8, y + 104), fill=_color(view, owner))

    # -------------------------------------------------- distribution area
    dy = ty + 22 + 3 * (ch + 6) + 10
    text(d, (20, dy), t("automobile.ui.lanes", loc) + "  (" + ", ".join(view.boxes_open) + ")", 16, "#ffffff")
    cap = view.lane_capacity
    boxes_total = 3
    per_box = cap // max(1, len(view.boxes_open) or 1) if cap else 0
    total_slots = per_box * boxes_total if per_box else 0
    for row, cls in enumerate(CLASSES):
        y = dy + 26 + row * 34
        sold = view.lanes.get(cls, [])
        for k in range(max(total_slots, len(sold))):
            x = 118 + k * 20 + (k // per_box) * 8 if per_box else 118 + k * 20
            open_ = k < cap
            d.rectangle((x, y + 2, x + 17, y + 26), fill="#3a3f48" if open_ else "#1a1c20", outline="#555555")
            if k < len(sold):
                d.rectangle((x + 3, y + 5, x + 14, y + 23), fill=_color(view, sold[k]))
        # distributors waiting in the big square of this class
        cx = DIST_X + 72
        for seat in view.seats:
            n = view.players[seat].dist[cls]
            if n:
                d.polygon(
                    [(cx, y + 24), (cx + 8, y + 4), (cx + 16, y + 24)], fill=_color(view, seat), outline="#000000"
                )
                text(d, (cx + 18, y + 6), str(n), 13, _color(view, seat))
                cx += 34

    # --------------------------------------------------- executive area
    ex, ey = 720, dy
    ex_ = view.exec
    text(d, (ex, ey + 26), f"{t('automobile.action.exec.close', loc)}: {ex_.close}", 13, "#cccccc")
    text(d, (ex, ey + 46), "+ " + " ".join(f"[{p}]" for p in ex_.bonus) + " R&D", 13, "#3fbf7f")
    text(d, (ex, ey + 66), "− " + " ".join(f"[{g}]" for g in ex_.discount), 13, "#e07a3f")
    # characters
    cx = ex + 190
    for k, c in enumerate(CHARS):
        info = view.characters.get(c)
        x = cx + (k % 3) * 170
        y = ey + 22 + (k // 3) * 40
        holder = info.seat if info else None
        d.rectangle((x, y, x + 162, y + 34), fill=_color(view, holder) if holder else "#2c3038", outline="#111111")
        label = t(f"automobile.char.{c}", loc) + (f"  R&D {info.rd}" if info and info.rd else "")
        text(d, (x + 6, y + 4), label, 13, "#000000" if holder else "#dddddd")
        if holder:
            text(d, (x + 6, y + 19), _fit(view.label(holder), 11, 150), 11, "#000000")

    # demand
    yy = ey + 99
    if view.demand:
        dem = view.demand
        text(
            d,
            (ex, yy),
            t("automobile.ui.demand_round", loc, round=view.revealed_round)
            + ": "
            + "  ".join(f"{t(f'automobile.cls.{c}', loc)} {dem.get(c, 0)}" for c in ("low", "mid", "high")),
            13,
            "#e8c547",
        )
        yy += 18
    if isinstance(view, SeatView) and view.hand:
        text(d, (ex, yy), t("automobile.ui.hand", loc) + ": " + "  ".join(str(c) for c in view.hand), 13, "#7fd0ff")

    # ------------------------------------------------------ player table
    py = dy + 140
    cols = COLS
    for k, seat in enumerate(view.seats):
        p = view.players[seat]
        y = py + 20 + k * 24
        cur = seat in view.to_act
        if cur:
            d.rectangle((16, y - 2, W - 20, y + 20), fill="#30343c")
        d.rectangle((20, y + 2, 34, y + 16), fill=_color(view, seat))
        text(d, (40, y), _fit(view.label(seat), 14, 180), 14, "#ffffff")
        discs, cubes = divmod(p.losses, 5)
        vals = [
            f"${p.money}",
            str(p.loans),
            f"{p.losses} (●{discs} ■{cubes})",
            str(p.rd),
            f"{sum(p.dist.values())}/{p.dist_supply}",
            str(p.cars_supply),
        ]
        for v, x in zip(vals, cols[1:]):
            text(d, (x, y), v, 14, "#ffffff")
        extra = []
        if p.character:
            extra.append(t(f"automobile.char.{p.character}", loc))
        if p.arrears:
            extra.append(f"-${p.arrears}")
        if seat in view.revealed:
            extra.append(
                t(
                    "automobile.ui.revealed",
                    loc,
                    round=view.revealed_round,
                    cards=" ".join(str(c) for c in view.revealed[seat]),
                )
            )
        if view.scores:
            extra.append(f"= ${view.scores.get(seat, 0)}")
        text(d, (cols[-1], y), "  ".join(extra), 14, "#e8c547")
    return to_png(img)

"""Thunder Road: Vendetta board image: the three road tiles (forward = right), hazards,
vehicles by crew colour and size, choppers, the finish line, the road die and each
crew's dashboard.  Works on the typed view (``TRView``) only -- the geometry, terrain,
tile names and colours all come in it; the terrain layer is cached per table."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engine.i18n import t
from engine.thunder_road.models import BoardView, TRView, VehicleView

from .common import canvas, font, to_png
from .common import text as _plain_text

S = 16  # hex radius (px)
XU = math.sqrt(3) * S / 2  # px per doubled row (forward)
YU = 1.5 * S  # px per column (across)
LEFT = 58  # start area
TOP = 50
DASH_ROW = 34


def _size(b: BoardView) -> tuple[int, int]:
    """Board image width and height for ``b`` (y runs to 2 * rows doubled rows)."""
    return int(LEFT + XU * (2 * b.rows + 1) + 46), int(TOP + YU * (b.columns - 1) + 2 * S + 10)


TERRAIN = {"R": "#5b5f66", "O": "#b39463", "M": "#6e4b25", "X": "#26272b", "H": "#6a6f77"}
HAZARD_UP = {"road": "#5b5f66", "mud": "#6e4b25", "oil": "#0d0d0f", "fire": "#f97316"}
MARK_COLOUR = {
    "eliminate": "#ef4444",
    "chopper": "#ef4444",
    "slam": "#f59e0b",
    "hazard": "#f59e0b",
    "oil": "#f59e0b",
    "mud": "#f59e0b",
    "mud_end": "#f59e0b",
    "drift": "#38bdf8",
    "finish": "#ffffff",
}
LEN = {"bike": 10, "small": 14, "medium": 18, "large": 22, "rig": 28}
WID = {"bike": 5, "small": 8, "medium": 9, "large": 11, "rig": 12}


@lru_cache(maxsize=2048)
def _label(s: str, size: int, fill: str) -> tuple[Image.Image, int, int]:
    """A rendered text label (RGBA) and its anchor offsets; labels repeat a lot."""
    f = font(size)
    box = f.getbbox(s)
    w, h = int(max(1, box[2] - min(0, box[0]) + 2)), int(max(1, box[3] + 2))
    im = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    ImageDraw.Draw(im).text((0, 0), s, font=f, fill=fill)
    return im, w, h


def text(
    d: ImageDraw.ImageDraw, xy: tuple[float, float], s: str, size: int = 16, fill: str = "#ffffff", anchor: str = "la"
) -> None:
    img = getattr(d, "_image_ref", None)
    if img is None:
        _plain_text(d, xy, s, size, fill, anchor)
        return
    im, w, h = _label(s, size, fill)
    x, y = xy
    if anchor[0] == "m":
        x -= w / 2
    elif anchor[0] == "r":
        x -= w
    if anchor[1] == "m":
        y -= h / 2 + 1
    img.paste(im, (int(x), int(y)), im)


def _center(c: int, y: int) -> tuple[float, float]:
    return LEFT + XU * (y + 1), TOP + S + YU * c


def _hex(cx: float, cy: float, r: float = S) -> list[tuple[float, float]]:
    return [
        (cx + r * math.cos(math.radians(60 * i + 30)), cy + r * math.sin(math.radians(60 * i + 30))) for i in range(6)
    ]


def _terrain_layer(b: BoardView, locale: str) -> Image.Image:
    return _terrain_cached(b.columns, b.rows, b.tile_rows, tuple(b.terrain), tuple(b.tile_names), locale)


@lru_cache(maxsize=32)
def _terrain_cached(
    columns: int, rows: int, tile_rows: int, terrain: tuple[str, ...], names: tuple[str, ...], locale: str
) -> Image.Image:
    board_w, board_h = _size(
        BoardView(columns=columns, rows=rows, tile_rows=tile_rows, tiles=[], tile_names=[], terrain=[])
    )
    img, d = canvas(board_w, board_h, "#1d1f24")
    d.rectangle((4, TOP - 4, LEFT - 8, board_h - 6), fill="#2d3038", outline="#444")
    text(d, (LEFT // 2 - 2, TOP - 18), t("thunder_road.render.start_area", locale), 12, "#bbbbbb", "ma")
    for r in range(rows):
        for c in range(columns):
            kind = terrain[r][c]
            cx, cy = _center(c, 2 * r + c % 2)
            d.polygon(_hex(cx, cy, S - 0.5), fill=TERRAIN.get(kind, "#888888"), outline="#30333a")
            if kind == "X":
                d.polygon(_hex(cx, cy, S - 3), outline="#facc15")
                d.polygon(_hex(cx, cy, S - 6), outline="#facc15")
            elif kind == "H":
                for dx in (-4, 3):
                    d.polygon([(cx + dx - 3, cy + 4), (cx + dx + 3, cy + 4), (cx + dx, cy - 4)], outline="#ef4444")
    th = 2 * tile_rows
    for i in range(1, len(names)):
        x = LEFT + XU * (i * th)
        d.line((x, TOP - 6, x, board_h - 6), fill="#e5e7eb", width=2)
    for i, name in enumerate(names):
        x = LEFT + XU * (i * th + th / 2)
        text(d, (x, TOP - 22), name, 12, "#dddddd", "ma")
    return img


def _car(d: ImageDraw.ImageDraw, cx: float, cy: float, v: VehicleView, colour: str) -> None:
    ln, wd = LEN.get(v.size, 14), WID.get(v.size, 8)
    if v.kind == "wreck":
        d.rectangle((cx - 7, cy - 5, cx + 7, cy + 5), fill="#0b0b0b", outline="#9ca3af")
        d.line((cx - 6, cy - 4, cx + 6, cy + 4), fill="#9ca3af")
        return
    turned = not v.operable
    fill = colour if not turned else _dim(colour)
    d.rectangle(
        (cx - ln / 2, cy - wd / 2, cx + ln / 2, cy + wd / 2),
        fill=fill,
        outline="#f97316" if v.on_fire else "#111111",
        width=2 if v.on_fire else 1,
    )
    # nose: points forward (right); an inoperable car is turned to face backwards
    nx = cx - ln / 2 if turned else cx + ln / 2
    sgn = -1 if turned else 1
    d.polygon([(nx, cy - wd / 2 + 1), (nx, cy + wd / 2 - 1), (nx + sgn * 4, cy)], fill="#ffffff")
    for i in range(v.damage):
        d.ellipse((cx - ln / 2 + 2 + i * 5, cy - 2, cx - ln / 2 + 5 + i * 5, cy + 1), fill="#dc2626")


def _dim(hexcol: str) -> str:
    h = hexcol.lstrip("#")
    r, g, b = (int(h[i : i + 2], 16) for i in (0, 2, 4))
    return f"#{r // 3:02x}{g // 3:02x}{b // 3:02x}"


def _dice(d: ImageDraw.ImageDraw, x: int, y: int, values: list[int], fill: str, fg: str) -> int:
    for v in values:
        d.rounded_rectangle((x, y, x + 18, y + 18), radius=3, fill=fill, outline="#111")
        text(d, (x + 9, y + 9), str(v), 12, fg, "mm")
        x += 21
    return x


def draw(view: TRView | dict[str, Any], locale: str = "en") -> bytes:
    """The board image of a view (a ``TRView``, or its JSON data)."""
    v = view if isinstance(view, TRView) else TRView.model_validate(view)  # a view, or its JSON data
    b = v.board
    board_w, board_h = _size(b)
    ymax = 2 * b.rows
    col_of = {c.seat: c.colour_hex for c in v.crews}
    base = _terrain_layer(b, locale)
    height = board_h + 30 + DASH_ROW * len(v.crews) + 8
    img = Image.new("RGB", (board_w, height), "#1d1f24")
    img.paste(base, (0, 0))
    d = ImageDraw.Draw(img)
    d._image_ref = img  # type: ignore[attr-defined]
    # header
    hdr = [
        t("thunder_road.render.round", locale, n=v.round),
        t("thunder_road.render.road_die", locale, n=v.road_die),
        t("thunder_road.render.tile", locale, n=v.tiles_placed),
    ]
    text(d, (8, 6), "  ·  ".join(hdr), 15, "#facc15")
    if v.winners:
        won = ", ".join(v.label(w) for w in v.winners)
        text(d, (board_w - 8, 6), t("thunder_road.render.winner", locale, seats=won), 15, "#4ade80", "ra")
    # finish line
    if v.final:
        x0 = LEFT + XU * (ymax + 0.4)
        for i in range(int((board_h - TOP) / 8)):
            for j in range(2):
                if (i + j) % 2 == 0:
                    d.rectangle((x0 + j * 8, TOP - 4 + i * 8, x0 + j * 8 + 8, TOP + 4 + i * 8), fill="#f5f5f5")
        text(d, (x0 + 8, TOP - 22), t("thunder_road.render.finish", locale), 12, "#ffffff", "ma")
    # hazards
    for hz in v.hazards:
        c, y = hz.pos
        if not (0 <= c < b.columns and 0 <= y < ymax):
            continue
        cx, cy = _center(c, y)
        if hz.up:
            d.polygon(_hex(cx, cy, S - 2), fill=HAZARD_UP.get(hz.type or "", "#999"))
            if hz.type in ("oil", "fire"):
                d.ellipse((cx - 5, cy - 4, cx + 5, cy + 4), outline="#94a3b8" if hz.type == "oil" else "#fde047")
        else:
            d.ellipse((cx - 8, cy - 8, cx + 8, cy + 8), fill="#7f1d1d", outline="#fca5a5")
            text(d, (cx, cy), "?", 12, "#fecaca", "mm")
    # choppers
    for crew in v.crews:
        if crew.chopper:
            cx, cy = _center(*crew.chopper)
            d.ellipse((cx - 9, cy - 9, cx + 9, cy + 9), outline=col_of[crew.seat], width=3)
            d.line((cx - 8, cy - 8, cx + 8, cy + 8), fill="#e5e7eb", width=2)
            d.line((cx - 8, cy + 8, cx + 8, cy - 8), fill="#e5e7eb", width=2)
    # vehicles
    starting = [w for w in v.vehicles if w.where == "start"]
    step = min(18.0, (board_h - TOP - 16) / max(1, len(starting)))
    for i, w in enumerate(starting):
        _car(d, LEFT / 2 - 4, TOP + 8 + i * step, w, col_of.get(w.owner or "", "#111"))
    for w in v.vehicles:
        if w.where == "road" and w.pos is not None:
            cx, cy = _center(*w.pos)
            _car(d, cx, cy, w, col_of.get(w.owner or "", "#111"))
    # current mover highlight
    if v.pending is not None and v.pending.car:
        for w in v.vehicles:
            if w.id == v.pending.car and w.pos is not None:
                cx, cy = _center(*w.pos)
                d.polygon(_hex(cx, cy, S - 1), outline="#facc15")
    # where the car to move may go next (buttons' marks): green safe, amber risky, red deadly
    for ch in v.choices:
        c, y = ch.pos
        if not (0 <= c < b.columns and 0 <= y < ymax):
            continue
        cx, cy = _center(c, y)
        d.ellipse((cx - 4, cy - 4, cx + 4, cy + 4), outline=MARK_COLOUR.get(ch.mark, "#4ade80"), width=2)
    # dashboards
    y0 = board_h + 24
    text(
        d,
        (8, y0 - 18),
        t("thunder_road.render.dice", locale)
        + " / "
        + t("thunder_road.render.damage", locale)
        + " / "
        + t("thunder_road.render.coasts", locale),
        12,
        "#9ca3af",
    )
    for crew in v.crews:
        colour = col_of[crew.seat]
        d.rectangle((8, y0 + 2, 20, y0 + 26), fill=colour)
        name = f"{v.label(crew.seat)} · {t('thunder_road.crew.' + crew.crew, locale)}"
        if crew.out:
            name += " · " + t("thunder_road.render.out", locale)
        if crew.seat in v.to_act:
            name = "▶ " + name
        text(d, (26, y0 + 1), name[:34], 13, "#ffffff" if not crew.out else "#6b7280")
        x = 250
        if not crew.out:
            x = _dice(d, x, y0 + 6, crew.dice, "#f8fafc", "#111")
            x = _dice(d, x + 4, y0 + 6, crew.used, "#4b5563", "#d1d5db")
        x = max(x + 8, 250 + 21 * 4 + 10)
        mine = [w for w in v.vehicles if w.owner == crew.seat]
        step_x = min(84, int((board_w - 8 - x) / max(1, len(mine))))
        for w in mine:
            label = t(f"thunder_road.vehicle.{w.name}", locale)
            state = f"{w.damage}/{w.capacity}"
            if crew.coasting:
                state += f" C{w.coasts}"
            fg = "#ffffff" if w.operable else "#f87171"
            text(d, (x, y0 + 2), label, 12, fg)
            text(d, (x, y0 + 17), state + (" ✓" if w.moved else ""), 11, "#cbd5e1")
            x += step_x
        y0 += DASH_ROW
    return to_png(img.quantize(colors=96, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE))

"""Thunder Road: Vendetta board image: the three road tiles (forward = right), hazards,
vehicles by seat colour and size, choppers, the finish line, each crew's dashboard and a
legend.  Works on the typed view (``TRView``) only -- the geometry, terrain, tile faces
and seat colours all come in it; the terrain layer is cached per table.

Sized for Discord's inline display (``render.common.DISPLAY_BOX``): the image is about
1230 px wide and shown about 550 px wide, so every text is at least 18 px.  Spaces are
named as the buttons name them (``engine.thunder_road.content.space_name``): lane letters
A.. across the road at both ends, row numbers along both edges.  The numbered discs are
the platform's ``view.marks``: each offered car move's destination with the number its
button starts with."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engine.i18n import t
from engine.locales import DEFAULT
from engine.thunder_road.models import BoardView, CrewView, TRView, VehicleView
from render.thunder_road_words import describe as describe  # the image in words: its description's hook

from .common import draw_symbol, fit, ink_on, length, note_text, recorded_text, rgb, shades, text, to_png

S = 24  # hex radius (px)
XU = math.sqrt(3) * S / 2  # px per doubled row (forward)
YU = 1.5 * S  # px per column (across)
LEFT = 160  # the start area and the lane letters sit left of the road
TOP = 112  # header, tile names and row numbers sit above the road
RIGHT = 50  # finish line and lane letters
DASH_ROW = 50
SMALL = 18  # the smallest text: 18 px at ~1230 px wide reads ~8 px inline
BG = "#1d1f24"


def _size(b: BoardView) -> tuple[int, int]:
    """Width of the image and the bottom of the road area (row numbers below it included)."""
    return int(LEFT + XU * (2 * b.rows + 1) + RIGHT), int(TOP + YU * (b.columns - 1) + 2 * S + 30)


TERRAIN = {"R": "#5b5f66", "O": "#b39463", "M": "#6e4b25", "X": "#2a2b30", "H": "#6a6f77"}
HAZARD_UP = {"road": "#5b5f66", "mud": "#6e4b25", "oil": "#0d0d0f", "fire": "#f97316"}
MARK_COLOUR = {
    "eliminate": "#ef4444",
    "chopper": "#ef4444",
    "slam": "#f59e0b",
    "hazard": "#f59e0b",
    "oil": "#f59e0b",
    "mud": "#f59e0b",
    "mud_end": "#f59e0b",
    "drift": "#f472b6",
    "finish": "#ffffff",
}
#: vehicle outline (length along the road, width across): sizes differ at a glance
LEN = {"bike": 22, "small": 24, "medium": 32, "large": 40, "rig": 44}
WID = {"bike": 9, "small": 14, "medium": 18, "large": 22, "rig": 24}
HILITE = "#facc15"
NEXT = "#22d3ee"  # a space a car may drive to next (cyan: no seat colour is near it)
#: every text colour with the ground it is drawn on: the palette holds the shades
#: between the two (``render.common.shades``), for the letters' anti-aliased edges
TEXT_ON = (
    ("#facc15", BG),  # header
    ("#4ade80", BG),  # winner
    ("#ffffff", BG),  # to drive, finish, names
    ("#ffffff", "#2a2d35"),  # the name of a crew to act
    ("#6b7280", BG),  # a crew that is out
    ("#6b7280", "#2a2d35"),
    ("#fecaca", "#7f1d1d"),  # a face-down hazard's "?"
    ("#111111", HILITE),  # a destination's number
    ("#d1d5db", "#4b5563"),  # a used die
    ("#111111", "#f8fafc"),  # a free die
    ("#9ca3af", BG),  # legend
    ("#d1d5db", BG),  # the terrain layer: start area, tile names, lanes, rows
    ("#f3f4f6", BG),
    ("#fde68a", BG),
    ("#cbd5e1", BG),
)
#: the colours the board draws in besides the seats' (exact in its palette)
DRAWN = (
    BG, HILITE, NEXT, *TERRAIN.values(), *HAZARD_UP.values(), *MARK_COLOUR.values(),
    "#111111", "#ffffff", "#9ca3af", "#fecaca", "#fde68a", "#fde047", "#fca5a5", "#e5e7eb", "#dc2626",
    "#d1d5db", "#cbd5e1", "#7f1d1d", "#6b7280", "#64748b", "#4b5563", "#4ade80", "#f8fafc", "#f5f5f5",
    "#f3f4f6", "#999999", "#94a3b8", "#888888", "#7dd3fc", "#30333a", "#2d3038", "#2a2d35", "#1f2937",
    "#111827", "#0b0b0b",
)  # fmt: skip
#: colours with a meaning on the board, the ground a car stands on included: no seat
#: colour comes close (render.common.MIN_MEANING_DELTA, tests/test_seat_colours.py)
MEANINGFUL = {
    "moving": HILITE,
    "next": NEXT,
    "eliminate": MARK_COLOUR["eliminate"],
    "hazard": MARK_COLOUR["hazard"],
    "drift": MARK_COLOUR["drift"],
    "road": TERRAIN["R"],
    "off_road": TERRAIN["O"],
    "mud": TERRAIN["M"],
    "hazard_space": TERRAIN["H"],
    "fire": HAZARD_UP["fire"],
}
#: the seats' colours in seat order (and their squares in texts): any first 2..5 of them
#: keep render.common.MIN_SEAT_DELTA apart in normal and colour-blind vision (docs/rulings.md)
SEATS = (("#5a5ad2", "🟦"), ("#b4ffff", "⬜"), ("#f0ffb4", "🟨"), ("#c3b4a5", "🟫"), ("#9696ff", "🟪"))


def _center(c: int, y: int) -> tuple[float, float]:
    return LEFT + XU * (y + 1), TOP + S + YU * c


def _hex(cx: float, cy: float, r: float = S) -> list[tuple[float, float]]:
    return [
        (cx + r * math.cos(math.radians(60 * i + 30)), cy + r * math.sin(math.radians(60 * i + 30))) for i in range(6)
    ]


# ------------------------------------------------------------------ palette and terrain (cached)
@lru_cache(maxsize=1)
def palette() -> tuple[int, ...]:
    """The board's palette (flat RGB): every colour in :data:`DRAWN`, then the text shades
    of :data:`TEXT_ON`; a seat's colours are added as a board draws them.  The board is
    drawn straight onto a palette image: it needs no colour mapping afterwards and
    encodes as PNG several times faster than an RGB one (docs/performance.md)."""
    colours = [rgb(c) for c in DRAWN] + [c for fg, ground in TEXT_ON for c in shades(fg, ground)]
    return tuple(v for c in dict.fromkeys(colours) for v in c)


def _canvas(width: int, height: int) -> Image.Image:
    img = Image.new("P", (width, height), 0)  # palette index 0: BG
    img.putpalette(palette())
    return img


@lru_cache(maxsize=8)
def _blank(key: tuple, width: int, height: int) -> Image.Image:
    """A board of this size with the (cached) terrain layer of ``key`` on it, to copy."""
    img = _canvas(width, height)
    img.paste(_terrain_cached(*key)[0], (0, 0))
    return img


def _terrain_key(b: BoardView, locale: str) -> tuple:
    return (b.columns, b.rows, b.tile_rows, tuple(b.terrain), tuple(b.tiles), tuple(b.lanes), locale)


def _terrain_layer(b: BoardView, locale: str) -> Image.Image:
    img, runs = _terrain_cached(*_terrain_key(b, locale))
    for size, s in runs:  # the cached layer's texts are drawn in every image
        note_text(size, s)
    return img


@lru_cache(maxsize=32)
def _terrain_cached(
    columns: int,
    rows: int,
    tile_rows: int,
    terrain: tuple[str, ...],
    tiles: tuple[str, ...],
    lanes: tuple[str, ...],
    locale: str,
) -> tuple[Image.Image, tuple[tuple[int, str], ...]]:
    """The terrain layer and its texts (recorded apart: every board records them once)."""
    with recorded_text():
        return _draw_terrain(columns, rows, tile_rows, terrain, tiles, lanes, locale)


def _draw_terrain(
    columns: int,
    rows: int,
    tile_rows: int,
    terrain: tuple[str, ...],
    tiles: tuple[str, ...],
    lanes: tuple[str, ...],
    locale: str,
) -> tuple[Image.Image, tuple[tuple[int, str], ...]]:
    board_w, road_bottom = _size(
        BoardView(columns=columns, rows=rows, tile_rows=tile_rows, tiles=[], tile_names=[], terrain=[])
    )
    img = _canvas(board_w, road_bottom)
    d = ImageDraw.Draw(img)
    runs: list[tuple[int, str]] = []

    def label(xy: tuple[float, float], s: str, size: int, fill: str, anchor: str) -> None:
        text(d, xy, s, size, fill, anchor, ground=BG)
        runs.append((size, s))

    bottom = TOP + YU * (columns - 1) + 2 * S
    d.rounded_rectangle((8, TOP - 2, LEFT - 34, bottom + 2), radius=8, fill="#2d3038", outline="#4b5563")
    label(((8 + LEFT - 34) / 2, TOP - 30), t("thunder_road.render.start_area", locale), 20, "#d1d5db", "mm")
    for r in range(rows):
        for c in range(columns):
            kind = terrain[r][c]
            cx, cy = _center(c, 2 * r + c % 2)
            d.polygon(_hex(cx, cy, S - 0.5), fill=TERRAIN.get(kind, "#888888"), outline="#30333a")
            if kind == "X":  # impassable: boulders
                for bx, by, br in ((-7, 3, 7), (6, 5, 6), (1, -7, 6)):
                    d.ellipse(
                        (cx + bx - br, cy + by - br, cx + bx + br, cy + by + br), fill="#6b7280", outline="#111111"
                    )
            elif kind == "H":
                _empty_hazard(d, cx, cy)
    # tiles: borders and names
    th = 2 * tile_rows
    for i in range(1, len(tiles)):
        x = LEFT + XU * (i * th + 0.5)
        d.line((x, TOP - 50, x, bottom + 4), fill="#e5e7eb", width=3)
    for i, face in enumerate(tiles):
        x = LEFT + XU * (i * th + th / 2 + 0.5)
        label((x, TOP - 62), t(f"thunder_road.tile.{face}", locale), 20, "#f3f4f6", "mm")
    # coordinates, as the buttons name spaces: lane letters at both ends, rows along both edges
    for c in range(columns):
        _, cy = _center(c, 0)
        name = lanes[c] if c < len(lanes) else str(c + 1)
        label((LEFT - 16, cy), name, 20, "#fde68a", "mm")
        label((board_w - 16, cy), name, 20, "#fde68a", "mm")
    for r in range(rows):
        x, _ = _center(0, 2 * r)
        label((x, TOP - 14), str(r + 1), SMALL, "#cbd5e1", "mm")
        x, _ = _center(columns - 1, 2 * r + (columns - 1) % 2)
        label((x, bottom + 14), str(r + 1), SMALL, "#cbd5e1", "mm")
    _same_palette(img, "terrain layer")
    return img, tuple(runs)


# ------------------------------------------------------------------ vehicles
def _empty_hazard(d: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    """A hazard space with no token on it (two small red warning triangles)."""
    for dx in (-6, 5):
        d.polygon([(cx + dx - 4, cy + 6), (cx + dx + 4, cy + 6), (cx + dx, cy - 5)], outline="#ef4444")


def _dim(hexcol: str, k: float = 0.45) -> str:
    h = hexcol.lstrip("#")
    r, g, b = (int(h[i : i + 2], 16) for i in (0, 2, 4))
    return f"#{int(r * k):02x}{int(g * k):02x}{int(b * k):02x}"


def _ink(hexcol: str) -> str:
    """Black or white, whichever reads on ``hexcol``."""
    h = hexcol.lstrip("#")
    r, g, b = (int(h[i : i + 2], 16) for i in (0, 2, 4))
    return "#111111" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def _vehicle(
    d: ImageDraw.ImageDraw, cx: float, cy: float, size: str, colour: str, *, turned: bool = False, scale: float = 1.0
) -> tuple[float, float]:
    """A vehicle seen from above, nose forward (right; ``turned``: backwards).  Small,
    medium and large cars differ in length, width and shape (small: a rounded hatch;
    medium: a saloon with a windscreen and a rear window; large: a pick-up, cab and bed);
    a bike is a thin body with two wheels, the Big Rig a cab and a trailer."""
    ln, wd = LEN.get(size, 28) * scale, WID.get(size, 16) * scale
    x0, x1, y0, y1 = cx - ln / 2, cx + ln / 2, cy - wd / 2, cy + wd / 2
    sgn = -1 if turned else 1
    nose = x0 if turned else x1
    tail = x1 if turned else x0
    glass = "#1f2937"
    if size == "bike":
        for wx in (x0 + 3, x1 - 3):
            d.ellipse((wx - 3.5, cy - 3.5, wx + 3.5, cy + 3.5), fill="#111111")
        d.rounded_rectangle((x0 + 2, y0, x1 - 2, y1), radius=int(wd / 2), fill=colour, outline="#111111", width=2)
        return ln, wd
    if size == "small":
        d.rounded_rectangle((x0, y0, x1, y1), radius=int(wd / 2), fill=colour, outline="#111111", width=2)
        wx = nose - sgn * ln * 0.34
        d.rectangle((min(wx, wx + sgn * 4), y0 + 3, max(wx, wx + sgn * 4), y1 - 3), fill=glass)
        return ln, wd
    if size == "medium":
        d.rounded_rectangle((x0, y0, x1, y1), radius=4, fill=colour, outline="#111111", width=2)
        wx = nose - sgn * ln * 0.3
        d.rectangle((min(wx, wx + sgn * 5), y0 + 3, max(wx, wx + sgn * 5), y1 - 3), fill=glass)
        rx = tail + sgn * ln * 0.14
        d.rectangle((min(rx, rx + sgn * 3), y0 + 4, max(rx, rx + sgn * 3), y1 - 4), fill=glass)
        return ln, wd
    # large car and Big Rig: a cab in front and a long bed/trailer behind it
    cab = ln * (0.32 if size == "large" else 0.26)
    cab_x0, cab_x1 = sorted((nose, nose - sgn * cab))
    bed_x0, bed_x1 = sorted((nose - sgn * (cab + 2), tail))
    d.rectangle(
        (bed_x0, y0, bed_x1, y1), fill=colour if size == "large" else _dim(colour, 0.8), outline="#111111", width=2
    )
    d.rounded_rectangle((cab_x0, y0 + 1, cab_x1, y1 - 1), radius=3, fill=colour, outline="#111111", width=2)
    wx = nose - sgn * cab * 0.45
    d.rectangle((min(wx, wx + sgn * 4), y0 + 4, max(wx, wx + sgn * 4), y1 - 4), fill=glass)
    if size == "rig":
        for k in range(1, 3):
            lx = bed_x0 + (bed_x1 - bed_x0) * k / 3
            d.line((lx, y0 + 3, lx, y1 - 3), fill="#111111", width=2)
    return ln, wd


def _cross(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: str, width: int = 4) -> None:
    d.line((cx - r, cy - r, cx + r, cy + r), fill=fill, width=width)
    d.line((cx - r, cy + r, cx + r, cy - r), fill=fill, width=width)


def _car(d: ImageDraw.ImageDraw, cx: float, cy: float, v: VehicleView, colour: str, scale: float = 1.0) -> None:
    if v.kind == "wreck":
        _wreck(d, cx, cy, scale)
        return
    if not v.operable:  # spun out: turned round, dimmed and crossed out
        ln, wd = _vehicle(d, cx, cy, v.size, _dim(colour), turned=True, scale=scale)
        _cross(d, cx, cy, min(ln, wd) / 2 + 2, "#ef4444", 3)
        return
    ln, wd = _vehicle(d, cx, cy, v.size, colour, scale=scale)
    if v.on_fire:
        _flame(d, cx - ln / 2 + 4, cy - wd / 2 - 2)
    # damage: red pips along the body
    for i in range(v.damage):
        px = cx - ln / 2 + 6 + i * 7
        d.ellipse((px - 3, cy - 3, px + 3, cy + 3), fill="#dc2626", outline="#ffffff")


def _seat_badge(d: ImageDraw.ImageDraw, cx: float, cy: float, symbol: str, colour: str) -> None:
    """A car's seat symbol under it: the symbol in the seat's colour on a dark disc (colour is
    never the only way to tell whose car it is; the dashboards show the same symbol)."""
    d.ellipse((cx - 7, cy - 7, cx + 7, cy + 7), fill="#111111", outline="#9ca3af")
    draw_symbol(d, symbol, cx, cy, 5, colour)


def _wreck(d: ImageDraw.ImageDraw, cx: float, cy: float, scale: float = 1.0) -> None:
    w, h = 17 * scale, 11 * scale
    d.polygon(
        [
            (cx - w, cy - h * 0.6),
            (cx - w * 0.3, cy - h),
            (cx + w, cy - h * 0.5),
            (cx + w * 0.8, cy + h),
            (cx - w * 0.9, cy + h * 0.8),
        ],
        fill="#0b0b0b",
        outline="#9ca3af",
    )
    _cross(d, cx, cy, h * 0.7, "#9ca3af", 2)


def _token(d: ImageDraw.ImageDraw, cx: float, cy: float, kind: str, r: float = 12) -> None:
    """A face-up hazard token: oil a black pool, fire orange, mud brown."""
    d.polygon(_hex(cx, cy, r), fill=HAZARD_UP.get(kind, "#999"))
    if kind in ("oil", "fire"):
        k = r / (S - 2)
        d.ellipse(
            (cx - 8 * k, cy - 6 * k, cx + 8 * k, cy + 6 * k),
            outline="#94a3b8" if kind == "oil" else "#fde047",
            width=2,
        )


def _flame(d: ImageDraw.ImageDraw, x: float, y: float) -> None:
    d.polygon([(x - 5, y + 4), (x, y - 9), (x + 5, y + 4)], fill="#f97316", outline="#fde047")


def _chopper(d: ImageDraw.ImageDraw, cx: float, cy: float, colour: str, r: float = 13) -> None:
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill="#111827", outline=colour, width=4)
    _cross(d, cx, cy, r * 0.8, "#e5e7eb", 3)


def _disc(d: ImageDraw.ImageDraw, cx: float, cy: float, n: int | str, r: float = 15) -> None:
    """A destination's number (``view.marks``), as its button starts."""
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=HILITE, outline="#111111", width=2)
    text(d, (cx, cy), str(n), 20 if len(str(n)) < 2 else SMALL, "#111111", "mm", ground=HILITE)


def _die(d: ImageDraw.ImageDraw, x: float, y: float, value: int | str, used: bool, s: int = 28) -> None:
    fill, fg = ("#4b5563", "#d1d5db") if used else ("#f8fafc", "#111111")
    d.rounded_rectangle((x, y, x + s, y + s), radius=5, fill=fill, outline="#111111", width=2)
    text(d, (x + s / 2, y + s / 2), str(value), 20, fg, "mm", ground=fill)


def _pips(d: ImageDraw.ImageDraw, x: float, cy: float, damage: int, capacity: int) -> float:
    for i in range(capacity):
        px = x + i * 16 + 6
        if i < damage:
            d.ellipse((px - 6, cy - 6, px + 6, cy + 6), fill="#dc2626", outline="#fecaca", width=2)
        else:
            d.ellipse((px - 6, cy - 6, px + 6, cy + 6), outline="#9ca3af", width=2)
    return x + capacity * 16


def _coast_icon(d: ImageDraw.ImageDraw, x: float, cy: float, colour: str = "#7dd3fc") -> float:
    for k in (0, 7):
        d.line((x + k, cy - 6, x + k + 6, cy, x + k, cy + 6), fill=colour, width=3)
    return x + 18


def _check(d: ImageDraw.ImageDraw, x: float, cy: float, colour: str = "#4ade80") -> float:
    d.line((x, cy, x + 5, cy + 6, x + 14, cy - 7), fill=colour, width=4)
    return x + 18


def _colour_of(v: TRView) -> dict[str, str]:
    """Each seat's stable colour: the caller's seat label, else the crew's own colour."""
    return {c.seat: v.colour(c.seat, c.colour_hex) for c in v.crews}


# ------------------------------------------------------------------ the image
def draw(view: TRView | dict[str, Any], locale: str = DEFAULT) -> bytes:
    """The board image of a view (a ``TRView``, or its JSON data)."""
    v = view if isinstance(view, TRView) else TRView.model_validate(view)  # a view, or its JSON data
    b = v.board
    board_w, road_bottom = _size(b)
    ymax = 2 * b.rows
    col_of = _colour_of(v)
    _terrain_layer(b, locale)  # its texts recorded (the layer itself comes with the blank board)
    legend_y = road_bottom + 8 + DASH_ROW * len(v.crews) + 6  # below the dashboards
    legend, lines, legend_runs = _legend(_legend_keys(v), board_w, legend_y, locale)
    legend_h = 34 * lines + 16
    height = road_bottom + 16 + DASH_ROW * len(v.crews) + legend_h
    img = _blank(
        _terrain_key(b, locale), board_w, height
    ).copy()  # a copy of a cached canvas: ~5x cheaper than a new fill
    d = ImageDraw.Draw(img)
    road_top, road_end = TOP - 2, TOP + YU * (b.columns - 1) + 2 * S
    # header
    hdr = [
        t("thunder_road.render.round", locale, n=v.round),
        t("thunder_road.render.road_die", locale, n=v.road_die),
        t("thunder_road.render.tile", locale, n=v.tiles_placed),
    ]
    text(d, (12, 18), "  ·  ".join(hdr), 24, "#facc15", "lm", ground=BG)
    if v.winners:
        won = ", ".join(v.label(w) for w in v.winners)
        text(d, (board_w - 12, 18), t("thunder_road.render.winner", locale, seats=won), 24, "#4ade80", "rm", ground=BG)
    elif v.current:
        who = t("thunder_road.render.to_drive", locale, name=fit(v.label(v.current), 24, 380))
        d.rounded_rectangle((board_w - 40, 8, board_w - 14, 30), radius=4, fill=col_of.get(v.current, "#888"))
        draw_symbol(d, v.symbol(v.current), board_w - 27, 19, 7, ink_on(col_of.get(v.current, "#888")))
        text(d, (board_w - 50, 18), who, 24, "#ffffff", "rm", ground=BG)
    # finish line
    if v.final:
        x0 = LEFT + XU * (ymax + 0.6)
        n = int((road_end - road_top) / 10)
        for i in range(n):
            for j in range(2):
                if (i + j) % 2 == 0:
                    d.rectangle(
                        (x0 + j * 10, road_top + i * 10, x0 + j * 10 + 10, road_top + i * 10 + 10), fill="#f5f5f5"
                    )
        text(d, (x0 + 10, TOP - 62), t("thunder_road.render.finish", locale), 20, "#ffffff", "mm", ground=BG)
    # hazards
    for hz in v.hazards:
        c, y = hz.pos
        if not (0 <= c < b.columns and 0 <= y < ymax):
            continue
        cx, cy = _center(c, y)
        if hz.up:
            _token(d, cx, cy, hz.type or "", S - 2)
        else:
            d.ellipse((cx - 12, cy - 12, cx + 12, cy + 12), fill="#7f1d1d", outline="#fca5a5", width=2)
            text(d, (cx, cy), "?", 20, "#fecaca", "mm", ground="#7f1d1d")
    # choppers
    for crew in v.crews:
        if crew.chopper:
            cx, cy = _center(*crew.chopper)
            _chopper(d, cx, cy, col_of[crew.seat])
    # the car that is moving: a thick ring round its space (start area: round the car)
    moving = v.pending.car if v.pending is not None and v.pending.stage in ("enter", "step", "bonus", "shoot") else None
    if moving is None and v.pending is not None and v.pending.stage == "command":
        moving = v.pending.car
    # vehicles in the start area: one row per crew
    rows_y = {c.seat: i for i, c in enumerate(v.crews)}
    start_h = (road_end - road_top - 8) / max(1, len(v.crews))
    start_x: dict[str, float] = {}
    for w in v.vehicles:
        if w.where != "start":
            continue
        seat = w.owner or ""
        row = rows_y.get(seat, 0)
        scale = 0.9
        ln = LEN.get(w.size, 28) * scale
        x = start_x.get(seat, 14.0)
        cx, cy = x + ln / 2, road_top + 4 + start_h * (row + 0.5)
        if w.id == moving:
            d.rounded_rectangle((cx - ln / 2 - 5, cy - 16, cx + ln / 2 + 5, cy + 16), radius=6, outline=HILITE, width=4)
        _car(d, cx, cy, w, col_of.get(seat, "#111"), scale)
        if w.kind != "wreck" and seat:
            _seat_badge(d, cx, cy + 14, v.symbol(seat), col_of.get(seat, "#111"))
        start_x[seat] = x + ln + 8
    for w in v.vehicles:
        if w.where == "road" and w.pos is not None:
            cx, cy = _center(*w.pos)
            if w.id == moving:
                d.polygon(_hex(cx, cy, S - 1), outline=HILITE, width=5)
            _car(d, cx, cy, w, col_of.get(w.owner or "", "#111"))
            if w.kind != "wreck" and w.owner:
                _seat_badge(d, cx, cy + 17, v.symbol(w.owner), col_of.get(w.owner, "#111"))
    # where the car may go: the offered destinations numbered as their buttons (view.marks),
    # else (an image without the platform's marks) rings on the spaces it may enter next
    if v.marks:
        taken = {tuple(w.pos) for w in v.vehicles if w.where == "road" and w.pos is not None}
        for where, n in sorted(v.marks.items(), key=lambda kv: kv[1]):
            try:
                c, y = (int(p) for p in where.split(","))
            except ValueError:
                continue
            if 0 <= c < b.columns and 0 <= y < ymax:
                cx, cy = _center(c, y)
                if (c, y) in taken:  # a slam: the number at the top of the space, the car stays visible
                    _disc(d, cx, cy - S + 12, n, 12)
                else:
                    _disc(d, cx, cy, n)
    else:
        for ch in v.choices:
            c, y = ch.pos
            if 0 <= c < b.columns and 0 <= y < ymax:
                cx, cy = _center(c, y)
                d.ellipse((cx - 9, cy - 9, cx + 9, cy + 9), outline=MARK_COLOUR.get(ch.mark, NEXT), width=4)
    # dashboards
    y0 = road_bottom + 8
    for crew in v.crews:
        _dashboard(d, v, crew, col_of[crew.seat], y0, board_w, locale)
        y0 += DASH_ROW
    for size, s in legend_runs:  # the cached legend's texts are drawn in every image
        note_text(size, s)
    img.paste(legend, (0, legend_y))
    return to_png(img)


def _dashboard(
    d: ImageDraw.ImageDraw, v: TRView, crew: CrewView, colour: str, y0: float, board_w: int, locale: str
) -> None:
    """One crew's row: ▶ (to act), seat colour, name (and a special crew's name), dice, and
    each vehicle: its icon, damage pips, coasts used and moved this round."""
    mid = y0 + DASH_ROW / 2
    if crew.seat in v.to_act:
        d.rounded_rectangle(
            (4, y0 + 1, board_w - 4, y0 + DASH_ROW - 3), radius=8, fill="#2a2d35", outline=HILITE, width=2
        )
        d.polygon([(12, mid - 9), (12, mid + 9), (26, mid)], fill=HILITE)
    square = colour if not crew.out else _dim(colour)
    d.rounded_rectangle((32, mid - 13, 58, mid + 13), radius=5, fill=square)
    draw_symbol(d, v.symbol(crew.seat), 45, mid, 8, ink_on(square))
    name = v.label(crew.seat)
    if crew.crew in ("big_rig", "final_five"):
        name += " · " + t(f"thunder_road.crew.{crew.crew}", locale)
    if crew.out:
        name += " · " + t("thunder_road.render.out", locale)
    ground = "#2a2d35" if crew.seat in v.to_act else BG
    text(d, (68, mid), fit(name, 20, 300), 20, "#ffffff" if not crew.out else "#6b7280", "lm", ground=ground)
    x = 380.0
    if not crew.out:
        for value in crew.dice:
            _die(d, x, mid - 14, value, False)
            x += 32
        for value in crew.used:
            _die(d, x, mid - 14, value, True)
            x += 32
    x = max(x + 12, 380 + 32 * 4 + 12)
    mine = [w for w in v.vehicles if w.owner == crew.seat]
    step_x = min(240.0, (board_w - 8 - x) / max(1, len(mine)))
    for w in mine:
        ln = LEN.get(w.size, 28)
        _car(d, x + ln / 2 + 2, mid, w.model_copy(update={"damage": 0, "on_fire": w.on_fire}), colour)
        cx = x + max(ln, 30) + 10
        cx = _pips(d, cx, mid, w.damage, w.capacity) + 6
        if crew.coasting:
            for _ in range(w.coasts):
                cx = _coast_icon(d, cx, mid) + 2
        if w.moved:
            _check(d, cx + 2, mid)
        x += step_x


def _legend_keys(v: TRView) -> tuple[str, ...]:
    """The legend's entries for this board: the dashboard's icons always, the board's
    other pieces only while one is on it (fewer, bigger things)."""
    keys = ["sizes", "die_free", "die_used", "damage", "coast", "moved", "moving"]
    if v.marks:
        keys.append("destination")
    elif v.choices:
        keys.append("next")
    if any(not h.up for h in v.hazards):
        keys.append("hazard")
    tokens = {tuple(h.pos) for h in v.hazards}
    if any(
        row[c] == "H" and (c, 2 * r + c % 2) not in tokens
        for r, row in enumerate(v.board.terrain)
        for c in range(len(row))
    ):
        keys.append("empty_hazard")
    up = {h.type for h in v.hazards if h.up and h.type}
    keys += [kind for kind in ("oil", "mud", "fire") if kind in up]
    if any(w.kind != "wreck" and not w.operable for w in v.vehicles):
        keys.append("spun_out")
    if any(w.kind == "wreck" for w in v.vehicles):
        keys.append("wreck")
    if any(c.chopper for c in v.crews):
        keys.append("chopper")
    if any(w.on_fire for w in v.vehicles):
        keys.append("on_fire")
    return tuple(keys)


@lru_cache(maxsize=256)
def _legend(
    keys: tuple[str, ...], board_w: int, y: int, locale: str
) -> tuple[Image.Image, int, tuple[tuple[int, str], ...]]:
    """What each icon in ``keys`` means, in the table's language, wrapped to the image's
    width: the legend drawn once onto a strip of the board's ground (cached; a table's
    boards share few combinations) to paste at ``y``, its number of lines and its texts."""
    tr = lambda k: t(f"thunder_road.render.legend.{k}", locale)  # noqa: E731

    def hazard(d: ImageDraw.ImageDraw, x: float, cy: float) -> None:
        d.ellipse((x, cy - 12, x + 24, cy + 12), fill="#7f1d1d", outline="#fca5a5", width=2)
        text(d, (x + 12, cy), "?", 20, "#fecaca", "mm", ground="#7f1d1d")

    def spun(d: ImageDraw.ImageDraw, x: float, cy: float) -> None:
        _vehicle(d, x + 16, cy, "medium", "#64748b", turned=True)
        _cross(d, x + 16, cy, 11, "#ef4444", 3)

    def token(kind: str) -> tuple[float, Any, str]:
        return 24, lambda d, x, cy: _token(d, x + 12, cy, kind), t(f"thunder_road.token.{kind}", locale)

    # (icon width, icon, words)
    entries: dict[str, tuple[float, Any, str]] = {
        "sizes": (sum(LEN[z] + 5 for z in ("small", "medium", "large")), _sizes, tr("sizes")),
        "die_free": (26, lambda d, x, cy: _die(d, x, cy - 13, "3", False, 26), tr("die_free")),
        "die_used": (26, lambda d, x, cy: _die(d, x, cy - 13, "3", True, 26), tr("die_used")),
        "damage": (28, lambda d, x, cy: _pips(d, x, cy, 1, 2), tr("damage") + " / " + tr("slot")),
        "coast": (18, _coast_icon, tr("coast")),
        "moved": (18, _check, tr("moved")),
        "moving": (28, lambda d, x, cy: d.polygon(_hex(x + 14, cy, 14), outline=HILITE, width=4), tr("moving")),
        "destination": (28, lambda d, x, cy: _disc(d, x + 14, cy, 1, 14), tr("destination")),
        "next": (18, lambda d, x, cy: d.ellipse((x, cy - 9, x + 18, cy + 9), outline=NEXT, width=4), tr("next")),
        "hazard": (24, hazard, tr("hazard")),
        "empty_hazard": (24, lambda d, x, cy: _empty_hazard(d, x + 12, cy), tr("empty_hazard")),
        "oil": token("oil"),
        "mud": token("mud"),
        "fire": token("fire"),
        "spun_out": (32, spun, tr("spun_out")),
        "wreck": (34, lambda d, x, cy: _wreck(d, x + 17, cy, 0.9), tr("wreck")),
        "chopper": (26, lambda d, x, cy: _chopper(d, x + 13, cy, "#9ca3af", 12), tr("chopper")),
        "on_fire": (12, lambda d, x, cy: _flame(d, x + 6, cy + 4), tr("on_fire")),
    }
    placed: list[tuple[float, float, tuple[float, Any, str]]] = []
    x, cy, lines = 12.0, y + 17.0, 1
    for key in keys:
        width, icon, words = entries[key]
        need = width + 8 + length(words, SMALL)
        if x + need > board_w - 8:
            x, cy, lines = 12.0, cy + 34, lines + 1
        placed.append((x, cy, entries[key]))
        x += need + 26
    # drawn where it goes (shapes round their coordinates as in the board), then cut out
    strip = _canvas(board_w, y + 34 * lines + 10)
    d = ImageDraw.Draw(strip)
    with recorded_text() as runs:
        for x, cy, (width, icon, words) in placed:
            icon(d, x, cy)
            text(d, (x + width + 8, cy), words, SMALL, "#9ca3af", "lm", ground=BG)
    _same_palette(strip, "legend")
    return strip.crop((0, y, board_w, strip.height)), lines, tuple(runs)


def _same_palette(img: Image.Image, what: str) -> None:
    """A cached layer is pasted as palette indices: it may use only the base palette."""
    if img.palette is None or len(img.palette.palette) != len(palette()):
        raise RuntimeError(f"the {what} drew a colour outside render.thunder_road.DRAWN")


def _sizes(d: ImageDraw.ImageDraw, x: float, cy: float) -> float:
    """The three car sizes side by side (the legend's first icon)."""
    for size in ("small", "medium", "large"):
        ln, _ = _vehicle(d, x + LEN[size] / 2, cy, size, "#64748b")
        x += ln + 5
    return x

"""Armor Clash board: a header saying whose orders are in and who is still
choosing, the battlefield grid (vehicles with hull front and gun barrel, firing
arcs, moves under way, last turn's shots), a legend, and one short status card
per vehicle.

Laid out for Discord's inline size (:data:`render.common.DISPLAY_BOX`): the image
is 1100x800, shown at half size, so no text is drawn under 16 px.  Card details
are icons (crew pips, an ammunition chip, one penalty chip, troubles only when
there are some) that the legend under the board explains.  When a column of
cards would not fit beside the board, :func:`card_layout` steps down through
tiers that say less.  Every word comes from the locale catalog
(``armor_clash.render.*`` keys plus the game's own card words); seats are named
by the view's labels.  The renderer reads only the view.

The board is drawn in layers (:data:`LAYERS`: arcs, moves, shots, turret cells,
units, labels) over one :class:`_Board` geometry on a cached empty field, so a
new board feature (an objective cell or zone) is one more layer function.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any

from PIL import Image, ImageDraw

from engine.i18n import t
from engine.locales import DEFAULT
from render.armor_clash_words import describe as describe  # the image in words: its description's hook
from render.common import canvas, draw_symbol, fit, length, text, to_png

if TYPE_CHECKING:
    from engine.armor_clash.models import AcView, UnitView

# ---------------------------------------------------------------- layout (px)
WIDTH, HEIGHT = 1100, 800  # shown at 550x400: every size below is halved inline
CELL = 60
GRID_X, GRID_Y = 32, 74  # top-left corner of cell A1
HEADER_H = 46
PANEL_X = 772  # status cards column
PANEL_W = WIDTH - PANEL_X - 8
LEGEND_Y = 680  # legend under the board (a 12x10 grid ends at 674)

# text sizes: MIN_DISPLAY_PX 8 inline = 16 here
FS_SMALL = 17
FS = 19
FS_NAME = 20
FS_TITLE = 24

# ---------------------------------------------------------------- colours
BG = "#1d1f24"
FIELD = (0x3A, 0x5E, 0x34)
FIELD_LINE = "#2a4626"
ENEMY = "#e0644a"  # enemy outline and card colour
ENEMY_HULL = "#7d8072"  # feldgrau: enemies read as enemies whatever the seat colours
BOSS = "#ff4f3a"
BOSS_HULL = "#3b3f36"
GREY = "#6b6b6b"
OK_GREEN = "#49c15a"
WARN = "#f0a23c"
BAD = "#e5413a"
LOCKED = "#3fbf62"
CHOOSING = "#f0b43c"
HIT = "#ff7a33"
MISS = "#fff3b0"
TEXT = "#f2f2f2"
MUTED = "#b9bcc4"
CHIP_BG = "#3a3e47"
#: colours with a meaning on the board: no seat colour comes close (render.common.MIN_MEANING_DELTA)
MEANINGFUL = {
    "boss": BOSS,
    "enemy": ENEMY,
    "hit": HIT,
    "field": "#{:02x}{:02x}{:02x}".format(*FIELD),
    "enemy_hull": ENEMY_HULL,
    "orders_in": LOCKED,
    "choosing": CHOOSING,
    "miss": MISS,
}
#: the seats' colours in seat order (and their squares in texts): any first 2..4 of them
#: keep render.common.MIN_SEAT_DELTA apart in normal and colour-blind vision (docs/rulings.md)
SEATS = (("#a5fff0", "⬜"), ("#4b8796", "🟩"), ("#961eff", "🟦"), ("#d2a5ff", "🟪"))
#: seat colours when the caller gives none
SEAT_COLOURS = [c for c, _ in SEATS]

_STEPS = [(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)]
CREW = ("driver", "gunner", "loader")
RING_TO_CELL = [2, 3, 5, 8, 7, 6, 4, 1]  # ring position clockwise from the hull front -> cell (8.1)
# the boss card's scales, from the rules (the renderer reads only the view, which
# does not carry them): 9.2 three move-and-shoot turns before a rest; 9.3 rage 10
# destroys a player vehicle (normal mode), rage 2 doubles the next hit (simple mode)
FATIGUE_TURNS = 3
RAGE_KILL = 10
RAGE_DOUBLE_SIMPLE = 2


# ---------------------------------------------------------------- words
def _k(key: str, locale: str, **p: Any) -> str:
    return t("armor_clash." + key, locale, **p)


def _r(key: str, locale: str, **p: Any) -> str:
    """A render-only word (``armor_clash.render.*``)."""
    return t("armor_clash.render." + key, locale, **p)


def _tr(s: str, locale: str) -> str:
    return t(s[1:], locale) if isinstance(s, str) and s.startswith("@") else str(s)


_NUMBERED = re.compile(r".*?(\s#\d+)$")


def _vehicle(vehicle: str, locale: str, fallback: str, short: bool = False) -> str:
    """A vehicle model's name in ``locale`` (``short``: the board's nickname)."""
    for key in [f"armor_clash.render.vehicle_short.{vehicle}"] * short + [f"armor_clash.render.vehicle.{vehicle}"]:
        name = t(key, locale)
        if name != key:
            return name
    return fallback


def _name(u: UnitView, view: AcView, locale: str, short: bool = False) -> str:
    """A crew's vehicle by its seat's display name; the boss and the AI tanks by
    their localised name (``Pz.IV H #2`` keeps its number)."""
    if u.seat is not None:
        return view.label(u.seat)
    if u.boss:
        return _r("boss_short", locale) if short else _tr(u.label, locale)
    m = _NUMBERED.match(u.label)
    model = _vehicle(u.vehicle, locale, u.vehicle_name, short)
    return model + (m.group(1) if m else "")


@lru_cache(maxsize=4096)
def _len(size: int, s: str) -> float:
    """The advance width of ``s`` at ``size`` (cached: layout asks for it often)."""
    return float(length(s, size))


def _rgb(col: str) -> tuple[int, int, int]:
    return int(col[1:3], 16), int(col[3:5], 16), int(col[5:7], 16)


def _colour(u: UnitView, view: AcView) -> str:
    """A unit's card and outline colour: the seat's colour, or enemy red."""
    if u.status != "active":
        return GREY
    if u.boss:
        return BOSS
    if u.seat is not None:
        idx = view.seats.index(u.seat) if u.seat in view.seats else 0
        return view.colour(u.seat, SEAT_COLOURS[idx % len(SEAT_COLOURS)])
    return ENEMY


def _order_state(u: UnitView, view: AcView) -> str | None:
    """``locked`` / ``choosing`` / ``stunned`` for a crew this turn (None once over)."""
    if u.seat is None or u.status != "active" or view.result is not None:
        return None
    if u.seat in view.committed:
        return "locked"
    if u.seat in view.to_act:
        return "choosing"
    return "stunned" if u.stunned else None


# ---------------------------------------------------------------- geometry
def cell_centre(x: float, y: float) -> tuple[float, float]:
    """The pixel at the middle of grid cell (x, y) (0-based; A1 is 0, 0)."""
    return GRID_X + x * CELL + CELL / 2, GRID_Y + y * CELL + CELL / 2


@dataclass
class _Board:
    view: AcView
    locale: str
    img: Image.Image
    d: ImageDraw.ImageDraw

    @property
    def w(self) -> int:
        return self.view.width

    @property
    def h(self) -> int:
        return self.view.height

    def centre(self, x: float, y: float) -> tuple[float, float]:
        return cell_centre(x, y)

    def cell_box(self, x: int, y: int, inset: float = 0) -> tuple[float, float, float, float]:
        x0, y0 = GRID_X + x * CELL, GRID_Y + y * CELL
        return x0 + inset, y0 + inset, x0 + CELL - inset, y0 + CELL - inset

    @property
    def grid_box(self) -> tuple[int, int, int, int]:
        return GRID_X, GRID_Y, GRID_X + self.w * CELL, GRID_Y + self.h * CELL


def _vec(direction: float, r: float) -> tuple[float, float]:
    ang = math.radians(direction * 45)
    return math.sin(ang) * r, -math.cos(ang) * r


def _dashed(
    d: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], fill: str, width: int, dash: float = 12
) -> None:
    (ax, ay), (bx, by) = a, b
    n = max(1, int(math.hypot(bx - ax, by - ay) // dash))
    for i in range(0, n, 2):
        d.line(
            (
                ax + (bx - ax) * i / n,
                ay + (by - ay) * i / n,
                ax + (bx - ax) * (i + 1) / n,
                ay + (by - ay) * (i + 1) / n,
            ),
            fill=fill,
            width=width,
        )


# ---------------------------------------------------------------- icons
def _badge(d: ImageDraw.ImageDraw, cx: float, cy: float, state: str, r: float = 11) -> None:
    """Orders icon: a green check (locked in), amber dots (choosing), grey bars (stunned)."""
    fill = {"locked": LOCKED, "choosing": CHOOSING}.get(state, GREY)
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline="#111111", width=2)
    if state == "locked":
        d.line(
            (cx - r * 0.5, cy + r * 0.02, cx - r * 0.12, cy + r * 0.42, cx + r * 0.52, cy - r * 0.4),
            fill="#ffffff",
            width=max(2, int(r / 4)),
            joint="curve",
        )
    elif state == "choosing":
        for k in (-1, 0, 1):
            q = r * 0.14
            d.ellipse((cx + k * r * 0.45 - q, cy - q, cx + k * r * 0.45 + q, cy + q), fill="#222222")
    else:
        for k in (-1, 1):
            d.rectangle(
                (cx + k * r * 0.3 - r * 0.1, cy - r * 0.45, cx + k * r * 0.3 + r * 0.1, cy + r * 0.45), fill="#ffffff"
            )


def _pip(d: ImageDraw.ImageDraw, cx: float, cy: float, letter: str, hurt: int, r: float = 12) -> None:
    """A crew member: green healthy, amber injured once, red twice or more."""
    fill = OK_GREEN if hurt <= 0 else (WARN if hurt == 1 else BAD)
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline="#111111", width=1)
    text(d, (cx, cy + 1), letter, 16, "#111111", "mm")


def _chip(d: ImageDraw.ImageDraw, x: float, y: float, label: str, fg: str, filled: bool, dots: int = 0) -> float:
    """A rounded label (ammo, a penalty, a warning); returns its width."""
    w = _len(FS_SMALL, label) + 14 + (dots * 9 + 4 if dots else 0)
    h = 26
    if filled:
        d.rounded_rectangle((x, y, x + w, y + h), 6, fill=fg)
        text(d, (x + 7, y + h / 2 + 1), label, FS_SMALL, "#111111", "lm")
    else:
        d.rounded_rectangle((x, y, x + w, y + h), 6, fill=CHIP_BG, outline=fg, width=2)
        text(d, (x + 7, y + h / 2 + 1), label, FS_SMALL, fg, "lm")
    for i in range(dots):
        cx = x + 7 + _len(FS_SMALL, label) + 8 + i * 9
        d.ellipse((cx - 3, y + h / 2 - 3, cx + 3, y + h / 2 + 3), fill=fg)
    return w


def _pen_icon(d: ImageDraw.ImageDraw, kind: str, cx: float, cy: float, col: str) -> None:
    """Penalty pictograms: an arrow (move), a crosshair (aim and fire), a shell (load)."""
    if kind == "move":
        d.line((cx - 8, cy, cx + 3, cy), fill=col, width=3)
        d.polygon([(cx + 8, cy), (cx + 1, cy - 6), (cx + 1, cy + 6)], fill=col)
    elif kind == "shoot":
        d.ellipse((cx - 6, cy - 6, cx + 6, cy + 6), outline=col, width=2)
        d.line((cx - 9, cy, cx + 9, cy), fill=col, width=2)
        d.line((cx, cy - 9, cx, cy + 9), fill=col, width=2)
    else:
        d.polygon([(cx - 4, cy + 8), (cx - 4, cy - 3), (cx, cy - 9), (cx + 4, cy - 3), (cx + 4, cy + 8)], fill=col)


PEN_KINDS = ("move", "shoot", "reload")


def _pen_width(pen: dict[str, int]) -> float:
    parts = [f"+{pen[k]}" for k in PEN_KINDS if pen.get(k)]
    return 8 + sum(22 + _len(FS_SMALL, p) + 6 for p in parts)


def _pen_chip(d: ImageDraw.ImageDraw, x: float, y: float, pen: dict[str, int]) -> float:
    """One chip for the penalty marks (rules 6.2): a pictogram and +turns for each."""
    w = _pen_width(pen)
    d.rounded_rectangle((x, y, x + w, y + 26), 6, fill=CHIP_BG, outline=WARN, width=2)
    cx = x + 8
    for k in PEN_KINDS:
        n = pen.get(k, 0)
        if not n:
            continue
        _pen_icon(d, k, cx + 9, y + 13, WARN)
        label = f"+{n}"
        text(d, (cx + 20, y + 14), label, FS_SMALL, WARN, "lm")
        cx += 22 + _len(FS_SMALL, label) + 6
    return w


def _tank_shape(
    d: ImageDraw.ImageDraw, cx: float, cy: float, hull: int, turret_abs: int, fill: str, outline: str, scale: float
) -> None:
    """Hull rectangle with a white front chevron; round turret with a long barrel."""
    L, W = CELL * 0.39 * scale, CELL * 0.27 * scale
    fx, fy = _vec(hull, 1.0)
    sx, sy = -fy, fx
    pts = [
        (cx + fx * L + sx * W, cy + fy * L + sy * W),
        (cx + fx * L - sx * W, cy + fy * L - sy * W),
        (cx - fx * L - sx * W, cy - fy * L - sy * W),
        (cx - fx * L + sx * W, cy - fy * L + sy * W),
    ]
    d.polygon(pts, fill=fill, outline=outline, width=3)
    # the hull front: a white chevron on the front plate
    tip = (cx + fx * L * 0.95, cy + fy * L * 0.95)
    d.line(
        (
            cx + fx * L * 0.45 + sx * W * 0.75,
            cy + fy * L * 0.45 + sy * W * 0.75,
            *tip,
            cx + fx * L * 0.45 - sx * W * 0.75,
            cy + fy * L * 0.45 - sy * W * 0.75,
        ),
        fill="#ffffff",
        width=max(3, int(4 * scale)),
        joint="curve",
    )
    bx, by = _vec(turret_abs, CELL * 0.58 * scale)
    d.line((cx, cy, cx + bx, cy + by), fill="#111111", width=int(9 * scale))
    d.line((cx, cy, cx + bx, cy + by), fill="#e8e8e8", width=int(5 * scale))
    r = W * 0.62
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill="#2b2b2b", outline="#e8e8e8", width=2)


# ---------------------------------------------------------------- board layers
@lru_cache(maxsize=8)
def _field(w: int, h: int) -> Image.Image:
    """The empty canvas with the field's squares (copied for each board: no text on
    it, so render.common.recorded_text still sees every run each board draws)."""
    img, d = canvas(WIDTH, HEIGHT, BG)
    x0, y0, x1, y1 = GRID_X, GRID_Y, GRID_X + w * CELL, GRID_Y + h * CELL
    d.rectangle((x0, y0, x1, y1), fill=FIELD)
    field = img.crop((x0, y0, x1 + 2, y1 + 2))
    _grid_lines(ImageDraw.Draw(field), w, h)
    img.paste(field, (x0, y0))
    return img


def _grid_lines(d: ImageDraw.ImageDraw, w: int, h: int) -> None:
    """The squares' lines on a drawing of the field alone (its top-left at 0, 0)."""
    for i in range(w + 1):
        d.line((i * CELL, 0, i * CELL, h * CELL), fill=FIELD_LINE, width=2)
    for j in range(h + 1):
        d.line((0, j * CELL, w * CELL, j * CELL), fill=FIELD_LINE, width=2)


def _draw_coordinates(d: ImageDraw.ImageDraw, w: int, h: int) -> None:
    """Columns A.. and rows 1.., as the buttons name cells."""
    x0, y0 = GRID_X, GRID_Y
    for x in range(w):
        text(d, (x0 + x * CELL + CELL / 2, y0 - 14), chr(ord("A") + x), FS_SMALL, MUTED, "mm")
    for y in range(h):
        text(d, (x0 / 2, y0 + y * CELL + CELL / 2), str(y + 1), FS_SMALL, MUTED, "mm")


def _draw_arcs(b: _Board) -> None:
    """Normal mode: each active gun's firing arc (rules 8.1: the pointed cell and its
    neighbours, i.e. the 135 degrees around the barrel) as a tinted wedge with a rim;
    the boss's and the viewer's own arc edges run on to the board's edge (the arc has
    no range limit).  Simple mode fires all round: nothing to draw.

    The wedges are drawn on a copy of the field (so they stop at its edge) in a
    colour mixed with the grass, and the grid lines go back over them: no alpha
    blending, which cost several milliseconds a board."""
    if b.view.mode != "normal":
        return
    x0, y0, x1, y1 = b.grid_box
    field = b.img.crop((x0, y0, x1 + 2, y1 + 2))
    fd = ImageDraw.Draw(field)
    rims: list[tuple[tuple[float, float, float, float], float, str]] = []
    rays: list[tuple[float, float, float, float, str]] = []
    for u in b.view.units:
        if u.status != "active":
            continue
        col = _colour(u, b.view)
        turret_abs = (u.hull + u.turret) % 8
        cx, cy = b.centre(u.x, u.y)
        R = CELL * (1.9 if u.seat is not None or u.boss else 1.5)
        start = turret_abs * 45 - 67.5 - 90
        box = (cx - R - x0, cy - R - y0, cx + R - x0, cy + R - y0)
        tint = tuple((2 * g + c) // 3 for g, c in zip(FIELD, _rgb(col)))
        fd.pieslice(box, start, start + 135, fill=tint)
        rims.append((box, start, col))
        if not (u.boss or (u.seat is not None and u.seat == b.view.viewer)):
            continue
        for k in (-1, 1):
            ang = turret_abs * 45 + k * 67.5
            vx, vy = math.sin(math.radians(ang)), -math.cos(math.radians(ang))
            reach = 99.0 * CELL
            for lim, v, c in ((x0, vx, cx), (x1, vx, cx), (y0, vy, cy), (y1, vy, cy)):
                if v and (lim - c) / v > 0:
                    reach = min(reach, (lim - c) / v)
            if reach > R:
                rays.append((cx + vx * R, cy + vy * R, cx + vx * reach, cy + vy * reach, col))
    _grid_lines(fd, b.w, b.h)
    for box, start, col in rims:  # a dark-edged rim: arc and both radii
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        R = (box[2] - box[0]) / 2
        ends = [(cx + R * math.cos(math.radians(a)), cy + R * math.sin(math.radians(a))) for a in (start, start + 135)]
        for fill, width in (("#111111", 5), (col, 3)):
            fd.arc(box, start, start + 135, fill=fill, width=width)
            for ex, ey in ends:
                fd.line((cx, cy, ex, ey), fill=fill, width=width)
    b.img.paste(field, (x0, y0))
    for ax, ay, bx, by, col in rays:
        _dashed(b.d, (ax, ay), (bx, by), col, 2, 10)


def _draw_turret_cells(b: _Board) -> None:
    """On a crew's own image (normal mode): the 3x3 cell numbers of rules 8.1 around
    its tank, relative to the hull, as the turret buttons name them ("Cell [3]")."""
    if b.view.mode != "normal" or b.view.viewer is None:
        return
    u = next((o for o in b.view.units if o.seat == b.view.viewer and o.status == "active"), None)
    if u is None:
        return
    cx, cy = b.centre(u.x, u.y)
    for ring, cell in enumerate(RING_TO_CELL):
        dx, dy = _STEPS[(u.hull + ring) % 8]
        if not (0 <= u.x + dx < b.w and 0 <= u.y + dy < b.h):
            continue
        px, py = cx + dx * CELL * 0.78, cy + dy * CELL * 0.78
        b.d.rounded_rectangle((px - 15, py - 11, px + 15, py + 11), 5, fill="#15171b", outline="#ffffff")
        text(b.d, (px, py + 1), f"[{cell}]", 16, "#ffffff", "mm")


def _draw_plans(b: _Board) -> None:
    """A move under way: a dashed white line to where it ends, with a ring there."""
    for u in b.view.units:
        plan = u.move_plan
        if not plan or u.status != "active":
            continue
        dx, dy = _STEPS[plan.dir]
        left = plan.cells_total - plan.cells_done
        ex, ey = b.centre(u.x + dx * left, u.y + dy * left)
        cx, cy = b.centre(u.x, u.y)
        _dashed(b.d, (cx, cy), (ex, ey), "#ffffff", 3, 10)
        b.d.ellipse((ex - 9, ey - 9, ex + 9, ey + 9), outline="#ffffff", width=3)


def _draw_shots(b: _Board) -> None:
    """Last turn's shots: solid orange = hit, dashed pale yellow = miss."""
    pos = {u.id: u for u in b.view.units}
    for shot in b.view.last_shots:
        a, c = pos.get(shot.shooter), pos.get(shot.target)
        if a is None or c is None:
            continue
        pa, pc = b.centre(a.x, a.y), b.centre(c.x, c.y)
        if shot.hit:
            b.d.line((*pa, *pc), fill=HIT, width=4)
            col = HIT
        else:
            _dashed(b.d, pa, pc, MISS, 3, 12)
            col = MISS
        b.d.ellipse((pc[0] - 8, pc[1] - 8, pc[0] + 8, pc[1] + 8), outline=col, width=3)


def _draw_units(b: _Board) -> None:
    # the knocked-out wrecks first, so a live tank is never under one
    for u in sorted(b.view.units, key=lambda u: u.status == "active"):
        cx, cy = b.centre(u.x, u.y)
        turret_abs = (u.hull + u.turret) % 8
        col = _colour(u, b.view)
        if u.status != "active":
            fill, outline = "#4a4a4a", "#222222"
        elif u.seat is not None:
            fill, outline = col, "#ffffff"
        else:
            fill, outline = (BOSS_HULL if u.boss else ENEMY_HULL), col
        if u.seat is not None and u.seat == b.view.viewer and u.status == "active":
            r = CELL * 0.5
            b.d.ellipse((cx - r, cy - r, cx + r, cy + r), outline="#ffffff", width=3)
        _tank_shape(b.d, cx, cy, u.hull, turret_abs, fill, outline, 1.2 if u.boss else 1.0)
        if u.status != "active":
            k = CELL * 0.3
            b.d.line((cx - k, cy - k, cx + k, cy + k), fill=BAD, width=5)
            b.d.line((cx - k, cy + k, cx + k, cy - k), fill=BAD, width=5)


def _draw_labels(b: _Board) -> None:
    """Names under the tanks (on a dark tab so they read over anything) and the
    orders badge at each crew's tank."""
    taken = {(u.x, u.y) for u in b.view.units}
    for u in b.view.units:
        cx, cy = b.centre(u.x, u.y)
        col = _colour(u, b.view)
        # a name may overhang its cell unless a neighbour's name would meet it
        crowded = (u.x - 1, u.y) in taken or (u.x + 1, u.y) in taken
        name = fit(_name(u, b.view, b.locale, short=True), 16, CELL * (0.95 if crowded else 1.7))
        mark = 16 if u.seat is not None else 0  # a crew's seat symbol before its name
        tw = _len(16, name) + mark
        ty = cy + CELL * 0.5 - 2
        top = min(ty - 9, b.grid_box[3] - 20)
        b.d.rounded_rectangle((cx - tw / 2 - 4, top, cx + tw / 2 + 4, top + 20), 4, fill="#15171b", outline=col)
        if mark:
            draw_symbol(b.d, b.view.symbol(u.seat), cx - tw / 2 + 6, top + 10, 6, col)
        text(b.d, (cx + mark / 2, top + 10), name, 16, TEXT if u.status == "active" else MUTED, "mm")
        state = _order_state(u, b.view)
        if state:
            _badge(b.d, cx + CELL * 0.36, cy - CELL * 0.36, state)


ZONE = "#ffd86b"  # the crossroads (duel, rules revision 3)


def _zone_cells(b: _Board) -> tuple[float, float, float, float] | None:
    """The crossroads' outer box in pixels, or None (no objective)."""
    obj = b.view.objective
    if obj is None:
        return None
    left, top = b.cell_box(min(x for x, _ in obj.zone), min(y for _, y in obj.zone))[:2]
    right, bottom = b.cell_box(max(x for x, _ in obj.zone), max(y for _, y in obj.zone))[2:]
    return left, top, right, bottom


def _draw_zone(b: _Board) -> None:
    """The duel's crossroads (rules revision 3, docs/rulings.md R14), under everything:
    its cells in grass mixed with gold (no alpha blending), the grid lines left showing."""
    obj = b.view.objective
    if obj is None:
        return
    tint = tuple((185 * g + 70 * c) // 255 for g, c in zip(FIELD, _rgb(ZONE)))
    for x, y in obj.zone:
        b.d.rectangle(b.cell_box(x, y, inset=2), fill=tint)


def tab_corner(zone, taken: set[tuple[int, int]], span: int) -> tuple[bool, bool]:
    """(top?, right?): the first corner of the zone (top-left, top-right, bottom-left,
    bottom-right) whose ``span`` cells along its row hold no tank of ``taken``; the
    top-left when every corner is taken."""
    xs, ys = [x for x, _ in zone], [y for _, y in zone]
    width = len(set(xs))
    for top, right in ((True, False), (True, True), (False, False), (False, True)):
        y = min(ys) if top else max(ys)
        cells = [((max(xs) - i) if right else (min(xs) + i), y) for i in range(min(span, width))]
        if not any(c in taken for c in cells):
            return top, right
    return True, False


def _draw_zone_edge(b: _Board) -> None:
    """Over the firing arcs: the crossroads' edge in the colour of the crew holding it
    alone (gold while nobody does) and a tab naming it and the points that win."""
    box = _zone_cells(b)
    obj = b.view.objective
    if box is None or obj is None:
        return
    left, top, right, bottom = box
    holder = next((u for u in b.view.units if obj.holder is not None and u.seat == obj.holder), None)
    edge = _colour(holder, b.view) if holder is not None else ZONE
    b.d.rectangle((left, top, right, bottom), outline="#111111", width=6)
    b.d.rectangle((left + 1, top + 1, right - 1, bottom - 1), outline=edge, width=4)
    tab = fit(_r("zone", b.locale, goal=obj.goal), FS_SMALL, right - left - 12)
    tw = _len(FS_SMALL, tab)
    # the tab goes into a corner of the zone no tank covers (its badge and name would)
    at_top, from_right = tab_corner(obj.zone, {(u.x, u.y) for u in b.view.units}, int(tw + 16) // CELL + 1)
    y0 = top + 4 if at_top else bottom - 28
    x0 = right - tw - 16 if from_right else left + 4
    b.d.rounded_rectangle((x0, y0, x0 + tw + 12, y0 + 24), 5, fill="#15171b", outline=edge)
    text(b.d, (x0 + 6, y0 + 12), tab, FS_SMALL, ZONE, "lm")


#: the board's layers over the empty field, bottom to top (the duel's crossroads: its
#: tint under the arcs, its edge and tab over them)
LAYERS: list[Callable[[_Board], None]] = [
    _draw_zone,
    _draw_arcs,
    _draw_zone_edge,
    _draw_plans,
    _draw_shots,
    _draw_turret_cells,
    _draw_units,
    _draw_labels,
]


# ---------------------------------------------------------------- header
def _scenario(view: AcView, locale: str) -> str:
    sc = view.scenario
    key = (
        f"armor_clash.campaign.{sc}"
        if sc.startswith("c") and sc[1:2].isdigit()
        else f"armor_clash.render.scenario.{sc}"
    )
    word = t(key, locale)
    return _r("scenario.other", locale) if word == key else word


def _header(d: ImageDraw.ImageDraw, view: AcView, locale: str) -> None:
    d.rectangle((0, 0, WIDTH, HEADER_H), fill="#2a2d33")
    crews = [u for u in view.units if _order_state(u, view)]
    # the orders line wants its names whole: the title gives up the mode, then is cut
    want = sum(_len(FS, view.label(u.seat)) + 46 for u in crews) + _len(FS, _r("orders", locale)) + 40
    turn = _k("card.turn", locale, turn=view.turn, max=view.max_turns)
    title = f"{turn} · {_scenario(view, locale)} · {_k(f'card.mode_{view.mode}', locale)}"
    if crews and _len(FS_TITLE, title) + want > WIDTH - 26:
        title = f"{turn} · {_scenario(view, locale)}"
    title = fit(title, FS_TITLE, max(360.0, WIDTH - 26 - want) if crews else 600)
    text(d, (14, HEADER_H / 2), title, FS_TITLE, TEXT, "lm")
    x = 14 + _len(FS_TITLE, title) + 28
    right = WIDTH - 12
    if view.result is not None:
        r = view.result
        line = _r("over", locale, reason=_k(f"outcome.{r.reason}", locale))
        if r.winners:
            line += " · " + _r("winners", locale, names=", ".join(view.label(s) for s in r.winners))
        text(d, (x, HEADER_H / 2), fit(line, FS, right - x), FS, "#ffd86b", "lm")
        return
    if not crews:
        return
    text(d, (x, HEADER_H / 2), _r("orders", locale), FS, MUTED, "lm")
    x += _len(FS, _r("orders", locale)) + 12
    widths = [_len(FS, view.label(u.seat)) for u in crews]
    room = right - x - 46 * len(crews)
    cap = room  # the longest a name may be: none cut when all fit, else the long ones share
    if sum(widths) > room:
        rest = sorted(widths)
        for i, w in enumerate(rest):
            share = (room - sum(rest[:i])) / (len(rest) - i)
            if w > share:
                cap = share
                break
    for u in crews:
        state = _order_state(u, view)
        assert state is not None
        _badge(d, x + 12, HEADER_H / 2, state, 12)
        name = fit(view.label(u.seat), FS, cap)
        text(d, (x + 30, HEADER_H / 2), name, FS, _colour(u, view), "lm")
        x += 30 + _len(FS, name) + 16


# ---------------------------------------------------------------- cards
def _ammo_chip(d: ImageDraw.ImageDraw, x: float, y: float, u: UnitView, locale: str) -> float:
    if u.loaded:
        return _chip(d, x, y, _r(f"ammo.{u.loaded}", locale), "#e8d27a", True)
    if u.loading:
        return _chip(d, x, y, _r(f"ammo.{u.loading}", locale), "#e8d27a", False, dots=max(0, u.reload_left))
    return _chip(d, x, y, _r("empty", locale), MUTED, False)


def _warnings(u: UnitView, locale: str, kills: bool = True) -> list[tuple[str, str]]:
    """(label, colour) chips for what is not normal on a card; none when all is well."""
    out: list[tuple[str, str]] = []
    if any(u.pen.get(k) for k in PEN_KINDS):
        out.append((PEN, WARN))
    if u.power:
        out.append((_r("power", locale, n=u.power), WARN))
    if u.tracks != "ok":
        out.append((_r("tracks", locale), BAD))
    if u.turret_state != "normal":
        out.append((_r("turret", locale, state=_k(f"turret.{u.turret_state}", locale)), BAD))
    if u.fire_left:
        out.append((_k("card.fire", locale, n=u.fire_left), BAD))
    if u.stunned:
        out.append((_r("stunned", locale), BAD))
    if u.kills and kills:
        out.append((_r("kills", locale, n=u.kills), MUTED))
    return out


AMMO, PEN = "\0ammo", "\0pen"  # chips drawn as the ammunition chip, the penalty chip


def _flow_chips(
    d: ImageDraw.ImageDraw | None,
    x: float,
    y: float,
    right: float,
    chips: list[tuple[str, str]],
    u: UnitView,
    locale: str,
    wrap_x: float | None = None,
) -> float:
    """Chips left to right, wrapping to ``wrap_x`` (default ``x``); ``d`` None only
    measures.  Returns the height used."""
    cx, cy = x, y
    wx = x if wrap_x is None else wrap_x
    for label, col in chips:
        if label == AMMO:
            w = _ammo_width(u, locale)
        elif label == PEN:
            w = _pen_width(u.pen)
        else:
            w = _len(FS_SMALL, label) + 14
        if cx + w > right and cx > x:
            x = cx = wx
            cy += 30
        if d is not None:
            if label == AMMO:
                _ammo_chip(d, cx, cy, u, locale)
            elif label == PEN:
                _pen_chip(d, cx, cy, u.pen)
            else:
                _chip(d, cx, cy, label, col, False)
        cx += w + 6
    return cy - y + 30 if chips else 0


def _out_line(u: UnitView, locale: str) -> str:
    word = _k("card.out", locale)
    if u.out_reason:
        key = f"armor_clash.reason.{u.out_reason}"
        reason = t(key, locale)
        if reason != key:
            return f"{word} · {reason}"
    return word


@dataclass
class _Slot:
    """Where and how one status card is drawn: ``tier`` 0 is the full card; each
    higher tier says less, so that the column still fits with every vehicle."""

    x: int
    y: int
    w: int
    tier: int = 0

    @property
    def right(self) -> int:
        return self.x + self.w


CardFn = Callable[[ImageDraw.ImageDraw | None, _Slot, "UnitView", "AcView", str], int]


def _order_words(view: AcView, locale: str) -> str | None:
    """The viewer's own order this turn, in a few words (their own image only)."""
    order = view.my_order
    if order is None:
        return None
    words = _k(f"what.{order.what}", locale)
    if order.target:
        target = next((o for o in view.units if o.id == order.target), None)
        if target is not None:
            words += " → " + _name(target, view, locale)
    elif order.cells:
        words += " · " + _k("action.move_dist", locale, cells=order.cells)
    return _r("your_order", locale, order=words)


def _crew_card(d: ImageDraw.ImageDraw | None, at: _Slot, u: UnitView, view: AcView, locale: str) -> int:
    """A crew: name and orders badge; crew pips, ammunition, vehicle; troubles (and
    on the viewer's own card the order they gave)."""
    x, y, right = at.x, at.y, at.right
    chips = _warnings(u, locale, kills=at.tier < 1) if u.status == "active" else []
    if view.objective is not None and u.seat is not None and u.status == "active":
        pts = view.objective.points.get(u.seat, 0)
        chips.insert(0, (_r("points", locale, n=pts, goal=view.objective.goal), ZONE))
    mine = _order_words(view, locale) if u.seat is not None and u.seat == view.viewer else None
    if mine and u.status == "active":
        chips.insert(0, (fit(mine, FS_SMALL, at.w - 40), TEXT))
    inline = at.tier >= 2 and u.status == "active"  # the troubles follow the ammunition on row 2
    pips_w = 3 * 29 + 2
    ammo_w = _ammo_width(u, locale)
    if inline:
        chips = [(AMMO, "")] + chips
        rows = _flow_chips(None, x + 12 + pips_w, 0, right - 8, chips, u, locale, x + 12)
        h = 8 + 26 + 6 + int(rows) + 6
    else:
        h = 8 + 26 + 6 + 28 + 8
        if chips:
            h += 4 + int(_flow_chips(None, x + 12, 0, right - 8, chips, u, locale))
    if d is None:
        return h
    col = _colour(u, view)
    d.rounded_rectangle((x, y, right, y + h), 8, fill="#2a2d33", outline=col, width=3)
    state = _order_state(u, view)
    you = f" ({_r('you', locale)})" if u.seat == view.viewer and u.seat is not None else ""
    mark = 20 if u.seat is not None else 0  # a crew's seat symbol before its name, as on its tank
    if mark:
        draw_symbol(d, view.symbol(u.seat), x + 20, y + 21, 8, col)
    name_w = right - x - 24 - mark - (34 if state else 0) - _len(FS_NAME, you)
    text(d, (x + 12 + mark, y + 21), fit(_name(u, view, locale), FS_NAME, name_w) + you, FS_NAME, col, "lm")
    if state:
        _badge(d, right - 22, y + 21, state, 12)
    row = y + 40
    if u.status != "active":
        text(d, (x + 12, row + 14), fit(_out_line(u, locale), FS, at.w - 24), FS, BAD, "lm")
        return h
    px = x + 24
    for i, role in enumerate(CREW):
        _pip(d, px + i * 29, row + 14, _r(f"crew.{role}", locale), u.injuries.get(role, 0))
    if inline:
        _flow_chips(d, x + 12 + pips_w, row + 1, right - 8, chips, u, locale, x + 12)
        return h
    ax = x + 12 + pips_w + ammo_w + 10
    _ammo_chip(d, x + 12 + pips_w, row + 1, u, locale)
    sub = f"{_vehicle(u.vehicle, locale, u.vehicle_name)} · {_k(f'level.{u.crew}', locale)}"
    text(d, (right - 10, row + 14), fit(sub, FS_SMALL, right - 10 - ax), FS_SMALL, MUTED, "rm")
    if chips:
        _flow_chips(d, x + 12, row + 34, right - 8, chips, u, locale)
    return h


def _enemy_card(d: ImageDraw.ImageDraw | None, at: _Slot, u: UnitView, view: AcView, locale: str) -> int:
    """An AI tank: name, crew level and ammunition on one line; its troubles below
    (tier 0 only; from tier 3 on two cards share a line, the level left out)."""
    x, y, right = at.x, at.y, at.right
    chips = [c for c in _warnings(u, locale, kills=False) if at.tier < 1] if u.status == "active" else []
    h = 40 + (int(_flow_chips(None, x + 12, 0, right - 8, chips, u, locale)) if chips else 0)
    if d is None:
        return h
    col = _colour(u, view)
    d.rounded_rectangle((x, y, right, y + h), 8, fill="#2d2626", outline=col, width=2)
    name = _name(u, view, locale, short=at.tier >= 3)
    if u.status != "active":
        tail = _k("card.out", locale) if at.tier >= 3 else _out_line(u, locale)
        tail_w = _len(FS_SMALL, tail)
        text(d, (right - 10, y + 20), tail, FS_SMALL, BAD, "rm")
        text(d, (x + 12, y + 20), fit(name, FS, right - x - 34 - tail_w), FS, MUTED, "lm")
        return h
    chip_w = _ammo_chip(d, right - 8 - _ammo_width(u, locale), y + 7, u, locale)
    if at.tier < 3:
        name = f"{name} · {_k(f'level.{u.crew}', locale)}"
    text(d, (x + 12, y + 20), fit(name, FS, right - x - 28 - chip_w), FS, col, "lm")
    if chips:
        _flow_chips(d, x + 12, y + 38, right - 8, chips, u, locale)
    return h


def _ammo_width(u: UnitView, locale: str) -> float:
    if u.loaded:
        return _len(FS_SMALL, _r(f"ammo.{u.loaded}", locale)) + 14
    if u.loading:
        dots = max(0, u.reload_left)
        return _len(FS_SMALL, _r(f"ammo.{u.loading}", locale)) + 14 + (dots * 9 + 4 if dots else 0)
    return _len(FS_SMALL, _r("empty", locale)) + 14


def _boss_card(d: ImageDraw.ImageDraw | None, at: _Slot, u: UnitView, view: AcView, locale: str) -> int:
    """Wittmann: the rage gauge, fatigue, pre-rotation, whom he tracks, the players'
    counters in effect, his troubles (from tier 2 on without whom he tracks)."""
    card = u.card
    assert card is not None  # the boss always has its status card
    x, y, right = at.x, at.y, at.right
    normal = view.mode == "normal"
    active = u.status == "active"
    facts: list[tuple[str, str]] = []
    if active:
        facts.append((AMMO, ""))
        facts.append((_r("move_fire", locale, n=card.ms_left, max=FATIGUE_TURNS), TEXT))
        if card.rest_left:
            facts.append((_r("resting", locale, n=card.rest_left), WARN))
        if normal and card.prerot_mode:
            facts.append((_r("prerot", locale, n=card.prerot_mode), WARN))
        target = next((o for o in view.units if o.id == card.target), None)
        if target is not None and at.tier < 2:
            facts.append((_r("tracking", locale, name=_name(target, view, locale)), TEXT))
        if card.halved_turns:
            facts.append((_k("card.halved", locale, n=card.halved_turns), OK_GREEN))
        if card.forced_turn is not None:
            facts.append((_k("card.forced", locale), OK_GREEN))
        if card.overload_left:
            facts.append((_r("turret", locale, state=_k("turret.overload", locale)), OK_GREEN))
        facts += _warnings(u, locale, kills=False)
    h = 8 + 28 + 8 + (34 if active else 30) + 8
    if facts:
        h += int(_flow_chips(None, x + 12, 0, right - 8, facts, u, locale)) + 2
    if d is None:
        return h
    col = _colour(u, view)
    d.rounded_rectangle((x, y, right, y + h), 8, fill="#3a1f1f", outline=col, width=3)
    tag = _r("boss", locale)
    tw = _len(FS_SMALL, tag) + 14
    d.rounded_rectangle((x + 10, y + 9, x + 10 + tw, y + 35), 6, fill=col)
    text(d, (x + 17, y + 23), tag, FS_SMALL, "#111111", "lm")
    text(d, (x + 18 + tw, y + 22), fit(_name(u, view, locale), FS_NAME, right - x - 30 - tw), FS_NAME, "#ffb4a6", "lm")
    row = y + 44
    if not active:
        text(d, (x + 12, row + 14), fit(_out_line(u, locale), FS, at.w - 24), FS, BAD, "lm")
        return h
    # the rage gauge: 10 pips in normal mode (10 = a kill), the doubling threshold in simple mode
    top = RAGE_KILL if normal else max(RAGE_DOUBLE_SIMPLE, card.rage)
    label = _r("rage", locale, n=card.rage, max=top)
    text(d, (x + 12, row + 15), label, FS, "#ffb4a6", "lm")
    gx = x + 22 + _len(FS, label)
    step = min(22.0, (right - 10 - gx) / max(1, top))
    for i in range(top):
        cx = gx + i * step + step / 2
        r = step * 0.38
        lit = i < card.rage
        d.ellipse((cx - r, row + 15 - r, cx + r, row + 15 + r), fill=BAD if lit else None, outline="#ffb4a6", width=2)
    if facts:
        _flow_chips(d, x + 12, row + 36, right - 8, facts, u, locale)
    return h


#: the tiers card_layout tries, fullest first
TIERS = 4


def card_layout(view: AcView, locale: str) -> list[tuple[UnitView, CardFn, _Slot, int]]:
    """The status cards, (unit, drawer, slot, height): the crews in seat order, then
    the boss, then the AI tanks, at the fullest tier that fits beside the board."""
    crews = [u for u in view.units if u.seat is not None]
    boss = [u for u in view.units if u.boss]
    enemies = [u for u in view.units if u.seat is None and not u.boss]
    top, gap = HEADER_H + 10, 8
    room = HEIGHT - 4
    out: list[tuple[UnitView, CardFn, _Slot, int]] = []
    for tier in range(TIERS):
        out, y = [], top
        for u, fn in [(u, _crew_card) for u in crews] + [(u, _boss_card) for u in boss]:
            slot = _Slot(PANEL_X, y, PANEL_W, tier)
            h = fn(None, slot, u, view, locale)
            out.append((u, fn, slot, h))
            y += h + gap
        if tier >= 3:  # two AI tanks to a line
            half = (PANEL_W - gap) // 2
            for i in range(0, len(enemies), 2):
                hs = []
                for j, u in enumerate(enemies[i : i + 2]):
                    slot = _Slot(PANEL_X + j * (half + gap), y, half, tier)
                    hs.append(_enemy_card(None, slot, u, view, locale))
                    out.append((u, _enemy_card, slot, hs[-1]))
                y += max(hs) + gap
        else:
            for u in enemies:
                slot = _Slot(PANEL_X, y, PANEL_W, tier)
                h = _enemy_card(None, slot, u, view, locale)
                out.append((u, _enemy_card, slot, h))
                y += h + gap
        if y - gap <= room:
            break
    return out


def _cards(d: ImageDraw.ImageDraw, view: AcView, locale: str) -> None:
    for u, fn, slot, _h in card_layout(view, locale):
        fn(d, slot, u, view, locale)


# ---------------------------------------------------------------- legend
def _legend(
    d: ImageDraw.ImageDraw, mode: str, stunned: bool, locale: str, zone: int | None = None, ray: str | None = None
) -> float:
    """What the icons mean, flowed in lines under the board; returns its bottom
    (``stunned``: a crew sits out this turn, so its badge is explained too)."""
    x0, right = 12, PANEL_X - 14
    lh = 26
    x, y = float(x0), float(LEGEND_Y)

    def item(icon_w: float, draw_icon: Callable[[float, float], object], label: str) -> None:
        nonlocal x, y
        w = icon_w + 6 + _len(FS_SMALL, label)
        if x + w > right and x > x0:
            x, y = float(x0), y + lh
        draw_icon(x, y + lh / 2)
        text(d, (x + icon_w + 6, y + lh / 2 + 1), label, FS_SMALL, MUTED, "lm")
        x += w + 15

    def tank_icon(ix: float, iy: float) -> None:
        _tank_shape(d, ix + 14, iy, 2, 1, SEAT_COLOURS[0], "#ffffff", 0.45)

    item(28, tank_icon, _r("legend.tank", locale))
    if mode == "normal":

        def wedge(ix: float, iy: float) -> None:
            d.pieslice((ix - 20, iy - 20, ix + 20, iy + 20), -67.5, 67.5, fill="#6f8f48", outline="#cfe08a")

        item(20, wedge, _r("legend.arc", locale))
        if ray is not None:  # the boss's (and the viewer's own) arc edges, run on to the board's edge
            item(30, lambda ix, iy: _dashed(d, (ix, iy), (ix + 30, iy), ray, 2, 7), _r("legend.arc_edge", locale))
    else:
        item(0, lambda ix, iy: None, _r("legend.arc_simple", locale))
    item(30, lambda ix, iy: d.line((ix, iy, ix + 30, iy), fill=HIT, width=4), _k("result.hit", locale))
    item(30, lambda ix, iy: _dashed(d, (ix, iy), (ix + 30, iy), MISS, 3, 6), _k("result.miss", locale))

    def plan_icon(ix: float, iy: float) -> None:
        _dashed(d, (ix, iy), (ix + 22, iy), "#ffffff", 3, 6)
        d.ellipse((ix + 22, iy - 6, ix + 34, iy + 6), outline="#ffffff", width=2)

    item(34, plan_icon, _r("legend.plan", locale))
    if zone is not None:

        def zone_icon(ix: float, iy: float) -> None:
            d.rectangle((ix, iy - 10, ix + 20, iy + 10), fill="#8e9a4e", outline=ZONE, width=3)

        item(20, zone_icon, _r("legend.zone", locale, goal=zone))
    item(22, lambda ix, iy: _badge(d, ix + 11, iy, "locked", 10), _r("locked", locale))
    item(22, lambda ix, iy: _badge(d, ix + 11, iy, "choosing", 10), _r("choosing", locale))
    if stunned:
        item(22, lambda ix, iy: _badge(d, ix + 11, iy, "stunned", 10), _r("stunned_legend", locale))
    item(70, partial(_pen_icons, d), _r("legend.pen", locale))
    for role in CREW:
        item(24, partial(_pip_icon, d, _r(f"crew.{role}", locale), 0, 11), _r(f"legend.{role}", locale))
    item(34, partial(_hurt_icons, d), _r("legend.injured", locale))
    for ammo in ("AP", "HEAT", "HE"):
        abbr = _r(f"ammo.{ammo}", locale)
        item(_len(FS_SMALL, abbr) + 14, partial(_chip_icon, d, abbr, 0), _r(f"ammo_word.{ammo}", locale))
    he = _r("ammo.HE", locale)
    item(_len(FS_SMALL, he) + 36, partial(_chip_icon, d, he, 2), _r("legend.loading", locale))
    return y + lh


def _pen_icons(d: ImageDraw.ImageDraw, ix: float, iy: float) -> None:
    for i, k in enumerate(PEN_KINDS):
        _pen_icon(d, k, ix + 10 + i * 24, iy, WARN)


def _hurt_icons(d: ImageDraw.ImageDraw, ix: float, iy: float) -> None:
    _pip(d, ix + 8, iy, "", 1, 7)
    _pip(d, ix + 26, iy, "", 2, 7)


def _pip_icon(d: ImageDraw.ImageDraw, letter: str, hurt: int, r: float, ix: float, iy: float) -> None:
    _pip(d, ix + r + 1, iy, letter, hurt, r)


def _chip_icon(d: ImageDraw.ImageDraw, label: str, dots: int, ix: float, iy: float) -> None:
    """An ammunition chip: filled = loaded, outlined with dots = loading."""
    _chip(d, ix, iy - 13, label, "#e8d27a", not dots, dots=dots)


# ---------------------------------------------------------------- entry
def draw(view: AcView, locale: str = DEFAULT) -> bytes:
    stunned = any(_order_state(u, view) == "stunned" for u in view.units)
    img = _field(view.width, view.height).copy()
    d = ImageDraw.Draw(img)
    _draw_coordinates(d, view.width, view.height)
    edges = [
        _colour(u, view)
        for u in view.units
        if view.mode == "normal" and u.status == "active" and (u.boss or (u.seat is not None and u.seat == view.viewer))
    ]
    _legend(d, view.mode, stunned, locale, view.objective.goal if view.objective else None, edges[0] if edges else None)
    board = _Board(view, locale, img, d)
    for layer in LAYERS:
        layer(board)
    _header(d, view, locale)
    _cards(d, view, locale)
    # a web-palette image (no dithering) converts in ~3 ms and encodes ~5x faster than RGB
    return to_png(img.convert("P", palette=Image.Palette.WEB, dither=Image.Dither.NONE))

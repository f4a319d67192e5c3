"""Armor Clash board: the battlefield grid (vehicles, facings, turrets, firing arcs) and status cards."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from PIL import Image, ImageDraw

from engine.i18n import t
from render.common import canvas, text, to_png

if TYPE_CHECKING:
    from engine.armor_clash.models import AcView, UnitView

CELL = 46
MARGIN = 24
PANEL = 330
DIR_NAMES = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
RING_TO_CELL = [2, 3, 5, 8, 7, 6, 4, 1]
SEAT_COLOURS = ["#4f9de8", "#5fc46a", "#e0c341", "#4fd0d0"]
ENEMY = "#d0573f"
BOSS = "#9b1c1c"
GREY = "#6b6b6b"
_STEPS = [(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)]


def _tr(s: str, locale: str) -> str:
    return t(s[1:], locale) if isinstance(s, str) and s.startswith("@") else str(s)


def _k(key: str, locale: str, **p: Any) -> str:
    return t("armor_clash." + key, locale, **p)


def _centre(x: int, y: int) -> tuple[float, float]:
    return MARGIN + x * CELL + CELL / 2, MARGIN + y * CELL + CELL / 2


def _vec(direction: int, r: float) -> tuple[float, float]:
    ang = math.radians(direction * 45)
    return math.sin(ang) * r, -math.cos(ang) * r


def _name(u: UnitView, view: AcView, locale: str) -> str:
    """A player's vehicle by its seat label (the caller's display name), others by their label."""
    return view.label(u.seat) if u.seat is not None else _tr(u.label, locale)


def _colour(u: UnitView, seat_index: dict[str, int], view: AcView | None = None) -> str:
    if u.status != "active":
        return GREY
    if u.boss:
        return BOSS
    if u.seat is not None:
        lab = view.labels.get(u.seat) if view is not None else None
        if lab is not None and lab.colour:
            return lab.colour
        return SEAT_COLOURS[seat_index.get(u.seat, 0) % len(SEAT_COLOURS)]
    return ENEMY


def _tank(d: ImageDraw.ImageDraw, u: UnitView, colour: str, big: bool) -> None:
    cx, cy = _centre(u.x, u.y)
    hull = u.hull
    turret_abs = (u.hull + u.turret) % 8
    L, W = (CELL * 0.46, CELL * 0.32) if big else (CELL * 0.40, CELL * 0.27)
    fx, fy = _vec(hull, 1.0)
    sx, sy = -fy, fx
    pts = [
        (cx + fx * L + sx * W, cy + fy * L + sy * W),
        (cx + fx * L - sx * W, cy + fy * L - sy * W),
        (cx - fx * L - sx * W, cy - fy * L - sy * W),
        (cx - fx * L + sx * W, cy - fy * L + sy * W),
    ]
    d.polygon(pts, fill=colour, outline="#111111")
    # front marker (hull facing)
    d.polygon(
        [
            (cx + fx * L * 1.25, cy + fy * L * 1.25),
            (cx + fx * L * 0.8 + sx * W * 0.5, cy + fy * L * 0.8 + sy * W * 0.5),
            (cx + fx * L * 0.8 - sx * W * 0.5, cy + fy * L * 0.8 - sy * W * 0.5),
        ],
        fill="#f2f2f2",
    )
    r = W * 0.75
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill="#222222", outline="#dddddd")
    bx, by = _vec(turret_abs, CELL * 0.62)
    d.line((cx, cy, cx + bx, cy + by), fill="#f5f5f5", width=4 if big else 3)
    if u.status != "active":
        k = CELL * 0.35
        d.line((cx - k, cy - k, cx + k, cy + k), fill="#ff3030", width=4)
        d.line((cx - k, cy + k, cx + k, cy - k), fill="#ff3030", width=4)


def _board(img: Image.Image, view: AcView, locale: str, seat_index: dict[str, int]) -> None:
    w, h = view.width, view.height
    d = ImageDraw.Draw(img)
    for y in range(h):
        for x in range(w):
            x0, y0 = MARGIN + x * CELL, MARGIN + y * CELL
            d.rectangle((x0, y0, x0 + CELL, y0 + CELL), fill="#336633", outline="#003300")
    for x in range(w):
        text(d, (MARGIN + x * CELL + CELL / 2, MARGIN / 2), chr(ord("A") + x), 13, "#cfcfcf", "mm")
    for y in range(h):
        text(d, (MARGIN / 2, MARGIN + y * CELL + CELL / 2), str(y + 1), 13, "#cfcfcf", "mm")
    normal = view.mode == "normal"
    base = (0x33, 0x66, 0x33)
    for u in view.units:
        if u.status != "active":
            continue
        cx, cy = _centre(u.x, u.y)
        col = _colour(u, seat_index, view)
        rgb = tuple(int(col[i : i + 2], 16) for i in (1, 3, 5))
        mix = "#{:02x}{:02x}{:02x}".format(*tuple((2 * b + c) // 3 for b, c in zip(base, rgb)))
        if normal:
            turret_abs = (u.hull + u.turret) % 8
            # the 3x3 arc: the pointed cell and its neighbours (rules 8.1)
            for k in (-1, 0, 1):
                dd = (turret_abs + k) % 8
                dx, dy = _STEPS[dd]
                gx, gy = u.x + dx, u.y + dy
                if 0 <= gx < w and 0 <= gy < h:
                    x0, y0 = MARGIN + gx * CELL, MARGIN + gy * CELL
                    d.rectangle((x0 + 3, y0 + 3, x0 + CELL - 3, y0 + CELL - 3), fill=mix, outline=col)
            # the arc's edges continued across the field
            for k in (-1, 1):
                ang = turret_abs * 45 + k * 67.5
                vx, vy = math.sin(math.radians(ang)), -math.cos(math.radians(ang))
                reach: float = CELL * 4.0
                for lim, v, c in (
                    (MARGIN, vx, cx),
                    (MARGIN + w * CELL, vx, cx),
                    (MARGIN, vy, cy),
                    (MARGIN + h * CELL, vy, cy),
                ):
                    if v and 0 < (lim - c) / v < reach:
                        reach = (lim - c) / v
                d.line((cx, cy, cx + vx * reach, cy + vy * reach), fill=col, width=1)
        else:
            R = CELL * 1.45
            d.ellipse((cx - R, cy - R, cx + R, cy + R), outline=col, width=1)
    d = ImageDraw.Draw(img)
    # the last turn's shots: solid = hit, dashed = miss
    pos = {u.id: u for u in view.units}
    for shot in view.last_shots:
        a, b = pos.get(shot.shooter), pos.get(shot.target)
        if a is None or b is None:
            continue
        (ax, ay), (bx, by) = _centre(a.x, a.y), _centre(b.x, b.y)
        col = "#ff6633" if shot.hit else "#ffffcc"
        if shot.hit:
            d.line((ax, ay, bx, by), fill=col, width=2)
        else:
            n = max(1, int(math.hypot(bx - ax, by - ay) // 10))
            for i in range(0, n, 2):
                d.line(
                    (
                        ax + (bx - ax) * i / n,
                        ay + (by - ay) * i / n,
                        ax + (bx - ax) * (i + 1) / n,
                        ay + (by - ay) * (i + 1) / n,
                    ),
                    fill=col,
                    width=2,
                )
        d.ellipse((bx - 5, by - 5, bx + 5, by + 5), outline=col, width=2)
    for u in view.units:
        _tank(d, u, _colour(u, seat_index, view), bool(u.boss))
        cx, cy = _centre(u.x, u.y)
        name = _name(u, view, locale)
        if u.boss:
            name = "Wittmann" if locale != "zh" else "魏特曼"
        text(d, (cx, cy + CELL * 0.48), name[:10], 11, "#ffffff", "mt")
        plan = u.move_plan
        if plan and u.status == "active":
            dx, dy = [(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)][plan.dir]
            left = plan.cells_total - plan.cells_done
            ex, ey = _centre(u.x + dx * left, u.y + dy * left)
            d.line((cx, cy, ex, ey), fill="#ffffff", width=1)
            d.ellipse((ex - 4, ey - 4, ex + 4, ey + 4), outline="#ffffff")


def _crew_word(n: int, locale: str) -> str:
    return _k("card.healthy", locale) if n == 0 else _k("card.injured", locale, n=n)


def _card(d: ImageDraw.ImageDraw, x: int, y: int, u: UnitView, view: AcView, locale: str, colour: str) -> int:
    if u.boss:
        return _boss_card(d, x, y, u, view, locale)
    w = PANEL - 16
    h = 112 if u.seat is not None else 40
    d.rounded_rectangle((x, y, x + w, y + h), 6, fill="#2a2d33", outline=colour, width=2)
    name = _name(u, view, locale)
    lvl = _k(f"level.{u.crew}", locale)
    status = ""
    if u.status != "active":
        status = "  " + _k("card.out", locale)
    elif u.seat is not None:
        status = "  ✓" if u.seat in view.committed else "  …"
    text(d, (x + 8, y + 5), f"{name} · {lvl}{status}", 14, colour)
    ammo = u.loaded or (u.loading or "-")
    ts = _k(f"turret.{u.turret_state}", locale)
    line2 = (
        f"{_k('card.reload', locale)}: {u.reload_left}  {_k('card.loaded', locale)}: {ammo}  "
        f"{_k('card.turret', locale)}: [{RING_TO_CELL[u.turret]}] {_k('card.hull', locale)}: {_k('dir.' + DIR_NAMES[u.hull], locale)} {ts}"
    )
    text(d, (x + 8, y + 23), line2, 11, "#dddddd")
    if u.seat is None:
        return h + 6
    inj = u.injuries
    text(
        d,
        (x + 8, y + 41),
        f"{_k('card.driver', locale)}: {_crew_word(inj['driver'], locale)}   "
        f"{_k('card.gunner', locale)}: {_crew_word(inj['gunner'], locale)}",
        11,
        "#dddddd",
    )
    power = _k("card.ok", locale) if u.power == 0 else _k("card.damaged", locale, n=u.power)
    tracks = _k("card.ok", locale) if u.tracks == "ok" else _k("card.destroyed", locale)
    text(
        d,
        (x + 8, y + 57),
        f"{_k('card.loader', locale)}: {_crew_word(inj['loader'], locale)}   "
        f"{_k('card.power', locale)}: {power}   {_k('card.tracks', locale)}: {tracks}",
        11,
        "#dddddd",
    )
    pen = u.pen
    fire = f"   {_k('card.fire', locale, n=u.fire_left)}" if u.fire_left else ""
    text(
        d,
        (x + 8, y + 75),
        f"{_k('card.penalties', locale)}: {_k('card.move', locale)} +{pen['move']}  "
        f"{_k('card.shoot', locale)} +{pen['shoot']}  {_k('card.load', locale)} +{pen['reload']}{fire}",
        11,
        "#f0c36b",
    )
    veh = u.vehicle_name
    text(
        d,
        (x + 8, y + 92),
        f"{_k('card.vehicle', locale)}: {veh}  · {_k('card.kills', locale, n=u.kills)}",
        11,
        "#aaaaaa",
    )
    return h + 6


def _boss_card(d: ImageDraw.ImageDraw, x: int, y: int, u: UnitView, view: AcView, locale: str) -> int:
    card = u.card
    assert card is not None  # the boss always has its status card
    w, h = PANEL - 16, 150
    d.rounded_rectangle((x, y, x + w, y + h), 6, fill="#311b1b", outline=BOSS, width=3)
    title = "Boss: " + _tr(u.label, locale)
    if u.status != "active":
        title += "  " + _k("card.out", locale)
    text(d, (x + 8, y + 5), title, 15, "#ff8c7a")
    state = "overload" if card.overload_left else u.turret_state
    text(
        d,
        (x + 8, y + 26),
        f"{_k('card.turret', locale)}: [{RING_TO_CELL[u.turret]}]  {_k('card.hull', locale)}: "
        f"{_k('dir.' + DIR_NAMES[u.hull], locale)}  {_k('card.turret_state', locale)}: {_k('turret.' + state, locale)}",
        11,
        "#eeeeee",
    )
    text(
        d,
        (x + 8, y + 43),
        f"{_k('card.ms_left', locale)}: {card.ms_left}   {_k('card.rest_left', locale)}: "
        f"{card.rest_left}   {_k('card.reload', locale)}: {u.reload_left}",
        11,
        "#eeeeee",
    )
    rage = card.rage
    text(d, (x + 8, y + 62), f"{_k('card.rage', locale)}: {rage}", 12, "#ffb0a0")
    for i in range(11):
        cx = x + 80 + i * 20
        cy = y + 70
        d.ellipse(
            (cx - 7, cy - 7, cx + 7, cy + 7),
            outline="#ffb0a0",
            fill="#e04030" if i <= rage and rage > 0 and i > 0 else None,
        )
        text(d, (cx, cy + 9), str(i), 9, "#ccaaaa", "mt")
    pm = card.prerot_mode
    target = next((o for o in view.units if o.id == card.target), None)
    tname = _name(target, view, locale) if target else "-"
    text(
        d,
        (x + 8, y + 92),
        f"{_k('card.prerot', locale)}: {_k('card.prerot' + str(pm), locale)}   {_k('card.target', locale)}: {tname}",
        11,
        "#eeeeee",
    )
    pen = u.pen
    text(
        d,
        (x + 8, y + 110),
        f"{_k('card.penalties', locale)}: {_k('card.move', locale)} +{pen['move']}  "
        f"{_k('card.shoot', locale)} +{pen['shoot']}  {_k('card.load', locale)} +{pen['reload']}",
        11,
        "#f0c36b",
    )
    extra = []
    if card.halved_turns:
        extra.append(_k("card.halved", locale, n=card.halved_turns))
    if card.forced_turn is not None:
        extra.append(_k("card.forced", locale))
    if u.fire_left:
        extra.append(_k("card.fire", locale, n=u.fire_left))
    text(d, (x + 8, y + 128), " · ".join(extra), 11, "#ffcc66")
    return h + 6


def draw(view: AcView, locale: str = "en") -> bytes:
    w, h = view.width, view.height
    bw, bh = MARGIN * 2 + w * CELL, MARGIN * 2 + h * CELL
    seat_index = {s: i for i, s in enumerate(view.seats)}
    units = view.units
    est = 40 + sum(156 if u.boss else (118 if u.seat is not None else 46) for u in units)
    img, d = canvas(bw + PANEL, max(bh, est) + 10)
    _board(img, view, locale, seat_index)
    d = ImageDraw.Draw(img)
    x, y = bw + 4, 8
    mode = _k(f"card.mode_{view.mode}", locale)
    text(d, (x, y), f"{_k('card.turn', locale, turn=view.turn, max=view.max_turns)} · {mode}", 15, "#ffffff")
    y += 26
    for u in sorted(units, key=lambda u: 0 if u.boss else (1 if u.seat is not None else 2)):
        y += _card(d, x, y, u, view, locale, _colour(u, seat_index, view))
    # a web-palette image (no dithering) converts in ~3 ms and encodes ~5x faster than RGB
    return to_png(img.convert("P", palette=Image.Palette.WEB, dither=Image.Dither.NONE))

"""City of Fury board image: the 5-card screen, who stands where, HP, skill rows.

``draw(view, locale) -> bytes`` (PNG, 900x420).  Only the typed view
(:class:`engine.city_of_fury.models.CofView`) is read: card faces, skill rows and
the player's label come in it; all text comes from the catalogs so Chinese renders with the CJK font of
``render/common.py``.  Action icons are drawn with primitives (no emoji font
needed).
"""

from __future__ import annotations

import json as _json
from functools import lru_cache
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

from engine.i18n import normalise, t

from .common import bar, canvas, font, text, to_png

if TYPE_CHECKING:
    from engine.city_of_fury.models import CofView, EnemyFace

W, H = 900, 420
GRID_X, GRID_Y = 19, 282
BOX_W, BOX_H, NAME_W = 100, 30, 70
SHADES = ("#26272d", "#34363e", "#4a4c55", "#6d707a")  # dark (weak) to light (strong), as on the card
NS = "city_of_fury"
CARD_W, GAP, X0 = 166, 8, 19
CARD_Y, CARD_H = 44, 206

BG = "#17181d"
STREET_COLOURS = ["#2b3350", "#3b2d4a", "#2d4440", "#24404f", "#2f3a4f", "#43303a", "#35422b"]
CAFE = "#5a3b22"
HERO_C = "#3d8bfd"
ENEMY_C = "#d9534f"
BOSS_C = "#9b59b6"
GOLD = "#e8c547"
DIM = "#8a8f99"
WHITE = "#f2f2f2"


def _card_x(i: int) -> int:
    return X0 + i * (CARD_W + GAP)


# ------------------------------------------------------------------ icons
def _arrow(
    d: ImageDraw.ImageDraw, x: int, y: int, s: int, direction: int, colour: str, jump: bool = False, bar_: bool = False
) -> None:
    """A small arrow in a s*s box at (x, y); direction -1 left / +1 right."""
    cy = y + s // 2
    x1, x2 = (x + s - 2, x + 2) if direction < 0 else (x + 2, x + s - 2)
    if jump:  # an arrow along the ground with a hop arc over it
        low = y + s - 3
        d.arc((x + 3, y + 1, x + s - 3, y + s + 2), 190, 350, fill=colour, width=2)
        d.line((x1, low, x2, low), fill=colour, width=2)
        d.polygon(
            [(x2 + direction * 1, low), (x2 - direction * 4, low - 3), (x2 - direction * 4, low + 3)], fill=colour
        )
        return
    d.line((x1, cy, x2, cy), fill=colour, width=2)
    d.polygon([(x2 + direction * 1, cy), (x2 - direction * 5, cy - 4), (x2 - direction * 5, cy + 4)], fill=colour)
    if bar_:
        d.line((x1, cy - 5, x1, cy + 5), fill=colour, width=2)


def icon(d: ImageDraw.ImageDraw, name: str, x: int, y: int, s: int = 14, colour: str = WHITE) -> None:
    if name in ("move_left", "move_right"):
        _arrow(d, x, y, s, -1 if name.endswith("left") else 1, colour)
    elif name in ("jump_left", "jump_right"):
        _arrow(d, x, y, s, -1 if name.endswith("left") else 1, colour, jump=True)
    elif name in ("push_left", "push_right"):
        _arrow(d, x, y, s, -1 if name.endswith("left") else 1, colour, bar_=True)
    elif name == "move":  # the hero's move: either way
        cy = y + s // 2
        d.line((x + 2, cy, x + s - 2, cy), fill=colour, width=2)
        d.polygon([(x + 1, cy), (x + 5, cy - 4), (x + 5, cy + 4)], fill=colour)
        d.polygon([(x + s - 1, cy), (x + s - 5, cy - 4), (x + s - 5, cy + 4)], fill=colour)
    elif name == "attack":  # a burst
        c = (x + s / 2, y + s / 2)
        for dx, dy in ((1, 0), (0, 1), (0.7, 0.7), (0.7, -0.7)):
            d.line((c[0] - dx * s / 2, c[1] - dy * s / 2, c[0] + dx * s / 2, c[1] + dy * s / 2), fill=colour, width=2)
    elif name == "shoot":  # a target
        d.ellipse((x + 1, y + 1, x + s - 1, y + s - 1), outline=colour, width=2)
        d.ellipse((x + s / 2 - 2, y + s / 2 - 2, x + s / 2 + 2, y + s / 2 + 2), fill=colour)
    elif name == "heal":  # a cross
        m = s // 2
        d.rectangle((x + m - 2, y + 1, x + m + 2, y + s - 1), fill=colour)
        d.rectangle((x + 1, y + m - 2, x + s - 1, y + m + 2), fill=colour)


# --------------------------------------------------------------- pieces
@lru_cache(maxsize=8)
def _static(locale: str) -> Image.Image:
    """The parts that never change: background, headings, icon legend."""
    img, d = canvas(W, H, BG)
    d.rectangle((0, 0, W, 36), fill="#0f1014")
    text(d, (X0, 18), t(f"{NS}.name", locale), 20, GOLD, "lm")
    text(d, (X0, 268), t(f"{NS}.render.skills", locale), 14, DIM, "lm")
    # legend of the hero's action icons
    x = 470
    for a in ("move", "attack", "shoot", "heal"):
        icon(d, a, x, 261, 12, DIM)
        label = t(f"{NS}.act.{a}", locale)
        text(d, (x + 16, 267), label, 12, DIM, "lm")
        x += 24 + int(d.textlength(label, font=font(12)))
    return img


@lru_cache(maxsize=64)
def _card_tile(cid: str, fill: str, slot: int, locale: str) -> Image.Image:
    """One street card (background, street name, ground line, slot number)."""
    img = Image.new("RGB", (CARD_W + 1, CARD_H + 1), BG)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, CARD_W, CARD_H), 10, fill=fill, outline="#0b0b0e", width=2)
    d.rounded_rectangle((6, 6, CARD_W - 6, 28), 6, fill="#15161b")
    text(d, (CARD_W / 2, 17), t(f"{NS}.card.{cid}.street", locale), 13, "#e6e1d3", "mm")
    d.line((8, 120, CARD_W - 8, 120), fill="#1c1c22", width=3)
    text(d, (CARD_W - 10, CARD_H - 10), str(slot + 1), 11, "#9a9aa5", "rb")
    return img


@lru_cache(maxsize=16)
def _grid(skills_key: str, locale: str) -> Image.Image:
    """The four skill rows with every level's action icons (no highlights)."""
    skills = _json.loads(skills_key)
    img = Image.new("RGB", (W - X0 - GRID_X, 4 * (BOX_H + 3)), BG)
    d = ImageDraw.Draw(img)
    for k, skill in enumerate(("punch", "kick", "shoot", "dodge")):
        y = k * (BOX_H + 3)
        text(d, (0, y + BOX_H / 2), t(f"{NS}.skill.{skill}", locale), 14, WHITE, "lm")
        for lv in range(1, 5):
            bx = NAME_W + (lv - 1) * (BOX_W + 4)
            d.rounded_rectangle((bx, y, bx + BOX_W, y + BOX_H), 5, fill=SHADES[lv - 1], outline="#0b0b0e", width=1)
            _icons(d, skills[skill][lv - 1], bx + 14, y + 8, None, -1)
    return img


def _icons(d: ImageDraw.ImageDraw, actions: list[str], x: int, y: int, in_use: bool | None, step_index: int) -> None:
    for j, a in enumerate(actions):
        col = WHITE
        if in_use:
            col = "#4cd964" if j == step_index else ("#777777" if j < step_index else WHITE)
        icon(d, a, x, y, 14, col)
        x += 20


def _figure(d: ImageDraw.ImageDraw, x: int, y: int, colour: str, big: bool = False) -> None:
    """A simple stick-brawler token."""
    r = 11 if big else 10
    cx = x
    d.ellipse((cx - r, y, cx + r, y + 2 * r), fill=colour)
    d.rounded_rectangle((cx - 15, y + 2 * r + 3, cx + 15, y + 2 * r + 42), 6, fill=colour)


def _enemy_rows(d: ImageDraw.ImageDraw, x: int, y: int, card: EnemyFace, active: str | None, locale: str) -> None:
    labels = {row: t(f"{NS}.dir.{row}", locale) for row in ("left", "right")}
    off = 6 + max(int(d.textlength(v, font=font(11))) for v in labels.values())
    for k, row in enumerate(("left", "right")):
        yy = y + k * 19
        on = row == active
        colour = WHITE if on else "#6b707a"
        if on:
            d.rounded_rectangle((x - 3, yy - 2, x + CARD_W - 14, yy + 16), 4, outline=GOLD, width=1)
        text(d, (x, yy + 7), labels[row], 11, colour, "lm")
        ix = x + off
        for a in getattr(card, row):
            icon(d, a, ix, yy, 14, colour)
            ix += 19


def draw(view: CofView, locale: str = "en") -> bytes:
    loc = normalise(locale)
    img = _static(loc).copy()
    d = ImageDraw.Draw(img)
    street = view.street
    screen = view.screen
    cards = view.cards
    boss = view.boss
    hero_card = view.hero_card
    enemy_hp = view.enemy_hp
    hero_slot = street.index("hero")

    # header: the player (the caller's label for the seat), round, enemies beaten
    player = view.label(view.seats[0]) if view.seats else ""
    if player:
        text(d, (X0 + 250, 18), player[:32], 14, HERO_C, "lm")
    text(d, (W - X0, 18), t(f"{NS}.render.round", loc, round=view.round), 16, WHITE, "rm")
    beaten = t(f"{NS}.render.beaten", loc, n=len(view.beaten))
    text(d, (W - X0 - 120, 18), beaten, 14, DIM, "rm")
    all_ids = sorted(cards)
    # the 5-card screen
    for i in range(5):
        x = _card_x(i)
        cid = screen[i]
        fill = (
            CAFE
            if cid == boss
            else STREET_COLOURS[all_ids.index(cid) % len(STREET_COLOURS)]
            if cid in all_ids
            else "#333"
        )
        img.paste(_card_tile(cid, fill, i, loc), (x, CARD_Y))
        who = street[i]
        cx = x + CARD_W // 2
        if who == "hero":
            _figure(d, cx, CARD_Y + 40, HERO_C, big=True)
            text(d, (cx, CARD_Y + 138), t(f"{NS}.card.{view.hero}.name", loc), 15, WHITE, "mm")
            mx = hero_card.max_hp
            bar(d, x + 20, CARD_Y + 152, CARD_W - 40, 12, view.hero_hp, mx, fg="#4cd964")
            text(d, (cx, CARD_Y + 177), f"{view.hero_hp}/{mx}", 13, WHITE, "mm")
        elif who is not None:
            card = cards[who]
            colour = BOSS_C if who == boss else ENEMY_C
            _figure(d, cx, CARD_Y + 40, colour, big=who == boss)
            text(d, (cx, CARD_Y + 134), t(f"{NS}.card.{who}.name", loc), 15, WHITE, "mm")
            hp = enemy_hp.get(who, 0)
            bar(d, x + 14, CARD_Y + 146, CARD_W - 62, 10, hp, card.max_hp, fg=GOLD)
            text(d, (x + CARD_W - 14, CARD_Y + 151), f"{hp}/{card.max_hp}", 12, WHITE, "rm")
            active = "right" if i < hero_slot else "left"
            _enemy_rows(d, x + 12, CARD_Y + 164, card, active, loc)

    # skill rows: the cached grid, then the level cubes and the skill in use
    levels = view.levels
    pending = view.pending
    kind = pending.kind if pending is not None else None
    using = pending.skill if pending is not None and kind == "step" else None
    using_level = pending.level if pending is not None else None
    step_index = pending.index if pending is not None else 0
    img.paste(_grid(_json.dumps(hero_card.skills, sort_keys=True), loc), (GRID_X, GRID_Y))
    for k, skill in enumerate(("punch", "kick", "shoot", "dodge")):
        y = GRID_Y + k * (BOX_H + 3)
        for lv in range(1, 5):
            bx = GRID_X + NAME_W + (lv - 1) * (BOX_W + 4)
            current = levels[skill] == lv
            in_use = using == skill and using_level == lv
            if in_use:
                d.rounded_rectangle((bx, y, bx + BOX_W, y + BOX_H), 5, fill=SHADES[lv - 1], outline="#4cd964", width=2)
                _icons(d, hero_card.skills[skill][lv - 1], bx + 14, y + 8, True, step_index)
            if current:
                d.rounded_rectangle((bx, y, bx + BOX_W, y + BOX_H), 5, outline=GOLD, width=2)
                d.rectangle((bx + 4, y + 4, bx + 10, y + 10), fill=GOLD)  # the level cube
    box_w = BOX_W
    name_w = NAME_W

    # status panel (right of the skill rows)
    px = X0 + name_w + 4 * (box_w + 4) + 10
    d.rounded_rectangle((px, 282, W - X0, H - 10), 8, fill="#202229")
    hero_name = t(f"{NS}.card.{view.hero}.name", loc)
    text(d, (px + 12, 298), hero_name, 16, HERO_C, "lm")
    mx = hero_card.max_hp
    bar(d, px + 12, 312, W - X0 - px - 24, 14, view.hero_hp, mx, fg="#4cd964")
    text(d, (px + 12, 340), f"HP {view.hero_hp}/{mx}", 14, WHITE, "lm")
    step = view.current_step
    if kind == "choose_skill":
        what = t(f"{NS}.expect.choose_skill", loc)
    elif kind == "raise":
        what = t(f"{NS}.expect.raise", loc)
    elif step:
        what = t(f"{NS}.expect.{step}", loc)
    else:
        what = ""
    if what:
        _wrap(d, px + 12, 362, t(f"{NS}.render.next", loc, what=what), W - X0 - px - 24, 13, DIM)

    # enemy icon legend (attack/shoot share the hero's icons)
    lx = px + 12
    label = t(f"{NS}.render.enemy_legend", loc)
    text(d, (lx, 396), label, 12, DIM, "lm")
    lx += int(d.textlength(label, font=font(12))) + 8
    for ic, key in (("move_right", "move"), ("jump_right", "jump"), ("push_right", "push")):
        icon(d, ic, lx, 389, 14, DIM)
        label = t(f"{NS}.render.legend.{key}", loc)
        text(d, (lx + 18, 396), label, 12, DIM, "lm")
        lx += 28 + int(d.textlength(label, font=font(12)))

    result = view.result
    if result:
        colour = "#1e7e34" if result == "win" else "#8b1e1e"
        d.rectangle((0, 120, W, 190), fill=colour)
        d.line((0, 120, W, 120), fill=GOLD, width=3)
        d.line((0, 190, W, 190), fill=GOLD, width=3)
        text(d, (W / 2, 155), t(f"{NS}.render.{result}", loc), 40, WHITE, "mm")
    # flat colours: mapping onto a fixed palette (no dithering) is ~1 ms and makes
    # the PNG encode 5x faster and the file half the size
    return to_png(img.quantize(palette=_palette(), dither=Image.Dither.NONE))


def _rgb(c: str) -> tuple[int, int, int]:
    c = c.lstrip("#")
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """Every colour the board uses, plus 3 anti-aliasing steps for each text/icon colour on its backgrounds."""
    cards = [*STREET_COLOURS, CAFE]
    header, band, panel = "#0f1014", "#15161b", "#202229"
    base = [
        BG,
        header,
        band,
        panel,
        GOLD,
        DIM,
        WHITE,
        HERO_C,
        ENEMY_C,
        BOSS_C,
        *cards,
        *SHADES,
        "#0b0b0e",
        "#1c1c22",
        "#9a9aa5",
        "#e6e1d3",
        "#4cd964",
        "#777777",
        "#6b707a",
        "#3a3a3a",
        "#111111",
        "#1e7e34",
        "#8b1e1e",
        "#333333",
        "#000000",
    ]
    pairs = [(WHITE, b) for b in (BG, header, *cards, *SHADES, panel, "#1e7e34", "#8b1e1e")]
    pairs += [(GOLD, b) for b in (BG, header, *cards, *SHADES)]
    pairs += [(DIM, b) for b in (BG, header, panel)] + [("#e6e1d3", band), (HERO_C, panel)]
    pairs += [(c, b) for c in ("#9a9aa5", "#6b707a") for b in cards]
    pairs += [(c, b) for c in ("#4cd964", "#777777") for b in SHADES]
    colours: list[tuple[int, int, int]] = []
    for c in base:
        if _rgb(c) not in colours:
            colours.append(_rgb(c))
    for fg, bgc in pairs:
        f, b = _rgb(fg), _rgb(bgc)
        for w in (0.25, 0.5, 0.75):
            mix = tuple(round(f[i] * w + b[i] * (1 - w)) for i in range(3))
            if mix not in colours:
                colours.append(mix)  # type: ignore[arg-type]
    colours = colours[:256]
    flat = [v for c in colours for v in c] + [0, 0, 0] * (256 - len(colours))
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat)
    return pal


def _wrap(d: ImageDraw.ImageDraw, x: int, y: int, s: str, width: int, size: int, fill: str) -> None:
    f = font(size)
    line = ""
    lines = []
    tokens = s.split(" ") if " " in s else list(s)
    joiner = " " if " " in s else ""
    for tok in tokens:
        cand = (line + joiner + tok) if line else tok
        if d.textlength(cand, font=f) <= width:
            line = cand
        else:
            lines.append(line)
            line = tok
    if line:
        lines.append(line)
    for i, ln in enumerate(lines[:3]):
        text(d, (x, y + i * (size + 4)), ln, size, fill, "la")

"""City of Fury board image: the 5-card screen, who stands where, what the enemies
just did, HP and the skill rows.

``draw(view, locale) -> bytes`` (PNG, 1000x700: Discord shows it inline at
550x385, where the smallest text, 15 px, reads at 8.25 px).  Only the typed view
(:class:`engine.city_of_fury.models.CofView`) is read: card faces, skill rows,
the player's label and the record of the last enemy phase come in it; all text
comes from the catalogs (drawn through :func:`render.common.text`) so Chinese
renders with the CJK font of ``render/common.py``.  Action icons are drawn with
primitives (no emoji font needed).

The last enemy phase is drawn twice: a strip with one line per enemy in acting
order (a numbered badge, its behaviour row with each action done or struck out,
and what it did in words; skipped actions named once), and, while the board is
still the one the phase left (the hero has not acted since), numbered arrows on
the street for its moves, jumps and pushes and the damage on the hero.
"""

from __future__ import annotations

import json as _json
from functools import lru_cache
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

from engine.i18n import normalise, t
from engine.locales import DEFAULT
from render.city_of_fury_words import describe as describe  # the image in words: its description's hook

from .common import bar, canvas, fit, length, text, to_png

if TYPE_CHECKING:
    from engine.city_of_fury.models import CofView, EnemyFace, EnemyPhase, EnemyTurnRecord

NS = "city_of_fury"
W, H = 1000, 700
SLOTS = 5
X0, GAP = 20, 10
CARD_W = (W - 2 * X0 - (SLOTS - 1) * GAP) // SLOTS  # 184
CARD_Y, CARD_H = 58, 292
# inside a card, from its top: the lanes of the enemy phase's arrows, the figure's head, the ground line
LANE_Y, LANE_STEP, FIG_Y, GROUND_Y = 50, 24, 100, 176
STRIP_Y, STRIP_H = 360, 142  # the enemy phase strip
LINE_H = 27
GRID_X, GRID_Y = X0, 512
BOX_W, BOX_H, BOX_GAP, NAME_W = 124, 40, 4, 92
ICON = 18  # action icon box
PANEL_X = GRID_X + NAME_W + 4 * (BOX_W + BOX_GAP) + 8

SMALL, BODY, NAME = 15, 17, 19  # text sizes: the smallest is 15 px (8.25 px inline)

BG = "#17181d"
HEADER = "#0f1014"
BAND = "#15161b"
PANEL = "#202229"
STREET_COLOURS = ["#2b3350", "#3b2d4a", "#2d4440", "#24404f", "#2f3a4f", "#43303a", "#35422b"]
CAFE = "#5a3b22"
SHADES = ("#26272d", "#34363e", "#4a4c55", "#6d707a")  # dark (weak) to light (strong), as on the card
HERO_C = "#3d8bfd"
ENEMY_C = "#d9534f"
BOSS_C = "#9b59b6"
GOLD = "#e8c547"
DIM = "#8a8f99"
WHITE = "#f2f2f2"
GREEN = "#4cd964"
USED = "#777777"
OFF = "#6b707a"
SLOT_C = "#9a9aa5"
STREET_C = "#e6e1d3"
HIT_C = "#c0392b"
#: colours with a meaning on the board: no seat colour comes close (render.common.MIN_MEANING_DELTA)
MEANINGFUL = {"enemy": ENEMY_C, "boss": BOSS_C, "hit": HIT_C}
#: the one seat's colour (the hero's, as the board draws it) and its square in texts
SEATS = ((HERO_C, "🟦"),)
WIN_C, LOSS_C = "#1e7e34", "#8b1e1e"


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


def icon(d: ImageDraw.ImageDraw, name: str, x: int, y: int, s: int = ICON, colour: str = WHITE) -> None:
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


def _badge(d: ImageDraw.ImageDraw, cx: float, cy: float, n: int, colour: str) -> None:
    """A numbered disc: the enemy's place in the acting order."""
    d.ellipse((cx - 11, cy - 11, cx + 11, cy + 11), fill=colour, outline=HEADER, width=2)
    text(d, (cx, cy), str(n), SMALL, WHITE, "mm")


# --------------------------------------------------------------- pieces
@lru_cache(maxsize=8)
def _static(locale: str) -> Image.Image:
    """The parts that never change: background, header band, panels, legends."""
    img, d = canvas(W, H, BG)
    d.rectangle((0, 0, W, 46), fill=HEADER)
    text(d, (X0, 23), t(f"{NS}.name", locale), 26, GOLD, "lm")
    d.rounded_rectangle((X0, STRIP_Y, W - X0, STRIP_Y + STRIP_H), 8, fill=PANEL)
    d.rounded_rectangle((PANEL_X, GRID_Y, W - X0, H - 12), 8, fill=PANEL)
    # legends: the hero's action icons, then the enemies' own
    x, y = PANEL_X + 12, H - 66
    for a in ("move", "attack", "shoot", "heal"):
        icon(d, a, x, y - ICON // 2, ICON, DIM)
        label = t(f"{NS}.act.{a}", locale)
        text(d, (x + ICON + 4, y), label, SMALL, DIM, "lm")
        x += ICON + 14 + int(length(label, SMALL))
    x, y = PANEL_X + 12, H - 36
    label = t(f"{NS}.render.enemy_legend", locale)
    text(d, (x, y), label, SMALL, DIM, "lm")
    x += int(length(label, SMALL)) + 8
    for ic, key in (("move_right", "move"), ("jump_right", "jump"), ("push_right", "push")):
        icon(d, ic, x, y - ICON // 2, ICON, DIM)
        label = t(f"{NS}.render.legend.{key}", locale)
        text(d, (x + ICON + 4, y), label, SMALL, DIM, "lm")
        x += ICON + 14 + int(length(label, SMALL))
    return img


@lru_cache(maxsize=64)
def _card_tile(cid: str, fill: str, slot: int, locale: str) -> Image.Image:
    """One street card (background, street name, ground line, slot number)."""
    img = Image.new("RGB", (CARD_W + 1, CARD_H + 1), BG)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, CARD_W, CARD_H), 10, fill=fill, outline="#0b0b0e", width=2)
    d.rounded_rectangle((6, 6, CARD_W - 6, 34), 6, fill=BAND)
    text(d, (CARD_W / 2 + 6, 20), fit(t(f"{NS}.card.{cid}.street", locale), BODY, CARD_W - 44), BODY, STREET_C, "mm")
    text(d, (14, 20), str(slot + 1), SMALL, SLOT_C, "lm")
    d.line((8, GROUND_Y, CARD_W - 8, GROUND_Y), fill="#1c1c22", width=3)
    return img


@lru_cache(maxsize=16)
def _grid(skills_key: str, locale: str) -> Image.Image:
    """The four skill rows with every level's action icons (no highlights)."""
    skills = _json.loads(skills_key)
    img = Image.new("RGB", (NAME_W + 4 * (BOX_W + BOX_GAP), 4 * (BOX_H + BOX_GAP)), BG)
    d = ImageDraw.Draw(img)
    for k, skill in enumerate(("punch", "kick", "shoot", "dodge")):
        y = k * (BOX_H + BOX_GAP)
        text(d, (0, y + BOX_H / 2), fit(t(f"{NS}.skill.{skill}", locale), NAME, NAME_W - 6), NAME, WHITE, "lm")
        for lv in range(1, 5):
            bx = NAME_W + (lv - 1) * (BOX_W + BOX_GAP)
            d.rounded_rectangle((bx, y, bx + BOX_W, y + BOX_H), 5, fill=SHADES[lv - 1], outline="#0b0b0e", width=1)
            _icons(d, skills[skill][lv - 1], bx + 16, y + (BOX_H - ICON) // 2, None, -1)
    return img


def _icons(d: ImageDraw.ImageDraw, actions: list[str], x: int, y: int, in_use: bool | None, step_index: int) -> None:
    for j, a in enumerate(actions):
        col = WHITE
        if in_use:
            col = GREEN if j == step_index else (USED if j < step_index else WHITE)
        icon(d, a, x, y, ICON, col)
        x += ICON + 6


def _figure(d: ImageDraw.ImageDraw, x: int, y: int, colour: str, big: bool = False) -> None:
    """A simple stick-brawler token (head top at ``y``)."""
    r = 15 if big else 13
    d.ellipse((x - r, y, x + r, y + 2 * r), fill=colour)
    d.rounded_rectangle((x - 20, y + 2 * r + 4, x + 20, y + 2 * r + 44), 8, fill=colour)


def _enemy_rows(d: ImageDraw.ImageDraw, x: int, y: int, card: EnemyFace, active: str | None, locale: str) -> None:
    labels = {row: t(f"{NS}.dir.{row}", locale) for row in ("left", "right")}
    off = 8 + max(int(length(v, SMALL)) for v in labels.values())
    for k, row in enumerate(("left", "right")):
        yy = y + k * 28
        on = row == active
        colour = WHITE if on else OFF
        if on:
            d.rounded_rectangle((x - 4, yy - 3, x + CARD_W - 20, yy + ICON + 3), 4, outline=GOLD, width=2)
        text(d, (x, yy + ICON // 2), labels[row], SMALL, colour, "lm")
        ix = x + off
        for a in getattr(card, row):
            icon(d, a, ix, yy, ICON, colour)
            ix += ICON + 6


# ------------------------------------------------------- the enemy phase
def _player(view: CofView) -> str | None:
    """The player's display name when the caller's labels give one (never the seat id)."""
    seat = view.seats[0] if view.seats else None
    lab = view.labels.get(seat) if seat is not None else None
    return lab.name if lab is not None and lab.name != seat else None


def _hero_name(view: CofView, loc: str) -> str:
    """The hero in a sentence: the player's display name, else "the hero"."""
    return _player(view) or t(f"{NS}.hero_marker", loc)


def _who(x: str | None, view: CofView, loc: str) -> str:
    if x is None:
        return ""
    return _hero_name(view, loc) if x == "hero" else t(f"{NS}.card.{x}.name", loc)


def turn_summary(turn: EnemyTurnRecord, view: CofView, loc: str) -> str:
    """What one enemy did, in words: its actions done (repeats merged), then the
    ones it could not do, each named once."""
    hero = _hero_name(view, loc)
    done: list[str] = []
    hp: int | None = None
    for st in turn.steps:
        if not st.done:
            continue
        kind, _, direction = st.action.partition("_")
        dname = t(f"{NS}.dir.{direction}", loc) if direction else ""
        if kind == "jump" and st.swapped:
            s = t(f"{NS}.render.did.jump_swap", loc, direction=dname, other=_who(st.swapped, view, loc))
        else:
            s = t(f"{NS}.render.did.{kind}", loc, direction=dname, hero=hero)
        hp = st.hp if st.hp is not None else hp
        done.append(s)
    merged: list[tuple[str, int]] = []
    for s in done:
        if merged and merged[-1][0] == s:
            merged[-1] = (s, merged[-1][1] + 1)
        else:
            merged.append((s, 1))
    sep = t(f"{NS}.list_sep", loc)
    parts = [t(f"{NS}.render.did.times", loc, what=s, n=n) if n > 1 else s for s, n in merged]
    out = sep.join(parts) if parts else t(f"{NS}.render.phase.nothing", loc)
    if hp == 0:
        out = t(f"{NS}.render.phase.down", loc, done=out, hero=hero)
    elif hp is not None:
        out = t(f"{NS}.render.phase.hp_left", loc, done=out, hp=hp)
    skipped = list(dict.fromkeys(st.action for st in turn.steps if not st.done))
    if skipped:
        names = sep.join(t(f"{NS}.eact.{a}", loc) for a in skipped)
        out = t(f"{NS}.render.phase.with_skipped", loc, done=out, skipped=names)
    return out


def _shift(phase: EnemyPhase, screen: list[str]) -> int:
    """How many cards the screen scrolled since the phase (its slots move left by that)."""
    old = list(phase.screen)
    for k in range(SLOTS + 1):
        if old[k:] == screen[: SLOTS - k]:
            return k
    return SLOTS


def _fresh(view: CofView) -> bool:
    """The board is still the one the last enemy phase left (the hero has not acted since)."""
    ph = view.last_enemy_phase
    if ph is None:
        return False
    if view.result == "loss":
        return ph.round == view.round
    return view.pending is not None and view.pending.kind == "choose_skill" and ph.round == view.round - 1


def _colour_of(view: CofView, enemy: str) -> str:
    return BOSS_C if enemy == view.boss else ENEMY_C


def _slot_x(slot: int) -> float:
    """Centre of a slot's card (slots left of the screen: at the left edge)."""
    if slot < 0:
        return 4.0
    return _card_x(min(slot, SLOTS - 1)) + CARD_W / 2


def _draw_phase_on_street(d: ImageDraw.ImageDraw, view: CofView) -> None:
    """Numbered arrows for the moves, jumps and pushes, and the damage dealt to the hero."""
    ph = view.last_enemy_phase
    assert ph is not None
    shift = _shift(ph, list(view.screen))
    lanes: list[tuple[float, float, int]] = []  # (x from, x to, lane) of the arrows drawn
    damage = 0
    for n, turn in enumerate(ph.turns, 1):
        colour = _colour_of(view, turn.enemy)
        for st in turn.steps:
            if not st.done:
                continue
            if st.hp is not None:
                damage += 1
                continue
            if st.src is None or st.dst is None:
                continue
            a, b = _slot_x(st.src - shift), _slot_x(st.dst - shift)
            lo, hi = min(a, b), max(a, b)
            lane = 0
            while any(ln == lane and lo < h2 and l2 < hi for l2, h2, ln in lanes):
                lane += 1
            lanes.append((lo, hi, lane))
            y = CARD_Y + LANE_Y + lane * LANE_STEP
            direction = 1 if b > a else -1
            tail, head = a + direction * 14, b - direction * 24
            kind = st.action.split("_")[0]
            if kind == "jump":  # a hop
                d.arc((min(tail, head), y - 8, max(tail, head), y + 16), 180, 360, fill=colour, width=4)
                yy = y + 4
            else:
                d.line((tail, y, head, y), fill=colour, width=4)
                yy = y
                if kind == "push":
                    d.line((tail, y - 8, tail, y + 8), fill=colour, width=3)
            d.polygon([(head + direction * 12, yy), (head, yy - 8), (head, yy + 8)], fill=colour)
            _badge(d, a, yy, n, colour)
    if damage and "hero" in view.street:
        cx = _card_x(view.street.index("hero")) + CARD_W // 2
        x, y = cx + 26, CARD_Y + FIG_Y + 2
        d.rounded_rectangle((x, y, x + 52, y + 28), 8, fill=HIT_C, outline=WHITE, width=2)
        text(d, (x + 26, y + 14), f"−{damage}", BODY, WHITE, "mm")
    # who acted: its number on its figure
    for n, turn in enumerate(ph.turns, 1):
        if turn.enemy in view.street:
            cx = _card_x(view.street.index(turn.enemy)) + CARD_W // 2
            _badge(d, cx - 34, CARD_Y + FIG_Y + 16, n, _colour_of(view, turn.enemy))


def _draw_strip(d: ImageDraw.ImageDraw, view: CofView, loc: str) -> None:
    """One line per enemy of the last phase: badge, name, its row done/struck, what it did."""
    ph = view.last_enemy_phase
    x0, y = X0 + 14, STRIP_Y + 18
    right = W - X0 - 14
    if ph is None:
        text(d, (x0, y), t(f"{NS}.render.phase.none", loc), BODY, DIM, "lm")
        return
    text(d, (x0, y), t(f"{NS}.render.phase.title", loc, round=ph.round), BODY, GOLD, "lm")
    if not ph.turns:
        text(d, (x0, y + LINE_H), t(f"{NS}.render.phase.empty", loc), BODY, DIM, "lm")
        return
    name_w = 150
    for n, turn in enumerate(ph.turns[:4], 1):
        cy = y + n * LINE_H
        colour = _colour_of(view, turn.enemy)
        _badge(d, x0 + 10, cy, n, colour)
        name = fit(t(f"{NS}.card.{turn.enemy}.name", loc), BODY, name_w - 8)
        text(d, (x0 + 28, cy), name, BODY, colour if colour != ENEMY_C else "#ff7b73", "lm")
        ix = x0 + 28 + name_w
        for st in turn.steps:
            col = WHITE if st.done else OFF
            icon(d, st.action, ix, cy - ICON // 2, ICON, col)
            if not st.done:  # struck out
                d.line((ix - 1, cy + ICON // 2, ix + ICON + 1, cy - ICON // 2), fill=ENEMY_C, width=2)
            ix += ICON + 6
        ix = max(ix, x0 + 28 + name_w + 3 * (ICON + 6)) + 10
        line = turn_summary(turn, view, loc)
        size = BODY if length(line, BODY) <= right - ix else SMALL  # a long line: smaller, then cut
        text(d, (ix, cy), fit(line, size, right - ix), size, WHITE, "lm")


# ------------------------------------------------------------------ draw
def draw(view: CofView, locale: str = DEFAULT) -> bytes:
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
    player = _player(view)
    hero_kind = t(f"{NS}.card.{view.hero}.name", loc)
    hero_name = player or hero_kind  # on the hero's card

    # header: the player, enemies beaten, round
    round_s = t(f"{NS}.render.round", loc, round=view.round)
    text(d, (W - X0, 23), round_s, 22, WHITE, "rm")
    beaten = t(f"{NS}.render.beaten", loc, n=len(view.beaten))
    bx = W - X0 - int(length(round_s, 22)) - 24
    text(d, (bx, 23), beaten, BODY, DIM, "rm")
    if player:
        tx = X0 + int(length(t(f"{NS}.name", loc), 26)) + 24
        text(d, (tx, 23), fit(player, 20, bx - int(length(beaten, BODY)) - tx - 24), 20, HERO_C, "lm")

    all_ids = sorted(cards)
    # the 5-card screen
    for i in range(SLOTS):
        x = _card_x(i)
        cid = screen[i]
        fill = (
            CAFE
            if cid == boss
            else STREET_COLOURS[all_ids.index(cid) % len(STREET_COLOURS)]
            if cid in all_ids
            else "#333333"
        )
        img.paste(_card_tile(cid, fill, i, loc), (x, CARD_Y))
        who = street[i]
        cx = x + CARD_W // 2
        if who == "hero":
            _figure(d, cx, CARD_Y + FIG_Y - 4, HERO_C, big=True)
            text(d, (cx, CARD_Y + GROUND_Y + 20), fit(hero_name, NAME, CARD_W - 16), NAME, WHITE, "mm")
            mx = hero_card.max_hp
            bar(d, x + 18, CARD_Y + GROUND_Y + 36, CARD_W - 36, 14, view.hero_hp, mx, fg=GREEN)
            hp_s = t(f"{NS}.render.hp", loc, hp=view.hero_hp, max=mx)
            text(d, (cx, CARD_Y + GROUND_Y + 68), hp_s, BODY, WHITE, "mm")
        elif who is not None and who in cards:
            card = cards[who]
            colour = BOSS_C if who == boss else ENEMY_C
            _figure(d, cx, CARD_Y + FIG_Y + (-4 if who == boss else 0), colour, big=who == boss)
            name = fit(t(f"{NS}.card.{who}.name", loc), NAME, CARD_W - 16)
            text(d, (cx, CARD_Y + GROUND_Y + 18), name, NAME, WHITE, "mm")
            hp = enemy_hp.get(who, 0)
            bar(d, x + 14, CARD_Y + GROUND_Y + 34, CARD_W - 74, 12, hp, card.max_hp, fg=GOLD)
            text(d, (x + CARD_W - 14, CARD_Y + GROUND_Y + 40), f"{hp}/{card.max_hp}", BODY, WHITE, "rm")
            active = "right" if i < hero_slot else "left"
            _enemy_rows(d, x + 14, CARD_Y + GROUND_Y + 58, card, active, loc)

    if _fresh(view):
        _draw_phase_on_street(d, view)
    _draw_strip(d, view, loc)

    # skill rows: the cached grid, then the level cubes and the skill in use
    levels = view.levels
    pending = view.pending
    kind = pending.kind if pending is not None else None
    using = pending.skill if pending is not None and kind == "step" else None
    using_level = pending.level if pending is not None else None
    step_index = pending.index if pending is not None else 0
    img.paste(_grid(_json.dumps(hero_card.skills, sort_keys=True), loc), (GRID_X, GRID_Y))
    for k, skill in enumerate(("punch", "kick", "shoot", "dodge")):
        y = GRID_Y + k * (BOX_H + BOX_GAP)
        for lv in range(1, 5):
            bx = GRID_X + NAME_W + (lv - 1) * (BOX_W + BOX_GAP)
            current = levels.get(skill) == lv
            in_use = using == skill and using_level == lv
            if in_use:
                d.rounded_rectangle((bx, y, bx + BOX_W, y + BOX_H), 5, fill=SHADES[lv - 1], outline=GREEN, width=3)
                _icons(d, hero_card.skills[skill][lv - 1], bx + 16, y + (BOX_H - ICON) // 2, True, step_index)
            if current:
                d.rounded_rectangle((bx, y, bx + BOX_W, y + BOX_H), 5, outline=GOLD, width=2)
                d.rectangle((bx + 4, y + 4, bx + 11, y + 11), fill=GOLD)  # the level cube

    # status panel (right of the skill rows)
    px, pw = PANEL_X + 12, W - X0 - PANEL_X - 24
    mx = hero_card.max_hp
    hp_s = t(f"{NS}.render.hp", loc, hp=view.hero_hp, max=mx)
    text(d, (px + pw, GRID_Y + 20), hp_s, BODY, WHITE, "rm")
    who_s = f"{player} · {hero_kind}" if player else hero_kind
    text(d, (px, GRID_Y + 20), fit(who_s, NAME, pw - length(hp_s, BODY) - 10), NAME, HERO_C, "lm")
    bar(d, px, GRID_Y + 36, pw, 14, view.hero_hp, mx, fg=GREEN)
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
        _wrap(d, px, GRID_Y + 60, t(f"{NS}.render.next", loc, what=what), pw, BODY, WHITE, 2)

    result = view.result
    if result:
        colour = WIN_C if result == "win" else LOSS_C
        top, bottom = CARD_Y + GROUND_Y + 54, STRIP_Y + 4  # over the cards' behaviour rows: the figures stay in sight
        d.rectangle((0, top, W, bottom), fill=colour)
        d.line((0, top, W, top), fill=GOLD, width=3)
        d.line((0, bottom, W, bottom), fill=GOLD, width=3)
        text(d, (W / 2, (top + bottom) / 2), t(f"{NS}.render.{result}", loc), 40, WHITE, "mm")
    # flat colours: mapping onto a fixed palette (no dithering) is ~1 ms and makes
    # the PNG encode 5x faster and the file half the size
    return to_png(img.quantize(palette=_palette(), dither=Image.Dither.NONE))


def _rgb(c: str) -> tuple[int, int, int]:
    c = c.lstrip("#")
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """Every colour the board uses, plus 3 anti-aliasing steps for each text colour on its backgrounds."""
    cards = [*STREET_COLOURS, CAFE]
    base = [
        BG,
        HEADER,
        BAND,
        PANEL,
        GOLD,
        DIM,
        WHITE,
        HERO_C,
        ENEMY_C,
        BOSS_C,
        HIT_C,
        "#ff7b73",
        *cards,
        *SHADES,
        "#0b0b0e",
        "#1c1c22",
        SLOT_C,
        STREET_C,
        GREEN,
        USED,
        OFF,
        "#3a3a3a",
        "#111111",
        WIN_C,
        LOSS_C,
        "#333333",
        "#000000",
    ]
    pairs = [(WHITE, b) for b in (BG, HEADER, *cards, *SHADES, PANEL, WIN_C, LOSS_C, HIT_C, ENEMY_C, BOSS_C)]
    pairs += [(GOLD, b) for b in (HEADER, PANEL, *cards)]
    pairs += [(DIM, b) for b in (HEADER, PANEL)] + [(STREET_C, BAND), (HERO_C, PANEL), (HERO_C, HEADER)]
    pairs += [(c, b) for c in (SLOT_C, OFF) for b in cards]
    pairs += [(OFF, PANEL), ("#ff7b73", PANEL), (BOSS_C, PANEL)]
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
    assert len(colours) <= 256, len(colours)
    flat = [v for c in colours for v in c] + [0, 0, 0] * (256 - len(colours))
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat)
    return pal


def _wrap(d: ImageDraw.ImageDraw, x: int, y: int, s: str, width: int, size: int, fill: str, most: int = 3) -> None:
    line = ""
    lines = []
    tokens = s.split(" ") if " " in s else list(s)
    joiner = " " if " " in s else ""
    for tok in tokens:
        cand = (line + joiner + tok) if line else tok
        if length(cand, size) <= width:
            line = cand
        else:
            lines.append(line)
            line = tok
    if line:
        lines.append(line)
    for i, ln in enumerate(lines[:most]):
        text(d, (x, y + i * (size + 6)), ln, size, fill, "la")

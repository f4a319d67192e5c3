"""Thunder Road's board image (issue 12, item 7): every text in the table's language,
real names, coordinates that are the buttons' coordinates, cars told apart by size and
seat colour, the moving car and spun-out cars marked, numbered destinations."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

from PIL import Image, ImageDraw

import render.thunder_road as R
from engine import get_game
from engine.base import SeatLabel
from engine.locales import CODES
from engine.thunder_road.content import faces
from render.common import recorded_text
from tables.rules.choices import choices, describe, destinations, numbering

GAME = get_game("thunder_road")
NAMES = ["Bartholomew", "小明同学", "Zoë", "Maximilian", "阿强"]
COLOURS = ["#e0533d", "#4a90d9", "#3fbf62", "#e8c547", "#a461d8"]
ROOT = Path(__file__).resolve().parent.parent


def _game(seats: int = 2, seed: int = 3, opts=None):
    names = [f"p{i + 1}" for i in range(seats)]
    st = GAME.new(names, opts or {}, seed)
    states = [st]
    while GAME.outcome(st) is None and st.step < 3000:
        st, _ = GAME.ai_step(st)
        states.append(st)
    labels = {s: SeatLabel(name=NAMES[i], colour=COLOURS[i]) for i, s in enumerate(names)}
    return states, labels


def _drawn(view, locale):
    with recorded_text() as runs:
        png = R.draw(view, locale)
    return Image.open(io.BytesIO(png)).convert("RGB"), [s for _, s in runs]


def _close(px, colour: str, tol: int = 40) -> bool:
    want = tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return all(abs(a - b) <= tol for a, b in zip(px, want))


def test_a_chinese_image_draws_no_english_tile_name_code_or_seat_id():
    english = {d["name"] for d in faces().values()}
    zh = json.loads((ROOT / "data/thunder_road/locales/zh.json").read_text(encoding="utf-8"))
    en = json.loads((ROOT / "data/thunder_road/locales/en.json").read_text(encoding="utf-8"))
    states, labels = _game(4, seed=5)
    for st in states[:: len(states) // 6]:
        _, runs = _drawn(GAME.view(st, None, labels), "zh")
        text = "\n".join(runs)
        assert not [n for n in english if n in text], "tile names in the reader's language"
        assert {zh[f"thunder_road.tile.{f}"] for f in st.tiles} <= set(runs)
        assert not re.search(r"\bp\d\b", text), "seats by their names, never p1"
        assert any(n in text for n in NAMES[:4])
        assert not re.search(r"\bC\d|\d/\d", text), "no unexplained codes (0/2 C0)"
        legend = [v for k, v in zh.items() if k.startswith("thunder_road.render.legend.") and k[-6:] != "on_fire"]
        assert {zh["thunder_road.render.legend.damage"], zh["thunder_road.render.legend.coast"]} <= set(
            "\n".join(runs).replace(" / ", "\n").split("\n")
        )
        assert not [v for k, v in en.items() if k.startswith("thunder_road.render.legend.") and v in runs]
        assert any(v in text for v in legend)


def test_the_spaces_the_buttons_name_are_printed_on_the_board():
    states, labels = _game(2)
    checked = 0
    for st in states:
        seat = GAME.to_act(st)[0] if GAME.to_act(st) else None
        if seat is None or st.pending is None or st.pending.stage not in ("enter", "step"):
            continue
        view = GAME.view(st, None, labels)
        _, runs = _drawn(view, "en")
        offered = choices(GAME, st, seat)
        for label, _ in describe(GAME, st, seat, offered, "en", labels):
            for lane, row in re.findall(r"\b([A-G])(\d{1,2})\b", label):
                assert lane in runs and row in runs, (label, "the board prints lane letters and row numbers")
                checked += 1
        if checked > 40:
            break
    assert checked > 40
    assert view.board.lanes == list("ABCDEFG")


def test_car_sizes_differ_in_length_and_width():
    boxes = {}
    for size in ("bike", "small", "medium", "large", "rig"):
        im = Image.new("RGB", (120, 80), "#000000")
        R._vehicle(ImageDraw.Draw(im), 60, 40, size, "#ff0000")
        boxes[size] = im.getbbox()
    span = {k: (b[2] - b[0], b[3] - b[1]) for k, b in boxes.items()}
    assert span["small"][0] < span["medium"][0] < span["large"][0], span
    assert span["small"][1] < span["medium"][1] < span["large"][1], span
    assert span["bike"][1] < span["small"][1], span


def test_cars_wear_their_seats_colours_and_the_mover_and_spun_out_cars_are_marked():
    states, labels = _game(4, seed=3)  # cars spin out in this one
    colour = {s: lab.colour for s, lab in labels.items()}
    seen_mover = seen_spun = 0
    for st in states[::3]:
        view = GAME.view(st, None, labels)
        im, _ = _drawn(view, "en")
        for v in view.vehicles:
            if v.where != "road" or v.pos is None or v.kind == "wreck" or v.pos in [c.pos for c in view.choices]:
                continue
            cx, cy = R._center(*v.pos)
            body = im.getpixel((int(cx - 1), int(cy + R.WID[v.size] / 2 - 4)))
            if v.operable and v.kind != "rig":
                assert _close(body, colour[v.owner]), (v.id, body)
            else:
                centre = im.getpixel((int(cx), int(cy)))
                assert _close(centre, "#ef4444"), ("spun out: crossed in red", centre)
                seen_spun += 1
            if view.pending is not None and v.id == view.pending.car and view.pending.stage in ("enter", "step"):
                ring = im.getpixel((int(cx), int(cy - R.S + 3)))
                assert _close(ring, R.HILITE), ("the moving car's space is ringed", ring)
                seen_mover += 1
    assert seen_mover > 3 and seen_spun > 0, (seen_mover, seen_spun)


def test_numbered_destinations_are_drawn_where_marked():
    states, labels = _game(2)
    for st in states:
        seat = GAME.to_act(st)[0] if GAME.to_act(st) else None
        if seat is None or st.pending is None or st.pending.stage != "step":
            continue
        offered = choices(GAME, st, seat)
        _, marks = numbering(destinations(GAME, st, seat, offered))
        taken = {tuple(v.pos) for v in st.vehicles if v.where == "road" and v.pos}
        free = {p: n for p, n in marks.items() if tuple(int(x) for x in p.split(",")) not in taken}
        if len(free) < 3:
            continue
        view = GAME.view(st, None, labels).model_copy(update={"marks": marks})
        im, runs = _drawn(view, "en")
        plain, _ = _drawn(GAME.view(st, None, labels), "en")
        for place, n in free.items():
            c, y = (int(x) for x in place.split(","))
            cx, cy = R._center(c, y)
            assert _close(im.getpixel((int(cx - 11), int(cy))), R.HILITE), place
            assert not _close(plain.getpixel((int(cx - 11), int(cy))), R.HILITE, 20)
            assert str(n) in runs
        return
    raise AssertionError("no move with three free destinations")


def test_five_seats_with_the_big_rig_fit_and_read():
    states, labels = _game(5, seed=4, opts={"big_rig": True})
    im, runs = _drawn(GAME.view(states[len(states) // 2], None, labels), "zh")
    assert im.width >= 1000 and im.height <= 900
    assert "阿强 · 重型卡车" in runs or any("阿强" in r for r in runs)


def test_the_legend_explains_an_empty_hazard_space_only_while_one_is_on_the_board():
    """The small red triangles mark a hazard space without a token (rulings §6/§7: 1 move,
    not road); the legend names them exactly when the board shows one."""
    states, labels = _game(2, seed=3)
    words = {
        loc: json.loads((ROOT / f"data/thunder_road/locales/{loc}.json").read_text(encoding="utf-8"))[
            "thunder_road.render.legend.empty_hazard"
        ]
        for loc in CODES
    }
    seen = {True: 0, False: 0}
    for st in states[:: max(1, len(states) // 12)]:
        view = GAME.view(st, None, labels)
        tokens = {tuple(h.pos) for h in view.hazards}
        empty = any(
            row[c] == "H" and (c, 2 * r + c % 2) not in tokens
            for r, row in enumerate(view.board.terrain)
            for c in range(len(row))
        )
        for loc in CODES:
            _, runs = _drawn(view, loc)
            assert (words[loc] in runs) == empty
        seen[empty] += 1
    assert seen[True] and seen[False], "the game shows boards with and without an empty hazard space"

"""Emoji and symbols in display names are drawn by a font that has them, never as
empty boxes (issue 20 item 9)."""

from __future__ import annotations

import pytest

from engine import get_game
from engine.base import SeatLabel
from render import render
from render.common import _cmap, _joins, font_paths, glyph_mask, length, recorded_text, segments

NAMES = ["Ali 🚗🔥", "⚔️ Knight", "Zoë 👍🏽", "小明★♛", "👨‍👩‍👧 fam", "שלום ✈", "สวัสดี ♞"]
COLOURS = ["#e0533d", "#4a90d9", "#3fbf62", "#e8c547", "#a461d8"]


def _covered(s: str) -> bool:
    """Every visible character of ``s`` lands in a run whose font has it."""
    paths = font_paths()
    for run, idx in segments(s):
        for ch in run:
            if not _joins(ch) and ord(ch) not in _cmap(paths[idx]):
                return False
    return True


def test_fallback_fonts_are_installed():
    names = " ".join(font_paths())
    assert "NotoEmoji" in names and "NotoSansSymbols" in names, font_paths()


@pytest.mark.parametrize("name", NAMES)
def test_every_character_of_a_name_is_drawn_by_a_font_that_has_it(name):
    assert _covered(name)
    shown = "".join(run for run, _ in segments(name))
    assert "?" not in shown, "nothing replaced: the shipped fonts cover these names"
    assert all(ch in shown for ch in name if not _joins(ch)), shown


def test_an_emoji_is_ink_not_the_main_fonts_empty_box():
    emoji, _, _ = glyph_mask("😀", 32)
    box = _box_of_main_font(32)
    assert emoji.getbbox() is not None, "the emoji left ink"
    assert emoji.tobytes() != box.tobytes()
    assert length("😀", 32) > 0


def _box_of_main_font(size: int):
    from PIL import Image, ImageDraw

    from render.common import font

    f = font(size)
    left, top, right, bottom = (int(v) for v in f.getbbox("😀"))
    img = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(img).text((-left, -top), "😀", font=f, fill=255)
    return img


def test_a_character_no_font_has_is_replaced_and_an_invisible_one_dropped():
    runs = segments("A\U000e0001B\U0010fffd")  # a stray tag, a private-use char
    shown = "".join(run for run, _ in runs)
    assert shown == "AB?"
    assert _covered(shown)


@pytest.mark.parametrize(
    ("game_id", "seats"), [("thunder_road", 4), ("automobile", 5), ("armor_clash", 2), ("city_of_fury", 1)]
)
def test_boards_draw_emoji_names_with_fonts_that_have_every_glyph(game_id, seats):
    game = get_game(game_id)
    ids = [f"p{i + 1}" for i in range(seats)]
    state = game.new(ids, {}, 5)
    for _ in range(20):
        if game.outcome(state) is not None:
            break
        state, _ = game.ai_step(state, None)
    labels = {s: SeatLabel(name=NAMES[i], colour=COLOURS[i]) for i, s in enumerate(ids)}
    with recorded_text() as runs:
        png = render(game_id, game.view(state, None, labels), "en")
    assert png[:4] == b"\x89PNG"
    drawn = [s for _, s in runs]
    assert any(any(ch in s for ch in "🚗⚔👍★👨") for s in drawn), "a name was drawn"
    missing = [s for s in drawn if not _covered(s)]
    assert not missing, missing

"""City of Fury renderer smoke test: PNG bytes of the right size in en and zh."""

from __future__ import annotations

import io

from PIL import Image

from engine.city_of_fury import GAME
from render import render
from render.city_of_fury import H, W, draw

SEAT = "solo"


def _states():
    s = GAME.new([SEAT], {}, 11)
    yield s
    s, _ = GAME.apply(s, SEAT, {"kind": "choose_skill", "skill": "kick"})  # mid-skill: a step pending
    yield s
    while GAME.outcome(s) is None:
        s, _ = GAME.apply(s, SEAT, GAME.ai_action(s, SEAT))
    yield s  # the win/loss banner


def test_render_png_of_right_size_in_both_languages():
    images = []
    for state in _states():
        for loc in ("en", "zh", "zh-CN"):
            data = draw(GAME.view(state, None), loc)
            assert data[:8] == b"\x89PNG\r\n\x1a\n"
            img = Image.open(io.BytesIO(data))
            assert img.size == (W, H) == (900, 420)
            images.append(img.convert("RGB").tobytes())
    # en and zh differ (translated text); a new state changes the picture
    assert images[0] != images[1] and images[0] != images[3]
    assert render("city_of_fury", GAME.view(GAME.new([SEAT], {}, 1), SEAT), "en")[:4] == b"\x89PNG"


def test_render_brawler_and_enemy_rows():
    s = GAME.new([SEAT], {"hero": "brawler"}, 2)
    img = Image.open(io.BytesIO(draw(GAME.view(s, None), "zh")))
    assert img.size == (W, H)


def test_the_board_names_the_player_by_the_callers_label():
    from engine import SeatLabel

    s = GAME.new([SEAT], {}, 3)
    plain = draw(GAME.view(s, None), "en")
    named = draw(GAME.view(s, None, {SEAT: SeatLabel(name="Ada Lovelace")}), "en")
    assert plain != named
    assert named == draw(GAME.view(s, SEAT, {SEAT: SeatLabel(name="Ada Lovelace")}), "en")  # nothing is private

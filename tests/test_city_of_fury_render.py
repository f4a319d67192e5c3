"""City of Fury renderer: PNG bytes of the right size in en and zh, the player named,
every text in the table's language, and the last enemy phase drawn (issue 12 item 7)."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from engine import SeatLabel
from engine.city_of_fury import GAME
from engine.city_of_fury import models as m
from engine.i18n import t
from render import render
from render.city_of_fury import CARD_H, CARD_Y, STRIP_H, STRIP_Y, H, W, draw, turn_summary
from render.common import recorded_text

SEAT = "solo"
NAME = "Bartholomew"
LABELS = {SEAT: SeatLabel(name=NAME)}


def _states():
    s = GAME.new([SEAT], {}, 11)
    yield s
    s, _ = GAME.apply(s, SEAT, {"kind": "choose_skill", "skill": "kick"})  # mid-skill: a step pending
    yield s
    while GAME.outcome(s) is None:
        s, _ = GAME.apply(s, SEAT, GAME.ai_action(s, SEAT))
    yield s  # the win/loss banner


def _game(seed: int, hero: str = "vigilante"):
    """Every state of a seeded AI game with the events that led to it."""
    s = GAME.new([SEAT], {"hero": hero}, seed)
    out = [(s, [])]
    while GAME.outcome(s) is None:
        s, ev = GAME.ai_step(s)
        out.append((s, ev))
    return out


def _pixels(png: bytes, box: tuple[int, int, int, int]) -> bytes:
    return Image.open(io.BytesIO(png)).convert("RGB").crop(box).tobytes()


STREET = (0, CARD_Y, W, CARD_Y + CARD_H)
STRIP = (0, STRIP_Y, W, STRIP_Y + STRIP_H)


def test_render_png_of_right_size_in_both_languages():
    images = []
    for state in _states():
        for loc in ("en", "zh", "zh-CN"):
            data = draw(GAME.view(state, None), loc)
            assert data[:8] == b"\x89PNG\r\n\x1a\n"
            img = Image.open(io.BytesIO(data))
            assert img.size == (W, H) == (1000, 700)
            images.append(img.convert("RGB").tobytes())
    # en and zh differ (translated text); a new state changes the picture
    assert images[0] != images[1] and images[0] != images[3]
    assert images[1] == images[2]  # zh-CN is zh
    assert render("city_of_fury", GAME.view(GAME.new([SEAT], {}, 1), SEAT), "en")[:4] == b"\x89PNG"


def test_render_brawler_and_enemy_rows():
    s = GAME.new([SEAT], {"hero": "brawler"}, 2)
    img = Image.open(io.BytesIO(draw(GAME.view(s, None), "zh")))
    assert img.size == (W, H)


def test_the_board_names_the_player_by_the_callers_label():
    s = next(st for st, ev in _game(3) if any(isinstance(e, m.EnemyHitHero) for e in ev))
    with recorded_text() as plain_runs:
        plain = draw(GAME.view(s, None), "en")
    with recorded_text() as runs:
        named = draw(GAME.view(s, None, LABELS), "en")
    assert plain != named
    assert named == draw(GAME.view(s, SEAT, LABELS), "en")  # nothing is private
    texts = [x for _, x in runs]
    assert NAME in texts  # the header and the hero's card
    assert any(x.startswith(f"{NAME} · ") for x in texts)  # the status panel: player and hero card
    assert any(f"hit {NAME}" in x for x in texts)  # the enemy phase strip
    # without a label the seat id never shows: the hero card's name and "the hero" do
    assert not any(SEAT in x for _, x in plain_runs)
    assert "Vigilante" in [x for _, x in plain_runs]
    assert any("hit the hero" in x for _, x in plain_runs)


@pytest.mark.parametrize("seed,hero", [(3, "vigilante"), (7, "brawler")])
def test_every_text_of_the_zh_board_is_chinese(seed, hero):
    for state, _ in _game(seed, hero)[::3]:
        with recorded_text() as runs:
            draw(GAME.view(state, None, LABELS), "zh")
        for _, s in runs:
            assert not re.search("[A-Za-z]", s.replace(NAME, "")), s


@pytest.mark.parametrize("seed", [3, 4, 11])
def test_the_strip_says_what_each_enemy_did_once_per_enemy(seed):
    checked = 0
    for state, ev in _game(seed):
        if not any(isinstance(e, m.SkillsRaised) for e in ev):
            continue
        view = GAME.view(state, None)
        ph = view.last_enemy_phase
        assert ph is not None
        with recorded_text() as runs:
            draw(view, "en")
        texts = [s for _, s in runs]
        assert f"What the enemies did in round {ph.round}:" in texts
        for turn in ph.turns:
            assert t(f"city_of_fury.card.{turn.enemy}.name", "en") in texts  # its name
            line = turn_summary(turn, view, "en")
            assert any(line.startswith(s.rstrip("…")) for s in texts), line
            # what it did, from the events: each done move named, each skipped action once
            for st in turn.steps:
                if st.done and st.action.startswith("move"):
                    assert f"moved {st.action.split('_')[1]}" in line
                if st.done and st.action in ("attack", "shoot"):
                    assert ("hit" if st.action == "attack" else "shot") + " the hero" in line
            skipped = {st.action for st in turn.steps if not st.done}
            if skipped:
                tail = line.split(" · could not ")[1]
                names = tail.split(", ")
                assert sorted(names) == sorted(t(f"city_of_fury.eact.{a}", "en") for a in skipped)
            # an enemy phase's line names no skipped action twice
            assert line.count("could not") <= 1
        checked += 1
    assert checked >= 5


def test_the_street_shows_the_phase_only_while_the_board_is_the_one_it_left():
    """Arrows and damage on the street right after the enemy phase; the strip stays until the next one."""
    fresh_drawn = stale_same = 0
    game = _game(3)
    for state, ev in game:
        view = GAME.view(state, None)
        if view.last_enemy_phase is None:
            continue
        bare = view.model_copy(update={"last_enemy_phase": None})
        with_phase, without = draw(view, "en"), draw(bare, "en")
        assert _pixels(with_phase, STRIP) != _pixels(without, STRIP)  # the strip always tells it
        fresh = any(isinstance(e, m.SkillsRaised) for e in ev)
        acted = any(st.done for tr in view.last_enemy_phase.turns for st in tr.steps)
        if fresh and acted:
            assert _pixels(with_phase, STREET) != _pixels(without, STREET)
            fresh_drawn += 1
        elif not fresh:  # the hero acted since: positions changed, the street shows none of it
            assert _pixels(with_phase, STREET) == _pixels(without, STREET)
            stale_same += 1
    assert fresh_drawn >= 5 and stale_same >= 20


def test_a_move_arrow_is_drawn_between_the_cards_it_joins():
    from render.city_of_fury import BOSS_C, ENEMY_C, _card_x, _rgb

    def view_boss() -> str:
        return GAME.view(state, None).boss

    for state, ev in _game(3):
        moves = [e for e in ev if isinstance(e, m.EnemyMoved) and e.how == "move"]
        scrolled = any(isinstance(e, m.Scrolled) for e in ev)
        if moves and not scrolled and state.result is None:
            break
    else:
        pytest.fail("no enemy move without a scroll")
    mv = moves[0]
    img = Image.open(io.BytesIO(draw(GAME.view(state, None), "en"))).convert("RGB")
    lo, hi = sorted((mv.src, mv.dst))
    gap_x = _card_x(hi) - 5  # the gap between the two cards
    column = [img.getpixel((gap_x, y)) for y in range(CARD_Y + 40, CARD_Y + 110)]
    assert _rgb(ENEMY_C if mv.enemy != view_boss() else BOSS_C) in column

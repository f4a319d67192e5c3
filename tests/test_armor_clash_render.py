"""Render smoke tests: PNG out for both locales, modes and a finished game, fast enough."""

from engine.armor_clash import GAME
from render.armor_clash import draw
from render.common import has_cjk_font


def _played(options, seed=2, steps=60):
    s = GAME.new(["alice", "bob", "carol", "dave"], options, seed)
    for _ in range(steps):
        if GAME.outcome(s):
            break
        seat = GAME.to_act(s)[0]
        s, _ = GAME.apply(s, seat, GAME.ai_action(s, seat))
    return s


def test_draws_png_in_both_locales_and_modes():
    for mode in ("normal", "simple"):
        s = _played({"mode": mode})
        for locale in ("en", "zh"):
            png = draw(GAME.view(s, None), locale)
            assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 5000


def test_chinese_font_available():
    assert has_cjk_font()


def test_view_hides_uncommitted_and_renders_pending_seat():
    s = GAME.new(["alice", "bob"], {}, 1)
    s, _ = GAME.apply(s, "alice", {"kind": "choose", "what": "shoot"})
    v = GAME.view(s, "bob")
    assert v.my_pending is None and v.pending == {} and v.orders == {}
    assert GAME.view(s, "alice").my_pending.step == "target"
    assert draw(v, "en")[:4] == b"\x89PNG"


def test_last_turn_shots_are_public_and_drawn():
    s = GAME.new(["alice"], {}, 1)
    s.rng.force("hit", [6, 2])
    s.rng.force("damage", [4])
    s, _ = GAME.apply(s, "alice", {"kind": "choose", "what": "shoot"})
    s, _ = GAME.apply(s, "alice", {"kind": "target", "target": "boss"})
    shots = GAME.view(s, None).model_dump(mode="json")["last_shots"]
    assert {"shooter": "alice", "target": "boss", "hit": False} in shots
    assert any(x["shooter"] == "boss" and x["hit"] for x in shots)
    assert draw(GAME.view(s, None), "zh")[:4] == b"\x89PNG"

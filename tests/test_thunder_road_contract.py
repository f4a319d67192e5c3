"""Thunder Road: Vendetta on the engine contract: hooks only, AI levels (issue 10 item 2,
issue 14 item 4)."""

from __future__ import annotations

import types

import pytest

from engine import Game, GameError
from engine.thunder_road import GAME
from engine.thunder_road import ai as AI
from engine.thunder_road import rules as R
from engine.thunder_road.models import Pending

PUBLIC = sorted(
    n for n, v in vars(Game).items() if isinstance(v, (types.FunctionType, staticmethod)) and not n.startswith("_")
)


def test_the_game_overrides_no_public_method_only_hooks():
    own = set(vars(type(GAME)))
    assert not own & set(PUBLIC), own & set(PUBLIC)
    hooks = ("_new", "_legal", "_transition", "_view", "_to_act", "_outcome", "_validate", "_rigs", "_ai_action")
    for hook in hooks + ("_seat_range", "_migrate_event"):
        assert hook in own, hook


def test_package_has_the_one_layout():
    import engine.thunder_road as pkg

    names = {m.name for m in __import__("pkgutil").iter_modules(pkg.__path__)}
    assert names == {"models", "rules", "game", "ai", "content", "orders"}


def test_ai_levels_easy_and_hard_are_legal_and_deterministic():
    assert GAME.ai_levels == ("easy", "hard")
    for level in ("easy", "hard"):
        st = GAME.new(["a", "b", "c"], {}, 7)
        for _ in range(150):
            if GAME.outcome(st) is not None:
                break
            s = GAME.to_act(st)[0]
            a = GAME.ai_action(st, s, level)
            assert a in GAME.legal_actions(st, s)
            assert GAME.ai_action(GAME.load(GAME.dump(st)), s, level) == a
            st, _ = GAME.apply(st, s, a)
    with pytest.raises(GameError) as e:
        GAME.ai_action(st, GAME.to_act(st)[0], "nightmare")
    assert e.value.code == "bad_ai_level"


def test_hard_ai_gives_the_biggest_die_to_its_leading_car_easy_to_the_car_in_danger():
    st = GAME.new(["a", "b"], {}, 3)
    st.round, st.pending, st.current = 2, Pending(seat="a", stage="assign"), "a"
    c = R.crew_of(st, "a")
    c.dice, c.used, c.turns, c.command_used = [2, 6], [], 0, False
    for v in st.vehicles:
        v.where, v.moved = "road", False
    rows = {"a:small": (20, 3), "a:medium": (3, 1), "a:large": (4, 5), "b:small": (12, 0), "b:medium": (12, 3)}
    for vid, (row, col) in rows.items():
        R.veh(st, vid).pos = [col, 2 * row + col % 2]
    R.veh(st, "b:large").pos = [6, 2 * 12]
    assert AI._leader(st, "a") == "a:small"
    hard = GAME.ai_action(st, "a", "hard")
    easy = GAME.ai_action(st, "a", "easy")
    assert (hard.car, hard.die) == ("a:small", 6)
    assert easy.car != "a:small" and easy.die == 6  # easy saves the cars on the rear tile first

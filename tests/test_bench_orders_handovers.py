"""bench/orders_handovers.py (issue 31): with the typical standing orders armed, a game of
AI-played seats hands fewer decisions to a person and, where the orders answer as the seat
filler does, ends the same."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from engine import get_game

BENCH = Path(__file__).resolve().parent.parent / "bench" / "orders_handovers.py"


def load_bench():
    spec = importlib.util.spec_from_file_location("bench_orders_handovers", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_orders_take_decisions_and_save_hand_overs_in_the_same_game():
    bench = load_bench()
    game = get_game("automobile")
    off, decisions_off, fired_off, end_off = bench.play(game, 3, 7, False)
    on, decisions_on, fired_on, end_on = bench.play(game, 3, 7, True)
    assert fired_off == 0 and fired_on > 0
    assert on < off * 0.7
    assert decisions_on == decisions_off and game.dump(end_on) == game.dump(end_off)

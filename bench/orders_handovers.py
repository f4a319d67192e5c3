"""How many decisions the typical standing orders take, and how many hand-overs they save.

Usage: python bench/orders_handovers.py [--games N] [--game ID:SEATS ...]

The engine alone (no clock, no tables): every seat of a seeded game plays the game's
AI; with orders on, before each of its own decisions a seat arms what its game's
``typical_orders(state, seat)`` (engine/<game>/orders.py) offers that it has not armed,
and an armed order that fires takes the step instead (as the platform's autopilot
does).  A *hand-over* is a decision of a person (a step no order took) by another seat
than the last person's decision: the times a table would wait on someone to come.
Prints one line per game and seat count::

    orders game=<id> seats=<n> games=<k> handovers_off=<f> handovers_on=<f> decisions=<f> by_orders=<f> same_games=<k>

(means per game; ``same_games``: games that ended in the same state with orders on as
off, i.e. the orders answered as the seat filler does).  The calendar-time benchmark
with a community of members is bench/async_days.py.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import get_game  # noqa: E402

DEFAULT = ("automobile:3", "automobile:4", "armor_clash:2", "thunder_road:2", "thunder_road:4")


def play(game: Any, seats: int, seed: int, orders: bool) -> tuple[int, int, int, Any]:
    """(hand-overs, decisions, steps taken by orders, final state) of one game."""
    typical = importlib.import_module(f"engine.{game.id}.orders").typical_orders
    state = game.new([f"p{i + 1}" for i in range(seats)], seed=seed)
    armed: dict[str, dict[str, Any]] = {s: {} for s in state.seats}
    handovers = decisions = fired = 0
    last = None
    while game.outcome(state) is None:
        seat = game.to_act(state)[0]
        action = None
        for kind, order in list(armed[seat].items()) if orders else []:
            step = game.order_step(state, seat, order)
            if step.kind == "fire":
                action = step.action
                break
            if step.kind == "lapse":
                del armed[seat][kind]
        decisions += 1
        if action is None:
            handovers += last != seat
            last = seat
            if orders:
                for k in typical(state, seat):
                    armed[seat].setdefault(k.kind, game.arm(state, seat, k.kind, k.params))
            action = game.ai_action(state, seat)
        else:
            fired += 1
        state, _ = game.apply(state, seat, action)
    return handovers, decisions, fired, state


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=10, help="seeded games per line (seeds 0..N-1)")
    ap.add_argument("--game", action="append", help="ID:SEATS (default: the benchmark's tables)")
    args = ap.parse_args()
    for spec in args.game or DEFAULT:
        gid, seats = spec.split(":")
        game = get_game(gid)
        off = on = dec = by = same = 0
        for seed in range(args.games):
            h0, _, _, end0 = play(game, int(seats), seed, False)
            h1, d1, f1, end1 = play(game, int(seats), seed, True)
            off, on, dec, by = off + h0, on + h1, dec + d1, by + f1
            same += game.dump(end0) == game.dump(end1)
        n = args.games
        print(
            f"orders game={gid} seats={seats} games={n} handovers_off={off / n:.1f} handovers_on={on / n:.1f} "
            f"decisions={dec / n:.1f} by_orders={by / n:.1f} same_games={same}"
        )


if __name__ == "__main__":
    main()

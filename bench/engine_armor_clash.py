"""Armor Clash engine speed: random legal play through the public API.

Usage: python bench/engine_armor_clash.py [seconds_per_figure=10] [--profile [--seats=N]]

A step is: ``to_act``, ``legal_actions`` of a seat to act (picked uniformly), a
uniform pick among them, ``apply``.  Games restart from the next seed when they
end.  Default options, at the minimum and the maximum seat count; the median
of 3 runs of ``seconds`` of CPU time each (``time.process_time``: the
figure is per core, and stays meaningful on a loaded shared machine).  Prints, exactly as issue 10 asks:
``engine armor_clash seats=<n> actions_per_s=<integer>``
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.armor_clash import GAME  # noqa: E402


def run(seats: int, seconds: float, seed: int) -> float:
    pick = random.Random(seed)
    names = [f"p{i + 1}" for i in range(seats)]
    game_seed = seed * 100_000
    state = GAME.new(names, {}, game_seed)
    steps = 0
    t0 = time.process_time()
    while True:
        if GAME.outcome(state) is not None:
            game_seed += 1
            state = GAME.new(names, {}, game_seed)
        seat = pick.choice(GAME.to_act(state))
        legal = GAME.legal_actions(state, seat)
        state, _ = GAME.apply(state, seat, pick.choice(legal))
        steps += 1
        if steps % 256 == 0 and time.process_time() - t0 >= seconds:
            return steps / (time.process_time() - t0)


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    seconds = float(args[0]) if args else 10.0
    if "--profile" in sys.argv:
        import cProfile
        import pstats

        seats = int(next((a.split("=", 1)[1] for a in sys.argv if a.startswith("--seats=")), GAME.max_seats))
        cProfile.runctx(
            "run(seats, seconds, 1)", globals(), {"run": run, "seconds": seconds, "seats": seats}, "/tmp/ac.prof"
        )
        pstats.Stats("/tmp/ac.prof").sort_stats("cumulative").print_stats(35)
        return
    for seats in (GAME.min_seats, GAME.max_seats):
        rates = [run(seats, seconds, r) for r in range(3)]
        print(f"engine armor_clash seats={seats} actions_per_s={int(statistics.median(rates))}", flush=True)


if __name__ == "__main__":
    main()

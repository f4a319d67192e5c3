"""Engine speed in random legal play, every game at its minimum and maximum seat count.

Usage: python bench/engine.py [--seconds S] [--game ID ...] [--seed N]

A step is: ``legal_actions`` for every seat that is to act, a uniform pick of
one of those (seat, action) pairs, and ``apply`` (default options; a finished
game starts over with the next seed).  Each figure runs for at least
``--seconds`` (default 10) of this process's CPU time (the benchmark is single
threaded, so that is one core's throughput, and a busy shared machine slows
the run but not the figure) and prints exactly

    engine <game_id> seats=<n> actions_per_s=<integer>

followed by a ``#`` line with the wall-clock rate and the load average.

(issue 10 item 4; the target is 10,000).  Run it under ``nice`` on a shared
machine and record the figures with ``uptime`` in docs/performance.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import available, get_game  # noqa: E402


def measure(game_id: str, seats: int, seconds: float, seed: int) -> tuple[float, float]:
    """(actions per CPU second, actions per wall-clock second)."""
    game = get_game(game_id)
    names = [f"s{i}" for i in range(seats)]
    rnd = random.Random(seed)
    state = game.new(names, {}, seed)
    steps = 0
    started, cpu0 = time.perf_counter(), time.process_time()
    while True:
        if game.outcome(state) is not None:
            seed += 1
            state = game.new(names, {}, seed)
        choices = [(s, a) for s in game.to_act(state) for a in game.legal_actions(state, s)]
        seat, action = choices[rnd.randrange(len(choices))]
        state, _ = game.apply(state, seat, action)
        steps += 1
        if steps % 256 == 0 and time.process_time() - cpu0 >= seconds:
            break
    return steps / (time.process_time() - cpu0), steps / (time.perf_counter() - started)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--game", action="append", help="only these games (default: every registered one)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print(f"# {platform.python_implementation()} {platform.python_version()} on {platform.machine()}", flush=True)
    for gid in args.game or available():
        game = get_game(gid)
        lo, hi = game.seat_range(game.parse_options({}))
        for n in sorted({lo, hi}):
            cpu, wall = measure(gid, n, args.seconds, args.seed)
            print(f"engine {gid} seats={n} actions_per_s={int(cpu)}", flush=True)
            print(f"#   wall clock {int(wall)}/s, load average {os.getloadavg()[0]:.1f}", flush=True)


if __name__ == "__main__":
    main()

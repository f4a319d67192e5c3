"""Seeded self-play of City of Fury with the seat-filler AI.

Usage: python bench/selfplay_city_of_fury.py [N] [--hero ID] [--seed0 S] [--render GAMES]

Plays N games (default 1000) per hero through the public Game API
(new / ai_action / apply) and prints, per hero: win rate, mean rounds
(of all games, of wins), mean HP left in wins, and games per second.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.city_of_fury import GAME  # noqa: E402
from engine.city_of_fury.content import hero_ids  # noqa: E402

AI_TIMES: list[float] = []
MAX_ROUNDS = 300  # a game still running then is counted as a stall (not a win)


def play(hero: str, seed: int) -> tuple[str, int, int, int]:
    state = GAME.new(["solo"], {"hero": hero}, seed)
    steps = 0
    while GAME.outcome(state) is None:
        t0 = time.perf_counter()
        action = GAME.ai_action(state, "solo")
        AI_TIMES.append(time.perf_counter() - t0)
        state, _ = GAME.apply(state, "solo", action)
        steps += 1
        if state.round > MAX_ROUNDS:
            return "stall", state.round, state.hero_hp, len(state.beaten)
    return state.result, state.round, state.hero_hp, len(state.beaten)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("n", nargs="?", type=int, default=1000)
    ap.add_argument("--hero", action="append")
    ap.add_argument("--seed0", type=int, default=0)
    ap.add_argument(
        "--render",
        type=int,
        default=0,
        metavar="GAMES",
        help="also time render/city_of_fury.draw on every state of this many games (en and zh)",
    )
    args = ap.parse_args()
    print(
        f"City of Fury self-play, {args.n} games per hero, seeds {args.seed0}..{args.seed0 + args.n - 1}, "
        f"{platform.machine()}, python {platform.python_version()}",
        flush=True,
    )
    for hero in (args.hero or hero_ids()) if args.n > 0 else []:
        t0 = time.perf_counter()
        AI_TIMES.clear()
        results = [play(hero, args.seed0 + i) for i in range(args.n)]
        dt = time.perf_counter() - t0
        wins = [x for x in results if x[0] == "win"]
        losses = [x for x in results if x[0] == "loss"]
        stalls = sum(1 for x in results if x[0] == "stall")
        long = sum(1 for x in results if x[1] > 30)
        print(
            f"{hero:10s} win rate {len(wins) / len(results):6.1%}  "
            f"mean rounds {statistics.mean(x[1] for x in results):5.1f} "
            f"(wins {statistics.mean(x[1] for x in wins) if wins else 0:4.1f})  "
            f"HP left in wins {statistics.mean(x[2] for x in wins) if wins else 0:3.1f}  "
            f"enemies beaten in losses {statistics.mean(x[3] for x in losses) if losses else 0:3.1f}  "
            f"over 30 rounds {long}  stalls {stalls}  {len(results) / dt:6.1f} games/s",
            flush=True,
        )
        AI_TIMES.sort()
        print(
            f"{'':10s} ai_action: {len(AI_TIMES)} decisions, median {statistics.median(AI_TIMES) * 1000:.2f} ms, "
            f"p99 {AI_TIMES[int(len(AI_TIMES) * 0.99)] * 1000:.2f} ms, max {AI_TIMES[-1] * 1000:.1f} ms",
            flush=True,
        )
    if args.render:
        time_render(args.render)


def time_render(games: int) -> None:
    from render.city_of_fury import draw

    times: list[float] = []
    for seed in range(games):
        state = GAME.new(["solo"], {}, seed)
        while True:
            view = GAME.view(state, None)
            for loc in ("en", "zh"):
                t0 = time.perf_counter()
                draw(view, loc)
                times.append(time.perf_counter() - t0)
            if GAME.outcome(state) is not None:
                break
            state, _ = GAME.apply(state, "solo", GAME.ai_action(state, "solo"))
    times.sort()
    print(
        f"render: {len(times)} images, median {statistics.median(times) * 1000:.1f} ms, "
        f"p99 {times[int(len(times) * 0.99)] * 1000:.1f} ms, max {times[-1] * 1000:.1f} ms",
        flush=True,
    )


if __name__ == "__main__":
    main()

"""One hard seat-filler AI among easy ones: does it win more than its fair share?

    python bench/ai_levels_thunder_road.py [games_per_seat_count] [--seats 2,3,4,5]

For every seat count (2-4 base crews; 5 = four base crews and the Big Rig) plays
``games`` seeded games (seed = game number) with one "hard" seat, rotating which seat
is hard (game g: seat g mod n, so the hard AI plays every seat and crew equally often),
all others "easy", and prints per seat count

    thunder_road seats=<n> games=<g> hard_wins=<w> hard_win_rate=<r> fair_share=<1/n> ratio=<r*n>

(shared wins count as a fraction).  Not run in CI; figures in docs/rulings.md (Thunder Road §4).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.thunder_road import GAME  # noqa: E402

CAP = 6000


def play(n: int, seed: int, hard: int) -> float:
    """The hard seat's share of the win (1, 1/k for a k-way shared win, 0)."""
    seats = [f"ai{i}" for i in range(n)]
    opts = {"big_rig": True} if n == 5 else {}
    st = GAME.new(seats, opts, seed)
    steps = 0
    while GAME.outcome(st) is None and steps < CAP:
        seat = GAME.to_act(st)[0]
        level = "hard" if seat == seats[hard] else "easy"
        st, _ = GAME.apply(st, seat, GAME.ai_action(st, seat, level))
        steps += 1
    out = GAME.outcome(st)
    if out is None or seats[hard] not in out.winners:
        return 0.0
    return 1.0 / len(out.winners)


def main() -> None:
    args = sys.argv[1:]
    games = int(args[0]) if args and not args[0].startswith("--") else 1000
    counts = [int(x) for x in args[args.index("--seats") + 1].split(",")] if "--seats" in args else [2, 3, 4, 5]
    for n in counts:
        t0 = time.process_time()
        wins = sum(play(n, g, g % n) for g in range(games))
        rate = wins / games
        print(
            f"thunder_road seats={n} games={games} hard_wins={wins:g} hard_win_rate={rate:.3f} "
            f"fair_share={1 / n:.3f} ratio={rate * n:.2f} cpu_seconds={time.process_time() - t0:.0f}",
            flush=True,
        )


if __name__ == "__main__":
    main()

"""One hard AI seat among easy seats in Automobile: how often does it win?

    python bench/ai_levels_automobile.py [--games 1000] [--players 3 4 5]

Game g puts the hard seat at place ``g % players`` of the seat list (the seat
order itself is shuffled from the seed), so every position is played equally.
A tied win counts as 1/k for each of the k winners.  Prints per seat count

    automobile hard seats=<n> games=<g> hard_win_share=<x> fair_share=<1/n> ratio=<x*n>

plus the hard and easy seats' mean money and the R&D cubes they end with (unspent).  Not run in CI (issue 14: >= 1.5x the fair share).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.automobile import GAME  # noqa: E402

SEATS = ["p1", "p2", "p3", "p4", "p5"]


def play(n: int, seed: int, hard: str, levels: tuple[str, str] = ("hard", "easy")) -> tuple[float, ...]:
    """(win share of ``hard``, its money, mean money of the others, R&D cubes ``hard`` was left
    with at the end, the others' mean)."""
    st = GAME.new(SEATS[:n], seed=seed)
    while GAME.outcome(st) is None:
        seat = GAME.to_act(st)[0]
        level = levels[0] if seat == hard else levels[1]
        st, _ = GAME.apply(st, seat, GAME.ai_action(st, seat, level))
    out = GAME.outcome(st)
    assert out is not None
    share = 1 / len(out.winners) if hard in out.winners else 0.0
    others = [v for s, v in out.scores.items() if s != hard]
    rd_others = [p.rd for s, p in st.players.items() if s != hard]
    return share, out.scores[hard], statistics.mean(others), st.players[hard].rd, statistics.mean(rd_others)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--players", type=int, nargs="*", default=[3, 4, 5])
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    for n in args.players:
        t0 = time.process_time()
        rows = [play(n, args.seed + g, SEATS[g % n]) for g in range(args.games)]
        share = sum(r[0] for r in rows) / len(rows)
        print(
            f"automobile hard seats={n} games={args.games} hard_win_share={share:.3f} fair_share={1 / n:.3f} "
            f"ratio={share * n:.2f} hard_money={statistics.mean(r[1] for r in rows):.0f} "
            f"easy_money={statistics.mean(r[2] for r in rows):.0f} hard_rd_left={statistics.mean(r[3] for r in rows):.1f} "
            f"easy_rd_left={statistics.mean(r[4] for r in rows):.1f} cpu_s={time.process_time() - t0:.0f}",
            flush=True,
        )


if __name__ == "__main__":
    main()

"""League pairing speed (tables/leagues/pairing.py and the standings it pairs from).

    python bench/league.py [--seed N] [--repeat R]

Prints exactly two lines:

    league format=swiss players=64 rounds=6 pair_ms=<x>
    league format=pods players=200 seats=4 pair_ms=<y>

``swiss``: a whole 6-round Swiss season of 64 players, paired as the league does it
(standings from the recorded tables, then the pairing), random results between
rounds; ``pair_ms`` is the time spent pairing all six rounds (the median of
``--repeat`` seasons).  ``pods``: one round of 200 players in pods of 4 after a
round of results (standings and pairing); the median of ``--repeat`` runs.
Nothing else is timed (no database, no Discord).  Targets: both under 100 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from store import LeagueRow  # noqa: E402
from tables.leagues.rounds import compute_standings, pair_round  # noqa: E402


def league(fmt: str, n: int, seats: int) -> LeagueRow:
    players = {str(u): {"joined": 0, "dropped": None, "division": 1} for u in range(1, n + 1)}
    return LeagueRow(
        id=1, guild_id=1, channel_id=1, game="bench", name="bench", format=fmt, status="running",
        config={"seats": seats, "min_seats": 2, "round_hours": 72, "rounds": 6},
        state={"players": players, "roster": list(range(1, n + 1)), "rating_start": {}, "round": 0, "rounds": []},
        created_by=1, created_at=0, updated_at=0,
    )  # fmt: skip


def play(rnd: dict, rng: random.Random) -> None:
    """Random places at every table of a paired round."""
    for tb in rnd["tables"]:
        order = list(tb["seats"])
        rng.shuffle(order)
        tb["status"] = "ended"
        tb["places"] = {str(u): i + 1 for i, u in enumerate(order)}


def season(fmt: str, n: int, seats: int, rounds: int, seed: int, timed_from: int = 1) -> float:
    rng = random.Random(seed)
    row = league(fmt, n, seats)
    rated = {u: rng.gauss(10, 5) for u in range(1, n + 1)}
    spent = 0.0
    for r in range(1, rounds + 1):
        start = time.perf_counter()
        rnd = pair_round(row, r, rated, 0.0)
        if r >= timed_from:
            spent += time.perf_counter() - start
        play(rnd, rng)
        row.state["rounds"].append(rnd)
        row.state["round"] = r
    compute_standings(row, rated)  # the standings stay computable at the end
    return spent * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=9)
    args = ap.parse_args()
    swiss = statistics.median(season("swiss", 64, 2, 6, args.seed + i) for i in range(args.repeat))
    print(f"league format=swiss players=64 rounds=6 pair_ms={swiss:.1f}")
    # the second round of a pods season: redrawn by the standings after the first
    pods = statistics.median(season("pods", 200, 4, 2, args.seed + i, timed_from=2) for i in range(args.repeat))
    print(f"league format=pods players=200 seats=4 pair_ms={pods:.1f}")


if __name__ == "__main__":
    main()

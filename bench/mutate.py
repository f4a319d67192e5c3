"""Mutated states through ``Game.load`` and every contract call: refused or survived.

    python bench/mutate.py [--n 1200] [--seed 0] [--games a,b] [--show 3]

For every registered game: states reached in seeded random and AI play (several seat counts
and options), each mutated 1-3 times (numbers negative or huge, ids swapped for nonexistent
or other ones, list entries dropped or duplicated, seats renamed, pending/phase fields
changed, fields from another state, ``schema_version`` bumped, wrong types: see
tests/mutation.py).  ``load`` must refuse with ``GameError`` (a stable code, a message
naming the problem) or accept; an accepted state must survive every contract call raising
nothing but ``GameError``.  Prints one line per game:

    mutate <game_id> tried=<n> refused=<n> accepted=<n> crashed=<n>

(``crashed`` counts accepted states a later call died on, and loads that died or refused
with another code); with ``--show`` the distinct crashes follow, with an example mutation.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from mutation import available, run  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=1200, help="mutated states per game")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--games", default="", help="comma-separated game ids (default: every registered game)")
    ap.add_argument("--show", type=int, default=0, help="print up to this many distinct crashes per game")
    args = ap.parse_args()
    games = [g for g in args.games.split(",") if g] or available()
    for gid in games:
        results = run(gid, args.n, args.seed)
        count = Counter(r.verdict for r in results)
        crashed = count["crashed"]
        print(
            f"mutate {gid} tried={len(results)} refused={count['refused']} "
            f"accepted={count['accepted']} crashed={crashed}",
            flush=True,
        )
        if args.show and crashed:
            seen: dict[str, list] = {}
            for r in results:
                if r.verdict == "crashed":
                    seen.setdefault(r.signature, []).append(r)
            for sig, rs in sorted(seen.items(), key=lambda kv: -len(kv[1]))[: args.show]:
                print(f"  {len(rs)}x {sig}\n     e.g. {'; '.join(rs[0].mutations)} | {rs[0].detail.split(' | ')[-1]}")


if __name__ == "__main__":
    main()

"""Armor Clash AI levels: one hard seat among easy seats in the competitive mode (the duel).

Usage: python bench/ai_levels_armor_clash.py [games_per_seat_count=1000] [--mode=normal|simple]

For every seat count the duel allows (2-4), ``games`` seeded games (seeds 0..games-1); the
hard seat rotates through the seats (seat ``seed % n``) so no start cell is favoured.  A win
is a share of the winners (a draw at the turn limit splits it), and the fair share is 1/n.
Prints one line per seat count:
``ai_levels armor_clash mode=<m> seats=<n> games=<g> hard_share=<f> fair_share=<f> ratio=<f>``
Not run in CI (CPU-heavy); run it with ``nice``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from selfplay_armor_clash import fast_game  # noqa: E402

from engine.armor_clash import GAME  # noqa: E402


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    n = int(args[0]) if args else 1000
    mode = next((a.split("=", 1)[1] for a in sys.argv if a.startswith("--mode=")), "normal")
    for k in range(max(GAME.min_seats, 2), GAME.max_seats + 1):
        seats = [f"p{i + 1}" for i in range(k)]
        share = 0.0
        for seed in range(n):
            hard = seed % k
            levels = ["hard" if i == hard else "easy" for i in range(k)]
            s = fast_game(seats, {"scenario": "duel", "mode": mode}, seed, levels)
            if seats[hard] in s.result.winners:
                share += 1 / len(s.result.winners)
        print(
            f"ai_levels armor_clash mode={mode} seats={k} games={n} hard_share={share / n:.3f} "
            f"fair_share={1 / k:.3f} ratio={share / n * k:.2f}",
            flush=True,
        )


if __name__ == "__main__":
    main()

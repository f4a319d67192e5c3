"""Armor Clash self-play: boss win rate for 1, 2 and 4 AI crews in each mode, and games per second.

Usage: python bench/selfplay_armor_clash.py [games_per_config=1000] [--quick] [--legend]
       python bench/selfplay_armor_clash.py 200 --campaign   (the campaign battles' table)
       python bench/selfplay_armor_clash.py 300 --mechanics  (how often the boss rules fire)

Every seat is played by the engine's seat AI (the same orders ``GAME.ai_action``
builds step by step), the Tiger by its rules automaton.  The fast loop drives
``rules.resolve_turn`` directly with those orders; a second, smaller loop plays
through the public ``GAME.apply`` API to measure the real per-game cost.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.armor_clash import GAME  # noqa: E402
from engine.armor_clash import rules as R  # noqa: E402


def fast_game(seats: list[str], options: dict, seed: int):
    s = GAME.new(seats, options, seed)
    while s.result is None:
        for u in s.units:
            if u.seat is not None and u.active and u.stunned == 0:
                s.orders[u.seat] = R.ai_order(s, u)
        R.resolve_turn(s, [])
    return s


def api_game(seats: list[str], options: dict, seed: int):
    s = GAME.new(seats, options, seed)
    while GAME.outcome(s) is None:
        s, _ = GAME.ai_step(s)
    return s


def mechanics(n: int) -> None:
    """How often the boss's special rules fire per game (normal mode, 1/2/4 crews, n seeds each)."""
    from collections import Counter

    keys = (
        "boss_must_rest",
        "boss_forced_turn",
        "counter_halved",
        "counter_prerot",
        "prerotate",
        "overload",
        "rage_lock",
        "rage_double",
        "turret_state",
        "incapacitated",
        "destroyed",
    )
    for mode in ("normal", "simple"):
        count: Counter = Counter()
        games = 0
        max_rage = 0
        for k in (1, 2, 4):
            for seed in range(n):
                s = GAME.new([f"p{i + 1}" for i in range(k)], {"mode": mode}, seed)
                while s.result is None:
                    for u in s.units:
                        if u.seat is not None and u.active and u.stunned == 0:
                            s.orders[u.seat] = R.ai_order(s, u)
                    events: list = []
                    R.resolve_turn(s, events)
                    for e in events:
                        if e.kind == "note":
                            count[e.key.split(".", 1)[1]] += 1
                            if e.key.endswith(".rage"):
                                max_rage = max(max_rage, e.params["new"])
                games += 1
        print(
            f"{mode}: per game "
            + ", ".join(f"{k} {count[k] / games:.3f}" for k in keys)
            + f"; highest rage seen {max_rage}"
        )


def campaign_table(n: int) -> None:
    """Players' win % of each campaign battle at its typical crew level (recruits early, veterans late)."""
    print(f"Campaign battles, {n} seeded games per cell: players' win % / turn-limit % / avg turns")
    for mode in ("normal", "simple"):
        for sc, crew in (
            ("c1_recon", "recruit"),
            ("c2_bridge", "recruit"),
            ("c3_village", "veteran"),
            ("c4_wittmann", "veteran"),
        ):
            row = []
            for k in (1, 2, 4):
                won = time_up = turns = 0
                for seed in range(n):
                    s = fast_game(
                        [f"p{i + 1}" for i in range(k)], {"mode": mode, "scenario": sc, "crews": [crew] * k}, seed
                    )
                    won += s.result.side == "players"
                    time_up += s.result.reason == "time_up"
                    turns += s.turn - 1
                row.append(f"{k} crews {100 * won / n:5.1f} / {100 * time_up / n:4.1f} / {turns / n:4.1f}")
            print(f"{mode:<7} {sc:<12} {crew:<8} " + " | ".join(row))


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    n = int(args[0]) if args else 1000
    if "--campaign" in sys.argv:
        campaign_table(n)
        return
    if "--mechanics" in sys.argv:
        mechanics(n)
        return
    crews = ["veteran", "legend"] if "--legend" in sys.argv else ["veteran"]
    print(f"Armor Clash boss self-play, {n} seeded games per configuration (seeds 0..{n - 1}), T-34-85 crews")
    print(
        f"{'mode':<7} {'crew':<8} {'crews':>5} {'boss win %':>10} {'by time %':>9} {'avg turns':>9} {'players lost/game':>17} {'games/s':>8}"
    )
    for mode, crew, k in [(m, c, k) for m in ("simple", "normal") for c in crews for k in (1, 2, 4)]:
        if True:
            seats = [f"p{i + 1}" for i in range(k)]
            boss_wins = time_ups = turns = lost = 0
            t0 = time.perf_counter()
            for seed in range(n):
                s = fast_game(seats, {"mode": mode, "scenario": "boss", "crews": [crew] * k}, seed)
                if s.result.side != "players":
                    boss_wins += 1
                if s.result.reason == "time_up":
                    time_ups += 1
                turns += s.turn - 1
                lost += sum(1 for u in s.units if u.seat is not None and not u.active)
            dt = time.perf_counter() - t0
            print(
                f"{mode:<7} {crew:<8} {k:>5} {100 * boss_wins / n:>10.1f} {100 * time_ups / n:>9.1f} {turns / n:>9.1f} "
                f"{lost / n:>17.2f} {n / dt:>8.1f}"
            )
    m = 20 if "--quick" in sys.argv else 100
    t0 = time.perf_counter()
    steps = 0
    for seed in range(m):
        s = api_game(["p1", "p2"], {"mode": "normal"}, seed)
        steps += s.step
    dt = time.perf_counter() - t0
    print(f"public API (GAME.apply, 2 crews, normal): {m / dt:.1f} games/s, {steps / dt:.0f} actions/s")
    from render.armor_clash import draw

    s = api_game(["p1", "p2", "p3", "p4"], {"mode": "normal", "max_turns": 12}, 3)
    view = GAME.view(s, None)
    times = []
    for locale in ("en", "zh") * 10:
        t0 = time.perf_counter()
        draw(view, locale)
        times.append(time.perf_counter() - t0)
    times.sort()
    print(
        f"render (4 crews + boss + escort, 20 draws): median {1000 * times[len(times) // 2]:.1f} ms, "
        f"best {1000 * times[0]:.1f} ms, worst {1000 * times[-1]:.1f} ms"
    )


if __name__ == "__main__":
    main()

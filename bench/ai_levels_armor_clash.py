"""Armor Clash AI levels: one hard seat among easy seats in the competitive mode (the duel).

Usage: python bench/ai_levels_armor_clash.py [games_per_seat_count=1000] [--mode=normal|simple] [--rules=N]
       python bench/ai_levels_armor_clash.py [games=1000] --bound   (the 2-seat ceiling of revision 2, R17)

``--rules`` plays that rules revision (default: what new tables play, 3: the duel for the
crossroads; 2 is the duel before it, docs/rulings.md R14).

For every seat count the duel allows (2-4), ``games`` seeded games (seeds 0..games-1); the
hard seat rotates through the seats (seat ``seed % n``) so no start cell is favoured.  A win
is a share of the winners (a draw at the turn limit splits it; a turn in which the last crews
all go out gives nobody a share), and the fair share is 1/n.  Prints one line per seat count:
``ai_levels armor_clash mode=<m> seats=<n> games=<g> hard_share=<f> fair_share=<f> ratio=<f>``
and after it how the games ended: ``ai_levels_end armor_clash mode=<m> seats=<n> games=<g>
rules=<r> time_limit_pct=<f> objective_pct=<f> all_out_pct=<f> avg_turns=<f>`` (the turn limit
decided ``time_limit_pct`` of them: a draw, or under revision 3 the most points).
``--setups`` plays the 2-seat duel of every set-up of ``--bound`` (one hard seat, one easy):
``ai_levels_setup armor_clash mode=<m> seats=2 setup=<s> games=<g> rules=<r> hard_share=<f> ratio=<f>``.
``--all-hard`` plays every seat hard and prints only the ``ai_levels_end`` lines (how a duel
between crews that all drive for the crossroads ends).

``--bound`` measures what any 2-seat policy could reach, per competitive set-up (the default
duel, other crews, vehicle cards and optional rules; docs/rulings.md R17): the hard seat's
share with each ammunition forced on every load, and an upper bound that grants the hard seat
every dodge there could be (the easy foe never fires again once its turret is hand-cranked or
locked, the only case in which a move can take a tank out of a gun's reach).  One line each:
``ai_levels_bound armor_clash mode=<m> seats=2 setup=<s> games=<g> hard_share=<f> ap=<f> heat=<f>
he=<f> dodge_bound=<f> bound_ratio=<f>``.  Not run in CI (CPU-heavy); run it with ``nice``.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from selfplay_armor_clash import fast_game  # noqa: E402

from engine.armor_clash import GAME  # noqa: E402
from engine.armor_clash import ai as AI  # noqa: E402
from engine.armor_clash import rules as R  # noqa: E402
from engine.armor_clash.models import RULES_REVISION, Order, State, Unit  # noqa: E402

#: the competitive set-ups the duel offers (table options), 2 seats
SETUPS: dict[str, dict[str, Any]] = {
    "default": {},
    "recruits": {"crews": ["recruit", "recruit"]},
    "legends": {"crews": ["legend", "legend"]},
    "links": {"links": [True, True]},
    "kv2": {"vehicles": ["kv2", "kv2"]},
    "amx13": {"vehicles": ["amx13", "amx13"]},
    "sherman": {"vehicles": ["sherman", "sherman"]},
    "ammo_rack": {"ammo_rack": True},
    "repeated_hits": {"repeated_hits": True},
    "ricochet_stun": {"ricochet_stun": True},
}

Policy = Callable[[State, Unit], Order]


def share_of(options: dict[str, Any], n: int, hard: Policy, easy: Policy) -> float:
    seats = ["p1", "p2"]
    share = 0.0
    for seed in range(n):
        h = seats[seed % 2]
        s = GAME.new(seats, options, seed)
        while s.result is None:
            for u in s.units:
                if u.seat is not None and u.active and u.stunned == 0:
                    s.orders[u.seat] = (hard if u.seat == h else easy)(s, u)
            R.resolve_turn(s, [], AI.enemy_order)
        if h in s.result.winners:
            share += 1 / len(s.result.winners)
    return share / n


def forced_ammo(ammo: str) -> Policy:
    def order(s: State, u: Unit) -> Order:
        o = AI.order_hard(s, u)
        return o.model_copy(update={"ammo": ammo}) if o.what == "reload" else o

    return order


def disarmed_when_damaged(s: State, u: Unit) -> Order:
    """The easy foe, except that it never fires again once its turret is damaged: every dodge granted."""
    return Order(what="pass") if R.turret_state(u) != "normal" else AI.order_easy(s, u)


def bound(n: int, mode: str) -> None:
    for name, extra in SETUPS.items():
        options = {"scenario": "duel", "mode": mode, "rules": 2, **extra}
        hard = share_of(options, n, AI.order_hard, AI.order_easy)
        by_ammo = {a: share_of(options, n, forced_ammo(a), AI.order_easy) for a in ("AP", "HEAT", "HE")}
        best = max(by_ammo, key=lambda a: by_ammo[a])
        top = share_of(options, n, forced_ammo(best), disarmed_when_damaged)
        print(
            f"ai_levels_bound armor_clash mode={mode} seats=2 setup={name} games={n} hard_share={hard:.3f} "
            f"ap={by_ammo['AP']:.3f} heat={by_ammo['HEAT']:.3f} he={by_ammo['HE']:.3f} "
            f"dodge_bound={top:.3f} bound_ratio={top * 2:.2f}",
            flush=True,
        )


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    n = int(args[0]) if args else 1000
    mode = next((a.split("=", 1)[1] for a in sys.argv if a.startswith("--mode=")), "normal")
    rules = int(next((a.split("=", 1)[1] for a in sys.argv if a.startswith("--rules=")), RULES_REVISION))
    if "--bound" in sys.argv:
        bound(n, mode)
        return
    if "--setups" in sys.argv:
        for name, extra in SETUPS.items():
            hard = share_of(
                {"scenario": "duel", "mode": mode, "rules": rules, **extra}, n, AI.order_hard, AI.order_easy
            )
            print(
                f"ai_levels_setup armor_clash mode={mode} seats=2 setup={name} games={n} rules={rules} "
                f"hard_share={hard:.3f} ratio={hard * 2:.2f}",
                flush=True,
            )
        return
    all_hard = "--all-hard" in sys.argv
    for k in range(max(GAME.min_seats, 2), GAME.max_seats + 1):
        seats = [f"p{i + 1}" for i in range(k)]
        share = 0.0
        ends: Counter[str] = Counter()
        turns = 0
        for seed in range(n):
            hard = seed % k
            levels = ["hard" if i == hard or all_hard else "easy" for i in range(k)]
            s = fast_game(seats, {"scenario": "duel", "mode": mode, "rules": rules}, seed, levels)
            if seats[hard] in s.result.winners:
                share += 1 / len(s.result.winners)
            ends[s.result.reason] += 1
            turns += s.turn - 1
        if not all_hard:
            print(
                f"ai_levels armor_clash mode={mode} seats={k} games={n} hard_share={share / n:.3f} "
                f"fair_share={1 / k:.3f} ratio={share / n * k:.2f}",
                flush=True,
            )
        clock = ends["time_up_draw"] + ends["time_up_points"]
        print(
            f"ai_levels_end armor_clash mode={mode} seats={k} games={n} rules={rules}{' all_hard' if all_hard else ''} "
            f"time_limit_pct={100 * clock / n:.1f} objective_pct={100 * ends['objective'] / n:.1f} "
            f"all_out_pct={100 * ends['all_out'] / n:.1f} avg_turns={turns / n:.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()

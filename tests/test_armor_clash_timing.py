"""Every countdown of Armor Clash, played through the game's public actions (issue 24).

Each test plays whole turns the way a table does: every seat the game asks for an order
(``GAME.to_act``) answers with buttons it is offered (``GAME.apply``); the dice are forced by
name (``GAME.rig``, as the driver's ``rig``); a position that takes long to reach is set up
once and loaded through ``GAME.load``, which refuses a state play cannot reach.  No rule
function is called, so a count that starts or ends in the wrong turn shows in the turn
numbers asserted here.

Covered: fire (10.1, R16, both counts), a stunned crew (10.3) of a player, an AI tank and the
boss, the boss's reload, fatigue and rest (9.1, 9.2), turret overload (9.5), the counters of
9.6 (halved traverse, cancelled pre-rotation, forced hull turn) and the turn limit (R14).
The multi-turn orders of a crew (moves, reloads, aiming with a penalty, traverses, hand
cranking) are played through the same public actions in ``test_armor_clash_turns.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from driver import replay_export
from engine import canonical
from engine.armor_clash import GAME
from engine.armor_clash import rules as R

PASS = {"kind": "choose", "what": "pass"}
RELOAD = [{"kind": "choose", "what": "reload"}, {"kind": "ammo", "ammo": "AP"}]
CONTINUE_RELOAD = [{"kind": "choose", "what": "continue_reload"}]
BOSS = R.BOSS_LABEL
FIXTURE = Path(__file__).parent / "fixtures" / "export_6d24ece_armor_clash_fire_rules3.json"
HARMLESS = 40  # boss shots that hit the fuel tank without effect (lower block, 4: "pen_weak")


def shoot(target):
    return [{"kind": "choose", "what": "shoot"}, {"kind": "target", "target": target}]


def move(cells, reverse=False):
    return [
        {"kind": "choose", "what": "move"},
        {"kind": "move_dir", "reverse": reverse},
        {"kind": "move_dist", "cells": cells},
    ]


def hull(facing):
    return [{"kind": "choose", "what": "hull"}, {"kind": "hull", "facing": facing}]


def rig(s, **dice):
    for name, values in dice.items():
        s = GAME.rig(s, name, values)
    return s


def position(s, edit):
    """``s`` changed by ``edit(s)``, loaded back through the validation a stored table passes."""
    s = s.model_copy(deep=True)
    edit(s)
    return GAME.load(GAME.dump(s))


def play(s, **orders):
    """One turn: every seat asked plays its buttons (a pass unless told).

    Returns the state, the turn's events, the seats asked and the turn's number."""
    turn, asked, events = s.turn, list(GAME.to_act(s)), []
    assert asked, "nobody is asked: the battle is over"
    assert set(orders) <= set(asked), f"{sorted(set(orders) - set(asked))} not asked in turn {turn}"
    for seat in asked:
        for action in orders.get(seat, [PASS]):
            s, ev = GAME.apply(s, seat, action)
            events += ev
    assert s.turn == turn + 1, "the turn resolved once every seat asked had given its order"
    return s, events, asked


def said(events, kind, unit=None):
    return [e for e in events if e.kind == kind and (unit is None or e.unit == unit)]


def card(s, uid):
    """The unit as every player sees it (the public view's status card)."""
    return next(u for u in GAME.view(s, None).units if u.id == uid)


# ---------------------------------------------------------------- fire (10.1, R16)
def _set_b_on_fire(mode, rules=None):
    """A duel with ``repeated_hits``: a's first shot (turn 1) hits b's fuel tank heavily, a
    reloads (turns 2-3), its second shot (turn 4) hits b's engine heavily: b catches fire at the
    end of turn 4."""
    opts = {"scenario": "duel", "mode": mode, "repeated_hits": True}
    if rules is not None:
        opts["rules"] = rules
    s = GAME.new(["a", "b"], opts, 1)
    log = []
    for loc, a_orders in ((2, shoot("b")), (None, RELOAD), (None, CONTINUE_RELOAD), (4, shoot("b"))):
        if loc is not None:
            s = rig(s, hit=[1], location=[loc], damage=[6])  # simple mode reads no damage die
        s, ev, asked = play(s, a=a_orders)
        log.append((ev, asked))
    return s, log


@pytest.mark.parametrize("mode", ["normal", "simple"])
def test_a_tank_set_on_fire_at_the_end_of_turn_t_fights_three_more_turns(mode):
    s, log = _set_b_on_fire(mode)
    assert s.options.rules == 4
    hit_turn = 4
    ev, _ = log[-1]
    assert [e.turns for e in said(ev, "on_fire", "b")] == [3]
    assert not said(ev, "burning") and s.turn == hit_turn + 1  # the turn of the hit does not count
    assert card(s, "b").fire_left == 3 and card(s, "b").status == "active"
    seen = []
    for turn in (hit_turn + 1, hit_turn + 2, hit_turn + 3):
        assert s.turn == turn
        last = turn == hit_turn + 3
        # b is asked for its order in each of the three turns; in the last it fires (and misses)
        s = rig(s, hit=[4], location=[2])
        s, ev, asked = play(s, b=shoot("a") if last else [PASS])
        assert "b" in asked
        seen += [(turn, e.kind, getattr(e, "turns", None)) for e in ev if e.kind in ("burning", "destroyed")]
        if last:
            assert said(ev, "shot", "b")  # simultaneous: its last shot still flies
        else:
            assert card(s, "b").fire_left == hit_turn + 3 - turn  # what its card shows
    assert seen == [(5, "burning", 2), (6, "burning", 1), (7, "destroyed", None)]
    b = card(s, "b")
    assert b.status == "destroyed" and b.out_reason == "fire"
    assert s.result.winners == ["a"] and GAME.to_act(s) == []


def test_the_fire_countdown_reads_three_two_one_in_the_log():
    s, log = _set_b_on_fire("normal")
    lines = [GAME.event_text(e, "zh") for e in log[-1][0] if e.kind in ("on_fire", "burning")]
    for _ in range(3):
        s, ev, _ = play(s)
        lines += [GAME.event_text(e, "zh") for e in ev if e.kind in ("burning", "destroyed")]
    assert lines == [
        "b 起火！3 回合后被摧毁。",
        "b 正在燃烧：2 回合后被摧毁。",
        "b 正在燃烧：1 回合后被摧毁。",
        "b 被摧毁（起火烧毁）。",
    ]


def test_a_table_of_rules_3_keeps_the_count_it_was_played_with():
    """Revision 3 counted the turn of the hit: on fire with 3 turns and at once burning with
    2, destroyed at the end of T+2.  A table begun under it keeps that count."""
    s, log = _set_b_on_fire("normal", rules=3)
    ev, _ = log[-1]
    assert [(e.kind, e.turns) for e in ev if e.kind in ("on_fire", "burning")] == [("on_fire", 3), ("burning", 2)]
    s, ev, asked = play(s)
    assert "b" in asked and [e.turns for e in said(ev, "burning", "b")] == [1]
    s, ev, asked = play(s)
    assert "b" in asked and said(ev, "destroyed", "b") and s.turn == 7 and s.result.winners == ["a"]


def test_a_stored_rules_3_table_with_a_fire_replays_and_plays_on_unchanged():
    """The fixture was played by the code of rules revision 3 (tests/fixtures/make_fire_rules3.py):
    its log replays to the very state it stored, and a copy stored in mid-fire plays on (the seat
    filler deciding, as it did) to that same end."""
    export = json.loads(FIXTURE.read_text(encoding="utf-8"))
    assert export["options"]["rules"] == 3 and export["options"]["repeated_hits"]
    game, state = replay_export(export)
    assert canonical(game.dump(state)) == canonical(export["state"])
    assert game.outcome(state).model_dump(mode="json") == export["outcome"]
    burnt = [u for u in state.units if u.out_reason == "fire"]
    assert len(burnt) == 1
    mid = game.replay(
        export["seats"],
        export["options"],
        export["seed"],
        [(e["seat"], e["action"]) for e in export["log"][: export["fire_step"]]],
    )
    assert R.unit_by_id(mid, burnt[0].id).fire_left == 2  # revision 3: counted in the turn of the hit
    hit_turn = mid.turn - 1
    while game.outcome(mid) is None:
        mid, _ = game.ai_step(mid)
    assert canonical(game.dump(mid)) == canonical(export["state"])
    assert mid.turn - 1 == hit_turn + 2  # destroyed at the end of T+2, and the duel ended there


# ---------------------------------------------------------------- stun (10.3, R16)
def test_a_stunned_crew_sits_out_exactly_the_next_turn():
    s = GAME.new(["a", "b"], {"scenario": "duel", "ricochet_stun": True}, 1)
    s = rig(s, hit=[1], location=[5], damage=[5])  # turret ricochet
    s, ev, asked = play(s, a=shoot("b"), b=hull(0))
    assert said(ev, "stunned", "b") and card(s, "b").hull == 0  # its own order of that turn still ran
    assert card(s, "b").stunned == 1
    s, ev, asked = play(s)  # turn 2: b is not asked and loses the turn
    assert asked == ["a"] and said(ev, "stunned_skip", "b") and card(s, "b").stunned == 0
    s, ev, asked = play(s, b=hull(2))  # turn 3: b gives orders again
    assert asked == ["a", "b"] and not said(ev, "stunned_skip") and card(s, "b").hull == 2


def test_a_stunned_ai_tank_sits_out_exactly_the_next_turn():
    s = GAME.new(["a"], {"scenario": "skirmish", "ricochet_stun": True}, 1)
    e1 = R.unit_by_id(s, "e1")
    s = rig(s, hit=[1], location=[5], damage=[5])
    s, ev, _ = play(s, a=shoot("e1"))
    assert said(ev, "stunned", e1.label)
    for turn in (2, 3):
        s = rig(s, hit=[4] * 4)  # whatever the AI tank fires misses
        s, ev, _ = play(s)
        mine = [e.kind for e in ev if getattr(e, "unit", None) == e1.label]
        assert ("stunned_skip" in mine) == (turn == 2), (turn, mine)


def test_a_stunned_boss_sits_out_exactly_the_next_turn():
    s = GAME.new(["a"], {"mode": "normal", "ricochet_stun": True}, 1)
    s = rig(s, hit=[1] + [3] * HARMLESS, location=[5] + [2] * HARMLESS, damage=[5] + [4] * HARMLESS)
    s, ev, _ = play(s, a=shoot("boss"))
    assert said(ev, "stunned", BOSS) and said(ev, "moved", BOSS)  # its own turn 1 still ran
    s, ev, _ = play(s)
    assert said(ev, "stunned_skip", BOSS)
    assert not said(ev, "moved", BOSS) and not said(ev, "shot", BOSS) and not said(ev, "rotated", BOSS)
    s, ev, _ = play(s)
    assert not said(ev, "stunned_skip") and said(ev, "moved", BOSS)


# ---------------------------------------------------------------- the boss (9.1, 9.2)
def test_boss_reloads_every_other_turn_and_rests_two_turns_after_three_moving_ones():
    s = GAME.new(["a"], {"mode": "normal"}, 1)
    s = rig(s, hit=[3] * HARMLESS, location=[2] * HARMLESS, damage=[4] * HARMLESS)
    seen = {}
    for turn in range(1, 8):
        s, ev, _ = play(s)
        seen[turn] = {e.kind for e in ev if getattr(e, "unit", None) == BOSS}
    assert [t for t, k in seen.items() if "shot" in k] == [1, 3, 5, 7]  # the turn after a shot reloads
    assert [t for t, k in seen.items() if "moved" in k] == [1, 2, 3, 6]
    assert [t for t, k in seen.items() if "boss_must_rest" in k] == [3]  # after the third moving turn
    assert [t for t, k in seen.items() if "boss_resting" in k] == [4, 5]  # two turns of rest
    assert [t for t, k in seen.items() if "boss_rested" in k] == [5]
    assert sum(card(s, "a").injuries.values()) == 0  # the forced shots did nothing


# ---------------------------------------------------------------- overload (9.5)
def test_overload_locks_the_turret_for_exactly_the_next_turn():
    """With rage 5, a drives so that Wittmann turns his turret in three consecutive turns: his
    turret overloads at the end of the third and cannot turn in the next one (no shot: a sits
    out of his arc), and turns again the turn after."""
    s = position(GAME.new(["a"], {"mode": "normal"}, 1), lambda s: setattr(R.unit_by_id(s, "boss").card, "rage", 5))
    s = rig(s, hit=[3] * HARMLESS, location=[2] * HARMLESS, damage=[4] * HARMLESS)
    seen = {}
    for turn, orders in enumerate([move(1), move(2), hull(2), [PASS], [PASS]], start=1):
        s, ev, _ = play(s, a=orders)
        seen[turn] = [e.kind for e in ev if getattr(e, "unit", None) == BOSS]
        if turn == 3:
            assert card(s, "boss").card.overload_left == 1  # his card shows the overload
            assert card(s, "boss").loaded  # he could fire in turn 4 if his turret could turn
    assert [t for t, k in seen.items() if "overload" in k] == [3]
    assert "rotate_blocked" in seen[4] and "rotated" not in seen[4] and "shot" not in seen[4]
    assert "overload_end" in seen[4]  # the lock ends with the turn it covers
    assert "rotated" in seen[5] and "shot" in seen[5]


# ---------------------------------------------------------------- counters (9.6)
def _boss_between(vehicles=("sherman", "t34_85"), b_at=(6, 9, 0), rage=0):
    """Wittmann resting (no driving for 2 turns) at G6 facing north; a 3 cells north of him
    facing him, b 4 cells away (south unless told): he tracks a."""

    def edit(s):
        boss, a, b = (R.unit_by_id(s, u) for u in ("boss", "a", "b"))
        boss.x, boss.y, boss.hull, boss.turret = 6, 5, 0, 0
        boss.card.ms_left, boss.card.rest_left, boss.card.rage = 0, 2, rage
        a.x, a.y, a.hull = 6, 2, 4
        b.x, b.y, b.hull = b_at

    return position(GAME.new(["a", "b"], {"mode": "normal", "vehicles": list(vehicles)}, 1), edit)


@pytest.mark.parametrize("demand_turn", [2, 3, 4])
@pytest.mark.parametrize("penetrated", [True, False])
def test_turret_penetration_halves_the_traverse_for_the_next_two_turns(demand_turn, penetrated):
    """a's shot at the end of turn 1 penetrates Wittmann's turret (or, for comparison, does
    nothing).  In turn ``demand_turn`` he must traverse four cells to b: 5 cells a turn make it
    one order, halved (2 cells) it takes two.  Halved in turns 2 and 3, whole again in 4."""
    s = _boss_between()
    loc, dmg = (5, 1) if penetrated else (2, 4)
    s = rig(s, hit=[1] + [3] * HARMLESS, location=[loc] + [2] * HARMLESS, damage=[dmg] + [4] * HARMLESS, penalty=[1])
    # a leaves Wittmann's nearest place to b in the turn before the demand (a Sherman fires on the move)
    away = move(2, reverse=True)
    script = {
        2: {1: {"a": away + [{"kind": "target", "target": "boss"}]}},
        3: {1: {"a": shoot("boss")}, 2: {"a": away}},
        4: {1: {"a": shoot("boss")}, 3: {"a": move(2)}},
    }[demand_turn]
    for turn in range(1, demand_turn + 1):
        s, ev, _ = play(s, **script.get(turn, {}))
        if turn == 1:
            assert bool(said(ev, "counter_halved", BOSS)) == penetrated
        if turn < demand_turn:
            halved = card(s, "boss").card.halved_turns
            assert halved == ((3 - turn) if penetrated else 0)  # the card counts the turns left
    cells = [e.cells for e in said(ev, "rotated", BOSS)]
    assert cells[:1] == [2 if penetrated and demand_turn in (2, 3) else 4]


def test_turret_ricochet_cancels_the_pre_rotation_at_the_end_of_that_turn():
    """Rage 5: at the end of every turn Wittmann pre-rotates a cell towards his target (9.4).
    A ricochet off his turret at the end of turn 1 cancels the pre-rotation of that turn's end
    (R15: the one that prepares his next turn); the next turn's end pre-rotates again."""

    def run(ricochet):
        # b (4 cells east, facing west) drives up beside him in turn 1: the nearest, two cells
        # of traverse off his turret, which he tracks a cell each turn end (no turn in an order)
        s = _boss_between(("t34_85", "t34_85"), b_at=(10, 5, 6), rage=5)
        loc, dmg = (5, 5) if ricochet else (2, 4)
        s = rig(s, hit=[1] + [3] * HARMLESS, location=[loc] + [2] * HARMLESS, damage=[dmg] + [4] * HARMLESS)
        out = []
        for orders in ({"a": shoot("boss"), "b": move(2)}, {}):
            s, ev, _ = play(s, **orders)
            mine = [e for e in ev if getattr(e, "unit", None) == BOSS]
            assert not [e for e in mine if e.kind == "rotated"]  # only pre-rotations turn him here
            out.append(([e.kind for e in mine if e.kind.startswith("prerot")], card(s, "boss").abs_turret))
        return out

    assert run(ricochet=False) == [(["prerotate"], 1), (["prerotate"], 2)]
    assert run(ricochet=True) == [(["prerot_blocked"], 0), (["prerotate"], 1)]


def test_fire_from_one_side_in_two_consecutive_turns_forces_a_hull_turn_in_the_next():
    """a fires from north of Wittmann in turn 1, b from the same side in turn 2 (both miss the
    dice that matter): he spends turn 3 turning his hull to that side, and turn 4 is his again."""

    def edit(s):
        boss, a, b = (R.unit_by_id(s, u) for u in ("boss", "a", "b"))
        boss.x, boss.y, boss.hull, boss.turret = 6, 5, 4, 0
        boss.card.ms_left, boss.card.rest_left = 0, 2
        a.x, a.y, a.hull = 6, 2, 4
        b.x, b.y, b.hull = 7, 1, 4

    s = position(GAME.new(["a", "b"], {"mode": "normal"}, 1), edit)
    s = rig(s, hit=[4] + [3] + [4] + [3] * HARMLESS, location=[2] * HARMLESS, damage=[4] * HARMLESS)
    seen, hulls = [], []
    for orders in ({"a": shoot("boss")}, {"b": shoot("boss")}, {}, {}):
        s, ev, _ = play(s, **orders)
        seen.append([e.kind for e in ev if getattr(e, "unit", None) == BOSS])
        hulls.append(card(s, "boss").hull)
    assert "counter_same_dir" not in seen[0] and "counter_same_dir" in seen[1]
    assert "boss_forced_turn" in seen[2] and "shot" not in seen[2] and "moved" not in seen[2]
    assert hulls[2] == 0  # in turn 3 he turned to face the side the fire came from
    assert "boss_forced_turn" not in seen[3]


# ---------------------------------------------------------------- the turn limit (R14)
def test_the_battle_ends_after_its_last_turn_is_played():
    s = GAME.new(["a", "b"], {"scenario": "duel", "max_turns": 2}, 1)
    s, _, asked = play(s)
    assert asked == ["a", "b"] and s.result is None
    s, ev, asked = play(s)  # turn 2, the last, is played in full
    assert asked == ["a", "b"] and s.result is not None and said(ev, "game_over")
    assert GAME.to_act(s) == []

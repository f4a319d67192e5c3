"""The duel for the crossroads (rules revision 3, docs/rulings.md R14 and R17).

Positions are rigged by placing the vehicles; the turn is resolved by the engine, so the
scoring, the end of the game, the view and the texts are the engine's own.
"""

from __future__ import annotations

import pytest

from engine import canonical
from engine.armor_clash import GAME, content
from engine.armor_clash import ai as AI
from engine.armor_clash import rules as R
from engine.armor_clash.models import RULES_REVISION, ObjectiveView, Order
from engine.i18n import t

OBJ = content.scenarios()["duel"]["objective"]
ZONE = {(x, y) for x, y in OBJ["zone"]}
PASS = Order(what="pass")


def duel(seats=("a", "b"), **opts):
    return GAME.new(list(seats), {"scenario": "duel", **opts}, 1)


def place(s, uid, x, y, hull=None):
    u = R.unit_by_id(s, uid)
    u.x, u.y = x, y
    if hull is not None:
        u.hull = hull
    return u


def turn(s, orders=None):
    """Resolve a turn in which every active crew passes unless told otherwise (guns stay quiet)."""
    s = s.model_copy(deep=True)
    orders = orders or {}
    s.orders = {u.seat: orders.get(u.seat, PASS) for u in s.units if u.active and u.seat}
    ev: list = []
    R.resolve_turn(s, ev, AI.enemy_order)
    return s, ev


def test_new_duels_play_rules_3_with_the_zone_and_its_start_cells():
    s = duel()
    assert s.options.rules == RULES_REVISION >= OBJ["from_rules"] == 3
    assert R.objective(s) is OBJ and R.zone_cells(OBJ) == ZONE
    starts = [(u.x, u.y, u.hull) for u in s.units]
    assert starts == [tuple(c) for c in OBJ["players"][:2]]
    # each start is two diagonal cells from a zone corner, facing it
    for x, y, hull in (tuple(c) for c in OBJ["players"]):
        dx, dy = R.G.DIRS[hull]
        assert (x + dx, y + dy) not in ZONE and (x + 2 * dx, y + 2 * dy) in ZONE
    assert R.objective(GAME.new(["a", "b"], {"scenario": "boss"}, 1)) is None  # not the boss battle


def test_a_crew_alone_in_the_zone_scores_a_point_at_the_end_of_the_turn():
    s = duel()
    place(s, "a", 5, 5)
    s, ev = turn(s)
    assert s.points == {"a": 1} and s.result is None
    held = [e for e in ev if e.kind == "objective_held"]
    assert [(e.unit, e.points, e.goal) for e in held] == [("a", 1, OBJ["points"]["normal"])]
    assert GAME.event_text(held[0], "en").startswith("a holds the crossroads alone: 1 of")
    assert "十字路口" in GAME.event_text(held[0], "zh")


def test_a_contested_zone_scores_for_nobody_and_a_wreck_holds_nothing():
    s = duel()
    place(s, "a", 5, 5)
    place(s, "b", 6, 5)
    s, ev = turn(s)
    assert s.points == {} and [e.crews for e in ev if e.kind == "objective_contested"] == [2]
    # a wreck in the zone neither scores nor contests
    s2 = duel(seats=("a", "b", "c"))
    place(s2, "a", 5, 5)
    wreck = place(s2, "b", 6, 5)
    wreck.status, wreck.out_reason = "out", "loc3"
    s2, _ = turn(s2)
    assert s2.points == {"a": 1}


def test_a_move_into_the_zone_scores_the_same_turn_and_the_first_to_the_goal_wins():
    s = duel(mode="simple")
    goal = OBJ["points"]["simple"]
    s, _ = turn(s, {"a": Order(what="move", reverse=False, cells=2)})
    a = R.unit_by_id(s, "a")
    assert (a.x, a.y) in ZONE and s.points == {"a": 1}
    for _ in range(goal - 1):
        s, ev = turn(s)
    assert s.result is not None and s.result.winners == ["a"] and s.result.reason == "objective"
    out = GAME.outcome(s)
    assert out.scores == {"a": float(goal), "b": 0.0}
    en = t(out.reason.key, "en", **out.reason.params)
    zh = t(out.reason.key, "zh", **out.reason.params)
    assert "crossroads E4-H7" in en and f"first to {goal} points" in en and f"a {goal}, b 0" in en
    assert "十字路口 E4-H7" in zh and "the crossroads is held" in en and "十字路口已被占领" in zh


def test_knocking_out_every_other_crew_still_wins():
    s = duel()
    b = place(s, "b", 5, 5)
    s.points = {"b": OBJ["points"]["normal"] - 1}
    s.turn = OBJ["points"]["normal"]
    a = R.unit_by_id(s, "a")
    for name, values in (("hit", [1]), ("location", [6]), ("damage", [6])):
        s.rng.force(name, values)
    assert b.id in [o.id for o, _ in R.shootable(s, a)]
    s, _ = turn(s, {"a": Order(what="shoot", target="b")})
    assert s.result.winners == ["a"] and s.result.reason == "victory"  # b was out before it scored


def test_at_the_turn_limit_the_surviving_crew_with_most_points_wins_a_tie_is_a_draw():
    s = duel(seats=("a", "b", "c"), max_turns=2)
    s.points = {"a": 1, "b": 1}
    s.turn = 2
    lead, _ = turn(s.model_copy(deep=True))
    assert lead.result.reason == "time_up_draw" and lead.result.winners == ["a", "b"]
    place(s, "c", 5, 5)
    s.points = {"a": 1, "c": 0}
    tied, _ = turn(s)
    assert tied.result.reason == "time_up_draw" and tied.result.winners == ["a", "c"]
    s.points = {"a": 1, "c": 1}
    won, _ = turn(s)
    assert won.result.reason == "time_up_points" and won.result.winners == ["c"]


def test_the_view_carries_the_objective_and_revision_2_duels_have_none():
    s = duel(seats=("a", "b", "c"))
    place(s, "a", 5, 5)
    s, _ = turn(s)
    v = GAME.view(s, "b")
    assert isinstance(v.objective, ObjectiveView)
    assert v.objective.zone == sorted(ZONE, key=lambda c: (c[1], c[0])) and len(v.objective.cells) == 16
    assert v.objective.cells[0] == "E4" and v.objective.cells[-1] == "H7"
    assert v.objective.goal == OBJ["points"]["normal"] and v.objective.points == {"a": 1, "b": 0, "c": 0}
    assert v.objective.holder == "a"
    summary = GAME.summary(s)
    assert summary.key == "armor_clash.summary.duel" and summary.params["scores"] == "a 1, b 0, c 0"
    old = duel(rules=2)
    assert GAME.view(old, "a").objective is None and GAME.summary(old).key == "armor_clash.summary.turn"


def test_revision_2_duels_keep_their_start_cells_and_never_score():
    s = duel(rules=2)
    assert [[u.x, u.y, u.hull] for u in s.units] == content.scenarios()["duel"]["players"][:2]
    place(s, "a", 5, 5)
    for _ in range(3):
        s, ev = turn(s)
    assert s.points == {} and not [e for e in ev if e.kind.startswith("objective")]
    s.max_turns = s.turn - 1
    s, _ = turn(s)
    assert s.result.reason == "time_up_draw" and s.result.winners == ["a", "b"]
    assert GAME.outcome(s).reason.key == "armor_clash.outcome.time_up_draw"


@pytest.mark.parametrize(
    "rules,points,field", [(2, {"a": 1}, "points"), (3, {"a": 5}, "points.a"), (3, {"z": 1}, "points")]
)
def test_forged_points_are_refused(rules, points, field):
    s = duel(rules=rules)
    s.turn = 4
    data = GAME.dump(s)
    data["points"] = points
    with pytest.raises(Exception) as err:
        GAME.load(data)
    assert field in str(err.value)
    assert canonical(GAME.dump(GAME.load(GAME.dump(s)))) == canonical(GAME.dump(s))


# ------------------------------------------------------------------ the hard AI (R17)
def play(s, levels, turns):
    for _ in range(turns):
        if s.result is not None:
            break
        for u in s.units:
            if u.active and u.stunned == 0:
                s.orders[u.seat] = AI.order_for(s, u, levels[u.seat])
        R.resolve_turn(s, [], AI.enemy_order)
    return s


@pytest.mark.parametrize("mode", ["normal", "simple"])
@pytest.mark.parametrize("hard", ["a", "b", "c", "d"])
def test_hard_drives_into_the_zone_on_the_first_turn_and_holds_it_easy_never_moves(mode, hard):
    seats = ("a", "b", "c", "d")
    s = duel(seats=seats, mode=mode)
    levels = {x: "hard" if x == hard else "easy" for x in seats}
    first = AI.order_for(s, R.unit_by_id(s, hard), "hard")
    assert first.what == "move" and first.cells == 2 and not first.reverse
    starts = {u.id: (u.x, u.y) for u in s.units}
    for n in range(1, 4):
        s = play(s, levels, 1)
        h = R.unit_by_id(s, hard)
        if not h.active or s.result is not None:
            break
        assert (h.x, h.y) in ZONE and s.points[hard] == n
        assert all((u.x, u.y) == starts[u.id] for u in s.units if u.id != hard)  # easy: today's AI


def test_hard_contests_a_zone_held_by_a_foe_and_shoots_the_holder_first():
    s = duel(seats=("a", "b", "c"))
    place(s, "c", 6, 4)  # c holds the zone
    a = R.unit_by_id(s, "a")
    assert AI.order_for(s, a, "hard").what == "move"  # drives in to deny c its points
    place(s, "a", 5, 5, hull=1)
    place(s, "b", 9, 4)
    for o in ("b", "c"):
        assert o in [x.id for x, _ in R.shootable(s, a)]
    order = AI.order_for(s, a, "hard")
    assert order == Order(what="shoot", target="c")


def test_hard_keeps_its_round_aims_on_the_way_and_loads_he_in_the_zone():
    s = duel()
    a = R.unit_by_id(s, "a")
    a.turret = 3  # gun pointing SE, the foe (J2) is NE: a free 2-cell turn aims it from the zone
    order = AI.order_for(s, a, "hard")
    assert order.what == "move" and order.pre_rot is not None
    s, _ = turn(s, {"a": order})
    a = R.unit_by_id(s, "a")
    b = R.unit_by_id(s, "b")
    assert (a.x, a.y) in ZONE and a.loaded == "AP"
    assert R.G.rotation_needed(a.abs_turret, R.G.bearing(a, b)) == 0
    assert AI.order_for(s, a, "hard") == Order(what="shoot", target="b")
    a.loaded = None
    assert AI.order_for(s, a, "hard").model_dump(exclude_none=True) == {"what": "reload", "ammo": "HE"}


def test_hard_turns_the_hull_when_no_straight_move_reaches_the_zone():
    s = duel()
    place(s, "a", 1, 8, hull=0)  # B9 facing N: no straight line along the hull into the zone
    # the quickest way: a hull turn to NE (1 turn, a reload keeps counting), then 3 cells (2 turns)
    assert AI.order_for(s, R.unit_by_id(s, "a"), "hard") == Order(what="hull", facing=1)
    s.rng.force("hit", [6] * 6)  # the foe's shots miss (a veteran hits on 1, 2, 3, 5)
    s = play(s, {"a": "hard", "b": "easy"}, 3)
    a = R.unit_by_id(s, "a")
    assert (a.x, a.y) in ZONE and s.points == {"a": 1}


def test_a_scoring_turn_through_the_public_api_leaves_the_state_before_it_unchanged():
    """States are copied on write: the points of the new state are never the old state's dict."""
    s = duel()
    place(s, "a", 5, 5)
    s, _ = GAME.apply(s, "a", {"kind": "choose", "what": "pass"})
    before = GAME.dump(s)
    after, ev = GAME.apply(s, "b", {"kind": "choose", "what": "pass"})
    assert after.points == {"a": 1} and any(e.kind == "objective_held" for e in ev)
    assert s.points == {} and canonical(GAME.dump(s)) == canonical(before)


def test_hard_enters_the_zone_where_a_loaded_gun_does_not_bear():
    """Two zone cells equally quick to reach: it takes the one behind the rival's gun (8.1/8.2)."""
    s = duel()
    a = place(s, "a", 3, 4, hull=2)  # D5 facing E: E5 and F5 are both one short move away
    b = place(s, "b", 5, 5, hull=4)  # F6, gun pointing S: E5 (NW of it) in its reach, F5 (N) behind it
    assert R.G.rotation_needed(b.abs_turret, R.G.octant(4 - 5, 4 - 5)) <= R.free_rotation(b)
    assert R.G.rotation_needed(b.abs_turret, R.G.octant(5 - 5, 4 - 5)) > R.free_rotation(b)
    order = AI.order_for(s, a, "hard")
    assert (order.what, order.reverse, order.cells) == ("move", False, 2)
    b.turret = 4  # now pointing N: F5 in reach, E5 still in reach too -> the nearer cell
    assert AI.order_for(s, a, "hard").cells == 1


def test_a_penalised_slow_tank_still_takes_the_direct_move_into_the_zone():
    """A KV-2 (2 cells are a medium move, 2 turns) prefers the move that ends in the zone to
    two short ones of the same length in turns (a tie in turns goes to the direct arrival)."""
    s = duel(vehicles=["kv2", "kv2"], mode="simple")
    order = AI.order_for(s, R.unit_by_id(s, "a"), "hard")
    assert (order.what, order.cells) == ("move", 2)


@pytest.mark.parametrize("k", [3, 4])
def test_hard_crews_in_a_contested_zone_do_not_all_pick_the_same_victim(k):
    """The last tie-break is the next seat round the table, so equal rivals share the fire."""
    seats = ("a", "b", "c", "d")[:k]
    s = play(duel(seats=seats), dict.fromkeys(seats, "hard"), 1)
    assert all((u.x, u.y) in ZONE for u in s.units)  # all drove in: contested
    targets = [AI.order_for(s, u, "hard").target for u in s.units]
    assert None not in targets and len(set(targets)) == k


# ------------------------------------------------------------------ the image
def test_the_image_draws_the_zone_and_every_crews_points():
    import io

    from PIL import Image

    from render import armor_clash as RA
    from render.common import recorded_text

    s = duel(seats=("a", "b", "c"))
    place(s, "a", 5, 5)
    s, _ = turn(s)
    for locale, word in (("en", "Crossroads"), ("zh", "十字路口")):
        with recorded_text() as runs:
            png = RA.draw(GAME.view(s, "b"), locale)
        texts = [r for _, r in runs]
        assert any(word in r for r in texts)
        goal = OBJ["points"]["normal"]
        assert [r for r in texts if r.startswith("★")] == [f"★ 1/{goal}", f"★ 0/{goal}", f"★ 0/{goal}"]
        img = Image.open(io.BytesIO(png)).convert("RGB")
        board = RA._Board(GAME.view(s, "b"), locale, img, None)  # geometry only
        inside = img.getpixel(tuple(int(v) for v in board.centre(7, 3)))  # H4: an empty zone cell
        outside = img.getpixel(tuple(int(v) for v in board.centre(1, 5)))  # B6: an empty field cell
        assert inside != outside
    old = duel(rules=2)
    with recorded_text() as runs:
        RA.draw(GAME.view(old, "a"), "en")
    assert not any("Crossroads" in r or r.startswith("★") for _, r in runs)


def test_the_zone_tab_goes_to_a_corner_no_tank_covers():
    from render.armor_clash import tab_corner

    zone = [(x, y) for x in range(4, 8) for y in range(3, 7)]
    assert tab_corner(zone, set(), 2) == (True, False)
    assert tab_corner(zone, {(5, 3)}, 2) == (True, True), "a tank in the tab's second cell moves it"
    assert tab_corner(zone, {(4, 3), (7, 3)}, 2) == (False, False)
    assert tab_corner(zone, {(4, 3), (7, 3), (4, 6)}, 2) == (False, True)
    assert tab_corner(zone, {(4, 3), (7, 3), (4, 6), (6, 6)}, 2) == (True, False), "all taken: top-left"

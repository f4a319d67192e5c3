"""Armor Clash rules: set-up, queries, shot resolution, the boss automaton, turn resolution.

Everything here is pure: it mutates the state copy it is given and returns events.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ..base import bad_state
from . import content
from . import geometry as G
from .models import (
    AMMO,
    NOTE_EVENTS,
    Aim,
    BossCard,
    MovePlan,
    Options,
    Order,
    Result,
    Roll,
    RotPlan,
    ShotTrace,
    State,
    Unit,
)

BOSS_LABEL = "@armor_clash.boss.name"


# ------------------------------------------------------------------ helpers
def note(events: list, kind: str, **fields: Any) -> None:
    """Append the typed event of ``kind`` (models.NOTE_EVENTS)."""
    events.append(NOTE_EVENTS[kind](**fields))


def position(state: State, u: Unit) -> int:
    """Where ``u`` stands in the unit list (identity, not field equality: the tie-break order)."""
    for i, x in enumerate(state.units):
        if x is u:
            return i
    raise ValueError(u.id)


def unit_by_id(state: State, uid: str) -> Unit | None:
    for u in state.units:
        if u.id == uid:
            return u
    return None


def unit_of_seat(state: State, seat: str) -> Unit | None:
    for u in state.units:
        if u.seat == seat:
            return u
    return None


def veh(u: Unit) -> dict[str, Any]:
    return content.vehicles()[u.vehicle]


def foes(state: State, u: Unit) -> list[Unit]:
    return [o for o in state.units if o.active and o.side != u.side]


def occupied(state: State, x: int, y: int) -> bool:
    return any(o.x == x and o.y == y for o in state.units)


def on_board(state: State, x: int, y: int) -> bool:
    return 0 <= x < state.width and 0 <= y < state.height


def has_link(u: Unit) -> bool:
    return u.boss or u.link


def set_turret_abs(u: Unit, new_abs: int) -> int:
    """Point the turret at ``new_abs``; with the body-turret link the hull follows (rules 8.5)."""
    old = u.abs_turret
    if new_abs == old:
        return 0
    delta = (new_abs - old) % 8
    if delta > 4:
        delta -= 8
    if has_link(u):
        u.hull = (u.hull + delta) % 8
    else:
        u.turret = (new_abs - u.hull) % 8
    u.rotated_this_turn = True
    return abs(delta)


def turret_state(u: Unit) -> str:
    if u.card is not None and u.card.overload_left > 0:
        return "overload"
    return u.turret_state


def turret_speed(state: State, u: Unit) -> int:
    """Cells per turn (rules 8.3, 8.5, 9.1)."""
    sp = content.tables()["rotation_speed"]
    st = turret_state(u)
    if st in ("locked", "overload"):
        return 0
    if u.boss:
        speed = sp["boss_crank"] if st == "crank" else sp["boss_normal"]
        if u.card is not None and u.card.halved_turns > 0:
            speed = max(1, speed // 2)
        return speed
    if st == "crank":
        return 0  # hand-cranked rotations follow the lookup table instead
    return sp["link"] if u.link else sp["normal"]


def rotation_turns(state: State, u: Unit, cells: int) -> int:
    """Turns a rotation of ``cells`` takes as a separate action (at least one)."""
    st = turret_state(u)
    if st in ("locked", "overload") or cells <= 0:
        return 0
    if st == "crank" and not u.boss:
        return content.crank_turns(cells)
    if u.boss or u.link:
        return max(1, math.ceil(cells / turret_speed(state, u)))
    return max(1, content.normal_rotation_turns(cells))


def free_rotation(u: Unit) -> int:
    """Cells a turret may turn free with the ammo choice / shot (rules 8.2: 1-2 cells, normal turret only)."""
    return content.tables()["free_rotation"] if turret_state(u) == "normal" else 0


def reload_turns(u: Unit) -> int:
    base = veh(u)["reload"] + u.pen["reload"]
    if u.boss:
        return math.ceil(base / content.boss()["reload_divisor"])
    return base


def aim_turns(u: Unit) -> int:
    return 1 + u.pen["shoot"]


def move_reach(state: State, u: Unit, reverse: bool, hull: int | None = None) -> int:
    if u.tracks != "ok":
        return 0
    h = u.hull if hull is None else hull
    d = (h + 4) % 8 if reverse else h
    dx, dy = G.DIRS[d]
    occ = {(o.x, o.y) for o in state.units}
    w, h = state.width, state.height
    x, y, n = u.x, u.y, 0
    for _ in range(veh(u)["max_move"]):
        x, y = x + dx, y + dy
        if not (0 <= x < w and 0 <= y < h) or (x, y) in occ:
            break
        n += 1
    return n


def move_cost(u: Unit, cells: int) -> tuple[str, int]:
    band, turns = G.move_turns(cells, veh(u)["max_move"])
    return band, turns + u.pen["move"]


def boss_cells_per_turn(state: State) -> int:
    b = content.boss()
    return math.ceil(b["base_cells_per_turn"] * state.options.boss_speed_pct / 100)


def shootable(state: State, u: Unit, turret_abs: int | None = None, free: int | None = None) -> list[tuple[Unit, int]]:
    """Targets the unit can shoot now and the free rotation each needs."""
    out = []
    ta = u.abs_turret if turret_abs is None else turret_abs
    fr = free_rotation(u) if free is None else free
    for o in foes(state, u):
        if state.options.mode == "simple":
            out.append((o, 0))
            continue
        need = G.rotation_needed(ta, G.bearing(u, o))
        if need == 0 or need <= fr:
            out.append((o, need))
    return out


# -------------------------------------------------------------------- set-up
def build_units(seats: list[str], opts: Options) -> list[Unit]:
    sc = content.scenarios()[opts.scenario]
    obj = sc.get("objective")
    starts = obj["players"] if obj is not None and opts.rules >= obj["from_rules"] else sc["players"]
    units: list[Unit] = []
    for i, seat in enumerate(seats):
        x, y, f = starts[i]
        vehicle = opts.vehicles[i] if i < len(opts.vehicles) else "t34_85"
        crew = opts.crews[i] if i < len(opts.crews) else "veteran"
        link = bool(opts.links[i]) if i < len(opts.links) else False
        if link and content.crew_rank(crew) < content.crew_rank(content.tables()["link_min_crew"]):
            link = False
        side = seat if sc["pvp"] else "players"
        units.append(
            Unit(
                id=seat,
                label=seat,
                side=side,
                seat=seat,
                vehicle=vehicle,
                crew=crew,
                link=link,
                x=x,
                y=y,
                hull=f,
                loaded=content.tables()["default_ammo"],
            )
        )
    n = len(seats)
    counts: dict[str, int] = {}
    for j, e in enumerate(sc["enemies"]):
        if n < e.get("min_players", 1) or opts.mode not in e.get("modes", ("simple", "normal")):
            continue
        is_boss = bool(e.get("boss"))
        counts[e["vehicle"]] = counts.get(e["vehicle"], 0) + 1
        label = BOSS_LABEL if is_boss else f"{content.vehicles()[e['vehicle']]['name']} #{counts[e['vehicle']]}"
        units.append(
            Unit(
                id="boss" if is_boss else f"e{j + 1}",
                label=label,
                side="enemies",
                vehicle=e["vehicle"],
                crew=e["crew"],
                boss=is_boss,
                x=e["x"],
                y=e["y"],
                hull=e["facing"],
                loaded=content.tables()["default_ammo"],
                card=BossCard(ms_left=content.boss()["fatigue_move_turns"]) if is_boss else None,
            )
        )
    return units


# ------------------------------------------------------------------ damage
def roll(state: State, events: list, u: Unit, die: str, result_fn) -> int:
    value = state.rng.roll(die, 6)
    events.append(Roll(unit=u.id, label=u.label, die=die, value=value, result=result_fn(value)))
    return value


def knock_out(state: State, target: Unit, reason: str, events: list, shooter: Unit | None, destroyed: bool) -> None:
    if not target.active:
        return
    target.status = "destroyed" if destroyed else "out"
    target.out_reason = reason
    target.move_plan = target.rot_plan = target.aim = None
    if shooter is not None and shooter.side != target.side:
        shooter.kills += 1
    note(events, "destroyed" if destroyed else "incapacitated", unit=target.label, reason=reason)


def injure(state: State, target: Unit, crew: str, events: list, times: int = 1) -> None:
    tb = content.tables()
    for _ in range(times):
        if crew == "power":
            target.power += 1
            target.pen["move"] += tb["power_penalty"]
            note(events, "power_hit", unit=target.label, pen=tb["power_penalty"], total=target.pen["move"])
            continue
        target.injuries[crew] += 1
        value = roll(state, events, target, "penalty", lambda v: f"+{tb['penalty_roll'][str(v)]}")
        p = tb["penalty_roll"][str(value)]
        kind = tb["penalty_for_crew"][crew]
        target.pen[kind] += p
        note(
            events,
            "crew_hit",
            unit=target.label,
            crew=crew,
            pen=p,
            what=kind,
            total=target.pen[kind],
        )


def after_effect(state: State, target: Unit, loc: int, heavy: bool, events: list, times: int = 1) -> None:
    """Chapter 6.2 table row of the location (crew injury / power system)."""
    tb = content.tables()
    crew = tb["crew_for_location"][str(loc)]
    if crew is None:
        note(events, "tracks_no_crew", unit=target.label)
        return
    injure(state, target, crew, events, times)
    if crew == "power" and heavy:
        target.heavy_power += 1
        if state.options.repeated_hits and target.heavy_power >= 2 and target.fire_left is None:
            target.fire_left = tb["fire_turns"]
            note(events, "on_fire", unit=target.label, turns=target.fire_left)
    if loc == 5 and heavy and state.options.mode == "normal":
        target.turret_heavy += 1
        target.rot_plan = None
        if target.turret_heavy >= 2:
            target.turret_state = "locked"
        elif target.turret_state == "normal":
            target.turret_state = "crank"
        note(events, "turret_state", unit=target.label, state=target.turret_state)


def rage_change(state: State, boss: Unit, delta: int, reason: str, events: list, target: Unit | None = None) -> None:
    card = boss.card
    assert card is not None
    old = card.rage
    if delta == 0:
        return
    if reason == "halved":
        card.rage = old // 2
    else:
        card.rage = max(0, old + delta)
    note(events, "rage", unit=boss.label, old=old, new=card.rage, reason=reason)
    b = content.boss()
    if state.options.mode == "normal" and card.rage >= b["rage_max_normal"]:
        victim = target if target is not None and target.active else None
        if victim is None:
            pool = foes(state, boss)
            victim = min(pool, key=lambda o: (G.chebyshev(boss, o), position(state, o))) if pool else None
        if victim is not None:
            note(events, "rage_lock", unit=boss.label, target=victim.label)
            knock_out(state, victim, "rage", events, boss, destroyed=True)
        old = card.rage
        card.rage = 0
        note(events, "rage", unit=boss.label, old=old, new=0, reason="reset")


def apply_hit_normal(state: State, shooter: Unit, target: Unit, loc: int, res: str, events: list) -> None:
    tb = content.tables()
    opts = state.options
    if res in ("nopen", "pen_weak"):
        note(events, "no_effect", unit=target.label)
        return
    if res == "ricochet":
        note(events, "ricochet", unit=target.label)
        if loc == 5:
            if opts.ricochet_stun:
                target.stunned = tb["stun_turns"]
                note(events, "stunned", unit=target.label)
            if target.boss and target.card is not None:
                target.card.prerot_blocked = True
                note(events, "counter_prerot", unit=target.label)
        return
    if res == "damaged" and [loc, res] in tb["incapacitate"]:
        if loc == 6:
            target.tracks = "destroyed"
            target.track_knockouts += 1
        knock_out(state, target, f"loc{loc}", events, shooter, destroyed=False)
        return
    if res == "pen":
        if loc == 1 and opts.ammo_rack:
            knock_out(state, target, "ammo_rack", events, shooter, destroyed=True)
            return
        if target.boss and target.card is not None and loc == 5:
            target.card.halved_turns = content.boss()["counter_turret_pen_turns"] + 1
            note(events, "counter_halved", unit=target.label, turns=content.boss()["counter_turret_pen_turns"])
        if target.boss and target.card is not None and loc == 1:
            rage_change(state, target, -1, "halved", events)
    after_effect(state, target, loc, heavy=(res == "damaged"), events=events)


def apply_hit_simple(state: State, shooter: Unit, target: Unit, loc: int, events: list, times: int) -> None:
    """Rules 5.2: penetration assumed, chapter 6 after-effects applied directly."""
    opts = state.options
    if loc == 1 and opts.ammo_rack:
        knock_out(state, target, "ammo_rack", events, shooter, destroyed=True)
        return
    if target.boss and target.card is not None and loc == 1:
        rage_change(state, target, -1, "halved", events)
    if loc in (3, 6):
        if loc == 6:
            target.tracks = "destroyed"
            target.track_knockouts += 1
        knock_out(state, target, f"loc{loc}", events, shooter, destroyed=False)
        return
    for _ in range(times):
        after_effect(state, target, loc, heavy=True, events=events)


def fire(state: State, shooter: Unit, target: Unit, events: list) -> None:
    tb = content.tables()
    ammo = shooter.loaded or tb["default_ammo"]
    shooter.loaded = None
    shooter.fired_this_turn = True
    if shooter.boss:
        shooter.reload_left = reload_turns(shooter)
    note(events, "shot", unit=shooter.label, target=target.label, ammo=ammo)
    if target.boss and target.card is not None and not shooter.boss:
        d = G.bearing(target, shooter)
        if d not in target.card.cur_dirs:
            target.card.cur_dirs.append(d)
    hits = content.hit_numbers(shooter.crew)
    rage_v = content.boss()["rage_die_value"]

    def hit_word(v: int) -> str:
        return "@armor_clash.result.hit" if v in hits else "@armor_clash.result.miss"

    if state.options.mode == "normal":
        if turret_state(shooter) == "normal":
            set_turret_abs(shooter, G.bearing(shooter, target))
        die = roll(state, events, shooter, "hit", hit_word)
        state.last_shots.append(ShotTrace(shooter=shooter.id, target=target.id, hit=die in hits))
        if shooter.boss and die == rage_v:
            rage_change(state, shooter, 1, "miss", events, target)
        if die not in hits or not target.active:
            return
        loc = roll(state, events, shooter, "location", lambda v: f"@armor_clash.loc.{content.location_name(v)}")
        dmg = roll(state, events, shooter, "damage", lambda v: "")
        res = content.damage_result(loc, dmg)
        mapped = tb["ammo"][ammo]["result_map"].get(res, res)
        events[-1].result = f"@armor_clash.dmg.{mapped}"
        if mapped != res:
            note(
                events,
                "ammo_effect",
                ammo=ammo,
                old=res,
                new=mapped,
            )
        if tb["ammo"][ammo]["he_spall"] and mapped == "nopen":
            crew = tb["crew_for_location"][str(loc)]
            if crew is not None:
                note(events, "he_spall", unit=target.label)
                injure(state, target, crew, events)
            return
        apply_hit_normal(state, shooter, target, loc, mapped, events)
    else:
        double = bool(
            shooter.boss and shooter.card is not None and shooter.card.rage >= content.boss()["rage_double_simple"]
        )
        loc = roll(state, events, shooter, "location", lambda v: f"@armor_clash.loc.{content.location_name(v)}")
        die = roll(state, events, shooter, "hit", hit_word)
        state.last_shots.append(ShotTrace(shooter=shooter.id, target=target.id, hit=die in hits))
        if shooter.boss and die == rage_v:
            rage_change(state, shooter, 1, "miss", events, target)
        if die not in hits:
            return
        if double:
            note(events, "rage_double", unit=shooter.label)
        apply_hit_simple(state, shooter, target, loc, events, 2 if double else 1)
        if double and shooter.card is not None:
            old = shooter.card.rage
            shooter.card.rage = 0
            note(events, "rage", unit=shooter.label, old=old, new=0, reason="reset")


# --------------------------------------------------------------- progress
def start_rotation(state: State, u: Unit, target_abs: int, events: list) -> None:
    cells = G.ring_dist(u.abs_turret, target_abs)
    if cells == 0 or turret_state(u) in ("locked", "overload"):
        note(events, "rotate_blocked", unit=u.label)
        return
    u.rot_plan = RotPlan(
        start=u.abs_turret,
        target=target_abs,
        clockwise=G.clockwise(u.abs_turret, target_abs),
        cells_total=cells,
        turns_total=rotation_turns(state, u, cells),
        crank=(turret_state(u) == "crank" and not u.boss),
    )


def progress_rotation(state: State, u: Unit, events: list) -> None:
    p = u.rot_plan
    if p is None:
        return
    if turret_state(u) in ("locked", "overload"):
        u.rot_plan = None
        note(events, "rotate_blocked", unit=u.label)
        return
    p.turns_done += 1
    if p.crank:
        done = p.cells_total if p.turns_done >= p.turns_total else p.cells_total * p.turns_done // p.turns_total
    else:
        done = min(p.cells_total, turret_speed(state, u) * p.turns_done)
    done = max(done, p.cells_done)
    new_abs = (p.start + done) % 8 if p.clockwise else (p.start - done) % 8
    set_turret_abs(u, new_abs)
    u.rotated_this_turn = True
    p.cells_done = done
    left = p.cells_total - done
    note(events, "rotated", unit=u.label, cell=G.RING_TO_CELL[u.turret], cells=done, left=left)
    if left <= 0:
        u.rot_plan = None


def progress_move(state: State, u: Unit, events: list) -> None:
    p = u.move_plan
    if p is None:
        return
    p.turns_done += 1
    want = p.cells_total if p.turns_done >= p.turns_total else p.cells_total * p.turns_done // p.turns_total
    dx, dy = G.DIRS[p.dir]
    moved = 0
    blocked = False
    for _ in range(want - p.cells_done):
        nx, ny = u.x + dx, u.y + dy
        if not on_board(state, nx, ny) or occupied(state, nx, ny):
            blocked = True
            break
        u.x, u.y = nx, ny
        moved += 1
    p.cells_done += moved
    if moved:
        u.moved_this_turn = True
    left = p.cells_total - p.cells_done
    note(
        events,
        "moved",
        unit=u.label,
        cells=moved,
        cell=G.cell_name(u.x, u.y),
        left=left,
        turns=max(0, p.turns_total - p.turns_done),
    )
    if blocked:
        note(events, "blocked", unit=u.label)
        u.move_plan = None
    elif left <= 0:
        u.move_plan = None


def progress_reload(state: State, u: Unit, events: list) -> None:
    if u.loading is None:
        return
    u.reload_left = max(0, u.reload_left - 1)
    if u.reload_left == 0:
        u.loaded, u.loading = u.loading, None
        note(events, "loaded", unit=u.label, ammo=u.loaded)
    else:
        note(events, "reloading", unit=u.label, ammo=u.loading, left=u.reload_left)


def hull_turn(state: State, u: Unit, facing: int, events: list) -> None:
    u.hull = facing % 8
    u.rot_plan = None
    note(events, "hull", unit=u.label, facing=u.hull)
    if u.loading is not None:
        progress_reload(state, u, events)


def try_shoot(state: State, u: Unit, target_id: str, free_left: int, events: list) -> None:
    target = unit_by_id(state, target_id)
    if target is None or not target.active:
        note(events, "target_gone", unit=u.label)
        u.aim = None
        return
    if u.loaded is None:
        note(events, "not_loaded", unit=u.label)
        u.aim = None
        return
    if state.options.mode == "normal":
        d = G.bearing(u, target)
        need = G.rotation_needed(u.abs_turret, d)
        if need > 0:
            if turret_state(u) == "normal" and need <= free_left:
                new_abs = G.step_towards(u.abs_turret, d, need)
                set_turret_abs(u, new_abs)
                note(events, "rotated", unit=u.label, cell=G.RING_TO_CELL[u.turret], cells=need, left=0)
            else:
                note(events, "out_of_arc", unit=u.label, target=target.label)
                u.aim = None
                return
    if u.aim is None or u.aim.target != target_id:
        u.aim = Aim(target=target_id)
    u.aim.done += 1
    need_turns = aim_turns(u)
    if u.aim.done < need_turns:
        note(events, "aiming", unit=u.label, target=target.label, left=need_turns - u.aim.done)
        return
    u.aim = None
    fire(state, u, target, events)


# ------------------------------------------------------------------- boss
def boss_target(state: State, boss: Unit) -> Unit | None:
    pool = foes(state, boss)
    if not pool:
        return None
    rage = boss.card.rage if boss.card else 0
    if state.options.mode == "normal":
        for row in content.boss()["prerotate"]:
            if row["from"] <= rage <= row["to"] and row["priority"] == "damaged":
                damaged = [o for o in pool if o.damaged]
                pool = damaged or pool
    return min(pool, key=lambda o: (G.chebyshev(boss, o), position(state, o)))


def prerot_cells(state: State, boss: Unit) -> int:
    rage = boss.card.rage if boss.card else 0
    for row in content.boss()["prerotate"]:
        if row["from"] <= rage <= row["to"]:
            return row["cells"]
    return 0


def boss_phase_turn(state: State, boss: Unit, events: list) -> dict[str, Any]:
    """Phase A for the boss: forced hull turn or turret rotation.  Returns the plan for later phases."""
    card = boss.card
    assert card is not None
    plan: dict[str, Any] = {"move": True, "shoot": True}
    target = boss_target(state, boss)
    card.target = target.id if target else None
    if card.forced_turn is not None:
        note(events, "boss_forced_turn", unit=boss.label)
        hull_turn(state, boss, card.forced_turn, events)
        card.forced_turn = None
        return {"move": False, "shoot": False}
    if card.rest_left > 0:
        plan["move"] = False
        note(events, "boss_resting", unit=boss.label, left=card.rest_left)
    if target is None:
        return plan
    if state.options.mode == "normal":
        d = G.bearing(boss, target)
        need = G.rotation_needed(boss.abs_turret, d)
        if need > free_rotation(boss):
            speed = turret_speed(state, boss)
            if speed > 0:
                new_abs = G.step_towards(boss.abs_turret, d, min(speed, G.ring_dist(boss.abs_turret, d)))
                n = set_turret_abs(boss, new_abs)
                note(events, "rotated", unit=boss.label, cell=G.RING_TO_CELL[boss.turret], cells=n, left=0)
            else:
                note(events, "rotate_blocked", unit=boss.label)
            plan["shoot"] = False
    return plan


def boss_phase_move(state: State, boss: Unit, plan: dict[str, Any], events: list) -> None:
    card = boss.card
    assert card is not None
    if not plan.get("move"):
        return
    target = unit_by_id(state, card.target) if card.target else None
    if target is None or not target.active:
        return
    keep = content.boss()["keep_range"]
    if G.chebyshev(boss, target) <= keep and state.options.mode == "normal" and content.boss().get("drive") == "flank":
        _boss_flank(state, boss, target, keep, events)
        return
    moved = 0
    for _ in range(boss_cells_per_turn(state)):
        if G.chebyshev(boss, target) <= keep:
            break
        best = None
        for _d, (dx, dy) in enumerate(G.DIRS):
            nx, ny = boss.x + dx, boss.y + dy
            if not on_board(state, nx, ny) or occupied(state, nx, ny):
                continue
            dist = max(abs(nx - target.x), abs(ny - target.y))
            if best is None or dist < best[0]:
                best = (dist, nx, ny)
        if best is None or best[0] >= G.chebyshev(boss, target):
            break
        boss.x, boss.y = best[1], best[2]
        moved += 1
    if moved:
        boss.moved_this_turn = True
        note(events, "moved", unit=boss.label, cells=moved, cell=G.cell_name(boss.x, boss.y), left=0, turns=0)


def _boss_flank(state: State, boss: Unit, target: Unit, keep: int, events: list) -> None:
    """In range, Wittmann drives around its target's gun (designed: tables.json boss.drive).

    Each reachable cell scores (foes that would need a turn of traverse to shoot from there,
    how far it lies off the target's gun axis); the best one that beats staying put wins
    (closest, then the first in (x, y) order)."""
    steps = boss_cells_per_turn(state)
    occ = {(o.x, o.y) for o in state.units}
    w, h = state.width, state.height
    start = (boss.x, boss.y)
    seen = {start: 0}
    frontier = [start]
    for dist in range(1, steps + 1):
        nxt = []
        for cx, cy in frontier:
            for dx, dy in G.DIRS:
                c = (cx + dx, cy + dy)
                if c in seen or not (0 <= c[0] < w and 0 <= c[1] < h) or c in occ:
                    continue
                seen[c] = dist
                nxt.append(c)
        frontier = nxt
    # each foe's gun: (x, y, absolute turret, free rotation, is the target)
    guns = [(o.x, o.y, o.abs_turret, free_rotation(o), o.id == target.id) for o in foes(state, boss)]
    octant, ring = G.octant, G.ring_dist

    def score(x: int, y: int) -> tuple[int, int]:
        blind = behind = 0
        for ox, oy, tur, free, is_target in guns:
            rd = ring(tur, octant(x - ox, y - oy))
            if rd - 1 > free:
                blind += 1
            if is_target:
                behind = rd
        return blind, behind

    here = score(boss.x, boss.y)
    best = None
    tx, ty = target.x, target.y
    for (x, y), dist in sorted(seen.items()):
        if dist == 0 or not 2 <= max(abs(x - tx), abs(y - ty)) <= keep:
            continue
        sc = score(x, y)
        key = (sc, -dist)
        if sc > here and (best is None or key > best[0]):
            best = (key, x, y, dist)
    if best is None:
        return
    boss.x, boss.y = best[1], best[2]
    boss.moved_this_turn = True
    note(events, "moved", unit=boss.label, cells=best[3], cell=G.cell_name(boss.x, boss.y), left=0, turns=0)


def boss_phase_fire(state: State, boss: Unit, plan: dict[str, Any], events: list) -> None:
    card = boss.card
    assert card is not None
    if not plan.get("shoot") or boss.loaded is None:
        return
    target = unit_by_id(state, card.target) if card.target else None
    if target is None or not target.active:
        target = boss_target(state, boss)
        if target is None:
            return
        card.target = target.id
    if state.options.mode == "normal":
        d = G.bearing(boss, target)
        need = G.rotation_needed(boss.abs_turret, d)
        if need > 0:
            if need <= free_rotation(boss):
                n = set_turret_abs(boss, G.step_towards(boss.abs_turret, d, need))
                note(events, "rotated", unit=boss.label, cell=G.RING_TO_CELL[boss.turret], cells=n, left=0)
            else:
                note(events, "out_of_arc", unit=boss.label, target=target.label)
                return
    fire(state, boss, target, events)


def boss_end_of_turn(state: State, boss: Unit, events: list) -> None:
    card = boss.card
    assert card is not None
    b = content.boss()
    normal = state.options.mode == "normal"
    # reload (rules 9.1: halved, rounded up); the turn it fired does not count
    if boss.loaded is None and not boss.fired_this_turn:
        boss.reload_left = max(0, boss.reload_left - 1)
        if boss.reload_left == 0:
            boss.loaded = content.tables()["default_ammo"]
            note(events, "loaded", unit=boss.label, ammo=boss.loaded)
    # fatigue (rules 9.2)
    if boss.moved_this_turn:
        card.ms_left -= 1
        if card.ms_left <= 0:
            card.ms_left = 0
            card.rest_left = b["fatigue_rest_turns"]
            note(events, "boss_must_rest", unit=boss.label, turns=card.rest_left)
    elif card.rest_left > 0:
        card.rest_left -= 1
        if card.rest_left == 0:
            card.ms_left = b["fatigue_move_turns"]
            note(events, "boss_rested", unit=boss.label)
    else:
        card.ms_left = b["fatigue_move_turns"]
    # timed effects
    if card.halved_turns > 0:
        card.halved_turns -= 1
    if card.overload_left > 0:
        card.overload_left -= 1
        if card.overload_left == 0:
            note(events, "overload_end", unit=boss.label)
    if normal:
        # pre-rotation (rules 9.4)
        cells = prerot_cells(state, boss)
        card.prerot_mode = cells
        if cells and card.prerot_blocked:
            note(events, "prerot_blocked", unit=boss.label)
        elif cells and turret_state(boss) in ("normal", "crank"):
            t = boss_target(state, boss)
            if t is not None:
                d = G.bearing(boss, t)
                n = set_turret_abs(boss, G.step_towards(boss.abs_turret, d, cells))
                if n:
                    card.target = t.id
                    note(
                        events, "prerotate", unit=boss.label, cells=n, cell=G.RING_TO_CELL[boss.turret], target=t.label
                    )
        card.prerot_blocked = False
        # link streak and overload (rules 9.5)
        card.link_streak = card.link_streak + 1 if boss.rotated_this_turn else 0
        if card.link_streak >= b["overload_link_turns"] and card.rage >= b["overload_rage"] and card.overload_left == 0:
            card.overload_left = b["overload_turns"]
            card.link_streak = 0
            note(events, "overload", unit=boss.label)
            rage_change(state, boss, -b["overload_rage_loss"], "overload", events)
    # same-direction fire (rules 9.6)
    common = sorted(set(card.cur_dirs) & set(card.last_dirs))
    if common:
        card.forced_turn = common[0]
        card.last_dirs = []
        note(events, "counter_same_dir", unit=boss.label, facing=common[0])
    else:
        card.last_dirs = list(card.cur_dirs)
    card.cur_dirs = []


# --------------------------------------------------------------- resolution
def bail_out(state: State, events: list) -> None:
    """Designed scenario rule (``bail_out`` in scenarios.json, docs/rulings.md R14): a crew whose
    vehicle card carries that many penalty turns (6.2 "惩罚可累加") abandons the vehicle."""
    limits = content.scenarios()[state.options.scenario].get("bail_out")
    if not limits or state.options.rules < 2:
        return
    for u in state.units:
        if not u.active:
            continue
        limit = limits.get("boss" if u.boss else ("players" if u.seat is not None else "enemies"))
        if limit and sum(u.pen.values()) >= limit:
            knock_out(state, u, "bailed_out", events, None, destroyed=False)


def objective(state: State) -> dict[str, Any] | None:
    """The scenario objective this table plays (the duel's crossroads from rules revision 3 on,
    docs/rulings.md R14), or None."""
    obj = content.scenarios()[state.options.scenario].get("objective")
    if obj is None or state.options.rules < obj["from_rules"]:
        return None
    return obj


def zone_cells(obj: dict[str, Any]) -> frozenset[tuple[int, int]]:
    return frozenset((int(x), int(y)) for x, y in obj["zone"])


def objective_goal(state: State, obj: dict[str, Any]) -> int:
    return int(obj["points"][state.options.mode])


def zone_crews(state: State, cells: frozenset[tuple[int, int]] | None = None) -> list[Unit]:
    """The active vehicles standing in the objective zone (wrecks hold nothing)."""
    if cells is None:
        obj = objective(state)
        if obj is None:
            return []
        cells = zone_cells(obj)
    return [u for u in state.units if u.active and (u.x, u.y) in cells]


def holder(state: State) -> Unit | None:
    """The crew alone (among active vehicles) in the objective zone, if any."""
    inside = zone_crews(state)
    sides = {u.side for u in inside}
    return inside[0] if len(sides) == 1 else None


def score_objective(state: State, events: list) -> None:
    """End of turn (after the shots and bail-outs): the crew alone in the zone scores a point."""
    obj = objective(state)
    if obj is None:
        return
    inside = zone_crews(state, zone_cells(obj))
    sides = {u.side for u in inside}
    if len(sides) > 1:
        note(events, "objective_contested", crews=len(sides))
        return
    seat = inside[0].seat if inside else None
    if seat is None:
        return
    state.points[seat] = state.points.get(seat, 0) + 1
    note(events, "objective_held", unit=inside[0].label, points=state.points[seat], goal=objective_goal(state, obj))


def check_result(state: State) -> None:
    if state.result is not None:
        return
    seats = [u for u in state.units if u.seat is not None]
    pvp = content.scenarios()[state.options.scenario]["pvp"]
    if pvp:
        alive = []
        for u in seats:
            if u.active and u.side not in alive:
                alive.append(u.side)
        obj = objective(state)
        if len(alive) <= 1:
            winners = [u.seat for u in seats if u.side in alive]
            state.result = Result(
                winners=winners, reason="victory" if winners else "all_out", side=alive[0] if alive else None
            )
        elif obj is not None and any(state.points.get(u.seat or "", 0) >= objective_goal(state, obj) for u in seats):
            # one point a turn and one holder a turn: exactly one crew reaches the goal
            best = max(seats, key=lambda u: state.points.get(u.seat or "", 0))
            state.result = Result(winners=[best.seat or ""], reason="objective", side=best.side)
        elif state.turn > state.max_turns:
            active = [u for u in seats if u.active]
            if obj is None:
                state.result = Result(winners=[u.seat or "" for u in active], reason="time_up_draw")
                return
            top = max(state.points.get(u.seat or "", 0) for u in active)
            winners = [u.seat or "" for u in active if state.points.get(u.seat or "", 0) == top]
            state.result = Result(winners=winners, reason="time_up_points" if len(winners) == 1 else "time_up_draw")
        return
    players_alive = any(u.active for u in seats)
    enemies_alive = any(u.active for u in state.units if u.side == "enemies")
    sc = content.scenarios()[state.options.scenario]
    if sc.get("boss_decides"):
        # the escort withdraws once Wittmann is out
        enemies_alive = any(u.active for u in state.units if u.boss)
    elif sc.get("withdraw_pct"):
        # the AI force withdraws once it has lost this share of its tanks (rounded up)
        enemies = [u for u in state.units if u.side == "enemies"]
        lost = sum(1 for u in enemies if not u.active)
        if enemies and lost * 100 >= sc["withdraw_pct"] * len(enemies) and lost > 0:
            enemies_alive = False
    if not players_alive:
        state.result = Result(winners=[], reason="players_lost", side="enemies")
    elif not enemies_alive:
        state.result = Result(winners=[u.seat for u in seats], reason="victory", side="players")
    elif state.turn > state.max_turns:
        state.result = Result(winners=[], reason="time_up", side="enemies")


#: the rules revision from which a fire counts from the turn after the hit (docs/rulings.md R16)
FIRE_COUNTS_FROM_NEXT_TURN = 4


def burn(state: State, events: list, burning: set[str]) -> None:
    """The end of a turn for burning vehicles (10.1 「起火（3回合后摧毁）」, docs/rulings.md R16).

    ``burning`` holds the vehicles already on fire when the turn began.  A hit resolves at the
    end of its turn (2.3), so from rules revision 4 a vehicle set on fire at the end of turn T
    starts counting with T+1: it fights in T+1, T+2 and T+3 and is destroyed at the end of T+3
    (the log reads 3, 2, 1, destroyed).  Revisions 1-3 also counted the turn of the hit (on fire
    with 3 turns and at once burning with 2, destroyed at the end of T+2); a table stored under
    them keeps that count, so it plays on and replays exactly as it was played."""
    whole_turns = state.options.rules >= FIRE_COUNTS_FROM_NEXT_TURN
    for u in state.units:
        if not u.active or u.fire_left is None or (whole_turns and u.id not in burning):
            continue
        u.fire_left -= 1
        if u.fire_left <= 0:
            knock_out(state, u, "fire", events, None, destroyed=True)
        else:
            note(events, "burning", unit=u.label, turns=u.fire_left)


def resolve_turn(state: State, events: list, ai_order: Callable[[State, Unit], Order]) -> None:
    """Resolve a turn whose orders are all in; ``ai_order`` decides for the AI tanks (not the boss)."""
    note(events, "turn_resolves", turn=state.turn)
    state.last_shots = []
    burning = {u.id for u in state.units if u.fire_left is not None}
    orders: dict[str, Order] = {}
    for u in state.units:
        u.moved_this_turn = u.fired_this_turn = u.rotated_this_turn = False
    for u in state.units:
        if not u.active:
            continue
        if u.stunned > 0:
            u.stunned -= 1
            note(events, "stunned_skip", unit=u.label)
            orders[u.id] = Order(what="pass")
            continue
        if u.boss:
            continue
        if u.seat is not None:
            orders[u.id] = state.orders.get(u.seat, Order(what="pass"))
        else:
            orders[u.id] = ai_order(state, u)
    state.orders = {}
    by_id = {x.id: x for x in state.units}
    bosses = [u for u in state.units if u.boss and u.active and u.id not in orders]
    # interrupted multi-turn actions keep their progress; an aim is lost if not continued
    for uid, o in orders.items():
        u = by_id[uid]
        if o.what != "shoot" and u.aim is not None and not (o.what in ("move", "continue_move") and o.target):
            u.aim = None
        if o.what == "reload" and o.ammo:
            u.loading = o.ammo
            u.loaded = None
            u.reload_left = reload_turns(u)
        if o.what == "pass":
            note(events, "passed", unit=u.label)
    free_left: dict[str, int] = {}
    # phase A: turning
    for uid, o in orders.items():
        u = by_id[uid]
        free_left[uid] = free_rotation(u)
        if o.pre_rot is not None and free_rotation(u):
            n = set_turret_abs(u, o.pre_rot)
            free_left[uid] = max(0, free_left[uid] - n)
            note(events, "rotated", unit=u.label, cell=G.RING_TO_CELL[u.turret], cells=n, left=0)
        if o.what == "hull" and o.facing is not None:
            hull_turn(state, u, o.facing, events)
        elif o.what == "rotate" and o.turret_to is not None:
            start_rotation(state, u, o.turret_to, events)
            progress_rotation(state, u, events)
        elif o.what == "continue_rotate":
            progress_rotation(state, u, events)
    boss_plans = {b.id: boss_phase_turn(state, b, events) for b in bosses}
    # phase B: moving (a new move goes where the hull points after phase A)
    for uid, o in orders.items():
        u = by_id[uid]
        if o.what == "move" and o.cells:
            d = (u.hull + 4) % 8 if o.reverse else u.hull
            band, turns = move_cost(u, o.cells)
            u.move_plan = MovePlan(dir=d, cells_total=o.cells, turns_total=turns)
            note(events, "move_order", unit=u.label, cells=o.cells, band=band, turns=turns)
        if o.what in ("move", "continue_move"):
            progress_move(state, u, events)
    for b in bosses:
        boss_phase_move(state, b, boss_plans[b.id], events)
    # phase C: loading
    for uid, o in orders.items():
        u = by_id[uid]
        if o.what in ("reload", "continue_reload"):
            progress_reload(state, u, events)
        elif o.what == "unload":
            u.loaded = u.loading = None
            u.reload_left = 0
            note(events, "unloaded", unit=u.label)
    # phase D: firing (simultaneous: a vehicle knocked out this turn still fires)
    for uid, o in orders.items():
        u = by_id[uid]
        if o.what == "shoot" and o.target:
            try_shoot(state, u, o.target, free_left[uid], events)
        elif o.what in ("move", "continue_move") and o.target and "shoot_on_move" in veh(u)["traits"]:
            try_shoot(state, u, o.target, free_left[uid], events)
    for b in bosses:
        boss_phase_fire(state, b, boss_plans[b.id], events)
    # end of turn
    burn(state, events, burning)
    for b in state.units:
        if b.boss and b.active and b.card is not None:
            boss_end_of_turn(state, b, events)
    bail_out(state, events)
    score_objective(state, events)
    state.turn += 1
    check_result(state)
    if state.result is not None:
        note(
            events,
            "game_over",
            reason=state.result.reason,
            winners=list(state.result.winners),
        )


# ------------------------------------------------------------- validation
_CREW = ("driver", "gunner", "loader")
_PEN = ("move", "shoot", "reload")
_NEEDS = {"move_dist": ("reverse",), "move_fire": ("reverse", "cells")}


def _check_unit_counters(s: State, u: Unit, f: str) -> None:
    """Counters within what the turns played so far allow, plans and the boss card in range.

    A hit raises one damage counter by one and a penalty die by at most two, and a vehicle is
    hit at most once by each other vehicle a turn: no counter exceeds ``2 * turn * vehicles``."""
    tb = content.tables()
    cap = 2 * s.turn * len(s.units)
    counters = {
        "power": u.power,
        "turret_heavy": u.turret_heavy,
        "track_knockouts": u.track_knockouts,
        "heavy_power": u.heavy_power,
        **{f"injuries.{k}": v for k, v in u.injuries.items()},
        **{f"pen.{k}": v for k, v in u.pen.items()},
    }
    for name, v in counters.items():
        if v > cap:
            raise bad_state(f"{f}.{name}", f"{v} after {s.turn} turns of {len(s.units)} vehicles (at most {cap})")
    if u.kills > len(s.units):
        raise bad_state(f"{f}.kills", f"{u.kills} kills among {len(s.units)} vehicles")
    if u.stunned > tb["stun_turns"]:
        raise bad_state(f"{f}.stunned", f"{u.stunned} (a stun lasts {tb['stun_turns']} turn)")
    if u.reload_left > reload_turns(u):
        raise bad_state(f"{f}.reload_left", f"{u.reload_left} (a reload takes {reload_turns(u)} turns)")
    if u.fire_left is not None and not 0 <= u.fire_left <= tb["fire_turns"]:
        raise bad_state(f"{f}.fire_left", f"{u.fire_left} outside 0..{tb['fire_turns']}")
    span = max(s.width, s.height)
    mp = u.move_plan
    if mp is not None:
        if not 0 <= mp.dir < 8:
            raise bad_state(f"{f}.move_plan.dir", f"{mp.dir} is not a direction 0-7")
        if not 1 <= mp.cells_total <= span or not 0 <= mp.cells_done <= mp.cells_total:
            raise bad_state(f"{f}.move_plan", f"{mp.cells_done} of {mp.cells_total} cells")
        if not 1 <= mp.turns_total <= cap or not 0 <= mp.turns_done <= mp.turns_total:
            raise bad_state(f"{f}.move_plan", f"{mp.turns_done} of {mp.turns_total} turns")
    rp = u.rot_plan
    if rp is not None:
        if not (0 <= rp.start < 8 and 0 <= rp.target < 8):
            raise bad_state(f"{f}.rot_plan", f"from {rp.start} to {rp.target}: directions are 0-7")
        if not 1 <= rp.cells_total <= 4 or not 0 <= rp.cells_done <= rp.cells_total:
            raise bad_state(f"{f}.rot_plan", f"{rp.cells_done} of {rp.cells_total} cells (a turn is 1-4 cells)")
        if not 1 <= rp.turns_total <= cap or rp.turns_done < 0:
            raise bad_state(f"{f}.rot_plan", f"{rp.turns_done} of {rp.turns_total} turns")
    if u.aim is not None and u.aim.done < 0:
        raise bad_state(f"{f}.aim.done", f"{u.aim.done}")
    c = u.card
    if c is not None:
        b = content.boss()
        if not 0 <= c.halved_turns <= b["counter_turret_pen_turns"] + 1 or c.link_streak < 0:
            raise bad_state(f"{f}.card", f"halved {c.halved_turns} turns, link streak {c.link_streak}")
        if c.overload_left > b["overload_turns"] or c.prerot_mode not in (0, 1, 2):
            raise bad_state(f"{f}.card", f"overload {c.overload_left}, pre-rotation mode {c.prerot_mode}")
        dirs = [*c.last_dirs, *c.cur_dirs, *([] if c.forced_turn is None else [c.forced_turn])]
        if any(not 0 <= d < 8 for d in dirs) or len(set(c.cur_dirs)) != len(c.cur_dirs):
            raise bad_state(f"{f}.card", "its directions are distinct, each 0-7")


def validate_state(s: State) -> None:
    tb = content.tables()
    if s.options.mode not in ("simple", "normal"):
        raise bad_state("options.mode", f"{s.options.mode!r} is not played")
    board = tb["board"]
    if (s.width, s.height) != (board["w"], board["h"]):
        raise bad_state("width", f"{s.width}x{s.height} is not the {board['w']}x{board['h']} battlefield")
    if s.max_turns < 1 or not 1 <= s.turn <= s.max_turns + 1:
        raise bad_state("turn", f"turn {s.turn} of {s.max_turns}")
    sc = content.scenarios()[s.options.scenario]
    ids: set[str] = set()
    cells: dict[tuple[int, int], str] = {}
    vehicles = content.vehicles()
    boss_max = content.boss()["rage_max_normal"]
    for i, u in enumerate(s.units):
        f = f"units[{i}]"
        if u.id in ids:
            raise bad_state(f"{f}.id", f"{u.id!r} twice")
        ids.add(u.id)
        if u.vehicle not in vehicles:
            raise bad_state(f"{f}.vehicle", f"no vehicle card {u.vehicle!r}")
        if u.crew not in tb["crew_order"]:
            raise bad_state(f"{f}.crew", f"no crew level {u.crew!r}")
        if not (0 <= u.x < s.width and 0 <= u.y < s.height):
            raise bad_state(f"{f}.x", f"({u.x}, {u.y}) is off the battlefield")
        if (u.x, u.y) in cells:
            raise bad_state(f"{f}.x", f"{u.id!r} and {cells[(u.x, u.y)]!r} share a cell")
        cells[(u.x, u.y)] = u.id
        if not (0 <= u.hull < 8 and 0 <= u.turret < 8):
            raise bad_state(f"{f}.hull", "hull and turret are directions 0-7")
        if u.seat is not None:
            if u.seat not in s.seats or u.id != u.seat:
                raise bad_state(f"{f}.seat", f"{u.seat!r} is not this table's seat of that unit")
            if u.side != (u.seat if sc["pvp"] else "players") or u.boss:
                raise bad_state(f"{f}.side", f"{u.side!r} for a player vehicle")
        elif u.side != "enemies":
            raise bad_state(f"{f}.side", f"{u.side!r} for an AI vehicle")
        if set(u.injuries) != set(_CREW) or any(v < 0 for v in u.injuries.values()):
            raise bad_state(f"{f}.injuries", f"one count >= 0 for each of {', '.join(_CREW)}")
        if set(u.pen) != set(_PEN) or any(v < 0 for v in u.pen.values()):
            raise bad_state(f"{f}.pen", f"one penalty >= 0 for each of {', '.join(_PEN)}")
        if min(u.power, u.turret_heavy, u.track_knockouts, u.heavy_power, u.kills, u.stunned, u.reload_left) < 0:
            raise bad_state(f, "a counter is negative")
        if u.loaded is not None and u.loaded not in AMMO or u.loading is not None and u.loading not in AMMO:
            raise bad_state(f"{f}.loaded", "no such ammunition")
        if u.loaded is not None and u.loading is not None:
            raise bad_state(f"{f}.loading", "a loaded gun is not being loaded")
        if (u.status == "active") != (u.out_reason is None):
            raise bad_state(f"{f}.status", f"{u.status} with reason {u.out_reason!r}")
        if u.boss != (u.card is not None):
            raise bad_state(f"{f}.card", "the boss and only the boss has a status card")
        _check_unit_counters(s, u, f)
        if u.card is not None:
            c = u.card
            if not 0 <= c.rage <= boss_max or not 0 <= c.ms_left <= content.boss()["fatigue_move_turns"]:
                raise bad_state(f"{f}.card", f"rage {c.rage}, move-shoot left {c.ms_left}")
            if not 0 <= c.rest_left <= content.boss()["fatigue_rest_turns"] or c.overload_left < 0:
                raise bad_state(f"{f}.card", f"rest left {c.rest_left}")
    for i, u in enumerate(s.units):
        for name, ref in (("aim", u.aim.target if u.aim else None), ("card.target", u.card.target if u.card else None)):
            if ref is not None and ref not in ids:
                raise bad_state(f"units[{i}].{name}", f"no unit {ref!r}")
    for seat in s.seats:
        if sum(1 for u in s.units if u.seat == seat) != 1:
            raise bad_state("units", f"seat {seat!r} needs exactly one vehicle")
    by_seat = {u.seat: u for u in s.units if u.seat is not None}
    for seat, p in s.pending.items():
        if seat not in by_seat or not by_seat[seat].active:
            raise bad_state("pending", f"{seat!r} has no vehicle in the fight")
        if seat in s.orders:
            raise bad_state("pending", f"{seat!r} has both an order and an unfinished one")
        for need in _NEEDS.get(p.step, ()):
            if getattr(p, need) is None:
                raise bad_state(f"pending.{seat}", f"step {p.step} without {need}")
        if p.pre_rot is not None and not 0 <= p.pre_rot < 8:
            raise bad_state(f"pending.{seat}.pre_rot", f"{p.pre_rot}")
        if p.cells is not None and not 1 <= p.cells <= max(s.width, s.height):
            raise bad_state(f"pending.{seat}.cells", f"{p.cells}")
    for seat, o in s.orders.items():
        if seat not in by_seat or not by_seat[seat].active:
            raise bad_state("orders", f"{seat!r} has no vehicle in the fight")
        for name in ("turret_to", "facing", "pre_rot"):
            d = getattr(o, name)
            if d is not None and not 0 <= d < 8:
                raise bad_state(f"orders.{seat}.{name}", f"{d} is not a direction 0-7")
        if o.cells is not None and not 1 <= o.cells <= max(s.width, s.height):
            raise bad_state(f"orders.{seat}.cells", f"{o.cells}")
        if o.target and o.target not in ids:
            raise bad_state(f"orders.{seat}.target", f"no unit {o.target!r}")
        if o.ammo is not None and o.ammo not in AMMO:
            raise bad_state(f"orders.{seat}.ammo", f"{o.ammo!r}")
    obj = objective(s)
    for seat, pts in s.points.items():
        if obj is None or seat not in s.seats:
            raise bad_state("points", f"{seat!r}: crossroads points only for the seats of a duel of rules 3 on")
        if not 0 <= pts < s.turn or pts > objective_goal(s, obj):
            raise bad_state(f"points.{seat}", f"{pts} after {s.turn - 1} turns (one a turn, at most the goal)")
    for shot in s.last_shots:
        if shot.shooter not in ids or shot.target not in ids:
            raise bad_state("last_shots", f"{shot.shooter!r} -> {shot.target!r}")
    if s.result is not None and any(w not in s.seats for w in s.result.winners):
        raise bad_state("result.winners", "a winner is not a seat")

"""Armor Clash AI: the seat filler at two levels and the AI tanks' automaton.

An AI decides a whole turn's :class:`Order`; :func:`step_action` turns that
order into the answer for the seat's current pending step, so a seat filler
walks the same buttons a player does.  The boss is not here: Wittmann is the
rules' own automaton (chapter 9, ``rules.boss_*``).

* ``easy`` -- the AI of schema 1 (``order_easy``): fire at what is in the arc,
  else turn towards the nearest foe, else load AP.  It never drives.  The AI
  tanks of skirmishes and campaign battles use it.
* ``hard`` -- ``order_hard`` (the default): never wastes a loaded turn, aims while
  it loads (a hull turn keeps a reload counting, 8.4; a free 1-2 cell turn rides along
  with the load order, 8.2), loads HE, shoots first at whoever is about to shoot it,
  and drives where that changes who can or will fire: out of the crossfire in a duel,
  out of the reach of a loaded foe aimed at it ("cover": the rules have no terrain, so
  the only cover is where a gun does not point), and in boss battles the healthiest
  crew closes in to draw Wittmann's fire (he tracks the nearest, 9.4) from a wounded
  crew, which falls back.  In a duel for the crossroads (rules revision 3, R14) it drives
  into the zone first (its round kept and aimed on the way), holds it, shoots whoever
  contests it first and keeps loading (``_objective_order``).  docs/rulings.md R17 has the
  measurements.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import content as C
from . import geometry as G
from .models import (
    AMMO,
    AmmoChoice,
    Choose,
    HullTo,
    MoveDir,
    MoveDist,
    Order,
    Pending,
    State,
    Target,
    TurretTo,
    Unit,
)
from .rules import (
    boss_target,
    foes,
    free_rotation,
    move_cost,
    move_reach,
    objective,
    occupied,
    on_board,
    position,
    rotation_turns,
    shootable,
    turret_state,
    zone_cells,
)

#: the first is the default: seat fillers drive (issue 14); "easy" is the AI of schema 1
LEVELS = ("hard", "easy")
PASS = Choose(what="pass")


# ----------------------------------------------------------------- easy
def _pick_target(state: State, u: Unit, cands: list[Unit]) -> Unit:
    def key(o: Unit) -> tuple[int, int, int, int]:
        return (0 if o.boss else 1, G.chebyshev(u, o), -(sum(o.pen.values())), position(state, o))

    return min(cands, key=key)


def _bring_to_bear(state: State, u: Unit, t: Unit) -> Order:
    d = G.bearing(u, t)
    if u.rot_plan is not None and G.ring_dist(u.rot_plan.target, d) <= 1 and turret_state(u) != "locked":
        return Order(what="continue_rotate")
    cells = G.rotation_needed(u.abs_turret, d)
    if turret_state(u) in ("locked", "overload") or rotation_turns(state, u, cells) > 1:
        # a hull turn aims the gun in one turn (8.4): better than a slow traverse
        return Order(what="hull", facing=(d - u.turret) % 8)
    return Order(what="rotate", turret_to=G.step_towards(u.abs_turret, d, cells))


def order_easy(state: State, u: Unit) -> Order:
    """The AI tank of schema 1: shoot what is in reach, else turn towards it, else load."""
    fs = foes(state, u)
    if not fs:
        return Order(what="pass")
    if u.loaded is not None:
        reach = [o for o, _ in shootable(state, u)]
        return _fire(state, u, reach, fs, lambda pool: _pick_target(state, u, pool))
    if u.loading is not None:
        return Order(what="continue_reload")
    return Order(what="reload", ammo=C.tables()["default_ammo"])


# ----------------------------------------------------------------- hard
def _threatens(state: State, o: Unit, u: Unit) -> bool:
    """Whether ``o`` can fire at ``u`` without turning first (its gun loaded, ``u`` within its reach)."""
    if o.loaded is None and not (o.loading is not None and o.reload_left <= 1):
        return False
    if state.options.mode != "normal":
        return True
    return G.rotation_needed(o.abs_turret, G.bearing(o, u)) <= free_rotation(o)


def _aimed_at(state: State, o: Unit, u: Unit) -> bool:
    """Whether ``u`` is who ``o`` would pick as its target (the easy AI, or the boss's card)."""
    if o.boss and o.card is not None:
        return o.card.target == u.id
    pool = foes(state, o)
    if not pool:
        return False
    reach = [x for x, _ in shootable(state, o)]
    return _pick_target(state, o, reach or pool).id == u.id


def _pvp(state: State) -> bool:
    return bool(C.scenarios()[state.options.scenario]["pvp"])


def _hard_target(state: State, u: Unit, cands: list[Unit]) -> Unit:
    """Whoever is about to shoot this tank first; then, against the AI force, the most damaged
    (finish it), in a free-for-all the least damaged (the others keep fighting each other)."""
    sign = 1 if _pvp(state) else -1

    def key(o: Unit) -> tuple[int, int, int, int, int]:
        danger = 0 if (_aimed_at(state, o, u) and _threatens(state, o, u)) else 1
        return (
            0 if o.boss else 1,
            danger,
            sign * (sum(o.pen.values()) + sum(o.injuries.values())),
            G.chebyshev(u, o),
            position(state, o),
        )

    return min(cands, key=key)


def _cover_move(state: State, u: Unit) -> Order | None:
    """A one-turn move that takes ``u`` out of the reach of every loaded foe aiming at it."""
    if u.tracks != "ok" or state.options.mode != "normal":
        return None
    threats = [o for o in foes(state, u) if _threatens(state, o, u) and _aimed_at(state, o, u)]
    if not threats:
        return None
    best: tuple[int, bool, int] | None = None
    for reverse in (False, True):
        d = (u.hull + 4) % 8 if reverse else u.hull
        dx, dy = G.DIRS[d]
        reach = move_reach(state, u, reverse)
        band_cells = max(1, C.vehicles()[u.vehicle]["max_move"] // 3)
        for cells in range(1, min(reach, band_cells) + 1):
            x, y = u.x + dx * cells, u.y + dy * cells
            if not on_board(state, x, y) or occupied(state, x, y):
                break
            exposed = sum(
                1 for o in threats if G.rotation_needed(o.abs_turret, G.octant(x - o.x, y - o.y)) <= free_rotation(o)
            )
            if exposed == 0 and (best is None or cells < best[0]):
                best = (cells, reverse, 0)
    if best is None:
        return None
    return Order(what="move", reverse=best[1], cells=best[0])


def _short_moves(state: State, u: Unit) -> list[tuple[bool, int, int, int]]:
    """One-turn moves along the hull: (reverse, cells, x, y)."""
    out: list[tuple[bool, int, int, int]] = []
    if u.tracks != "ok":
        return out
    band = max(1, C.vehicles()[u.vehicle]["max_move"] // 3)
    for reverse in (False, True):
        dx, dy = G.DIRS[(u.hull + 4) % 8 if reverse else u.hull]
        for cells in range(1, min(move_reach(state, u, reverse), band) + 1):
            out.append((reverse, cells, u.x + dx * cells, u.y + dy * cells))
    return out


def _share_the_fire(state: State, u: Unit) -> Order | None:
    """Boss battles: Wittmann fires at the nearest crew (9.4).  The healthiest crew closes in to
    draw his fire from a wounded one; a wounded crew he is tracking falls back behind the others."""
    boss = next((o for o in state.units if o.boss and o.active), None)
    crews = [o for o in state.units if o.seat is not None and o.active]
    if boss is None or len(crews) < 2 or u.tracks != "ok":
        return None
    tracked = boss_target(state, boss)
    if tracked is None:
        return None

    def pen(o: Unit) -> int:
        return sum(o.pen.values())

    def nearest_if(x: int, y: int) -> bool:
        st, moved = _moved_to(state, u, x, y)
        return boss_target(st, boss) is moved

    healthiest = min(crews, key=lambda o: (pen(o), position(state, o)))
    moves = _short_moves(state, u)
    if tracked is u and pen(u) >= pen(healthiest) + 2:
        away = [m for m in moves if not nearest_if(m[2], m[3])]
        if away:
            rev, cells, _, _ = min(away, key=lambda m: (m[1], m[0]))
            return Order(what="move", reverse=rev, cells=cells)
    if healthiest is u and tracked is not u and pen(tracked) >= pen(u) + 2:
        close = [m for m in moves if nearest_if(m[2], m[3])]
        if close:
            rev, cells, _, _ = min(close, key=lambda m: (m[1], m[0]))
            return Order(what="move", reverse=rev, cells=cells)
    return None


def _best_ammo(state: State) -> str:
    """HE wounds on 4 damage faces of 6 and keeps the knock-outs (R11).  With the ammo-rack rule
    (10.2) AP also blows up 1 hit in 36; in a duel HE's extra wounds still win more (R17, bench
    ``--bound``), elsewhere (Wittmann's rage is halved on his ammo rack, 9.3) it keeps AP."""
    if state.options.mode != "normal" or (state.options.ammo_rack and not _pvp(state)):
        return str(C.tables()["default_ammo"])
    return "HE"


def _moved_to(state: State, u: Unit, x: int, y: int) -> tuple[State, Unit]:
    """A shallow what-if: ``state`` with ``u`` standing at (x, y) (nothing shared is changed)."""
    moved = u.model_copy(update={"x": x, "y": y})
    return state.model_copy(update={"units": [moved if o is u else o for o in state.units]}), moved


def _exposure(state: State, u: Unit, x: int, y: int) -> int:
    """How many foes would pick ``u`` as their target if it stood at (x, y) (the easy AI's choice)."""
    st, moved = _moved_to(state, u, x, y)
    return sum(1 for o in foes(st, moved) if not o.boss and _aimed_at(st, o, moved))


def _out_of_crossfire(state: State, u: Unit) -> Order | None:
    """Free-for-all: drive to where no foe picks this tank while they fight each other."""
    if u.tracks != "ok" or len(foes(state, u)) < 2:
        return None
    here = _exposure(state, u, u.x, u.y)
    if here == 0:
        return None
    max_move = C.vehicles()[u.vehicle]["max_move"]
    best: tuple[int, int, int, int] | None = None  # exposure, turns, heading, cells
    for h in range(8):
        along = h in (u.hull, (u.hull + 4) % 8)
        dx, dy = G.DIRS[h]
        for cells in range(1, max_move + 1):
            x, y = u.x + dx * cells, u.y + dy * cells
            if not on_board(state, x, y) or occupied(state, x, y):
                break
            turns = G.move_turns(cells, max_move)[1] + (0 if along else 1)
            key = (_exposure(state, u, x, y), turns, h, cells)
            if best is None or key < best:
                best = key
    if best is None or best[0] >= here:
        return None
    _, _, h, cells = best
    if h == u.hull:
        return Order(what="move", reverse=False, cells=cells)
    if h == (u.hull + 4) % 8:
        return Order(what="move", reverse=True, cells=cells)
    return Order(what="hull", facing=h)


# ------------------------------------------------------- the crossroads
def _in_zone(cells: frozenset[tuple[int, int]], x: int, y: int) -> bool:
    return (x, y) in cells


def _free_zone(state: State, cells: frozenset[tuple[int, int]]) -> set[tuple[int, int]]:
    return {c for c in cells if not occupied(state, c[0], c[1])}


def _straight(state: State, u: Unit, x: int, y: int, d: int) -> list[tuple[int, int]]:
    """The cells a move from (x, y) towards ``d`` passes, up to the vehicle's maximum."""
    out: list[tuple[int, int]] = []
    dx, dy = G.DIRS[d]
    for _ in range(C.vehicles()[u.vehicle]["max_move"]):
        x, y = x + dx, y + dy
        if not on_board(state, x, y) or (occupied(state, x, y) and (x, y) != (u.x, u.y)):
            break
        out.append((x, y))
    return out


def _turns_in(state: State, u: Unit, x: int, y: int, hull: int, free: set[tuple[int, int]], turn: bool) -> int | None:
    """Fewest turns from (x, y) facing ``hull`` into a free zone cell by one straight move,
    after one hull turn if ``turn`` (1 turn); None if no such move."""
    best: int | None = None
    heads = range(8) if turn else (hull, (hull + 4) % 8)
    for d in heads:
        extra = 0 if d in (hull, (hull + 4) % 8) else 1
        for i, c in enumerate(_straight(state, u, x, y, d)):
            if c in free:
                cost = extra + move_cost(u, i + 1)[1]
                best = cost if best is None else min(best, cost)
                break
    return best


def _drive_to_zone(state: State, u: Unit, cells: frozenset[tuple[int, int]]) -> Order | None:
    """The first order of the quickest way into a free cell of the zone: a straight move along
    the hull (forward or reverse), a hull turn first (it keeps a reload counting, 8.4), or a
    short move that brings a straight move in reach."""
    if u.tracks != "ok":
        return None
    free = _free_zone(state, cells)
    if not free:
        return None
    if u.move_plan is not None:
        p = u.move_plan
        path = _straight(state, u, u.x, u.y, p.dir)[: p.cells_total - p.cells_done]
        if path and path[-1] in free:
            return Order(what="continue_move")
    best: tuple[int, int, int, Order] | None = None  # turns, tie-break, guns bearing on arrival, order

    def offer(turns: int, guns: int, tie: int, order: Order) -> None:
        nonlocal best
        if best is None or (turns, tie, guns) < best[:3]:
            best = (turns, tie, guns, order)

    def bearing_guns(x: int, y: int) -> int:
        """Loaded foes whose gun would bear on (x, y) without a turn: the arcs (8.1/8.2)."""
        return sum(
            1
            for o in foes(state, u)
            if (o.loaded is not None or (o.loading is not None and o.reload_left <= 1))
            and (
                state.options.mode != "normal"
                or G.rotation_needed(o.abs_turret, G.octant(x - o.x, y - o.y)) <= free_rotation(o)
            )
        )

    loading = 1 if u.loading is not None else 0
    for reverse in (False, True):
        d = (u.hull + 4) % 8 if reverse else u.hull
        entered = False
        for i, (x, y) in enumerate(_straight(state, u, u.x, u.y, d)):
            turns = move_cost(u, i + 1)[1]
            if (x, y) in free:
                # any zone cell on the line: the quickest, then the one fewest loaded guns bear on
                offer(turns, bearing_guns(x, y), 0, Order(what="move", reverse=reverse, cells=i + 1))
                entered = True
                continue
            if entered:
                break
            if move_cost(u, i + 1)[0] == "short":
                after = _turns_in(state, u, x, y, u.hull, free, turn=True)
                if after is not None:
                    offer(turns + after, 9, 2 + loading, Order(what="move", reverse=reverse, cells=i + 1))
    for h in range(8):
        if h == u.hull:
            continue
        after = _turns_in(state, u, u.x, u.y, h, free, turn=False)
        if after is not None:
            offer(1 + after, 9, 1 - loading, Order(what="hull", facing=h))
    if best is not None:
        return best[3]

    # far away: the short move or hull turn that gets nearest the zone
    def gap(x: int, y: int) -> int:
        return min(max(abs(x - cx), abs(y - cy)) for cx, cy in free)

    here = gap(u.x, u.y)
    moves = [(gap(x, y), n, rev) for rev, n, x, y in _short_moves(state, u)]
    if moves and min(moves)[0] < here:
        _, n, rev = min(moves)
        return Order(what="move", reverse=rev, cells=n)
    heading = min(range(8), key=lambda h: (gap(u.x + G.DIRS[h][0], u.y + G.DIRS[h][1]), h))
    if heading in (u.hull, (u.hull + 4) % 8):
        return None
    return Order(what="hull", facing=heading)


def _objective_order(state: State, u: Unit, obj: dict[str, Any]) -> Order:
    """The duel for the crossroads (R14, rules revision 3): drive into the zone (keeping the gun
    loaded and aimed on the way), hold it, and shoot first whoever contests it."""
    cells = zone_cells(obj)
    fs = foes(state, u)
    normal = state.options.mode == "normal"
    inside = _in_zone(cells, u.x, u.y)
    contesting = [o for o in fs if _in_zone(cells, o.x, o.y)]
    reach = [o for o, _ in shootable(state, u)]

    n = len(state.units)
    me = position(state, u)

    def target_of(pool: list[Unit]) -> Unit:
        """A rival in the zone first, then whoever is about to shoot this tank, the points
        leader, the least damaged (the others keep fighting each other), the nearest, and
        then the next seat round the table from this one (not the first seat: a fixed order
        would have every crew pick the same victim)."""
        rivals = [o for o in pool if o in contesting] or pool

        def key(o: Unit) -> tuple[int, int, int, int, int]:
            return (
                0 if _threatens(state, o, u) else 1,
                -state.points.get(o.seat or "", 0),
                sum(o.pen.values()) + sum(o.injuries.values()),
                G.chebyshev(u, o),
                (position(state, o) - me) % n,
            )

        return min(rivals, key=key)

    if not inside:
        drive = _drive_to_zone(state, u, cells)
        if drive is not None:
            if drive.what == "move" and drive.cells and normal:
                # the gun keeps bearing on the way: a free 1-2 cell turn rides along (8.2),
                # aimed from where the move ends
                dx, dy = G.DIRS[(u.hull + 4) % 8 if drive.reverse else u.hull]
                st, moved = _moved_to(state, u, u.x + dx * drive.cells, u.y + dy * drive.cells)
                t = target_of(fs)
                d = G.bearing(moved, t)
                need = G.rotation_needed(u.abs_turret, d)
                if 0 < need <= free_rotation(u):
                    drive.pre_rot = G.step_towards(u.abs_turret, d, need)
            # drive first: the loaded round keeps (it is fired from the zone), and the
            # foe's next round comes after the points (R17: measured against shooting first)
            return drive
    if u.loaded is not None:
        return _fire(state, u, reach, fs, target_of)
    hull, pre = _aim_while_loading(u, target_of(fs)) if normal else (None, None)
    return hull or _load(state, u, pre)


def _fire(state: State, u: Unit, reach: list[Unit], fs: list[Unit], pick: Callable[[list[Unit]], Unit]) -> Order:
    """A loaded gun: the aimed target when it is still in reach, else the pick of those in
    reach, else turn the gun towards the pick of all foes."""
    if u.aim is not None and any(o.id == u.aim.target for o in reach):
        return Order(what="shoot", target=u.aim.target)
    if reach:
        return Order(what="shoot", target=pick(reach).id)
    return _bring_to_bear(state, u, pick(fs))


def _aim_while_loading(u: Unit, target: Unit) -> tuple[Order | None, int | None]:
    """Normal mode, gun empty: a hull turn when the turret cannot come round for free and
    a reload is counting (8.4 keeps it counting, so the gun bears when loaded), else the
    free 1-2 cell turn (8.2) that rides along with the load order."""
    d = G.bearing(u, target)
    need = G.rotation_needed(u.abs_turret, d)
    if need > free_rotation(u) and u.loading is not None:
        return Order(what="hull", facing=(d - u.turret) % 8), None
    if 0 < need <= free_rotation(u):
        return None, G.step_towards(u.abs_turret, d, need)
    return None, None


def _load(state: State, u: Unit, pre: int | None) -> Order:
    """Go on loading, or load the best ammunition, turning the turret by ``pre`` on the way."""
    if u.loading is not None:
        return Order(what="continue_reload", pre_rot=pre)
    return Order(what="reload", ammo=_best_ammo(state), pre_rot=pre)


def order_hard(state: State, u: Unit) -> Order:
    fs = foes(state, u)
    if not fs:
        return Order(what="pass")
    obj = objective(state)
    if obj is not None:
        return _objective_order(state, u, obj)
    normal = state.options.mode == "normal"
    if _pvp(state):
        dodge = _out_of_crossfire(state, u)
        if dodge is not None:
            return dodge
    reach = [o for o, _ in shootable(state, u)]
    if u.loaded is not None:
        return _fire(state, u, reach, fs, lambda pool: _hard_target(state, u, pool))
    pre: int | None = None
    if normal:
        hull, pre = _aim_while_loading(u, _hard_target(state, u, fs))
        if hull is not None:
            return hull
        if u.loading is None:
            cover = _cover_move(state, u)
            if cover is not None:
                return cover
    if not _pvp(state):
        share = _share_the_fire(state, u)
        if share is not None:
            return share
    return _load(state, u, pre)


ORDERS = {"easy": order_easy, "hard": order_hard}


def order_for(state: State, u: Unit, level: str) -> Order:
    return ORDERS[level](state, u)


def enemy_order(state: State, u: Unit) -> Order:
    """The AI tanks of skirmishes and campaign battles (the boss has its own automaton)."""
    return order_easy(state, u)


# ------------------------------------------------------ orders -> steps
def step_action(game: Any, state: State, seat: str, legal: list[Any], want: Order) -> Any:
    """The answer to ``seat``'s current pending step that builds the order ``want``."""
    u = game._unit(state, seat)
    p = state.pending.get(seat, Pending())
    hull, tur, free = game._virtual(state, u, p)
    cand: Any = PASS
    if p.step == "top":
        if want.pre_rot is not None and p.pre_rot is None and want.pre_rot != tur:
            cand = Choose(what="rotate")
        else:
            cand = Choose(what=want.what)
    elif p.step in ("target", "move_fire"):
        cand = Target(target=want.target or "")
    elif p.step == "ammo":
        cand = AmmoChoice(ammo=want.ammo if want.ammo in AMMO else "AP")
    elif p.step == "turret":
        want_abs = want.pre_rot if (want.pre_rot is not None and p.pre_rot is None) else want.turret_to
        if want_abs is not None:
            cand = TurretTo(cell=G.RING_TO_CELL[(want_abs - hull) % 8])
    elif p.step == "hull" and want.facing is not None:
        cand = HullTo(facing=want.facing)
    elif p.step == "move_dir" and want.reverse is not None:
        cand = MoveDir(reverse=want.reverse)
    elif p.step == "move_dist" and want.cells is not None:
        cand = MoveDist(cells=want.cells)
    if cand == PASS and cand in legal:
        return cand
    want_n = game._normalise(cand)
    for a in legal:
        if game._normalise(a) == want_n:
            return a
    # never step back (the filler could loop): take the first real choice of this step,
    # which always moves on; the answer is always one of the legal actions
    for a in legal:
        if a.kind != "back":
            return a
    return PASS

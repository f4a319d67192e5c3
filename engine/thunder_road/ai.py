"""Seat-filler AI: legal, not suicidal, prefers progress and good shots.

Two levels: "easy" (the heuristic player: every action scored by a short look-ahead
over the public board) and "hard" (the same scores plus a race plan, ``_hard_score``).
Deterministic for a state: it looks only at the public board (face-down
hazards are unknown to it) and breaks ties with ``Game.ai_rng``.
"""

from __future__ import annotations

from typing import Any

from . import rules as R
from .content import FRONT, TH, H, W, add, base_char, dice, key

BAD = -1000.0
HIT: dict[str, float] = {}


def _hit_chance(size: str) -> float:
    if size not in HIT:
        faces = dice()["shooting"]
        hits = dice()["shooting_hits"]
        HIT[size] = sum(1 for f in faces if size in hits[f]) / len(faces)
    return HIT[size]


class _Board:
    """Snapshot for one AI decision: occupancy, choppers, terrain and look-ahead values
    (avoids rescanning the vehicle list and recomputing shared paths)."""

    def __init__(self, st: Any):
        self.st = st
        self.occ = {(v.pos[0], v.pos[1]): v.id for v in st.vehicles if v.where == "road" and v.pos is not None}
        self.chop = {(c.chopper[0], c.chopper[1]) for c in st.crews if c.chopper is not None}
        self.ter: dict[tuple[int, int], str] = {}
        self.paths: dict[tuple[str, int, int, int, int], float] = {}

    def terrain(self, p: list[int]) -> str:
        k = (p[0], p[1])
        t = self.ter.get(k)
        if t is None:
            t = self.ter[k] = R.terrain(self.st, p)
        return t


_BOARD: dict[int, _Board] = {}


def _board(st: Any) -> _Board:
    b = _BOARD.get(id(st))
    if b is None or b.st is not st:
        _BOARD.clear()
        b = _BOARD[id(st)] = _Board(st)
    return b


def _space_value(st: Any, vid: str, p: list[int], last: bool) -> float:
    """Rough value of standing on / passing ``p`` (no lookahead)."""
    c, y = p
    if not 0 <= c < W:
        return BAD
    if y >= H:
        return 60.0 if st.final else 8.0
    if y < 0:
        return BAD
    if base_char(st.tiles, p) == "X":
        return BAD
    val = 0.0
    b = _board(st)
    other = b.occ.get((c, y))
    if other is not None and other != vid:
        val -= 6.0
    hz = st.hazards.get(key(p))
    if hz is not None and vid.endswith(":rig"):
        val -= 3.5  # the Big Rig ploughs through any token and always takes damage
    elif hz is not None and not hz.up:
        val -= 2.5
    elif hz is not None and hz.type == "oil":
        val -= 2.5
    if last and (c, y) in b.chop:
        return BAD
    ter = b.terrain(p)
    if ter == "M":
        val -= 1.5
    elif ter == "R":
        val += 0.6
    # near the edges the risk of being pushed off grows
    if c in (0, W - 1):
        val -= 0.8
    return val


def _best_path(st: Any, vid: str, p: list[int], moves: int, depth: int) -> float:
    """Best total value of ``moves`` further steps from ``p`` (bounded depth)."""
    if moves <= 0 or depth <= 0:
        return 0.0
    b = _board(st)
    ck = (vid, p[0], p[1], moves, depth)
    got = b.paths.get(ck)
    if got is not None:
        return got
    best = BAD * 2
    for d in FRONT:
        q = add(p, d)
        last = moves == 1
        v = _space_value(st, vid, q, last)
        gain = (q[1] - p[1]) * 1.2
        if v <= BAD / 2 or q[1] >= H:
            total = v + gain
        else:
            ter = b.terrain(q) if 0 <= q[0] < W else "O"
            cost = 2 if ter == "M" else 1
            total = v + gain + _best_path(st, vid, q, moves - cost, depth - 1)
        best = max(best, total)
    b.paths[ck] = best
    return best


def _shot_value(st: Any, seat: str, vid: str, p: list[int]) -> float:
    """Ending a move with an opponent's operable car in the front arc is worth a shot."""
    best = 0.0
    b = _board(st)
    for d in FRONT:
        q = add(p, d)
        other = b.occ.get((q[0], q[1]))
        if other is None or other == vid:
            continue
        o = R.veh(st, other)
        if o.owner not in (None, seat) and R.operable(o):
            best = max(best, _hit_chance(o.shoot_size) * 3.0)
    return best


def _danger(st: Any, v: Any) -> float:
    """How urgently a car needs a big move: cars on the rear tile risk elimination."""
    if v.where == "start":
        return 2.0
    if v.pos is None:
        return 0.0
    if v.pos[1] < TH:
        return 3.0
    if v.pos[1] < 2 * TH:
        return 1.0
    return 0.2


def choose(game: Any, st: Any, seat: str, legal: list[Any], level: str = "easy") -> Any:
    _BOARD.clear()  # a fresh snapshot for every decision (states may be edited in place between calls)
    rnd = game.ai_rng(st, seat)
    score = _score if level == "easy" else _hard_score
    scored: list[tuple[float, float, int]] = []
    for i, a in enumerate(legal):
        scored.append((score(st, seat, a), rnd.random(), i))
    scored.sort(reverse=True)
    return legal[scored[0][2]]


def _score(st: Any, seat: str, a: Any) -> float:
    k = a.kind
    p = st.pending
    if k == "assign":
        v = R.veh(st, a.car)
        if a.die == 0:
            return _danger(st, v)
        if a.coast:
            # worth it when a front space is safe; spend the lowest die (the value does not matter)
            if v.pos is None or max(_space_value(st, v.id, add(v.pos, d), True) for d in FRONT) <= BAD / 2:
                return -100.0
            return 1.0 - 0.01 * a.die
        c = R.crew_of(st, seat)
        # the biggest die to the car in most danger; leave nitro-able low dice for later
        return a.die * (1.0 + _danger(st, v)) - (0.5 if a.die <= 3 and not c.command_used else 0.0)
    if k == "pass":
        return 0.0
    if k == "command":
        c = R.crew_of(st, seat)
        last_turn = c.turns >= 2
        if a.command == "none":
            return 0.0 if not last_turn else -0.1
        if a.command in ("repair", "patch_up"):
            v = R.veh(st, a.car)
            return 10.0 if not R.operable(v) else 4.0
        if a.command == "nitro":
            v = R.veh(st, p.car)
            return 2.0 + a.die * (0.5 + _danger(st, v) * 0.3)
        if a.command == "traction_drive":
            return 1.0 + a.die * 0.1
        if a.command == "airstrike":
            return 1.5 if st.round >= 2 else (0.2 if last_turn else -1.0)
        if a.command == "drift":
            v = R.veh(st, p.car)
            if v.pos is None:
                return -1.0
            ahead = [add(v.pos, d) for d in FRONT] + [add(v.pos, "n", 2)]
            busy = any(R.vehicle_at(st, q, exclude=v.id) is not None for q in ahead)
            return 3.0 if busy else (0.1 if last_turn else -1.0)
        return 0.0
    if k == "air_row" or k == "air_space":
        # place the chopper just in front of the leading opponent car, else anywhere ahead
        row = a.row if k == "air_row" else p.row
        col = a.col if k == "air_space" else None
        best = 0.0
        for v in st.vehicles:
            if v.where != "road" or v.owner == seat or v.owner is None or v.pos is None:
                continue
            vrow = (v.pos[1] - (v.pos[0] % 2)) // 2
            d = row - vrow
            s = 5.0 - abs(d - 1) * 1.5
            if col is not None:
                s -= abs(col - v.pos[0]) * 1.0
            best = max(best, s + v.pos[1] * 0.01)
        return best
    if k in ("enter", "step"):
        v = R.veh(st, p.car)
        here = v.pos if v.pos is not None else [a.col if k == "enter" else 0, -2]
        dest = [a.col, a.col % 2] if k == "enter" else add(v.pos or [0, 0], a.dir)
        mark = a.mark
        spent = 0
        if a.then:
            spent = 2 if R.terrain(st, dest) == "M" else 1
            dest = add(dest, a.then)
            mark = mark[6:]
        moves_after = 0 if p.coast else max(0, p.moves - spent - (2 if mark in ("mud", "mud_end") else 1))
        last = moves_after <= 0
        if mark in ("eliminate", "chopper"):
            return BAD
        if mark == "finish":
            return 1000.0
        val = _space_value(st, v.id, dest, last)
        if mark == "drift" or mark == "chopper_pass":
            val = 0.5
        if mark == "slam":
            other = R.vehicle_at(st, dest, exclude=v.id)
            if other is not None and other.owner not in (None, seat):
                val = 0.5 + (R.size_rank(v) - R.size_rank(other)) * 0.8 + (1.0 if last else 0.0)
            else:
                val = -7.0
        gain = (dest[1] - here[1]) * 1.2
        if last and st.round >= 2 and mark not in ("slam", "extend", "finish"):
            gain += _shot_value(st, seat, v.id, dest)
        fut = 0.0
        if not last and mark not in ("slam", "extend"):
            fut = _best_path(st, v.id, dest, moves_after, 3)
        elif mark == "extend":
            fut = 2.0
        if p.bonus_ok and not p.in_bonus and not p.coast and mark not in ("road", "end_road", "drift", "extend"):
            fut -= 1.5
        return val + gain + fut
    if k == "bonus":
        if not a.take:
            return 0.0
        v = R.veh(st, p.car)
        if v.pos is None:
            return -1.0
        return _best_path(st, v.id, v.pos, st.road_die, 3) * 0.5 + 0.1
    if k == "shoot":
        if a.target is None:
            return 0.0
        tg = R.veh(st, a.target)
        if tg.kind == "wreck":
            return _hit_chance(tg.shoot_size) * 0.3
        if not R.operable(tg):
            return -1.0
        w = 1.0 if tg.owner != seat else -2.0
        return _hit_chance(tg.shoot_size) * w * (1.5 if len(tg.damage) else 1.0)
    if k == "reroll":
        q = st.reroll
        mine = q.info.get("pushed_owner") == seat
        bad = q.info.get("result") in ("eliminate", "chopper", "slam", "hazard")
        # reroll when my vehicle is about to suffer, or an opponent gets off lightly
        want = (mine and bad) or (not mine and not bad and q.info.get("pushed_owner", "") != "")
        return (1.0 if want else -1.0) * (1 if a.demand else -1)
    return 0.0


# ------------------------------------------------------------------ hard

#: the hard AI's race plan: extra score per pip for the crew's leading car
LEAD_WEIGHT = 4.0


def _leader(st: Any, seat: str) -> str | None:
    """The crew's operable vehicle furthest up the road (start area counts as behind the road)."""
    best, best_y = None, -99
    for v in st.vehicles:
        if v.owner == seat and R.operable(v):
            y = v.pos[1] if v.where == "road" and v.pos is not None else -1
            if y > best_y:
                best, best_y = v.id, y
    return best


def _hard_score(st: Any, seat: str, a: Any) -> float:
    """The easy scores plus a race plan: the leading car gets the biggest die.  The easy AI
    spreads its dice to keep every car off the rear tile; a determinised look-ahead to the end
    of the turn (experiment recorded in docs/rulings.md) kept choosing to drive the leader
    instead -- it sets the pace of the scrolling road (trailing opponents fall off the rear
    tile) and is the car that reaches the finish line."""
    base = _score(st, seat, a)
    if a.kind == "assign" and not a.coast and a.car == _leader(st, seat):
        base += LEAD_WEIGHT * (a.die if a.die else 3.5)
    return base

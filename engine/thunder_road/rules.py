"""The rules: set-up, turn flow and the resolution of moves, slams, shots and damage.

Everything here works on a :class:`Ctx` wrapping a state copy.  Effects that
need a decision from a player in the middle of a resolution (the slam reroll)
raise :class:`Suspend`; the game then stores the question and replays the
whole action from a snapshot once it is answered (same RNG, same dice).
"""

from __future__ import annotations

from typing import Any

from .content import (
    DIRS,
    FRONT,
    TH,
    H,
    W,
    add,
    base_char,
    board,
    crews,
    dice,
    faces,
    flip,
    hex_of,
    is_hazard_char,
    key,
    on_board,
    tokens,
    unkey,
)
from .models import EVENT_BY_KIND, Crew, Hazard, Pending, TREventBase, TRState, Vehicle


class Suspend(Exception):
    def __init__(self, asker: str, top: str, bottom: str, slam: str, direction: str, info: dict[str, Any]):
        super().__init__("reroll question")
        self.asker, self.top, self.bottom, self.slam, self.direction = asker, top, bottom, slam, direction
        self.info = info


class GameOver(Exception):
    def __init__(self, winners: list[str], reason: str):
        super().__init__(reason)
        self.winners, self.reason = winners, reason


class Ctx:
    def __init__(self, st: TRState, decisions: list[bool] | None = None):
        self.st = st
        self.events: list[TREventBase] = []
        self.decisions = list(decisions or [])
        self.di = 0
        self.mover: str | None = None  # the car making a move right now
        self.stopped = False  # the mover lost its remaining moves
        self.offroad = False  # the mover entered a non-road space (road die)
        self.tracking = False  # count entered terrain for the road die
        self.defer_out = 0

    def ev(self, kind: str, to: list[str] | None = None, **fields: Any) -> None:
        """Record the typed event of ``kind`` (validated: a wrong field fails at once)."""
        self.events.append(EVENT_BY_KIND[kind](to=to, **fields))


# ------------------------------------------------------------------ lookups


def crew_of(st: TRState, seat: str) -> Crew:
    for c in st.crews:
        if c.seat == seat:
            return c
    raise KeyError(seat)


def veh(st: TRState, vid: str) -> Vehicle:
    for v in st.vehicles:
        if v.id == vid:
            return v
    raise KeyError(vid)


def crew_def(crew: Crew) -> dict[str, Any]:
    c = crews()
    return c[crew.crew] if crew.crew in ("big_rig", "final_five") else c["base"]


def operable(v: Vehicle) -> bool:
    return v.where != "gone" and v.kind != "wreck" and len(v.damage) < v.capacity


def alive(v: Vehicle) -> bool:
    return v.where != "gone"


def on_road(v: Vehicle) -> bool:
    return v.where == "road"


def vehicle_at(st: TRState, p: list[int], exclude: str | None = None) -> Vehicle | None:
    for v in st.vehicles:
        if v.where == "road" and v.pos == p and v.id != exclude:
            return v
    return None


def chopper_at(st: TRState, p: list[int]) -> Crew | None:
    for c in st.crews:
        if c.chopper is not None and c.chopper == p:
            return c
    return None


def terrain(st: TRState, p: list[int]) -> str:
    """R road, O off-road, M mud, X impassable, H hazard space (not road)."""
    ch = base_char(st.tiles, p)
    if is_hazard_char(ch):
        hz = st.hazards.get(key(p))
        if hz is not None and hz.up:
            if hz.type == "road":
                return "R"
            if hz.type == "mud":
                return "M"
        return "H"
    return ch


def size_rank(v: Vehicle) -> int:
    return crews()["size_rank"][v.size]


def players_at_start(st: TRState) -> int:
    return len(st.seats)


def empty_space(st: TRState, p: list[int]) -> bool:
    """Airstrike target: no vehicle, hazard token, chopper or impassable terrain."""
    return (
        on_board(p)
        and base_char(st.tiles, p) != "X"
        and vehicle_at(st, p) is None
        and key(p) not in st.hazards
        and chopper_at(st, p) is None
    )


def front_targets(st: TRState, p: list[int], exclude: str | None = None) -> list[Vehicle]:
    out = []
    for d in FRONT:
        q = add(p, d)
        v = vehicle_at(st, q, exclude)
        if v is not None:
            out.append(v)
    return out


def new_id(st: TRState, prefix: str) -> str:
    vid = f"{prefix}{st.next_id}"
    st.next_id += 1
    return vid


def vname(v: Vehicle) -> dict[str, Any]:
    return {"vid": v.id, "car": v.name, "owner": v.owner}


# ------------------------------------------------------------------ set-up


def setup(st: TRState, ctx: Ctx) -> None:
    rng = st.rng
    n = len(st.seats)
    opts = st.options
    # hazard and damage supplies
    tk = tokens()
    haz = [t for t, k in tk["hazard"].items() for _ in range(k)]
    dmg = [t for t, k in tk["damage"].items() for _ in range(k)]
    if opts.on_fire:
        haz += [t for t, k in tk["hazard_on_fire"].items() for _ in range(k)]
        dmg += [t for t, k in tk["damage_on_fire"].items() for _ in range(k)]
    st.hazard_pile = rng.shuffle("hazard_pile", haz)
    st.damage_pile = sorted(dmg)
    st.wrecks_left = board()["wreck_figures"]
    # tiles
    start = opts.start_face if opts.start_face != "random" else rng.choice("start_face", ["a", "b"])
    start_face = "1" + start
    others = [f"{i}" for i in range(2, 6)]
    deck = []
    for t in rng.shuffle("tiles", others):
        deck.append(t + rng.choice("tile_side", ["a", "b"]))
    st.tiles = [start_face, deck.pop(0), deck.pop(0)]
    st.deck = deck
    st.tiles_placed = 3
    seed_tile(st, 0, players=n)
    seed_tile(st, 1)
    seed_tile(st, 2)
    ctx.ev(
        "setup", start=faces()[start_face]["name"], mid=faces()[st.tiles[1]]["name"], lead=faces()[st.tiles[2]]["name"]
    )
    # set-up roll: lowest total starts, ties reroll; those dice are round 1's dice
    for c in st.crews:
        roll_dice(st, c)
        ctx.ev("setup_roll", seat=c.seat, dice=list(c.dice), total=sum(c.dice))
    tied = [c for c in st.crews]
    while True:
        low = min(sum(c.dice) for c in tied)
        tied = [c for c in tied if sum(c.dice) == low]
        if len(tied) == 1:
            break
        for c in tied:
            roll_dice(st, c)
            ctx.ev("setup_roll", seat=c.seat, dice=list(c.dice), total=sum(c.dice))
    st.starter = tied[0].seat
    ctx.ev("first_player", seat=st.starter)
    st.round = 1
    roll_road(st, ctx)
    ctx.ev("round", round=1, seat=st.starter)
    begin_turn(ctx, st.starter)


def roll_dice(st: TRState, c: Crew) -> None:
    d = crew_def(c)
    faces_ = d["dice_faces"]
    n = d.get("movement_dice", board()["movement_dice"])
    c.dice = sorted(st.rng.choice("move", faces_) for _ in range(n))
    c.used = []


def roll_road(st: TRState, ctx: Ctx) -> None:
    st.road_die = st.rng.choice("road", dice()["road"])
    ctx.ev("road_die", seat=st.starter, value=st.road_die)


def seed_tile(st: TRState, idx: int, players: int | None = None) -> None:
    """Face-down hazard tokens on the tile's hazard spaces (start face: by player count)."""
    face = st.tiles[idx]
    rows = faces()[face]["rows"]
    for r, line in enumerate(rows):
        for c, ch in enumerate(line):
            if not is_hazard_char(ch):
                continue
            if players is not None and ch.isdigit() and players < int(ch):
                continue
            p = hex_of(idx * (TH // 2) + r, c)
            if key(p) in st.hazards:
                continue
            if not st.hazard_pile and st.hazard_discard:
                st.hazard_pile = st.rng.shuffle("hazard_pile", st.hazard_discard)
                st.hazard_discard = []
            if not st.hazard_pile:
                return
            t = st.rng.choice("hazard", sorted(set(st.hazard_pile)))
            st.hazard_pile.remove(t)
            st.hazards[key(p)] = Hazard(type=t, up=False)


# ------------------------------------------------------------------ turn flow


def in_crews(st: TRState) -> list[Crew]:
    return [c for c in st.crews if not c.out]


def assign_options(st: TRState, c: Crew) -> list[tuple[str, bool]]:
    """(car id, coast?) pairs the crew may put a die on now."""
    if not c.dice:
        return []
    mine = [v for v in st.vehicles if v.owner == c.seat and operable(v)]
    d = crew_def(c)
    if d.get("moves_every_turn"):
        return [(v.id, False) for v in mine]
    unmoved = [v for v in mine if not v.moved]
    if unmoved:
        return [(v.id, False) for v in unmoved]
    if not d.get("coasting", True):
        return []
    return [(v.id, True) for v in mine if v.where == "road" and v.coasts < board()["coasts_per_car"]]


def turns_per_round(c: Crew) -> int:
    return int(crew_def(c).get("turns_per_round", board()["turns_per_round"]))


def begin_turn(ctx: Ctx, seat: str) -> None:
    st = ctx.st
    while True:
        c = crew_of(st, seat)
        st.current = seat
        if assign_options(st, c):
            st.pending = Pending(seat=seat, stage="assign")
            ctx.ev("turn", seat=seat, round=st.round, turn=c.turns + 1)
            return
        ctx.ev("turn_skipped", seat=seat)
        c.turns += 1
        nxt = next_seat(st, seat)
        if nxt is None:
            new_round(ctx)
            return
        seat = nxt


def next_seat(st: TRState, seat: str) -> str | None:
    n = len(st.seats)
    i = st.seats.index(seat)
    for k in range(1, n + 1):
        s = st.seats[(i + k) % n]
        c = crew_of(st, s)
        if not c.out and c.turns < turns_per_round(c):
            return s
    return None


def end_turn(ctx: Ctx) -> None:
    st = ctx.st
    p = st.pending
    assert p is not None
    c = crew_of(st, p.seat)
    c.turns += 1
    st.pending = None
    ctx.mover = None
    chopper_sweep(ctx)
    check_out(ctx)
    nxt = next_seat(st, p.seat)
    if nxt is None:
        new_round(ctx)
    else:
        begin_turn(ctx, nxt)


def new_round(ctx: Ctx) -> None:
    st = ctx.st
    n = len(st.seats)
    i = st.seats.index(st.starter)
    for k in range(1, n + 1):
        s = st.seats[(i + k) % n]
        if not crew_of(st, s).out:
            st.starter = s
            break
    st.round += 1
    for c in in_crews(st):
        roll_dice(st, c)
        c.command_used = False
        c.turns = 0
        c.rig_turns = None
    for v in st.vehicles:
        v.moved = False
        v.coasts = 0
    ctx.ev("round", round=st.round, seat=st.starter)
    roll_road(st, ctx)
    begin_turn(ctx, st.starter)


# ------------------------------------------------------------------ eliminations and the end


def eliminate(ctx: Ctx, v: Vehicle, reason: str) -> None:
    st = ctx.st
    if v.where == "gone":
        return
    if v.kind == "wreck":
        v.where, v.pos = "gone", None
        st.wrecks_left += 1
        ctx.ev("wreck_removed", reason=reason, **vname(v))
        return
    v.where, v.pos = "gone", None
    st.damage_pile += [d for d in v.damage if d not in ("minor", "burn")]
    v.damage = []
    v.on_fire = False
    ctx.ev("eliminated", reason=reason, **vname(v))
    if ctx.mover == v.id:
        ctx.stopped = True
    check_out(ctx)


def check_out(ctx: Ctx) -> None:
    st = ctx.st
    if ctx.defer_out or st.winners is not None:
        return
    newly = []
    for c in st.crews:
        if c.out:
            continue
        if not any(v.owner == c.seat and operable(v) for v in st.vehicles):
            newly.append(c)
    if not newly:
        return
    for c in newly:
        c.out = True
        c.chopper = None
        c.has_chopper = False
        ctx.ev("player_out", seat=c.seat)
    st.out_order.append([c.seat for c in newly])
    left = in_crews(st)
    if len(left) == 1:
        ctx.ev("last_standing", seat=left[0].seat)
        raise GameOver([left[0].seat], "last_standing")
    if not left:
        raise GameOver(sorted(c.seat for c in newly), "last_standing")
    if players_at_start(st) >= 3 and not st.final and len(st.out_order) == 1:
        st.final = True
        ctx.ev("finish_line", tiles=st.tiles_placed)


def finish(ctx: Ctx, v: Vehicle) -> None:
    st = ctx.st
    if v.owner is not None and not crew_of(st, v.owner).out:
        ctx.ev("finish", seat=v.owner, **vname(v))
        raise GameOver([v.owner], "finish")
    eliminate(ctx, v, "off_front")


def chopper_sweep(ctx: Ctx) -> None:
    """Any road vehicle (not the car still in the middle of its move) on a chopper is eliminated."""
    st = ctx.st
    for c in st.crews:
        if c.chopper is None:
            continue
        for v in st.vehicles:
            if v.where == "road" and v.pos == c.chopper and v.id != ctx.mover:
                eliminate(ctx, v, "chopper")


# ------------------------------------------------------------------ road extension


def extend(ctx: Ctx) -> None:
    st = ctx.st
    ctx.defer_out += 1
    ctx.ev("extend", tile=faces()[st.tiles[0]]["name"])
    for v in st.vehicles:
        if v.where == "start" or (v.where == "road" and v.pos is not None and v.pos[1] < TH):
            eliminate(ctx, v, "rear_tile")
    for k in list(st.hazards):
        if unkey(k)[1] < TH:
            st.hazard_discard.append(st.hazards.pop(k).type)
    for c in st.crews:
        if c.chopper is not None and c.chopper[1] < TH:
            c.chopper = None
            ctx.ev("chopper_returned", seat=c.seat)
    st.deck.append(flip(st.tiles[0]))
    st.tiles = [st.tiles[1], st.tiles[2], st.deck.pop(0)]
    st.tiles_placed += 1
    for v in st.vehicles:
        if v.where == "road" and v.pos is not None:
            v.pos = [v.pos[0], v.pos[1] - TH]
    st.hazards = {key([unkey(k)[0], unkey(k)[1] - TH]): h for k, h in st.hazards.items()}
    for c in st.crews:
        if c.chopper is not None:
            c.chopper = [c.chopper[0], c.chopper[1] - TH]
    seed_tile(st, 2)
    ctx.ev("tile", name=faces()[st.tiles[2]]["name"], number=st.tiles_placed)
    if players_at_start(st) == 2 and st.tiles_placed >= board()["two_player_final_tile"] and not st.final:
        st.final = True
        ctx.ev("finish_line", tiles=st.tiles_placed)
    ctx.defer_out -= 1
    check_out(ctx)


# ------------------------------------------------------------------ moving into a space


def enter_space(ctx: Ctx, v: Vehicle, dest: list[int], mode: str, pass_through: bool = False) -> str:
    """Move ``v`` into ``dest`` and resolve it.  Returns ok / stop / gone.

    mode: "move" (the mover's own normal, bonus or coast step), "forced" (slam,
    skid, dazed, blast, oil)."""
    st = ctx.st
    c, y = dest
    if not 0 <= c < W:
        eliminate(ctx, v, "off_side")
        return "gone"
    if y < 0:
        eliminate(ctx, v, "off_rear")
        return "gone"
    while y >= H:
        if v.kind == "wreck":
            eliminate(ctx, v, "off_front")
            return "gone"
        if st.final:
            finish(ctx, v)
            return "gone"
        extend(ctx)
        if v.where == "gone":
            return "gone"
        y -= TH
    dest = [c, y]
    v.pos = dest
    v.where = "road"
    if base_char(st.tiles, dest) == "X":
        eliminate(ctx, v, "impassable")
        return "gone"
    other = vehicle_at(st, dest, exclude=v.id)
    if other is not None:
        if pass_through:
            ctx.ev("drift_through", other=other.id, **vname(v))
            if ctx.tracking and ctx.mover == v.id and terrain(st, dest) != "R":
                ctx.offroad = True
            return "ok"
        slam(ctx, v, other)
        return "gone" if v.where == "gone" else "stop"
    hz = st.hazards.get(key(dest))
    if hz is not None:
        if not hz.up:
            hz = st.hazards[key(dest)] = Hazard(type=hz.type, up=True)
            ctx.ev("hazard", token=hz.type, **vname(v))
        if v.kind == "rig":
            del st.hazards[key(dest)]
            st.hazard_discard.append(hz.type)
            ctx.ev("plough", token=hz.type, **vname(v))
            damage(ctx, v, "hazard", stop_mover=False)
            return "ok" if v.where != "gone" else "gone"
        t = hz.type
        if t == "wreck":
            del st.hazards[key(dest)]
            st.hazard_discard.append(t)
            if st.wrecks_left > 0:
                st.wrecks_left -= 1
                w = Vehicle(
                    id=new_id(st, "w"),
                    kind="wreck",
                    name="wreck",
                    size="small",
                    shoot_size="small",
                    capacity=1,
                    where="road",
                    pos=list(dest),
                )
                st.vehicles.append(w)
                ctx.ev("wreck_placed", **vname(w))
                slam(ctx, v, w)
                return "gone" if v.where == "gone" else "stop"
            ctx.ev("no_wreck")
        elif t == "mine":
            del st.hazards[key(dest)]
            st.hazard_discard.append(t)
            damage(ctx, v, "mine")
            if ctx.mover == v.id:
                ctx.stopped = True
            return "gone" if v.where == "gone" else "stop"
        elif t == "oil":
            if ctx.tracking and ctx.mover == v.id:
                ctx.offroad = True
            d = st.rng.choice("direction", dice()["direction"])
            ctx.ev("oil", dir=d, **vname(v))
            return enter_space(ctx, v, add(dest, d), "forced")
        elif t == "fire":
            if v.kind != "wreck" and operable(v):
                v.on_fire = True
                ctx.ev("on_fire", **vname(v))
    if ctx.tracking and ctx.mover == v.id and terrain(st, dest) != "R":
        ctx.offroad = True
    return "ok"


# ------------------------------------------------------------------ slams


def slam(ctx: Ctx, top: Vehicle, bottom: Vehicle) -> None:
    st = ctx.st
    ctx.ev(
        "slam",
        top=top.id,
        bottom=bottom.id,
        top_car=top.name,
        bottom_car=bottom.name,
        top_owner=top.owner,
        bottom_owner=bottom.owner,
    )
    if ctx.mover == top.id:
        ctx.stopped = True
    face = st.rng.choice("slam", dice()["slam"])
    d = st.rng.choice("direction", dice()["direction"])
    ctx.ev("slam_roll", slam=face, dir=d)
    if size_rank(top) != size_rank(bottom):
        big = top if size_rank(top) > size_rank(bottom) else bottom
        if big.owner is not None and not crew_of(st, big.owner).out:
            if ctx.di < len(ctx.decisions):
                demand = ctx.decisions[ctx.di]
                ctx.di += 1
            else:
                pk = top if face == "top" else bottom
                if pk.kind == "rig":
                    pk = bottom if pk is top else top
                info = {
                    "top_car": top.name,
                    "bottom_car": bottom.name,
                    "top_owner": top.owner or "",
                    "bottom_owner": bottom.owner or "",
                    "pushed": pk.name,
                    "pushed_owner": pk.owner or "",
                    "result": push_mark(st, pk, d),
                }
                raise Suspend(big.owner, top.id, bottom.id, face, d, info)
            if demand:
                face = st.rng.choice("slam", dice()["slam"])
                d = st.rng.choice("direction", dice()["direction"])
                ctx.ev("reroll", seat=big.owner, slam=face, dir=d)
    pick, other = (top, bottom) if face == "top" else (bottom, top)
    if pick.kind == "rig":
        pick, other = other, pick
    ctx.ev("pushed", dir=d, **vname(pick))
    enter_space(ctx, pick, add(pick.pos or [0, 0], d), "forced")


def push_mark(st: TRState, v: Vehicle, d: str) -> str:
    """Where a push would send ``v`` (for the reroll prompt and the AI)."""
    dest = add(v.pos or [0, 0], d)
    if not 0 <= dest[0] < W or dest[1] < 0:
        return "eliminate"
    if dest[1] >= H:
        return "finish" if st.final and v.kind != "wreck" else "extend"
    if base_char(st.tiles, dest) == "X":
        return "eliminate"
    if vehicle_at(st, dest, exclude=v.id) is not None:
        return "slam"
    if chopper_at(st, dest) is not None:
        return "chopper"
    hz = st.hazards.get(key(dest))
    if hz is not None and not hz.up:
        return "hazard"
    return "ok"


# ------------------------------------------------------------------ shooting and damage


def shoot(ctx: Ctx, shooter_label: dict[str, Any], target: Vehicle) -> None:
    st = ctx.st
    face = st.rng.choice("shoot", dice()["shooting"])
    hit = target.shoot_size in dice()["shooting_hits"][face]
    ctx.ev(
        "shoot",
        face=face,
        target=target.id,
        target_car=target.name,
        target_owner=target.owner,
        **shooter_label,
    )
    if hit:
        ctx.ev("hit", **vname(target))
        damage(ctx, target, "shot")
    else:
        ctx.ev("miss", **vname(target))


def damage(ctx: Ctx, v: Vehicle, source: str, stop_mover: bool = True) -> None:
    st = ctx.st
    if v.where != "road" and v.where != "start":
        return
    if v.kind == "wreck":
        eliminate(ctx, v, "wreck_hit")
        return
    if len(v.damage) >= v.capacity:
        ctx.ev("damage_ignored", **vname(v))
        return
    if stop_mover and ctx.mover == v.id:
        ctx.stopped = True
    if v.minor:
        v.damage.append("minor")
        ctx.ev("minor_damage", n=len(v.damage), cap=v.capacity, **vname(v))
        after_damage(ctx, v)
        return
    if not st.damage_pile:
        v.damage.append("minor")
        ctx.ev("minor_damage", n=len(v.damage), cap=v.capacity, **vname(v))
        after_damage(ctx, v)
        return
    tok = st.rng.choice("damage", sorted(set(st.damage_pile)))
    st.damage_pile.remove(tok)
    v.damage.append(tok)
    ctx.ev("damage", token=tok, **vname(v))
    resolve_token(ctx, v, tok)
    after_damage(ctx, v)


def after_damage(ctx: Ctx, v: Vehicle) -> None:
    if v.where != "gone" and len(v.damage) >= v.capacity:
        v.on_fire = False
        ctx.ev("inoperable", **vname(v))
        check_out(ctx)


def resolve_token(ctx: Ctx, v: Vehicle, tok: str) -> None:
    st = ctx.st
    if tok == "dent":
        return
    if tok == "on_fire":
        v.on_fire = True
        ctx.ev("on_fire", **vname(v))
        return
    if v.where != "road" or v.pos is None:
        return
    if tok == "shrapnel":
        d = st.rng.choice("direction", dice()["direction"])
        p = list(v.pos)
        while True:
            p = add(p, d)
            if not on_board(p):
                ctx.ev("shrapnel_none", dir=d, **vname(v))
                return
            hit = vehicle_at(st, p, exclude=v.id)
            if hit is not None:
                ctx.ev(
                    "shrapnel",
                    dir=d,
                    target=hit.id,
                    target_car=hit.name,
                    target_owner=hit.owner,
                    **vname(v),
                )
                damage(ctx, hit, "shrapnel")
                return
    if tok.startswith("skid"):
        d = tokens()["skid_direction"][tok]
        ctx.ev("skid", dir=d, **vname(v))
        enter_space(ctx, v, add(v.pos, d), "forced")
        return
    if tok == "dazed":
        n = st.rng.choice("stunt", dice()["stunt"])
        ctx.ev("dazed", n=n, **vname(v))
        before = len(v.damage)
        for _ in range(n):
            if v.where != "road" or v.pos is None:
                return
            d = st.rng.choice("direction", dice()["direction"])
            ctx.ev("step", dir=d, **vname(v))
            r = enter_space(ctx, v, add(v.pos, d), "forced")
            if r != "ok" or len(v.damage) != before:
                return
        return
    if tok == "blast":
        d = st.rng.choice("direction", dice()["direction"])
        n = st.rng.choice("stunt", dice()["stunt"])
        ctx.ev("blast", dir=d, n=n, **vname(v))
        enter_space(ctx, v, add(v.pos, d, n), "forced")
        return


# ------------------------------------------------------------------ front spaces (marks for the UI)


def step_mark(st: TRState, v: Vehicle, p: Pending, dest: list[int], passing: bool = False) -> str:
    """How entering ``dest`` would go, as far as the mover can know."""
    c, y = dest
    if not 0 <= c < W:
        return "eliminate"
    if y >= H:
        return "finish" if st.final else "extend"
    if base_char(st.tiles, dest) == "X":
        return "eliminate"
    other = vehicle_at(st, dest, exclude=v.id)
    mud_cost = 2 if terrain(st, dest) == "M" and not p.coast else 1
    last = p.coast or p.moves - mud_cost <= 0
    if other is not None:
        if not last and not passing and p.drift:
            return "drift"
        return "slam"
    hz = st.hazards.get(key(dest))
    if hz is not None and not hz.up:
        return "hazard"
    if hz is not None and hz.type == "oil":
        return "oil"
    if last and chopper_at(st, dest) is not None:
        return "chopper"
    if chopper_at(st, dest) is not None:
        return "chopper_pass"
    ter = terrain(st, dest)
    if ter == "M":
        return "mud_end" if p.moves <= 2 and not p.coast else "mud"
    if last:
        return "end_road" if ter == "R" else "end"
    return "road" if ter == "R" else "offroad"


def zigzag(st: TRState, v: Vehicle) -> bool:
    if v.owner is None:
        return False
    return bool(crew_def(crew_of(st, v.owner)).get("zigzag"))


def dirs_for(st: TRState, v: Vehicle) -> tuple[str, ...]:
    if v.kind == "rig" and v.owner is not None:
        c = crew_of(st, v.owner)
        if c.rig_turns is not None and c.rig_turns <= 0:
            return ("n",)
    return FRONT


def entry_hexes() -> list[list[int]]:
    return [hex_of(0, c) for c in range(W)]


__all__ = [
    "Ctx",
    "Suspend",
    "GameOver",
    "DIRS",
    "FRONT",
    "H",
    "TH",
    "W",
]


# ------------------------------------------------------------------ what a state may be


class BadState(Exception):
    """The first thing wrong with a state (``check_state``)."""


def _need(ok: bool, problem: str) -> None:
    if not ok:
        raise BadState(problem)


def _supply(opts: Any, pile: str) -> dict[str, int]:
    tk = tokens()
    out = dict(tk[pile])
    if opts.on_fire:
        for t, k in tk[f"{pile}_on_fire"].items():
            out[t] = out.get(t, 0) + k
    return out


def _count(items: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for x in items:
        out[x] = out.get(x, 0) + 1
    return out


def _on_table(p: Any) -> bool:
    return isinstance(p, list) and len(p) == 2 and 0 <= p[0] < W and 0 <= p[1] < H and (p[0] + p[1]) % 2 == 0


def check_state(st: TRState) -> None:
    """Raise :class:`BadState` naming the first thing in ``st`` that no game can reach:
    seats and crews, every id against data/, token and figure counts, positions, counters
    and the pending decision against the phase."""
    opts = st.options
    n = len(st.seats)
    extras = [x for x, on in (("final_five", opts.final_five), ("big_rig", opts.big_rig)) if on]
    _need(2 <= n <= 5, f"seats: {n} seats (2-5)")
    _need(n < 5 or bool(extras), "seats: 5 seats need the big_rig or final_five crew")
    _need(len(extras) <= n, "options: more extra crews than seats")
    _need([c.seat for c in st.crews] == list(st.seats), "crews: one crew per seat, in seat order")
    colours = board()["crew_colours"]
    n_base = n - len(extras)
    for i, c in enumerate(st.crews):
        want = colours[i] if i < n_base else extras[i - n_base]
        _need(c.crew == want, f"crews.{c.seat}: crew {c.crew!r} (expected {want!r})")
        want_colour = want if i < n_base else crews()[want]["colour"]
        _need(c.colour == want_colour, f"crews.{c.seat}: colour {c.colour!r}")
        d = crew_def(c)
        faces_ = set(d["dice_faces"])
        _need(all(x in faces_ for x in c.dice + c.used), f"crews.{c.seat}: a die outside {sorted(faces_)}")
        _need(
            len(c.dice) + len(c.used) == d.get("movement_dice", board()["movement_dice"]),
            f"crews.{c.seat}: {len(c.dice) + len(c.used)} movement dice",
        )
        _need(0 <= c.turns <= turns_per_round(c), f"crews.{c.seat}: turns {c.turns}")
        _need(c.chopper is None or _on_table(c.chopper), f"crews.{c.seat}: chopper off the table")
        _need(not c.out or c.chopper is None, f"crews.{c.seat}: out but has a chopper on the road")
        _need(c.rig_turns is None or 0 <= c.rig_turns <= 6, f"crews.{c.seat}: rig_turns {c.rig_turns}")
    # tiles and the road stack
    fs = faces()
    for f in st.tiles + st.deck:
        _need(f in fs, f"tiles: unknown face {f!r}")
    _need(len(st.tiles) == board()["tiles_on_table"], f"tiles: {len(st.tiles)} on the table")
    numbers = [f[:-1] for f in st.tiles + st.deck]
    _need(len(numbers) == len(set(numbers)), "tiles: a tile is both on the table and in the stack (or twice)")
    _need(st.tiles_placed >= len(st.tiles), f"tiles_placed: {st.tiles_placed}")
    # vehicles against crews.json
    ids = [v.id for v in st.vehicles]
    _need(len(ids) == len(set(ids)), "vehicles: duplicate id")
    by_crew = {c.seat: crew_def(c) for c in st.crews}
    ranks = crews()["size_rank"]
    damage_types = set(_supply(opts, "damage")) | {"minor", "burn"}
    wrecks_on_road = 0
    for v in st.vehicles:
        where = f"vehicles.{v.id}"
        if v.kind == "wreck":
            _need(v.owner is None and v.name == "wreck" and v.capacity == 1, f"{where}: not a wreck figure")
            _need(v.where != "start", f"{where}: a wreck in the start area")
            wrecks_on_road += v.where == "road"
        else:
            _need(v.owner in by_crew, f"{where}: owner {v.owner!r} is not a seat")
            defs = {vd["name"]: vd for vd in by_crew[v.owner or ""]["vehicles"]}
            vd = defs.get(v.name)
            _need(vd is not None and v.id == f"{v.owner}:{v.name}", f"{where}: no such vehicle in the crew")
            assert vd is not None
            _need(
                (v.kind, v.size, v.shoot_size, v.capacity, v.minor)
                == (vd["kind"], vd["size"], vd["shoot_size"], vd["damage_slots"], vd["minor_damage"]),
                f"{where}: differs from crews.json",
            )
        _need(v.size in ranks and v.shoot_size in ranks, f"{where}: size {v.size!r}, shot as {v.shoot_size!r}")
        _need(len(v.damage) <= v.capacity, f"{where}: {len(v.damage)} damage in {v.capacity} slots")
        _need(all(d in damage_types for d in v.damage), f"{where}: unknown damage token")
        _need(v.coasts <= board()["coasts_per_car"] and v.coasts >= 0, f"{where}: coasts {v.coasts}")
        if v.where == "road":
            _need(_on_table(v.pos), f"{where}: position {v.pos} off the table")
            _need(base_char(st.tiles, v.pos or [0, 0]) != "X", f"{where}: on an impassable space")
        else:
            _need(v.pos is None, f"{where}: a position while not on the road")
        if v.where == "gone":
            _need(not v.damage and not v.on_fire, f"{where}: eliminated but still damaged")
    # ids handed out later ("w<next_id>") never meet one in use
    numbered = [int(v.id[1:]) for v in st.vehicles if v.id[:1] == "w" and v.id[1:].isdigit()]
    _need(st.next_id >= 1 and all(n < st.next_id for n in numbered), f"next_id: {st.next_id}")
    spaces = [key(v.pos) for v in st.vehicles if v.where == "road" and v.pos is not None]
    # (a car that crossed the finish line while drifting through a space stays drawn there)
    _need(len(spaces) == len(set(spaces)) or st.winners is not None, "vehicles: two vehicles rest on one space")
    for s in st.seats:
        _need(any(v.owner == s for v in st.vehicles), f"vehicles: seat {s} has no vehicles")
    _need(
        st.wrecks_left >= 0 and st.wrecks_left + wrecks_on_road == board()["wreck_figures"],
        f"wrecks_left: {st.wrecks_left} with {wrecks_on_road} on the road",
    )
    # hazard tokens: on hazard spaces, from the supply, conserved
    supply = _supply(opts, "hazard")
    for k, h in st.hazards.items():
        try:
            hp = unkey(k)
        except ValueError:
            raise BadState(f"hazards: bad space {k!r}") from None
        _need(_on_table(hp) and key(hp) == k, f"hazards: space {k!r} off the table")
        _need(is_hazard_char(base_char(st.tiles, hp)), f"hazards.{k}: not a hazard space")
        _need(h.type in supply, f"hazards.{k}: unknown token {h.type!r}")
    everywhere = [h.type for h in st.hazards.values()] + st.hazard_pile + st.hazard_discard
    _need(all(t in supply for t in everywhere), "hazard_pile: unknown token")
    _need(_count(everywhere) == supply, "hazards: the hazard tokens do not add up to the supply")
    dmg_supply = _supply(opts, "damage")
    drawn = [d for v in st.vehicles for d in v.damage if d not in ("minor", "burn")]
    _need(_count(st.damage_pile + drawn) == dmg_supply, "damage_pile: the damage tokens do not add up to the supply")
    # round, dice, turn order
    _need(st.round >= 1, f"round: {st.round}")
    _need(st.road_die in dice()["road"], f"road_die: {st.road_die}")
    _need(st.starter in st.seats, f"starter: {st.starter!r}")
    _need(st.current is None or st.current in st.seats, f"current: {st.current!r}")
    outs = [s for group in st.out_order for s in group]
    _need(sorted(outs) == sorted(c.seat for c in st.crews if c.out), "out_order: differs from the crews that are out")
    # the end, or the decision pending
    if st.winners is not None:
        _need(bool(st.winners) and set(st.winners) <= set(st.seats), f"winners: {st.winners}")
        _need(st.end_reason in ("finish", "last_standing"), f"end_reason: {st.end_reason!r}")
        _need(st.pending is None and st.reroll is None, "pending: a decision after the end")
        return
    _need(st.end_reason is None, "end_reason: set while the game runs")
    p = st.pending
    _need(p is not None, "pending: nobody can act")
    assert p is not None
    _need(p.seat in st.seats and p.seat == st.current, f"pending.seat: {p.seat!r} (current {st.current!r})")
    crew = crew_of(st, p.seat)
    _need(not crew.out, f"pending.seat: {p.seat} is out")
    _need(0 <= p.moves <= 30 and p.nitro in (0, 1, 2, 3), f"pending: moves {p.moves}, nitro {p.nitro}")
    _need(p.die is None or p.die in set(crew_def(crew)["dice_faces"]), f"pending.die: {p.die}")
    if p.stage == "assign":
        _need(bool(assign_options(st, crew)), "pending: an assignment with no car to give a die")
    _need(p.car is not None or p.stage in ("assign",), f"pending: stage {p.stage} without a car")
    if p.car is not None:
        try:
            v = veh(st, p.car)
        except KeyError:
            raise BadState(f"pending.car: no vehicle {p.car!r}") from None
        _need(v.owner == p.seat, f"pending.car: {p.car} is not {p.seat}'s")
        if p.stage == "enter":
            _need(v.where == "start", f"pending: entering with {p.car} not in the start area")
        elif p.stage in ("step", "bonus", "shoot"):
            _need(v.where == "road", f"pending: stage {p.stage} with {p.car} not on the road")
    if p.stage in ("air_row", "air_space"):
        _need(crew.has_chopper, "pending: an airstrike without a chopper")
    if p.stage == "air_space":
        _need(p.row is not None and 0 <= p.row < H // 2, f"pending.row: {p.row}")
    if p.stage == "chopper_shoot":
        _need(crew.chopper is not None, "pending: a chopper shot with no chopper on the road")
    if st.reroll is not None:
        q = st.reroll
        _need(q.asker in st.seats and q.seat in st.seats, "reroll: unknown seat")
        _need(not crew_of(st, q.asker).out, "reroll: asked of a crew that is out")
        try:
            snap = TRState.model_validate(q.snapshot)
        except ValueError:
            raise BadState("reroll.snapshot: not a state") from None
        # the question's state is the snapshot (the state before the action) with the question added
        same = {k: v for k, v in st.model_dump(mode="json").items() if k not in ("reroll", "step")}
        _need(
            snap.reroll is None and same == {k: v for k, v in q.snapshot.items() if k not in ("reroll", "step")},
            "reroll.snapshot: not this state as it was before the action",
        )
        snap_ids = {v.id for v in snap.vehicles}
        for vid in (q.top, q.bottom):  # or a wreck figure the replayed action puts down
            _need(vid in snap_ids or (vid[:1] == "w" and vid[1:].isdigit()), f"reroll: unknown vehicle {vid!r}")
        _need(q.slam in dice()["slam"] and q.direction in dice()["direction"], "reroll: unknown die faces")


def rig_specs() -> dict[str, tuple[str, list[Any], str]]:
    """Every named random draw of the game: (kind, the values it can take, what it is)."""
    tk = tokens()
    hazard = sorted(set(tk["hazard"]) | set(tk["hazard_on_fire"]))
    damage = sorted(set(tk["damage"]) | set(tk["damage_on_fire"]))
    move = sorted({x for c in ("base", "big_rig", "final_five") for x in crews()[c]["dice_faces"]})
    return {
        "move": ("die", move, "a movement die (also the set-up roll); Big Rig dice show 1-3"),
        "road": ("die", sorted(set(dice()["road"])), "the road die (bonus moves)"),
        "start_face": ("choice", ["a", "b"], "face of the start tile with start_face=random"),
        "tiles": ("deck", sorted({f[:-1] for f in faces() if not f.startswith("1")}), "order of the road stack"),
        "tile_side": ("choice", ["a", "b"], "the face up of each tile of the stack, in stack order"),
        "hazard_pile": ("choice", hazard, "hazard tokens on top of a (re)shuffled hazard pile"),
        "hazard": ("choice", hazard, "the hazard token put on a hazard space, by type"),
        "damage": ("choice", damage, "the damage token drawn, by type"),
        "slam": ("die", sorted(set(dice()["slam"])), "the slam die"),
        "direction": ("die", list(dice()["direction"]), "the direction die"),
        "shoot": ("die", sorted(set(dice()["shooting"])), "the shooting die"),
        "stunt": ("die", sorted(set(dice()["stunt"])), "the stunt die (dazed, blast)"),
        "fire": ("die", sorted(set(dice()["fire"])), "the fire die (option on_fire)"),
    }

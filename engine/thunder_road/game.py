"""Thunder Road: Vendetta -- the Game subclass: actions, pending steps, views."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..base import Event as BaseEvent
from ..base import Game, Msg, Outcome, RigSpec, SeatLabels, bad_state
from ..errors import GameError
from ..i18n import t
from ..rng import Rng
from . import orders as standing
from . import rules as R
from .content import (
    TH,
    H,
    W,
    add,
    board,
    crews,
    dice,
    drivable,
    faces,
    grid,
    hex_of,
    is_hazard_char,
    key,
    lane_name,
    on_board,
    row_of,
    space_name,
    unkey,
)
from .models import (
    Action,
    AirRow,
    AirSpace,
    Assign,
    BoardView,
    Bonus,
    ChoiceView,
    Command,
    Crew,
    CrewView,
    Enter,
    HazardView,
    Options,
    Pass,
    Pending,
    Reroll,
    RerollQuestion,
    RerollView,
    Shoot,
    Step,
    TREvent,
    TREventBase,
    TRSeatView,
    TRState,
    TRView,
    Vehicle,
    VehicleView,
    clone,
    legacy_event,
)
from .models import Options as TROptions

ID = "thunder_road"


@lru_cache(maxsize=64)
def _board_view_cached(tiles: tuple[str, ...]) -> BoardView:
    g = grid(tiles)
    rows = [
        "".join("H" if is_hazard_char(ch := g[c][hex_of(r, c)[1]]) else ch for c in range(W)) for r in range(H // 2)
    ]
    names = [faces()[f]["name"] if f in faces() else f for f in tiles]
    return BoardView(
        columns=W,
        rows=H // 2,
        tile_rows=TH // 2,
        tiles=list(tiles),
        tile_names=names,
        terrain=rows,
        lanes=[lane_name(c) for c in range(W)],
    )


def _board_view(tiles: tuple[str, ...]) -> BoardView:
    return _board_view_cached(tiles).model_copy(deep=True)


def _tile_name(name: str, locale: str | None) -> str:
    """A tile's name in ``locale`` (events carry the English name of its face)."""
    face = next((f for f, d in faces().items() if d.get("name") == name), None)
    return t(f"thunder_road.tile.{face}", locale) if face is not None else name


def _fail(code: str, seat: str | None = None, **params: Any) -> GameError:
    return GameError(code, f"thunder_road.error.{code}", seat=seat, **params)


class ThunderRoad(Game[TRState]):
    id = ID
    schema_version = 1
    min_seats = 2
    max_seats = 5
    State = TRState
    Action = Action
    Event = TREvent
    Options = Options
    View = TRView
    SeatView = TRSeatView
    #: seat-filler AI levels: easy = the original heuristic player, hard = it plus a race plan (ai.py)
    ai_levels = ("easy", "hard")
    record_key = "core.record.fastest_win"  # leaderboards: fewest rounds to win a race
    record_lower_is_better = True

    def _seat_range(self, options: TROptions) -> tuple[int, int]:
        """Five seats only with an extra crew (Big Rig or Final Five)."""
        return self.min_seats, 5 if (options.big_rig or options.final_five) else 4

    # ------------------------------------------------------------ set-up
    def _new(self, seats: list[str], options: TROptions, seed: int, rng: Rng) -> TRState:
        extras = [x for x, on in (("final_five", options.final_five), ("big_rig", options.big_rig)) if on]
        if len(seats) == 5 and not extras:
            raise GameError(
                "bad_options", "core.error.bad_options", detail="5 players need the Big Rig or Final Five crew"
            )
        if len(extras) > len(seats):
            raise GameError("bad_options", "core.error.bad_options", detail="more extra crews than seats")
        colours = board()["crew_colours"]
        crew_list: list[Crew] = []
        vehicles: list[Vehicle] = []
        n_base = len(seats) - len(extras)
        for i, seat in enumerate(seats):
            if i < n_base:
                cid, colour, cdef = colours[i], colours[i], crews()["base"]
            else:
                cid = extras[i - n_base]
                cdef = crews()[cid]
                colour = cdef["colour"]
            crew_list.append(Crew(seat=seat, crew=cid, colour=colour))
            for _j, vd in enumerate(cdef["vehicles"]):
                vehicles.append(
                    Vehicle(
                        id=f"{seat}:{vd['name']}",
                        owner=seat,
                        kind=vd["kind"],
                        name=vd["name"],
                        size=vd["size"],
                        shoot_size=vd["shoot_size"],
                        capacity=vd["damage_slots"],
                        minor=vd["minor_damage"],
                    )
                )
        st = TRState(
            schema_version=self.schema_version,
            game=ID,
            seats=seats,
            seed=seed,
            rng=rng,
            options=options,
            crews=crew_list,
            vehicles=vehicles,
            tiles=[],
            deck=[],
        )
        ctx = R.Ctx(st)
        R.setup(st, ctx)
        return st

    # ------------------------------------------------------------ who acts
    def _to_act(self, state: TRState) -> list[str]:
        if state.winners is not None:
            return []
        if state.reroll is not None:
            return [state.reroll.asker]
        if state.pending is not None:
            return [state.pending.seat]
        return []

    def _outcome(self, state: TRState) -> Outcome | None:
        if state.winners is None:
            return None
        scores = {s: (1.0 if s in state.winners else 0.0) for s in state.seats}
        return Outcome(
            winners=list(state.winners),
            scores=scores,
            reason=Msg(key=f"thunder_road.outcome.{state.end_reason}", params={"seats": ", ".join(state.winners)}),
        )

    # ------------------------------------------------------------ legal actions
    def _legal(self, st: TRState, seat: str) -> list[Any]:
        if st.reroll is not None:
            return [Reroll(demand=True), Reroll(demand=False)] if seat == st.reroll.asker else []
        p = st.pending
        if p is None or p.seat != seat:
            return []
        c = R.crew_of(st, seat)
        if p.stage == "assign":
            opts = R.assign_options(st, c)
            dice_ = sorted(set(c.dice))
            if p.car is None and len(opts) * len(dice_) > 25:
                # too many pairs for one menu: pick the vehicle first (die 0), then its die
                return [Assign(car=vid, die=0, coast=coast) for vid, coast in opts]
            out: list[Any] = []
            for vid, coast in opts:
                if p.car is not None and vid != p.car:
                    continue
                for d in dice_:
                    out.append(Assign(car=vid, die=d, coast=coast))
            if opts and all(coast for _, coast in opts) and p.car is None:
                out.append(Pass())  # §5: with only moved cars left the player *may* coast
            return out
        if p.stage == "command":
            return self._command_options(st, c, p)
        if p.stage == "air_row":
            rows = sorted({row_of(h) for h in self._empty_spaces(st)})
            return [AirRow(row=r) for r in rows]
        if p.stage == "air_space":
            return [AirSpace(col=h[0]) for h in self._empty_spaces(st) if row_of(h) == p.row]
        if p.stage in ("shoot", "chopper_shoot"):
            pos = self._shooter_pos(st, p)
            tg = R.front_targets(st, pos, exclude=p.car if p.stage == "shoot" else None) if pos else []
            return [Shoot(target=v.id) for v in tg] + [Shoot(target=None)]
        v = R.veh(st, p.car or "")
        if p.stage == "enter":
            out = []
            for h in R.entry_hexes():
                mark = R.step_mark(st, v, p, h)
                if mark == "drift":
                    out += [Enter(col=h[0], then=e, mark=m) for e, m in self._drift_exits(st, v, p, h)]
                else:
                    out.append(Enter(col=h[0], mark=mark))
            return out
        if p.stage == "step":
            out = []
            for dr in R.dirs_for(st, v):
                h = add(v.pos or [0, 0], dr)
                mark = R.step_mark(st, v, p, h)
                if mark == "drift":
                    out += [Step(dir=dr, then=e, mark=m) for e, m in self._drift_exits(st, v, p, h)]
                else:
                    out.append(Step(dir=dr, mark=mark))
            return out
        if p.stage == "bonus":
            return [Bonus(take=True), Bonus(take=False)]
        return []

    def _drift_exits(self, st: TRState, v: Vehicle, p: Pending, through: list[int]) -> list[tuple[str, str]]:
        """Drifting through an occupied space is one action: through it and out again."""
        cost = 2 if R.terrain(st, through) == "M" else 1
        q = p.model_copy(update={"moves": p.moves - cost, "drift": False})
        out = []
        for e in R.dirs_for(st, v):
            out.append((e, "drift_" + R.step_mark(st, v, q, add(through, e), passing=True)))
        return out

    def _command_options(self, st: TRState, c: Crew, p: Pending) -> list[Any]:
        out: list[Any] = [Command(command="none")]
        board_cmds = R.crew_def(c)["command_board"]
        cmd_dice = crews()["commands"]
        any_empty = "airstrike" in board_cmds and c.has_chopper and self._any_empty(st)
        for d in sorted(set(c.dice)):
            for cmd in board_cmds:
                if d not in cmd_dice[cmd]["dice"]:
                    continue
                if cmd == "airstrike":
                    if any_empty:
                        out.append(Command(command=cmd, die=d))
                elif cmd == "repair" or cmd == "patch_up":
                    for v in st.vehicles:
                        if v.owner == c.seat and v.where != "gone" and v.damage:
                            out.append(Command(command=cmd, die=d, car=v.id))
                else:
                    out.append(Command(command=cmd, die=d))
        return out

    def _empty_spaces(self, st: TRState) -> list[tuple[int, int]]:
        """Airstrike targets, in row then column order."""
        return [h for _, h in self._empty_keys(st)]

    def _empty_keys(self, st: TRState) -> list[tuple[str, tuple[int, int]]]:
        busy = self._busy(st)
        return [(k, h) for k, h in drivable(tuple(st.tiles)) if k not in busy]

    @staticmethod
    def _busy(st: TRState) -> set[str]:
        busy = {key(v.pos) for v in st.vehicles if v.where == "road" and v.pos is not None}
        busy.update(st.hazards)
        busy.update(key(c.chopper) for c in st.crews if c.chopper is not None)
        return busy

    def _any_empty(self, st: TRState) -> bool:
        busy = self._busy(st)
        return any(k not in busy for k, _ in drivable(tuple(st.tiles)))

    def _shooter_pos(self, st: TRState, p: Pending) -> list[int] | None:
        if p.stage == "chopper_shoot":
            return R.crew_of(st, p.seat).chopper
        v = R.veh(st, p.car or "")
        return v.pos if v.where == "road" else None

    def _check(self, st: TRState, seat: str, action: Any) -> None:
        if not self._is_legal(st, seat, action):
            raise _fail("illegal", seat=seat, action=action.kind)

    def _is_legal(self, st: TRState, seat: str, a: Any) -> bool:
        """Whether ``a`` is one of ``_legal(st, seat)`` (a step's or entry's ``mark`` is
        ignored), decided without listing every legal action where that is costly."""
        p = st.pending
        if st.reroll is None and p is not None and p.seat == seat:
            if a.kind == "step" and p.stage == "step":
                v = R.veh(st, p.car or "")
                dirs = R.dirs_for(st, v)
                return a.dir in dirs and self._drift_ok(st, v, p, add(v.pos or [0, 0], a.dir), a.then, dirs)
            if a.kind == "enter" and p.stage == "enter":
                v = R.veh(st, p.car or "")
                return 0 <= a.col < W and self._drift_ok(st, v, p, hex_of(0, a.col), a.then, R.dirs_for(st, v))
            if a.kind == "air_space" and p.stage == "air_space":
                return p.row is not None and 0 <= a.col < W and key(hex_of(p.row, a.col)) in dict(self._empty_keys(st))
        if a.kind in ("step", "enter"):
            return False
        return a in self._legal(st, seat)

    @staticmethod
    def _drift_ok(
        st: TRState, v: Vehicle, p: Pending, dest: list[int], then: str | None, dirs: tuple[str, ...]
    ) -> bool:
        """A step into ``dest`` is a drift through it (and needs ``then``) exactly when its mark is drift."""
        if R.step_mark(st, v, p, dest) == "drift":
            return then in dirs
        return then is None

    # ------------------------------------------------------------ apply
    def _transition(self, state: TRState, seat: str, action: Any) -> tuple[TRState, list[BaseEvent]]:
        """``_run`` builds the new state from its own copy (of the state, or of the
        slam-reroll snapshot), so the platform's copy would be wasted work."""
        new, events = self._run(state, seat, action)
        return new, list(events)

    def _copy(self, state: TRState) -> TRState:
        """The typed fast copy (``models.clone``)."""
        return clone(state)

    def _run(self, state: TRState, seat: str, action: Any) -> tuple[TRState, list[TREventBase]]:
        if action.kind == "reroll":
            q = state.reroll
            assert q is not None
            base = TRState.model_validate(q.snapshot)
            decisions = q.decisions + [action.demand]
            trig_seat, trig = q.seat, self.parse_action(q.action)
            skip = q.events_seen
        else:
            base = state
            decisions, trig_seat, trig, skip = [], seat, action, 0
        work = self._copy(base)
        ctx = R.Ctx(work, decisions)
        try:
            self._act(ctx, trig_seat, trig)
        except R.Suspend as s:
            shown = len(ctx.events)
            ctx.ev(
                "reroll_asked",
                seat=s.asker,
                slam=s.slam,
                dir=s.direction,
                pushed=s.info["pushed"],
                owner=s.info["pushed_owner"] or None,
                result=s.info["result"],
            )
            work = self._copy(base)
            work.reroll = RerollQuestion(
                asker=s.asker,
                seat=trig_seat,
                action=trig.model_dump(mode="json"),
                decisions=decisions,
                snapshot=base.model_dump(mode="json"),
                top=s.top,
                bottom=s.bottom,
                slam=s.slam,
                direction=s.direction,
                info=s.info,
                events_seen=shown,
            )
            return work, ctx.events[skip:]
        except R.GameOver as g:
            work.winners = g.winners
            work.end_reason = g.reason
            work.pending = None
            ctx.ev("game_over", winners=list(g.winners), reason=g.reason)
        work.reroll = None
        return work, ctx.events[skip:]

    def _act(self, ctx: R.Ctx, seat: str, a: Any) -> None:
        st = ctx.st
        p = st.pending
        assert p is not None
        c = R.crew_of(st, seat)
        kind = a.kind
        if kind == "assign":
            v = R.veh(st, a.car)
            if a.die == 0:
                p.car = v.id
                return
            c.dice.remove(a.die)
            c.used.append(a.die)
            p.car, p.die, p.coast = v.id, a.die, a.coast
            if a.coast:
                v.coasts += 1
                ctx.ev("coast", die=a.die, **R.vname(v))
            else:
                v.moved = True
                ctx.ev("assign", die=a.die, **R.vname(v))
            if c.rig_turns is None and v.kind == "rig":
                c.rig_turns = a.die
            if not a.coast and not c.command_used and c.dice:
                p.stage = "command"
                return
            self._start_move(ctx)
            return
        if kind == "pass":
            ctx.ev("pass", seat=seat)
            R.end_turn(ctx)
            return
        if kind == "command":
            if a.command == "none":
                self._start_move(ctx)
                return
            c.dice.remove(a.die)
            c.used.append(a.die)
            c.command_used = True
            ctx.ev("command", seat=seat, command=a.command, die=a.die)
            if a.command == "airstrike":
                p.stage = "air_row"
                return
            if a.command == "nitro":
                p.nitro = a.die
            elif a.command == "drift":
                p.drift = True
            elif a.command == "traction_drive":
                p.traction = True
            elif a.command in ("repair", "patch_up"):
                v = R.veh(st, a.car)
                was = R.operable(v)
                tok = v.damage.pop()
                if tok not in ("minor", "burn"):
                    st.damage_pile.append(tok)
                ctx.ev("repair", **R.vname(v))
                if not was and R.operable(v):
                    ctx.ev("restored", **R.vname(v))
            self._start_move(ctx)
            return
        if kind == "air_row":
            p.row = a.row
            p.stage = "air_space"
            return
        if kind == "air_space":
            h = hex_of(p.row or 0, a.col)
            c.chopper = h
            ctx.ev("airstrike", seat=seat, col=a.col + 1, row=(p.row or 0) + 1)
            if st.round >= 2 and R.front_targets(st, h):
                p.stage = "chopper_shoot"
                return
            self._start_move(ctx)
            return
        if kind == "shoot":
            if a.target is not None:
                tgt = R.veh(st, a.target)
                if p.stage == "chopper_shoot":
                    label = {"vid": "", "car": "chopper", "owner": seat}
                else:
                    label = R.vname(R.veh(st, p.car or ""))
                R.shoot(ctx, label, tgt)
            if p.stage == "chopper_shoot":
                self._start_move(ctx)
            else:
                R.end_turn(ctx)
            return
        if kind == "enter":
            v = R.veh(st, p.car or "")
            ctx.ev("enter", col=a.col + 1, **R.vname(v))
            self._step(ctx, hex_of(0, a.col), a.then)
            return
        if kind == "step":
            v = R.veh(st, p.car or "")
            if v.kind == "rig" and a.dir != "n" and c.rig_turns is not None:
                c.rig_turns -= 1
            ctx.ev("step", dir=a.dir, **R.vname(v))
            self._step(ctx, add(v.pos or [0, 0], a.dir), a.then)
            return
        if kind == "bonus":
            if a.take:
                p.in_bonus = True
                p.moves = st.road_die
                p.stage = "step"
                ctx.ev("bonus", n=st.road_die, **R.vname(R.veh(st, p.car or "")))
            else:
                ctx.ev("bonus_declined", **R.vname(R.veh(st, p.car or "")))
                self._after_move(ctx)
            return
        raise _fail("illegal", seat=seat, action=kind)

    # ------------------------------------------------------------ movement
    def _start_move(self, ctx: R.Ctx) -> None:
        st = ctx.st
        p = st.pending
        assert p is not None
        v = R.veh(st, p.car or "")
        c = R.crew_of(st, p.seat)
        if not R.operable(v):  # e.g. hit by its own chopper's shot
            self._after_move(ctx)
            return
        p.moves = 1 if p.coast else (p.die or 0) + p.nitro
        if R.zigzag(st, v) and not p.coast:
            p.drift = True  # Final Five zigzag: a free drift on every normal move
        if v.on_fire:
            face = st.rng.choice("fire", dice()["fire"])
            ctx.ev("fire_roll", face=face, **R.vname(v))
            if face == "extinguish":
                v.on_fire = False
            elif face == "burn_out":
                v.on_fire = False
                while len(v.damage) < v.capacity:
                    v.damage.append("burn")
                ctx.ev("inoperable", **R.vname(v))
                R.check_out(ctx)
                self._after_move(ctx)
                return
            elif not p.coast:
                p.moves += dice()["fire_flare_moves"][face]
        uses_road = R.crew_def(c).get("road_die_only_with") is None or p.traction
        p.bonus_ok = (
            not p.coast and uses_road and v.where == "road" and v.pos is not None and R.terrain(st, v.pos) == "R"
        )
        p.stage = "enter" if v.where == "start" else "step"

    def _step(self, ctx: R.Ctx, dest: list[int], then: str | None = None) -> None:
        st = ctx.st
        p = st.pending
        assert p is not None
        v = R.veh(st, p.car or "")
        ctx.mover = v.id
        ctx.tracking = not p.in_bonus and not p.coast
        pass_through = False
        if then is not None:
            pass_through = True
            p.drift = False
        res = R.enter_space(ctx, v, dest, "move", pass_through=pass_through)
        if res == "ok" and not ctx.stopped and v.where == "road":
            self._pay(st, p, v)
            if then is not None and p.moves > 0:
                if v.kind == "rig" and then != "n":
                    R.crew_of(st, p.seat).rig_turns = (R.crew_of(st, p.seat).rig_turns or 1) - 1
                ctx.ev("step", dir=then, **R.vname(v))
                res = R.enter_space(ctx, v, add(v.pos or dest, then), "move")
                if res == "ok" and not ctx.stopped and v.where == "road":
                    self._pay(st, p, v)
        if ctx.offroad:
            p.bonus_ok = False
        if res != "ok" or ctx.stopped or v.where != "road" or not R.operable(v):
            # a car that can no longer run (its crew may be out) takes no further step or bonus
            if res == "stop" or ctx.stopped:
                ctx.ev("stop", **R.vname(v))
            self._after_move(ctx)
            return
        if p.moves > 0:
            p.stage = "step"
            return
        if not p.in_bonus and p.bonus_ok and st.road_die > 0:
            p.stage = "bonus"
            return
        self._after_move(ctx)

    @staticmethod
    def _pay(st: TRState, p: Pending, v: Vehicle) -> None:
        """Pay for the space the car is in now: 2 for mud, else 1; a coast is one space.  After
        an oil slide that is the space it slid into (ruling 5: the step and the slide are one
        move, paid at the terrain where the car ends up, §7)."""
        if p.coast:
            p.moves = 0
            return
        p.moves = max(0, p.moves - (2 if R.terrain(st, v.pos or [0, 0]) == "M" else 1))

    def _after_move(self, ctx: R.Ctx) -> None:
        st = ctx.st
        p = st.pending
        assert p is not None
        ctx.mover = None
        R.chopper_sweep(ctx)
        R.check_out(ctx)
        if st.pending is None:
            return
        v = R.veh(st, p.car or "")
        if (
            st.round >= 2
            and v.where == "road"
            and R.operable(v)
            and v.pos is not None
            and R.front_targets(st, v.pos, exclude=v.id)
        ):
            p.stage = "shoot"
            return
        R.end_turn(ctx)

    # ------------------------------------------------------------ views
    def _view(self, state: TRState, seat: str | None) -> dict[str, Any]:
        """What ``seat`` (None: the public) sees -- everything the board image shows.  Never the
        RNG, the seed, face-down hazard types, the order of the road stack, the damage tokens
        under a car or the slam-reroll snapshot."""
        st = state
        hazards = [
            HazardView(pos=unkey(k), up=h.up, type=h.type if h.up else None)
            for k, h in sorted(st.hazards.items(), key=lambda kh: unkey(kh[0])[::-1])
        ]
        vehicles = [
            VehicleView(
                id=v.id,
                owner=v.owner,
                kind=v.kind,
                name=v.name,
                size=v.size,
                where=v.where,
                pos=list(v.pos) if v.pos is not None else None,
                damage=len(v.damage),
                capacity=v.capacity,
                operable=R.operable(v),
                moved=v.moved,
                coasts=v.coasts,
                on_fire=v.on_fire,
            )
            for v in st.vehicles
            if v.where != "gone"
        ]
        colours = board()["colours"]
        crews_v = [
            CrewView(
                seat=c.seat,
                crew=c.crew,
                colour=c.colour,
                colour_hex=colours.get(c.colour, "#888888"),
                dice=list(c.dice),
                used=list(c.used),
                command_used=c.command_used,
                turns=c.turns,
                chopper=list(c.chopper) if c.chopper is not None else None,
                out=c.out,
                rig_turns=c.rig_turns,
                cars_left=sum(1 for v in st.vehicles if v.owner == c.seat and v.where != "gone"),
                coasting=bool(R.crew_def(c).get("coasting", True)),
            )
            for c in st.crews
        ]
        choices: list[ChoiceView] = []
        if (
            st.pending is not None
            and st.reroll is None
            and st.pending.stage in ("step", "enter")
            and st.winners is None
        ):
            v = R.veh(st, st.pending.car or "")
            seen: set[str] = set()
            for a in self._legal(st, st.pending.seat):
                pos = hex_of(0, a.col) if a.kind == "enter" else add(v.pos or [0, 0], a.dir)
                if key(pos) in seen:
                    continue
                seen.add(key(pos))
                choices.append(
                    ChoiceView(
                        pos=pos,
                        mark="drift" if a.then else a.mark,
                        dir=getattr(a, "dir", None),
                        col=getattr(a, "col", None),
                    )
                )
        reroll = None
        if st.reroll is not None:
            q = st.reroll
            reroll = RerollView(asker=q.asker, top=q.top, bottom=q.bottom, slam=q.slam, direction=q.direction, **q.info)
        fields: dict[str, Any] = {
            "round": st.round,
            "starter": st.starter,
            "road_die": st.road_die,
            "current": st.current,
            "tiles_placed": st.tiles_placed,
            "final": st.final,
            "board": _board_view(tuple(st.tiles)),
            "hazards": hazards,
            "vehicles": vehicles,
            "crews": crews_v,
            "pending": st.pending.model_copy() if st.pending is not None else None,
            "choices": choices,
            "reroll": reroll,
            "wrecks_left": st.wrecks_left,
            "damage_pile": len(st.damage_pile),
            "hazard_pile": len(st.hazard_pile),
            "deck": len(st.deck),
            "winners": list(st.winners) if st.winners is not None else None,
            "end_reason": st.end_reason,
            "options": st.options.model_copy(),
        }
        if seat is not None:
            fields["your_turn"] = seat in self.to_act(st)
        return fields

    # ------------------------------------------------------------ impossible states and rigs
    def _validate(self, state: TRState) -> None:
        """Refuse a state no game can reach, naming the first problem (``rules.check_state``)."""
        try:
            R.check_state(state)
        except R.BadState as exc:
            field, _, detail = str(exc).partition(": ")
            raise bad_state(field, detail) from None

    def _migrate_event(self, data: dict[str, Any]) -> dict[str, Any]:
        """Logs stored before the typed events held one event with a ``params`` dict of
        catalog references (``"@thunder_road.dir.ne"``, owner ``"-"`` for a wreck); read
        them into the typed fields (``models.legacy_event``)."""
        return legacy_event(data)

    def _rigs(self) -> dict[str, RigSpec]:
        """Every named draw a test or the driver may rig (docs/rulings.md, Thunder Road §7)."""
        return {name: RigSpec(kind=kind, values=values, doc=doc) for name, (kind, values, doc) in R.rig_specs().items()}

    def _record(self, state: TRState, seat: str) -> float | None:
        """Leaderboard record: the round in which ``seat`` won (fewer is better)."""
        if state.winners and seat in state.winners:
            return float(state.round)
        return None

    def _hidden_revealed(self, before: TRState, after: TRState) -> bool:
        """Something hidden came to light without the RNG showing it: a road tile came off the
        stack, a face-down hazard token turned face up or was used up (mine, wreck), or a slam
        reroll question was asked (the state then holds the action's starting point, RNG
        included, but the question shows the slam and direction rolled -- and, after a wreck
        token, what the token was)."""
        if before.tiles_placed != after.tiles_placed:
            return True
        if after.reroll is not None and after.reroll != before.reroll:
            return True
        for k, h in before.hazards.items():
            if not h.up:
                a = after.hazards.get(k)
                if a is None or a.up:
                    return True
        return False

    def _board_mark(self, state: TRState, action: Any, seat: str) -> str | None:
        """A car step marks the space it drives to (``"c,y"``, as the view's positions;
        drifting through a car: the space beyond), the space its button names;
        other actions mark no place."""
        dest = self._step_dest(state, action)
        return key(dest) if dest is not None and on_board(dest) else None  # off the board: no space to mark

    def _self_harm(self, before: TRState, after: TRState, seat: str) -> str | None:
        """A choice that puts one of the seat's own cars out of the race (off the
        road, into impassable terrain, onto a chopper)."""

        def running(st: TRState) -> int:
            return sum(1 for v in st.vehicles if v.owner == seat and v.kind != "wreck" and v.where != "gone")

        return "thunder_road.warn.own_car_out" if running(after) < running(before) else None

    def _step_dest(self, state: TRState, action: Any) -> list[int] | None:
        """Where an enter or step action drives the car to move, as its button says."""
        if action.kind == "enter":
            entry = hex_of(0, action.col)
            return add(entry, action.then) if action.then else entry
        if action.kind == "step" and state.pending is not None and state.pending.car:
            v = R.veh(state, state.pending.car)
            if v.pos is None:
                return None
            here = add(v.pos, action.dir)
            return add(here, action.then) if action.then else here
        return None

    # ------------------------------------------------------------ presentation
    def _action_label(self, state: TRState, action: Any, locale: str | None, labels: SeatLabels | None) -> str:
        k = action.kind
        tr = lambda key, **kw: t(f"thunder_road.{key}", locale, **kw)  # noqa: E731
        if k == "assign":
            v = R.veh(state, action.car)
            if action.die == 0:
                return tr("action.pick_car", car=tr(f"vehicle.{v.name}"))
            key = "action.coast" if action.coast else "action.assign"
            return tr(key, die=action.die, car=tr(f"vehicle.{v.name}"))
        if k == "pass":
            return tr("action.pass")
        if k == "command":
            if action.command == "none":
                return tr("action.no_command")
            car = tr(f"vehicle.{R.veh(state, action.car).name}") if action.car else ""
            return tr("action.command", command=tr(f"command.{action.command}"), die=action.die, car=car)
        if k == "air_row":
            return tr("action.air_row", row=action.row + 1)
        if k == "air_space":
            p = state.pending
            return tr("action.air_space", space=space_name(hex_of(p.row if p and p.row is not None else 0, action.col)))
        mark = getattr(action, "mark", "")
        mark = mark[6:] if mark.startswith("drift_") else mark
        # every place a button names is written as the board image prints it (lane letter + row)
        if k == "enter":
            entry = hex_of(0, action.col)
            if action.then:
                return tr(
                    "action.enter_drift",
                    space=space_name(entry),
                    then=tr(f"dir.{action.then}"),
                    dest=space_name(add(entry, action.then))
                    if on_board(add(entry, action.then))
                    else tr("render.off_board"),
                    mark=tr(f"mark.{mark}"),
                )
            return tr("action.enter", space=space_name(entry), mark=tr(f"mark.{mark}"))
        if k == "step":
            dest = self._step_dest(state, action)
            where = space_name(dest) if dest is not None and on_board(dest) else tr("render.off_board")
            if action.then:
                return tr(
                    "action.step_drift",
                    dir=tr(f"dir.{action.dir}"),
                    then=tr(f"dir.{action.then}"),
                    dest=where,
                    mark=tr(f"mark.{mark}"),
                )
            return tr("action.step", dir=tr(f"dir.{action.dir}"), dest=where, mark=tr(f"mark.{mark}"))
        if k == "bonus":
            return tr("action.bonus_take", n=state.road_die) if action.take else tr("action.bonus_decline")
        if k == "reroll":
            return tr("action.reroll_demand") if action.demand else tr("action.reroll_accept")
        if k == "shoot":
            if action.target is None:
                return tr("action.hold_fire")
            v = R.veh(state, action.target)
            owner = self.seat_name(v.owner, labels) if v.owner else tr("vehicle.wreck")
            return tr("action.shoot", car=tr(f"vehicle.{v.name}"), owner=owner)
        return super()._action_label(state, action, locale, labels)

    def _event_text(self, event: Any, locale: str | None, labels: SeatLabels | None) -> str:
        """The log line of a typed event: catalog names for the fields in ``event.refs``,
        seat labels (``labels[seat].name``, default the seat id) for ``event.seat_fields``."""
        params = event.model_dump(exclude={"kind", "to"})
        for f, section in event.refs.items():
            params[f] = f"@thunder_road.{section}.{params[f]}"
        for f in event.seat_fields:
            val = params.get(f)
            if isinstance(val, list):
                params[f] = ", ".join(self.seat_name(x, labels) for x in val)
            else:
                params[f] = "-" if val is None else self.seat_name(val, labels)
        if event.kind == "game_over":
            params["count"] = len(getattr(event, "winners", []) or [])
            params["seats"] = params.pop("winners")
        if event.kind in ("extend", "tile"):  # tile names in the reader's language
            f = "tile" if event.kind == "extend" else "name"
            params[f] = _tile_name(str(params.get(f, "")), locale)
        if event.kind == "enter":
            params["space"] = space_name(hex_of(0, int(params.get("col", 1)) - 1))
        if event.kind == "airstrike":
            params["space"] = space_name(hex_of(int(params.get("row", 1)) - 1, int(params.get("col", 1)) - 1))
        return t(f"thunder_road.event.{event.kind}", locale, **params)

    def _prompt(self, state: TRState, seat: str) -> Msg:
        if state.reroll is not None and seat == state.reroll.asker:
            q = state.reroll
            return Msg(
                key="thunder_road.prompt.reroll",
                params={
                    "slam": f"@thunder_road.slamface.{q.slam}",
                    "dir": f"@thunder_road.dir.{q.direction}",
                    "top": f"@thunder_road.vehicle.{q.info.get('top_car', '')}",
                    "bottom": f"@thunder_road.vehicle.{q.info.get('bottom_car', '')}",
                    "pushed": f"@thunder_road.vehicle.{q.info.get('pushed', '')}",
                    "owner": q.info.get("pushed_owner", ""),
                    "result": f"@thunder_road.mark.{q.info.get('result', 'ok')}",
                },
            )
        p = state.pending
        if p is None or p.seat != seat:
            return Msg(key="core.prompt.your_move")
        params: dict[str, Any] = {"moves": p.moves, "road": state.road_die}
        if p.car:
            params["car"] = f"@thunder_road.vehicle.{R.veh(state, p.car).name}"
        return Msg(key=f"thunder_road.prompt.{p.stage}", params=params)

    def _summary(self, state: TRState) -> Msg:
        out = self.outcome(state)
        if out is not None:
            return out.reason
        return Msg(
            key="thunder_road.summary",
            params={
                "round": state.round,
                "seat": state.current or "",
                "road": state.road_die,
                "tiles": state.tiles_placed,
            },
        )

    # ------------------------------------------------------------ standing orders
    def _order_kinds(self, state: TRState, seat: str) -> list[Any]:
        return standing.order_kinds(state, seat)

    def _order_marker(self, state: TRState, scope: str) -> str:
        return standing.order_marker(state, scope)

    def _order_step(self, state: TRState, seat: str, order: Any, legal: list[Any]) -> Any:
        return standing.order_step(state, seat, order, legal)

    def _ai_action(self, state: TRState, seat: str, level: str, legal: list[Any]) -> Any:
        from .ai import choose

        return choose(self, state, seat, legal, level)

"""The Armor Clash game: simultaneous secret orders built from small pending steps."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..base import Game, Msg, Outcome, RigSpec, SeatLabels
from ..errors import GameError
from ..i18n import has, t
from . import ai as AI
from . import content
from . import geometry as G
from . import models as M
from . import orders as standing
from . import rules as R
from .models import (
    AMMO,
    Action,
    AcView,
    AmmoChoice,
    AnyEvent,
    Back,
    Choose,
    Committed,
    FreeRotate,
    HullTo,
    MoveDir,
    MoveDist,
    Order,
    OrderGiven,
    Pending,
    Target,
    TurretTo,
    Unit,
    UnitView,
)

PASS = Choose(what="pass")


def _err(code: str, seat: str | None = None, **params: Any) -> GameError:
    return GameError(code, f"armor_clash.error.{code}", seat=seat, **params)


class ArmorClash(Game[M.State]):
    id = "armor_clash"
    schema_version = 2
    min_seats = 1
    max_seats = 4
    State = M.State
    Action = Action
    Event = AnyEvent
    Options = M.Options
    private_view = True
    private_actions = True
    ai_levels = AI.LEVELS
    View = AcView

    # ---------------------------------------------- story mode (platform hooks)
    def _campaign_init(self, options: dict[str, Any]) -> dict[str, Any] | None:
        from .campaign import new_campaign

        allowed = {"mode", "repeated_hits", "ammo_rack", "ricochet_stun"}
        unknown = sorted(set(options) - allowed)
        if unknown:
            raise GameError("bad_options", "core.error.bad_options", detail=", ".join(unknown))
        return new_campaign(**options).model_dump(mode="json")

    def _campaign_summary(self, progress: dict[str, Any] | None) -> Msg | None:
        from .campaign import Progress, current_scenario, scenario_list

        if not progress:
            return None
        prog = Progress.model_validate(progress)
        if prog.finished:
            return Msg(
                key="armor_clash.campaign.done" if prog.won else "armor_clash.campaign.lost",
                params={"losses": prog.losses},
            )
        sc = current_scenario(prog)
        assert sc is not None  # an unfinished campaign has a next scenario
        # crews by their number, never the seat id (a campaign's seats are its tables' players)
        crews = (
            tuple(
                {
                    "key": "armor_clash.campaign.crew",
                    "params": {"n": n, "level": f"@armor_clash.level.{c.level}", "xp": c.xp},
                }
                for n, c in enumerate(prog.crews.values(), start=1)
            )
            or "-"
        )
        return Msg(
            key="armor_clash.campaign.next",
            params={
                "n": prog.index + 1,
                "total": len(scenario_list()),
                "scenario": "@" + sc["title"],
                "crews": crews,
                "losses": prog.losses,
                "reserve": prog.reserve,
            },
        )

    def _campaign_options(self, progress: dict[str, Any] | None, seats: Sequence[str]) -> dict[str, Any] | None:
        from .campaign import Progress, join, new_campaign, scenario_options

        prog = Progress.model_validate(progress) if progress else new_campaign()
        for seat in seats:  # players may join between scenarios with a recruit crew
            prog = join(prog, seat)
        return scenario_options(prog, list(seats)).model_dump(mode="json")

    def _campaign_progress(self, progress: dict[str, Any] | None, state: M.State) -> dict[str, Any] | None:
        from .campaign import Progress, new_campaign, record_result

        if state.options.scenario not in {sc["id"] for sc in content.campaign()["scenarios"]}:
            return None  # a skirmish counted in a points campaign
        prog = Progress.model_validate(progress) if progress else new_campaign(mode=state.options.mode)
        return record_result(prog, state).model_dump(mode="json")

    # ------------------------------------------------------------ setup
    def _new(self, seats: list[str], options: M.Options, seed: int, rng) -> M.State:
        mode_row = content.tables()["modes"][options.mode]
        if "refuse" in mode_row:
            raise GameError("mode_unavailable", mode_row["refuse"], mode=options.mode)
        sc = content.scenarios()[options.scenario]
        if sc["pvp"] and len(seats) < 2:
            raise _err("duel_needs_two", n=len(seats))
        board = content.tables()["board"]
        max_turns = options.max_turns or _scenario_turns(options.scenario, options.mode)
        state = M.State(
            schema_version=self.schema_version,
            seats=seats,
            seed=seed,
            rng=rng,
            options=options,
            width=board["w"],
            height=board["h"],
            max_turns=max_turns,
            units=R.build_units(seats, options),
        )
        return state

    def _hidden_revealed(self, before: M.State, after: M.State) -> bool:
        """A resolved turn shows every seat's secret order (what each crew did), dice or not."""
        return after.turn != before.turn or (after.result is not None) != (before.result is not None)

    # ------------------------------------------------------ stored states
    def _migrate(self, data: dict[str, Any], version: int) -> dict[str, Any]:
        if version == 1:
            # schema 2 added Options.rules; a table begun under schema 1 keeps rules revision 1
            data["options"] = {**data.get("options", {}), "rules": 1}
            return data
        return super()._migrate(data, version)

    def _migrate_event(self, data: dict[str, Any]) -> dict[str, Any]:
        """Schema-1 events (``note``/``order`` with a key and free-form parameters, the
        parameters catalog references) as the typed events of schema 2."""
        kind = data.get("kind")
        if kind not in ("note", "order"):
            return data
        key = str(data.get("key", "")).removeprefix("armor_clash.")
        params = {k: _code(v) for k, v in (data.get("params") or {}).items()}
        to = data.get("to")
        if kind == "order":
            what = key.removeprefix("order.")
            if what == "free_rotate":
                return {"kind": "free_rotate", "to": to, "seat": data.get("seat"), "cell": params.get("cell")}
            target = params.pop("target", None)
            order = {"what": what, **{k: v for k, v in params.items() if k in Order.model_fields}}
            return {"kind": "order_given", "to": to, "seat": data.get("seat"), "order": order, "target": target}
        if key == "moved":
            params["cell"] = params.pop("to", "")
        if key == "game_over":
            winners = str(params.get("winners", ""))
            params["winners"] = [] if winners in ("", "-") else winners.split(", ")
        return {"kind": key, "to": to, **params}

    def _rigs(self) -> dict[str, RigSpec]:
        faces = list(range(1, 7))
        return {
            "hit": RigSpec(kind="die", values=faces, doc="normal mode: a shot's first die; simple: its second"),
            "location": RigSpec(
                kind="die", values=faces, doc="1 ammo rack, 2 fuel, 3 driver, 4 engine, 5 turret, 6 tracks"
            ),
            "damage": RigSpec(kind="die", values=faces, doc="normal mode, after the location (ruling R4)"),
            "penalty": RigSpec(kind="die", values=faces, doc="for each crew injury: 1-3 +1 turn, 4-6 +2 (R7)"),
        }

    def _validate(self, s: M.State) -> None:
        R.validate_state(s)

    # ------------------------------------------------------------ turn order
    def _to_act(self, state: M.State) -> list[str]:
        if state.result is not None:
            return []
        out = []
        for u in state.units:
            if u.seat is not None and u.active and u.stunned == 0 and u.seat not in state.orders:
                out.append(u.seat)
        return out

    def _outcome(self, state: M.State) -> Outcome | None:
        r = state.result
        if r is None:
            return None
        obj = R.objective(state)
        if obj is not None:
            # a duel for the crossroads scores its points (R14, rules revision 3)
            return Outcome(
                winners=list(r.winners),
                scores={seat: float(state.points.get(seat, 0)) for seat in state.seats},
                reason=Msg(
                    key="armor_clash.outcome_duel",
                    params={
                        "reason": f"@armor_clash.outcome.{r.reason}",
                        "turn": state.turn - 1,
                        **_objective_params(state, obj),
                    },
                ),
            )
        scores = {u.seat: float(u.kills) for u in state.units if u.seat is not None}
        return Outcome(
            winners=list(r.winners),
            scores=scores,
            reason=Msg(key=f"armor_clash.outcome.{r.reason}", params={"turn": state.turn - 1}),
        )

    # ------------------------------------------------------------ helpers
    def _unit(self, state: M.State, seat: str) -> Unit:
        u = R.unit_of_seat(state, seat)
        assert u is not None
        return u

    def _virtual(self, state: M.State, u: Unit, p: Pending) -> tuple[int, int, int]:
        """(hull, absolute turret, free rotation left) after the pending free rotation."""
        hull, tur, free = u.hull, u.abs_turret, R.free_rotation(u)
        if p.pre_rot is not None:
            n = G.ring_dist(tur, p.pre_rot)
            delta = (p.pre_rot - tur) % 8
            if delta > 4:
                delta -= 8
            if R.has_link(u):
                hull = (hull + delta) % 8
            tur = p.pre_rot
            free = max(0, free - n)
        return hull, tur, free

    def _targets(self, state: M.State, u: Unit, p: Pending) -> list[Unit]:
        _, tur, free = self._virtual(state, u, p)
        return [o for o, _ in R.shootable(state, u, tur, free)]

    def _top(self, state: M.State, u: Unit, p: Pending) -> list[Choose]:
        hull, tur, free = self._virtual(state, u, p)
        out: list[Choose] = []
        if u.tracks == "ok" and (R.move_reach(state, u, False, hull) or R.move_reach(state, u, True, hull)):
            out.append(Choose(what="move"))
        if u.move_plan is not None and u.tracks == "ok":
            out.append(Choose(what="continue_move"))
        if u.loaded is not None and self._targets(state, u, p):
            out.append(Choose(what="shoot"))
        if u.loaded is None and u.loading is None:
            out.append(Choose(what="reload"))
        if u.loading is not None:
            out.append(Choose(what="continue_reload"))
        if u.loaded is not None or u.loading is not None:
            out.append(Choose(what="unload"))
        if R.turret_state(u) in ("normal", "crank") and p.pre_rot is None:
            out.append(Choose(what="rotate"))
            if u.rot_plan is not None:
                out.append(Choose(what="continue_rotate"))
        out.append(Choose(what="hull"))
        out.append(PASS)
        return out

    def _legal(self, state: M.State, seat: str) -> list[Any]:
        u = self._unit(state, seat)
        p = state.pending.get(seat, Pending())
        hull, tur, free = self._virtual(state, u, p)
        if p.step == "top":
            return self._top(state, u, p)
        out: list[Any] = []
        if p.step == "move_dir":
            out = [MoveDir(reverse=r) for r in (False, True) if R.move_reach(state, u, r, hull)]
        elif p.step == "move_dist":
            out = [
                MoveDist(cells=c, turns=R.move_cost(u, c)[1])
                for c in range(1, R.move_reach(state, u, bool(p.reverse), hull) + 1)
            ]
        elif p.step == "move_fire":
            out = [Target(target=o.id) for o in self._targets(state, u, p)] + [Target(target="")]
        elif p.step == "target":
            out = [Target(target=o.id) for o in self._targets(state, u, p)]
        elif p.step == "ammo":
            out = [AmmoChoice(ammo=a) for a in AMMO]
        elif p.step == "turret":
            cur = (tur - hull) % 8
            out = [
                TurretTo(cell=G.RING_TO_CELL[r], turns=self._turret_turns(state, u, p, tur, (hull + r) % 8))
                for r in range(8)
                if r != cur
            ]
        elif p.step == "hull":
            out = [HullTo(facing=f) for f in range(8) if f != u.hull]
        return out + [Back()]

    def _turret_turns(self, state: M.State, u: Unit, p: Pending, tur: int, want: int) -> int:
        n = G.ring_dist(tur, want)
        if p.pre_rot is None and R.turret_state(u) == "normal" and n <= R.free_rotation(u):
            return 0
        return R.rotation_turns(state, u, n)

    def _normalise(self, action: Any) -> Any:
        """The informational ``turns`` field is optional in requests."""
        if action.kind in ("move_dist", "turret") and action.turns is not None:
            return action.model_copy(update={"turns": None})
        return action

    def _check(self, state: M.State, seat: str, action: Any) -> None:
        if action == PASS:
            return
        want = self._normalise(action)
        if any(self._normalise(a) == want for a in self._legal(state, seat)):
            return
        raise self._diagnose(state, seat, action)

    def _diagnose(self, state: M.State, seat: str, action: Any) -> GameError:
        u = self._unit(state, seat)
        p = state.pending.get(seat, Pending())
        step_for = {
            "choose": "top",
            "move_dir": "move_dir",
            "move_dist": "move_dist",
            "ammo": "ammo",
            "turret": "turret",
            "hull": "hull",
        }
        if action.kind == "target":
            if p.step not in ("target", "move_fire"):
                return _err("wrong_step", seat, step=p.step)
            o = R.unit_by_id(state, action.target)
            if o is None or o.side == u.side:
                return _err("unknown_target", seat, target=action.target)
            if not o.active:
                return _err("target_out", seat, target=o.label)
            return _err("out_of_arc", seat, target=o.label)
        if action.kind == "back":
            return _err("wrong_step", seat, step=p.step)
        if step_for.get(action.kind) != p.step:
            return _err("wrong_step", seat, step=p.step)
        if action.kind == "choose":
            w = action.what
            if w == "shoot":
                if u.loading is not None:
                    return _err("reloading", seat, left=u.reload_left)
                if u.loaded is None:
                    return _err("not_loaded", seat)
                return _err("no_target_in_arc", seat)
            if w == "reload":
                return _err("already_loaded", seat)
            if w in ("move", "continue_move"):
                return _err("cannot_move", seat)
            if w in ("rotate", "continue_rotate"):
                return _err(
                    "turret_locked" if R.turret_state(u) in ("locked", "overload") else "nothing_to_continue", seat
                )
            return _err("nothing_to_continue", seat)
        if action.kind == "move_dist":
            return _err("too_far", seat, cells=action.cells)
        return _err("illegal_action", seat)

    # ------------------------------------------------------------ apply
    def _transition(self, state: M.State, seat: str, action: Any) -> tuple[M.State, list[Any]]:
        """Copy on write: a step of a seat's order touches only its pending step and the
        orders; the units and the dice are copied only when the turn resolves."""
        new = state.model_copy()
        new.pending = dict(state.pending)
        new.orders = dict(state.orders)
        return new, self._apply(new, seat, action)

    def _apply(self, state: M.State, seat: str, action: Any) -> list[Any]:
        u = self._unit(state, seat)
        p = state.pending[seat].model_copy() if seat in state.pending else Pending()
        events: list[Any] = []
        order: Order | None = None
        hull, tur, free = self._virtual(state, u, p)
        k = action.kind
        if k == "back":
            p = Pending(pre_rot=p.pre_rot)
        elif k == "choose":
            w = action.what
            if w == "pass":
                order = Order(what="pass")
            elif w == "move":
                p.step = "move_dir"
            elif w == "shoot":
                p.step = "target"
            elif w == "reload":
                p.step = "ammo"
            elif w == "rotate":
                p.step = "turret"
            elif w == "hull":
                p.step = "hull"
            else:
                order = Order(what=w)
        elif k == "move_dir":
            p.reverse, p.step = action.reverse, "move_dist"
        elif k == "move_dist":
            if "shoot_on_move" in R.veh(u)["traits"] and u.loaded is not None and self._targets(state, u, p):
                p.cells, p.step = action.cells, "move_fire"
            else:
                order = Order(what="move", reverse=p.reverse, cells=action.cells)
        elif k == "target":
            if p.step == "move_fire":
                order = Order(what="move", reverse=p.reverse, cells=p.cells, target=action.target or None)
            else:
                order = Order(what="shoot", target=action.target)
        elif k == "ammo":
            order = Order(what="reload", ammo=action.ammo)
        elif k == "turret":
            want = (hull + G.CELL_TO_RING[action.cell]) % 8
            n = G.ring_dist(tur, want)
            if p.pre_rot is None and R.turret_state(u) == "normal" and 0 < n <= free:
                p = Pending(pre_rot=want)
                events.append(FreeRotate(seat=seat, cell=action.cell, to=[seat]))
            else:
                order = Order(what="rotate", turret_to=want)
        elif k == "hull":
            order = Order(what="hull", facing=action.facing)
        if order is None:
            state.pending[seat] = p
            return events
        order.pre_rot = p.pre_rot
        state.pending.pop(seat, None)
        state.orders[seat] = order
        target = R.unit_by_id(state, order.target) if order.target else None
        events.append(OrderGiven(seat=seat, order=order, target=target.label if target else order.target, to=[seat]))
        events.append(Committed(seat=seat))
        if state.result is None and not self.to_act(state):
            state.units = [_clone_unit(x) for x in state.units]
            state.rng = state.rng.model_copy(deep=True)
            state.points = dict(state.points)  # the turn may score (R14): never the old state's dict
        guard = 0
        while state.result is None and not self.to_act(state) and guard < 20:
            R.resolve_turn(state, events, AI.enemy_order)
            state.pending = {}
            guard += 1
        return events

    # ------------------------------------------------------------ views
    def _view(self, state: M.State, seat: str | None) -> dict[str, Any]:
        vehicles = content.vehicles()
        units = [
            UnitView(
                **dict(u),
                vehicle_name=vehicles[u.vehicle]["name"],
                max_move=vehicles[u.vehicle]["max_move"],
            )
            for u in state.units
        ]
        return {
            "mode": state.options.mode,
            "scenario": state.options.scenario,
            "options": state.options,
            "width": state.width,
            "height": state.height,
            "turn": state.turn,
            "max_turns": state.max_turns,
            "units": units,
            "last_shots": list(state.last_shots),
            "committed": sorted(state.orders),
            "result": state.result,
            "objective": _objective_view(state),
            "orders": dict(state.orders),  # the base keeps only the viewer's own
            "pending": dict(state.pending),
        }

    # ------------------------------------------------------------ standing orders
    def _order_kinds(self, state: M.State, seat: str) -> list[Any]:
        return standing.order_kinds(state, seat)

    def _order_marker(self, state: M.State, scope: str) -> str:
        return standing.order_marker(state, scope)

    def _order_step(self, state: M.State, seat: str, order: Any, legal: list[Any]) -> Any:
        return standing.order_step(self, state, seat, order, legal)

    def _default_action(self, state: M.State, seat: str) -> Any:
        """Rules' default for an absent player: a pass (the turn timer)."""
        return PASS

    def _ai_action(self, state: M.State, seat: str, level: str, legal: list[Any]) -> Any:
        want = AI.order_for(state, self._unit(state, seat), level)
        return AI.step_action(self, state, seat, legal, want)

    # ------------------------------------------------------------ text
    def _option_value(self, name: str, value: Any, locale: str | None) -> str:
        key = {
            "vehicles": f"armor_clash.render.vehicle.{value}",
            "crews": f"armor_clash.level.{value}",
            "scenario": f"armor_clash.render.scenario.{value}"
            if value in ("boss", "duel", "skirmish")
            else f"armor_clash.campaign.{value}",
        }.get(name)
        if key is not None and has(key):
            return t(key, locale)
        return super()._option_value(name, value, locale)

    def _action_label(self, state: M.State, action: Any, locale: str | None, labels: SeatLabels | None) -> str:
        k = action.kind
        if k == "choose":
            return t(f"armor_clash.what.{action.what}", locale)
        if k == "move_dir":
            return t("armor_clash.action.reverse" if action.reverse else "armor_clash.action.forward", locale)
        if k == "move_dist":
            if action.turns is None:
                return t("armor_clash.action.move_dist", locale, cells=action.cells)
            return t("armor_clash.action.move_dist_turns", locale, cells=action.cells, turns=action.turns)
        if k == "target":
            if not action.target:
                return t("armor_clash.action.hold_fire", locale)
            o = R.unit_by_id(state, action.target)
            label = o.label if o else action.target
            if labels and label in labels:
                label = labels[label].name
            label = t(label[1:], locale) if label.startswith("@") else label
            where = G.cell_name(o.x, o.y) if o else "?"
            return t("armor_clash.action.target", locale, target=label, cell=where)
        if k == "ammo":
            return t(f"armor_clash.ammo.{action.ammo}", locale)
        if k == "turret":
            if action.turns is None:
                return t("armor_clash.action.turret", locale, cell=action.cell)
            if action.turns == 0:
                return t("armor_clash.action.turret_free", locale, cell=action.cell)
            return t("armor_clash.action.turret_turns", locale, cell=action.cell, turns=action.turns)
        if k == "hull":
            return t(
                "armor_clash.action.hull", locale, facing=t(f"armor_clash.dir.{G.DIR_NAMES[action.facing]}", locale)
            )
        return t("armor_clash.action.back", locale)

    def _action_group(self, state: M.State, action: Any) -> str:
        return action.kind

    def _event_text(self, event: Any, locale: str | None, labels: SeatLabels | None) -> str:
        k = event.kind

        def name(label: str | None) -> str:
            if not label:
                return "-"
            if labels and label in labels:
                return labels[label].name
            return t(label[1:], locale) if label.startswith("@") else label

        if k == "roll":
            return t(
                "armor_clash.event.roll",
                locale,
                unit=name(event.label),
                die=f"@armor_clash.die.{event.die}",
                value=event.value,
                result=event.result,
            )
        if k == "committed":
            return t("armor_clash.event.committed", locale, seat=name(event.seat))
        if k == "free_rotate":
            return t("armor_clash.order.free_rotate", locale, cell=event.cell)
        if k == "order_given":
            target = name(event.target) if event.target else None
            return t(f"armor_clash.order.{event.order.what}", locale, **_order_params(event.order, target))
        p: dict[str, Any] = event.model_dump(mode="json", exclude={"kind", "to"})
        for field in ("unit", "target"):
            if field in p:
                p[field] = name(p[field])
        refs = {
            "ammo": "ammo",
            "band": "band",
            "crew": "crew",
            "what": "pen",
            "state": "turret",
            "old": "dmg",
            "new": "dmg",
        }
        for field, ns in refs.items():
            if isinstance(p.get(field), str):
                p[field] = f"@armor_clash.{ns}.{p[field]}"
        if "facing" in p:
            p["facing"] = f"@armor_clash.dir.{G.DIR_NAMES[p['facing']]}"
        if "reason" in p:
            ns = {"rage": "rage_reason", "game_over": "outcome"}.get(k, "reason")
            p["reason"] = f"@armor_clash.{ns}.{p['reason']}"
        if "cell" in p and k == "moved":
            p["to"] = p.pop("cell")
        if "winners" in p:
            p["winners"] = ", ".join(name(w) for w in p["winners"]) or "-"
        return t(f"armor_clash.{k}", locale, **p)

    def _prompt(self, state: M.State, seat: str) -> Msg:
        p = state.pending.get(seat, Pending())
        u = R.unit_of_seat(state, seat)
        params: dict[str, Any] = {"turn": state.turn}
        if u is not None:
            m = R.veh(u)["max_move"]
            params.update(
                reload=u.reload_left,
                ammo=f"@armor_clash.ammo.{u.loaded}" if u.loaded else "-",  # its name in the reader's language
                cell=G.cell_name(u.x, u.y),
                max=m,
                short=m // 3,
                medium=(2 * m) // 3,
                pen=u.pen["move"],
            )
        return Msg(key=f"armor_clash.prompt.{p.step}", params=params)

    def _summary(self, state: M.State) -> Msg:
        boss = next((u for u in state.units if u.boss), None)
        if boss is not None and boss.card is not None:
            return Msg(
                key="armor_clash.summary.boss",
                params={"turn": state.turn, "rage": boss.card.rage, "waiting": len(self.to_act(state))},
            )
        obj = R.objective(state)
        if obj is not None:
            return Msg(
                key="armor_clash.summary.duel",
                params={"turn": state.turn, "waiting": len(self.to_act(state)), **_objective_params(state, obj)},
            )
        return Msg(key="armor_clash.summary.turn", params={"turn": state.turn, "waiting": len(self.to_act(state))})


def zone_name(obj: dict[str, Any]) -> str:
    """The zone's corner cells, e.g. ``F5-G6``."""
    xs = [int(c[0]) for c in obj["zone"]]
    ys = [int(c[1]) for c in obj["zone"]]
    return f"{G.cell_name(min(xs), min(ys))}-{G.cell_name(max(xs), max(ys))}"


def _objective_params(state: M.State, obj: dict[str, Any]) -> dict[str, Any]:
    scores = ", ".join(f"{seat} {state.points.get(seat, 0)}" for seat in state.seats)
    return {"zone": zone_name(obj), "goal": R.objective_goal(state, obj), "scores": scores}


def _objective_view(state: M.State) -> M.ObjectiveView | None:
    obj = R.objective(state)
    if obj is None:
        return None
    zone = sorted(R.zone_cells(obj), key=lambda c: (c[1], c[0]))
    held = R.holder(state)
    return M.ObjectiveView(
        zone=zone,
        cells=[G.cell_name(x, y) for x, y in zone],
        goal=R.objective_goal(state, obj),
        points={seat: state.points.get(seat, 0) for seat in state.seats},
        holder=held.seat if held is not None else None,
    )


def _code(value: Any) -> Any:
    """A schema-1 parameter back to its code: ``@armor_clash.ammo.HE`` -> ``HE``,
    ``@armor_clash.dir.NE`` -> 1; anything else (a unit label, a number) unchanged."""
    if isinstance(value, str) and value.startswith("@armor_clash."):
        ns, _, code = value.removeprefix("@armor_clash.").partition(".")
        if ns == "dir" and code in G.DIR_NAMES:
            return G.DIR_NAMES.index(code)
        if ns in ("ammo", "band", "reason", "rage_reason", "outcome", "crew", "pen", "turret", "dmg"):
            return code
    return value


def _clone_unit(u: Unit) -> Unit:
    """An independent copy of a unit (its nested plans, card and counters copied too)."""
    return u.model_copy(
        update={
            "injuries": dict(u.injuries),
            "pen": dict(u.pen),
            "move_plan": u.move_plan.model_copy() if u.move_plan else None,
            "rot_plan": u.rot_plan.model_copy() if u.rot_plan else None,
            "aim": u.aim.model_copy() if u.aim else None,
            "card": u.card.model_copy(update={"last_dirs": list(u.card.last_dirs), "cur_dirs": list(u.card.cur_dirs)})
            if u.card
            else None,
        }
    )


def _scenario_turns(scenario: str, mode: str) -> int:
    for s in content.campaign()["scenarios"]:
        if s["id"] == scenario:
            return int(s["max_turns"][mode])
    return int(content.tables()["max_turns_default"][mode])


def _order_params(order: Order, target: str | None) -> dict[str, Any]:
    out: dict[str, Any] = {k: v for k, v in order.model_dump(mode="json").items() if v is not None}
    if target:
        out["target"] = target
    if order.ammo:
        out["ammo"] = f"@armor_clash.ammo.{order.ammo}"
    if order.facing is not None:
        out["facing"] = f"@armor_clash.dir.{G.DIR_NAMES[order.facing]}"
    if order.turret_to is not None:
        out["turret_to"] = f"@armor_clash.dir.{G.DIR_NAMES[order.turret_to]}"
    return out

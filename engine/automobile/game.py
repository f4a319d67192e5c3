"""Automobile (汽车传奇): the Game subclass that wires models, rules, content and AI.

The rules are in ``rules.py``; this module adds loading (migration, validation,
rig names), the typed views and the presentation hooks.
"""

from __future__ import annotations

from typing import Any

from ..base import Game, GameCommand, Msg, Outcome, RigSpec, SeatLabels, bad_state
from ..i18n import t
from ..rng import Rng
from . import content as C
from . import orders as O
from . import rules as R
from .models import (
    Action,
    AutoEv,
    AutoEvent,
    AutoState,
    CharacterView,
    ExecView,
    Options,
    PlayerView,
    PublicView,
    SeatView,
    SpaceView,
)

CLASSES = C.CLASSES


class Automobile(Game[AutoState]):
    id = "automobile"
    schema_version = 2
    min_seats = 3
    max_seats = 5
    State = AutoState
    Action = Action
    Event = AutoEv
    Options = Options
    View = PublicView
    SeatView = SeatView
    private_view = True  # demand cards: each seat sees its own hand ("My view", /game view, /auto hand)
    record_key = "core.record.best_fortune"
    record_lower_is_better = False
    ai_levels = ("easy", "hard")
    command_group = "auto"
    commands = (
        GameCommand(
            name="hand", key="automobile.cmd.hand.desc", hook="hand_command", description="Your demand cards, privately"
        ),
    )

    # ============================================================== rules
    def _new(self, seats: list[str], options: Any, seed: int, rng: Rng) -> AutoState:
        return R.new_state(seats, seed, rng, self.schema_version, options.ruleset)

    def _legal(self, state: AutoState, seat: str) -> list[Any]:
        return R.legal(state, seat)

    def _check(self, state: AutoState, seat: str, action: Any) -> None:
        R.check(state, seat, action, R.legal(state, seat))

    def _apply(self, state: AutoState, seat: str, action: Any) -> list[Any]:
        return R.apply(state, seat, action)

    def _copy(self, state: AutoState) -> AutoState:
        """Field by field: every container fresh, nothing re-validated, several times
        faster than a JSON round trip."""
        return copy_auto(state)

    def _to_act(self, state: AutoState) -> list[str]:
        return R.to_act(state)

    def _outcome(self, state: AutoState) -> Outcome | None:
        if not state.finished:
            return None
        best = max(state.scores.values())
        winners = [s for s in state.seats if state.scores[s] == best]
        return Outcome(
            winners=winners,
            scores={s: float(v) for s, v in state.scores.items()},
            reason=Msg(key="automobile.outcome.money", params={"money": best}),
        )

    def _migrate_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """Tables store their options with every default filled in, so stored options that
        name no ``ruleset`` belong to a table created before rules 2: it replays under
        ruleset 1, the rules it was played under."""
        return options if "ruleset" in options else {**options, "ruleset": 1}

    # ===================================================== stored states
    def _migrate(self, data: dict[str, Any], version: int) -> dict[str, Any]:
        if version == 1:
            # schema 2: phase 6 goes round until everyone passed, closing removes a space's cars;
            # a game begun under schema 1 keeps its rules (ruleset 1) so its stored log replays
            data.pop("exec_done", None)
            data["ruleset"] = 1
        return data

    def _validate(self, state: AutoState) -> None:
        problem = R.first_problem(state)
        if problem:
            field, _, detail = problem.partition(": ")
            raise bad_state(field, detail)

    def _rigs(self) -> dict[str, RigSpec]:
        tiles = sorted(set(C.rules()["demand_tiles"]))
        return {
            "seat_order": RigSpec(
                kind="deck",
                values=[f"p{i}" for i in range(1, 6)],
                doc="seat ids (as tables name them, p1-p5) first in round 1's selection order",
            ),
            "deck.demand": RigSpec(
                kind="choice",
                values=tiles,
                doc="demand card values (2-5) of the next deal, in selection order, from the bag",
            ),
            "demand.extra": RigSpec(
                kind="choice",
                values=tiles,
                doc="phase 7's extra demand cards from the bag (round 3: high; round 4: high, then low)",
            ),
        }

    def _migrate_event(self, data: dict[str, Any]) -> dict[str, Any]:
        """Schema-1 events (one catch-all model with every field) as their typed models."""
        return legacy_event(data)

    # ============================================================== views
    def _view(self, state: AutoState, seat: str | None) -> dict[str, Any]:
        return view_fields(state, seat)

    # ======================================================= presentation
    def _action_label(self, state: AutoState, action: Any, locale: str | None, labels: SeatLabels | None) -> str:
        return action_label(state, action, locale)

    def _event_text(self, event: Any, locale: str | None, labels: SeatLabels | None) -> str:
        return event_text(event, locale, labels)

    def _prompt(self, state: AutoState, seat: str) -> Msg:
        if seat not in R.to_act(state):
            return Msg(key="automobile.prompt.wait")
        p = state.pending
        if p is not None:
            params: dict[str, Any] = {"left": p.left}
            if p.kind == "produce" and p.queue:
                i = p.queue[0]
                cls = C.board()[i]["cls"]
                lo, hi = C.production_range(cls, state.spaces[i].factories)
                params.update(name=f"@automobile.space.{i}", lo=lo, hi=hi, cost=C.car_cost(cls, state.spaces[i].parts))
            return Msg(key=f"automobile.prompt.{p.kind}", params=params)
        key = {R.PHASE_SELECT: "select", R.PHASE_ACTIONS: "action", R.PHASE_DIST: "dist", R.PHASE_EXEC: "exec"}.get(
            state.phase, "wait"
        )
        return Msg(
            key=f"automobile.prompt.{key}",
            params={
                "n": state.turn // len(state.seats) + 1,
                "money": state.players[seat].money,
                "passed": len(state.pass_order),
            },
        )

    def _summary(self, state: AutoState) -> Msg:
        if state.finished:
            return Msg(key="automobile.summary.over")
        return Msg(
            key="automobile.summary.round", params={"round": state.round, "phase": f"@automobile.phase.{state.phase}"}
        )

    def _private_summary(self, state: AutoState, seat: str) -> Msg | None:
        hand = state.players[seat].hand if seat in state.players else []
        return Msg(key="automobile.private.hand", params={"cards": ", ".join(map(str, hand)) or "-"})

    def hand_command(self, state: AutoState, seat: str | None, locale: str | None, labels: SeatLabels | None) -> Msg:
        """/auto hand: the caller's demand cards, privately (the same line as the private view's)."""
        assert seat is not None  # the command needs a seat (GameCommand.needs_seat)
        return self._private_summary(state, seat) or Msg(key="automobile.private.hand", params={"cards": "-"})

    # ============================================================ platform
    def _hidden_revealed(self, before: AutoState, after: AutoState) -> bool:
        """Phase 7 turns the demand cards face up (no die involved): an undo past
        the reveal, or past a new deal, needs the other players' consent."""
        return (
            before.revealed_round != after.revealed_round
            or before.revealed != after.revealed
            or any(before.players[s].hand != after.players[s].hand for s in after.seats)
        )

    def _record(self, state: AutoState, seat: str) -> float | None:
        return float(state.scores[seat]) if state.finished and seat in state.scores else None

    # ====================================================== standing orders
    def _order_kinds(self, state: AutoState, seat: str) -> list[Any]:
        return O.order_kinds(state, seat)

    def _order_marker(self, state: AutoState, scope: str) -> str:
        return O.order_marker(state, scope)

    def _order_step(self, state: AutoState, seat: str, order: Any, legal: list[Any]) -> Any:
        return O.order_step(state, seat, order, legal)

    # ================================================================== AI
    def _ai_action(self, state: AutoState, seat: str, level: str, legal: list[Any]) -> Any:
        from . import ai

        choice = ai.choose_hard(state, seat) if level == "hard" else ai.choose(state, seat)
        for a in legal:  # the object from the legal list: apply then does not recompute it
            if a == choice:
                return a
        return choice


# ====================================================================== helpers
_new_object = object.__new__
_set = object.__setattr__


def _clone(m: Any) -> Any:
    """A shallow copy of a pydantic model without pydantic's copy machinery (the fields'
    containers are shared: callers replace the mutable ones)."""
    new = _new_object(type(m))
    _set(new, "__dict__", m.__dict__.copy())
    _set(new, "__pydantic_fields_set__", set(m.__pydantic_fields_set__))
    _set(new, "__pydantic_extra__", None)
    _set(new, "__pydantic_private__", None)
    return new


def copy_auto(s: AutoState) -> AutoState:
    """A deep copy of an Automobile state: every list, dict and model in it is fresh."""
    new = _clone(s)
    d = new.__dict__
    d["seats"] = list(s.seats)
    rng = _clone(s.rng)
    rng.__dict__["rig"] = {k: list(v) for k, v in s.rng.rig.items()}
    d["rng"] = rng
    players = {}
    for k, p in s.players.items():
        q = _clone(p)
        qd = q.__dict__
        qd["hand"] = list(p.hand)
        qd["dist"] = dict(p.dist)
        qd["dist_used"] = dict(p.dist_used)
        qd["dist_lane"] = dict(p.dist_lane)
        players[k] = q
    d["players"] = players
    d["spaces"] = [_clone(sp) for sp in s.spaces]
    if s.pending is not None:
        pend = _clone(s.pending)
        pend.__dict__["queue"] = list(s.pending.queue)
        d["pending"] = pend
    for name in ("selection_order", "action_order", "bag", "bonus_left", "discount_left", "pass_order"):
        d[name] = list(d[name])
    for name in ("char_rd", "taken", "demand", "scores"):
        d[name] = dict(d[name])
    for name in ("lanes", "revealed", "extra"):
        d[name] = {k: list(v) for k, v in d[name].items()}
    return new


_LEGACY_RENAMES: dict[str, dict[str, str]] = {
    "round_start": {"n": "round"},
    "round_end": {"n": "round"},
    "pick": {"text": "character", "n": "rd"},
    "build": {"value": "rd"},
    "close": {"value": "discarded"},
    "howard_sale": {"value": "price"},
    "dist_sale": {"cls": "lane", "text": "src", "value": "price"},
    "dist_unused": {"value": "points"},
    "bonus_bought": {"n": "price"},
    "demand_sale": {"value": "price"},
    "unsold": {"value": "points"},
    "loss_fee": {"value": "rate"},
    "interest": {"value": "rate"},
    "arrears": {"value": "amount"},
    "game_end": {"value": "best"},
}


def legacy_event(e: dict[str, Any]) -> dict[str, Any]:
    """A schema-1 event (the catch-all ``Ev``: every field present) as its typed model."""
    if "text" not in e and "detail" not in e and "value" not in e:
        return e  # already typed
    kind = str(e.get("kind"))
    out: dict[str, Any] = {"kind": kind, "to": e.get("to"), "seat": e.get("seat"), "delta": e.get("delta", 0)}
    for old, new in _LEGACY_RENAMES.get(kind, {}).items():
        out[new] = e.get(old)
    if kind == "action_order":
        out["order"] = [x for x in str(e.get("text") or "").split(",") if x]
    elif kind == "game_end":
        out["winners"] = [x for x in str(e.get("text") or "").split(",") if x]
    elif kind == "demand_revealed":
        detail = e.get("detail") or {}
        out["hands"] = {k: v for k, v in detail.items() if not k.startswith("+")}
        out["extra"] = {k[1:]: v for k, v in detail.items() if k.startswith("+")}
        out["demand"] = {k: int(v) for k, v in (x.split("=") for x in str(e.get("text") or "").split(",") if "=" in x)}
    model = _EVENT_FIELDS.get(kind, set())
    for name in model:
        if name not in out and name in e:
            out[name] = e[name]
    return {k: v for k, v in out.items() if k in model}


def _event_fields() -> dict[str, set[str]]:
    from typing import get_args

    from . import models

    out = {}
    for cls in get_args(models.AnyEvent):
        out[cls.model_fields["kind"].default] = set(cls.model_fields)
    return out


_EVENT_FIELDS = _event_fields()


def view_fields(s: AutoState, seat: str | None) -> dict[str, Any]:
    """The game's fields of the view (the base adds game, viewer, step, seats, to_act, labels)."""
    board = C.board()
    Rl = C.rules()
    pieces = Rl["pieces"]
    players = {}
    for k in s.seats:
        p = s.players[k]
        players[k] = PlayerView(
            money=p.money,
            rd=p.rd,
            loans=p.loans,
            losses=p.losses,
            arrears=p.arrears,
            character=p.character,
            dist=dict(p.dist),
            dist_supply=p.dist_supply,
            dist_used=dict(p.dist_used),
            hand_count=len(p.hand),
            bankrupt=p.bankrupt,
            cars_supply=pieces["cars_per_player"] - R.cars_on_board(s, k),
            factories_supply=pieces["factories_per_player"] - R.factories_owned(s, k),
        )
    spaces = [
        SpaceView(
            id=i,
            year=b["year"],
            name=b["name"],
            cls=b["cls"],
            era=b["era"],
            cost=b["cost"],
            owner=sp.owner,
            factories=sp.factories,
            parts=sp.parts,
            closed=sp.closed,
            cars=sp.cars,
            bonus=sp.bonus,
            discount=sp.discount,
        )
        for i, (b, sp) in enumerate(zip(board, s.spaces))
    ]
    fields: dict[str, Any] = dict(
        round=s.round,
        phase=s.phase,
        current=s.current,
        selection_order=list(s.selection_order),
        action_order=list(s.action_order),
        turn=s.turn,
        players=players,
        spaces=spaces,
        characters={c: CharacterView(seat=s.taken.get(c), rd=s.char_rd.get(c, 0)) for c in C.characters()},
        lanes={c: list(v) for c, v in s.lanes.items()},
        lane_capacity=R.lane_capacity(s),
        boxes_open=[b["label"] for b in Rl["sales_boxes"] if b["from_round"] <= s.round],
        exec=ExecView(
            close=s.exec_close, bonus=list(s.bonus_left), discount=list(s.discount_left), passed=list(s.pass_order)
        ),
        pending=s.pending.model_copy(deep=True) if s.pending else None,
        revealed={k: list(v) for k, v in s.revealed.items()},
        extra={k: list(v) for k, v in s.extra.items()},
        demand=dict(s.demand),
        revealed_round=s.revealed_round,
        finished=s.finished,
        scores=dict(s.scores),
        loss_fee=int(Rl["loss_fee"].get(str(s.round), 0)),
    )
    if seat is not None and seat in s.players:
        fields["hand"] = list(s.players[seat].hand)
    return fields


def action_label(state: AutoState, action: Any, locale: str | None) -> str:
    params: dict[str, Any] = action.model_dump(mode="json")
    params.pop("kind", None)
    board = C.board()
    if "space" in params:
        i = params["space"]
        params["name"] = C.space_name(i, locale)
        params["cls_name"] = t(f"automobile.cls.{board[i]['cls']}", locale)
        params["cost"] = board[i]["cost"]
        params["fee"] = R.jump_fee(state, i)
        if action.kind == "produce":
            params["money"] = action.count * C.car_cost(board[i]["cls"], state.spaces[i].parts)
            if action.count == 0:
                return t("automobile.action.produce_none", locale, **params)
        if action.kind == "close":
            params["refund"] = R.close_refund(state, i)
            params["cars"] = state.spaces[i].cars
            if state.spaces[i].cars and state.ruleset >= 2:
                return t("automobile.action.close_with_cars", locale, **params)
    if action.kind == "dist_move":
        params["price"] = C.rules()["price"][action.lane]
    for key in ("cls", "src", "lane"):
        if key in params:
            params[key] = t(f"automobile.cls.{params[key]}", locale)
    if action.kind == "pick":
        params["character"] = t(f"automobile.char.{action.character}", locale)
        params["rd"] = state.char_rd.get(action.character, 0)
    if action.kind in ("act", "exec"):
        return t(
            f"automobile.action.{action.kind}.{params.get('what') or params.get('choice')}",
            locale,
            price=state.bonus_left[0] if state.bonus_left else 0,
        )
    if action.kind == "build_count" and state.pending and state.pending.space is not None:
        params["money"] = action.count * board[state.pending.space]["cost"]
        params["rd"] = action.count * R.jump_fee(state, state.pending.space)
        if not params["rd"]:
            return t("automobile.action.build_count_free", locale, **params)
    if action.kind == "build_space" and not params["fee"]:
        return t("automobile.action.build_space_free", locale, **params)
    return t(f"automobile.action.{action.kind}", locale, **params)


def _name(seat: str | None, labels: SeatLabels | None) -> str | None:
    if seat is None:
        return None
    lab = (labels or {}).get(seat)
    return lab.name if lab else seat


def event_text(event: AutoEvent, locale: str | None = None, labels: SeatLabels | None = None) -> str:
    """The log line of a typed event, in ``locale``; seats named through ``labels``."""
    params: dict[str, Any] = event.model_dump(mode="json", exclude={"kind", "to"})
    params["seat"] = _name(event.seat, labels)
    space = getattr(event, "space", None)
    if space is not None:
        params["name"] = C.space_name(space, locale)
    for key in ("cls", "lane", "src"):
        if isinstance(params.get(key), str):
            params[key] = t(f"automobile.cls.{params[key]}", locale)
    kind = event.kind
    if kind == "pick":
        params["character"] = t(f"automobile.char.{params['character']}", locale)
    elif kind == "demand_drawn":
        params["cards"] = ", ".join(str(c) for c in params["cards"])
    elif kind == "demand_revealed":
        parts = [f"{_name(k, labels)}: {', '.join(map(str, v))}" for k, v in params["hands"].items()]
        parts += [f"+{t(f'automobile.cls.{k}', locale)}: {', '.join(map(str, v))}" for k, v in params["extra"].items()]
        params["cards"] = "; ".join(parts)
        params["demand"] = ", ".join(
            f"{t(f'automobile.cls.{c}', locale)} {params['demand'].get(c, 0)}" for c in CLASSES
        )
    elif kind == "action_order":
        params["order"] = ", ".join(_name(x, labels) or x for x in params["order"])
    elif kind == "game_end":
        params["count"] = len(params["winners"])
        params["winners"] = ", ".join(_name(x, labels) or x for x in params["winners"])
        return t("automobile.event.game_end", locale, **params)
    if kind == "close" and params.get("cars"):
        kind = "close_with_cars"
    params["money"] = abs(event.delta)
    return t(f"automobile.event.{kind}", locale, **params)

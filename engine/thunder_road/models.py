"""State, options, actions and events of Thunder Road: Vendetta."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field

from ..base import BaseState, Event, Model

GAME_ID = "thunder_road"

# ------------------------------------------------------------------ options


class Options(Model):
    start_face: Literal["a", "b", "random"] = Field(
        "random", description="Start tile face: a = The Parking Lot, b = Runway to Ruin, random = roll for it"
    )
    big_rig: bool = Field(False, description="Big Rig crew (Big Rig and the Final Five) takes the last seat")
    final_five: bool = Field(False, description="Final Five motorbike crew takes the last (or second-to-last) seat")
    on_fire: bool = Field(False, description="Maximum Chrome ON FIRE! damage tokens, fire hazards and the fire die")


# ------------------------------------------------------------------ state


class Vehicle(Model):
    id: str
    owner: str | None = None  # None for wrecks
    kind: Literal["car", "wreck", "rig", "bike"]
    name: str  # small / medium / large / rig / bike1.. / wreck
    size: str  # key of crews.json size_rank
    shoot_size: str  # what the shooting die must show
    capacity: int = 2  # damage slots
    minor: bool = False  # minor damage (no token effects)
    where: Literal["start", "road", "gone"] = "start"
    pos: list[int] | None = None  # [column, doubled row] while on the road
    damage: list[str] = Field(default_factory=list)
    moved: bool = False  # had its normal move this round
    coasts: int = 0  # coasts used this round
    on_fire: bool = False


class Crew(Model):
    seat: str
    crew: str  # base colour, "big_rig" or "final_five"
    colour: str
    dice: list[int] = Field(default_factory=list)  # unused movement dice
    used: list[int] = Field(default_factory=list)  # dice placed this round
    command_used: bool = False
    turns: int = 0
    chopper: list[int] | None = None  # None = in front of its owner
    has_chopper: bool = True
    rig_turns: int | None = None  # Big Rig: turns (diagonal steps) left this round
    out: bool = False


class Hazard(Model):
    """A hazard token on the road.  Frozen: flipping it puts a new token in its place,
    so copies of a state can share the tokens."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    type: str
    up: bool = False


class Pending(Model):
    seat: str
    stage: Literal["assign", "command", "air_row", "air_space", "chopper_shoot", "enter", "step", "bonus", "shoot"]
    car: str | None = None
    die: int | None = None
    coast: bool = False
    moves: int = 0
    nitro: int = 0
    drift: bool = False
    traction: bool = False
    bonus_ok: bool = False
    in_bonus: bool = False
    row: int | None = None


class RerollQuestion(Model):
    """A slam waiting for the larger vehicle's owner: demand a reroll or not.

    The action that led to it is replayed from ``snapshot`` with the answers so
    far (the RNG is part of the snapshot, so the same dice come up again)."""

    asker: str
    seat: str
    action: dict[str, Any]
    decisions: list[bool] = Field(default_factory=list)
    snapshot: dict[str, Any]
    top: str
    bottom: str
    slam: str
    direction: str
    info: dict[str, str] = Field(default_factory=dict)
    events_seen: int = 0


class TRState(BaseState):
    options: Options
    crews: list[Crew]
    vehicles: list[Vehicle]
    tiles: list[str]  # face ids of [rear, middle, lead]
    deck: list[str]  # face ids, top first (hidden)
    tiles_placed: int = 3
    final: bool = False  # the lead tile is the final road (finish line in front)
    hazards: dict[str, Hazard] = Field(default_factory=dict)  # "c,y" -> token
    hazard_pile: list[str] = Field(default_factory=list)
    hazard_discard: list[str] = Field(default_factory=list)
    damage_pile: list[str] = Field(default_factory=list)
    wrecks_left: int = 4
    next_id: int = 1
    round: int = 1
    starter: str = ""
    road_die: int = 0
    current: str | None = None
    pending: Pending | None = None
    reroll: RerollQuestion | None = None
    out_order: list[list[str]] = Field(default_factory=list)
    winners: list[str] | None = None
    end_reason: str | None = None


# ------------------------------------------------------------------ actions


class Assign(Model):
    kind: Literal["assign"] = "assign"
    car: str
    die: int
    coast: bool = False


class Pass(Model):
    """Decline to coast (only when coasting is the one thing left: coasting is a "may")."""

    kind: Literal["pass"] = "pass"


class Command(Model):
    kind: Literal["command"] = "command"
    command: Literal["none", "airstrike", "nitro", "drift", "repair", "traction_drive", "patch_up"]
    die: int = 0
    car: str | None = None


class AirRow(Model):
    kind: Literal["air_row"] = "air_row"
    row: int


class AirSpace(Model):
    kind: Literal["air_space"] = "air_space"
    col: int


class Enter(Model):
    kind: Literal["enter"] = "enter"
    col: int
    then: Literal["nw", "n", "ne"] | None = None  # drifting through an occupied entry space
    mark: str = ""


class Step(Model):
    kind: Literal["step"] = "step"
    dir: Literal["nw", "n", "ne"]
    then: Literal["nw", "n", "ne"] | None = None  # drifting: the step out of the occupied space
    mark: str = ""


class Bonus(Model):
    kind: Literal["bonus"] = "bonus"
    take: bool


class Reroll(Model):
    kind: Literal["reroll"] = "reroll"
    demand: bool


class Shoot(Model):
    kind: Literal["shoot"] = "shoot"
    target: str | None = None  # None = hold fire


Action = Annotated[
    Assign | Pass | Command | AirRow | AirSpace | Enter | Step | Bonus | Reroll | Shoot, Field(discriminator="kind")
]

# ------------------------------------------------------------------ events

EVENT_KINDS = Literal[
    "setup",
    "setup_roll",
    "first_player",
    "round",
    "road_die",
    "turn",
    "turn_skipped",
    "assign",
    "coast",
    "command",
    "airstrike",
    "repair",
    "restored",
    "fire_roll",
    "enter",
    "step",
    "drift_through",
    "bonus",
    "bonus_declined",
    "hazard",
    "oil",
    "wreck_placed",
    "no_wreck",
    "plough",
    "slam",
    "slam_roll",
    "reroll",
    "reroll_asked",
    "pushed",
    "shoot",
    "hit",
    "miss",
    "damage",
    "minor_damage",
    "damage_ignored",
    "shrapnel",
    "shrapnel_none",
    "skid",
    "dazed",
    "blast",
    "on_fire",
    "inoperable",
    "eliminated",
    "wreck_removed",
    "extend",
    "tile",
    "finish_line",
    "player_out",
    "finish",
    "last_standing",
    "game_over",
    "chopper_returned",
    "stop",
    "pass",
]


class TREvent(Event):
    kind: EVENT_KINDS
    params: dict[str, Any] = Field(default_factory=dict)


# ------------------------------------------------------------------ fast copy

_new = object.__new__
_set = object.__setattr__


def _make(cls: type[Model], data: dict[str, Any], fields_set: set[str]) -> Any:
    obj = _new(cls)
    _set(obj, "__dict__", data)
    _set(obj, "__pydantic_fields_set__", set(fields_set))
    _set(obj, "__pydantic_extra__", None)
    _set(obj, "__pydantic_private__", None)
    return obj


def _clone_vehicle(v: Vehicle) -> Vehicle:
    d = v.__dict__.copy()
    if d["pos"] is not None:
        d["pos"] = d["pos"][:]
    d["damage"] = d["damage"][:]
    return _make(Vehicle, d, v.__pydantic_fields_set__)


def _clone_crew(c: Crew) -> Crew:
    d = c.__dict__.copy()
    d["dice"] = d["dice"][:]
    d["used"] = d["used"][:]
    if d["chopper"] is not None:
        d["chopper"] = d["chopper"][:]
    return _make(Crew, d, c.__pydantic_fields_set__)


#: the fields each fast copy knows about (a test checks them against the models,
#: so a new mutable field cannot be shared between a state and its copy unnoticed)
CLONED_FIELDS: dict[str, set[str]] = {
    "Vehicle": {"pos", "damage"},
    "Crew": {"dice", "used", "chopper"},
    "TRState": {
        "seats",
        "rng",
        "options",
        "crews",
        "vehicles",
        "tiles",
        "deck",
        "hazards",
        "hazard_pile",
        "hazard_discard",
        "damage_pile",
        "pending",
        "reroll",
        "out_order",
        "winners",
    },
}


def clone(st: TRState) -> TRState:
    """An independent copy of a state, ~2.5x faster than a pydantic round trip
    (the engine copies the state on every action).  Scalars are shared (immutable),
    every list, dict and sub-model is new."""
    d = st.__dict__.copy()
    d["seats"] = d["seats"][:]
    r = d["rng"]
    d["rng"] = _make(type(r), {"state": r.state, "rig": {k: v[:] for k, v in r.rig.items()}}, r.__pydantic_fields_set__)
    o = d["options"]
    d["options"] = _make(Options, o.__dict__.copy(), o.__pydantic_fields_set__)
    d["crews"] = [_clone_crew(c) for c in d["crews"]]
    d["vehicles"] = [_clone_vehicle(v) for v in d["vehicles"]]
    for k in ("tiles", "deck", "hazard_pile", "hazard_discard", "damage_pile"):
        d[k] = d[k][:]
    d["hazards"] = d["hazards"].copy()  # the tokens are frozen
    p = d["pending"]
    if p is not None:
        d["pending"] = _make(Pending, p.__dict__.copy(), p.__pydantic_fields_set__)
    if d["reroll"] is not None:
        d["reroll"] = RerollQuestion.model_validate(d["reroll"].model_dump())
    d["out_order"] = [x[:] for x in d["out_order"]]
    if d["winners"] is not None:
        d["winners"] = d["winners"][:]
    return _make(TRState, d, st.__pydantic_fields_set__)

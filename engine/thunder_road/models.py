"""State, options, actions and events of Thunder Road: Vendetta."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import ConfigDict, Field

from ..base import SEAT_REF, BaseState, Event, Model, OptSeatId, SeatId, View, rebuilt

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
#
# One model per event kind, in a discriminated union on ``kind``.  Fields hold plain
# values (a direction, a vehicle name, a seat); ``event_text`` turns the fields listed
# in ``refs`` into catalog names and the fields in ``seat_fields`` into seat labels.
# Logs stored before the typed events had one generic event with a ``params`` dict
# holding catalog references ("@thunder_road.dir.ne"); ``legacy_event`` reads those.

Dir = Literal["n", "ne", "se", "s", "sw", "nw"]
CommandName = Literal["airstrike", "nitro", "drift", "repair", "traction_drive", "patch_up"]
Reason = Literal["off_side", "off_rear", "off_front", "impassable", "rear_tile", "chopper", "wreck_hit"]
EndReason = Literal["finish", "last_standing"]
_LEGACY_DROP = {"type"}  # duplicated the token type in schema-1 logs


class TREventBase(Event):
    #: field -> catalog section (``thunder_road.<section>.<value>``) for the log text
    refs: ClassVar[dict[str, str]] = {}
    #: fields naming seats (typed ``SeatId`` / ``OptSeatId``, or ``list[SeatId]``): shown by their labels
    seat_fields: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        cls.seat_fields = tuple(
            name
            for name, info in cls.model_fields.items()
            if any(m is SEAT_REF for m in info.metadata) or "SeatRef" in repr(info.annotation)
        )


class _Car(TREventBase):
    """An event about one vehicle: its id, its name (small/medium/large/rig/bikeN/wreck), its owner."""

    vid: str
    car: str
    owner: OptSeatId = None
    refs: ClassVar[dict[str, str]] = {"car": "vehicle"}


class SetupEvent(TREventBase):
    kind: Literal["setup"] = "setup"
    start: str
    mid: str
    lead: str


class SetupRollEvent(TREventBase):
    kind: Literal["setup_roll"] = "setup_roll"
    seat: SeatId
    dice: list[int]
    total: int


class FirstPlayerEvent(TREventBase):
    kind: Literal["first_player"] = "first_player"
    seat: SeatId


class RoundEvent(TREventBase):
    kind: Literal["round"] = "round"
    round: int
    seat: SeatId


class RoadDieEvent(TREventBase):
    kind: Literal["road_die"] = "road_die"
    seat: SeatId
    value: int


class TurnEvent(TREventBase):
    kind: Literal["turn"] = "turn"
    seat: SeatId
    round: int
    turn: int


class TurnSkippedEvent(TREventBase):
    kind: Literal["turn_skipped"] = "turn_skipped"
    seat: SeatId


class PassEvent(TREventBase):
    kind: Literal["pass"] = "pass"
    seat: SeatId


class AssignEvent(_Car):
    kind: Literal["assign"] = "assign"
    die: int


class CoastEvent(_Car):
    kind: Literal["coast"] = "coast"
    die: int


class CommandEvent(TREventBase):
    kind: Literal["command"] = "command"
    seat: SeatId
    command: CommandName
    die: int
    refs: ClassVar[dict[str, str]] = {"command": "command"}


class AirstrikeEvent(TREventBase):
    kind: Literal["airstrike"] = "airstrike"
    seat: SeatId
    col: int  # 1-based, as shown
    row: int


class RepairEvent(_Car):
    kind: Literal["repair"] = "repair"


class RestoredEvent(_Car):
    kind: Literal["restored"] = "restored"


class FireRollEvent(_Car):
    kind: Literal["fire_roll"] = "fire_roll"
    face: str
    refs: ClassVar[dict[str, str]] = {"car": "vehicle", "face": "fireface"}


class EnterEvent(_Car):
    kind: Literal["enter"] = "enter"
    col: int  # 1-based


class StepEvent(_Car):
    kind: Literal["step"] = "step"
    dir: Dir
    refs: ClassVar[dict[str, str]] = {"car": "vehicle", "dir": "dir"}


class DriftThroughEvent(_Car):
    kind: Literal["drift_through"] = "drift_through"
    other: str


class BonusEvent(_Car):
    kind: Literal["bonus"] = "bonus"
    n: int


class BonusDeclinedEvent(_Car):
    kind: Literal["bonus_declined"] = "bonus_declined"


class HazardEvent(_Car):
    kind: Literal["hazard"] = "hazard"
    token: str
    refs: ClassVar[dict[str, str]] = {"car": "vehicle", "token": "token"}


class OilEvent(_Car):
    kind: Literal["oil"] = "oil"
    dir: Dir
    refs: ClassVar[dict[str, str]] = {"car": "vehicle", "dir": "dir"}


class WreckPlacedEvent(_Car):
    kind: Literal["wreck_placed"] = "wreck_placed"


class NoWreckEvent(TREventBase):
    kind: Literal["no_wreck"] = "no_wreck"


class PloughEvent(_Car):
    kind: Literal["plough"] = "plough"
    token: str
    refs: ClassVar[dict[str, str]] = {"car": "vehicle", "token": "token"}


class SlamEvent(TREventBase):
    kind: Literal["slam"] = "slam"
    top: str
    bottom: str
    top_car: str
    bottom_car: str
    top_owner: OptSeatId = None
    bottom_owner: OptSeatId = None
    refs: ClassVar[dict[str, str]] = {"top_car": "vehicle", "bottom_car": "vehicle"}


class SlamRollEvent(TREventBase):
    kind: Literal["slam_roll"] = "slam_roll"
    slam: str
    dir: Dir
    refs: ClassVar[dict[str, str]] = {"slam": "slamface", "dir": "dir"}


class RerollEvent(TREventBase):
    kind: Literal["reroll"] = "reroll"
    seat: SeatId
    slam: str
    dir: Dir
    refs: ClassVar[dict[str, str]] = {"slam": "slamface", "dir": "dir"}


class RerollAskedEvent(TREventBase):
    kind: Literal["reroll_asked"] = "reroll_asked"
    seat: SeatId
    slam: str
    dir: Dir
    pushed: str
    owner: OptSeatId = None
    result: str
    refs: ClassVar[dict[str, str]] = {"slam": "slamface", "dir": "dir", "pushed": "vehicle", "result": "mark"}


class PushedEvent(_Car):
    kind: Literal["pushed"] = "pushed"
    dir: Dir
    refs: ClassVar[dict[str, str]] = {"car": "vehicle", "dir": "dir"}


class ShootEvent(_Car):
    """``vid``/``car``/``owner`` name the shooter (``car`` = "chopper" for an airstrike shot)."""

    kind: Literal["shoot"] = "shoot"
    face: str
    target: str
    target_car: str
    target_owner: OptSeatId = None
    refs: ClassVar[dict[str, str]] = {"car": "vehicle", "face": "shootface", "target_car": "vehicle"}


class HitEvent(_Car):
    kind: Literal["hit"] = "hit"


class MissEvent(_Car):
    kind: Literal["miss"] = "miss"


class DamageEvent(_Car):
    kind: Literal["damage"] = "damage"
    token: str
    refs: ClassVar[dict[str, str]] = {"car": "vehicle", "token": "token"}


class MinorDamageEvent(_Car):
    kind: Literal["minor_damage"] = "minor_damage"
    n: int
    cap: int


class DamageIgnoredEvent(_Car):
    kind: Literal["damage_ignored"] = "damage_ignored"


class ShrapnelEvent(_Car):
    kind: Literal["shrapnel"] = "shrapnel"
    dir: Dir
    target: str
    target_car: str
    target_owner: OptSeatId = None
    refs: ClassVar[dict[str, str]] = {"car": "vehicle", "dir": "dir", "target_car": "vehicle"}


class ShrapnelNoneEvent(_Car):
    kind: Literal["shrapnel_none"] = "shrapnel_none"
    dir: Dir
    refs: ClassVar[dict[str, str]] = {"car": "vehicle", "dir": "dir"}


class SkidEvent(_Car):
    kind: Literal["skid"] = "skid"
    dir: Dir
    refs: ClassVar[dict[str, str]] = {"car": "vehicle", "dir": "dir"}


class DazedEvent(_Car):
    kind: Literal["dazed"] = "dazed"
    n: int


class BlastEvent(_Car):
    kind: Literal["blast"] = "blast"
    dir: Dir
    n: int
    refs: ClassVar[dict[str, str]] = {"car": "vehicle", "dir": "dir"}


class OnFireEvent(_Car):
    kind: Literal["on_fire"] = "on_fire"


class InoperableEvent(_Car):
    kind: Literal["inoperable"] = "inoperable"


class StopEvent(_Car):
    kind: Literal["stop"] = "stop"


class EliminatedEvent(_Car):
    kind: Literal["eliminated"] = "eliminated"
    reason: Reason
    refs: ClassVar[dict[str, str]] = {"car": "vehicle", "reason": "reason"}


class WreckRemovedEvent(_Car):
    kind: Literal["wreck_removed"] = "wreck_removed"
    reason: Reason
    refs: ClassVar[dict[str, str]] = {"car": "vehicle", "reason": "reason"}


class ExtendEvent(TREventBase):
    kind: Literal["extend"] = "extend"
    tile: str  # name of the tile removed behind


class TileEvent(TREventBase):
    kind: Literal["tile"] = "tile"
    name: str
    number: int


class FinishLineEvent(TREventBase):
    kind: Literal["finish_line"] = "finish_line"
    tiles: int


class PlayerOutEvent(TREventBase):
    kind: Literal["player_out"] = "player_out"
    seat: SeatId


class FinishEvent(_Car):
    kind: Literal["finish"] = "finish"
    seat: SeatId


class LastStandingEvent(TREventBase):
    kind: Literal["last_standing"] = "last_standing"
    seat: SeatId


class ChopperReturnedEvent(TREventBase):
    kind: Literal["chopper_returned"] = "chopper_returned"
    seat: SeatId


class GameOverEvent(TREventBase):
    kind: Literal["game_over"] = "game_over"
    winners: list[SeatId]
    reason: EndReason
    refs: ClassVar[dict[str, str]] = {"reason": "end"}


EVENT_CLASSES: tuple[type[TREventBase], ...] = (
    SetupEvent,
    SetupRollEvent,
    FirstPlayerEvent,
    RoundEvent,
    RoadDieEvent,
    TurnEvent,
    TurnSkippedEvent,
    PassEvent,
    AssignEvent,
    CoastEvent,
    CommandEvent,
    AirstrikeEvent,
    RepairEvent,
    RestoredEvent,
    FireRollEvent,
    EnterEvent,
    StepEvent,
    DriftThroughEvent,
    BonusEvent,
    BonusDeclinedEvent,
    HazardEvent,
    OilEvent,
    WreckPlacedEvent,
    NoWreckEvent,
    PloughEvent,
    SlamEvent,
    SlamRollEvent,
    RerollEvent,
    RerollAskedEvent,
    PushedEvent,
    ShootEvent,
    HitEvent,
    MissEvent,
    DamageEvent,
    MinorDamageEvent,
    DamageIgnoredEvent,
    ShrapnelEvent,
    ShrapnelNoneEvent,
    SkidEvent,
    DazedEvent,
    BlastEvent,
    OnFireEvent,
    InoperableEvent,
    StopEvent,
    EliminatedEvent,
    WreckRemovedEvent,
    ExtendEvent,
    TileEvent,
    FinishLineEvent,
    PlayerOutEvent,
    FinishEvent,
    LastStandingEvent,
    ChopperReturnedEvent,
    GameOverEvent,
)
EVENT_BY_KIND: dict[str, type[TREventBase]] = {c.model_fields["kind"].default: c for c in EVENT_CLASSES}


def legacy_event(data: dict[str, Any]) -> dict[str, Any]:
    """A stored event in the shape of the first engine (``kind``, ``to``, ``params``: a dict
    of catalog references and ``"-"`` for a wreck's owner) as the typed model's fields;
    an event in the current shape is returned as it is."""
    if "params" not in data or data.get("kind") not in EVENT_BY_KIND:
        return data
    fields = EVENT_BY_KIND[data["kind"]].model_fields
    out = {k: v for k, v in data.items() if k != "params"}
    for k, v in (data.get("params") or {}).items():
        if k == "seats" and "winners" in fields:
            out["winners"] = [x for x in str(v).split(", ") if x]
        if k in _LEGACY_DROP or k not in fields:
            continue
        if isinstance(v, str) and v.startswith("@thunder_road."):
            v = v.rsplit(".", 1)[1]
        if v == "-" and k.endswith("owner"):
            v = None
        out[k] = v
    return out


TREvent = Annotated[
    SetupEvent
    | SetupRollEvent
    | FirstPlayerEvent
    | RoundEvent
    | RoadDieEvent
    | TurnEvent
    | TurnSkippedEvent
    | PassEvent
    | AssignEvent
    | CoastEvent
    | CommandEvent
    | AirstrikeEvent
    | RepairEvent
    | RestoredEvent
    | FireRollEvent
    | EnterEvent
    | StepEvent
    | DriftThroughEvent
    | BonusEvent
    | BonusDeclinedEvent
    | HazardEvent
    | OilEvent
    | WreckPlacedEvent
    | NoWreckEvent
    | PloughEvent
    | SlamEvent
    | SlamRollEvent
    | RerollEvent
    | RerollAskedEvent
    | PushedEvent
    | ShootEvent
    | HitEvent
    | MissEvent
    | DamageEvent
    | MinorDamageEvent
    | DamageIgnoredEvent
    | ShrapnelEvent
    | ShrapnelNoneEvent
    | SkidEvent
    | DazedEvent
    | BlastEvent
    | OnFireEvent
    | InoperableEvent
    | StopEvent
    | EliminatedEvent
    | WreckRemovedEvent
    | ExtendEvent
    | TileEvent
    | FinishLineEvent
    | PlayerOutEvent
    | FinishEvent
    | LastStandingEvent
    | ChopperReturnedEvent
    | GameOverEvent,
    Field(discriminator="kind"),
]


# ------------------------------------------------------------------ views
#
# What a seat (or the public channel) may see, and everything the renderer draws:
# render/thunder_road.py reads these models only (no engine content or geometry).


class BoardView(Model):
    """The table's geometry and terrain.  Positions everywhere are doubled hex coordinates
    ``[column, y]`` (``column + y`` even, y grows towards the front); global offset row ``r``
    of column ``c`` is ``y = 2r + c % 2``."""

    columns: int
    rows: int  # offset rows on the table (3 tiles)
    tile_rows: int  # offset rows per tile
    tiles: list[str]  # face ids, rear first
    tile_names: list[str]
    terrain: list[str]  # terrain[r][c]: R road, O off-road, M mud, X impassable, H hazard space
    lanes: list[str] = Field(default_factory=list)  # each column's name, as buttons name spaces ("C12")


class HazardView(Model):
    pos: list[int]
    up: bool
    type: str | None = None  # None while face down


class VehicleView(Model):
    id: str
    owner: str | None
    kind: Literal["car", "wreck", "rig", "bike"]
    name: str
    size: str
    where: Literal["start", "road"]
    pos: list[int] | None
    damage: int  # tokens are face down: only their number is public
    capacity: int
    operable: bool
    moved: bool
    coasts: int
    on_fire: bool


class CrewView(Model):
    seat: SeatId
    crew: str
    colour: str  # colour name (crews.json / board.json)
    colour_hex: str
    dice: list[int]
    used: list[int]
    command_used: bool
    turns: int
    chopper: list[int] | None
    out: bool
    rig_turns: int | None
    cars_left: int
    coasting: bool  # this crew's vehicles may coast (not the Big Rig)


class ChoiceView(Model):
    """A space the car to move may enter next, with its button mark."""

    pos: list[int]
    mark: str
    dir: str | None = None
    col: int | None = None


class RerollView(Model):
    asker: str
    top: str
    bottom: str
    slam: str
    direction: str
    top_car: str = ""
    bottom_car: str = ""
    top_owner: str = ""
    bottom_owner: str = ""
    pushed: str = ""
    pushed_owner: str = ""
    result: str = ""


class TRView(View):
    """The public view (a spectator, the channel's board).  The base adds ``game``,
    ``viewer``, ``step``, ``seats``, ``to_act`` and the seat ``labels``."""

    round: int
    starter: SeatId
    road_die: int
    current: OptSeatId
    tiles_placed: int
    final: bool
    board: BoardView
    hazards: list[HazardView]
    vehicles: list[VehicleView]  # vehicles still in play
    crews: list[CrewView]
    pending: Pending | None
    choices: list[ChoiceView]
    reroll: RerollView | None
    wrecks_left: int
    damage_pile: int
    hazard_pile: int
    deck: int
    winners: list[str] | None
    end_reason: str | None
    options: Options


class TRSeatView(TRView):
    """One seat's view.  Thunder Road has no private information, so it is the public view
    plus whether it is this seat's decision."""

    your_turn: bool = False


# ------------------------------------------------------------------ fast copy


def _clone_vehicle(v: Vehicle) -> Vehicle:
    d = v.__dict__.copy()
    if d["pos"] is not None:
        d["pos"] = d["pos"][:]
    d["damage"] = d["damage"][:]
    return rebuilt(v, d)


def _clone_crew(c: Crew) -> Crew:
    d = c.__dict__.copy()
    d["dice"] = d["dice"][:]
    d["used"] = d["used"][:]
    if d["chopper"] is not None:
        d["chopper"] = d["chopper"][:]
    return rebuilt(c, d)


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
    d["rng"] = rebuilt(r, {"state": r.state, "rig": {k: v[:] for k, v in r.rig.items()}})
    o = d["options"]
    d["options"] = rebuilt(o, o.__dict__.copy())
    d["crews"] = [_clone_crew(c) for c in d["crews"]]
    d["vehicles"] = [_clone_vehicle(v) for v in d["vehicles"]]
    for k in ("tiles", "deck", "hazard_pile", "hazard_discard", "damage_pile"):
        d[k] = d[k][:]
    d["hazards"] = d["hazards"].copy()  # the tokens are frozen
    p = d["pending"]
    if p is not None:
        d["pending"] = rebuilt(p, p.__dict__.copy())
    if d["reroll"] is not None:
        d["reroll"] = RerollQuestion.model_validate(d["reroll"].model_dump())
    d["out_order"] = [x[:] for x in d["out_order"]]
    if d["winners"] is not None:
        d["winners"] = d["winners"][:]
    return rebuilt(st, d)

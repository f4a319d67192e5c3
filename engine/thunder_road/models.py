"""State, options, actions and events of Thunder Road: Vendetta."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

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

"""Pydantic models of Armor Clash: options, state, actions and events."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, field_validator

from ..base import BaseState, Event, Model
from . import content

MODES = ("simple", "normal", "hard", "hell")
CREWS = ("recruit", "veteran", "legend", "hell")
AMMO = ("AP", "HEAT", "HE")


class Options(Model):
    mode: Literal["simple", "normal", "hard", "hell"] = Field(
        "normal", description="simple (2-stage) or normal (3-stage, turret system); hard and hell are not played here"
    )
    scenario: str = Field(
        "boss", description="battle set-up from data/armor_clash/scenarios.json (boss, skirmish, duel, c1_recon...)"
    )
    vehicles: list[str] = Field(
        default_factory=list, description="vehicle card per seat (t34_85, kv2, amx13, sherman); default T-34-85"
    )
    crews: list[str] = Field(
        default_factory=list, description="crew proficiency per seat (recruit, veteran, legend); default veteran"
    )
    links: list[bool] = Field(
        default_factory=list, description="body-turret link trait per seat (needs a veteran or better crew)"
    )
    repeated_hits: bool = Field(
        False,
        description="optional rule 10.1: second heavy hit on engine/fuel sets the vehicle on fire; tracks knocked out twice cannot be repaired",
    )
    ammo_rack: bool = Field(False, description="optional rule 10.2: ammo rack penetration destroys the vehicle")
    ricochet_stun: bool = Field(False, description="optional rule 10.3: a turret ricochet stuns the crew for a turn")
    boss_speed_pct: int = Field(
        150, ge=150, le=200, description="boss speed as a percentage of a player's base move (rules 9.1: x1.5-2)"
    )
    max_turns: int = Field(
        0, ge=0, le=500, description="turn limit (0 = the scenario's); at the limit the defenders win"
    )

    @field_validator("scenario")
    @classmethod
    def _scenario(cls, v: str) -> str:
        if v not in content.scenarios():
            raise ValueError(f"unknown scenario {v}")
        return v

    @field_validator("vehicles")
    @classmethod
    def _vehicles(cls, v: list[str]) -> list[str]:
        for name in v:
            if name not in content.vehicles() or name == "tiger":
                raise ValueError(f"unknown player vehicle {name}")
        return v

    @field_validator("crews")
    @classmethod
    def _crews(cls, v: list[str]) -> list[str]:
        for name in v:
            if name not in ("recruit", "veteran", "legend"):
                raise ValueError(f"unknown crew level {name}")
        return v


class MovePlan(Model):
    dir: int
    cells_total: int
    turns_total: int
    turns_done: int = 0
    cells_done: int = 0


class RotPlan(Model):
    start: int  # absolute turret direction when the rotation began
    target: int  # absolute turret direction wanted
    clockwise: bool
    cells_total: int
    turns_total: int
    turns_done: int = 0
    cells_done: int = 0
    crank: bool = False


class Aim(Model):
    target: str
    done: int = 0


class BossCard(Model):
    rage: int = 0
    ms_left: int = 3
    rest_left: int = 0
    link_streak: int = 0
    halved_turns: int = 0
    prerot_blocked: bool = False
    forced_turn: int | None = None
    overload_left: int = 0
    target: str | None = None
    prerot_mode: int = 0  # 0 inactive, 1 active (1 cell), 2 accelerated (2 cells)
    last_dirs: list[int] = Field(default_factory=list)
    cur_dirs: list[int] = Field(default_factory=list)
    double_next: bool = False


class Unit(Model):
    id: str
    label: str
    side: str
    seat: str | None = None
    vehicle: str
    crew: str
    link: bool = False
    boss: bool = False
    x: int
    y: int
    hull: int
    turret: int = 0  # relative to the hull: 0 = cell 2 (front)
    turret_state: Literal["normal", "crank", "locked", "overload"] = "normal"
    turret_heavy: int = 0
    loaded: str | None = "AP"
    loading: str | None = None
    reload_left: int = 0
    injuries: dict[str, int] = Field(default_factory=lambda: {"driver": 0, "gunner": 0, "loader": 0})
    power: int = 0
    tracks: Literal["ok", "destroyed"] = "ok"
    track_knockouts: int = 0
    heavy_power: int = 0
    pen: dict[str, int] = Field(default_factory=lambda: {"move": 0, "shoot": 0, "reload": 0})
    move_plan: MovePlan | None = None
    rot_plan: RotPlan | None = None
    aim: Aim | None = None
    status: Literal["active", "out", "destroyed"] = "active"
    out_reason: str | None = None
    fire_left: int | None = None
    stunned: int = 0
    kills: int = 0
    card: BossCard | None = None
    moved_this_turn: bool = False
    fired_this_turn: bool = False
    rotated_this_turn: bool = False

    @property
    def active(self) -> bool:
        return self.status == "active"

    @property
    def abs_turret(self) -> int:
        return (self.hull + self.turret) % 8

    @property
    def damaged(self) -> bool:
        return any(self.injuries.values()) or self.power > 0 or self.turret_state != "normal" or any(self.pen.values())


class Pending(Model):
    step: Literal["top", "move_dir", "move_dist", "move_fire", "target", "ammo", "turret", "hull"] = "top"
    reverse: bool | None = None
    cells: int | None = None
    pre_rot: int | None = None  # absolute turret direction after a free 1-2 cell rotation


class Order(Model):
    what: Literal[
        "move",
        "continue_move",
        "shoot",
        "reload",
        "continue_reload",
        "unload",
        "rotate",
        "continue_rotate",
        "hull",
        "pass",
    ]
    reverse: bool | None = None
    cells: int | None = None
    target: str | None = None
    ammo: str | None = None
    turret_to: int | None = None  # absolute direction
    facing: int | None = None
    pre_rot: int | None = None


class ShotTrace(Model):
    """A shot of the last resolved turn (for the board image)."""

    shooter: str
    target: str
    hit: bool


class Result(Model):
    winners: list[str]
    reason: str
    side: str | None = None


class State(BaseState):
    game: Literal["armor_clash"] = "armor_clash"
    options: Options
    width: int
    height: int
    turn: int = 1
    max_turns: int
    units: list[Unit]
    pending: dict[str, Pending] = Field(default_factory=dict)
    orders: dict[str, Order] = Field(default_factory=dict)
    result: Result | None = None
    last_shots: list[ShotTrace] = Field(default_factory=list)


# ---------------------------------------------------------------- actions
WHATS = (
    "move",
    "continue_move",
    "shoot",
    "reload",
    "continue_reload",
    "unload",
    "rotate",
    "continue_rotate",
    "hull",
    "pass",
)


class Choose(Model):
    kind: Literal["choose"] = "choose"
    what: Literal[
        "move",
        "continue_move",
        "shoot",
        "reload",
        "continue_reload",
        "unload",
        "rotate",
        "continue_rotate",
        "hull",
        "pass",
    ]


class MoveDir(Model):
    kind: Literal["move_dir"] = "move_dir"
    reverse: bool


class MoveDist(Model):
    kind: Literal["move_dist"] = "move_dist"
    cells: int = Field(ge=1, le=12)
    turns: int | None = None  # informational (label): filled in by the engine


class Target(Model):
    kind: Literal["target"] = "target"
    target: str  # "" = hold fire (only while moving)


class AmmoChoice(Model):
    kind: Literal["ammo"] = "ammo"
    ammo: Literal["AP", "HEAT", "HE"]


class TurretTo(Model):
    kind: Literal["turret"] = "turret"
    cell: int = Field(ge=1, le=8)  # 3x3 cell number relative to the hull (2 = front)
    turns: int | None = None  # informational (label): 0 = free; filled in by the engine


class HullTo(Model):
    kind: Literal["hull"] = "hull"
    facing: int = Field(ge=0, le=7)


class Back(Model):
    kind: Literal["back"] = "back"


Action = Annotated[
    Choose | MoveDir | MoveDist | Target | AmmoChoice | TurretTo | HullTo | Back, Field(discriminator="kind")
]


# ----------------------------------------------------------------- events
class Committed(Event):
    kind: Literal["committed"] = "committed"
    seat: str


class OrderEv(Event):
    kind: Literal["order"] = "order"
    seat: str
    key: str
    params: dict[str, Any] = Field(default_factory=dict)


class Roll(Event):
    kind: Literal["roll"] = "roll"
    unit: str
    label: str
    die: Literal["hit", "location", "damage", "penalty"]
    value: int
    result: str


class Note(Event):
    kind: Literal["note"] = "note"
    key: str
    params: dict[str, Any] = Field(default_factory=dict)


AnyEvent = Annotated[Committed | OrderEv | Roll | Note, Field(discriminator="kind")]

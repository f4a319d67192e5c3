"""Pydantic models of Armor Clash: options, state, actions and events."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, field_validator, model_validator

from ..base import PER_SEAT, BaseState, Event, Model, SeatId, View
from . import content

MODES = ("simple", "normal", "hard", "hell")
#: the rules revision new tables play by (Options.rules)
RULES_REVISION = 4
#: the option names of schema 1 (a stored table's complete options)
OPTIONS_V1 = frozenset(
    {
        "mode",
        "scenario",
        "vehicles",
        "crews",
        "links",
        "repeated_hits",
        "ammo_rack",
        "ricochet_stun",
        "boss_speed_pct",
        "max_turns",
    }
)
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
    rules: int = Field(
        RULES_REVISION,
        ge=1,
        le=RULES_REVISION,
        description="rules revision: 1 = as first built; 2 = crews bail out of crippled vehicles; 3 = duels are "
        "fought for the crossroads (docs/rulings.md R14); 4 = a fire counts its 3 turns from the turn after the hit "
        "(R16). A stored table keeps the revision it began with",
    )

    @model_validator(mode="before")
    @classmethod
    def _stored_revision(cls, data: Any) -> Any:
        # every table stored before revision 2 holds the complete options of schema 1 (the table
        # service stores the parsed options): such a table keeps playing (and replaying) by rules 1
        if isinstance(data, dict) and "rules" not in data and OPTIONS_V1 <= data.keys():
            return {**data, "rules": 1}
        return data

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
    #: crossroads points per seat (duels of rules revision 3 on, docs/rulings.md R14)
    points: dict[str, int] = Field(default_factory=dict)


# ------------------------------------------------------------------ views
class UnitView(Unit):
    """A vehicle as everybody sees it, with what its card prints."""

    vehicle_name: str
    max_move: int


class ObjectiveView(Model):
    """The duel's crossroads (rules revision 3, docs/rulings.md R14): its cells, the points
    that win, each seat's points and who holds it now (alone in it at the end of the last turn)."""

    zone: list[tuple[int, int]]
    cells: list[str]
    goal: int
    points: dict[str, int]
    holder: str | None = None


class AcView(View):
    """The battlefield and every status card (all public), plus the viewer's own
    uncommitted steps and committed order (per seat: nobody sees another's)."""

    mode: Literal["simple", "normal"]
    scenario: str
    options: Options
    width: int
    height: int
    turn: int
    max_turns: int
    units: list[UnitView]
    last_shots: list[ShotTrace]
    committed: list[str]
    result: Result | None
    objective: ObjectiveView | None = None
    orders: Annotated[dict[str, Order], PER_SEAT] = Field(default_factory=dict)
    pending: Annotated[dict[str, Pending], PER_SEAT] = Field(default_factory=dict)

    @property
    def my_order(self) -> Order | None:
        return self.orders.get(self.viewer) if self.viewer else None

    @property
    def my_pending(self) -> Pending | None:
        return self.pending.get(self.viewer) if self.viewer else None


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
# Codes (translated by the game's event text, never stored as text)
Ammo = Literal["AP", "HEAT", "HE"]
Facing = Annotated[int, Field(ge=0, le=7)]  # 0 = N, clockwise
Band = Literal["short", "medium", "long"]
Crew = Literal["loader", "driver", "gunner"]
PenKind = Literal["move", "shoot", "reload"]
TurretState = Literal["normal", "crank", "locked", "overload"]
RageReason = Literal["miss", "halved", "overload", "reset"]
DamageResult = Literal["pen", "weak", "nopen", "pen_weak", "ricochet", "damaged"]
OutReason = Literal["loc3", "loc6", "ammo_rack", "fire", "rage", "bailed_out"]
OutcomeReason = Literal["victory", "all_out", "players_lost", "time_up", "time_up_draw", "objective", "time_up_points"]


class Committed(Event):
    """Public: ``seat`` has given its order for the turn (never which)."""

    kind: Literal["committed"] = "committed"
    seat: SeatId


class OrderGiven(Event):
    """Private (``to=[seat]``): the order ``seat`` committed."""

    kind: Literal["order_given"] = "order_given"
    seat: SeatId
    order: Order
    target: str | None = None  # the target's unit label


class FreeRotate(Event):
    """Private: a free 1-2 cell turret turn noted before the order (8.2)."""

    kind: Literal["free_rotate"] = "free_rotate"
    seat: SeatId
    cell: int


class Roll(Event):
    kind: Literal["roll"] = "roll"
    unit: str
    label: str
    die: Literal["hit", "location", "damage", "penalty"]
    value: int
    result: str


# Every event below names units by their label (a player's unit label is its seat id).
class TurnResolvesEv(Event):
    kind: Literal["turn_resolves"] = "turn_resolves"
    turn: int


class PassedEv(Event):
    kind: Literal["passed"] = "passed"
    unit: str


class StunnedSkipEv(Event):
    kind: Literal["stunned_skip"] = "stunned_skip"
    unit: str


class BlockedEv(Event):
    kind: Literal["blocked"] = "blocked"
    unit: str


class NotLoadedEv(Event):
    kind: Literal["not_loaded"] = "not_loaded"
    unit: str


class TargetGoneEv(Event):
    kind: Literal["target_gone"] = "target_gone"
    unit: str


class UnloadedEv(Event):
    kind: Literal["unloaded"] = "unloaded"
    unit: str


class NoEffectEv(Event):
    kind: Literal["no_effect"] = "no_effect"
    unit: str


class RicochetEv(Event):
    kind: Literal["ricochet"] = "ricochet"
    unit: str


class StunnedEv(Event):
    kind: Literal["stunned"] = "stunned"
    unit: str


class HeSpallEv(Event):
    kind: Literal["he_spall"] = "he_spall"
    unit: str


class TracksNoCrewEv(Event):
    kind: Literal["tracks_no_crew"] = "tracks_no_crew"
    unit: str


class RageDoubleEv(Event):
    kind: Literal["rage_double"] = "rage_double"
    unit: str


class OverloadEv(Event):
    kind: Literal["overload"] = "overload"
    unit: str


class OverloadEndEv(Event):
    kind: Literal["overload_end"] = "overload_end"
    unit: str


class PrerotBlockedEv(Event):
    kind: Literal["prerot_blocked"] = "prerot_blocked"
    unit: str


class RotateBlockedEv(Event):
    kind: Literal["rotate_blocked"] = "rotate_blocked"
    unit: str


class BossForcedTurnEv(Event):
    kind: Literal["boss_forced_turn"] = "boss_forced_turn"
    unit: str


class BossRestedEv(Event):
    kind: Literal["boss_rested"] = "boss_rested"
    unit: str


class CounterPrerotEv(Event):
    kind: Literal["counter_prerot"] = "counter_prerot"
    unit: str


class AimingEv(Event):
    kind: Literal["aiming"] = "aiming"
    unit: str
    target: str
    left: int


class OutOfArcEv(Event):
    kind: Literal["out_of_arc"] = "out_of_arc"
    unit: str
    target: str


class RageLockEv(Event):
    kind: Literal["rage_lock"] = "rage_lock"
    unit: str
    target: str


class ShotEv(Event):
    kind: Literal["shot"] = "shot"
    unit: str
    target: str
    ammo: Ammo


class LoadedEv(Event):
    kind: Literal["loaded"] = "loaded"
    unit: str
    ammo: Ammo


class ReloadingEv(Event):
    kind: Literal["reloading"] = "reloading"
    unit: str
    ammo: Ammo
    left: int


class HullEv(Event):
    kind: Literal["hull"] = "hull"
    unit: str
    facing: Facing


class CounterSameDirEv(Event):
    kind: Literal["counter_same_dir"] = "counter_same_dir"
    unit: str
    facing: Facing


class MoveOrderEv(Event):
    kind: Literal["move_order"] = "move_order"
    unit: str
    cells: int
    band: Band
    turns: int


class MovedEv(Event):
    kind: Literal["moved"] = "moved"
    unit: str
    cells: int
    cell: str
    left: int
    turns: int


class RotatedEv(Event):
    kind: Literal["rotated"] = "rotated"
    unit: str
    cell: int
    cells: int
    left: int


class PrerotateEv(Event):
    kind: Literal["prerotate"] = "prerotate"
    unit: str
    cells: int
    cell: int
    target: str


class BossMustRestEv(Event):
    kind: Literal["boss_must_rest"] = "boss_must_rest"
    unit: str
    turns: int


class BossRestingEv(Event):
    kind: Literal["boss_resting"] = "boss_resting"
    unit: str
    left: int


class BurningEv(Event):
    kind: Literal["burning"] = "burning"
    unit: str
    turns: int


class OnFireEv(Event):
    kind: Literal["on_fire"] = "on_fire"
    unit: str
    turns: int


class CounterHalvedEv(Event):
    kind: Literal["counter_halved"] = "counter_halved"
    unit: str
    turns: int


class PowerHitEv(Event):
    kind: Literal["power_hit"] = "power_hit"
    unit: str
    pen: int
    total: int


class CrewHitEv(Event):
    kind: Literal["crew_hit"] = "crew_hit"
    unit: str
    crew: Crew
    pen: int
    what: PenKind
    total: int


class TurretStateEv(Event):
    kind: Literal["turret_state"] = "turret_state"
    unit: str
    state: TurretState


class RageEv(Event):
    kind: Literal["rage"] = "rage"
    unit: str
    old: int
    new: int
    reason: RageReason


class AmmoEffectEv(Event):
    kind: Literal["ammo_effect"] = "ammo_effect"
    ammo: Ammo
    old: DamageResult
    new: DamageResult


class DestroyedEv(Event):
    kind: Literal["destroyed"] = "destroyed"
    unit: str
    reason: OutReason


class IncapacitatedEv(Event):
    kind: Literal["incapacitated"] = "incapacitated"
    unit: str
    reason: OutReason


class ObjectiveHeldEv(Event):
    """A crew alone in the crossroads at the end of the turn scores a point (R14, revision 3)."""

    kind: Literal["objective_held"] = "objective_held"
    unit: str
    points: int
    goal: int


class ObjectiveContestedEv(Event):
    """More than one crew in the crossroads at the end of the turn: nobody scores."""

    kind: Literal["objective_contested"] = "objective_contested"
    crews: int


class GameOverEv(Event):
    kind: Literal["game_over"] = "game_over"
    reason: OutcomeReason
    winners: list[SeatId]


NOTE_EVENTS: dict[str, type[Event]] = {
    "turn_resolves": TurnResolvesEv,
    "passed": PassedEv,
    "stunned_skip": StunnedSkipEv,
    "blocked": BlockedEv,
    "not_loaded": NotLoadedEv,
    "target_gone": TargetGoneEv,
    "unloaded": UnloadedEv,
    "no_effect": NoEffectEv,
    "ricochet": RicochetEv,
    "stunned": StunnedEv,
    "he_spall": HeSpallEv,
    "tracks_no_crew": TracksNoCrewEv,
    "rage_double": RageDoubleEv,
    "overload": OverloadEv,
    "overload_end": OverloadEndEv,
    "prerot_blocked": PrerotBlockedEv,
    "rotate_blocked": RotateBlockedEv,
    "boss_forced_turn": BossForcedTurnEv,
    "boss_rested": BossRestedEv,
    "counter_prerot": CounterPrerotEv,
    "aiming": AimingEv,
    "out_of_arc": OutOfArcEv,
    "rage_lock": RageLockEv,
    "shot": ShotEv,
    "loaded": LoadedEv,
    "reloading": ReloadingEv,
    "hull": HullEv,
    "counter_same_dir": CounterSameDirEv,
    "move_order": MoveOrderEv,
    "moved": MovedEv,
    "rotated": RotatedEv,
    "prerotate": PrerotateEv,
    "boss_must_rest": BossMustRestEv,
    "boss_resting": BossRestingEv,
    "burning": BurningEv,
    "on_fire": OnFireEv,
    "counter_halved": CounterHalvedEv,
    "power_hit": PowerHitEv,
    "crew_hit": CrewHitEv,
    "turret_state": TurretStateEv,
    "rage": RageEv,
    "ammo_effect": AmmoEffectEv,
    "destroyed": DestroyedEv,
    "incapacitated": IncapacitatedEv,
    "objective_held": ObjectiveHeldEv,
    "objective_contested": ObjectiveContestedEv,
    "game_over": GameOverEv,
}


AnyEvent = Annotated[
    Committed
    | OrderGiven
    | FreeRotate
    | Roll
    | TurnResolvesEv
    | PassedEv
    | StunnedSkipEv
    | BlockedEv
    | NotLoadedEv
    | TargetGoneEv
    | UnloadedEv
    | NoEffectEv
    | RicochetEv
    | StunnedEv
    | HeSpallEv
    | TracksNoCrewEv
    | RageDoubleEv
    | OverloadEv
    | OverloadEndEv
    | PrerotBlockedEv
    | RotateBlockedEv
    | BossForcedTurnEv
    | BossRestedEv
    | CounterPrerotEv
    | AimingEv
    | OutOfArcEv
    | RageLockEv
    | ShotEv
    | LoadedEv
    | ReloadingEv
    | HullEv
    | CounterSameDirEv
    | MoveOrderEv
    | MovedEv
    | RotatedEv
    | PrerotateEv
    | BossMustRestEv
    | BossRestingEv
    | BurningEv
    | OnFireEv
    | CounterHalvedEv
    | PowerHitEv
    | CrewHitEv
    | TurretStateEv
    | RageEv
    | AmmoEffectEv
    | DestroyedEv
    | IncapacitatedEv
    | ObjectiveHeldEv
    | ObjectiveContestedEv
    | GameOverEv,
    Field(discriminator="kind"),
]

"""Automobile state, actions, events and views (pydantic v2, JSON round-trip exact)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from ..base import BaseState, Event, Model, OptSeatId, SeatId, View

Cls = Literal["low", "mid", "high"]
Character = Literal["ford", "kettering", "sloan", "howard", "durant", "chrysler"]
PendingKind = Literal[
    "build_class",
    "build_space",
    "build_count",
    "dist_place",
    "produce",
    "close",
    "howard",
    "dist_sell",
    "bonus",
    "discount",
]


# ----------------------------------------------------------------- state
class Player(Model):
    money: int
    rd: int = 0
    loans: int = 0
    losses: int = 0
    arrears: int = 0
    hand: list[int] = Field(default_factory=list)  # private demand cards
    character: Character | None = None
    dist: dict[str, int] = Field(default_factory=lambda: {"low": 0, "mid": 0, "high": 0})
    dist_supply: int = 8
    dist_used: dict[str, int] = Field(default_factory=lambda: {"low": 0, "mid": 0, "high": 0})  # by source square
    dist_lane: dict[str, int] = Field(default_factory=lambda: {"low": 0, "mid": 0, "high": 0})  # by lane
    dist_done: bool = False
    bankrupt: bool = False


class Space(Model):
    owner: str | None = None
    factories: int = 0
    parts: bool = False
    closed: bool = False
    cars: int = 0
    bonus: bool = False
    discount: bool = False


class Pending(Model):
    kind: PendingKind
    seat: str
    origin: Literal["action", "durant", "exec"] = "action"
    cls: Cls | None = None
    space: int | None = None
    lane: Cls | None = None
    src: Cls | None = None
    left: int = 0
    queue: list[int] = Field(default_factory=list)
    done_any: bool = False


class AutoState(BaseState):
    """Schema 2 (issue 14): phase 6 goes round until everyone passed; closing a space
    removes its cars.  ``ruleset`` 1 keeps the old mechanics for games stored before
    (one decision each, closed spaces keep their cars) so their logs replay exactly."""

    game: Literal["automobile"] = "automobile"
    ruleset: int = 2
    round: int = 1
    phase: int = 1
    current: str | None = None
    selection_order: list[str]
    action_order: list[str] = Field(default_factory=list)
    turn: int = 0
    players: dict[str, Player]
    spaces: list[Space]
    bag: list[int]
    char_rd: dict[str, int]
    taken: dict[str, str] = Field(default_factory=dict)  # character -> seat
    pending: Pending | None = None
    lanes: dict[str, list[str]] = Field(default_factory=lambda: {c: list[str]() for c in ("low", "mid", "high")})
    exec_close: int = 1
    bonus_left: list[int] = Field(default_factory=list)
    discount_left: list[int] = Field(default_factory=list)
    pass_order: list[str] = Field(default_factory=list)
    revealed: dict[str, list[int]] = Field(default_factory=dict)
    extra: dict[str, list[int]] = Field(default_factory=dict)
    demand: dict[str, int] = Field(default_factory=dict)
    revealed_round: int = 0  # the round whose demand (revealed, extra, demand) is shown; public after phase 7
    ford_used: bool = False
    closed_used: int = 0
    finished: bool = False
    scores: dict[str, int] = Field(default_factory=dict)


# --------------------------------------------------------------- actions
class Pick(Model):
    kind: Literal["pick"] = "pick"
    character: Character


class Act(Model):
    kind: Literal["act"] = "act"
    what: Literal["build", "distributors", "rd", "produce", "close"]


class Loan(Model):
    kind: Literal["loan"] = "loan"


class BuildClass(Model):
    kind: Literal["build_class"] = "build_class"
    cls: Cls


class BuildSpace(Model):
    kind: Literal["build_space"] = "build_space"
    space: int


class BuildCount(Model):
    kind: Literal["build_count"] = "build_count"
    count: int


class BuildParts(Model):
    kind: Literal["build_parts"] = "build_parts"


class Cancel(Model):
    kind: Literal["cancel"] = "cancel"


class PlaceDist(Model):
    kind: Literal["place_dist"] = "place_dist"
    cls: Cls


class Done(Model):
    kind: Literal["done"] = "done"


class Produce(Model):
    kind: Literal["produce"] = "produce"
    space: int
    count: int


class Close(Model):
    kind: Literal["close"] = "close"
    space: int


class HowardSell(Model):
    kind: Literal["howard_sell"] = "howard_sell"
    space: int


class DistMove(Model):
    kind: Literal["dist_move"] = "dist_move"
    src: Cls
    lane: Cls


class DistSell(Model):
    kind: Literal["dist_sell"] = "dist_sell"
    space: int


class DistStop(Model):
    kind: Literal["dist_stop"] = "dist_stop"


class Exec(Model):
    kind: Literal["exec"] = "exec"
    choice: Literal["close", "bonus", "discount2", "discount1", "pass"]


class Marker(Model):
    kind: Literal["marker"] = "marker"
    space: int


AnyAction = (
    Pick
    | Act
    | Loan
    | BuildClass
    | BuildSpace
    | BuildCount
    | BuildParts
    | Cancel
    | PlaceDist
    | Done
    | Produce
    | Close
    | HowardSell
    | DistMove
    | DistSell
    | DistStop
    | Exec
    | Marker
)
Action = Annotated[AnyAction, Field(discriminator="kind")]


# ---------------------------------------------------------------- events
class AutoEvent(Event):
    """Fields every Automobile event has: the seat it concerns (None: the table) and
    ``delta``, that seat's money change (0 if none)."""

    seat: OptSeatId = None
    delta: int = 0


class RoundStart(AutoEvent):
    kind: Literal["round_start"] = "round_start"
    round: int


class DemandDrawn(AutoEvent):
    """Private (``to=[seat]``): the cards ``seat`` drew."""

    kind: Literal["demand_drawn"] = "demand_drawn"
    cards: list[int]


class DemandCount(AutoEvent):
    kind: Literal["demand_count"] = "demand_count"
    n: int


class ActionOrder(AutoEvent):
    kind: Literal["action_order"] = "action_order"
    order: list[SeatId]


class Picked(AutoEvent):
    kind: Literal["pick"] = "pick"
    character: Character
    rd: int


class RdTaken(AutoEvent):
    kind: Literal["rd"] = "rd"
    n: int


class LoanTaken(AutoEvent):
    kind: Literal["loan"] = "loan"
    n: int  # loans held afterwards


class DurantDecline(AutoEvent):
    kind: Literal["durant_decline"] = "durant_decline"


class Built(AutoEvent):
    kind: Literal["build"] = "build"
    space: int
    n: int  # factories
    rd: int  # R&D paid (jump fee)


class PartsBuilt(AutoEvent):
    kind: Literal["parts"] = "parts"
    space: int


class DistPlaced(AutoEvent):
    kind: Literal["place_dist"] = "place_dist"
    cls: Cls
    n: int


class Produced(AutoEvent):
    kind: Literal["produce"] = "produce"
    space: int
    n: int


class Closed(AutoEvent):
    kind: Literal["close"] = "close"
    space: int
    n: int  # factories closed
    discarded: int  # loss points discarded
    cars: int = 0  # cars removed from the space (returned to the owner unsold)


class HowardSale(AutoEvent):
    kind: Literal["howard_sale"] = "howard_sale"
    space: int
    price: int


class DistSale(AutoEvent):
    kind: Literal["dist_sale"] = "dist_sale"
    space: int
    lane: Cls
    src: Cls
    price: int


class DistStopped(AutoEvent):
    kind: Literal["dist_stop"] = "dist_stop"


class DistUnused(AutoEvent):
    kind: Literal["dist_unused"] = "dist_unused"
    n: int
    points: int


class BonusBought(AutoEvent):
    kind: Literal["bonus_bought"] = "bonus_bought"
    price: int  # R&D cubes


class DiscountTaken(AutoEvent):
    kind: Literal["discount_taken"] = "discount_taken"
    n: int


class ExecPass(AutoEvent):
    kind: Literal["exec_pass"] = "exec_pass"
    n: int  # place on next round's selection track


class BonusPlaced(AutoEvent):
    kind: Literal["bonus_placed"] = "bonus_placed"
    space: int


class DiscountPlaced(AutoEvent):
    kind: Literal["discount_placed"] = "discount_placed"
    space: int


class DemandRevealed(AutoEvent):
    kind: Literal["demand_revealed"] = "demand_revealed"
    hands: dict[str, list[int]]
    extra: dict[str, list[int]]
    demand: dict[str, int]


class DemandSale(AutoEvent):
    kind: Literal["demand_sale"] = "demand_sale"
    space: int
    cls: Cls
    n: int
    price: int


class Unsold(AutoEvent):
    kind: Literal["unsold"] = "unsold"
    space: int
    n: int
    points: int


class LossPoints(AutoEvent):
    kind: Literal["loss_points"] = "loss_points"
    space: int
    cls: Cls
    n: int


class LossFee(AutoEvent):
    kind: Literal["loss_fee"] = "loss_fee"
    n: int  # points
    rate: int


class Interest(AutoEvent):
    kind: Literal["interest"] = "interest"
    n: int  # loans
    rate: int


class EmergencyLoan(AutoEvent):
    kind: Literal["emergency_loan"] = "emergency_loan"
    n: int


class Arrears(AutoEvent):
    kind: Literal["arrears"] = "arrears"
    amount: int


class SloanDiscard(AutoEvent):
    kind: Literal["sloan_discard"] = "sloan_discard"
    n: int


class ChryslerDiscard(AutoEvent):
    kind: Literal["chrysler_discard"] = "chrysler_discard"
    n: int


class RoundEnd(AutoEvent):
    kind: Literal["round_end"] = "round_end"
    round: int


class Repay(AutoEvent):
    kind: Literal["repay"] = "repay"
    n: int


class GameEnd(AutoEvent):
    kind: Literal["game_end"] = "game_end"
    best: int
    winners: list[SeatId]


AnyEvent = (
    RoundStart
    | DemandDrawn
    | DemandCount
    | ActionOrder
    | Picked
    | RdTaken
    | LoanTaken
    | DurantDecline
    | Built
    | PartsBuilt
    | DistPlaced
    | Produced
    | Closed
    | HowardSale
    | DistSale
    | DistStopped
    | DistUnused
    | BonusBought
    | DiscountTaken
    | ExecPass
    | BonusPlaced
    | DiscountPlaced
    | DemandRevealed
    | DemandSale
    | Unsold
    | LossPoints
    | LossFee
    | Interest
    | EmergencyLoan
    | Arrears
    | SloanDiscard
    | ChryslerDiscard
    | RoundEnd
    | Repay
    | GameEnd
)
AutoEv = Annotated[AnyEvent, Field(discriminator="kind")]
#: the event kinds that move money (``delta`` may be non-zero only for these)
MONEY_KINDS = frozenset(
    {
        "build",
        "parts",
        "produce",
        "close",
        "loan",
        "howard_sale",
        "dist_sale",
        "demand_sale",
        "loss_fee",
        "interest",
        "emergency_loan",
        "repay",
    }
)


# ----------------------------------------------------------------- views
class PlayerView(Model):
    money: int
    rd: int
    loans: int
    losses: int
    arrears: int
    character: Character | None
    dist: dict[str, int]
    dist_supply: int
    dist_used: dict[str, int]
    hand_count: int
    bankrupt: bool
    cars_supply: int
    factories_supply: int


class SpaceView(Model):
    """A model space: what is printed on it (from data/) and what is on it."""

    id: int
    year: int
    name: str
    cls: Cls
    era: int
    cost: int
    owner: str | None
    factories: int
    parts: bool
    closed: bool
    cars: int
    bonus: bool
    discount: bool


class CharacterView(Model):
    seat: str | None
    rd: int


class ExecView(Model):
    close: int
    bonus: list[int]
    discount: list[int]
    passed: list[str]


class PublicView(View):
    """Everything the table may see; the only input of render/automobile.py (the base adds
    game, viewer, step, seats, to_act and the seat labels)."""

    round: int
    phase: int
    current: str | None
    selection_order: list[str]
    action_order: list[str]
    turn: int
    players: dict[str, PlayerView]
    spaces: list[SpaceView]
    characters: dict[str, CharacterView]
    lanes: dict[str, list[str]]
    lane_capacity: int
    boxes_open: list[str]
    exec: ExecView
    pending: Pending | None
    revealed: dict[str, list[int]]
    extra: dict[str, list[int]]
    demand: dict[str, int]
    revealed_round: int
    finished: bool
    scores: dict[str, int]
    #: dollars each loss point costs in this round's phase 8 (0: not known)
    loss_fee: int = 0


class SeatView(PublicView):
    """A seat's view: the public one plus its own demand cards."""

    hand: list[int]


class Options(Model):
    """Automobile table options."""

    ruleset: Literal[1, 2] = Field(
        default=2,
        description="rules version: 2 = current; 1 = before 2026-12 (one executive decision each, "
        "a closed space keeps its cars), for games stored before",
    )


AutoView = SeatView | PublicView

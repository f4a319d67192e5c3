"""Automobile state, actions and events (pydantic v2, JSON round-trip exact)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from ..base import BaseState, Event, Model

Cls = Literal["low", "mid", "high"]
Character = Literal["ford", "kettering", "sloan", "howard", "durant", "chrysler"]


# ----------------------------------------------------------------- state
class Player(Model):
    money: int
    rd: int = 0
    loans: int = 0
    losses: int = 0
    arrears: int = 0
    hand: list[int] = Field(default_factory=list)  # private demand cards
    character: str | None = None
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
    kind: str
    seat: str
    origin: str = "action"  # action | durant | exec
    cls: str | None = None
    space: int | None = None
    lane: str | None = None
    src: str | None = None
    left: int = 0
    queue: list[int] = Field(default_factory=list)
    done_any: bool = False


class AutoState(BaseState):
    game: Literal["automobile"] = "automobile"
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
    lanes: dict[str, list[str]] = Field(default_factory=lambda: {"low": [], "mid": [], "high": []})
    exec_close: int = 1
    bonus_left: list[int] = Field(default_factory=list)
    discount_left: list[int] = Field(default_factory=list)
    exec_done: list[str] = Field(default_factory=list)
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


Action = Annotated[
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
    | Marker,
    Field(discriminator="kind"),
]


# ---------------------------------------------------------------- events
class Ev(Event):
    """Every Automobile event; ``delta`` is the money change of ``seat`` (0 if none)."""

    kind: str
    seat: str | None = None
    delta: int = 0
    space: int | None = None
    cls: str | None = None
    n: int = 0
    value: int = 0
    cards: list[int] = Field(default_factory=list)
    detail: dict[str, list[int]] = Field(default_factory=dict)
    text: str | None = None

"""Static Automobile content from data/automobile/*.json (read once and
validated by engine.content.load_json)."""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, with_config
from typing_extensions import TypedDict

from ..content import load_json
from ..i18n import t

CLASSES = ("low", "mid", "high")
#: every file's shape: checked key by key (no unknown keys) when it is first read
Forbid = ConfigDict(extra="forbid")
Cls = Literal["low", "mid", "high"]
#: a lowest and a highest number
Range = Annotated[list[int], Field(min_length=2, max_length=2)]


@with_config(Forbid)
class Space(TypedDict):
    id: int
    year: int
    name: str
    cls: Cls
    era: int
    cost: int


@with_config(Forbid)
class Board(TypedDict):
    spaces: list[Space]


@with_config(Forbid)
class Pieces(TypedDict):
    factories_per_player: int
    distributors_per_player: int
    cars_per_player: int
    parts_factories: int
    closed_tiles: int


@with_config(Forbid)
class DemandRound(TypedDict):
    draw: int
    assign: list[Cls]
    extra: list[Cls]


@with_config(Forbid)
class Character(TypedDict):
    id: str
    rd: int


@with_config(Forbid)
class SalesBox(TypedDict):
    label: str
    from_round: int


@with_config(Forbid)
class Exec(TypedDict):
    close: int
    bonus_prices: list[int]
    discount_groups: list[int]


@with_config(Forbid)
class Loan(TypedDict):
    max: int
    amount: int
    interest: int
    repay: int


@with_config(Forbid)
class Rules(TypedDict):
    rounds: int
    action_rounds: int
    start_money: int
    start_rd: int
    classes: list[Cls]
    pieces: Pieces
    demand_tiles: list[int]
    demand_schedule: dict[str, DemandRound]
    characters: list[Character]
    ford_extra_factories: int
    durant_factories: int
    howard_sales: int
    howard_price: dict[Cls, int]
    build_max: int
    max_factories_per_space: int
    parts_factory_cost: int
    parts_discount: int
    production: dict[Cls, list[Range]]
    production_cost: dict[Cls, int]
    price: dict[Cls, int]
    discount_price: dict[Cls, int]
    rd_action: int
    distributors_per_action: int
    distributor_moves: dict[Cls, list[Cls]]
    sales_boxes: list[SalesBox]
    box_capacity_per_player: int
    unused_distributor_loss: int
    close_refund_less: int
    parts_refund: int
    exec: Exec
    unsold_car_loss: int
    loss_fee: dict[str, int]
    loan: Loan


#: every data file of the game and its shape
FILES: dict[str, Any] = {"rules": Rules, "board": Board}


@cache
def rules() -> dict[str, Any]:
    return load_json("automobile", "rules", FILES["rules"])


@cache
def board() -> list[dict[str, Any]]:
    return load_json("automobile", "board", FILES["board"])["spaces"]


@cache
def characters() -> list[str]:
    return [c["id"] for c in rules()["characters"]]


@cache
def character_rd() -> dict[str, int]:
    return {c["id"]: int(c["rd"]) for c in rules()["characters"]}


@cache
def class_spaces(cls: str) -> tuple[int, ...]:
    """Ids of the spaces of one price class, oldest first."""
    return tuple(s["id"] for s in board() if s["cls"] == cls)


def production_range(cls: str, factories: int) -> tuple[int, int]:
    lo, hi = rules()["production"][cls][factories - 1]
    return int(lo), int(hi)


def car_cost(cls: str, parts: bool) -> int:
    r = rules()
    return int(r["production_cost"][cls]) - (int(r["parts_discount"]) if parts else 0)


def space_name(space: int, locale: str | None = None) -> str:
    """A model space's year and name in ``locale``: the catalog's ``automobile.space.<id>``
    (a language's folder translates it like any message; board.json prints the English)."""
    board()[space]  # an unknown space is an error, not a missing message
    return t(f"automobile.space.{space}", locale)

"""Static content of Armor Clash from data/armor_clash/*.json (read once and
validated by engine.content.load_json)."""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any, Literal, NotRequired

from pydantic import ConfigDict, Field, with_config
from typing_extensions import TypedDict

from ..content import load_json

#: every file's shape: checked key by key (no unknown keys) when it is first read
Forbid = ConfigDict(extra="forbid")
Crew = Literal["recruit", "veteran", "legend", "hell"]
Mode = Literal["simple", "normal", "hard", "hell"]
#: x, y and a facing (0-7)
Placement = Annotated[list[int], Field(min_length=3, max_length=3)]
Cell = Annotated[list[int], Field(min_length=2, max_length=2)]


@with_config(Forbid)
class Vehicle(TypedDict):
    name: str
    max_move: int
    reload: int
    traits: list[str]
    autoloader: bool


@with_config(Forbid)
class Enemy(TypedDict):
    vehicle: str
    crew: Crew
    x: int
    y: int
    facing: int
    min_players: int
    boss: NotRequired[bool]
    modes: NotRequired[list[Mode]]


@with_config(Forbid)
class Objective(TypedDict):
    from_rules: int
    zone: list[Cell]
    points: dict[Mode, int]
    players: list[Placement]


@with_config(Forbid)
class Scenario(TypedDict):
    players: list[Placement]
    enemies: list[Enemy]
    pvp: bool
    bail_out: dict[str, int]
    boss_decides: NotRequired[bool]
    withdraw_pct: NotRequired[int]
    objective: NotRequired[Objective]


@with_config(Forbid)
class CampaignScenario(TypedDict):
    id: str
    title: str
    max_turns: dict[Mode, int]


@with_config(Forbid)
class Campaign(TypedDict):
    scenarios: list[CampaignScenario]
    start_crew: Crew
    start_vehicle: str
    vehicle_choices: list[str]
    xp: dict[str, int]
    promote: dict[Crew, int]
    reserve_vehicles: int
    max_players: int


@with_config(Forbid)
class Ammo(TypedDict):
    result_map: dict[str, str]
    he_spall: bool


@with_config(Forbid)
class Board(TypedDict):
    w: int
    h: int


@with_config(Forbid)
class Tables(TypedDict):
    modes: dict[Mode, dict[str, int | str]]
    hit_numbers: dict[Crew, list[int]]
    locations: dict[str, str]
    blocks: dict[str, list[int]]
    damage: dict[str, dict[str, str]]
    incapacitate: list[list[int | str]]
    crew_for_location: dict[str, str | None]
    penalty_for_crew: dict[str, str]
    penalty_roll: dict[str, int]
    power_penalty: int
    after_effect_results: list[str]
    move_bands: dict[str, dict[str, int | str]]
    rotation_turns_normal: dict[str, int]
    rotation_speed: dict[str, int]
    free_rotation: int
    crank_turns: dict[str, int]
    link_min_crew: Crew
    crew_order: list[Crew]
    ammo: dict[str, Ammo]
    default_ammo: str
    unload_turns: int
    hull_turn_turns: int
    fire_turns: int
    stun_turns: int
    boss: dict[str, Any]
    board: Board
    max_turns_default: dict[Mode, int]


#: every data file of the game and its shape
FILES: dict[str, Any] = {
    "tables": Tables,
    "vehicles": dict[str, Vehicle],
    "scenarios": dict[str, Scenario],
    "campaign": Campaign,
}


@cache
def tables() -> dict[str, Any]:
    return load_json("armor_clash", "tables", FILES["tables"])


@cache
def vehicles() -> dict[str, Any]:
    return load_json("armor_clash", "vehicles", FILES["vehicles"])


@cache
def scenarios() -> dict[str, Any]:
    return load_json("armor_clash", "scenarios", FILES["scenarios"])


@cache
def campaign() -> dict[str, Any]:
    return load_json("armor_clash", "campaign", FILES["campaign"])


def boss() -> dict[str, Any]:
    return tables()["boss"]


def crew_rank(level: str) -> int:
    return tables()["crew_order"].index(level)


def hit_numbers(level: str) -> list[int]:
    return list(tables()["hit_numbers"][level])


def location_name(value: int) -> str:
    return tables()["locations"][str(value)]


def block_of(location: int) -> str:
    for name, values in tables()["blocks"].items():
        if location in values:
            return name
    raise ValueError(location)


def damage_result(location: int, die: int) -> str:
    """Damage result for a damage die on a location (rules 5.1, ruling R4).

    The location's block table is read first; a value the block's table does
    not print is read from the other block's table.
    """
    dmg = tables()["damage"]
    own = dmg[block_of(location)]
    if str(die) in own:
        return own[str(die)]
    for table in dmg.values():
        if str(die) in table:
            return table[str(die)]
    raise ValueError(die)


def crank_turns(cells: int) -> int:
    return int(tables()["crank_turns"][str(cells)])


def normal_rotation_turns(cells: int) -> int:
    if cells == 0:
        return 0
    return int(tables()["rotation_turns_normal"][str(cells)])

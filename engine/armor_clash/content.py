"""Static content of Armor Clash, read once from data/armor_clash/ (cached)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).resolve().parent.parent.parent / "data" / "armor_clash"


@cache
def _load(name: str) -> dict[str, Any]:
    with (DATA_DIR / f"{name}.json").open(encoding="utf-8") as fh:
        return json.load(fh)


def tables() -> dict[str, Any]:
    return _load("tables")


@cache
def vehicles() -> dict[str, Any]:
    return {k: v for k, v in _load("vehicles").items() if not k.startswith("_")}


@cache
def scenarios() -> dict[str, Any]:
    return {k: v for k, v in _load("scenarios").items() if not k.startswith("_")}


def campaign() -> dict[str, Any]:
    return _load("campaign")


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

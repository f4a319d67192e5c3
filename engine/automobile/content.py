"""Static Automobile content, read once from data/automobile/*.json."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[2] / "data" / "automobile"
CLASSES = ("low", "mid", "high")


@cache
def rules() -> dict[str, Any]:
    with (DATA / "rules.json").open(encoding="utf-8") as fh:
        return json.load(fh)


@cache
def board() -> list[dict[str, Any]]:
    with (DATA / "board.json").open(encoding="utf-8") as fh:
        return json.load(fh)["spaces"]


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
    s = board()[space]
    name = s["name_zh"] if (locale or "").lower().startswith("zh") else s["name"]
    return f"{s['year']} {name}"

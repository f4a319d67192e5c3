"""City of Fury card content from ``data/city_of_fury/*.json`` (read once and
validated by engine.content.load_json).

The cards' faces are not published in text; the values are designed by the
project and documented in ``docs/rulings.md (City of Fury)``.  This module only
declares their shape.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..content import load_json

SKILLS: tuple[str, ...] = ("punch", "kick", "shoot", "dodge")
HERO_ACTIONS: tuple[str, ...] = ("move", "attack", "shoot", "heal")
ENEMY_ACTIONS: tuple[str, ...] = (
    "move_left",
    "move_right",
    "jump_left",
    "jump_right",
    "attack",
    "shoot",
    "push_left",
    "push_right",
)
MIN_LEVEL, MAX_LEVEL = 1, 4
START_LEVEL = 2
SLOTS = 5  # the screen is five cards wide
MAX_TRACKER = 6  # HP is tracked on a d6

HeroAction = Literal["move", "attack", "shoot", "heal"]
EnemyAction = Literal[
    "move_left", "move_right", "jump_left", "jump_right", "attack", "shoot", "push_left", "push_right"
]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class HeroCard(_Strict):
    id: str
    name: str
    max_hp: int = Field(ge=1, le=MAX_TRACKER)
    skills: dict[str, list[list[HeroAction]]]

    @field_validator("skills")
    @classmethod
    def _four_skills_four_levels(cls, v: dict[str, list[list[str]]]) -> dict[str, list[list[str]]]:
        if tuple(v) != SKILLS:
            raise ValueError(f"skills must be exactly {SKILLS} in that order")
        for name, levels in v.items():
            if len(levels) != MAX_LEVEL:
                raise ValueError(f"skill {name} needs {MAX_LEVEL} levels")
            if any(not lv for lv in levels):
                raise ValueError(f"skill {name} has an empty level")
        return v


class EnemyCard(_Strict):
    id: str
    name: str
    street: str
    max_hp: int = Field(ge=1, le=MAX_TRACKER)
    left: list[EnemyAction] = Field(min_length=1)
    right: list[EnemyAction] = Field(min_length=1)


class HeroesFile(_Strict):
    heroes: list[HeroCard] = Field(min_length=1)


class EnemiesFile(_Strict):
    minions: list[EnemyCard] = Field(min_length=6, max_length=6)
    boss: EnemyCard


#: every data file of the game and its shape
FILES = {"heroes": HeroesFile, "enemies": EnemiesFile}


class Content(_Strict):
    heroes: list[HeroCard] = Field(min_length=1)
    minions: list[EnemyCard] = Field(min_length=6, max_length=6)
    boss: EnemyCard

    def hero(self, hero_id: str) -> HeroCard:
        for h in self.heroes:
            if h.id == hero_id:
                return h
        raise KeyError(hero_id)


@lru_cache(maxsize=1)
def content() -> Content:
    heroes = load_json("city_of_fury", "heroes", HeroesFile)
    enemies = load_json("city_of_fury", "enemies", EnemiesFile)
    c = Content(heroes=heroes.heroes, minions=enemies.minions, boss=enemies.boss)
    ids = [e.id for e in c.minions] + [c.boss.id] + [h.id for h in c.heroes]
    if len(set(ids)) != len(ids) or "hero" in ids:
        raise ValueError("card ids must be unique and must not be 'hero'")
    return c


@lru_cache(maxsize=1)
def enemies() -> dict[str, EnemyCard]:
    """Every enemy card (the six minions and the boss) by id."""
    c = content()
    return {e.id: e for e in [*c.minions, c.boss]}


@lru_cache(maxsize=1)
def heroes() -> dict[str, HeroCard]:
    return {h.id: h for h in content().heroes}


def hero_ids() -> list[str]:
    return [h.id for h in content().heroes]

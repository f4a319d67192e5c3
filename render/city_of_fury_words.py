"""City of Fury's street in words (the presentation hook ``describe``, read by
tables/seeing/describe.py): the hero's hit points and levels, and each space of the
street with the enemy on it and its hit points.  Reads only the view the image draws."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.i18n import t

if TYPE_CHECKING:
    from engine.city_of_fury.models import CofView


def _k(key: str, locale: str, **p: object) -> str:
    return t("city_of_fury.describe." + key, locale, **p)


def describe(view: CofView, locale: str) -> list[str]:
    levels = ", ".join(f"{t('city_of_fury.skill.' + k, locale)} {v}" for k, v in view.levels.items())
    out = [_k("hero", locale, hp=view.hero_hp, levels=levels)]
    spaces = []
    for i, who in enumerate(view.street):
        if who is None:
            continue
        if who == "hero":
            spaces.append(_k("space_hero", locale, n=i + 1))
        else:
            name = t(f"city_of_fury.card.{who}.name", locale)
            spaces.append(_k("space_enemy", locale, n=i + 1, enemy=name, hp=view.enemy_hp.get(who, 0)))
    if spaces:
        out.append(_k("street", locale, spaces="; ".join(spaces)))
    out.append(_k("left", locale, waiting=len(view.to_scroll), beaten=len(view.beaten)))
    return out

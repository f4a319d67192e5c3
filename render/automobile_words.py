"""Automobile's board in words (the presentation hook ``describe``, read by
tables/seeing/describe.py): each player's money, R&D, loans, losses and supply, the
model spaces with factories and cars (a seat's own demand cards are the board's private
line). Reads only the view the image draws: the public view carries no hand."""

from __future__ import annotations

from engine.automobile.models import PublicView
from engine.i18n import t


def _k(key: str, locale: str, **p: object) -> str:
    return t("automobile.describe." + key, locale, **p)


def describe(view: PublicView, locale: str) -> list[str]:
    out = []
    for seat, p in view.players.items():
        line = _k(
            "player",
            locale,
            name=view.label(seat),
            money=p.money,
            rd=p.rd,
            loans=p.loans,
            losses=p.losses,
            cars=p.cars_supply,
            factories=p.factories_supply,
            hand=p.hand_count,
        )
        if seat in view.scores and view.finished:
            line += " " + _k("score", locale, score=view.scores[seat])
        out.append(line)
    for sp in view.spaces:
        if sp.owner is None or sp.closed:
            continue
        name = t(f"automobile.space.{sp.id}", locale)  # year and name, as the game's catalog names a space
        out.append(_k("space", locale, name=name, owner=view.label(sp.owner), factories=sp.factories, cars=sp.cars))
    if view.demand:
        out.append(
            _k(
                "demand",
                locale,
                demand=", ".join(f"{t(f'automobile.cls_short.{k}', locale)} {v}" for k, v in view.demand.items()),
            )
        )
    return out

"""Thunder Road: Vendetta's board in words (the presentation hook ``describe``, read by
tables/seeing/describe.py for every image's description): each crew's dice and cars,
where every vehicle stands and how damaged it is, and the hazards (face-down ones only
counted: the view carries no face-down type).  Reads only the view the image draws."""

from __future__ import annotations

from engine.i18n import t
from engine.thunder_road.models import TRView


def _k(key: str, locale: str, **p: object) -> str:
    return t("thunder_road.describe." + key, locale, **p)


def space(view: TRView, pos: list[int]) -> str:
    """A space as the image and the buttons name it ("C12")."""
    c, y = pos[0], pos[1]
    lanes = view.board.lanes
    lane = lanes[c] if 0 <= c < len(lanes) else str(c + 1)
    return f"{lane}{(y - c % 2) // 2 + 1}"


def describe(view: TRView, locale: str) -> list[str]:
    out = [_k("round", locale, round=view.round, die=view.road_die, deck=view.deck)]
    for crew in view.crews:
        name = view.label(crew.seat)
        if crew.out:
            out.append(_k("crew_out", locale, name=name))
            continue
        free = [d for i, d in enumerate(crew.dice) if i not in crew.used]
        cars = []
        for v in view.vehicles:
            if v.owner != crew.seat or v.kind == "wreck":
                continue
            where = space(view, v.pos) if v.pos is not None and v.where == "road" else _k("at_start", locale)
            what = _k(
                "car",
                locale,
                car=t(f"thunder_road.vehicle.{v.name}", locale),
                where=where,
                damage=v.damage,
                capacity=v.capacity,
            )
            if v.on_fire:
                what += " " + _k("on_fire", locale)
            cars.append(what)
        out.append(_k("crew", locale, name=name, dice=", ".join(map(str, free)) or "-", cars="; ".join(cars) or "-"))
    wrecks = [space(view, v.pos) for v in view.vehicles if v.kind == "wreck" and v.pos is not None]
    if wrecks:
        out.append(_k("wrecks", locale, where=", ".join(wrecks)))
    down = [space(view, h.pos) for h in view.hazards if not h.up]
    up = [f"{t('thunder_road.token.' + h.type, locale)} {space(view, h.pos)}" for h in view.hazards if h.up and h.type]
    if down or up:
        out.append(_k("hazards", locale, down=len(down), where=", ".join(down) or "-", up=", ".join(up) or "-"))
    return out

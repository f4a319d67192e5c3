"""Armor Clash's battlefield in words (the presentation hook ``describe``, read by
tables/seeing/describe.py): every vehicle's cell, facing, state and hurt, and the
crossroads' points.  Reads only the view the image draws: another seat's orders are
never in it (per-seat fields keep only the viewer's own)."""

from __future__ import annotations

from engine.armor_clash.models import AcView
from engine.i18n import t

DIR_NAMES = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]


def _k(key: str, locale: str, **p: object) -> str:
    return t("armor_clash.describe." + key, locale, **p)


def cell(x: int, y: int) -> str:
    """A cell as the image's edges and the buttons name it ("G5")."""
    return f"{chr(ord('A') + x)}{y + 1}"


def describe(view: AcView, locale: str) -> list[str]:
    out = [_k("turn", locale, turn=view.turn, turns=view.max_turns)]
    order = view.my_order  # the viewer's own order, on their own view only (as its card shows it)
    if order is not None:
        words = t(f"armor_clash.what.{order.what}", locale)
        target = next((u for u in view.units if u.id == order.target), None) if order.target else None
        if target is not None:
            words += " → " + (view.label(target.seat) if target.seat else target.label)
        elif order.cells:
            words += " · " + t("armor_clash.action.move_dist", locale, cells=order.cells)
        out.append(t("armor_clash.render.your_order", locale, order=words))
    for u in view.units:
        name = view.label(u.seat) if u.seat else u.label
        if not u.active:
            out.append(_k("out", locale, name=name, vehicle=u.vehicle_name))
            continue
        hurt = sum(u.injuries.values()) + u.track_knockouts
        facing = t(f"armor_clash.dir.{DIR_NAMES[u.hull % 8]}", locale)
        out.append(
            _k(
                "unit",
                locale,
                name=name,
                vehicle=u.vehicle_name,
                cell=cell(u.x, u.y),
                facing=facing,
                ammo=u.loaded or _k("empty", locale),
                hurt=hurt,
            )
        )
    if view.objective is not None:
        points = ", ".join(f"{view.label(s)} {n}" for s, n in view.objective.points.items())
        holder = view.label(view.objective.holder) if view.objective.holder else "-"
        out.append(
            _k(
                "objective",
                locale,
                cells=", ".join(view.objective.cells),
                goal=view.objective.goal,
                points=points or "-",
                holder=holder,
            )
        )
    return out

"""The help an invalid ``key=value`` option gets: the game's valid keys with the values
each takes, as a player would type them."""

from __future__ import annotations

from engine.base import Game
from engine.i18n import t
from tables import game_name


def options_help(game: Game, locale: str) -> str:
    """An invalid option: the valid keys with their values, in the reader's language."""
    lines = [t("discord.options.invalid", locale, game=game_name(game.id, locale))]
    for name, info in type(game).Options.model_fields.items():
        lines.append(f"• `{name}` = {_values(info)}" + (f" — {info.description}" if info.description else ""))
    if len(lines) == 1:
        lines.append(t("discord.options.none", locale))
    lines.append(t("discord.options.example", locale))
    return "\n".join(lines)


def _values(info) -> str:
    """The values an option field takes, as a player would type them."""
    import typing

    ann = info.annotation
    args = typing.get_args(ann)
    if typing.get_origin(ann) is typing.Literal:
        return " | ".join(f"`{a}`" for a in args)
    lits = [a for a in args if typing.get_origin(a) is typing.Literal]
    if lits:
        return " | ".join(f"`{v}`" for lit in lits for v in typing.get_args(lit))
    if ann is bool:
        return "`true` | `false`"
    if ann is int or ann is float:
        lo = next((m.ge for m in info.metadata if getattr(m, "ge", None) is not None), None)
        hi = next((m.le for m in info.metadata if getattr(m, "le", None) is not None), None)
        if lo is not None and hi is not None:
            return f"`{lo}`…`{hi}`"
        return "`n`"
    default = info.default
    return f"(`{default}`)" if isinstance(default, (str, int, float)) else "…"

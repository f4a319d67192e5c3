"""AI levels on Discord: the ``/game new ai_level:`` choices, the label of an
AI seat ("AI, hard"), the board's line of AI seats and the lobby's Add AI menu.
The levels themselves (checking, which level a move is made at) are the table
service's (tables/rules/levels.py)."""

from __future__ import annotations

import discord
from discord import app_commands

from cogs.kit.locale import ls
from engine import available, get_game
from engine.base import Game
from engine.i18n import t
from engine.locales import DEFAULT
from store import GameRow
from tables import PLATFORM_LEVELS, level_key, level_name, level_param, seat_level, table_level


def level_choices() -> list[app_commands.Choice[str]]:
    """Every registered game's AI levels as command choices (each game checks
    that it has the chosen one); named from the catalogs (``core.ai_level.<level>``)."""
    keys: dict[str, str] = {}  # level -> the catalog key naming it (the first game's that has one)
    for gid in available():
        for lv in get_game(gid).ai_levels:
            keys.setdefault(lv, level_key(gid, lv) or f"core.ai_level.{lv}")
    ordered = sorted(keys, key=lambda lv: PLATFORM_LEVELS.index(lv) if lv in PLATFORM_LEVELS else len(PLATFORM_LEVELS))
    return [app_commands.Choice(name=ls(t(keys[lv], DEFAULT), keys[lv]), value=lv) for lv in ordered]


def ai_label(row: GameRow, seat: str, locale: str) -> str:
    """An AI seat's label: "AI", or "AI, hard" when the game has several AI levels."""
    game = get_game(row.game)
    if len(game.ai_levels) < 2:
        return t("core.ui.ai", locale)
    return t("core.ui.ai_at_level", locale, level=level_param(game.id, seat_level(row, game, seat)))


def ai_seats_line(row: GameRow, locale: str) -> str | None:
    """The AI seats and their levels, for a board ("AI: p2 (hard)"); None
    when the game has one level or no seat is the AI's."""
    game = get_game(row.game)
    ai = [s.seat for s in row.seats if s.user_id is None]
    if len(game.ai_levels) < 2 or not ai:
        return None
    seats = tuple(f"{s} ({level_name(game.id, seat_level(row, game, s), locale)})" for s in ai)
    return t("core.ui.ai_seats", locale, seats=seats)


def lobby_ai_select(row: GameRow, game: Game, locale: str, *, row_index: int | None = 1) -> discord.ui.Item | None:
    """The lobby's Add AI menu, one option per level (the table's level first);
    None when the game has one level (the lobby's plain Add AI button) or one seat."""
    from cogs.kit.components import LobbyAISelect

    if len(game.ai_levels) < 2 or game.seat_range(row.options)[1] < 2:
        return None
    first = table_level(row, game)
    levels = [first] + [lv for lv in game.ai_levels if lv != first]
    options = [
        discord.SelectOption(label=t("core.ui.add_ai_at", locale, level=level_param(game.id, lv))[:100], value=lv)
        for lv in levels
    ]
    return LobbyAISelect(row.id, placeholder=t("core.ui.add_ai_choose", locale)[:150], options=options, row=row_index)

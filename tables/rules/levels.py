"""AI levels of a table's seats: checking a requested level, the level an AI
move is made at, and the catalog key that names a level.

A game declares its levels (``Game.ai_levels``; the first is its default).
Each seat stores the level the seat-filler AI plays it at (``Seat.ai_level``,
None: the game's default); a table also keeps the level chosen when it was
opened (``GameRow.table["ai_level"]``), which a seat handed to the AI (a
resignation, a hand-over) and a turn timer playing for an absent member use.
"""

from __future__ import annotations

from typing import Any

from engine import GameError
from engine.base import Game
from engine.i18n import has, t
from store import GameRow

#: the key of a table's level in ``GameRow.table``
TABLE_KEY = "ai_level"
ECHO_CHARS = 40
#: the levels the platform names (``core.ai_level.<level>``), weakest first
PLATFORM_LEVELS = ("easy", "hard")


def level_key(game_id: str, level: str) -> str | None:
    """The catalog key naming ``level``: the game's own (``<id>.ai_level.<level>``),
    else the platform's (``core.ai_level.<level>``); None when neither exists."""
    for key in (f"{game_id}.ai_level.{level}", f"core.ai_level.{level}"):
        if has(key):
            return key
    return None


def level_param(game_id: str, level: str) -> str:
    """A message parameter naming ``level`` (translated when the message is)."""
    key = level_key(game_id, level)
    return f"@{key}" if key else level


def level_name(game_id: str, level: str, locale: str | None) -> str:
    """``level``'s name in ``locale``."""
    key = level_key(game_id, level)
    return t(key, locale) if key else level


def check_level(game: Game, level: Any) -> str:
    """``level`` when the game has it (None: the game's default); else
    ``GameError("bad_ai_level")`` naming the game's levels."""
    if level is None:
        return game.ai_levels[0]
    if isinstance(level, str) and level in game.ai_levels:
        return level
    shown = str(level).replace("`", "'").replace("\n", " ")[:ECHO_CHARS]
    raise GameError(
        "bad_ai_level",
        "core.ui.bad_ai_level",
        level=f"`{shown}`",
        game=f"@{game.id}.name" if has(f"{game.id}.name") else game.id,
        levels=tuple(level_param(game.id, lv) for lv in game.ai_levels),
    )


def table_level(row: GameRow, game: Game) -> str:
    """The table's level: the one chosen when it opened, else the game's default."""
    level = row.table.get(TABLE_KEY)
    return level if isinstance(level, str) and level in game.ai_levels else game.ai_levels[0]


def seat_level(row: GameRow, game: Game, seat: str) -> str:
    """The level the AI plays ``seat`` at: the seat's own, else the table's.
    A stored level the game no longer has falls back the same way."""
    level = row.ai_level_of(seat)
    return level if level is not None and level in game.ai_levels else table_level(row, game)


def ai_move(game: Game, row: GameRow, state: Any, seat: str) -> Any:
    """The seat-filler AI's action for ``seat`` at the seat's level."""
    return game.ai_action(state, seat, seat_level(row, game, seat))


def timer_move(game: Game, row: GameRow, state: Any, seat: str) -> Any:
    """What a turn timer takes for ``seat``: the game's default action; when
    that is the AI's choice (the game keeps the base policy), at the seat's level."""
    if type(game)._default_action is Game._default_action:
        return ai_move(game, row, state, seat)
    return game.default_action(state, seat)

"""The one registry of games.  Ids are used everywhere (commands, driver,
data/, database)."""

from __future__ import annotations

import importlib
from functools import cache

from .base import Game
from .errors import GameError

GAME_IDS: tuple[str, ...] = ("city_of_fury", "thunder_road", "automobile", "armor_clash")


@cache
def _load(game_id: str) -> Game | None:
    try:
        module = importlib.import_module(f"engine.{game_id}")
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith(f"engine.{game_id}"):
            return None
        raise
    game = getattr(module, "GAME", None)
    return game if isinstance(game, Game) else None


def get_game(game_id: str) -> Game:
    if game_id not in GAME_IDS:
        raise GameError("unknown_game", "core.error.unknown_game", game=game_id)
    game = _load(game_id)
    if game is None:
        raise GameError("unknown_game", "core.error.unknown_game", game=game_id)
    return game


def available() -> list[str]:
    """The ids of the games implemented in this build, in registry order."""
    return [g for g in GAME_IDS if _load(g) is not None]

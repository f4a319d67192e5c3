"""Pure, synchronous game engines.  No discord, asyncio, database or imaging here."""

from .base import BaseState, Event, Game, Model, Msg, Outcome, canonical
from .errors import GameError
from .registry import GAME_IDS, available, get_game
from .rng import Rng

__all__ = [
    "BaseState",
    "Event",
    "Game",
    "GameError",
    "GAME_IDS",
    "Model",
    "Msg",
    "Outcome",
    "Rng",
    "available",
    "canonical",
    "get_game",
]

"""Pure, synchronous game engines.  No discord, asyncio, database or imaging here."""

from .base import (
    PER_SEAT,
    BaseState,
    Event,
    Game,
    GameCommand,
    Model,
    Msg,
    Outcome,
    RigSpec,
    SeatId,
    SeatLabel,
    View,
    bad_state,
    canonical,
)
from .errors import GameError
from .registry import available, get_game, register, unregister
from .rng import RigError, Rng

__all__ = [
    "PER_SEAT",
    "BaseState",
    "Event",
    "Game",
    "GameCommand",
    "GameError",
    "Model",
    "Msg",
    "Outcome",
    "RigError",
    "RigSpec",
    "Rng",
    "SeatId",
    "SeatLabel",
    "View",
    "available",
    "bad_state",
    "canonical",
    "get_game",
    "register",
    "unregister",
]

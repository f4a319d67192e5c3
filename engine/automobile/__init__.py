"""Automobile (汽车传奇), 3-5 players.  See docs/rulings.md (Automobile)."""

from .game import Automobile

GAME = Automobile()

__all__ = ["GAME", "Automobile"]

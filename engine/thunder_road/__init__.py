"""Thunder Road: Vendetta -- race, slam and shoot down a scrolling road (2-5 players)."""

from .game import ThunderRoad

GAME = ThunderRoad()

__all__ = ["GAME", "ThunderRoad"]

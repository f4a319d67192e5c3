"""City of Fury (狂怒之城), the 9-card solo street brawler."""

from .game import CityOfFury

GAME = CityOfFury()

__all__ = ["GAME", "CityOfFury"]

"""Armor Clash (桌面战争：装甲对抗): tank skirmishes and the Wittmann boss fight."""

from .game import ArmorClash

GAME = ArmorClash()

__all__ = ["GAME", "ArmorClash"]

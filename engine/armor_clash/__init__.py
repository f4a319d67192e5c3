"""Armor Clash (桌面战争：装甲对抗): tank skirmishes and the Wittmann boss fight."""

from __future__ import annotations

from . import campaign
from .game import ArmorClash
from .models import Options, State

GAME = ArmorClash()


def start_scenario(
    progress: campaign.Progress, seats: list[str], seed: int = 0
) -> tuple[campaign.Progress, Options, State]:
    """Join any new seats, then build the current scenario.  Returns (progress, options, state)."""
    progress, opts = campaign.prepare_scenario(progress, seats)
    state = GAME.new(list(seats), opts, seed)
    assert isinstance(state, State)
    return progress, opts, state


__all__ = ["GAME", "ArmorClash", "start_scenario"]

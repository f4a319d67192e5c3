"""``/play`` chains: a seat's next decisions simulated on a copy of the state.

A chain never looks past what the player may know: it ends at the first step
that rolls a die, shuffles (the RNG moved) or reveals hidden information
(``game.hidden_revealed``), and where the seat's turn passes on or the game ends.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine import GameError
from engine.base import BaseState, Game


@dataclass
class Preview:
    labels: list[str]  # the chain's steps so far, labelled
    complete: bool  # the chain cannot go on (roll, reveal, turn over): offer it as it stands
    options: list[tuple[int, str]] = field(default_factory=list)  # (legal index, label) of the next step
    valid: bool = True  # False: the chain does not fit this state (stale or forged)


def step_ends_chain(game: Game, before: BaseState, after: BaseState, seat: str) -> bool:
    """Whether a chain must stop after going from ``before`` to ``after``."""
    return (
        after.rng != before.rng
        or game.hidden_revealed(before, after)
        or seat not in game.to_act(after)
        or game.outcome(after) is not None
    )


def preview(game: Game, state: BaseState, seat: str, chain: list[int], locale: str) -> Preview:
    labels: list[str] = []
    for idx in chain:
        legal = game.legal_actions(state, seat)
        if not 0 <= idx < len(legal):
            return Preview(labels, True, valid=False)
        labels.append(game.action_label(state, legal[idx], locale))
        try:
            after, _ = game.apply(state, seat, legal[idx])
        except GameError:
            return Preview(labels, True, valid=False)
        if step_ends_chain(game, state, after, seat):
            return Preview(labels, True)
        state = after
    options: list[tuple[int, str]] = [
        (i, game.action_label(state, a, locale)) for i, a in enumerate(game.legal_actions(state, seat))
    ]
    return Preview(labels, False, options)

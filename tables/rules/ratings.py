"""Multiplayer ratings per game and server (OpenSkill, Plackett-Luce model).

A finished table's human seats are rated by their places among each other (ties
are draws); AI seats are left out (the seat-filler AI is not a player whose
skill we estimate, and it plays every seat of a table, so as a fixed reference
it would only add noise).  A table with fewer than two humans changes no rating.
The new ratings go into the same change set as the result (store.RatingChange,
compare-and-swap on each rating's version), so a result and its ratings land
together or not at all.

Shown as the conservative estimate ``mu - 3 sigma`` (what leaderboards sort by),
with ``mu``, ``sigma`` and the number of rated games.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from openskill.models import PlackettLuce

from store import RatingChange, RatingRow, ResultRow

MODEL = PlackettLuce()


def conservative(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def initial() -> tuple[float, float]:
    return float(MODEL.mu), float(MODEL.sigma)


def rate(
    guild_id: int | None, game: str, results: Sequence[ResultRow], current: Sequence[RatingRow]
) -> list[RatingChange]:
    """The rating changes a finished table's results make."""
    humans = [r for r in results if r.user_id is not None and r.user_id > 0]
    if guild_id is None or len({r.user_id for r in humans}) < 2:
        return []
    known = {r.user_id: r for r in current}
    players: list[list[Any]] = []
    ranks: list[float] = []
    for r in humans:
        row = known.get(r.user_id)
        mu, sigma = (row.mu, row.sigma) if row else initial()
        players.append([MODEL.create_rating([mu, sigma], name=str(r.user_id))])
        ranks.append(float(r.place))
    rated = MODEL.rate(players, ranks=ranks)
    out = []
    for r, team in zip(humans, rated):
        new = team[0]
        row = known.get(r.user_id)
        out.append(
            RatingChange(
                guild_id=guild_id,
                game=game,
                user_id=r.user_id,
                expected_version=row.version if row else 0,
                mu=float(new.mu),
                sigma=float(new.sigma),
                played=(row.played if row else 0) + 1,
            )
        )
    return out

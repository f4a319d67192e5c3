"""Standings (Discord-free): a server's leaderboard of a game and a campaign's points
table, for the Discord commands and the web companion alike."""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.i18n import t
from store import Campaign, RatingRow, StatRow
from store.ports import CampaignStore
from tables.rules import ratings

Z = 1.96  # 95% confidence


def wilson_lower(wins: int, played: int) -> float:
    """Lower bound of the Wilson score interval: a confidence-aware win rate
    (3 wins of 3 ranks below 60 of 80)."""
    if played == 0:
        return 0.0
    p = wins / played
    denom = 1 + Z * Z / played
    centre = p + Z * Z / (2 * played)
    margin = Z * math.sqrt(p * (1 - p) / played + Z * Z / (4 * played * played))
    return (centre - margin) / denom


def rank(rows: list[StatRow]) -> list[StatRow]:
    return sorted(rows, key=lambda r: (-wilson_lower(r.wins, r.played), -r.wins, r.user_id))


def rank_by_rating(rows: list[StatRow], rated: dict[int, RatingRow]) -> list[StatRow]:
    """Rated players by their cautious rating, then the unrated by the win-rate bound."""
    with_rating = sorted(
        (r for r in rows if r.user_id in rated),
        key=lambda r: (-ratings.conservative(rated[r.user_id].mu, rated[r.user_id].sigma), r.user_id),
    )
    return with_rating + rank([r for r in rows if r.user_id not in rated])


@dataclass
class Ranked:
    place: int
    stat: StatRow
    rating: RatingRow | None


async def leaderboard(store: CampaignStore, guild_id: int, game: str, limit: int = 10) -> list[Ranked]:
    """A server's best players of a game: rated by their cautious rating, then the rest."""
    rated = {r.user_id: r for r in await store.ratings(guild_id, game)}
    rows = rank_by_rating(await store.stats(guild_id, game=game), rated)[:limit]
    return [Ranked(i + 1, r, rated.get(r.user_id)) for i, r in enumerate(rows)]


async def campaign_standings(store: CampaignStore, campaign: Campaign | int) -> list[tuple[int, int, int, int]]:
    """(member, points, tables, wins) of a campaign, best first."""
    camp = await store.campaign_by_id(campaign) if isinstance(campaign, int) else campaign
    if camp is None:
        return []
    totals: dict[int, list[int]] = {}
    for r in await store.results_of_campaign(camp.id):
        entry = totals.setdefault(r.user_id, [0, 0, 0])
        entry[0] += camp.points[r.place - 1] if 0 < r.place <= len(camp.points) else 0
        entry[1] += 1
        entry[2] += int(r.won)
    return sorted(((u, p, n, w) for u, (p, n, w) in totals.items()), key=lambda x: (-x[1], -x[3], x[0]))


async def opening_game(store: CampaignStore, guild_id: int) -> str:
    """The game a server's leaderboard opens on: the one with the most results there
    (ties: the first by id), or the first game when the server has none yet."""
    played: dict[str, int] = {}
    for row in await store.stats(guild_id):
        played[row.game] = played.get(row.game, 0) + row.played
    known = games()
    ranked = sorted((g for g in played if g in known), key=lambda g: (-played[g], g))
    return ranked[0] if ranked else known[0]


def games() -> list[str]:
    """The ids of every game the bot runs."""
    from engine import available

    return sorted(available())


def record_column(game_id: str) -> tuple[str | None, bool]:
    """(catalog key of the game's record column, whether lower is better) or (None, False)."""
    from engine import get_game

    g = get_game(game_id)
    return (g.record_key + ".short" if g.record_key else None), bool(g.record_lower_is_better)


def record_value(game_id: str, value: float | None, locale: str) -> str:
    """A record as a table cell, with its unit ("6 rounds", "$2,130"); "-" for none."""
    from engine import get_game

    key = get_game(game_id).record_key
    if value is None or key is None:
        return "-"
    n = int(value) if float(value).is_integer() else value
    return t(key + ".cell", locale, value=n)


def rating_value(row: RatingRow | None) -> str:
    """A rating as shown in tables: the cautious estimate and its uncertainty."""
    if row is None:
        return "-"
    return f"{ratings.conservative(row.mu, row.sigma):.1f} ±{row.sigma:.1f}"

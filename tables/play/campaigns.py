"""Campaigns: a new campaign, and a campaign table's seats and story options
(each member keeps one seat name across the campaign's tables).  A finished
table's story progress is part of its commit (the kernel)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from engine import GameError, get_game
from engine.base import Game
from store import Campaign, CampaignChange, ChannelBusy, GameRow, LimitReached, Seat
from store.ports import CampaignStore
from tables.core.common import TurnRefused, limit_refused
from tables.core.kernel import Kernel
from tables.rules import limits
from tables.rules.text import quote


class Campaigns:
    """Creating campaigns (their seats and story options: :func:`campaign_setup`)."""

    def __init__(self, kernel: Kernel, limits_of: Callable[[int | None], Awaitable[dict[str, int]]]) -> None:
        self.k = kernel
        self.store: CampaignStore = kernel.backend
        self.limits = limits_of

    async def create_campaign(
        self,
        *,
        guild_id: int,
        game_id: str,
        name: str,
        points: list[int],
        created_by: int,
        story: dict[str, Any],
    ) -> Campaign:
        """A new campaign (story modes start from ``story`` options); raises
        GameError for bad story options."""
        progress = {"members": {}, "story": get_game(game_id).campaign_init(story)}
        try:
            return await self.store.create_campaign(
                guild_id=guild_id,
                game=game_id,
                name=name,
                points=points,
                created_by=created_by,
                progress=progress,
                caps=limits.caps(await self.limits(guild_id), "campaigns"),
            )
        except ChannelBusy:
            raise TurnRefused("exists", "core.campaign.exists", name=quote(name)) from None
        except LimitReached as exc:
            raise limit_refused(exc) from None


def campaign_setup(row: GameRow, game: Game, camp: Campaign) -> tuple[list[Seat], dict[str, Any], CampaignChange]:
    """A campaign table: each member keeps one seat name across the campaign's
    tables (a story crew follows its player); a story mode sets the
    scenario's options from the campaign's progress."""
    progress = dict(camp.progress or {})
    members: dict[str, str] = dict(progress.get("members") or {})
    taken = set(members.values())
    n = 1
    for s in row.seats:
        if s.user_id is not None and str(s.user_id) not in members:
            while f"p{n}" in taken:
                n += 1
            members[str(s.user_id)] = f"p{n}"
            taken.add(f"p{n}")
    seats, ai = [], 1
    for s in row.seats:
        if s.user_id is not None:
            seats.append(Seat(members[str(s.user_id)], s.user_id, s.ai_level))
        else:
            while f"ai{ai}" in taken:
                ai += 1
            seats.append(Seat(f"ai{ai}", None, s.ai_level))
            taken.add(f"ai{ai}")
    try:
        extra = game.campaign_options(progress.get("story"), [s.seat for s in seats])
    except GameError as exc:
        raise TurnRefused.from_game_error(exc) from None
    progress["members"] = members
    return seats, {**row.options, **(extra or {})}, CampaignChange(camp.id, camp.version, progress)

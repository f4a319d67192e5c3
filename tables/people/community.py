"""A server's records (Discord-free): members' stats and ratings, its leaderboards and
its campaigns' standings, for /stats, /leaderboard, /campaign and the web companion."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from store import Campaign, RatingRow, StatRow
from store.ports import CampaignStore
from tables.core.common import storable
from tables.people import standings

if TYPE_CHECKING:
    from tables.core.kernel import Kernel


class Community:
    """Reads only: nothing here changes a table or a record."""

    def __init__(self, kernel: Kernel) -> None:
        self.store: CampaignStore = kernel.backend

    async def stats(self, guild_id: int, *, game: str | None = None, user_id: int | None = None) -> list[StatRow]:
        """Each member's played and won tables on this server (of one game, or of one member)."""
        return await self.store.stats(guild_id, game=game, user_id=user_id)

    async def ratings(
        self, guild_id: int, game: str | None = None, user_ids: Sequence[int] | None = None
    ) -> list[RatingRow]:
        """The members' ratings on this server (of one game, or of the members named)."""
        return await self.store.ratings(guild_id, game, user_ids)

    async def leaderboard(self, guild_id: int, game: str, limit: int = 10) -> list[standings.Ranked]:
        return await standings.leaderboard(self.store, guild_id, game, limit)

    async def opening_game(self, guild_id: int) -> str:
        """The game the server's leaderboard opens on (the one with the most results)."""
        return await standings.opening_game(self.store, guild_id)

    async def campaign(self, guild_id: int, name: str) -> Campaign | None:
        """The server's campaign of that name, if any."""
        return await self.store.campaign(guild_id, name)

    async def campaign_by_id(self, campaign_id: int) -> Campaign | None:
        return await self.store.campaign_by_id(campaign_id) if storable(campaign_id) else None

    async def server_campaigns(self, guild_id: int | None) -> list[Campaign]:
        """The server's campaigns (none outside a server)."""
        return await self.store.campaigns(guild_id) if guild_id is not None else []

    async def campaign_standings(self, campaign: Campaign | int) -> list[tuple[int, int, int, int]]:
        """(member, points, tables, wins) of a campaign, best first."""
        return await standings.campaign_standings(self.store, campaign)

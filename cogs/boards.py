"""Posting boards: shared by the cogs that tell a channel about a table
(turns, timers, votes).  Not a cog itself, so cogs never reach each other."""

from __future__ import annotations

import logging

import discord

from store import GameRow
from tables import TableService, TurnResult

from .clockview import add_bank_field
from .services import Services
from .ui import allowed_mentions, board_components, board_embed, board_file, next_mentions

log = logging.getLogger("tabletop.boards")


class Boards:
    def __init__(self, client: discord.Client, services: Services) -> None:
        self.client = client
        self.services = services

    @property
    def tables(self) -> TableService:
        return self.services.tables

    async def public_locale_of(self, row: GameRow) -> str:
        """Public messages: the server's language setting, else the table's, else the bot's default."""
        settings = await self.services.guild_settings(row.guild_id)
        return settings.get("language") or row.locale or self.services.default_locale

    async def channel_of(self, row: GameRow):
        channel = self.client.get_channel(row.channel_id)
        if channel is None:
            try:
                channel = await self.client.fetch_channel(row.channel_id)
            except discord.HTTPException:
                log.warning("channel %s of table %s is gone", row.channel_id, row.id)
                return None
        return channel

    async def message_kwargs(self, result: TurnResult, locale: str, note: str | None = None) -> dict:
        png = await self.tables.render(result.game, result.state, None, locale)
        content = " ".join(p for p in (note, next_mentions(result.row, result.game, result.state)) if p)
        return {
            "content": content or None,
            "embed": await add_bank_field(
                board_embed(result.row, result.game, result.state, result.events, locale),
                self.tables,
                result.row,
                locale,
            ),
            "file": board_file(png),
            "view": board_components(result.row, result.game, result.state, locale) or discord.utils.MISSING,
            "allowed_mentions": allowed_mentions(),
        }

    async def post_to(self, channel, result: TurnResult, locale: str, note: str | None = None) -> None:
        """A board as an ordinary channel message (timers, votes, reposts: no interaction to answer)."""
        await channel.send(**await self.message_kwargs(result, locale, note))

    async def repost(self, result: TurnResult, note: str | None = None) -> bool:
        """Post the board anew in the table's channel (after an edit or followup failed)."""
        channel = await self.channel_of(result.row)
        if channel is None:
            return False
        try:
            await self.post_to(channel, result, await self.public_locale_of(result.row), note)
        except discord.HTTPException:
            log.exception("table %s: the board could not be reposted", result.row.id)
            return False
        return True

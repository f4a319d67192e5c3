"""Who is who on Discord, for the messages the bot posts: members' display names
(every interaction refreshes them; a short-lived cache), each member's language, a
table's channel and public language, and every seat's label (the one rule: tables/seeing/board.py)."""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence

import discord

from cogs.kit.services import Services
from engine.base import SeatLabel
from store import GameRow
from tables import TableService, seat_labels

log = logging.getLogger("tabletop.boards")


#: display names seen lately: (guild id, user id) -> (name, when); names change rarely
_NAMES: dict[tuple[int, int], tuple[str, float]] = {}
#: each member's language, as their last interaction gave it (for messages sent them unasked)
_LOCALES: dict[int, str] = {}
NAME_TTL = 900.0


def remember(guild_id: int | None, user: discord.abc.User, locale: str | None = None) -> None:
    """Note a member's display name (every interaction carries it, fresh) and language."""
    if len(_NAMES) > 10_000:
        _NAMES.clear()
        _LOCALES.clear()
    if guild_id is not None:
        _NAMES[(guild_id, user.id)] = (user.display_name, time.monotonic())
    if locale:
        _LOCALES[user.id] = locale


class DiscordNames:
    """The client, the cogs' services and what they say about people and places."""

    def __init__(self, client: discord.Client, services: Services) -> None:
        self.client = client
        self.services = services

    @property
    def tables(self) -> TableService:
        return self.services.tables

    async def public_locale_of(self, row: GameRow) -> str:
        """A table's public language, fixed when it was opened (the server's
        setting then, else the host's locale); older tables without one: the
        server's setting now, else the bot's default."""
        if row.locale:
            return row.locale
        settings = await self.services.settings.server_settings(row.guild_id)
        return settings.get("language") or self.services.default_locale

    async def channel_of(self, row: GameRow):
        channel = self.client.get_channel(row.channel_id)
        if channel is None:
            try:
                channel = await self.client.fetch_channel(row.channel_id)
            except discord.HTTPException:
                log.warning("channel %s of table %s is gone", row.channel_id, row.id)
                return None
        return channel

    # ------------------------------------------------------------ names
    async def name_of(self, guild_id: int | None, user_id: int) -> str | None:
        now = time.monotonic()
        if guild_id is not None:
            hit = _NAMES.get((guild_id, user_id))
            if hit is not None and now - hit[1] < NAME_TTL:
                return hit[0]
            guild = self.client.get_guild(guild_id)
            member = guild.get_member(user_id) if guild is not None else None
            if member is None and guild is not None:
                try:
                    member = await guild.fetch_member(user_id)
                except discord.HTTPException:
                    member = None
            if member is not None:
                remember(guild_id, member)
                return member.display_name
            if hit is not None:
                return hit[0]
        user = self.client.get_user(user_id)
        return user.display_name if user is not None else None

    async def language_of(self, uid: int) -> str | None:
        """A member's language: their stored preference, else their last interaction's."""
        return await self.services.members.of(uid) or _LOCALES.get(uid)

    async def labels(self, row: GameRow, locale: str) -> dict[str, SeatLabel]:
        """Every seat's display name and stable colour (AI seats named as the AI)."""
        names = {}
        for uid in row.humans:
            name = await self.name_of(row.guild_id, uid)
            if name:
                names[uid] = name
        try:  # the names this board shows, for every process's pages (one write only when one changed)
            await self.tables.fill_names(row.guild_id, names)
        except Exception as exc:  # noqa: BLE001 -- a board is drawn even when the store cannot take a name
            log.warning("table %s: names not stored: %s", row.id, exc)
        return seat_labels(row, names, locale)

    async def cached_names(self, guild_id: int | None, members: Sequence[int]) -> dict[int, str]:
        """Display names the bot already knows (for the web companion: no Discord request per page view)."""
        now = time.monotonic()
        out: dict[int, str] = {}
        guild = self.client.get_guild(guild_id) if guild_id is not None else None
        for uid in members:
            hit = _NAMES.get((guild_id, uid)) if guild_id is not None else None
            member = guild.get_member(uid) if guild is not None else None
            if hit is not None and now - hit[1] < NAME_TTL:
                out[uid] = hit[0]
            elif member is not None:
                out[uid] = member.display_name
            elif hit is not None:
                out[uid] = hit[0]
            elif (user := self.client.get_user(uid)) is not None:
                out[uid] = user.display_name
        return out

"""Interactions bound to their place: a table's components act only in that
table's server and channel, and a server command only in a server.

Discord shows a table's buttons in its own channel (its board, its lobby, a
crew's private panel there); a payload naming another server or channel (a
forged custom_id, a replayed click) is refused before the table service is
asked anything, privately and in the member's language, and nothing changes.
Commands marked guild-only are registered for server channels only
(``contexts: [0]``) and are refused by the bot itself if one arrives from a
direct message anyway.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from cogs.kit import reach
from cogs.kit.locale import locale_of, say
from engine.i18n import t
from engine.locales import DEFAULT
from store import GameRow, LeagueRow


def _default_locale(interaction: discord.Interaction) -> str:
    services: Any = getattr(interaction.client, "services", None)
    return getattr(services, "default_locale", DEFAULT)


async def tell(interaction: discord.Interaction, key: str) -> None:
    """A private refusal in the member's language (before or after deferring); an
    autocomplete is left unanswered (it shows no choices)."""
    if interaction.type is discord.InteractionType.autocomplete:
        return
    text = t(key, locale_of(interaction, _default_locale(interaction)))
    try:
        await say(interaction, text)
    except discord.HTTPException:
        pass


def elsewhere(interaction: discord.Interaction, row: GameRow | LeagueRow | None) -> bool:
    """Whether ``interaction`` comes from outside table (or league) ``row``'s server and channel."""
    return row is not None and (row.guild_id != interaction.guild_id or row.channel_id != interaction.channel_id)


async def at_table(interaction: discord.Interaction, row: GameRow | None) -> bool:
    """True when ``interaction`` may act on table ``row`` (its own server and
    channel, or no such table: the service refuses that itself); otherwise the
    member has been told, and the caller changes nothing."""
    if not elsewhere(interaction, row):
        return True
    await tell(interaction, "discord.forged.other_channel")
    return False


def guild_only(command: Any) -> bool:
    """Whether a (sub)command needs a server channel where the bot is: it belongs to a
    guild-only command or group, or to a group that works from anywhere only for the
    subcommands marked so (cogs/kit/reach.py ``anywhere``; ``/game catchup``)."""
    if command is None or reach.works_anywhere(command):
        return False
    root = getattr(command, "root_parent", None) or command
    return bool(getattr(root, "guild_only", False) or reach.needs_server(root))


def bind_to_guilds(command: Any) -> None:
    """A guild-only command or group is registered for server channels only.
    (discord.py sends ``contexts`` for the ``guild_only`` decorator but not for
    a group made with ``guild_only=True``.)"""
    if getattr(command, "guild_only", False) and getattr(command, "allowed_contexts", None) is None:
        command.allowed_contexts = app_commands.AppCommandContext(guild=True, dm_channel=False, private_channel=False)


async def in_place(interaction: discord.Interaction) -> bool:
    """A command's check: a guild-only command is refused in a direct message;
    a command naming a server whose channel it is not in is refused."""
    if interaction.type not in (discord.InteractionType.application_command, discord.InteractionType.autocomplete):
        return True
    if interaction.guild_id is None:
        if guild_only(interaction.command):
            await tell(interaction, "discord.forged.not_in_guild")
            return False
        return True
    if not interaction.is_guild_integration():  # installed by the member, in a server the bot is not in
        if guild_only(interaction.command):
            await tell(interaction, "reach.bot_not_here")
            return False
        return True  # nothing of this channel is ours: the command answers privately
    channel = interaction.client.get_channel(interaction.channel_id) if interaction.channel_id else None
    guild = getattr(channel, "guild", None)
    if guild is not None and guild.id != interaction.guild_id:
        await tell(interaction, "discord.forged.other_channel")
        return False
    if channel is None and interaction.channel_id is not None:  # not cached: the channel's table says
        services: Any = getattr(interaction.client, "services", None)
        try:
            row = await services.tables.row(channel_id=interaction.channel_id) if services else None
        except Exception:  # noqa: BLE001 -- an unreadable row is refused by the command itself
            row = None
        if row is not None and row.guild_id != interaction.guild_id:
            await tell(interaction, "discord.forged.other_channel")
            return False
    return True


__all__ = ["at_table", "bind_to_guilds", "elsewhere", "guild_only", "in_place", "tell"]


def guild_id(interaction: discord.Interaction) -> int:
    """The server of a guild-only command (discord.py refuses them elsewhere)."""
    assert interaction.guild_id is not None  # the commands are guild_only
    return interaction.guild_id

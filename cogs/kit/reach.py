"""Where a command may run (issue 32 item 5): installed to a server, to a member's own
account, or both, and in which kinds of channel.  Discord reads these from the synced
command (``integration_types``, ``contexts``); a command that works from anywhere answers
privately and needs nothing of the channel it was used in."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

#: a server's channels, the member's direct messages with the bot, and group DMs / other DMs
ANYWHERE = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)
#: installed to a server, and to a member's own account ("user install")
EVERY_INSTALL = app_commands.AppInstallationType(guild=True, user=True)
#: the server install only (every other command: it posts in the server's channels)
SERVER_INSTALL = app_commands.AppInstallationType(guild=True, user=False)


def bot_in_server(interaction: discord.Interaction) -> bool:
    """Whether this interaction comes from a server channel of a server that installed the
    bot (so the bot can post there), not a DM nor a server where only the member installed it."""
    return interaction.guild_id is not None and interaction.is_guild_integration()


def anywhere(command: app_commands.Command[Any, Any, Any]) -> app_commands.Command[Any, Any, Any]:
    """Mark a subcommand of a server group (``/game``) as one that works from anywhere."""
    command.extras["anywhere"] = True
    return command


def works_anywhere(command: Any) -> bool:
    return bool((getattr(command, "extras", None) or {}).get("anywhere"))


def needs_server(command: Any) -> bool:
    """Whether a group opened to every place still needs a server with the bot for its
    subcommands not marked :func:`anywhere` (``extras={"server": True}``)."""
    return bool((getattr(command, "extras", None) or {}).get("server"))


def server_install_by_default(command: Any) -> None:
    """A command that does not say otherwise is installed with the server only: it posts in
    the server's channels, which a member's own install cannot reach."""
    if getattr(command, "allowed_installs", None) is None:
        command.allowed_installs = SERVER_INSTALL

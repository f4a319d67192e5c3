"""The one interaction check against flooding.

Every slash command (through :class:`GuardedTree`, the bot's command tree) and
every component click or select (through ``ErrorHook.click``, where every
component of ours is routed: cogs/kit/components.py) passes :func:`admit` before anything else runs.
The counting lives in :class:`tables.people.flood.FloodGate` (Discord-free); here a
refused member is told, privately and in their language, to slow down.
Autocomplete is not counted: it is typing, not acting, and changes nothing.
"""

from __future__ import annotations

import logging
import math
from typing import Any

import discord
from discord import app_commands

from cogs.kit.bound import bind_to_guilds, in_place
from cogs.kit.components import NotLoaded, routes_of
from cogs.kit.inputs import unreadable_text
from cogs.kit.locale import locale_of, say
from cogs.kit.reach import server_install_by_default
from engine.i18n import t
from engine.locales import DEFAULT

log = logging.getLogger("tabletop.flood")

COUNTED = (
    discord.InteractionType.application_command,
    discord.InteractionType.component,
    discord.InteractionType.modal_submit,
)


async def admit(interaction: discord.Interaction) -> bool:
    """True when ``interaction`` may go ahead; otherwise it has been answered."""
    services: Any = getattr(interaction.client, "services", None)
    gate = getattr(services, "flood", None)
    if gate is None or interaction.type not in COUNTED:
        return True
    member = interaction.user.id
    if gate.admit(member):
        return True
    seconds = max(1, math.ceil(gate.retry_after(member)))
    log.info("member %s is flooding (more than %s actions in %g s): refused", member, gate.limit, gate.window)
    text = t(
        "discord.flood.slow_down", locale_of(interaction, getattr(services, "default_locale", DEFAULT)), seconds=seconds
    )
    try:
        await say(interaction, text)
    except discord.HTTPException:
        pass
    return False


async def readable(interaction: discord.Interaction) -> bool:
    """True unless a command's text cannot be read at all (then it has been answered)."""
    if interaction.type is not discord.InteractionType.application_command or not unreadable_text(interaction):
        return True
    services: Any = getattr(interaction.client, "services", None)
    text = t("discord.forged.text", locale_of(interaction, getattr(services, "default_locale", DEFAULT)))
    try:
        await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        pass
    return False


class GuardedTree(app_commands.CommandTree):
    """The bot's command tree: every command passes the flood check, then the
    check that it comes from where it may be used (cogs/kit/bound.py), then the
    check that its text is text at all; a refused command has been answered
    privately and never runs.  Guild-only commands are registered for server
    channels only, and every command is installed with the server only unless it says
    otherwise (cogs/kit/reach.py: those that work from anywhere)."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        return await admit(interaction) and await in_place(interaction) and await readable(interaction)

    def add_command(self, command: Any, /, *args: Any, **kwargs: Any) -> None:
        bind_to_guilds(command)
        server_install_by_default(command)
        super().add_command(command, *args, **kwargs)

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError, /) -> None:
        """Every command's refusal or failure is answered by the one error hook (cogs/present/errors.py)."""
        try:
            hook = routes_of(self.client).hook
        except NotLoaded:
            return await super().on_error(interaction, error)
        await hook.answer(interaction, error)

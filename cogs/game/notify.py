"""``/notify``: how and when the bot reaches a member.  ``/notify calendar`` gives the
member, privately, the secret URL of their calendar feed (web/routes/calendar.py), and
a new one on request (the old one then opens nothing).

The group works wherever the member is: in a server that installed the bot, in a direct
message with it, and (installed to the member's own account) in any server or private
channel; every answer is ephemeral, and nothing here needs the bot in the channel."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.kit.locale import locale_of, ls
from cogs.kit.reach import ANYWHERE, EVERY_INSTALL
from cogs.kit.services import Services, services_of
from engine.i18n import t


class Notify(commands.Cog):
    notify_group = app_commands.Group(
        name=ls("notify", "calendar.cmd.notify"),
        description=ls("How and when the bot reaches you", "calendar.cmd.notify.desc"),
        allowed_contexts=ANYWHERE,
        allowed_installs=EVERY_INSTALL,
    )

    def __init__(self, bot: commands.Bot, services: Services) -> None:
        self.bot = bot
        self.services = services

    def loc(self, interaction: discord.Interaction) -> str:
        return locale_of(interaction, self.services.default_locale)

    @notify_group.command(
        name=ls("calendar", "calendar.cmd.calendar"),
        description=ls("Your deadlines in your calendar app, through a private link", "calendar.cmd.calendar.desc"),
    )
    @app_commands.describe(replace=ls("Make a new link (the old one stops working)", "calendar.arg.replace"))
    async def calendar(self, interaction: discord.Interaction, replace: bool = False) -> None:
        locale = self.loc(interaction)
        base = self.services.web_url
        if not base:
            await interaction.response.send_message(t("calendar.off", locale), ephemeral=True)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        secret = await self.services.tables.calendar_secret(interaction.user.id, replace=bool(replace))
        if secret is None:
            await interaction.followup.send(t("calendar.exists", locale), ephemeral=True)
            return
        url = f"{base.rstrip('/')}/cal/{secret}.ics?lang={locale}"
        await interaction.followup.send(t("calendar.link", locale, url=url), ephemeral=True)


async def setup(bot: commands.Bot) -> None:  # discord.py extension entry point
    await bot.add_cog(Notify(bot, services_of(bot)))

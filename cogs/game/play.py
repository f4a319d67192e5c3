"""The /game, /play commands and every click on a table, as one cog.

What players do is split by feature (cogs/game/lobby.py, turns.py, seats.py,
history.py, follows.py); this cog composes them because a Discord command
group (``/game``) lives in one cog.  It is the typed handler of every table
click (:class:`cogs.kit.components.TableClicks`, registered on the bot's routes
when the cog loads), and it notes each member's language.  Refusals and
failures are answered by the one error hook (cogs/present/errors.py).
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from cogs.game.feature import game
from cogs.game.follow import Follows
from cogs.game.history import History
from cogs.game.lobby import Lobby
from cogs.game.orders import Orders
from cogs.game.seats import Seats
from cogs.game.textboard import TextBoards
from cogs.game.turns import Turns
from cogs.kit.components import TableClicks, routes_of
from cogs.kit.inputs import game_choices, known_component
from cogs.kit.locale import is_unavailable
from cogs.kit.services import Services, services_of
from cogs.present.levels import level_choices

log = logging.getLogger("tabletop.play")
#: commands that change a member's preferences (cogs/game/settings.py): the language is not noted from them
PREFS_COMMANDS = ("remind", "privacy")

# the registered games and AI levels as of this load: discord.py executes an extension
# afresh at every load, so a game registered at run time is offered by the next bot
app_commands.choices(game=game_choices(), ai_level=level_choices())(Lobby.new)


class Play(Lobby, Turns, Seats, History, Follows, TextBoards, Orders, commands.Cog):
    game = game

    async def cog_load(self) -> None:
        handlers: TableClicks = self  # mypy checks that this cog answers every table click
        routes_of(self.bot).tables = handlers

    async def cog_unload(self) -> None:
        routes = routes_of(self.bot)
        if routes.tables is self:
            routes.tables = None

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A click on a component that is none of ours (a forged or mangled
        custom_id, or one not on the clicked message) reaches no handler in
        discord.py and would go unanswered: answer it, privately."""
        if interaction.type is discord.InteractionType.component and not known_component(
            interaction, routes_of(self.bot)
        ):
            await self.hook.click(interaction, lambda: self.refuse(interaction, "discord.forged.component"))
        # every interaction carries the member's language: remembered for what is sent them unasked
        # (not from the commands that write the member's preferences themselves: their own
        # read-modify-write must not race this one)
        data = interaction.data
        name = data.get("name") if isinstance(data, dict) else None
        if interaction.type is discord.InteractionType.application_command and name in PREFS_COMMANDS:
            return  # /privacy too: a forget must not race a write of the name it deletes
        try:
            await self.services.members.note(interaction.user.id, str(getattr(interaction.locale, "value", "") or ""))
            # and their display name there (a nick on the server, else their global name) refreshes
            # the one every process's pages show, once a board showed them (tables/people/names.py: written
            # only when it changed; a member nothing shows gets no row from a click)
            await self.services.tables.note_name(
                interaction.guild_id, interaction.user.id, interaction.user.display_name, create=False
            )
        except Exception as exc:  # noqa: BLE001 -- a lost database is said elsewhere; this must never break a click
            if not is_unavailable(exc):
                log.warning("locale or name of %s not remembered: %s", interaction.user.id, exc)


def play_cog(bot: commands.Bot, services: Services) -> Play:
    return Play(bot, services, routes_of(bot).hook)


async def setup(bot: commands.Bot) -> None:  # discord.py extension entry point
    await bot.add_cog(play_cog(bot, services_of(bot)))

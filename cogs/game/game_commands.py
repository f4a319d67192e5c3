"""The one cog for the extra commands games declare as data.

A game lists :class:`engine.base.GameCommand` entries in ``Game.commands``;
this cog registers ``/<command_group> <name>`` for each of them when the bot
starts (``command_group`` defaults to the game id).  Used in a channel whose
table plays that game, it loads the table, calls ``Game.command(...)`` off the
event loop and sends the hook's answer privately: a ``Msg`` as text, a
``View`` drawn by the game's renderer.  Nothing here knows a particular game.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.kit.locale import locale_of, ls
from cogs.kit.services import Services
from cogs.present.ui import image_file
from engine import Msg, SeatLabel, View, available, get_game
from engine.base import Game
from engine.i18n import t
from engine.locales import DEFAULT
from render import render
from store import GameRow
from tables import describe_view

log = logging.getLogger("tabletop.game_commands")


def seat_labels(row: GameRow) -> dict[str, SeatLabel]:
    """Seat labels for texts: a mention (Discord shows the member's name) or the seat id for the AI."""
    return {s.seat: SeatLabel(name=f"<@{s.user_id}>" if s.user_id else s.seat) for s in row.seats}


class GameCommands(commands.Cog):
    def __init__(self, bot: commands.Bot, services: Services) -> None:
        self.bot = bot
        self.services = services
        self.tables = services.tables
        self.groups: list[app_commands.Group] = []

    # ------------------------------------------------------- registration
    def build(self) -> list[app_commands.Group]:
        """One slash-command group per game that declares commands."""
        groups: list[app_commands.Group] = []
        taken = {c.name for c in self.bot.tree.get_commands()}
        for gid in available():
            game = get_game(gid)
            if not game.commands:
                continue
            name = game.command_group or gid
            if name in taken:  # an older hand-written group of that name still exists
                log.warning("game %s: /%s already exists; its declared commands are not registered", gid, name)
                continue
            taken.add(name)
            # names are localised like every other command's (/汽车 手牌 in Chinese): the game's
            # catalog keys <game>.cmd.group and <game>.cmd.<name>, when it has them
            group = app_commands.Group(
                name=ls(name, f"{gid}.cmd.group"),
                description=ls(t(f"{gid}.name", DEFAULT), f"{gid}.name"),
                guild_only=True,
            )
            for cmd in game.commands:
                group.add_command(
                    app_commands.Command(
                        name=ls(cmd.name, f"{gid}.cmd.{cmd.name}"),
                        description=ls(cmd.description, cmd.key),
                        callback=self._callback(gid, cmd.name),
                    )
                )
            groups.append(group)
        return groups

    def _callback(self, game_id: str, name: str) -> Callable[[discord.Interaction], Coroutine[Any, Any, None]]:
        async def callback(interaction: discord.Interaction) -> None:
            await self.run(interaction, game_id, name)

        return callback

    async def cog_load(self) -> None:
        self.groups = self.build()
        for group in self.groups:
            self.bot.tree.add_command(group)

    async def cog_unload(self) -> None:
        for group in self.groups:
            self.bot.tree.remove_command(group.name)

    # ------------------------------------------------------------ running
    async def run(self, interaction: discord.Interaction, game_id: str, name: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = locale_of(interaction, self.services.default_locale)
        await self._run(interaction, game_id, name, locale)  # a refusal or failure: the one error hook answers

    async def _run(self, interaction: discord.Interaction, game_id: str, name: str, locale: str) -> None:
        loaded = await self.tables.load(channel_id=interaction.channel_id, statuses=("active", "finished"))
        game: Game = loaded.game
        if game.id != game_id:
            await interaction.followup.send(
                t("core.ui.other_game", locale, game=t(f"{game.id}.name", locale), wanted=t(f"{game_id}.name", locale)),
                ephemeral=True,
            )
            return
        seat = loaded.row.seat_of(interaction.user.id)
        labels = seat_labels(loaded.row)
        answer: Any = await self.tables.off_loop(game.command, name, loaded.state, seat, locale, labels)
        if isinstance(answer, Msg):
            await interaction.followup.send(answer.text(locale)[:2000], ephemeral=True)
        elif isinstance(answer, View):
            png = await self.tables.off_loop(render, game.id, answer, locale)
            title = t("core.ui.board_title", locale, game=t(f"{game.id}.name", locale), id=loaded.row.id)
            alt = describe_view(game.id, answer, locale, title)  # the same view, in words
            await interaction.followup.send(file=image_file(png, "view.png", alt), ephemeral=True)
        else:
            raise TypeError(f"{game.id}.{name} returned {type(answer).__name__}, not a Msg or a View")


async def setup(bot: commands.Bot) -> None:  # discord.py extension entry point
    await bot.add_cog(GameCommands(bot, bot.services))  # type: ignore[attr-defined]

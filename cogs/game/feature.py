"""What the /game features share: the ``/game`` group, and the base of their cog.

The /game commands and every click on a table are split by what players do
(cogs/game/lobby.py, turns.py, seats.py, history.py, follows.py); cogs/game/play.py
composes them into the one cog that holds the ``/game`` group (a Discord
command group lives in one cog).  Handlers raise refusals and never catch
them: the one error hook (cogs/present/errors.py) answers.  Nothing here writes to the
store.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.kit.bound import at_table
from cogs.kit.components import ClickHook, VoteButton
from cogs.kit.inputs import check_id
from cogs.kit.locale import locale_of, ls, say
from cogs.kit.reach import ANYWHERE, EVERY_INSTALL
from cogs.kit.services import Services
from cogs.present.board_posts import Boards
from engine.i18n import t
from store import GameRow
from tables import TurnRefused, TurnResult

log = logging.getLogger("tabletop.play")

#: the /game group: every feature's subcommands are its children (cogs/game/play.py holds it)
#: open to every place and install (for ``/game catchup``, cogs/kit/reach.py), but every other
#: subcommand still needs a server channel where the bot is (``server``: cogs/kit/bound.py refuses it)
game = app_commands.Group(
    name=ls("game", "discord.cmd.game"),
    description=ls("Play a table game", "discord.cmd.game.desc"),
    allowed_contexts=ANYWHERE,
    allowed_installs=EVERY_INSTALL,
    extras={"server": True},
)


class NotShown(Exception):
    """A committed change's board was not taken by Discord (the outbox keeps it)."""


def channel_id(interaction: discord.Interaction) -> int:
    assert interaction.channel_id is not None  # every command and component here is in a guild channel
    return interaction.channel_id


def is_admin(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_guild)


if TYPE_CHECKING:
    _Mixin = commands.Cog  # typed as the cog the features are mixed into (cogs/game/play.py)
else:
    _Mixin = object  # at run time a plain mixin: only Play is a cog


class TableFeature(_Mixin):
    """The base of the /game features (mixed into the Play cog): the services, the boards, the hook."""

    def __init__(self, bot: commands.Bot, services: Services, hook: ClickHook) -> None:
        self.bot = bot
        self.services = services
        self.tables = services.tables
        self.boards = Boards(bot, services)
        self.hook = hook

    def loc(self, interaction: discord.Interaction) -> str:
        return locale_of(interaction, self.services.default_locale)

    async def refuse(self, interaction: discord.Interaction, key: str, /, **params: Any) -> None:
        """Tell only this user, in their language; works before or after deferring."""
        await say(interaction, t(key, self.loc(interaction), **params))

    async def public_locale(self, interaction: discord.Interaction, row: GameRow | int | None = None) -> str:
        """Public messages: the table's language, fixed when it was opened (see
        :meth:`Boards.public_locale_of`); without a table, the server's setting,
        else the acting user's."""
        if isinstance(row, int):
            try:
                row = await self.tables.row(row)
            except TurnRefused:  # an unreadable table: the server's language
                row = None
        if row is not None:
            return await self.boards.public_locale_of(row)
        settings = await self.services.settings.server_settings(interaction.guild_id)
        return settings.get("language") or self.loc(interaction)

    async def here(self, interaction: discord.Interaction, gid: int) -> bool:
        """Whether a component of table ``gid`` was used in that table's server and
        channel (else the member is told, and nothing changes; see cogs/kit/bound.py)."""
        if check_id(gid) is None:
            return True  # no such table: the service refuses it
        try:
            row = await self.tables.row(gid)
        except TurnRefused:
            return True  # an unreadable table: the service refuses it
        return await at_table(interaction, row)

    async def post_board(
        self, interaction: discord.Interaction, result: TurnResult, *, start: bool = False, retire: bool = True
    ) -> None:
        """A committed change's board (with its notices) goes to the channel through
        the outbox (:meth:`Boards.deliver`); the table's private hands follow."""

        async def show() -> None:
            shown = await self.boards.deliver(result, retire=retire)
            await self.boards.push_private(result, start=start)  # private hands go out either way
            if not shown:  # the outbox keeps it and the scheduler tries again
                raise NotShown()

        await self.deliver(interaction, result, show)

    async def deliver(self, interaction: discord.Interaction, result: TurnResult, send) -> None:
        """Show a saved change.  The change is already committed: whatever fails now
        (Discord refusing or down, an expired token, a deleted message, the store or a
        renderer failing), the player is told their move counts, and the board goes
        out anyway: posted anew in the channel at once, else by the scheduler (the
        outbox) as soon as Discord takes it."""
        try:
            await send()
            return
        except NotShown:
            posted = False  # the outbox tried already: the scheduler takes it from here
        except Exception as exc:  # noqa: BLE001 -- a committed change: never "nothing was changed"
            log.warning(
                "table %s: saved at version %s, but it could not be shown (%s: %s); posting it anew",
                result.row.id,
                result.row.version,
                type(exc).__name__,
                exc,
            )
            posted = await self.boards.deliver(result)
        key = "discord.table.saved_reposted" if posted else "discord.table.saved_pending"
        try:
            await interaction.followup.send(t(key, self.loc(interaction)), ephemeral=True)
        except discord.HTTPException:
            pass

    async def send(self, interaction: discord.Interaction, channel, **kwargs) -> discord.Message | None:
        """Public message: as a followup in the command's channel, or into a new thread."""
        if channel is not None and channel.id != interaction.channel_id:
            return await channel.send(**kwargs)
        return await interaction.followup.send(wait=True, **kwargs)

    @staticmethod
    def vote_view(vid: int, locale: str) -> discord.ui.View:
        view = discord.ui.View(timeout=None)
        view.add_item(VoteButton(vid, "yes", label=t("core.ui.agree", locale)))
        view.add_item(VoteButton(vid, "no", label=t("core.ui.refuse", locale)))
        return view

"""Following a table: ``/game follow``, ``/game unfollow`` and ``/game followers``
(the boards themselves go out from cogs/present/follower_posts.py).  Refusals are raised, and
answered by the one error hook (cogs/present/errors.py)."""

from __future__ import annotations

import discord
from discord import app_commands

from cogs.game.feature import TableFeature, channel_id, game, is_admin
from cogs.kit.locale import ls
from engine.i18n import t


class Follows(TableFeature):
    # -------------------------------------------------------- followers
    @game.command(
        name=ls("follow", "asyncplay.cmd.game.follow"),
        description=ls(
            "Follow this channel's table (public board, in a private message)", "asyncplay.cmd.game.follow.desc"
        ),
    )
    @app_commands.describe(mode=ls("Each turn, or a daily digest", "asyncplay.arg.mode"))
    @app_commands.choices(
        mode=[
            app_commands.Choice(name=ls("each turn", "asyncplay.mode.turn"), value="turn"),
            app_commands.Choice(name=ls("daily digest", "asyncplay.mode.digest"), value="digest"),
        ]
    )
    async def follow(self, interaction: discord.Interaction, mode: str = "turn") -> None:
        locale = self.loc(interaction)
        row = await self.tables.follow(channel_id(interaction), interaction.user.id, mode)
        text = t("asyncplay.following", locale, id=row.id, mode=t(f"asyncplay.mode.{mode}", locale))
        await interaction.response.send_message(text, ephemeral=True)

    @game.command(
        name=ls("unfollow", "asyncplay.cmd.game.unfollow"),
        description=ls("Stop following this channel's table", "asyncplay.cmd.game.unfollow.desc"),
    )
    async def unfollow(self, interaction: discord.Interaction) -> None:
        gid = await self.tables.unfollow(interaction.user.id, channel_id=channel_id(interaction))
        await interaction.response.send_message(
            t("asyncplay.unfollowed", self.loc(interaction), id=gid), ephemeral=True
        )

    @game.command(
        name=ls("followers", "asyncplay.cmd.game.followers"),
        description=ls("Open or close this table to followers (host)", "asyncplay.cmd.game.followers.desc"),
    )
    @app_commands.describe(open=ls("Open to followers?", "asyncplay.arg.open"))
    async def followers(self, interaction: discord.Interaction, open: bool) -> None:
        row = await self.tables.close_to_followers(
            channel_id(interaction), interaction.user.id, not open, admin=is_admin(interaction)
        )
        key = "asyncplay.followers_open_now" if open else "asyncplay.followers_closed_now"
        await interaction.response.send_message(t(key, self.loc(interaction), id=row.id), ephemeral=True)

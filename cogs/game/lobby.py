"""The lobby: ``/game new``, the lobby's buttons (join, leave, add an AI, start,
cancel) and ``/game abandon``.  Refusals are raised, and answered by the one
error hook (cogs/present/errors.py)."""

from __future__ import annotations

import logging
import secrets
from typing import Any

import discord
from discord import app_commands

from cogs.game import lobbythread
from cogs.game.feature import TableFeature, channel_id, game, is_admin
from cogs.kit.inputs import check_game, game_choices, options_error, parse_options
from cogs.kit.locale import ls
from cogs.kit.names import remember
from cogs.present.levels import level_choices
from cogs.present.lobby_view import lobby_components, lobby_embed
from cogs.present.ui import clip, game_name
from engine import GameError, get_game
from engine.i18n import t
from store import GameRow
from tables import TurnResult, check_level, clocks, plain

log = logging.getLogger("tabletop.lobby")
#: the registered games and AI levels when this module was first imported; cogs/game/play.py
#: sets them afresh at every load (a game registered at run time is offered by the next bot)
GAME_CHOICES = game_choices()
LEVEL_CHOICES = level_choices()
CLOCK_CHOICES = [
    app_commands.Choice(name=ls(name, f"asyncplay.profile.{name}"), value=name) for name in clocks.PROFILES
]


class Lobby(TableFeature):
    @game.command(
        name=ls("new", "discord.cmd.game.new"), description=ls("Open a table for a game", "discord.cmd.game.new.desc")
    )
    @app_commands.describe(
        game=ls("Which game", "discord.arg.game"),
        options=ls("Options as key=value, e.g. hero=brawler", "discord.arg.options"),
        ai=ls("Seats for the AI", "discord.arg.ai"),
        thread=ls("Open the table in a new thread", "discord.arg.thread"),
        timer=ls("Minutes before the AI plays for an absent player (0 = never)", "discord.arg.timer"),
        remind=ls("Minutes before a waiting player is pinged (0 = never)", "discord.arg.remind"),
        campaign=ls("Count this table in a campaign", "discord.arg.campaign"),
        clock=ls("Time bank per player (replaces the turn timer)", "asyncplay.arg.clock"),
        ai_level=ls("How well the AI plays: its seats, and for absent players", "discord.arg.ai_level"),
    )
    @app_commands.choices(game=GAME_CHOICES, clock=CLOCK_CHOICES, ai_level=LEVEL_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction,
        game: str,
        options: str | None = None,
        ai: app_commands.Range[int, 0, 4] = 0,
        thread: bool | None = None,
        timer: app_commands.Range[int, 0, 10080] | None = None,
        remind: app_commands.Range[int, 0, 10080] | None = None,
        campaign: str | None = None,
        clock: str | None = None,
        ai_level: str | None = None,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        settings = await self.services.settings.server_settings(interaction.guild_id)
        channel = interaction.channel
        allowed = settings.get("channels") or []
        parent = getattr(channel, "parent_id", None)
        if allowed and interaction.channel_id not in allowed and parent not in allowed:
            await interaction.followup.send(
                t("core.ui.channel_not_allowed", locale, channels=" ".join(f"<#{c}>" for c in allowed)), ephemeral=True
            )
            return
        game = check_game(game)
        g = get_game(game)
        merged: dict[str, Any] = {}
        try:
            merged = {**(settings.get("options") or {}).get(game, {}), **parse_options(options)}
            g.parse_options(merged)  # refuse bad options before a thread is opened for them
            check_level(g, ai_level)
        except GameError as exc:
            await interaction.followup.send(clip(options_error(game, merged, exc, locale), 2000), ephemeral=True)
            return
        for value in (timer, remind):
            if value is not None and not 0 <= value <= 10080:  # Range is not enforced by discord.py at run time
                await interaction.followup.send(t("core.ui.bad_number", locale, lo=0, hi=10080), ephemeral=True)
                return
        table = {
            "turn_timer": settings["turn_timer"] if timer is None else timer,
            "reminder": settings["reminder"] if remind is None else remind,
            "clock": clock or settings.get("clock") or "off",  # a profile name: the table service makes it concrete
            "clock_policy": settings.get("clock_policy") or "ai",
        }
        plocale = settings.get("language") or locale
        if thread is None:
            thread = bool((settings.get("threads") or {}).get(game))
        if thread and isinstance(channel, discord.TextChannel):
            # the server's limits, before a thread is opened for nothing
            lo, hi = g.seat_range(g.parse_options(merged).model_dump(mode="json"))
            if not (hi == 1 or 1 + int(ai) >= hi):  # the table will wait in its lobby
                await self.tables.check_can_open(interaction.guild_id, interaction.user.id)
            claimed = await self.tables.claim_thread(interaction.guild_id, interaction.user.id)
            try:
                channel = await channel.create_thread(
                    name=clip(game_name(game, plocale), 90), type=discord.ChannelType.public_thread
                )
            except discord.HTTPException:
                await self.tables.release_thread(interaction.user.id, claimed)
                await interaction.followup.send(t("core.ui.no_thread", locale), ephemeral=True)
                return
        assert channel is not None
        if isinstance(channel, discord.Thread):  # its lobby offers no "Play in a thread"
            table["thread"] = True
        opened = await self.tables.open_table(
            guild_id=interaction.guild_id,
            channel_id=channel.id,
            game_id=game,
            host_id=interaction.user.id,
            options=merged,
            ai=int(ai),
            seed=secrets.randbits(48),
            locale=plocale,
            table=table,
            campaign=campaign,
            ai_level=ai_level,
        )
        if opened.started is not None:
            await interaction.followup.send(t("core.ui.started", locale, game=game_name(game, locale)), ephemeral=True)
            return await self.post_board(interaction, opened.started, start=True)
        await interaction.followup.send(t("core.ui.lobby_opened", locale), ephemeral=True)
        posted = await self.send(
            interaction,
            channel,
            embed=lobby_embed(opened.row, g, plocale),
            view=lobby_components(opened.row, g, plocale),
        )
        if posted is not None:  # where the lobby is shown: its expiry is said there
            await self.tables.lobby_posted(opened.row.id, posted.id)

    @new.autocomplete("campaign")
    async def new_campaign_autocomplete(self, interaction: discord.Interaction, current: str):
        game = getattr(interaction.namespace, "game", None)
        camps = await self.tables.server_campaigns(interaction.guild_id)
        return [
            app_commands.Choice(name=plain(c.name, 100) or "?", value=c.name)
            for c in camps
            if c.status == "open" and (game is None or c.game == game) and current.lower() in c.name.lower()
        ][:25]

    # ------------------------------------------------------------ lobby
    async def on_lobby(self, interaction: discord.Interaction, gid: int, op: str, level: str | None = None) -> None:
        await interaction.response.defer()
        if not await self.here(interaction, gid):
            return
        remember(interaction.guild_id, interaction.user)
        locale = await self.public_locale(interaction, gid)
        if op == "thread":  # "Play in a thread" (cogs/game/lobbythread.py; a refusal goes to the one hook)
            return await lobbythread.to_thread(interaction, self.tables, gid, locale, is_admin(interaction))
        res = await self.tables.lobby(gid, interaction.user.id, op, admin=is_admin(interaction), level=level)
        if res.started is not None:
            try:  # the lobby now says the game is on, without buttons
                started = res.started
                await interaction.edit_original_response(
                    embed=lobby_embed(started.row, started.game, locale), view=None
                )
            except discord.HTTPException:
                pass
            await self.post_board(interaction, res.started, start=True)
            return
        g = get_game(res.row.game)
        embed, view = lobby_embed(res.row, g, locale), lobby_components(res.row, g, locale)
        try:
            await interaction.edit_original_response(embed=embed, view=view)
        except Exception as exc:  # noqa: BLE001 -- the change is saved: say so, and show the lobby anew
            log.warning("lobby %s: %s saved, the lobby message not updated (%s: %s)", gid, op, type(exc).__name__, exc)
            await self._lobby_not_shown(interaction, res.row, embed, view)

    async def _lobby_not_shown(self, interaction: discord.Interaction, row: GameRow, embed, view) -> None:
        """A lobby change is saved but its message could not be edited (Discord failing,
        the message deleted): the member is told it is done, and the lobby is posted anew."""
        key = "discord.lobby.done_not_shown"
        channel = await self.boards.channel_of(row)
        if channel is not None and row.status == "lobby":
            try:
                await channel.send(embed=embed, view=view, allowed_mentions=discord.AllowedMentions.none())
                key = "discord.lobby.done_reposted"
            except discord.HTTPException:
                pass
        try:
            await interaction.followup.send(t(key, self.loc(interaction)), ephemeral=True)
        except discord.HTTPException:
            pass

    @game.command(
        name=ls("abandon", "discord.cmd.game.abandon"),
        description=ls("End this channel's table without a result", "discord.cmd.game.abandon.desc"),
    )
    async def abandon(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        row = await self.tables.abandon(channel_id(interaction), interaction.user.id, admin=is_admin(interaction))
        await interaction.followup.send(t("core.ui.abandoned_ack", locale), ephemeral=True)
        await self.boards.retire_table(row)  # its boards lose their buttons
        if await self.tables.still_owed(row.id, row.version):  # a running table: its channel is owed the notice
            note = {"note": "abandoned", "user": interaction.user.id}
            g, state = await self.tables.open_state(row)
            return await self.post_board(interaction, TurnResult(row, g, state, [], notes=[note], kind="notice"))
        plocale = await self.boards.public_locale_of(row)
        await interaction.followup.send(
            t("core.ui.abandoned", plocale, id=row.id, user=interaction.user.mention),
            allowed_mentions=discord.AllowedMentions.none(),
        )

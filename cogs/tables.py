"""The /game, /play and /rules commands and every component click.

Thin adapters: each handler defers within Discord's 3-second deadline, then
hands over to the shared :class:`~cogs.pipeline.Pipeline`.  Errors reach only
the user who caused them (ephemeral), in their language.
"""

from __future__ import annotations

import json
import logging
import secrets
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from engine import GameError, available, get_game
from engine.i18n import DATA, t
from store import ChannelBusy, CorruptRow, GameRow, Seat, VersionConflict

from .locale import locale_of, ls
from .pipeline import Pipeline, TurnRefused, TurnResult
from .services import Services
from .ui import (action_view, allowed_mentions, board_components, board_embed, board_file, clip, game_name,
                 lobby_components, lobby_embed, next_mentions)

log = logging.getLogger("tabletop.tables")

GAME_CHOICES = [app_commands.Choice(name=ls(t(f"discord.game.{gid}", "en"), f"discord.game.{gid}"), value=gid)
                for gid in available()]


def parse_options(text: str | None) -> dict[str, Any]:
    """``key=value key2=value2`` (values parsed as JSON where they can be)."""
    out: dict[str, Any] = {}
    for part in (text or "").replace(",", " ").split():
        if "=" not in part:
            raise GameError("bad_options", "core.error.bad_options", detail=part)
        key, _, value = part.partition("=")
        try:
            out[key.strip()] = json.loads(value)
        except ValueError:
            out[key.strip()] = value
    return out


def rules_topics(game_id: str, locale: str) -> list[tuple[str, str, str]]:
    """(title, summary, body) per ``## `` topic of data/rules/<game>/<lang>.md."""
    base = DATA / "rules" / game_id
    path = base / f"{locale}.md"
    if not path.exists():
        path = base / "en.md"
    if not path.exists():
        return []
    topics: list[tuple[str, str, str]] = []
    title, body = None, []
    for line in path.read_text(encoding="utf-8").splitlines() + ["## "]:
        if line.startswith("## "):
            if title is not None:
                text = "\n".join(body).strip()
                topics.append((title, text.splitlines()[0] if text else "", text))
            title, body = line[3:].strip(), []
        elif title is not None:
            body.append(line)
    return topics


class Tables(commands.Cog):
    game = app_commands.Group(name=ls("game", "discord.cmd.game"), description=ls("Play a table game", "discord.cmd.game.desc"),
                              guild_only=True)

    def __init__(self, bot: commands.Bot, services: Services) -> None:
        self.bot = bot
        self.services = services
        self.store = services.store
        self.pipeline = Pipeline(services.store, services.executor, services.max_ai_steps)

    # ----------------------------------------------------------- helpers
    async def guard(self, interaction: discord.Interaction, coro) -> None:
        """Run a handler; an unexpected error is logged and the user told, privately."""
        try:
            await coro
        except Exception:
            log.exception("interaction %s failed", getattr(interaction, "id", "?"))
            try:
                await self.refuse(interaction, "core.ui.internal")
            except discord.HTTPException:
                pass

    async def cog_app_command_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        log.error("command %s failed", getattr(interaction.command, "qualified_name", "?"), exc_info=error)
        try:
            await self.refuse(interaction, "core.ui.internal")
        except discord.HTTPException:
            pass

    def loc(self, interaction: discord.Interaction) -> str:
        return locale_of(interaction, self.services.default_locale)

    async def refuse(self, interaction: discord.Interaction, key: str, /, **params: Any) -> None:
        """Tell only this user, in their language; works before or after deferring."""
        text = t(key, self.loc(interaction), **params)
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    async def post_board(self, interaction: discord.Interaction, result: TurnResult, locale: str) -> None:
        png = await self.pipeline.render(result.game, result.state, None, locale)
        await interaction.followup.send(
            content=next_mentions(result.row, result.game, result.state) or None,
            embed=board_embed(result.row, result.game, result.state, result.events, locale),
            file=board_file(png), view=board_components(result.row, result.game, result.state, locale) or discord.utils.MISSING,
            allowed_mentions=allowed_mentions())

    async def private_feedback(self, interaction: discord.Interaction, result: TurnResult, locale: str) -> None:
        """Events meant only for the acting seat (hidden draws, secret commits)."""
        seat = result.actors[0] if result.actors else None
        own = [e for e in result.events if e.to is not None and seat in e.to]
        if own:
            text = "\n".join(result.game.event_text(e, locale) for e in own)
            await interaction.followup.send(clip(text, 2000), ephemeral=True)

    # -------------------------------------------------------- /game new
    @game.command(name=ls("new", "discord.cmd.game.new"), description=ls("Open a table for a game", "discord.cmd.game.new.desc"))
    @app_commands.describe(game=ls("Which game", "discord.arg.game"),
                           options=ls("Options as key=value, e.g. hero=brawler", "discord.arg.options"),
                           ai=ls("Seats for the AI", "discord.arg.ai"),
                           thread=ls("Open the table in a new thread", "discord.arg.thread"))
    @app_commands.choices(game=GAME_CHOICES)
    async def new(self, interaction: discord.Interaction, game: str, options: str | None = None,
                  ai: app_commands.Range[int, 0, 4] = 0, thread: bool = False) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        try:
            g = get_game(game)
            opts = g.parse_options(parse_options(options)).model_dump(mode="json")
        except GameError as exc:
            await interaction.followup.send(exc.message(locale), ephemeral=True)
            return
        if not 0 <= ai <= g.max_seats - 1:  # Range is not enforced by discord.py when the command runs
            await interaction.followup.send(t("core.ui.bad_ai", locale, hi=g.max_seats - 1), ephemeral=True)
            return
        channel = interaction.channel
        if thread and isinstance(channel, discord.TextChannel):
            try:
                channel = await channel.create_thread(name=clip(game_name(game, locale), 90),
                                                      type=discord.ChannelType.public_thread)
            except discord.HTTPException:
                await interaction.followup.send(t("core.ui.no_thread", locale), ephemeral=True)
                return
        seats = [Seat("p1", interaction.user.id)] + [Seat(f"p{i + 2}", None) for i in range(ai)]
        try:
            row = await self.store.create_game(
                guild_id=interaction.guild_id, channel_id=channel.id, game=game, host_id=interaction.user.id,
                options=opts, seed=secrets.randbits(48), seats=seats, locale=locale)
        except ChannelBusy:
            await interaction.followup.send(t("core.ui.channel_busy", locale), ephemeral=True)
            return
        except CorruptRow as exc:
            await self.store.quarantine(exc.game_id, exc.reason)
            await interaction.followup.send(t("core.ui.corrupt", locale, id=exc.game_id), ephemeral=True)
            return
        if g.max_seats == 1 or len(seats) == g.max_seats:
            await interaction.followup.send(t("core.ui.started", locale, game=game_name(game, locale)), ephemeral=True)
            await self._start(interaction, row, locale, channel)
            return
        await interaction.followup.send(t("core.ui.lobby_opened", locale), ephemeral=True)
        await self._send(interaction, channel, embed=lobby_embed(row, g, locale), view=lobby_components(row, g, locale))

    async def _send(self, interaction: discord.Interaction, channel, **kwargs) -> None:
        """Public message: as a followup in the command's channel, or into a new thread."""
        if channel is not None and channel.id != interaction.channel_id:
            await channel.send(**kwargs)
        else:
            await interaction.followup.send(**kwargs)

    async def _start(self, interaction: discord.Interaction, row: GameRow, locale: str, channel=None) -> None:
        try:
            result = await self.pipeline.start(row)
        except TurnRefused as exc:
            await interaction.followup.send(exc.text(locale), ephemeral=True)
            return
        png = await self.pipeline.render(result.game, result.state, None, locale)
        await self._send(interaction, channel,
                         content=next_mentions(result.row, result.game, result.state) or None,
                         embed=board_embed(result.row, result.game, result.state, result.events, locale),
                         file=board_file(png),
                         view=board_components(result.row, result.game, result.state, locale) or discord.utils.MISSING,
                         allowed_mentions=allowed_mentions())

    # ------------------------------------------------------------ lobby
    async def on_lobby(self, interaction: discord.Interaction, gid: int, op: str) -> None:
        await interaction.response.defer()
        locale = self.loc(interaction)
        async with self.store.lock(gid):
            try:
                row = await self.store.get_game(gid)
            except CorruptRow as exc:
                await self.store.quarantine(exc.game_id, exc.reason)
                return await self.refuse(interaction, "core.ui.corrupt", id=gid)
            if row is None or row.status != "lobby":
                return await self.refuse(interaction, "core.ui.lobby_closed")
            g = get_game(row.game)
            uid = interaction.user.id
            is_host = uid == row.host_id
            seats = list(row.seats)
            status = None
            if op == "join":
                if row.seat_of(uid):
                    return await self.refuse(interaction, "core.ui.already_seated")
                if len(seats) >= g.max_seats:
                    return await self.refuse(interaction, "core.ui.table_full")
                seats.append(Seat(self._free_seat(seats), uid))
            elif op == "leave":
                if not row.seat_of(uid):
                    return await self.refuse(interaction, "core.ui.not_seated")
                if is_host:
                    return await self.refuse(interaction, "core.ui.host_cannot_leave")
                seats = [s for s in seats if s.user_id != uid]
            elif op == "ai":
                if not is_host:
                    return await self.refuse(interaction, "core.ui.host_only")
                if len(seats) >= g.max_seats:
                    return await self.refuse(interaction, "core.ui.table_full")
                seats.append(Seat(self._free_seat(seats), None))
            elif op == "cancel":
                if not (is_host or self._is_admin(interaction)):
                    return await self.refuse(interaction, "core.ui.host_only")
                status = "abandoned"
            elif op == "start":
                if not is_host:
                    return await self.refuse(interaction, "core.ui.host_only")
                if len(seats) < g.min_seats:
                    return await self.refuse(interaction, "core.ui.need_players", lo=g.min_seats)
                await interaction.edit_original_response(view=None)
                return await self._start(interaction, row, locale)
            try:
                row.version = await self.store.update_game(row.id, row.version, seats=seats, status=status)
            except VersionConflict:
                return await self.refuse(interaction, "core.ui.stale")
            row.seats = seats
            if status:
                row.status = status
        await interaction.edit_original_response(embed=lobby_embed(row, g, locale), view=lobby_components(row, g, locale))

    @staticmethod
    def _free_seat(seats: list[Seat]) -> str:
        taken = {s.seat for s in seats}
        n = 1
        while f"p{n}" in taken:
            n += 1
        return f"p{n}"

    @staticmethod
    def _is_admin(interaction: discord.Interaction) -> bool:
        perms = getattr(interaction.user, "guild_permissions", None)
        return bool(perms and perms.manage_guild)

    # ---------------------------------------------------------- actions
    async def on_action(self, interaction: discord.Interaction, gid: int, version: int, idx: int) -> None:
        await interaction.response.defer()
        await self._act(interaction, gid, version, idx, from_component=True)

    async def _act(self, interaction: discord.Interaction, gid: int, version: int, idx: int, *, from_component: bool) -> None:
        locale = self.loc(interaction)

        def pick(game, state, seat, legal):
            if not 0 <= idx < len(legal):
                raise TurnRefused("stale", "core.ui.stale")
            return legal[idx]

        try:
            result = await self.pipeline.act(gid, interaction.user.id, pick, expected_version=version)
        except TurnRefused as exc:
            await interaction.followup.send(exc.text(locale), ephemeral=True)
            if exc.code == "stale":
                await self._fresh_panel(interaction, gid, locale)
            return
        if from_component:
            try:
                await interaction.edit_original_response(view=None)
            except discord.HTTPException:
                pass
        else:  # a slash command deferred ephemerally: its first followup fills that private reply
            await interaction.followup.send(t("core.ui.ok", locale), ephemeral=True)
        await self.private_feedback(interaction, result, locale)
        public = result.game.visible_events(result.events, None)
        if public or result.finished or not result.game.private_actions:
            await self.post_board(interaction, result, locale)
        else:
            await interaction.followup.send(t("core.ui.committed", locale), ephemeral=True)

    async def _fresh_panel(self, interaction: discord.Interaction, gid: int, locale: str) -> None:
        """After a stale click, offer the clicker their current choices (if any)."""
        try:
            loaded = await self.pipeline.load(gid)
        except TurnRefused:
            return
        seat = loaded.row.seat_of(interaction.user.id)
        if seat and seat in loaded.game.to_act(loaded.state):
            await interaction.followup.send(loaded.game.prompt(loaded.state, seat).text(locale), ephemeral=True,
                                            view=action_view(loaded.row, loaded.game, loaded.state, seat, locale))

    async def on_panel(self, interaction: discord.Interaction, gid: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        try:
            loaded = await self.pipeline.load(gid)
        except TurnRefused as exc:
            return await interaction.followup.send(exc.text(locale), ephemeral=True)
        seat = loaded.row.seat_of(interaction.user.id)
        if seat is None:
            return await interaction.followup.send(t("core.ui.not_seated", locale), ephemeral=True)
        if seat not in loaded.game.to_act(loaded.state):
            return await interaction.followup.send(t("core.error.not_your_turn", locale), ephemeral=True)
        await interaction.followup.send(loaded.game.prompt(loaded.state, seat).text(locale), ephemeral=True,
                                        view=action_view(loaded.row, loaded.game, loaded.state, seat, locale))

    async def on_private_view(self, interaction: discord.Interaction, gid: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self._private_view(interaction, gid=gid)

    async def _private_view(self, interaction: discord.Interaction, gid: int | None = None) -> None:
        locale = self.loc(interaction)
        try:
            loaded = await self.pipeline.load(gid, channel_id=interaction.channel_id, statuses=("active", "finished"))
        except TurnRefused as exc:
            return await interaction.followup.send(exc.text(locale), ephemeral=True)
        seat = loaded.row.seat_of(interaction.user.id)
        if seat is None:
            return await interaction.followup.send(t("core.ui.not_seated", locale), ephemeral=True)
        png = await self.pipeline.render(loaded.game, loaded.state, seat, locale)
        await interaction.followup.send(t("core.ui.your_view", locale, seat=seat), file=discord.File(
            __import__("io").BytesIO(png), filename="view.png"), ephemeral=True)

    # -------------------------------------------------------- /game ...
    @game.command(name=ls("status", "discord.cmd.game.status"), description=ls("Show this channel's table again", "discord.cmd.game.status.desc"))
    async def status(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        try:
            row = await self.store.active_game(interaction.channel_id)
        except CorruptRow as exc:
            await self.store.quarantine(exc.game_id, exc.reason)
            return await interaction.followup.send(t("core.ui.corrupt", locale, id=exc.game_id), ephemeral=True)
        if row is None:
            return await interaction.followup.send(t("core.ui.no_game", locale), ephemeral=True)
        g = get_game(row.game)
        await interaction.followup.send(t("core.ui.reposted", locale), ephemeral=True)
        if row.status == "lobby":
            return await interaction.followup.send(embed=lobby_embed(row, g, locale), view=lobby_components(row, g, locale))
        try:
            loaded = await self.pipeline.load(row.id)
        except TurnRefused as exc:
            return await interaction.followup.send(exc.text(locale), ephemeral=True)
        await self.post_board(interaction, TurnResult(loaded.row, loaded.game, loaded.state, []), locale)

    @game.command(name=ls("log", "discord.cmd.game.log"), description=ls("Recent actions at this table", "discord.cmd.game.log.desc"))
    @app_commands.describe(page=ls("Page (1 = the most recent)", "discord.arg.page"))
    async def log_(self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 1000] = 1) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        try:
            loaded = await self.pipeline.load(channel_id=interaction.channel_id, statuses=("active",))
        except TurnRefused as exc:
            return await interaction.followup.send(exc.text(locale), ephemeral=True)
        page = max(1, int(page))
        per = 15
        total = await self.store.count_actions(loaded.row.id)
        offset = max(0, total - per * page)
        rows = await self.store.actions(loaded.row.id, limit=min(per, total - per * (page - 1)) if total else 0, offset=offset)
        seat = loaded.row.seat_of(interaction.user.id)
        lines = []
        for a in rows:
            evs = [loaded.game._event_adapter.validate_python(e) for e in a.events]
            shown = [loaded.game.event_text(e, locale) for e in loaded.game.visible_events(evs, seat)]
            who = f"<@{a.user_id}>" if a.user_id else t("core.ui.ai", locale)
            lines.append(f"**{a.seat}** ({who}): " + ("; ".join(shown) if shown else "…"))
        pages = max(1, -(-total // per))
        head = t("core.ui.log_title", locale, id=loaded.row.id, page=page, pages=pages)
        body = "\n".join(lines) or t("core.ui.log_empty", locale)
        await interaction.followup.send(clip(f"{head}\n{body}", 2000), ephemeral=True)

    @game.command(name=ls("abandon", "discord.cmd.game.abandon"), description=ls("End this channel's table without a result", "discord.cmd.game.abandon.desc"))
    async def abandon(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        row = await self.store.active_game(interaction.channel_id)
        if row is None:
            return await interaction.followup.send(t("core.ui.no_game", locale), ephemeral=True)
        if interaction.user.id != row.host_id and not self._is_admin(interaction):
            return await interaction.followup.send(t("core.ui.host_only", locale), ephemeral=True)
        async with self.store.lock(row.id):
            try:
                await self.store.update_game(row.id, row.version, status="abandoned")
            except VersionConflict:
                return await interaction.followup.send(t("core.ui.stale", locale), ephemeral=True)
        await interaction.followup.send(t("core.ui.abandoned_ack", locale), ephemeral=True)
        await interaction.followup.send(t("core.ui.abandoned", locale, id=row.id, user=interaction.user.mention),
                                        allowed_mentions=discord.AllowedMentions.none())

    @game.command(name=ls("view", "discord.cmd.game.view"), description=ls("Your own view of the table (your hand), privately", "discord.cmd.game.view.desc"))
    async def view(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self._private_view(interaction)

    # ------------------------------------------------------------- /play
    @app_commands.command(name=ls("play", "discord.cmd.play"), description=ls("Make your move by name (autocomplete)", "discord.cmd.play.desc"))
    @app_commands.describe(action=ls("One of your legal moves", "discord.arg.action"))
    @app_commands.guild_only()
    async def play(self, interaction: discord.Interaction, action: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        try:
            gid, version, idx = (int(p) for p in action.split(":"))
        except ValueError:
            return await interaction.followup.send(t("core.ui.bad_play", locale), ephemeral=True)
        row = await self.store.active_game(interaction.channel_id)
        if row is None or row.id != gid:
            return await interaction.followup.send(t("core.ui.stale", locale), ephemeral=True)
        await self._act(interaction, gid, version, idx, from_component=False)

    @play.autocomplete("action")
    async def play_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        locale = self.loc(interaction)
        try:
            loaded = await self.pipeline.load(channel_id=interaction.channel_id)
        except TurnRefused:
            return []
        seat = loaded.row.seat_of(interaction.user.id)
        if seat is None:
            return []
        legal = loaded.game.legal_actions(loaded.state, seat)
        needle = current.lower().strip()
        out = []
        for i, a in enumerate(legal):
            label = clip(loaded.game.action_label(loaded.state, a, locale), 100)
            if needle and needle not in label.lower():
                continue
            out.append(app_commands.Choice(name=label, value=f"{loaded.row.id}:{loaded.row.version}:{i}"))
            if len(out) == 25:
                break
        return out

    # ------------------------------------------------------------ /rules
    @app_commands.command(name=ls("rules", "discord.cmd.rules"), description=ls("Read a game's rules", "discord.cmd.rules.desc"))
    @app_commands.describe(game=ls("Which game", "discord.arg.game"), topic=ls("Which part of the rules", "discord.arg.topic"))
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: str, topic: str | None = None) -> None:
        locale = self.loc(interaction)
        topics = rules_topics(game, locale)
        if not topics:
            return await interaction.response.send_message(t("core.ui.no_rules", locale), ephemeral=True)
        chosen = None
        if topic:
            chosen = next((tp for tp in topics if tp[0].lower() == topic.lower()), None) or \
                next((tp for tp in topics if topic.lower() in tp[0].lower()), None)
            if chosen is None:
                return await interaction.response.send_message(t("core.ui.no_topic", locale, topic=topic), ephemeral=True)
        embed = discord.Embed(title=game_name(game, locale), colour=0x3498DB)
        if chosen:
            embed.add_field(name=chosen[0], value=clip(chosen[2], 1024), inline=False)
            if len(chosen[2]) > 1024:
                embed.description = clip(chosen[2], 4000)
                embed.clear_fields()
                embed.title = f"{game_name(game, locale)} — {chosen[0]}"
        else:
            embed.description = "\n".join(f"**{tp[0]}** — {tp[1]}" for tp in topics)[:4000]
            embed.set_footer(text=t("core.ui.rules_hint", locale))
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @rules.autocomplete("topic")
    async def rules_topic_autocomplete(self, interaction: discord.Interaction, current: str):
        game = getattr(interaction.namespace, "game", None)
        if game not in available():
            return []
        needle = current.lower()
        return [app_commands.Choice(name=clip(tp[0], 100), value=clip(tp[0], 100))
                for tp in rules_topics(game, self.loc(interaction)) if needle in tp[0].lower()][:25]


async def setup(bot: commands.Bot) -> None:  # discord.py extension entry point
    await bot.add_cog(Tables(bot, bot.services))

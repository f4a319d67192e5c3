"""The /game, /play and /rules commands and every component click.

Thin adapters: each handler defers within Discord's 3-second deadline, then
hands over to the shared :class:`~cogs.pipeline.Pipeline`.  Errors reach only
the user who caused them (ephemeral), in their language.
"""

from __future__ import annotations

import io
import json
import logging
import re
import secrets
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from engine import GameError, available, get_game
from engine.i18n import DATA, t
from store import CampaignChange, ChangeSet, ChannelBusy, CorruptRow, GameRow, Seat, VersionConflict, VoteChange

from .locale import locale_of, ls
from .pipeline import Pipeline, TurnRefused, TurnResult
from .services import Services
from .ui import (
    action_view,
    allowed_mentions,
    board_components,
    board_embed,
    board_file,
    clip,
    game_name,
    lobby_components,
    lobby_embed,
    next_mentions,
)

log = logging.getLogger("tabletop.tables")

GAME_CHOICES = [
    app_commands.Choice(name=ls(t(f"discord.game.{gid}", "en"), f"discord.game.{gid}"), value=gid)
    for gid in available()
]


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


_CHAIN = re.compile(r"^\s*(\d+):(\d+):([\d.]*)\s*(.*)$", re.S)


def parse_chain(text: str) -> tuple[int, int, list[int], str] | None:
    """``"<table>:<version>:<i>.<j>..."`` (plus any text typed after it)."""
    m = _CHAIN.match(text or "")
    if not m:
        return None
    try:
        chain = [int(x) for x in m[3].split(".") if x]
    except ValueError:
        return None
    return int(m[1]), int(m[2]), chain, m[4]


def chain_value(gid: int, version: int, chain: list[int]) -> str:
    return f"{gid}:{version}:{'.'.join(map(str, chain))}"


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


def find_topic(game_id: str, topics: list[tuple[str, str, str]], query: str):
    """A topic by number (what autocomplete sends), or by title in the reader's
    language or in English (the rules files keep their topics in the same order)."""
    q = query.strip().lower()
    if q.isdigit():
        n = int(q) - 1
        return topics[n] if 0 <= n < len(topics) else None
    for titles in ([tp[0] for tp in topics], [tp[0] for tp in rules_topics(game_id, "en")]):
        for pick in (lambda x: x.lower() == q, lambda x: q in x.lower()):
            for i, title in enumerate(titles):
                if pick(title) and i < len(topics):
                    return topics[i]
    return None


class Tables(commands.Cog):
    game = app_commands.Group(
        name=ls("game", "discord.cmd.game"),
        description=ls("Play a table game", "discord.cmd.game.desc"),
        guild_only=True,
    )

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

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
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

    async def public_locale(self, interaction: discord.Interaction) -> str:
        """Public messages: the server's language setting, else the acting user's."""
        settings = await self.services.guild_settings(interaction.guild_id)
        return settings.get("language") or self.loc(interaction)

    async def public_locale_of(self, row: GameRow) -> str:
        settings = await self.services.guild_settings(row.guild_id)
        return settings.get("language") or row.locale or self.services.default_locale

    async def post_board_to(self, channel, result: TurnResult, locale: str, note: str | None = None) -> None:
        """A board as an ordinary channel message (timers, votes: no interaction to answer)."""
        png = await self.pipeline.render(result.game, result.state, None, locale)
        content = " ".join(p for p in (note, next_mentions(result.row, result.game, result.state)) if p)
        await channel.send(
            content=content or None,
            embed=board_embed(result.row, result.game, result.state, result.events, locale),
            file=board_file(png),
            view=board_components(result.row, result.game, result.state, locale) or discord.utils.MISSING,
            allowed_mentions=allowed_mentions(),
        )

    async def post_board(
        self, interaction: discord.Interaction, result: TurnResult, locale: str, note: str | None = None
    ) -> None:
        png = await self.pipeline.render(result.game, result.state, None, locale)
        content = " ".join(p for p in (note, next_mentions(result.row, result.game, result.state)) if p)
        await interaction.followup.send(
            content=content or None,
            embed=board_embed(result.row, result.game, result.state, result.events, locale),
            file=board_file(png),
            view=board_components(result.row, result.game, result.state, locale) or discord.utils.MISSING,
            allowed_mentions=allowed_mentions(),
        )

    async def redraw_board(self, interaction: discord.Interaction, result: TurnResult, locale: str) -> None:
        """Replace the clicked board with the new one (same message, new image and buttons)."""
        png = await self.pipeline.render(result.game, result.state, None, locale)
        await interaction.edit_original_response(
            content=next_mentions(result.row, result.game, result.state) or None,
            embed=board_embed(result.row, result.game, result.state, result.events, locale),
            attachments=[board_file(png)],
            view=board_components(result.row, result.game, result.state, locale) or None,
            allowed_mentions=allowed_mentions(),
        )

    async def private_feedback(self, interaction: discord.Interaction, result: TurnResult, locale: str) -> None:
        """Events meant only for the acting seat (hidden draws, secret commits)."""
        seat = result.actors[0] if result.actors else None
        own = [e for e in result.events if e.to is not None and seat in e.to]
        if own:
            text = "\n".join(result.game.event_text(e, locale) for e in own)
            await interaction.followup.send(clip(text, 2000), ephemeral=True)

    # -------------------------------------------------------- /game new
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
    )
    @app_commands.choices(game=GAME_CHOICES)
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
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        settings = await self.services.guild_settings(interaction.guild_id)
        channel = interaction.channel
        allowed = settings.get("channels") or []
        parent = getattr(channel, "parent_id", None)
        if allowed and interaction.channel_id not in allowed and parent not in allowed:
            await interaction.followup.send(
                t("core.ui.channel_not_allowed", locale, channels=" ".join(f"<#{c}>" for c in allowed)), ephemeral=True
            )
            return
        camp = None
        if campaign:
            camp = await self.store.campaign(interaction.guild_id, campaign)
            if camp is None or camp.game != game:
                await interaction.followup.send(t("core.ui.no_campaign", locale, name=campaign), ephemeral=True)
                return
        try:
            g = get_game(game)
            merged = {**(settings.get("options") or {}).get(game, {}), **parse_options(options)}
            opts = g.parse_options(merged).model_dump(mode="json")
        except GameError as exc:
            await interaction.followup.send(exc.message(locale), ephemeral=True)
            return
        lo_seats, hi_seats = g.seat_range(opts)
        for value, hi in ((ai, hi_seats - 1), (timer, 10080), (remind, 10080)):
            if value is not None and not 0 <= value <= hi:  # Range is not enforced by discord.py at run time
                await interaction.followup.send(t("core.ui.bad_number", locale, lo=0, hi=hi), ephemeral=True)
                return
        table = {
            "turn_timer": settings["turn_timer"] if timer is None else timer,
            "reminder": settings["reminder"] if remind is None else remind,
        }
        plocale = settings.get("language") or locale
        if thread is None:
            thread = bool((settings.get("threads") or {}).get(game))
        if thread and isinstance(channel, discord.TextChannel):
            try:
                channel = await channel.create_thread(
                    name=clip(game_name(game, plocale), 90), type=discord.ChannelType.public_thread
                )
            except discord.HTTPException:
                await interaction.followup.send(t("core.ui.no_thread", locale), ephemeral=True)
                return
        seats = [Seat("p1", interaction.user.id)] + [Seat(f"p{i + 2}", None) for i in range(ai)]
        try:
            row = await self.store.create_game(
                guild_id=interaction.guild_id,
                channel_id=channel.id,
                game=game,
                host_id=interaction.user.id,
                options=opts,
                seed=secrets.randbits(48),
                seats=seats,
                locale=plocale,
                table=table,
                campaign_id=camp.id if camp else None,
            )
        except ChannelBusy:
            await interaction.followup.send(t("core.ui.channel_busy", locale), ephemeral=True)
            return
        except CorruptRow as exc:
            await self.store.quarantine(exc.game_id, exc.reason)
            await interaction.followup.send(t("core.ui.corrupt", locale, id=exc.game_id), ephemeral=True)
            return
        if hi_seats == 1 or len(seats) == hi_seats:
            await interaction.followup.send(t("core.ui.started", locale, game=game_name(game, locale)), ephemeral=True)
            await self._start(interaction, row, plocale, channel)
            return
        await interaction.followup.send(t("core.ui.lobby_opened", locale), ephemeral=True)
        await self._send(
            interaction, channel, embed=lobby_embed(row, g, plocale), view=lobby_components(row, g, plocale)
        )

    @new.autocomplete("campaign")
    async def new_campaign_autocomplete(self, interaction: discord.Interaction, current: str):
        game = getattr(interaction.namespace, "game", None)
        camps = await self.store.campaigns(interaction.guild_id) if interaction.guild_id else []
        return [
            app_commands.Choice(name=clip(c.name, 100), value=c.name)
            for c in camps
            if c.status == "open" and (game is None or c.game == game) and current.lower() in c.name.lower()
        ][:25]

    async def _send(self, interaction: discord.Interaction, channel, **kwargs) -> None:
        """Public message: as a followup in the command's channel, or into a new thread."""
        if channel is not None and channel.id != interaction.channel_id:
            await channel.send(**kwargs)
        else:
            await interaction.followup.send(**kwargs)

    async def prepare_campaign(self, row: GameRow) -> None:
        """A campaign table: each member keeps one seat name across the campaign's
        tables (a story crew follows its player), and a story mode sets the
        scenario's options from the campaign's progress."""
        if row.campaign_id is None:
            return
        async with self.store.lock(("campaign", row.campaign_id)):  # two tables starting at once
            await self._prepare_campaign(row)

    async def _prepare_campaign(self, row: GameRow) -> None:
        camp = await self.store.campaign_by_id(row.campaign_id)
        if camp is None:
            return
        progress = dict(camp.progress or {})
        members: dict[str, str] = dict(progress.get("members") or {})
        taken = set(members.values())
        seats, n = [], 1
        for s in row.seats:
            if s.user_id is not None and str(s.user_id) not in members:
                while f"p{n}" in taken:
                    n += 1
                members[str(s.user_id)] = f"p{n}"
                taken.add(f"p{n}")
        ai = 1
        for s in row.seats:
            if s.user_id is not None:
                seats.append(Seat(members[str(s.user_id)], s.user_id))
            else:
                while f"ai{ai}" in taken:
                    ai += 1
                seats.append(Seat(f"ai{ai}", None))
                taken.add(f"ai{ai}")
        g = get_game(row.game)
        try:
            extra = g.campaign_options(progress.get("story"), [s.seat for s in seats])
        except GameError as exc:
            raise TurnRefused.from_game_error(exc) from None
        options = {**row.options, **(extra or {})}
        try:
            row.version = await self.store.update_game(row.id, row.version, seats=seats, options=options)
        except VersionConflict:
            raise TurnRefused("stale", "core.ui.stale") from None
        row.seats, row.options = seats, options
        progress["members"] = members
        await self.store.commit(ChangeSet(campaigns=[CampaignChange(camp.id, camp.version, progress)]))

    async def _start(self, interaction: discord.Interaction, row: GameRow, locale: str, channel=None) -> None:
        try:
            await self.prepare_campaign(row)
            result = await self.pipeline.start(row)
        except TurnRefused as exc:
            await interaction.followup.send(exc.text(locale), ephemeral=True)
            return
        png = await self.pipeline.render(result.game, result.state, None, locale)
        await self._send(
            interaction,
            channel,
            content=next_mentions(result.row, result.game, result.state) or None,
            embed=board_embed(result.row, result.game, result.state, result.events, locale),
            file=board_file(png),
            view=board_components(result.row, result.game, result.state, locale) or discord.utils.MISSING,
            allowed_mentions=allowed_mentions(),
        )

    # ------------------------------------------------------------ lobby
    async def on_lobby(self, interaction: discord.Interaction, gid: int, op: str) -> None:
        await interaction.response.defer()
        locale = await self.public_locale(interaction)
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
                if len(seats) >= g.seat_range(row.options)[1]:
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
                if len(seats) >= g.seat_range(row.options)[1]:
                    return await self.refuse(interaction, "core.ui.table_full")
                seats.append(Seat(self._free_seat(seats), None))
            elif op == "cancel":
                if not (is_host or self._is_admin(interaction)):
                    return await self.refuse(interaction, "core.ui.host_only")
                status = "abandoned"
            elif op == "start":
                if not is_host:
                    return await self.refuse(interaction, "core.ui.host_only")
                if len(seats) < g.seat_range(row.options)[0]:
                    return await self.refuse(interaction, "core.ui.need_players", lo=g.seat_range(row.options)[0])
                try:
                    await self.prepare_campaign(row)
                    result = await self.pipeline.start(row)
                except TurnRefused as exc:
                    return await self.refuse(interaction, exc.key, **exc.params)
                await interaction.edit_original_response(view=None)
            if op != "start":
                try:
                    row.version = await self.store.update_game(row.id, row.version, seats=seats, status=status)
                except VersionConflict:
                    return await self.refuse(interaction, "core.ui.stale")
                row.seats = seats
                if status:
                    row.status = status
        if op == "start":
            return await self.post_board(interaction, result, locale)
        await interaction.edit_original_response(
            embed=lobby_embed(row, g, locale), view=lobby_components(row, g, locale)
        )

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

    async def _act(
        self, interaction: discord.Interaction, gid: int, version: int, idx: int | list[int], *, from_component: bool
    ) -> None:
        locale = self.loc(interaction)

        def picker(i: int):
            def pick(game, state, seat, legal):
                if not 0 <= i < len(legal):
                    raise TurnRefused("stale", "core.ui.stale")
                return legal[i]

            return pick

        chain = idx if isinstance(idx, list) else [idx]
        try:
            result = await self.pipeline.act(
                gid, interaction.user.id, [picker(i) for i in chain], expected_version=version
            )
        except TurnRefused as exc:
            await interaction.followup.send(exc.text(locale), ephemeral=True)
            if exc.code == "stale":
                await self._fresh_panel(interaction, gid, locale)
            return
        game, seat = result.game, (result.actors[0] if result.actors else None)
        same_turn = (
            not result.finished
            and not game.private_actions
            and game.to_act(result.state) == result.waiting_before == [seat]
        )
        if from_component and same_turn and not interaction.message.flags.ephemeral:
            # the same player decides again (the next step of one turn): redraw this board
            # in place instead of posting a new message; a new message (and a ping) comes
            # when the turn passes on
            await self.private_feedback(interaction, result, locale)
            return await self.redraw_board(interaction, result, await self.public_locale(interaction))
        if from_component:
            try:
                await interaction.edit_original_response(view=None)
            except discord.HTTPException:
                pass
        else:  # a slash command deferred ephemerally: its first followup fills that private reply
            await interaction.followup.send(t("core.ui.ok", locale), ephemeral=True)
        await self.private_feedback(interaction, result, locale)
        if game.private_actions and not result.finished:
            # secret simultaneous orders: stay private until the turn resolves
            after, before = set(game.to_act(result.state)), set(result.waiting_before)
            if seat in after and after == before:  # the order goes on: its next step, privately
                return await self.send_panel(interaction, result.row, game, result.state, seat, locale)
            if after < before:  # locked in; the others are still choosing
                return await interaction.followup.send(t("core.ui.committed", locale), ephemeral=True)
        await self.post_board(interaction, result, await self.public_locale(interaction))

    async def _fresh_panel(self, interaction: discord.Interaction, gid: int, locale: str) -> None:
        """After a stale click, offer the clicker their current choices (if any)."""
        try:
            loaded = await self.pipeline.load(gid)
        except TurnRefused:
            return
        seat = loaded.row.seat_of(interaction.user.id)
        if seat and seat in loaded.game.to_act(loaded.state):
            await self.send_panel(interaction, loaded.row, loaded.game, loaded.state, seat, locale)

    async def send_panel(
        self, interaction: discord.Interaction, row: GameRow, game, state, seat: str, locale: str
    ) -> None:
        """The seat's current choices, privately to the clicker."""
        await interaction.followup.send(
            game.prompt(state, seat).text(locale), ephemeral=True, view=action_view(row, game, state, seat, locale)
        )

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
        await self.send_panel(interaction, loaded.row, loaded.game, loaded.state, seat, locale)

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
        text = t("core.ui.your_view", locale, seat=seat)
        private = loaded.game.private_summary(loaded.state, seat)
        if private is not None:
            text += "\n" + private.text(locale)
        await interaction.followup.send(
            clip(text, 2000), file=discord.File(io.BytesIO(png), filename="view.png"), ephemeral=True
        )

    # -------------------------------------------------------- /game ...
    @game.command(
        name=ls("status", "discord.cmd.game.status"),
        description=ls("Show this channel's table again", "discord.cmd.game.status.desc"),
    )
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
            return await interaction.followup.send(
                embed=lobby_embed(row, g, locale), view=lobby_components(row, g, locale)
            )
        try:
            loaded = await self.pipeline.load(row.id)
        except TurnRefused as exc:
            return await interaction.followup.send(exc.text(locale), ephemeral=True)
        await self.post_board(interaction, TurnResult(loaded.row, loaded.game, loaded.state, []), locale)

    @game.command(
        name=ls("log", "discord.cmd.game.log"),
        description=ls("Recent actions at this table", "discord.cmd.game.log.desc"),
    )
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
        rows = await self.store.actions(
            loaded.row.id, limit=min(per, total - per * (page - 1)) if total else 0, offset=offset
        )
        seat = loaded.row.seat_of(interaction.user.id)
        lines = []
        for a in rows:
            evs = loaded.game.load_events(a.events)
            shown = [loaded.game.event_text(e, locale) for e in loaded.game.visible_events(evs, seat)]
            who = f"<@{a.user_id}>" if a.user_id else t("core.ui.ai", locale)
            lines.append(f"**{a.seat}** ({who}): " + ("; ".join(shown) if shown else "…"))
        pages = max(1, -(-total // per))
        head = t("core.ui.log_title", locale, id=loaded.row.id, page=page, pages=pages)
        body = "\n".join(lines) or t("core.ui.log_empty", locale)
        await interaction.followup.send(clip(f"{head}\n{body}", 2000), ephemeral=True)

    @game.command(
        name=ls("abandon", "discord.cmd.game.abandon"),
        description=ls("End this channel's table without a result", "discord.cmd.game.abandon.desc"),
    )
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
        await interaction.followup.send(
            t("core.ui.abandoned", locale, id=row.id, user=interaction.user.mention),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @game.command(
        name=ls("view", "discord.cmd.game.view"),
        description=ls("Your own view of the table (your hand), privately", "discord.cmd.game.view.desc"),
    )
    async def view(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self._private_view(interaction)

    # ------------------------------------------------- undo, resign, seats
    async def _my_table(self, interaction: discord.Interaction, locale: str):
        """This channel's running table, or a private refusal (and None)."""
        try:
            return await self.pipeline.load(channel_id=interaction.channel_id)
        except TurnRefused as exc:
            await interaction.followup.send(exc.text(locale), ephemeral=True)
            return None

    @game.command(
        name=ls("undo", "discord.cmd.game.undo"),
        description=ls("Take back your last move", "discord.cmd.game.undo.desc"),
    )
    async def undo(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        loaded = await self._my_table(interaction, locale)
        if loaded is None:
            return
        if loaded.row.seat_of(interaction.user.id) is None:
            return await interaction.followup.send(t("core.ui.not_seated", locale), ephemeral=True)
        try:
            status, result = await self.pipeline.undo(loaded.row.id, interaction.user.id)
        except TurnRefused as exc:
            return await interaction.followup.send(exc.text(locale), ephemeral=True)
        plocale = await self.public_locale(interaction)
        if status == "done":
            await interaction.followup.send(t("core.ui.ok", locale), ephemeral=True)
            return await self.post_board(
                interaction, result, plocale, note=t("core.ui.undone", plocale, user=interaction.user.mention)
            )
        voters = [u for u in loaded.row.humans if u != interaction.user.id]
        if not voters:  # nobody to ask: the only human at the table decides
            status, result = await self.pipeline.undo(loaded.row.id, interaction.user.id, consent=True)
            await interaction.followup.send(t("core.ui.ok", locale), ephemeral=True)
            return await self.post_board(
                interaction, result, plocale, note=t("core.ui.undone", plocale, user=interaction.user.mention)
            )
        vote = await self.store.create_vote(
            game_id=loaded.row.id,
            kind="undo",
            payload={"user": interaction.user.id},
            base_version=loaded.row.version,
            voters=voters,
            created_by=interaction.user.id,
        )
        await interaction.followup.send(t("core.ui.vote_started", locale), ephemeral=True)
        await interaction.followup.send(
            t("core.ui.undo_vote", plocale, user=interaction.user.mention, voters=" ".join(f"<@{u}>" for u in voters)),
            view=self._vote_view(vote.id, plocale),
            allowed_mentions=allowed_mentions(),
        )

    def _vote_view(self, vid: int, locale: str) -> discord.ui.View:
        from .components import VoteButton

        view = discord.ui.View(timeout=None)
        view.add_item(VoteButton(vid, "yes", label=t("core.ui.agree", locale)))
        view.add_item(VoteButton(vid, "no", label=t("core.ui.refuse", locale)))
        return view

    async def on_vote(self, interaction: discord.Interaction, vid: int, yes: bool) -> None:
        await interaction.response.defer()
        locale = self.loc(interaction)
        plocale = await self.public_locale(interaction)
        me = interaction.user.id
        async with self.store.lock(("vote", vid)):  # two voters at once must not lose a ballot
            vote = await self.store.get_vote(vid)
            if vote is None or vote.status != "open":
                return await self.refuse(interaction, "core.ui.vote_closed")
            if me not in vote.voters:
                return await self.refuse(interaction, "core.ui.not_a_voter")
            row = await self.store.get_game(vote.game_id)
            if row is None or row.version != vote.base_version or row.status != "active":
                await self.store.commit(ChangeSet(votes=[VoteChange(vid, vote.version, status="expired")]))
                await interaction.edit_original_response(view=None)
                return await self.refuse(interaction, "core.ui.vote_expired")
            # undo needs every other human's consent; a hand-over a majority of the other players
            needed = len(vote.voters) if vote.kind == "undo" else len(vote.voters) // 2 + 1
            ayes = sorted((set(vote.yes) | {me}) if yes else (set(vote.yes) - {me}))
            nays = sorted((set(vote.no) - {me}) if yes else (set(vote.no) | {me}))
            failed = len(vote.voters) - len(nays) < needed  # cannot pass any more
            passed = not failed and len(ayes) >= needed
            await self.store.commit(
                ChangeSet(
                    votes=[
                        VoteChange(
                            vid,
                            vote.version,
                            yes=ayes,
                            no=nays,
                            status="refused" if failed else "passed" if passed else None,
                        )
                    ]
                )
            )
        if failed:
            await interaction.edit_original_response(view=None)
            return await interaction.followup.send(
                t("core.ui.vote_refused", plocale, user=interaction.user.mention),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        if not passed:
            return await interaction.followup.send(
                t("core.ui.vote_counted", locale, n=len(ayes), needed=needed), ephemeral=True
            )
        await interaction.edit_original_response(view=None)
        try:
            if vote.kind == "undo":
                _, result = await self.pipeline.undo(
                    vote.game_id, vote.payload["user"], consent=True, base_version=vote.base_version
                )
                note = t("core.ui.undone", plocale, user=f"<@{vote.payload['user']}>")
            else:
                result = await self.pipeline.handover(
                    vote.game_id, vote.payload["seat"], vote.payload.get("to"), base_version=vote.base_version
                )
                note = self._handover_note(vote.payload["seat"], vote.payload.get("to"), plocale)
        except TurnRefused as exc:
            return await self.refuse(interaction, exc.key, **exc.params)
        await self.post_board(interaction, result, plocale, note=note)

    @staticmethod
    def _handover_note(seat: str, to: int | None, locale: str) -> str:
        who = f"<@{to}>" if to else t("core.ui.ai", locale)
        return t("core.ui.handed_over", locale, seat=seat, who=who)

    @game.command(
        name=ls("handover", "discord.cmd.game.handover"),
        description=ls("Give a seat to another member or the AI (host, or by vote)", "discord.cmd.game.handover.desc"),
    )
    @app_commands.describe(
        seat=ls("The seat, e.g. p2", "discord.arg.seat"),
        member=ls("Who takes it (leave empty for the AI)", "discord.arg.member"),
    )
    async def handover(self, interaction: discord.Interaction, seat: str, member: discord.Member | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        loaded = await self._my_table(interaction, locale)
        if loaded is None:
            return
        row = loaded.row
        if seat not in [s.seat for s in row.seats]:
            return await interaction.followup.send(t("core.error.unknown_seat", locale, seat=seat), ephemeral=True)
        to = member.id if member else None
        if to is not None and (member.bot or row.seat_of(to) not in (None, seat)):
            return await interaction.followup.send(t("core.ui.already_seated", locale), ephemeral=True)
        plocale = await self.public_locale(interaction)
        me = interaction.user.id
        if me == row.host_id or self._is_admin(interaction):
            try:
                result = await self.pipeline.handover(row.id, seat, to)
            except TurnRefused as exc:
                return await interaction.followup.send(exc.text(locale), ephemeral=True)
            await interaction.followup.send(t("core.ui.ok", locale), ephemeral=True)
            return await self.post_board(interaction, result, plocale, note=self._handover_note(seat, to, plocale))
        if row.seat_of(me) is None:
            return await interaction.followup.send(t("core.ui.host_only", locale), ephemeral=True)
        owner = row.user_of(seat)
        voters = [u for u in row.humans if u != owner]
        vote = await self.store.create_vote(
            game_id=row.id,
            kind="handover",
            payload={"seat": seat, "to": to},
            base_version=row.version,
            voters=voters,
            created_by=me,
        )
        await interaction.followup.send(t("core.ui.vote_started", locale), ephemeral=True)
        await interaction.followup.send(
            t(
                "core.ui.handover_vote",
                plocale,
                user=interaction.user.mention,
                seat=seat,
                who=f"<@{to}>" if to else t("core.ui.ai", plocale),
                voters=" ".join(f"<@{u}>" for u in voters),
            ),
            view=self._vote_view(vote.id, plocale),
            allowed_mentions=allowed_mentions(),
        )

    @game.command(
        name=ls("resign", "discord.cmd.game.resign"),
        description=ls("Leave this table (the AI takes your seat)", "discord.cmd.game.resign.desc"),
    )
    async def resign(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        loaded = await self._my_table(interaction, locale)
        if loaded is None:
            return
        try:
            result = await self.pipeline.resign(loaded.row.id, interaction.user.id)
        except TurnRefused as exc:
            return await interaction.followup.send(exc.text(locale), ephemeral=True)
        await interaction.followup.send(t("core.ui.ok", locale), ephemeral=True)
        plocale = await self.public_locale(interaction)
        note = t("core.ui.resigned", plocale, user=interaction.user.mention)
        if result.row.status == "finished" and result.game.outcome(result.state) is None:
            return await interaction.followup.send(
                note + " " + t("core.ui.table_closed", plocale), allowed_mentions=discord.AllowedMentions.none()
            )
        await self.post_board(interaction, result, plocale, note=note)

    # ---------------------------------------------------------- history
    @game.command(
        name=ls("mine", "discord.cmd.game.mine"),
        description=ls("Tables in this server waiting for you", "discord.cmd.game.mine.desc"),
    )
    async def mine(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        rows = await self.store.games_of_user(interaction.user.id, interaction.guild_id)
        lines = []
        for row in rows:
            seat = row.seat_of(interaction.user.id)
            link = f"https://discord.com/channels/{row.guild_id}/{row.channel_id}"
            if row.status == "lobby":
                state = t("core.ui.mine_lobby", locale)
            elif seat in row.to_act:
                state = t("core.ui.mine_waiting", locale)
            else:
                state = t("core.ui.mine_others", locale)
            lines.append((seat not in row.to_act, f"**{game_name(row.game, locale)}** #{row.id} — {state} — {link}"))
        lines.sort(key=lambda x: x[0])
        text = "\n".join(line for _, line in lines) or t("core.ui.mine_none", locale)
        await interaction.followup.send(clip(text, 2000), ephemeral=True)

    async def _finished_table(self, interaction: discord.Interaction, gid: int | None, locale: str):
        if gid is None:
            row = await self.store.active_game(interaction.channel_id)
            if row is None:
                await interaction.followup.send(t("core.ui.no_game", locale), ephemeral=True)
                return None
        else:
            try:
                row = await self.store.get_game(gid)
            except CorruptRow:
                row = None
            if row is None or row.guild_id != interaction.guild_id:
                await interaction.followup.send(t("core.ui.no_such_table", locale, id=gid), ephemeral=True)
                return None
        if row.status not in ("finished", "abandoned"):
            # the seed predicts every future roll and hidden card: never hand it out mid-game
            await interaction.followup.send(t("core.ui.export_when_finished", locale, id=row.id), ephemeral=True)
            return None
        return row

    @game.command(
        name=ls("export", "discord.cmd.game.export"),
        description=ls("Seed and action log of a finished table, as JSON", "discord.cmd.game.export.desc"),
    )
    @app_commands.describe(table=ls("Table number (default: this channel's)", "discord.arg.table"))
    async def export(self, interaction: discord.Interaction, table: int | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        row = await self._finished_table(interaction, table, locale)
        if row is None:
            return
        data = await self.export_data(row)
        blob = json.dumps(data, ensure_ascii=False, indent=1).encode()
        await interaction.followup.send(
            t("core.ui.export_ready", locale, id=row.id),
            ephemeral=True,
            file=discord.File(io.BytesIO(blob), filename=f"table-{row.id}.json"),
        )

    async def export_data(self, row: GameRow) -> dict[str, Any]:
        log_rows = await self.store.actions(row.id, limit=1_000_000)
        return {
            "format": "tabletop-gm/export@1",
            "table": row.id,
            "game": row.game,
            "seats": [s.seat for s in row.seats],
            "options": row.options,
            "seed": row.seed,
            "log": [{"seat": a.seat, "action": a.action} for a in log_rows],
            "outcome": row.outcome,
        }

    @game.command(
        name=ls("replay", "discord.cmd.game.replay"),
        description=ls("The board of a finished table at any turn", "discord.cmd.game.replay.desc"),
    )
    @app_commands.describe(
        table=ls("Table number", "discord.arg.table"),
        turn=ls("Turn (0 = the start; default: the end)", "discord.arg.turn"),
    )
    async def replay(self, interaction: discord.Interaction, table: int, turn: int | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        row = await self._finished_table(interaction, table, locale)
        if row is None:
            return
        g = get_game(row.game)
        log_rows = await self.store.actions(row.id, limit=1_000_000)
        n = len(log_rows) if turn is None else max(0, min(int(turn), len(log_rows)))
        try:
            state = await self.pipeline.off_loop(
                g.replay, [s.seat for s in row.seats], row.options, row.seed, [(a.seat, a.action) for a in log_rows[:n]]
            )
        except GameError:
            return await interaction.followup.send(t("core.ui.undo_impossible", locale), ephemeral=True)
        png = await self.pipeline.render(g, state, None, locale)
        embed = discord.Embed(
            title=t(
                "core.ui.replay_title", locale, game=game_name(row.game, locale), id=row.id, turn=n, turns=len(log_rows)
            ),
            description=g.summary(state).text(locale),
        )
        embed.set_image(url="attachment://board.png")
        await interaction.followup.send(embed=embed, file=board_file(png), ephemeral=True)

    auto = app_commands.Group(
        name=ls("auto", "discord.cmd.auto"), description=ls("Automobile", "discord.game.automobile"), guild_only=True
    )

    @auto.command(
        name=ls("hand", "discord.cmd.auto.hand"),
        description=ls("Your demand cards, privately", "discord.cmd.auto.hand.desc"),
    )
    async def auto_hand(self, interaction: discord.Interaction) -> None:
        """The name Automobile players look for; the same private view as /game view."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self._private_view(interaction)

    # ------------------------------------------------------------- /play
    @app_commands.command(
        name=ls("play", "discord.cmd.play"),
        description=ls("Make your move by name (autocomplete)", "discord.cmd.play.desc"),
    )
    @app_commands.describe(action=ls("One of your legal moves", "discord.arg.action"))
    @app_commands.guild_only()
    async def play(self, interaction: discord.Interaction, action: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        parsed = parse_chain(action)
        if parsed is None or not parsed[2]:
            return await interaction.followup.send(t("core.ui.bad_play", locale), ephemeral=True)
        gid, version, chain, _ = parsed
        row = await self.store.active_game(interaction.channel_id)
        if row is None or row.id != gid:
            return await interaction.followup.send(t("core.ui.stale", locale), ephemeral=True)
        await self._act(interaction, gid, version, chain, from_component=False)

    @play.autocomplete("action")
    async def play_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Legal choices only.  Picking one and going on typing extends a chain
        of this seat's decisions (e.g. a whole Thunder Road turn: die, car,
        command, each step of the path), simulated on a copy -- but never past
        a die roll or a shuffle, which would show the future."""
        locale = self.loc(interaction)
        try:
            loaded = await self.pipeline.load(channel_id=interaction.channel_id)
        except TurnRefused:
            return []
        game, state, row = loaded.game, loaded.state, loaded.row
        seat = row.seat_of(interaction.user.id)
        if seat is None or seat not in game.to_act(state):
            return []
        parsed = parse_chain(current)
        chain, needle = [], current.lower().strip()
        if parsed and parsed[0] == row.id and parsed[1] == row.version:
            chain, needle = parsed[2], parsed[3].lower().strip()
        labels: list[str] = []
        for idx in chain:
            legal = game.legal_actions(state, seat)
            if not 0 <= idx < len(legal):
                return []
            labels.append(game.action_label(state, legal[idx], locale))
            before = state.rng
            state, _ = game.apply(state, seat, legal[idx])
            if state.rng != before or seat not in game.to_act(state) or game.outcome(state) is not None:
                # the chain ends here: offer it as it stands
                name = " → ".join(labels)
                return [
                    app_commands.Choice(
                        name=clip("✔ " + name, 100) if len(name) < 98 else clip("✔ …" + name[-96:], 100),
                        value=chain_value(row.id, row.version, chain),
                    )
                ]
        prefix = " → ".join(labels)
        out = []
        for i, a in enumerate(game.legal_actions(state, seat)):
            label = game.action_label(state, a, locale)
            if needle and needle not in label.lower():
                continue
            name = f"{prefix} → {label}" if prefix else label
            if len(name) > 100:
                name = "…" + name[-99:]
            value = chain_value(row.id, row.version, chain + [i])
            if len(value) > 100:
                break
            out.append(app_commands.Choice(name=name, value=value))
            if len(out) == 25:
                break
        return out

    # ------------------------------------------------------------ /rules
    @app_commands.command(
        name=ls("rules", "discord.cmd.rules"), description=ls("Read a game's rules", "discord.cmd.rules.desc")
    )
    @app_commands.describe(
        game=ls("Which game", "discord.arg.game"), topic=ls("Which part of the rules", "discord.arg.topic")
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: str, topic: str | None = None) -> None:
        locale = self.loc(interaction)
        topics = rules_topics(game, locale)
        if not topics:
            return await interaction.response.send_message(t("core.ui.no_rules", locale), ephemeral=True)
        chosen = None
        if topic:
            chosen = find_topic(game, topics, topic)
            if chosen is None:
                return await interaction.response.send_message(
                    t("core.ui.no_topic", locale, topic=topic), ephemeral=True
                )
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
        return [
            app_commands.Choice(name=clip(tp[0], 100), value=str(i + 1))
            for i, tp in enumerate(rules_topics(game, self.loc(interaction)))
            if needle in tp[0].lower()
        ][:25]


async def setup(bot: commands.Bot) -> None:  # discord.py extension entry point
    await bot.add_cog(Tables(bot, bot.services))

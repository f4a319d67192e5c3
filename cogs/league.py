"""``/league``: seasons the bot runs itself (tables/leagues.py does the work).

Thin: commands and the sign-up buttons call :class:`tables.leagues.LeagueService`
and post what it says.  A scheduler pass (``tick``, every minute, also driven by
tests with their own clock) advances every league: pairs a round, opens each
table in its own thread (a forum post with Waiting/Active/Finished tags when the
league has a forum), pings the players, decides the tables still running at the
deadline, and posts the season's end with the podium (and rank roles per
division when asked for and the bot may manage roles).  Every refusal is private
and localised; league names and member names are escaped before they are shown.
"""

from __future__ import annotations

import io
import logging
import secrets
from typing import Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from engine import GameError
from engine.i18n import t
from render.league import Row as ImageRow
from render.league import draw as draw_standings
from store import LeagueRow
from tables import TurnRefused, clocks
from tables.leagues import HOUR, LeagueService, RoundEvent, Standings
from tables.text import escape, plain

from .boards import Boards
from .components import LeagueButton, LeagueClicks, routes_of
from .inputs import check_game, echo, game_choices, parse_options, parse_points
from .locale import locale_of, ls
from .periodic import Periodic
from .services import Services
from .ui import clip, game_name

log = logging.getLogger("tabletop.league")
GAME_CHOICES = game_choices()
FORMAT_CHOICES = [
    app_commands.Choice(name=ls(f, f"league.format.{f}"), value=f) for f in ("swiss", "round_robin", "pods", "series")
]
CLOCK_CHOICES = [
    app_commands.Choice(name=ls(name, f"asyncplay.profile.{name}"), value=name) for name in clocks.PROFILES
]
TAGS = ("waiting", "active", "finished")
NO_PINGS = discord.AllowedMentions.none()


def safe(text: str) -> str:
    """A member-chosen text (a league's name) shown as written: no markdown, link or mention."""
    return escape(text, 60)


def pings(users) -> discord.AllowedMentions:
    """Mentions that notify exactly these members (never roles or everyone)."""
    return discord.AllowedMentions(
        users=[discord.Object(int(u)) for u in users], roles=False, everyone=False, replied_user=False
    )


def is_admin(interaction: discord.Interaction, league: LeagueRow | None = None) -> bool:
    perms = getattr(interaction, "permissions", None)
    return bool(perms and perms.manage_guild) or (league is not None and league.created_by == interaction.user.id)


def stamp(ts: float) -> str:
    return f"<t:{int(ts)}:f> (<t:{int(ts)}:R>)"


class ForumOption(app_commands.Transformer):
    """A channel option limited to forum channels (the id is all the league keeps)."""

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.channel

    @property
    def channel_types(self) -> list[discord.ChannelType]:
        return [discord.ChannelType.forum]

    async def transform(self, interaction: discord.Interaction, value: Any) -> Any:
        return value


def signup_view(row: LeagueRow, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(LeagueButton(row.id, "join", label=t("league.join", locale), style=discord.ButtonStyle.primary))
    view.add_item(LeagueButton(row.id, "leave", label=t("league.leave", locale)))
    return view


class League(Periodic, commands.Cog):
    interval = 60.0
    log = log

    league = app_commands.Group(
        name=ls("league", "league.cmd"),
        description=ls("Seasons the bot pairs, opens and scores itself", "league.cmd.desc"),
        guild_only=True,
    )

    def __init__(self, bot: commands.Bot, services: Services) -> None:
        super().__init__(bot, services)
        self.leagues: LeagueService = services.leagues
        self.boards = Boards(bot, services)

    def loc(self, interaction: discord.Interaction) -> str:
        return locale_of(interaction, self.services.default_locale)

    async def cog_load(self) -> None:
        handlers: LeagueClicks = self  # mypy checks that this cog answers the signup buttons
        routes_of(self.bot).leagues = handlers
        await super().cog_load()

    async def cog_unload(self) -> None:
        routes = routes_of(self.bot)
        if routes.leagues is self:
            routes.leagues = None
        await super().cog_unload()

    async def on_signup(self, interaction: discord.Interaction, lid: int, op: str) -> None:
        """A league's Join / Leave button (ids only: works across restarts)."""
        locale = self.loc(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        if op == "join":
            row = await self.leagues.signup(lid, interaction.user.id)
            key = "league.signed_up" if row.status == "signup" else "league.signed_up_late"
            n = int(row.state.get("round", 0)) + 1
        else:
            row, _ = await self.leagues.withdraw(lid, interaction.user.id)
            key, n = "league.left", 0
        await interaction.followup.send(t(key, locale, name=escape(row.name, 60), round=n), ephemeral=True)

    async def public_locale(self, guild_id: int | None) -> str:
        settings = await self.services.settings.guild(guild_id)
        return settings.get("language") or self.services.default_locale

    async def _league(self, interaction: discord.Interaction, name: str, *, admin: bool = False) -> LeagueRow | None:
        """The named league of this server, or None after a private refusal."""
        locale = self.loc(interaction)
        try:
            row = await self.leagues.named(cast(int, interaction.guild_id), name)
        except TurnRefused:
            await interaction.followup.send(t("league.no_league", locale, name=echo(name)), ephemeral=True)
            return None
        if admin and not is_admin(interaction, row):
            await interaction.followup.send(t("league.admin_only", locale), ephemeral=True)
            return None
        return row

    # ------------------------------------------------------------ commands
    @league.command(name=ls("new", "league.cmd.new"), description=ls("Create a league season", "league.cmd.new.desc"))
    @app_commands.describe(
        game=ls("Which game", "discord.arg.game"),
        name=ls("The league's name", "league.arg.name"),
        format=ls("Swiss, round robin, pods of N, or a series (a campaign)", "league.arg.format"),
        rounds=ls("Number of rounds (default: enough for the format)", "league.arg.rounds"),
        seats=ls("Players per table (pods)", "league.arg.seats"),
        round_hours=ls("Hours each round lasts (its deadline)", "league.arg.round_hours"),
        signup_hours=ls("Hours the sign-up stays open (then it starts by itself)", "league.arg.signup_hours"),
        clock=ls("Time bank per player at the league's tables", "asyncplay.arg.clock"),
        options=ls("Game options as key=value", "discord.arg.options"),
        divisions=ls("Divisions (by rating; promotion and relegation between seasons)", "league.arg.divisions"),
        forum=ls("A forum channel for the tables (tags Waiting/Active/Finished)", "league.arg.forum"),
        roles=ls("Give rank roles per division at the season's end", "league.arg.roles"),
        points=ls("Series: points per place, e.g. 10,6,3,1", "discord.arg.points"),
    )
    @app_commands.choices(game=GAME_CHOICES, format=FORMAT_CHOICES, clock=CLOCK_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction,
        game: str,
        name: str,
        format: str,
        rounds: app_commands.Range[int, 1, 30] | None = None,
        seats: app_commands.Range[int, 2, 8] | None = None,
        round_hours: app_commands.Range[float, 0.1, 1440.0] = 72.0,
        signup_hours: app_commands.Range[float, 0.1, 1440.0] | None = None,
        clock: str | None = None,
        options: str | None = None,
        divisions: app_commands.Range[int, 1, 8] = 1,
        forum: app_commands.Transform[Any, ForumOption] | None = None,
        roles: bool = False,
        points: str | None = None,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        if not is_admin(interaction):
            return await interaction.followup.send(t("league.admin_only", locale), ephemeral=True)
        plocale = await self.public_locale(interaction.guild_id)
        if forum is not None and getattr(forum, "type", None) != discord.ChannelType.forum:
            return await interaction.followup.send(t("league.not_forum", locale), ephemeral=True)
        game = check_game(game)
        opts = parse_options(options)
        if format == "series":
            try:
                table = parse_points(points)
            except ValueError:
                return await interaction.followup.send(t("core.campaign.bad_points", locale), ephemeral=True)
            try:
                camp = await self.services.tables.create_campaign(
                    guild_id=cast(int, interaction.guild_id),
                    game_id=game,
                    name=name.strip()[:60],
                    points=table,
                    created_by=interaction.user.id,
                    story=opts,
                )
            except (TurnRefused, GameError) as exc:
                text = exc.text(locale) if isinstance(exc, TurnRefused) else exc.message(locale)
                return await interaction.followup.send(text, ephemeral=True)
            await interaction.followup.send(t("league.series_created", locale, name=safe(camp.name)), ephemeral=True)
            return
        row = await self.leagues.create(
            guild_id=cast(int, interaction.guild_id),
            channel_id=cast(int, interaction.channel_id),
            game=game,
            name=name,
            format=format,
            created_by=interaction.user.id,
            rounds=rounds,
            seats=seats,
            round_hours=float(round_hours),
            signup_hours=float(signup_hours) if signup_hours else None,
            clock=clock or "off",
            options=opts,
            divisions=int(divisions),
            forum_id=forum.id if forum is not None else None,
            roles=roles,
        )
        await interaction.followup.send(t("league.created", locale, name=safe(row.name)), ephemeral=True)
        await self.post_signup(row, await self.channel(row.channel_id), plocale)

    async def post_signup(self, row: LeagueRow, channel, locale: str) -> None:
        until = row.config.get("signup_until")
        text = t(
            "league.signup_open",
            locale,
            name=safe(row.name),
            game=game_name(row.game, locale),
            format=t(f"league.format.{row.format}", locale),
            rounds=row.config.get("rounds") or t("league.rounds_auto", locale),
            hours=f"{float(row.config.get('round_hours', 72)):g}",
            until=stamp(until) if until else t("league.until_admin", locale),
        )
        if channel is not None:
            await channel.send(clip(text, 2000), view=signup_view(row, locale), allowed_mentions=NO_PINGS)

    async def _admin_member(self, interaction: discord.Interaction, name: str, op, done_key: str, **extra) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        row = await self._league(interaction, name, admin=True)
        if row is None:
            return
        await op(row)
        await interaction.followup.send(t(done_key, locale, name=safe(row.name), **extra), ephemeral=True)

    @league.command(name=ls("add", "league.cmd.add"), description=ls("Add a player", "league.cmd.add.desc"))
    @app_commands.describe(name=ls("The league's name", "league.arg.name"), member=ls("Who", "league.arg.member"))
    async def add(self, interaction: discord.Interaction, name: str, member: discord.Member) -> None:
        await self._admin_member(
            interaction,
            name,
            lambda row: self.leagues.signup(row.id, member.id, admin=True),
            "league.added",
            user=member.mention,
        )

    @league.command(name=ls("drop", "league.cmd.drop"), description=ls("Drop a player", "league.cmd.drop.desc"))
    @app_commands.describe(name=ls("The league's name", "league.arg.name"), member=ls("Who", "league.arg.member"))
    async def drop(self, interaction: discord.Interaction, name: str, member: discord.Member) -> None:
        await self._admin_member(
            interaction, name, lambda row: self.leagues.drop(row.id, member.id), "league.dropped", user=member.mention
        )

    @league.command(
        name=ls("replace", "league.cmd.replace"), description=ls("Replace a player", "league.cmd.replace.desc")
    )
    @app_commands.describe(
        name=ls("The league's name", "league.arg.name"),
        member=ls("Who leaves", "league.arg.member"),
        by=ls("Who takes their place (and their record)", "league.arg.by"),
    )
    async def replace(
        self, interaction: discord.Interaction, name: str, member: discord.Member, by: discord.Member
    ) -> None:
        await self._admin_member(
            interaction,
            name,
            lambda row: self.leagues.replace_player(row.id, member.id, by.id),
            "league.replaced",
            user=member.mention,
            by=by.mention,
        )

    @league.command(
        name=ls("start", "league.cmd.start"), description=ls("Close sign-up and start", "league.cmd.start.desc")
    )
    @app_commands.describe(name=ls("The league's name", "league.arg.name"))
    async def start(self, interaction: discord.Interaction, name: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        row = await self._league(interaction, name, admin=True)
        if row is None:
            return
        await self.leagues.start(row.id)
        await interaction.followup.send(t("league.started", locale, name=safe(row.name)), ephemeral=True)
        await self.run(row.id, self.services.clock())

    @league.command(name=ls("cancel", "league.cmd.cancel"), description=ls("Cancel a league", "league.cmd.cancel.desc"))
    @app_commands.describe(name=ls("The league's name", "league.arg.name"))
    async def cancel(self, interaction: discord.Interaction, name: str) -> None:
        await self._admin_member(interaction, name, lambda row: self.leagues.cancel(row.id), "league.cancelled")

    @league.command(
        name=ls("next", "league.cmd.next"),
        description=ls("Next season (promotion and relegation)", "league.cmd.next.desc"),
    )
    @app_commands.describe(
        name=ls("The league's name", "league.arg.name"), new_name=ls("The new season's name", "league.arg.new_name")
    )
    async def next_season(self, interaction: discord.Interaction, name: str, new_name: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        row = await self._league(interaction, name, admin=True)
        if row is None:
            return
        new = await self.leagues.next_season(row.id, new_name, interaction.user.id)
        await interaction.followup.send(t("league.created", locale, name=safe(new.name)), ephemeral=True)
        await self.post_signup(new, await self.channel(new.channel_id), await self.public_locale(interaction.guild_id))

    @league.command(
        name=ls("standings", "league.cmd.standings"),
        description=ls("A league's standings", "league.cmd.standings.desc"),
    )
    @app_commands.describe(name=ls("The league's name", "league.arg.name"))
    async def standings(self, interaction: discord.Interaction, name: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        row = await self._league(interaction, name)
        if row is None:
            return
        table = await self.leagues.standings(row.id)
        text, png = await self.standings_post(table, locale)
        await interaction.followup.send(t("core.ui.ok", locale), ephemeral=True)
        await interaction.followup.send(
            clip(text, 2000),
            file=discord.File(io.BytesIO(png), filename="standings.png"),
            allowed_mentions=NO_PINGS,
        )

    @league.command(
        name=ls("status", "league.cmd.status"), description=ls("Where a league stands", "league.cmd.status.desc")
    )
    @app_commands.describe(name=ls("The league's name", "league.arg.name"))
    async def status(self, interaction: discord.Interaction, name: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        row = await self._league(interaction, name)
        if row is None:
            return
        lines = [
            t(
                "league.status_head",
                locale,
                name=safe(row.name),
                status=t(f"league.status.{row.status}", locale),
                players=sum(1 for p in row.state.get("players", {}).values() if p.get("dropped") is None),
                round=row.state.get("round", 0),
                rounds=row.config.get("rounds") or "?",
            )
        ]
        rounds = row.state.get("rounds", [])
        if row.status == "running" and rounds:
            rnd = rounds[-1]
            lines.append(t("league.deadline_at", locale, when=stamp(float(rnd["deadline"]))))
            for k, tb in enumerate(rnd["tables"]):
                where = f"<#{tb['channel_id']}>" if tb.get("channel_id") else "…"
                players = ", ".join(f"<@{u}>" for u in tb["seats"])
                state = t(f"league.table.{tb.get('status', 'pending')}", locale)
                lines.append(f"{k + 1}. {players} · {where} · {state}")
            if rnd.get("byes"):
                lines.append(t("league.byes", locale, users=", ".join(f"<@{u}>" for u in rnd["byes"])))
        await interaction.followup.send(clip("\n".join(lines), 2000), ephemeral=True, allowed_mentions=NO_PINGS)

    @add.autocomplete("name")
    @drop.autocomplete("name")
    @replace.autocomplete("name")
    @start.autocomplete("name")
    @cancel.autocomplete("name")
    @next_season.autocomplete("name")
    @standings.autocomplete("name")
    @status.autocomplete("name")
    async def _names(self, interaction: discord.Interaction, current: str):
        rows = await self.services.store.leagues(interaction.guild_id) if interaction.guild_id else []
        return [
            app_commands.Choice(name=clip(r.name, 100), value=r.name) for r in rows if current.lower() in r.name.lower()
        ][:25]

    # ------------------------------------------------------------ standings
    async def standings_post(self, table: Standings, locale: str) -> tuple[str, bytes]:
        row = table.league
        names = {}
        for r in table.rows:
            names[r.user_id] = plain(await self.boards.name_of(row.guild_id, r.user_id) or str(r.user_id))
        heads = [
            t(f"league.col.{c}", locale)
            for c in ("rank", "player", "points", *table.tie_breaks, "played", "wins", "rating", "change")
        ]
        blocks = []
        for d in table.divisions:
            rows = [
                ImageRow(
                    r.rank,
                    names[r.user_id],
                    r.points,
                    [getattr(r, k) for k in table.tie_breaks],
                    r.played,
                    r.wins,
                    r.rating_now,
                    r.rating_change,
                    r.dropped,
                )  # fmt: skip
                for r in table.division(d)
            ]
            head = t("league.division", locale, n=d) if len(table.divisions) > 1 else ""
            blocks.append((head, rows))
        title = f"{plain(row.name, 60)} · {game_name(row.game, locale)}"
        sub = t(
            "league.subtitle",
            locale,
            round=table.round,
            rounds=table.rounds or "?",
            format=t(f"league.format.{row.format}", locale),
        )
        png = await self.services.tables.off_loop(draw_standings, title, sub, heads, blocks, t("league.more", locale))
        lines = [t("league.standings_head", locale, name=safe(row.name), round=table.round, rounds=table.rounds or "?")]
        for d in table.divisions:
            if len(table.divisions) > 1:
                lines.append(f"**{t('league.division', locale, n=d)}**")
            for r in table.division(d)[:20]:
                lines.append(
                    t(
                        "league.standings_row",
                        locale,
                        rank=r.rank,
                        user=f"<@{r.user_id}>",
                        points=f"{r.points:g}",
                        change=f"{r.rating_change:+.1f}",
                    )
                )
        return "\n".join(lines), png

    # ------------------------------------------------------------ the pass
    async def tick(self, now: float) -> dict[str, int]:
        counts = {"leagues": 0, "failed": 0}
        for row in await self.services.store.leagues(statuses=["signup", "running"]):
            try:
                await self.run(row.id, now)
                counts["leagues"] += 1
            except Exception:  # one league's trouble (a deleted channel) must not stop the others
                counts["failed"] += 1
                log.exception("league %s: pass failed", row.id)
        return counts

    async def run(self, league_id: int, now: float) -> None:
        for ev in await self.leagues.advance(league_id, now):
            await self.announce(ev)
        if await self.open_tables(league_id):
            for ev in await self.leagues.advance(league_id, now):
                await self.announce(ev)

    async def channel(self, channel_id: int | None):
        if channel_id is None:
            return None
        got = self.bot.get_channel(channel_id)
        if got is None:
            try:
                got = await self.bot.fetch_channel(channel_id)
            except discord.HTTPException:
                return None
        return got

    @staticmethod
    def forum_tags(forum) -> dict[str, Any]:
        tags = {}
        for tag in getattr(forum, "available_tags", []) or []:
            key = tag.name.strip().lower()
            if key in TAGS:
                tags[key] = tag
        return tags

    async def tag(self, channel, which: str) -> None:
        """Set a forum post's league tag (Waiting, Active, Finished), keeping its other tags."""
        parent = getattr(channel, "parent", None)
        if not isinstance(channel, discord.Thread) or not isinstance(parent, discord.ForumChannel):
            return
        tags = self.forum_tags(parent)
        if which not in tags:
            return
        keep = [tg for tg in channel.applied_tags if tg.name.strip().lower() not in TAGS]
        try:
            await channel.edit(applied_tags=[*keep, tags[which]][:5])
        except discord.HTTPException:
            log.info("thread %s: tag %s not set", channel.id, which)

    async def open_tables(self, league_id: int) -> int:
        """Open every table of the round not opened yet (each claimed once across processes)."""
        row = await self.leagues.get(league_id)
        opened = 0
        locale = await self.public_locale(row.guild_id)
        for n, k, tb in self.leagues.unopened(row):
            if not await self.leagues.claim_open(league_id, n, k):
                continue
            title = clip(t("league.thread", locale, name=plain(row.name, 60), round=n, table=k + 1), 100)
            deadline = float(row.state["rounds"][n - 1]["deadline"])
            ping = t(
                "league.table_ping",
                locale,
                users=" ".join(f"<@{u}>" for u in tb["seats"]),
                name=safe(row.name),
                round=n,
                deadline=stamp(deadline),
            )
            thread = await self.make_thread(row, title, ping, tb["seats"])
            if thread is None:
                continue  # the claim's lease runs out and a later pass tries again
            try:
                result = await self.leagues.open_table(
                    league_id, n, k, thread.id, locale=locale, seed=secrets.randbits(48)
                )
            except TurnRefused as exc:
                log.warning("league %s: table %s of round %s not opened: %s", league_id, k, n, exc.code)
                continue
            if result is None:
                continue
            opened += 1
            await self.boards.post_to(thread, result, locale)
            await self.boards.push_private(result, start=True)
            await self.tag(thread, "active" if result.row.status == "active" else "finished")
        return opened

    async def make_thread(self, row: LeagueRow, title: str, ping: str, users) -> Any:
        forum = await self.channel(row.config.get("forum_id"))
        try:
            if isinstance(forum, discord.ForumChannel):
                tags = self.forum_tags(forum)
                made = await forum.create_thread(
                    name=title,
                    content=clip(ping, 2000),
                    applied_tags=[tags["waiting"]] if "waiting" in tags else [],
                    allowed_mentions=pings(users),
                )
                return made.thread
            channel = await self.channel(row.channel_id)
            if not isinstance(channel, discord.TextChannel):
                log.warning("league %s: channel %s is gone", row.id, row.channel_id)
                return None
            thread = await channel.create_thread(name=title, type=discord.ChannelType.public_thread)
            await thread.send(clip(ping, 2000), allowed_mentions=pings(users))
            return thread
        except discord.HTTPException as exc:
            log.warning("league %s: no thread for a table (%s)", row.id, exc)
            return None

    async def announce(self, ev: RoundEvent) -> None:
        row = ev.league
        locale = await self.public_locale(row.guild_id)
        channel = await self.channel(row.channel_id)
        if ev.kind == "round_started" and channel is not None:
            lines = [
                t(
                    "league.round_started",
                    locale,
                    name=safe(row.name),
                    round=ev.round,
                    rounds=row.config.get("rounds") or "?",
                    deadline=stamp(float(row.state["rounds"][ev.round - 1]["deadline"])),
                )
            ]
            for k, tb in enumerate(ev.tables):
                lines.append(f"{k + 1}. " + t("league.versus_sep", locale).join(f"<@{u}>" for u in tb["seats"]))
            if ev.byes:
                lines.append(t("league.byes", locale, users=", ".join(f"<@{u}>" for u in ev.byes)))
            await channel.send(clip("\n".join(lines), 2000), allowed_mentions=NO_PINGS)
        elif ev.kind == "table_ended":
            for tb in ev.tables:
                await self.tag(await self.channel(tb.get("channel_id")), "finished")
        elif ev.kind == "deadline":
            for result in ev.results:
                where = await self.channel(result.row.channel_id)
                if where is None:
                    continue
                try:
                    await self.boards.retire_table(result.row, look_back=15)
                    await self.boards.post_to(where, result, locale, note=t("league.decided_note", locale))
                except discord.HTTPException:
                    log.info("league %s: final board of table %s not posted", row.id, result.row.id)
            if channel is not None:
                absent = ", ".join(f"<@{u}>" for u in ev.absent) or t("league.nobody", locale)
                await channel.send(
                    t(
                        "league.deadline",
                        locale,
                        name=safe(row.name),
                        round=ev.round,
                        tables=len(ev.results),
                        absent=absent,
                    ),
                    allowed_mentions=NO_PINGS,
                )
        elif ev.kind == "season_ended":
            await self.season_end(row, channel, locale)
            await self.leagues.season_posted(row.id)
        elif ev.kind == "cancelled" and channel is not None:
            await channel.send(t("league.cancelled_few", locale, name=safe(row.name)), allowed_mentions=NO_PINGS)

    async def season_end(self, row: LeagueRow, channel, locale: str) -> None:
        table = await self.leagues.standings(row.id)
        podium = row.state.get("podium", {})
        lines = [t("league.season_ended", locale, name=safe(row.name))]
        medals = ("🥇", "🥈", "🥉")
        for d in table.divisions:
            if len(table.divisions) > 1:
                lines.append(f"**{t('league.division', locale, n=d)}**")
            lines += [f"{medals[i]} <@{u}>" for i, u in enumerate(podium.get(str(d), [])[:3])]
        note = await self.rank_roles(row, table, locale) if row.config.get("roles") else None
        if note:
            lines.append(note)
        text, png = await self.standings_post(table, locale)
        if channel is not None:
            winners = [u for us in podium.values() for u in us[:3]]
            await channel.send(
                clip("\n".join(lines), 2000),
                file=discord.File(io.BytesIO(png), filename="standings.png"),
                allowed_mentions=pings(winners),
            )

    async def rank_roles(self, row: LeagueRow, table: Standings, locale: str) -> str | None:
        """A role per division (``<league> · D<n>``) for its members; needs Manage Roles,
        skipped with a note without it (or when Discord refuses)."""
        guild = self.bot.get_guild(row.guild_id)
        me = guild.me if guild is not None else None
        if guild is None or me is None or not me.guild_permissions.manage_roles:
            return t("league.roles_skipped", locale)
        try:
            for d in table.divisions:
                label = clip(t("league.role_name", locale, name=row.name, n=d), 100)
                role = discord.utils.get(guild.roles, name=label)
                # no permissions field: the role grants nothing (discord.py would send "0" as a string)
                role_id = (
                    role.id
                    if role is not None
                    else int((await self.bot.http.create_role(guild.id, reason="league rank role", name=label))["id"])
                )
                for r in table.division(d):
                    if r.dropped:
                        continue
                    await self.bot.http.add_role(guild.id, r.user_id, role_id, reason="league rank role")
        except discord.HTTPException as exc:
            log.info("league %s: rank roles not given (%s)", row.id, exc)
            return t("league.roles_skipped", locale)
        return t("league.roles_given", locale, n=len(table.divisions))


__all__ = ["HOUR", "League"]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(League(bot, cast(Any, bot).services))

"""``/league``: seasons the bot runs itself (tables/leagues/rounds.py does the work).

Thin: commands and the sign-up buttons call :class:`tables.leagues.rounds.LeagueService`
and post what it says; the scheduler pass (``tick``, every minute) and the posts it
makes are in cogs/league/rounds.py.  Every refusal is private and localised (the
one error hook, cogs/present/errors.py); league names and member names are escaped
before they are shown.
"""

from __future__ import annotations

import logging
from typing import Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from cogs.kit.bound import elsewhere, tell
from cogs.kit.components import LeagueClicks, routes_of
from cogs.kit.inputs import check_game, echo, game_choices, parse_options, parse_points
from cogs.kit.locale import locale_of, ls
from cogs.kit.services import Services
from cogs.league.rounds import NO_PINGS, Rounds, safe, stamp
from cogs.present.board_posts import Boards
from cogs.present.periodic import Periodic
from cogs.present.ui import clip, image_file
from engine.i18n import t
from store import LeagueRow
from tables import LeagueService, TurnRefused, clocks, escape

log = logging.getLogger("tabletop.league")
GAME_CHOICES = game_choices()
FORMAT_CHOICES = [
    app_commands.Choice(name=ls(f, f"league.format.{f}"), value=f) for f in ("swiss", "round_robin", "pods", "series")
]
CLOCK_CHOICES = [
    app_commands.Choice(name=ls(name, f"asyncplay.profile.{name}"), value=name) for name in clocks.PROFILES
]


def is_admin(interaction: discord.Interaction, league: LeagueRow | None = None) -> bool:
    perms = getattr(interaction, "permissions", None)
    return bool(perms and perms.manage_guild) or (league is not None and league.created_by == interaction.user.id)


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
        self.rounds = Rounds(bot, services, self.boards)

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
        # bound like a table's components: only on the league's own server and channel
        # (a payload replayed from another server or a DM signs nobody up, drops nobody)
        if elsewhere(interaction, await self.leagues.get(lid)):
            return await tell(interaction, "league.elsewhere")
        await interaction.response.defer(ephemeral=True, thinking=True)
        if op == "join":
            row = await self.leagues.signup(lid, interaction.user.id)
            key = "league.signed_up" if row.status == "signup" else "league.signed_up_late"
            n = int(row.state.get("round", 0)) + 1
        else:
            row, _ = await self.leagues.withdraw(lid, interaction.user.id)
            key, n = "league.left", 0
        await interaction.followup.send(t(key, locale, name=escape(row.name, 60), round=n), ephemeral=True)
        await self.rounds.refresh_signup(lid)

    async def public_locale(self, guild_id: int | None) -> str:
        return await self.rounds.public_locale(guild_id)

    async def tick(self, now: float) -> dict[str, int]:
        """One pass over every running league (the scheduler's, or a test's clock)."""
        return await self.rounds.tick(now)

    async def _league(self, interaction: discord.Interaction, name: str, *, admin: bool = False) -> LeagueRow:
        """The named league of this server (else refused: no such league, or not its admin)."""
        try:
            row = await self.leagues.named(cast(int, interaction.guild_id), name)
        except TurnRefused as exc:  # said with the name as the member typed it
            raise TurnRefused("no_league", "league.no_league", name=echo(name)) from exc
        if admin and not is_admin(interaction, row):
            raise TurnRefused("admin_only", "league.admin_only")
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
            camp = await self.services.tables.create_campaign(
                guild_id=cast(int, interaction.guild_id),
                game_id=game,
                name=name.strip()[:60],
                points=table,
                created_by=interaction.user.id,
                story=opts,
            )
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
        await self.rounds.post_signup(row, await self.rounds.channel(row.channel_id), plocale)

    async def _admin_member(self, interaction: discord.Interaction, name: str, op, done_key: str, **extra) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        row = await self._league(interaction, name, admin=True)
        await op(row)
        await interaction.followup.send(t(done_key, locale, name=safe(row.name), **extra), ephemeral=True)
        await self.rounds.refresh_signup(row.id)

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
        await self.leagues.start(row.id)
        await interaction.followup.send(t("league.started", locale, name=safe(row.name)), ephemeral=True)
        await self.rounds.run(row.id, self.services.clock())

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
        new = await self.leagues.next_season(row.id, new_name, interaction.user.id)
        await interaction.followup.send(t("league.created", locale, name=safe(new.name)), ephemeral=True)
        await self.rounds.post_signup(
            new, await self.rounds.channel(new.channel_id), await self.public_locale(interaction.guild_id)
        )

    @league.command(
        name=ls("standings", "league.cmd.standings"),
        description=ls("A league's standings", "league.cmd.standings.desc"),
    )
    @app_commands.describe(name=ls("The league's name", "league.arg.name"))
    async def standings(self, interaction: discord.Interaction, name: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        row = await self._league(interaction, name)
        table = await self.leagues.standings(row.id)
        # a public post: in the server's language, not the caller's (docs/rulings.md, "Public language")
        text, png, alt = await self.rounds.standings_post(table, await self.public_locale(interaction.guild_id))
        await interaction.followup.send(t("core.done.posted", locale), ephemeral=True)
        await interaction.followup.send(
            clip(text, 2000),
            file=image_file(png, "standings.png", alt),
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
                players = self.rounds.members(tb["seats"], locale)
                state = t(f"league.table.{tb.get('status', 'pending')}", locale)
                lines.append(f"{k + 1}. {players} · {where} · {state}")
            if rnd.get("byes"):
                lines.append(t("league.byes", locale, users=self.rounds.members(rnd["byes"], locale)))
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
        rows = await self.leagues.of_guild(interaction.guild_id)
        return [
            app_commands.Choice(name=clip(r.name, 100), value=r.name) for r in rows if current.lower() in r.name.lower()
        ][:25]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(League(bot, cast(Any, bot).services))

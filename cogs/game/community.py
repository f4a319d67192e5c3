"""What makes a server want to host tables: stats, leaderboards and campaigns
(server settings and each member's preferences are in cogs/game/settings.py)."""

from __future__ import annotations

import asyncio
import logging

import discord
from discord import app_commands
from discord.ext import commands

from cogs.kit.bound import guild_id
from cogs.kit.inputs import check_game, echo, game_choices, parse_options, parse_points
from cogs.kit.locale import locale_of, ls
from cogs.kit.services import Services, services_of
from cogs.present.clockview import rating_text
from cogs.present.ui import clip, game_name, image_file
from engine import available, get_game
from engine.i18n import t
from render.leaderboard import draw as draw_leaderboard
from store import RatingRow, StatRow
from tables import describe_table, escape, plain, rank, rank_by_rating, ratings, record_value

log = logging.getLogger("tabletop.community")
GAME_CHOICES = game_choices()  # at load time: see game_choices()


def rating_cell(row: RatingRow | None) -> str:
    """A rating for the drawn tables: the cautious estimate and its uncertainty."""
    if row is None:
        return "-"
    return f"{ratings.conservative(row.mu, row.sigma):.1f} ±{row.sigma:.1f}"


class Community(commands.Cog):
    stats_group = app_commands.Group(
        name=ls("stats", "discord.cmd.stats"),
        description=ls("Games played and won", "discord.cmd.stats.desc"),
        guild_only=True,
    )
    campaign_group = app_commands.Group(
        name=ls("campaign", "discord.cmd.campaign"),
        description=ls("A series of tables with a points table", "discord.cmd.campaign.desc"),
        guild_only=True,
    )

    def __init__(self, bot: commands.Bot, services: Services) -> None:
        self.bot = bot
        self.services = services
        self.tables = services.tables

    def loc(self, interaction: discord.Interaction) -> str:
        return locale_of(interaction, self.services.default_locale)

    async def public_loc(self, interaction: discord.Interaction) -> str:
        """A public post's language: the server's, never the caller's (docs/rulings.md, "Public language")."""
        return await self.services.settings.public_language(interaction.guild_id, self.services.default_locale)

    async def name_of(self, guild: discord.Guild | None, user_id: int) -> str:
        member = guild.get_member(user_id) if guild else None
        if member is None and guild is not None:
            try:
                member = await guild.fetch_member(user_id)
            except discord.HTTPException:
                member = None
        return plain(member.display_name) if member else f"#{user_id}"

    # ------------------------------------------------------------ stats
    def _stat_lines(self, rows: list[StatRow], locale: str) -> str:
        lines = []
        for r in rows:
            g = get_game(r.game)
            line = t(
                "core.stats.line",
                locale,
                game=game_name(r.game, locale),
                played=r.played,
                wins=r.wins,
                rate=f"{100 * r.wins / r.played:.0f}",
            )
            best = r.best_low if g.record_lower_is_better else r.best_high
            if g.record_key and best is not None:
                line += " · " + t(g.record_key, locale, value=f"{best:g}")
            lines.append(line)
        return "\n".join(lines) or t("core.stats.none", locale)

    @stats_group.command(
        name=ls("me", "discord.cmd.stats.me"), description=ls("Your games in this server", "discord.cmd.stats.me.desc")
    )
    async def stats_me(self, interaction: discord.Interaction) -> None:
        await self._user_stats(interaction, interaction.user)

    @stats_group.command(
        name=ls("user", "discord.cmd.stats.user"),
        description=ls("A member's games in this server", "discord.cmd.stats.user.desc"),
    )
    @app_commands.describe(member=ls("Whose stats", "discord.arg.member"))
    async def stats_user(self, interaction: discord.Interaction, member: discord.Member) -> None:
        await self._user_stats(interaction, member)

    async def _user_stats(self, interaction: discord.Interaction, user: discord.abc.User) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        rows = await self.tables.stats(guild_id(interaction), user_id=user.id)
        rated = {r.game: r for r in await self.tables.ratings(guild_id(interaction), user_ids=[user.id])}
        title = t("core.stats.title_user", locale, user=escape(user.display_name))
        desc = self._stat_lines(rows, locale)
        if rows:
            desc += "\n" + "\n".join(
                f"{game_name(r.game, locale)}: {rating_text(rated.get(r.game), locale)}" for r in rows
            )
        embed = discord.Embed(title=title, description=clip(desc, 4096), colour=0x9B59B6)
        if not rows:
            return await interaction.followup.send(embed=embed, ephemeral=True)
        headers = [
            t("core.board.game", locale),
            t("core.board.played", locale),
            t("core.board.wins", locale),
            t("core.board.rate", locale),
            t("core.board.rating", locale),
            t("core.board.record", locale),
        ]
        table = []
        for r in rows:
            g = get_game(r.game)
            best = r.best_low if g.record_lower_is_better else r.best_high
            table.append(
                [
                    clip(game_name(r.game, locale), 16),
                    str(r.played),
                    str(r.wins),
                    f"{100 * r.wins / r.played:.0f}%",
                    rating_cell(rated.get(r.game)),
                    f"{best:g}" if g.record_key and best is not None else "-",
                ]
            )
        png = await self._draw(title, headers, table, [230, 90, 80, 90, 90, 110])
        embed.set_image(url="attachment://stats.png")
        said = t("core.stats.title_user", locale, user=plain(user.display_name) or "?")  # read aloud: no markdown
        alt = describe_table(said, headers, table, locale)
        await interaction.followup.send(embed=embed, file=image_file(png, "stats.png", alt), ephemeral=True)

    async def _draw(self, title: str, headers: list[str], rows: list[list[str]], widths: list[int]) -> bytes:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.services.executor, draw_leaderboard, title, headers, rows, widths)

    @stats_group.command(
        name=ls("server", "discord.cmd.stats.server"),
        description=ls("This server's games", "discord.cmd.stats.server.desc"),
    )
    async def stats_server(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        rows = await self.tables.stats(guild_id(interaction))
        lines, table = [], []
        for gid in available():
            mine = [r for r in rows if r.game == gid]
            if not mine:
                continue
            best = rank(mine)[0]
            lines.append(
                t(
                    "core.stats.server_line",
                    locale,
                    game=game_name(gid, locale),
                    players=len(mine),
                    results=sum(r.played for r in mine),
                    best=f"<@{best.user_id}>",
                )
            )
            table.append(
                [
                    clip(game_name(gid, locale), 16),
                    str(len(mine)),
                    str(sum(r.played for r in mine)),
                    clip(await self.name_of(interaction.guild, best.user_id), 16),
                ]
            )
        title = t("core.stats.title_server", locale)
        embed = discord.Embed(
            title=title, description="\n".join(lines) or t("core.stats.none", locale), colour=0x9B59B6
        )
        if not table:
            return await interaction.followup.send(embed=embed, ephemeral=True)
        headers = [
            t("core.board.game", locale),
            t("core.board.players", locale),
            t("core.board.results", locale),
            t("core.board.top", locale),
        ]
        png = await self._draw(title, headers, table, [260, 110, 110, 220])
        embed.set_image(url="attachment://stats.png")
        alt = describe_table(title, headers, table, locale)
        await interaction.followup.send(embed=embed, file=image_file(png, "stats.png", alt), ephemeral=True)

    @app_commands.command(
        name=ls("leaderboard", "discord.cmd.leaderboard"),
        description=ls("The best players of a game in this server", "discord.cmd.leaderboard.desc"),
    )
    @app_commands.describe(game=ls("Which game", "discord.arg.game"))
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        locale = self.loc(interaction)
        game = check_game(game)
        g = get_game(game)
        rated = {r.user_id: r for r in await self.tables.ratings(guild_id(interaction), game)}
        rows = rank_by_rating(await self.tables.stats(guild_id(interaction), game=game), rated)[:10]
        if not rows:  # nothing to show: a short private reply, not an empty picture for everyone
            await interaction.response.send_message(t("discord.leaderboard.empty", locale), ephemeral=True)
            return
        await interaction.response.defer(thinking=True)
        locale = await self.public_loc(interaction)  # the leaderboard is posted for everyone
        names = [await self.name_of(interaction.guild, r.user_id) for r in rows]
        headers = [
            t("core.board.rank", locale),
            t("core.board.player", locale),
            t("core.board.played", locale),
            t("core.board.wins", locale),
            t("core.board.rating", locale),
        ]
        widths = [60, 260, 90, 80, 110]
        if g.record_key:
            headers.append(t(g.record_key + ".short", locale))
            widths.append(160)
        table = []
        for i, (r, name) in enumerate(zip(rows, names)):
            line = [
                f"{i + 1}",
                clip(name, 18),
                str(r.played),
                str(r.wins),
                rating_cell(rated.get(r.user_id)),
            ]
            if g.record_key:
                best = r.best_low if g.record_lower_is_better else r.best_high
                line.append(record_value(game, best, locale))
            table.append(line)
        title = t("core.board.title", locale, game=game_name(game, locale))
        png = await self._draw(title, headers, table, widths)
        embed = discord.Embed(
            title=title,
            description=t("asyncplay.board_explain", locale) if rows else t("core.stats.none", locale),
            colour=0xF1C40F,
        )
        embed.set_image(url="attachment://leaderboard.png")
        alt = describe_table(title, headers, table, locale)
        await interaction.followup.send(embed=embed, file=image_file(png, "leaderboard.png", alt))

    # --------------------------------------------------------- campaigns
    @campaign_group.command(
        name=ls("new", "discord.cmd.campaign.new"), description=ls("Start a campaign", "discord.cmd.campaign.new.desc")
    )
    @app_commands.describe(
        game=ls("Which game", "discord.arg.game"),
        name=ls("The campaign's name", "discord.arg.name"),
        points=ls("Points per place, e.g. 10,6,3,1", "discord.arg.points"),
        story=ls("Story-mode options as key=value (Armor Clash: mode=simple ...)", "discord.arg.story"),
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def campaign_new(
        self,
        interaction: discord.Interaction,
        game: str,
        name: str,
        points: str | None = None,
        story: str | None = None,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        name = name.strip()[:60]
        game = check_game(game)
        try:
            table = parse_points(points)
        except ValueError:
            return await interaction.followup.send(t("core.campaign.bad_points", locale), ephemeral=True)
        if not name:
            return await interaction.followup.send(t("core.campaign.bad_name", locale), ephemeral=True)
        camp = await self.services.tables.create_campaign(
            guild_id=guild_id(interaction),
            game_id=game,
            name=name,
            points=table,
            created_by=interaction.user.id,
            story=parse_options(story),
        )
        await interaction.followup.send(t("core.done.campaign", locale), ephemeral=True)
        locale = await self.public_loc(interaction)  # the announcement is public
        await interaction.followup.send(
            t(
                "core.campaign.created",
                locale,
                name=escape(camp.name, 60),
                game=game_name(game, locale),
                points=", ".join(map(str, table)),
                user=interaction.user.mention,
            ),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def standings(self, campaign_id: int) -> list[tuple[int, int, int, int]]:
        """(user, points, tables, wins), best first."""
        return await self.tables.campaign_standings(campaign_id)

    @campaign_group.command(
        name=ls("standings", "discord.cmd.campaign.standings"),
        description=ls("A campaign's points table", "discord.cmd.campaign.standings.desc"),
    )
    @app_commands.describe(name=ls("The campaign's name", "discord.arg.name"))
    async def campaign_standings(self, interaction: discord.Interaction, name: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        camp = await self.tables.campaign(guild_id(interaction), name)
        if camp is None:
            return await interaction.followup.send(t("core.ui.no_campaign", locale, name=echo(name)), ephemeral=True)
        await interaction.followup.send(t("core.done.posted", locale), ephemeral=True)
        locale = await self.public_loc(interaction)  # the standings are posted for everyone
        rows = await self.standings(camp.id)
        lines = [
            t("core.campaign.row", locale, rank=i + 1, user=f"<@{u}>", points=p, tables=n, wins=w)
            for i, (u, p, n, w) in enumerate(rows)
        ]
        embed = discord.Embed(
            title=t("core.campaign.title", locale, name=escape(camp.name, 60), game=game_name(camp.game, locale)),
            description="\n".join(lines) or t("core.stats.none", locale),
            colour=0xE67E22,
        )
        embed.set_footer(text=t("core.campaign.points", locale, points=", ".join(map(str, camp.points))))
        summary = get_game(camp.game).campaign_summary((camp.progress or {}).get("story"))
        if summary is not None:
            embed.add_field(name=t("core.campaign.story", locale), value=clip(summary.text(locale), 1024), inline=False)
        await interaction.followup.send(embed=embed, allowed_mentions=discord.AllowedMentions.none())

    @campaign_standings.autocomplete("name")
    async def _campaign_names(self, interaction: discord.Interaction, current: str):
        camps = await self.tables.server_campaigns(interaction.guild_id)
        return [
            app_commands.Choice(name=plain(c.name, 100) or "?", value=c.name)
            for c in camps
            if current.lower() in c.name.lower()
        ][:25]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Community(bot, services_of(bot)))

"""A league's scheduler pass and what it posts (cogs/league/commands.py holds the commands).

Every minute (also driven by tests with their own clock) each league is advanced
(tables/leagues/rounds.py): a round is paired, each table opened in its own thread (a
forum post with Waiting/Active/Finished tags when the league has a forum), the
players pinged, the tables still running at the deadline decided, and the
season's end posted with the podium (and rank roles per division when asked for
and the bot may manage roles).
"""

from __future__ import annotations

import logging
import secrets
from typing import Any

import discord
from discord.ext import commands

from cogs.kit.components import LeagueButton
from cogs.kit.services import Services
from cogs.present.board_posts import Boards
from cogs.present.ui import clip, game_name, image_file
from engine.i18n import t
from render.league import Row as ImageRow
from render.league import draw as draw_standings
from store import LeagueRow
from tables import LeagueService, RoundEvent, Standings, TurnRefused, describe_table, escape, plain

log = logging.getLogger("tabletop.league")
TAGS = ("waiting", "active", "finished")
NO_PINGS = discord.AllowedMentions.none()


def safe(text: str) -> str:
    """A member-chosen text (a league's name) shown as written: no markdown, link or mention."""
    return escape(text, 60)


def pings(users) -> discord.AllowedMentions:
    """Mentions that notify exactly these members (never roles or everyone); a forgotten
    member's pseudonym (negative: never a Discord id) is never sent."""
    return discord.AllowedMentions(
        users=[discord.Object(int(u)) for u in users if int(u) > 0], roles=False, everyone=False, replied_user=False
    )


def stamp(ts: float) -> str:
    return f"<t:{int(ts)}:f> (<t:{int(ts)}:R>)"


def signup_view(row: LeagueRow, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(LeagueButton(row.id, "join", label=t("league.join", locale), style=discord.ButtonStyle.primary))
    view.add_item(LeagueButton(row.id, "leave", label=t("league.leave", locale)))
    return view


class Rounds:
    """The league pass and the league's public posts (signup, standings, rounds, season end)."""

    def __init__(self, bot: commands.Bot, services: Services, boards: Boards) -> None:
        self.bot = bot
        self.services = services
        self.leagues: LeagueService = services.leagues
        self.boards = boards

    async def public_locale(self, guild_id: int | None) -> str:
        return await self.services.settings.public_language(guild_id, self.services.default_locale)

    @staticmethod
    def member(uid: int, locale: str) -> str:
        """A member as a mention (never a ping: every post here sends NO_PINGS or lists
        its pings); a forgotten member's pseudonym (negative, never a Discord id) is never sent."""
        return f"<@{uid}>" if int(uid) > 0 else t("league.former_member", locale)

    def members(self, users, locale: str) -> str:
        return ", ".join(self.member(u, locale) for u in users)

    def signup_text(self, row: LeagueRow, locale: str) -> str:
        """The sign-up post: the league's settings and who has signed up (sign-up order)."""
        until = row.config.get("signup_until")
        players = row.state.get("players", {})
        signed = [u for u in row.state.get("roster", []) if (players.get(str(u)) or {}).get("dropped", 0) is None]
        shown = self.members(signed[:80], locale) + (f" +{len(signed) - 80}" if len(signed) > 80 else "")
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
        return clip(text + "\n" + t("league.signed_list", locale, n=len(signed), users=shown or "—"), 2000)

    async def post_signup(self, row: LeagueRow, channel, locale: str) -> None:
        if channel is None:
            return
        msg = await channel.send(
            self.signup_text(row, locale), view=signup_view(row, locale), allowed_mentions=NO_PINGS
        )
        await self.leagues.note_signup_post(row.id, msg.id)

    async def refresh_signup(self, league_id: int) -> None:
        """The sign-up post again, with who has signed up now (after a join, leave, add, drop)."""
        row = await self.leagues.get(league_id)
        post, channel = row.state.get("signup_post"), await self.channel(row.channel_id)
        if not post or channel is None or not hasattr(channel, "get_partial_message"):
            return
        try:
            text = self.signup_text(row, await self.public_locale(row.guild_id))
            await channel.get_partial_message(int(post)).edit(content=text, allowed_mentions=NO_PINGS)
        except discord.HTTPException:
            log.info("league %s: sign-up post not updated", row.id)

    # ------------------------------------------------------------ standings
    async def standings_post(self, table: Standings, locale: str) -> tuple[str, bytes, str]:
        """The standings as a post: its text, the image and the image's description (the same
        rows, in words)."""
        row = table.league
        names = {}
        for r in table.rows:
            known = await self.boards.name_of(row.guild_id, r.user_id) if r.user_id > 0 else None
            names[r.user_id] = plain(known or (str(r.user_id) if r.user_id > 0 else t("league.former_member", locale)))
        heads = [
            t(f"league.col.{c}", locale)
            for c in ("rank", "player", "points", *table.tie_breaks, "played", "wins", "absent", "rating", "change")
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
                    r.absent,
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
        cells = [
            [
                r.rank,
                r.name,
                f"{r.points:g}",
                *(f"{x:g}" for x in r.ties),
                r.played,
                r.wins,
                r.absent,
                f"{r.rating:.0f}",
                f"{r.change:+.0f}",
            ]
            for _, rows in blocks
            for r in rows
        ]
        alt = describe_table(f"{title}. {sub}", heads, cells, locale)
        lines = [t("league.standings_head", locale, name=safe(row.name), round=table.round, rounds=table.rounds or "?")]
        for d in table.divisions:
            if len(table.divisions) > 1:
                lines.append(f"**{t('league.division', locale, n=d)}**")
            for r in table.division(d)[:20]:
                lines.append(
                    t(
                        "league.standings_row_absent" if r.absent else "league.standings_row",
                        locale,
                        rank=r.rank,
                        user=self.member(r.user_id, locale),
                        points=f"{r.points:g}",
                        change=f"{r.rating_change:+.1f}",
                        n=r.absent,
                    )
                )
        return "\n".join(lines), png, alt

    # ------------------------------------------------------------ the pass
    async def tick(self, now: float) -> dict[str, int]:
        counts = {"leagues": 0, "failed": 0}
        for row in await self.services.leagues.active():
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
                users=" ".join(self.member(u, locale) for u in tb["seats"]),
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
        except discord.HTTPException as exc:
            log.warning("league %s: no thread for a table (%s)", row.id, exc)
            return None
        try:  # the thread exists: the table opens in it even when its ping fails (never a second thread)
            await thread.send(clip(ping, 2000), allowed_mentions=pings(users))
        except discord.HTTPException as exc:
            log.warning("league %s: the players of a table were not pinged (%s)", row.id, exc)
        return thread

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
                lines.append(
                    f"{k + 1}. " + t("league.versus_sep", locale).join(self.member(u, locale) for u in tb["seats"])
                )
            if ev.byes:
                lines.append(t("league.byes", locale, users=self.members(ev.byes, locale)))
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
            for f in ev.forfeits:
                await self.forfeit_note(f, locale)
            if channel is not None:
                absent = self.members(ev.absent, locale) or t("league.nobody", locale)
                await channel.send(
                    t(
                        "league.deadline",
                        locale,
                        name=safe(row.name),
                        round=ev.round,
                        tables=len(ev.results) + len(ev.forfeits),
                        absent=absent,
                    ),
                    allowed_mentions=NO_PINGS,
                )
        elif ev.kind == "season_ended":
            await self.season_end(row, channel, locale)
            await self.leagues.season_posted(row.id)
        elif ev.kind == "cancelled" and channel is not None:
            await channel.send(t("league.cancelled_few", locale, name=safe(row.name)), allowed_mentions=NO_PINGS)

    async def forfeit_note(self, f: dict[str, Any], locale: str) -> None:
        """A table ended by forfeit at the deadline: its buttons go, its thread says why."""
        game_row = f["row"]
        where = await self.channel(game_row.channel_id)
        if where is None:
            return
        who = self.members(f["absent"], locale)
        if f["winners"]:
            text = t(
                "league.forfeit_note",
                locale,
                absent=who,
                winner=self.members(f["winners"], locale),
            )
        else:
            text = t("league.double_forfeit_note", locale, absent=who)
        try:
            await self.boards.retire_table(game_row, look_back=15)
            await where.send(clip(text, 2000), allowed_mentions=NO_PINGS)
        except discord.HTTPException:
            log.info("table %s: the forfeit at the deadline not posted", game_row.id)

    async def season_end(self, row: LeagueRow, channel, locale: str) -> None:
        table = await self.leagues.standings(row.id)
        podium = row.state.get("podium", {})
        lines = [t("league.season_ended", locale, name=safe(row.name))]
        medals = ("🥇", "🥈", "🥉")
        for d in table.divisions:
            if len(table.divisions) > 1:
                lines.append(f"**{t('league.division', locale, n=d)}**")
            lines += [f"{medals[i]} {self.member(u, locale)}" for i, u in enumerate(podium.get(str(d), [])[:3])]
        note = await self.rank_roles(row, table, locale) if row.config.get("roles") else None
        if note:
            lines.append(note)
        text, png, alt = await self.standings_post(table, locale)
        if channel is not None:
            winners = [u for us in podium.values() for u in us[:3]]
            await channel.send(
                clip("\n".join(lines), 2000),
                file=image_file(png, "standings.png", alt),
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

"""Server settings (``/settings``: admins), each member's reminder preferences and
vacations (``/remind``), and what the bot keeps about a member (``/privacy``).
Refusals are raised, and answered by the one error hook (cogs/present/errors.py)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.kit.bound import guild_id
from cogs.kit.inputs import check_choice, check_game, echo, game_choices, options_error, parse_options
from cogs.kit.locale import locale_of, ls, say
from cogs.kit.services import Services, services_of
from cogs.present.ui import clip
from engine import GameError, get_game
from engine.i18n import t
from engine.locales import CODES, language
from tables import TurnRefused, clocks, limits, offset_zone, zone_names

log = logging.getLogger("tabletop.settings")
GAME_CHOICES = game_choices()  # at load time: see game_choices()
LANGUAGES = (*CODES, "user")  # the choices of /settings language: each language, or each player's own
#: the kinds /privacy show lists (store.PERSONAL_DATA names; any other kind counts as a record)
FOOTPRINT_LINES = ("results", "ratings", "tables", "actions", "hosted", "votes", "campaigns", "follows", "records")
#: English help of each /settings limits option (localised under asyncplay.arg.<key>)
LIMIT_HELP = {
    "lobbies_member": "Lobbies one member may host at once (0 = no limit)",
    "lobbies_server": "Lobbies the server may have at once (0 = no limit)",
    "threads_member": "Table threads one member may open per hour (0 = no limit)",
    "threads_server": "Table threads the server may open per hour (0 = no limit)",
    "campaigns_member": "Open campaigns one member may run (0 = no limit)",
    "campaigns_server": "Open campaigns the server may have (0 = no limit)",
    "leagues_member": "Leagues one member may run at once (0 = no limit)",
    "leagues_server": "Leagues the server may run at once (0 = no limit)",
    "lobby_idle_hours": "Hours before an idle lobby expires (0 = never)",
}


async def zone_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """IANA time zones matching what the member typed."""
    return [app_commands.Choice(name=z, value=z) for z in zone_names(current)]


class Settings(commands.Cog):
    settings_group = app_commands.Group(
        name=ls("settings", "discord.cmd.settings"),
        description=ls("Server settings for the game master", "discord.cmd.settings.desc"),
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )
    remind_group = app_commands.Group(
        name=ls("remind", "discord.cmd.remind"),
        description=ls("Your turn-reminder preferences", "discord.cmd.remind.desc"),
    )
    privacy_group = app_commands.Group(
        name=ls("privacy", "asyncplay.cmd.privacy"),
        description=ls("What the bot keeps about you", "asyncplay.cmd.privacy.desc"),
    )

    def __init__(self, bot: commands.Bot, services: Services) -> None:
        self.bot = bot
        self.services = services

    def loc(self, interaction: discord.Interaction) -> str:
        return locale_of(interaction, self.services.default_locale)

    # ---------------------------------------------------------- settings
    async def _admin(self, interaction: discord.Interaction) -> bool:
        perms = getattr(interaction.user, "guild_permissions", None)
        if perms and perms.manage_guild:
            return True
        await interaction.response.send_message(t("core.settings.admin_only", self.loc(interaction)), ephemeral=True)
        return False

    async def _save(
        self,
        interaction: discord.Interaction,
        change: Callable[[dict[str, Any]], dict[str, Any]],
        reply: Callable[[dict[str, Any], str], str] | None = None,
    ) -> None:
        """Change some settings: every /settings subcommand that changes one goes through
        here, and so through the one locked update (tables/rules/settings.py update_guild, the
        store's update_guild_settings): ``change(settings)`` runs on the stored settings
        inside the write, the row locked, so another admin's change at the same moment is
        kept.  The admin is then shown ``reply(settings, locale)`` (by default every
        setting now in force)."""
        settings = await self.services.settings.update_guild(guild_id(interaction), change)
        locale = self.loc(interaction)
        text = (reply or self._describe)(settings, locale)
        await interaction.response.send_message(text, ephemeral=True)

    def _describe(self, s: dict[str, Any], locale: str) -> str:
        chans = " ".join(f"<#{c}>" for c in s.get("channels") or []) or t("core.settings.all_channels", locale)
        threads = ", ".join(g for g, on in (s.get("threads") or {}).items() if on) or "-"
        opts = (
            "; ".join(
                f"{g}: " + " ".join(f"{k}={v}" for k, v in o.items()) for g, o in (s.get("options") or {}).items() if o
            )
            or "-"
        )
        return (
            t(
                "core.settings.show",
                locale,
                channels=chans,
                threads=threads,
                language=s.get("language") or "-",
                reminder=s.get("reminder"),
                timer=s.get("turn_timer"),
                options=opts,
            )
            + "\n"
            + t(
                "asyncplay.clock_set",
                locale,
                profile=t(f"asyncplay.profile.{s.get('clock') or 'off'}", locale),
                policy=t(f"asyncplay.policy.{s.get('clock_policy') or 'ai'}", locale),
            )
            + "\n"
            + t("web.settings.on" if s.get("web", True) is not False else "web.settings.off", locale)
        )

    @settings_group.command(
        name=ls("show", "discord.cmd.settings.show"),
        description=ls("Show the server settings", "discord.cmd.settings.show.desc"),
    )
    async def settings_show(self, interaction: discord.Interaction) -> None:
        if await self._admin(interaction):
            s = await self.services.settings.server_settings(interaction.guild_id)
            await interaction.response.send_message(self._describe(s, self.loc(interaction)), ephemeral=True)

    @settings_group.command(
        name=ls("channel", "discord.cmd.settings.channel"),
        description=ls("Allow or disallow a channel for tables", "discord.cmd.settings.channel.desc"),
    )
    @app_commands.describe(
        channel=ls("The channel", "discord.arg.channel"), allowed=ls("Allow tables there", "discord.arg.allowed")
    )
    async def settings_channel(
        self, interaction: discord.Interaction, channel: discord.TextChannel, allowed: bool
    ) -> None:
        if await self._admin(interaction):

            def change(s: dict[str, Any]) -> dict[str, Any]:
                chans = [c for c in s.get("channels") or [] if c != channel.id] + ([channel.id] if allowed else [])
                return {**s, "channels": chans}

            await self._save(interaction, change)

    @settings_group.command(
        name=ls("threads", "discord.cmd.settings.threads"),
        description=ls("Whether new tables of a game open a thread", "discord.cmd.settings.threads.desc"),
    )
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.describe(
        game=ls("Which game", "discord.arg.game"),
        enabled=ls("Open a thread for each new table", "discord.arg.threads_enabled"),
    )
    async def settings_threads(self, interaction: discord.Interaction, game: str, enabled: bool) -> None:
        game = check_game(game)
        if await self._admin(interaction):
            await self._save(interaction, lambda s: {**s, "threads": {**(s.get("threads") or {}), game: enabled}})

    @settings_group.command(
        name=ls("language", "discord.cmd.settings.language"),
        description=ls("Language of public messages", "discord.cmd.settings.language.desc"),
    )
    @app_commands.choices(
        language=[
            *(app_commands.Choice(name=language(code).name, value=code) for code in CODES),
            app_commands.Choice(name=ls("Each player's own", "discord.choice.per_user"), value="user"),
        ]
    )
    @app_commands.describe(language=ls("The language of public messages", "discord.arg.language"))
    async def settings_language(self, interaction: discord.Interaction, language: str) -> None:
        language = check_choice(language, LANGUAGES)
        if await self._admin(interaction):
            await self._save(interaction, lambda s: {**s, "language": None if language == "user" else language})

    @settings_group.command(
        name=ls("web", "web.cmd.settings.web"),
        description=ls("Show this server's tables on the web companion", "web.cmd.settings.web.desc"),
    )
    @app_commands.describe(enabled=ls("Show them?", "web.arg.enabled"))
    async def settings_web(self, interaction: discord.Interaction, enabled: bool) -> None:
        if await self._admin(interaction):
            await self._save(interaction, lambda s: {**s, "web": bool(enabled)})

    @settings_group.command(
        name=ls("timers", "discord.cmd.settings.timers"),
        description=ls("Default reminder interval and turn timer (minutes)", "discord.cmd.settings.timers.desc"),
    )
    @app_commands.describe(
        reminder=ls("Minutes before a waiting player is pinged (0 = never)", "discord.arg.remind"),
        turn_timer=ls("Minutes before the AI plays for an absent player (0 = never)", "discord.arg.timer"),
    )
    async def settings_timers(
        self,
        interaction: discord.Interaction,
        reminder: app_commands.Range[int, 0, 10080],
        turn_timer: app_commands.Range[int, 0, 10080],
    ) -> None:
        if not await self._admin(interaction):
            return
        if not (0 <= reminder <= 10080 and 0 <= turn_timer <= 10080):
            await interaction.response.send_message(
                t("core.ui.bad_number", self.loc(interaction), lo=0, hi=10080), ephemeral=True
            )
            return
        await self._save(interaction, lambda s: {**s, "reminder": reminder, "turn_timer": turn_timer})

    @settings_group.command(
        name=ls("options", "discord.cmd.settings.options"),
        description=ls("Default house-rule options of a game", "discord.cmd.settings.options.desc"),
    )
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.describe(
        game=ls("Which game", "discord.arg.game"),
        options=ls("Options as key=value, e.g. hero=brawler", "discord.arg.options"),
    )
    async def settings_options(self, interaction: discord.Interaction, game: str, options: str | None = None) -> None:
        if not await self._admin(interaction):
            return
        locale = self.loc(interaction)
        parsed: dict[str, Any] = {}
        game = check_game(game)
        try:
            parsed = parse_options(options)
            get_game(game).parse_options(parsed)  # validate now, not when a table opens
        except GameError as exc:
            return await say(interaction, clip(options_error(game, parsed, exc, locale), 2000))
        await self._save(interaction, lambda s: {**s, "options": {**(s.get("options") or {}), game: parsed}})

    # ------------------------------------------------------- reminders
    @remind_group.command(
        name=ls("quiet", "discord.cmd.remind.quiet"),
        description=ls("Hours when you never want a reminder", "discord.cmd.remind.quiet.desc"),
    )
    @app_commands.describe(
        start=ls("From hour (0-23, your time)", "discord.arg.start"),
        end=ls("To hour (0-23, your time)", "discord.arg.end"),
        utc_offset=ls("Your offset from UTC in hours, e.g. 8 or -5", "discord.arg.utc_offset"),
        zone=ls("Your time zone, e.g. Europe/Berlin (follows daylight saving)", "notify.arg.zone"),
    )
    @app_commands.autocomplete(zone=zone_choices)
    async def remind_quiet(
        self,
        interaction: discord.Interaction,
        start: app_commands.Range[int, 0, 23],
        end: app_commands.Range[int, 0, 23],
        utc_offset: app_commands.Range[float, -12, 14] = 0.0,
        zone: str | None = None,
    ) -> None:
        """Quiet hours, now kept in the member's notification policy: in their IANA zone
        when they name one, else at the fixed offset they give (docs/rulings.md)."""
        locale = self.loc(interaction)
        if not (-12 <= utc_offset <= 14):
            await interaction.response.send_message(t("core.ui.bad_number", locale, lo=-12, hi=14), ephemeral=True)
            return
        tz = zone or offset_zone(utc_offset)
        await self.services.tables.set_quiet_hours(interaction.user.id, tz, start, end)
        await interaction.response.send_message(
            t("notify.quiet_set", locale, start=start, end=end, zone=echo(tz)), ephemeral=True
        )

    @remind_group.command(
        name=ls("always", "discord.cmd.remind.always"),
        description=ls("Remind me at any hour", "discord.cmd.remind.always.desc"),
    )
    async def remind_always(self, interaction: discord.Interaction) -> None:
        policy = await self.services.tables.notify_settings(interaction.user.id)
        await self.services.tables.set_quiet_hours(interaction.user.id, policy.tz, None, None)
        await interaction.response.send_message(t("core.remind.always", self.loc(interaction)), ephemeral=True)

    # ------------------------------------------------------- vacations
    @remind_group.command(
        name=ls("away", "asyncplay.cmd.remind.away"),
        description=ls(
            "Go on vacation: your time banks and reminders pause at every table", "asyncplay.cmd.remind.away.desc"
        ),
    )
    @app_commands.describe(days=ls("Days away (your yearly allowance is 21)", "asyncplay.arg.days"))
    async def remind_away(
        self, interaction: discord.Interaction, days: app_commands.Range[int, 1, clocks.AWAY_DAYS_PER_YEAR]
    ) -> None:
        locale = self.loc(interaction)
        _, until = await self.services.tables.go_away(interaction.user.id, days)
        await interaction.response.send_message(
            t("asyncplay.away_set", locale, until=clocks.discord_time(until, "f"), rel=clocks.discord_time(until)),
            ephemeral=True,
        )

    @remind_group.command(
        name=ls("back", "asyncplay.cmd.remind.back"),
        description=ls("Back from vacation early", "asyncplay.cmd.remind.back.desc"),
    )
    async def remind_back(self, interaction: discord.Interaction) -> None:
        locale = self.loc(interaction)
        await self.services.tables.come_back(interaction.user.id)
        await interaction.response.send_message(t("asyncplay.back", locale), ephemeral=True)

    @settings_group.command(
        name=ls("clock", "asyncplay.cmd.settings.clock"),
        description=ls(
            "Time bank of new tables and what happens when it runs out", "asyncplay.cmd.settings.clock.desc"
        ),
    )
    @app_commands.describe(
        profile=ls("Time-bank profile", "asyncplay.arg.profile"),
        policy=ls("When a bank runs out", "asyncplay.arg.policy"),
    )
    @app_commands.choices(
        profile=[app_commands.Choice(name=ls(n, f"asyncplay.profile.{n}"), value=n) for n in clocks.PROFILES],
        policy=[app_commands.Choice(name=ls(p, f"asyncplay.policy.{p}"), value=p) for p in clocks.POLICIES],
    )
    async def settings_clock(self, interaction: discord.Interaction, profile: str, policy: str = "ai") -> None:
        if not await self._admin(interaction):
            return
        locale = self.loc(interaction)
        if profile not in clocks.PROFILES or policy not in clocks.POLICIES:
            await interaction.response.send_message(
                t("asyncplay.bad_clock", locale, name=echo(profile)), ephemeral=True
            )
            return
        await self._save(
            interaction,
            lambda s: {**s, "clock": profile, "clock_policy": policy},
            lambda s, locale: t(
                "asyncplay.clock_set",
                locale,
                profile=t(f"asyncplay.profile.{s['clock']}", locale),
                policy=t(f"asyncplay.policy.{s['clock_policy']}", locale),
            ),
        )

    @settings_group.command(
        name=ls("limits", "asyncplay.cmd.settings.limits"),
        description=ls(
            "Caps on lobbies, threads, campaigns and leagues; when idle lobbies expire",
            "asyncplay.cmd.settings.limits.desc",
        ),
    )
    @app_commands.describe(**{key: ls(LIMIT_HELP[key], f"asyncplay.arg.{key}") for key in limits.DEFAULT_LIMITS})
    async def settings_limits(
        self,
        interaction: discord.Interaction,
        lobbies_member: app_commands.Range[int, 0, 100] | None = None,
        lobbies_server: app_commands.Range[int, 0, 1000] | None = None,
        threads_member: app_commands.Range[int, 0, 100] | None = None,
        threads_server: app_commands.Range[int, 0, 1000] | None = None,
        campaigns_member: app_commands.Range[int, 0, 100] | None = None,
        campaigns_server: app_commands.Range[int, 0, 1000] | None = None,
        leagues_member: app_commands.Range[int, 0, 100] | None = None,
        leagues_server: app_commands.Range[int, 0, 1000] | None = None,
        lobby_idle_hours: app_commands.Range[int, 0, 720] | None = None,
    ) -> None:
        """Show the server's limits; each option given changes that one (the others stay)."""
        if not await self._admin(interaction):
            return
        locale = self.loc(interaction)
        given = {
            k: v
            for k, v in (
                ("lobbies_member", lobbies_member),
                ("lobbies_server", lobbies_server),
                ("threads_member", threads_member),
                ("threads_server", threads_server),
                ("campaigns_member", campaigns_member),
                ("campaigns_server", campaigns_server),
                ("leagues_member", leagues_member),
                ("leagues_server", leagues_server),
                ("lobby_idle_hours", lobby_idle_hours),
            )
            if v is not None
        }
        for key, value in given.items():
            lo, hi = limits.RANGES[key]
            if not lo <= value <= hi:  # Range is not enforced by discord.py at run time
                await interaction.response.send_message(
                    t("asyncplay.bad_limit", locale, name=key, lo=lo, hi=hi), ephemeral=True
                )
                return

        def shown(s: dict[str, Any], locale: str) -> str:
            return t("asyncplay.limits_show", locale, **limits.limits_of(s))

        if given:
            await self._save(interaction, lambda s: {**s, "limits": {**(s.get("limits") or {}), **given}}, shown)
        else:
            s = await self.services.settings.server_settings(interaction.guild_id)
            await interaction.response.send_message(shown(s, locale), ephemeral=True)

    # --------------------------------------------------------- privacy
    async def _privacy_target(self, interaction: discord.Interaction, member: discord.User | None):
        """(user id, server scope) the command is about; a member other than oneself: admins only."""
        if member is None or member.id == interaction.user.id:
            return interaction.user.id, None
        perms = getattr(interaction.user, "guild_permissions", None)
        if interaction.guild_id is None or not (perms and perms.manage_guild):
            await interaction.response.send_message(t("asyncplay.admin_only", self.loc(interaction)), ephemeral=True)
            return None
        return member.id, interaction.guild_id

    @privacy_group.command(
        name=ls("show", "asyncplay.cmd.privacy.show"),
        description=ls("See what the bot keeps about you (or a member, admins)", "asyncplay.cmd.privacy.show.desc"),
    )
    @app_commands.describe(member=ls("A member who left (server admins)", "asyncplay.arg.member"))
    async def privacy_show(self, interaction: discord.Interaction, member: discord.User | None = None) -> None:
        target = await self._privacy_target(interaction, member)
        if target is None:
            return
        locale = self.loc(interaction)
        user_id, guild_id = target
        seen = await self.services.tables.footprint(user_id, guild_id)
        counts = {k: seen.get(k, 0) for k in FOOTPRINT_LINES}
        # a kind kept by a later feature (registered in store.PERSONAL_DATA) counts as another record
        counts["records"] += sum(v for k, v in seen.items() if k not in FOOTPRINT_LINES and isinstance(v, int))
        if guild_id is None:  # about oneself: one's own settings too
            prefs = seen.get("prefs") or {}
            shown = ", ".join(f"{k}={v}" for k, v in sorted(prefs.items())) or "-"
            text = t("asyncplay.footprint", locale, user=f"<@{user_id}>", prefs=shown, **counts)
        else:  # an admin about a member: this server's data only, never personal settings
            text = t("asyncplay.footprint_server", locale, user=f"<@{user_id}>", **counts)
        await interaction.response.send_message(
            clip(text, 2000), ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )

    @privacy_group.command(
        name=ls("forget", "asyncplay.cmd.privacy.forget"),
        description=ls(
            "Remove your stats, ratings and settings; anonymise your moves in logs", "asyncplay.cmd.privacy.forget.desc"
        ),
    )
    @app_commands.describe(member=ls("A member who left (server admins)", "asyncplay.arg.member"))
    async def privacy_forget(self, interaction: discord.Interaction, member: discord.User | None = None) -> None:
        target = await self._privacy_target(interaction, member)
        if target is None:
            return
        locale = self.loc(interaction)
        try:
            await self.services.tables.forget(target[0], target[1])
        except TurnRefused as exc:
            if exc.code == "still_seated" and target[1] is not None:  # an admin about another member
                raise TurnRefused(exc.code, "asyncplay.forget_seated_member", **exc.params) from exc
            raise
        await interaction.response.send_message(t("asyncplay.forgotten", locale), ephemeral=True)


async def setup(bot: commands.Bot) -> None:  # discord.py extension entry point
    await bot.add_cog(Settings(bot, services_of(bot)))

"""``/notify``: how and when the bot reaches a member.  ``/notify settings`` opens their
notification policy (tables/rules/notify.py) as a private panel (cogs/present/notify_panel.py)
changed a select at a time; ``/notify calendar`` gives the member, privately, the secret
URL of their calendar feed (web/routes/calendar.py), and a new one on request (the old one
then opens nothing).

The group works wherever the member is: in a server that installed the bot, in a direct
message with it, and (installed to the member's own account) in any server or private
channel; every answer is ephemeral, and nothing here needs the bot in the channel."""

from __future__ import annotations

import re

import discord
from discord import app_commands
from discord.ext import commands

from cogs.kit.components import NotifyClicks, routes_of
from cogs.kit.locale import locale_of, ls
from cogs.kit.reach import ANYWHERE, EVERY_INSTALL
from cogs.kit.services import Services, services_of
from cogs.present.notify_panel import INHERIT, NO_QUIET, PanelState, panel
from engine import available
from engine.i18n import t
from tables import EVENTS, WAYS, NotifyPolicy, TurnRefused, game_name

#: what a scope may name: every table, a game's, a table's
SCOPE = re.compile(r"^(all|g\.([a-z0-9_]{1,40})|t\.(\d{1,18}))$")


class Notify(commands.Cog):
    notify_group = app_commands.Group(
        name=ls("notify", "calendar.cmd.notify"),
        description=ls("How and when the bot reaches you", "calendar.cmd.notify.desc"),
        allowed_contexts=ANYWHERE,
        allowed_installs=EVERY_INSTALL,
    )

    def __init__(self, bot: commands.Bot, services: Services) -> None:
        self.bot = bot
        self.services = services

    def loc(self, interaction: discord.Interaction) -> str:
        return locale_of(interaction, self.services.default_locale)

    async def cog_load(self) -> None:
        handlers: NotifyClicks = self  # mypy checks that this cog answers the panel's selects
        routes_of(self.bot).notify = handlers

    async def cog_unload(self) -> None:
        routes = routes_of(self.bot)
        if routes.notify is self:
            routes.notify = None

    # ------------------------------------------------------------ the panel
    @notify_group.command(
        name=ls("settings", "notifyui.cmd.settings"),
        description=ls("See and change how and when the bot reaches you", "notifyui.cmd.settings.desc"),
    )
    async def settings(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        policy = await self.services.tables.notify_settings(interaction.user.id)
        view = panel(await self._state(interaction.user.id, policy, "all", locale), locale)
        await interaction.followup.send(view=view, ephemeral=True)

    async def _state(self, user_id: int, policy: NotifyPolicy, scope: str, locale: str) -> PanelState:
        """What the panel shows in ``scope``: the scopes the member may pick (every table, each
        game they play, each table they sit at, and any they set something for)."""
        scopes: dict[str, str] = {"all": t("notifyui.scope.all", locale)}
        mine = await self.services.tables.mine(user_id, None)
        games = dict.fromkeys([row.game for row, _, _ in mine] + list(policy.games))
        for g in games:
            if g in available():
                scopes[f"g.{g}"] = t("notifyui.scope.game", locale, game=game_name(g, locale))
        named = {row.id: row.game for row, _, _ in mine}
        for tid in [*named, *(int(k) for k in policy.tables if k.isdigit())]:
            label = f"{game_name(named[tid], locale)} #{tid}" if tid in named else f"#{tid}"
            scopes.setdefault(f"t.{tid}", t("notifyui.scope.table", locale, table=label))
        game, table = _scope(scope)
        own = (
            policy.tables.get(str(table), {})
            if table is not None
            else policy.games.get(game or "", {})
            if game
            else policy.ways
        )
        events = []
        for event in EVENTS:
            if table is not None:
                in_force = policy.way(event, named.get(table), None)
            elif game is not None:
                in_force = policy.way(event)
            else:
                in_force = policy.way(event)
            events.append((event, own.get(event), in_force))
        if scope not in scopes:
            scopes[scope] = scope
        return PanelState(
            scope=scope,
            scopes=list(scopes.items())[:25],
            events=events,
            ways=WAYS,
            zone=policy.tz,
            quiet=policy.quiet,
            digest_hour=policy.digest_hour,
        )

    async def on_notify(self, interaction: discord.Interaction, scope: str, key: str, value: str | None) -> None:
        """A select of the panel: change that one thing (a forged value changes nothing and
        is refused privately), then show the panel again as it now stands."""
        tables, user = self.services.tables, interaction.user.id
        locale = self.loc(interaction)
        game, table = _scope(scope)
        if game is not None and game not in available():
            raise TurnRefused("bad_choice", "discord.forged.component")
        policy = await tables.notify_settings(user)
        shown = scope
        if value is None:
            raise TurnRefused("bad_choice", "discord.forged.component")
        if key == "scope":
            if not SCOPE.match(value):
                raise TurnRefused("bad_choice", "discord.forged.component")
            state = await self._state(user, policy, "all", locale)
            if value not in dict(state.scopes):
                raise TurnRefused("bad_choice", "discord.forged.component")
            shown = value
        elif key.startswith("e_") and key[2:] in EVENTS:
            if value not in WAYS and not (value == INHERIT and scope != "all"):
                raise TurnRefused("bad_choice", "discord.forged.component")
            policy = await tables.set_notify(user, key[2:], value, game=game, table=table)
        elif key == "zone":
            policy = await tables.set_quiet_hours(user, value, *(policy.quiet or (None, None)))
        elif key in ("quiet_start", "quiet_end"):
            if value == NO_QUIET and key == "quiet_start":
                policy = await tables.set_quiet_hours(user, policy.tz, None, None)
            else:
                hour = _hour(value)
                start, end = policy.quiet or ((hour - QUIET_HOURS) % 24, (hour + QUIET_HOURS) % 24)
                start, end = (hour, end) if key == "quiet_start" else (start, hour)
                policy = await tables.set_quiet_hours(user, policy.tz, start, end)
        elif key == "digest":
            policy = await tables.set_digest_hour(user, _hour(value))
        else:
            raise TurnRefused("bad_choice", "discord.forged.component")
        view = panel(await self._state(user, policy, shown, locale), locale)
        await interaction.response.edit_message(view=view)

    @notify_group.command(
        name=ls("calendar", "calendar.cmd.calendar"),
        description=ls("Your deadlines in your calendar app, through a private link", "calendar.cmd.calendar.desc"),
    )
    @app_commands.describe(replace=ls("Make a new link (the old one stops working)", "calendar.arg.replace"))
    async def calendar(self, interaction: discord.Interaction, replace: bool = False) -> None:
        locale = self.loc(interaction)
        base = self.services.web_url
        if not base:
            await interaction.response.send_message(t("calendar.off", locale), ephemeral=True)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        secret = await self.services.tables.calendar_secret(interaction.user.id, replace=bool(replace))
        if secret is None:
            await interaction.followup.send(t("calendar.exists", locale), ephemeral=True)
            return
        url = f"{base.rstrip('/')}/cal/{secret}.ics?lang={locale}"
        await interaction.followup.send(t("calendar.link", locale, url=url), ephemeral=True)


#: quiet hours a member starts from one end: this many hours to the other (a night)
QUIET_HOURS = 9


def _scope(scope: str) -> tuple[str | None, int | None]:
    """(game, table) of a panel scope ("all": neither)."""
    m = SCOPE.match(scope)
    if m is None:
        raise TurnRefused("bad_choice", "discord.forged.component")
    return m.group(2), int(m.group(3)) if m.group(3) else None


def _hour(value: str) -> int:
    if not value.isdigit() or not 0 <= int(value) <= 23:
        raise TurnRefused("bad_choice", "discord.forged.component")
    return int(value)


async def setup(bot: commands.Bot) -> None:  # discord.py extension entry point
    await bot.add_cog(Notify(bot, services_of(bot)))

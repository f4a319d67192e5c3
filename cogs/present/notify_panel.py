"""The ``/notify`` panel (Components V2, not a cog): a member's notification policy on one
private message, changed a select at a time.

One container: what the panel shows (every table, one game's, or one table's: the scope
select), then one select per event whose options are the ways (ping, direct message, the
daily digest, off; in a game's or a table's scope also "as for every table"), then the quiet
hours (time zone, from, to) and the digest's hour.  Each select's id names only the scope
and what it sets (cogs/kit/ids.py ``Notify``): the member is whoever clicks, so a copied
panel changes nobody else's policy.  Every label is the member's language."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import discord

from cogs.kit.components import NotifySelect
from cogs.present.ui import clip
from engine.i18n import t

#: the time zones the panel offers (a select holds at most 25 options): the member's own comes
#: first when it is not among them
ZONES = (
    "UTC",
    "Europe/London",
    "Europe/Paris",
    "Europe/Berlin",
    "Europe/Istanbul",
    "Europe/Moscow",
    "Africa/Johannesburg",
    "Asia/Dubai",
    "Asia/Kolkata",
    "Asia/Singapore",
    "Asia/Shanghai",
    "Asia/Hong_Kong",
    "Asia/Taipei",
    "Asia/Tokyo",
    "Asia/Seoul",
    "Australia/Sydney",
    "Pacific/Auckland",
    "America/Sao_Paulo",
    "America/New_York",
    "America/Toronto",
    "America/Chicago",
    "America/Mexico_City",
    "America/Denver",
    "America/Los_Angeles",
)
#: the value of "as for every table" in a game's or a table's scope (the facade's "default": no override)
INHERIT = "default"
#: the value of "no quiet hours"
NO_QUIET = "off"


@dataclass(frozen=True)
class PanelState:
    """What the panel shows: ``scope`` ("all", "g.<game>", "t.<id>") and the scopes the member
    may pick, with their labels; per event its way in this scope (None: inherited) and the
    way in force; the ways; the time zone, quiet hours (None: none) and the digest's hour."""

    scope: str
    scopes: Sequence[tuple[str, str]]
    events: Sequence[tuple[str, str | None, str]]
    ways: Sequence[str]
    zone: str
    quiet: tuple[int, int] | None
    digest_hour: int


def _hour(h: int) -> str:
    return f"{h:02d}:00"


def zone_choices(zone: str) -> list[str]:
    return ([zone] if zone not in ZONES else []) + list(ZONES)


def panel(p: PanelState, locale: str) -> discord.ui.LayoutView:
    """The panel's view (at most 40 components: here 27)."""
    box: discord.ui.Container = discord.ui.Container(accent_colour=0x5865F2)
    quiet = (
        t("notifyui.quiet_on", locale, start=_hour(p.quiet[0]), end=_hour(p.quiet[1]), zone=p.zone)
        if p.quiet is not None
        else t("notifyui.quiet_off", locale, zone=p.zone)
    )
    head = [f"### {t('notifyui.title', locale)}", t("notifyui.intro", locale), quiet]
    head.append(t("notifyui.digest_at", locale, hour=_hour(p.digest_hour), zone=p.zone))
    box.add_item(discord.ui.TextDisplay(clip("\n".join(head), 1500)))
    row: discord.ui.ActionRow = discord.ui.ActionRow()
    row.add_item(
        NotifySelect(
            p.scope,
            "scope",
            placeholder=t("notifyui.scope", locale),
            options=[
                discord.SelectOption(label=clip(label, 100), value=value, default=value == p.scope)
                for value, label in p.scopes[:25]
            ],
        )
    )
    box.add_item(row)
    for event, own, in_force in p.events:
        name = t(f"notify.event.{event}", locale)
        options = []
        if p.scope != "all":
            shown = t(f"notify.way.{in_force}", locale)
            label = t("notifyui.choice", locale, event=name, way=t("notifyui.inherit", locale, way=shown))
            options.append(discord.SelectOption(label=clip(label, 100), value=INHERIT, default=own is None))
        for way in p.ways:
            label = t("notifyui.choice", locale, event=name, way=t(f"notify.way.{way}", locale))
            options.append(
                discord.SelectOption(
                    label=clip(label, 100), value=way, default=way == (own or (in_force if p.scope == "all" else None))
                )
            )
        row = discord.ui.ActionRow()
        row.add_item(NotifySelect(p.scope, f"e_{event}", placeholder=name, options=options))
        box.add_item(row)
    box.add_item(discord.ui.Separator())
    zones = [discord.SelectOption(label=z, value=z, default=z == p.zone) for z in zone_choices(p.zone)[:25]]
    row = discord.ui.ActionRow()
    row.add_item(NotifySelect(p.scope, "zone", placeholder=t("notifyui.zone", locale), options=zones))
    box.add_item(row)
    start = [discord.SelectOption(label=t("notifyui.no_quiet", locale), value=NO_QUIET, default=p.quiet is None)]
    start += [
        discord.SelectOption(
            label=t("notifyui.quiet_from", locale, hour=_hour(h)),
            value=str(h),
            default=p.quiet is not None and p.quiet[0] == h,
        )
        for h in range(24)
    ]
    end = [
        discord.SelectOption(
            label=t("notifyui.quiet_to", locale, hour=_hour(h)),
            value=str(h),
            default=p.quiet is not None and p.quiet[1] == h,
        )
        for h in range(24)
    ]
    digest = [
        discord.SelectOption(
            label=t("notifyui.digest_hour", locale, hour=_hour(h)), value=str(h), default=p.digest_hour == h
        )
        for h in range(24)
    ]
    for key, opts, holder in (
        ("quiet_start", start, "notifyui.quiet_start"),
        ("quiet_end", end, "notifyui.quiet_end"),
        ("digest", digest, "notifyui.digest"),
    ):
        row = discord.ui.ActionRow()
        row.add_item(NotifySelect(p.scope, key, placeholder=t(holder, locale), options=opts))
        box.add_item(row)
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(box)
    return view

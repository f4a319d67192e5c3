"""How time banks, vacations and ratings look in messages (not a cog).

The board builders call :func:`add_bank_field`: a waiting seat's bank is shown as a
Discord timestamp (``<t:...:R>``), which every reader's client counts down live, so
a board never shows a stale time."""

from __future__ import annotations

import discord

from cogs.present.ui import clip
from engine import i18n
from engine.i18n import t
from store import GameRow, RatingRow
from tables import TableService, clocks, ratings


def duration(seconds: float, locale: str) -> str:
    return i18n.duration(seconds, locale)


def bank_lines(lines: list[tuple[str, int | None, float, bool, float | None]], locale: str) -> str:
    """One line per human seat: when a waiting seat's bank runs out (and until when its
    player is away), or what an idle seat's bank holds."""
    out = []
    for seat, uid, value, waiting, away_until in lines:
        if uid is None:
            continue
        who = f"<@{uid}>"
        if waiting and away_until is not None:
            out.append(
                t(
                    "asyncplay.bank_away",
                    locale,
                    seat=seat,
                    who=who,
                    until=clocks.discord_time(away_until, "f"),
                    when=clocks.discord_time(value),
                )
            )
        elif waiting:
            out.append(t("asyncplay.bank_waiting", locale, seat=seat, who=who, when=clocks.discord_time(value)))
        else:
            out.append(t("asyncplay.bank_idle", locale, seat=seat, who=who, left=duration(value, locale)))
    return "\n".join(out)


async def add_bank_field(embed: discord.Embed, tables: TableService, row: GameRow, locale: str) -> discord.Embed:
    """Add the table's time banks to a board embed (nothing for a table without a clock profile)."""
    if row.status != "active":
        return embed
    text = bank_lines(await tables.bank_lines(row), locale)
    if text:
        embed.add_field(name=t("asyncplay.bank_title", locale), value=clip(text, 1024), inline=False)
    return embed


def rating_text(row: RatingRow | None, locale: str) -> str:
    if row is None:
        return t("asyncplay.no_rating", locale)
    return t(
        "asyncplay.rating",
        locale,
        ordinal=f"{ratings.conservative(row.mu, row.sigma):.1f}",
        mu=f"{row.mu:.1f}",
        sigma=f"{row.sigma:.1f}",
        n=row.played,
    )

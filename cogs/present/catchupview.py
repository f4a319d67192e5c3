""" "Since your turn" in Discord: the catch-up of tables/seeing/catchup.py as one private
message (what each other player did since, what hit the member first, the board
after their last decision and now, side by side)."""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

import discord

from cogs.present.ui import clip, game_name, log_lines, relabel, seat_tag
from engine.base import SeatLabel
from engine.i18n import t
from tables import Catchup, TableService

TEXT_CHARS = 1800


def catchup_text(c: Catchup, locale: str, labels: Mapping[str, SeatLabel]) -> str:
    row, game = c.row, c.game
    head = t("play.catchup.head", locale, game=game_name(row.game, locale), id=row.id)
    if c.empty:
        return head + "\n" + t("play.catchup.nothing", locale)
    lines = [head]
    if c.earlier:
        lines.append(t("play.catchup.earlier", locale, n=c.earlier))
    if c.first_hit is not None:
        step, event = c.first_hit
        lines.append(
            t(
                "play.catchup.first_hit",
                locale,
                who=seat_tag(row, labels, step.seat),
                what=relabel(game.event_text(event, locale, labels), labels),
            )
        )
    body = log_lines(row, game, [(s.seat, s.events, s.by) for s in c.steps], locale, labels)
    kept: list[str] = []
    room = TEXT_CHARS - sum(len(x) + 1 for x in lines)
    for line in reversed(body):  # the latest lines when it is long
        if room - len(line) - 1 < 0:
            kept.append("…")
            break
        kept.append(line)
        room -= len(line) + 1
    lines += list(reversed(kept))
    if c.before is not None:
        lines.append(t("play.catchup.boards", locale))
    return clip("\n".join(lines), 2000)


async def catchup_message(
    service: TableService, c: Catchup, locale: str, labels: Mapping[str, SeatLabel]
) -> dict[str, Any]:
    """``followup.send`` arguments: the text and the two boards (the member's own view)."""
    files = []
    viewer = c.row.user_of(c.seat)
    for state, name in ((c.before, "before.png"), (c.after, "now.png")):
        if state is not None:  # the member's own view of the board then (tables.seeing.board: one builder)
            b = await service.board(
                c.row, viewer, locale, labels=labels, state=(c.game, state), live=False, log_entries=0
            )
            assert b.image is not None
            alt = b.describe() if b.describe is not None else None  # the member's own view, in words
            files.append(discord.File(io.BytesIO(await b.image()), filename=name, description=alt))
    return {"content": catchup_text(c, locale, labels), "files": files, "ephemeral": True}

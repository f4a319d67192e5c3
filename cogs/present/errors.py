"""The one error hook: every refusal and every failure of a command or a click
becomes one private reply, in the member's language.

Handlers raise; they do not catch.  A :class:`~tables.TurnRefused` (an illegal
move, a wrong player, a stale or forged button, a table that moved on) is told
as the refusal says, seats by display name (tables/play/refusals.py); a
:class:`~engine.GameError` as its message; anything else is logged and the
member told the truth about their change (:func:`cogs.present.board_posts.truth_key`:
nothing changed, saved and on its way, or not known).  Slash commands reach
:meth:`ErrorHook.answer` through the command tree's ``on_error``
(cogs/kit/flood.py), clicks through :meth:`ErrorHook.click` (cogs/kit/components.py).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord
from discord import app_commands

from cogs.kit.flood import admit
from cogs.kit.locale import is_unavailable, locale_of, say
from cogs.kit.services import Services
from cogs.present.board_posts import Boards, truth_key
from cogs.present.ui import clip, log_lines
from engine import GameError, get_game
from engine.i18n import t
from tables import TurnRefused, refusals

log = logging.getLogger("tabletop.errors")


class ErrorHook:
    def __init__(self, client: discord.Client, services: Services) -> None:
        self.services = services
        self.boards = Boards(client, services)

    def loc(self, interaction: discord.Interaction) -> str:
        return locale_of(interaction, self.services.default_locale)

    async def explain(self, exc: TurnRefused, locale: str) -> str:
        """A refusal in the reader's language, seats by display name, and for a table
        that moved on, what happened since (tables/play/refusals.py)."""
        row = exc.row
        if row is None or not (exc.named or exc.steps):
            return exc.text(locale)
        labels = await self.boards.labels(row, locale)
        game = get_game(row.game)
        return refusals.text(
            exc,
            locale,
            labels,
            lambda steps: log_lines(row, game, [(s.seat, s.events, s.by) for s in steps], locale, labels),
        )

    async def tell(self, interaction: discord.Interaction, exc: TurnRefused) -> None:
        await say(interaction, clip(await self.explain(exc, self.loc(interaction)), 2000))

    async def failed(self, interaction: discord.Interaction, error: BaseException | None = None) -> None:
        """Something failed unexpectedly: tell the member, privately, the truth about
        their change (nothing changed, saved, or not known)."""
        try:
            await say(interaction, t(await truth_key(self.services.tables, error), self.loc(interaction)))
        except discord.HTTPException:
            pass

    async def answer(self, interaction: discord.Interaction, error: BaseException) -> None:
        """The reply to whatever a command or a click raised."""
        cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        try:
            if isinstance(cause, TurnRefused):
                return await self.tell(interaction, cause)
            if isinstance(cause, GameError):
                return await say(interaction, clip(cause.message(self.loc(interaction)), 2000))
        except discord.HTTPException:
            return
        if not is_unavailable(error):  # (the store said that once)
            command = getattr(interaction.command, "qualified_name", None)
            what = f"command {command}" if command else f"interaction {interaction.id}"
            log.error("%s failed", what, exc_info=error)
        await self.failed(interaction, error)

    async def click(self, interaction: discord.Interaction, call: Callable[[], Awaitable[None]]) -> None:
        """Run a component's handler after the flood check; answer what it raises."""
        if not await admit(interaction):
            return
        try:
            await call()
        except Exception as exc:  # noqa: BLE001 -- the one place a click's error is answered
            await self.answer(interaction, exc)

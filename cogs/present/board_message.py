"""The board message: every board is built here (Components V2, from the one board
builder of tables/seeing/board.py), the private panel and view, a replay frame, and the edit
of a posted board in place."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import discord

from cogs.present.clockview import bank_lines
from cogs.present.surgery import Surgery
from cogs.present.ui import (
    action_view,
    allowed_mentions,
    board_file,
    board_view,
    clip,
    image_file,
    offered,
    relabel,
)
from engine.base import BaseState, Event, Game, SeatLabel
from engine.i18n import t
from store import GameRow
from tables import Board, TurnResult, board_pings, escape, web_link

log = logging.getLogger("tabletop.boards")
#: the text board's length (a message's content holds 2,000)
TEXT_BOARD_CHARS = 1900


def orders_button(row: GameRow, game: Game, state: BaseState, seat: str | None, locale: str) -> list[discord.ui.Item]:
    """A private panel's "Standing orders" button, where the game offers its seat orders
    (cogs/game/orders.py opens them); none for a game without orders."""
    from cogs.kit.components import OrdersButton

    if seat is None or row.status != "active" or not game.order_kinds(state, seat):
        return []
    return [OrdersButton(row.id, label=clip(t("orders.button", locale), 80))]


class BoardMessages(Surgery):
    """Building board messages."""

    # ------------------------------------------------------------ boards
    async def board(
        self,
        row: GameRow,
        viewer: int | None,
        locale: str,
        *,
        state: tuple[Game, BaseState] | None = None,
        steps: Sequence[tuple[str | None, Sequence[Event], str]] = (),
        live: bool = True,
    ) -> Board:
        """What ``viewer`` (None: the channel) sees of a table, for a Discord message:
        :func:`tables.seeing.board.board` with the members' display names and markdown-safe texts."""
        labels = await self.labels(row, locale)
        return await self.tables.board(
            row,
            viewer,
            locale,
            labels=labels,
            state=state,
            steps=steps,
            escape=True,
            live=live,
            log_entries=0,
        )

    async def message(
        self, result: TurnResult, locale: str | None = None, note: str | None = None, *, live: bool = True
    ) -> dict[str, Any]:
        """The board message's parts: ``view`` (the V2 layout), ``file`` (the image)
        and ``allowed_mentions``; pass them to ``send``/``followup.send``, or use
        :meth:`edit_kwargs` for an edit."""
        row = result.row
        locale = locale or await self.public_locale_of(row)
        groups: list[tuple[str | None, Sequence[Event], str]] = [(s.seat, s.events, s.by) for s in result.steps] or (
            [(None, result.events, "player")] if result.events else []
        )
        b = await self.board(row, None, locale, state=(result.game, result.state), steps=groups, live=live)
        assert b.image is not None
        png = await b.image()  # its choices' numbers marked: the same offer as the buttons
        panel = await self.panel_label(row, b, locale) if live else None
        view = board_view(row, b, note=note, live=live, extra=self.bank_text(row, b), panel_label=panel)
        self.add_web_link(view, row, locale)
        pings = board_pings(result, b.to_act, live=live)  # tables/seeing/pings.py: the one place pings are decided
        alt = b.describe() if b.describe is not None else None
        return {"view": view, "file": board_file(png, alt), "allowed_mentions": allowed_mentions(pings)}

    async def panel_label(self, row: GameRow, b: Board, locale: str) -> str | None:
        """When a member to act reads another language than the table's (their last
        interaction's), the "Take your turn" button's label in the table's language and
        theirs: the shared board stays in the table's language, and their panel shows
        their choices privately in their own (docs/rulings.md, "Public language")."""
        theirs: set[str] = set()
        for seat in b.to_act:
            uid = row.user_of(seat)
            lang = await self.language_of(uid) if uid is not None else None
            if lang and lang != locale:
                theirs.add(lang)
        if not theirs:
            return None
        return " / ".join([t("core.ui.take_turn", locale), *(t("core.ui.take_turn", x) for x in sorted(theirs))])

    async def panel(
        self, row: GameRow, game: Game, state: BaseState, user_id: int, locale: str, *, board: int | None = None
    ) -> tuple[str, discord.ui.View]:
        """A member's private panel: what their seat is asked (its full wording) and
        its choices (``board``: the public board it was opened from)."""
        b = await self.board(row, user_id, locale, state=(game, state))
        # the panel carries its seat's choice token: other seats' moves leave it live (tables/rules/panels.py)
        token = await self.tables.panel_token(row, game, state, b.viewer_seat) if b.choices and b.viewer_seat else None
        extra = orders_button(row, game, state, b.viewer_seat, locale)
        return b.prompt or "", action_view(row, game, offered(b.choices), locale, board=board, ver=token, extra=extra)

    async def private_view(self, row: GameRow, game: Game, state: BaseState, user_id: int, locale: str) -> dict:
        """ "My view": the member's own view of the board (their hand), privately."""
        b = await self.board(row, user_id, locale, state=(game, state))
        seat = b.viewer_seat or ""
        assert b.image is not None
        png = await b.image(marked=False)
        text = t("core.ui.your_view", locale, seat=escape(b.label(seat)) if b.player(seat) else seat)
        if b.private is not None:
            text += "\n" + b.private
        alt = b.describe() if b.describe is not None else None  # this seat's own view, in words
        return {"content": clip(text, 2000), "file": image_file(png, "view.png", alt)}

    async def text_board(self, row: GameRow, game: Game, state: BaseState, user_id: int, locale: str) -> str:
        """The board in words (the "Text board" button), for the member who asked: their own
        view when seated, else the public one; its latest moves and choices included."""
        viewer = user_id if row.seat_of(user_id) is not None else None
        labels = await self.labels(row, locale)
        b = await self.tables.board(row, viewer, locale, labels=labels, state=(game, state), escape=True, log_entries=8)
        assert b.describe is not None
        return b.describe(full=True, limit=TEXT_BOARD_CHARS, markdown=True)

    async def replay_message(self, row: GameRow, game: Game, state: BaseState, turn: int, turns: int, locale: str):
        """A finished table's board after ``turn`` of ``turns`` actions (``/game replay``), privately."""
        b = await self.board(row, None, locale, state=(game, state), live=False)
        description = b.summary
        if b.outcome is not None:
            description += "\n" + t("core.ui.game_over", locale) + " — " + b.outcome
        embed = discord.Embed(
            title=t("core.ui.replay_title", locale, game=b.game_name, id=row.id, turn=turn, turns=turns),
            description=clip(description, 4000),
        )
        embed.set_image(url="attachment://board.png")
        assert b.image is not None
        alt = b.describe() if b.describe is not None else None
        return {"embed": embed, "file": board_file(await b.image(), alt)}

    def add_web_link(self, view: discord.ui.LayoutView, row: GameRow, locale: str) -> None:
        """A link button to the table's page on the web companion (when it has a public URL)."""
        url = web_link(self.services.web_url, row.id)
        box = next((c for c in view.children if isinstance(c, discord.ui.Container)), None)
        if url is None or box is None:
            return
        box.add_item(discord.ui.ActionRow(discord.ui.Button(label=t("web.link.button", locale), url=url, emoji="🌐")))

    @staticmethod
    def bank_text(row: GameRow, b: Board) -> str | None:
        """The table's time banks (tables with a clock profile), seats by name: the
        board's text displays notify like content, so no mention is left in them."""
        if row.status != "active":
            return None
        locale = b.locale
        lines = [(x.seat, row.user_of(x.seat), x.value, x.waiting, x.away_until) for x in b.banks]
        text = bank_lines(lines, locale)
        for s in row.seats:
            if s.user_id is not None and b.player(s.seat) is not None:
                text = text.replace(f"<@{s.user_id}>", f"**{escape(b.label(s.seat))}**")
        names = {p.seat: SeatLabel(name=p.name, colour=p.colour) for p in b.players}
        return f"**{t('asyncplay.bank_title', locale)}**\n{relabel(text, names)}" if text else None

    async def update_board(self, result: TurnResult, message_id: int, locale: str | None = None) -> bool:
        """Redraw a public board in place (who has locked in): an edit, which pings nobody.
        False when Discord refused it (the board is then owed anew: the outbox posts it)."""
        channel = await self.channel_of(result.row)
        if channel is None:
            return False
        parts = await self.message(result, locale)
        try:
            await channel.get_partial_message(message_id).edit(**self.edit_kwargs(parts))
        except discord.HTTPException:
            log.info("table %s: board %s could not be updated", result.row.id, message_id)
            return False
        return True

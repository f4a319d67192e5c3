"""Standing orders (issue 31 item 3): ``/game orders``, the "Standing orders" button
of a private panel, and the orders panel's selects.

A seated member sees what they have armed at a table, arms one of the orders the
game offers them now, or switches one off -- also while another seat is to act.
Everything here is private: the replies are ephemeral, and the panel is edited in
place.  The table service decides (``order_choices``, ``arm_order``,
``disarm_order``, ``my_orders``); refusals are raised and answered privately by the
one error hook (cogs/present/errors.py), and change nothing.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from cogs.game.feature import TableFeature, channel_id, game
from cogs.kit.inputs import check_id
from cogs.kit.locale import ls
from cogs.kit.reach import anywhere, bot_in_server
from cogs.present.ui import clip, game_name, msg_text, relabel
from engine.i18n import t
from store import GameRow
from tables import TurnRefused, plain, refusals
from tables import board as _board

#: Discord's limit of options in a select
MAX_OPTIONS = 25


def offer_value(kind: str, params: Any) -> str:
    """A select option's value naming one offer: its kind and a digest of its parameters
    (an offer the game no longer makes is not found again: stale, never another one)."""
    blob = json.dumps(params or {}, sort_keys=True, default=str)
    return f"{kind}#{hashlib.sha256(blob.encode()).hexdigest()[:10]}"[:100]


def _scope_text(order: Any, locale: str) -> str:
    scope = str(getattr(order, "scope", "game"))
    text = t(f"orders.scope.{scope}", locale) if scope in ("phase", "round", "game") else ""
    uses = getattr(order, "uses", None)
    if uses is not None:
        text = f"{text}, {t('orders.uses', locale, n=uses)}" if text else t("orders.uses", locale, n=uses)
    return text


class Orders(TableFeature):
    # ------------------------------------------------------------ the panel
    async def orders_panel(
        self, row: GameRow, user_id: int, locale: str, lead: Sequence[str] = ()
    ) -> tuple[str, discord.ui.View]:
        """The member's orders at ``row``: what is armed, and selects to arm or switch off."""
        from cogs.kit.components import OrderSelect

        offers = await self.tables.order_choices(row.id, user_id, locale)
        armed = await self.tables.my_orders(row.id, user_id)
        labels = await self.boards.labels(row, locale)  # a seat named in a label: by its member's name
        lines = [*lead, t("orders.panel.head", locale, game=game_name(row.game, locale), id=row.id)]
        if armed:
            lines.append(t("orders.panel.armed", locale))
            lines += [f"• {msg_text(o.label, locale, labels)} — {_scope_text(o, locale)}" for o in armed]
        else:
            lines.append(t("orders.panel.none_armed", locale))
        free = [o for o in offers if not o.armed]
        if not free and not armed:
            lines.append(t("orders.panel.none_offered", locale))
        lines.append(t("orders.panel.hint", locale))
        view = discord.ui.View(timeout=None)
        if free:
            options = [
                discord.SelectOption(
                    label=clip(_board.relabel(o.label, labels), 100),
                    value=offer_value(o.kind, o.params),
                    description=clip(_scope_text(o, locale), 100),
                )
                for o in free[:MAX_OPTIONS]
            ]
            view.add_item(
                OrderSelect(row.id, "arm", placeholder=clip(t("orders.panel.arm", locale), 150), options=options, row=0)
            )
        if armed:
            options = [
                discord.SelectOption(label=clip(_board.msg_text(o.label, locale, labels), 100), value=o.kind[:100])
                for o in armed[:MAX_OPTIONS]
            ]
            view.add_item(
                OrderSelect(row.id, "off", placeholder=clip(t("orders.panel.off", locale), 150), options=options, row=1)
            )
        return clip("\n".join(lines), 2000), view

    async def _seated_row(self, interaction: discord.Interaction, gid: int | None) -> GameRow:
        """The table (``gid``, else the channel's) where the member holds a seat and it runs;
        otherwise a private refusal is raised.  Not bound to the table's channel: what is
        shown and changed are the member's own orders, which ``/game orders table:`` reaches
        from anywhere (a DM, another server)."""
        if gid is None:
            row = await self.tables.row(channel_id=channel_id(interaction))
            if row is None:
                raise TurnRefused("no_table", "orders.no_table")
        else:
            row = await self.tables.row(gid) if check_id(gid) is not None else None
            if row is None or row.seat_of(interaction.user.id) is None and row.guild_id != interaction.guild_id:
                # a table of another server the member has no seat at: not even its existence is told
                raise TurnRefused("no_such_table", "core.ui.no_such_table", id=gid)
        if row.status == "lobby":
            raise TurnRefused("not_started", "core.ui.not_started", id=row.id)
        if row.status != "active":
            raise refusals.finished(row)
        if row.seat_of(interaction.user.id) is None:
            loaded = await self.tables.load(row.id)
            raise refusals.not_seated(loaded.row, loaded.game, loaded.state)
        return row

    # ------------------------------------------------------------ /game orders, the button
    @anywhere
    @game.command(
        name=ls("orders", "orders.cmd.game.orders"),
        description=ls("Your standing orders at this table, privately", "orders.cmd.game.orders.desc"),
    )
    @app_commands.describe(
        table=ls("The table's number (default: this channel's, else your most urgent)", "reach.arg.table")
    )
    async def orders(
        self, interaction: discord.Interaction, table: app_commands.Range[int, 1, 2**53 - 1] | None = None
    ) -> None:
        """From anywhere: the table named, else this channel's where the bot is, else the
        member's most urgent running table."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        if table is None and not bot_in_server(interaction):
            found = [row for row, seat, _ in await self.tables.mine(interaction.user.id, None) if seat is not None]
            running = [row for row in found if row.status == "active"]
            if not running:
                return await interaction.followup.send(t("orders.none_running", self.loc(interaction)), ephemeral=True)
            table = running[0].id
        await self._show_orders(interaction, table)

    @orders.autocomplete("table")
    async def orders_table_autocomplete(self, interaction: discord.Interaction, current: str):
        """The member's running tables in every server, most urgent first ("Thunder Road #12")."""
        locale = self.loc(interaction)
        found = await self.tables.mine(interaction.user.id, None)
        return [
            app_commands.Choice(name=plain(f"{game_name(row.game, locale)} #{row.id}", 100), value=row.id)
            for row, seat, _ in found
            if seat is not None and row.status == "active" and current.strip().lstrip("#") in str(row.id)
        ][:25]

    async def on_orders(self, interaction: discord.Interaction, gid: int) -> None:
        """A "Standing orders" button (a private panel's): the clicker's orders, privately."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self._show_orders(interaction, gid)

    async def _show_orders(self, interaction: discord.Interaction, gid: int | None) -> None:
        locale = self.loc(interaction)
        row = await self._seated_row(interaction, gid)
        text, view = await self.orders_panel(row, interaction.user.id, locale)
        await interaction.followup.send(text, view=view, ephemeral=True)

    # ------------------------------------------------------------ the panel's selects
    async def on_order(self, interaction: discord.Interaction, gid: int, op: str, value: str | None) -> None:
        """Arm the picked offer (``op`` "arm") or switch off the picked order ("off"); the
        panel is redrawn in place, saying what was done (or why nothing was)."""
        clicked = interaction.message
        # the panel is private: only a private message is redrawn in place (a forged select on a
        # public message is answered with a private message of its own, the message left alone)
        in_panel = clicked is not None and clicked.flags.ephemeral
        if in_panel:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        row = await self._seated_row(interaction, gid)
        uid = interaction.user.id
        if op == "arm":
            lead = await self._arm(interaction, row, uid, value, locale)
        else:
            armed = await self.tables.my_orders(row.id, uid)
            found = next((o for o in armed if o.kind == value), None)
            lead = t("orders.not_armed", locale)  # forged, or it switched itself off meanwhile
            if found is not None:
                try:
                    await self.tables.disarm_order(row.id, uid, found.kind)
                    labels = await self.boards.labels(row, locale)
                    lead = t("orders.disarmed", locale, order=msg_text(found.label, locale, labels))
                except TurnRefused as exc:
                    if exc.code != "order_not_armed":
                        raise
        text, view = await self.orders_panel(row, uid, locale, lead=[lead])
        if in_panel:
            await interaction.edit_original_response(content=text, view=view)
        else:
            await interaction.followup.send(text, view=view, ephemeral=True)

    async def _arm(
        self, interaction: discord.Interaction, row: GameRow, uid: int, value: str | None, locale: str
    ) -> str:
        """Arm the offer ``value`` names; the line that says what happened.  An order armed
        while its seat is to act may take its step at once: that turn's board goes out
        like any turn's (the member arming it is not pinged by it)."""
        offers = await self.tables.order_choices(row.id, uid, locale)
        found = next((o for o in offers if value is not None and offer_value(o.kind, o.params) == value), None)
        if found is None:  # a forged value, or an offer the game no longer makes
            return t("orders.stale", locale)
        try:
            armed = await self.tables.arm_order(row.id, uid, found.kind, dict(found.params))
        except TurnRefused as exc:
            if exc.code != "bad_order":
                raise
            return await self.hook.explain(exc, locale)  # e.g. it would switch itself off at once
        turn = armed.turn
        if turn is not None:
            turn.by = uid

            async def show() -> None:
                await self.boards.deliver(turn, retire=True)
                await self.boards.push_private(turn)

            await self.deliver(interaction, turn, show)
        labels = await self.boards.labels(row, locale)
        return t("orders.armed", locale, order=relabel(found.label, labels))

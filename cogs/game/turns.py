"""Turns: a click on a board or a private panel, ``/play``, the private panel
and view, ``/game status`` and ``/game view``.

Thin adapters: each handler defers within Discord's 3-second deadline, turns
the interaction into one call on the table service (:mod:`tables`) and its
result into messages.  Refusals are raised, and answered by the one error
hook (cogs/present/errors.py).
"""

from __future__ import annotations

from collections.abc import Sequence

import discord
from discord import app_commands

from cogs.game.feature import NotShown, TableFeature, channel_id, game
from cogs.kit import ids
from cogs.kit.bound import at_table
from cogs.kit.inputs import chain_value, parse_chain
from cogs.kit.locale import ls
from cogs.kit.names import remember
from cogs.present.board_message import orders_button
from cogs.present.lobby_view import lobby_components, lobby_embed
from cogs.present.ui import clip, event_lines, game_name, relabel
from engine import get_game
from engine.i18n import t
from engine.locales import language
from store import GameRow
from tables import TurnRefused, TurnResult, preview, refusals


class Turns(TableFeature):
    async def show_again(self, interaction: discord.Interaction, result: TurnResult, locale: str) -> None:
        """The table's board shown again on request (``/game status``: nothing changed): it
        pings nobody (the turn pinged its player already) and becomes the one live board."""
        parts = await self.boards.message(result, locale)
        parts["allowed_mentions"] = discord.AllowedMentions.none()
        sent = await interaction.followup.send(**parts, wait=True)
        await self.boards.retire_others(result.row, sent.id)

    async def redraw_board(self, interaction: discord.Interaction, result: TurnResult, locale: str) -> None:
        """Replace the clicked board with the new one (same message, new image and buttons)."""
        parts = await self.boards.message(result, locale)
        await interaction.edit_original_response(**self.boards.edit_kwargs(parts))

    def _own_lines(self, result: TurnResult, seat: str | None, locale: str, labels) -> list[str]:
        own = [e for e in result.events if e.to is not None and seat in e.to]
        return event_lines(result.game, own, locale, labels)

    async def private_feedback(self, interaction: discord.Interaction, result: TurnResult, locale: str) -> None:
        """Events meant only for the acting seat (hidden draws, secret commits), to the clicker."""
        seat = result.row.seat_of(interaction.user.id)
        labels = await self.boards.labels(result.row, locale)
        own = self._own_lines(result, seat, locale, labels)
        if own:
            await interaction.followup.send(clip("\n".join(own), 2000), ephemeral=True)
        await self.push_private(result, skip=interaction.user.id)

    async def push_private(self, result: TurnResult, skip: int | None) -> None:
        """Hidden information reaches its owner unasked (see :meth:`Boards.push_private`)."""
        await self.boards.push_private(result, skip=skip)

    # ---------------------------------------------------------- actions
    async def on_action(self, interaction: discord.Interaction, gid: int, version: int, idx: int) -> None:
        await interaction.response.defer()
        remember(interaction.guild_id, interaction.user)
        await self._act(interaction, gid, version, idx, from_component=True)

    async def _act(
        self, interaction: discord.Interaction, gid: int, version: int, idx: int | list[int], *, from_component: bool
    ) -> None:
        """A click picks one of the choices its board offered (a chain of single
        steps, see tables/rules/choices.py); ``/play`` gives legal-action indices."""
        locale = self.loc(interaction)
        # the click's place is checked on the one read of the table's row (tables/core/kernel.py: load)
        place = (interaction.guild_id, interaction.channel_id)

        def picker(i: int):
            def pick(game, state, seat, legal):
                if not 0 <= i < len(legal):  # never offered (a forged index)
                    raise TurnRefused("not_offered", "discord.forged.not_offered")
                return legal[i]

            return pick

        try:
            if isinstance(idx, list):
                result = await self.tables.act(
                    gid, interaction.user.id, [picker(i) for i in idx], expected_version=version, place=place
                )
            else:
                result = await self.tables.act(
                    gid, interaction.user.id, [], expected_version=version, choice=idx, place=place
                )
        except TurnRefused as exc:
            if exc.code == "stale" and not from_component:  # a /play suggestion, not a button
                exc = TurnRefused("stale", "discord.forged.play_stale")
            if exc.code not in ("stale", "not_offered"):
                raise
            clicked = interaction.message
            if exc.code == "stale" and from_component and clicked is not None and clicked.flags.ephemeral:
                # a private panel whose choices changed: redrawn in place, saying why (no "out of date")
                if await self._redraw_panel(interaction, gid, locale, await self.hook.explain(exc, locale)):
                    return
            await self.hook.tell(interaction, exc)  # then the clicker's current choices, if any
            await self._fresh_panel(interaction, gid, locale)
            return

        # the move is saved: from here on, a failure to show it must not say otherwise
        async def show() -> None:
            plocale = await self.public_locale(interaction, result.row)
            await self._show_turn(interaction, result, locale, plocale, from_component)

        await self.deliver(interaction, result, show)

    async def _show_turn(
        self, interaction: discord.Interaction, result: TurnResult, locale: str, plocale: str, from_component: bool
    ) -> None:
        game = result.game
        seat = result.row.seat_of(interaction.user.id)
        after, before = game.to_act(result.state), result.waiting_before
        same_turn = not result.finished and not game.private_actions and after == before == [seat]
        clicked = interaction.message
        on_panel = from_component and clicked is not None and clicked.flags.ephemeral
        if from_component and same_turn and clicked is not None and not on_panel:
            # the same player decides again (the next step of one turn): redraw this board
            # in place instead of posting a new message; a new message (and a ping) comes
            # when the turn passes on
            await self.private_feedback(interaction, result, locale)
            await self.redraw_board(interaction, result, plocale)
            return await self.boards.confirmed(result)
        if game.private_actions and not result.finished and seat is not None:
            # secret simultaneous orders: one private panel per crew per turn, edited in place;
            # what only this crew may see goes into that panel, not into a message of its own
            labels = await self.boards.labels(result.row, locale)
            own = self._own_lines(result, seat, locale, labels) if on_panel else []
            if seat in after and set(after) == set(before):  # the order goes on: its next step
                if not on_panel:
                    await self.private_feedback(interaction, result, locale)
                else:
                    await self.push_private(result, skip=interaction.user.id)
                await self.send_panel(
                    interaction, result.row, game, result.state, seat, locale, edit=on_panel, lead=own
                )
                return await self.boards.confirmed(result)  # nothing public changed
            if set(after) < set(before):  # locked in; the others are still choosing
                await self._locked_in(interaction, result, locale, plocale, on_panel, lead=own)
                if not on_panel:
                    return await self.private_feedback(interaction, result, locale)
                return await self.push_private(result, skip=interaction.user.id)
        if not from_component:  # a slash command deferred ephemerally: its first followup fills that private reply
            await interaction.followup.send(t("discord.panel.done", locale), ephemeral=True)
        # the new board (with the ping) first, then the old one loses its buttons; what is
        # private still reaches its owners when Discord did not take the board (the outbox has it)
        # the board clicked (or the one a panel was opened from) is retired with the others
        also = (self._panel_board(interaction) if on_panel else clicked.id) if from_component and clicked else None
        shown = await self.boards.deliver(result, also=also)
        if on_panel:
            labels = await self.boards.labels(result.row, locale)
            own = self._own_lines(result, seat, locale, labels)
            try:
                done = "\n".join([*own, t("discord.panel.done", locale)])
                await interaction.edit_original_response(content=clip(done, 2000), view=None)
            except discord.HTTPException:
                pass
            await self.push_private(result, skip=interaction.user.id)
            if not shown:
                raise NotShown()
            return
        await self.private_feedback(interaction, result, locale)
        if not shown:
            raise NotShown()

    @staticmethod
    def _panel_board(interaction: discord.Interaction) -> int | None:
        """The public board a private panel was opened from (its id rides in the panel's custom ids)."""
        data = interaction.data
        return ids.panel_board(data.get("custom_id") if isinstance(data, dict) else None)

    async def _locked_in(
        self,
        interaction: discord.Interaction,
        result: TurnResult,
        locale: str,
        plocale: str,
        on_panel: bool,
        lead: Sequence[str] = (),
    ) -> None:
        """A crew locked in: its panel says so (edited in place), and the public
        board shows who has locked in and who is still choosing (edited, no ping)."""
        from cogs.kit.components import PanelButton

        # a way on once the turn has resolved: the button opens this crew's next decision
        button = t("discord.panel.next", locale)
        hint = t("discord.panel.next_hint", locale, button=button)
        text = clip("\n".join([*lead, t("core.ui.committed", locale), hint]), 2000)
        view = discord.ui.View(timeout=None)
        view.add_item(PanelButton(result.row.id, 0, label=button))
        seat = result.row.seat_of(interaction.user.id)
        for item in orders_button(result.row, result.game, result.state, seat, locale):
            view.add_item(item)  # arm orders while the others choose
        if on_panel:
            await interaction.edit_original_response(content=text, view=view)
        else:
            await interaction.followup.send(text, ephemeral=True, view=view)
        board = self._panel_board(interaction) if on_panel else None
        if board is None or await self.boards.update_board(result, board, plocale):
            await self.boards.confirmed(result)  # redrawn (or nothing public to redraw)
        else:
            await self.boards.not_shown(result)  # the outbox posts it anew

    async def _redraw_panel(self, interaction: discord.Interaction, gid: int, locale: str, why: str) -> bool:
        """The clicked private panel shows the clicker's choices as they are now (edited in
        place, ``why`` first); False when they have none now (then they are told why)."""
        try:
            loaded = await self.tables.load(gid)
        except TurnRefused:
            return False
        seat = loaded.row.seat_of(interaction.user.id)
        if seat is None or seat not in loaded.game.to_act(loaded.state):
            return False
        await self.send_panel(interaction, loaded.row, loaded.game, loaded.state, seat, locale, edit=True, lead=[why])
        return True

    async def _fresh_panel(self, interaction: discord.Interaction, gid: int, locale: str) -> None:
        """After a stale click, offer the clicker their current choices (if any)."""
        try:
            loaded = await self.tables.load(gid)
        except TurnRefused:
            return
        seat = loaded.row.seat_of(interaction.user.id)
        if seat and seat in loaded.game.to_act(loaded.state):
            await self.send_panel(interaction, loaded.row, loaded.game, loaded.state, seat, locale)

    async def send_panel(
        self,
        interaction: discord.Interaction,
        row: GameRow,
        game,
        state,
        seat: str,
        locale: str,
        *,
        edit: bool = False,
        board: int | None = None,
        lead: Sequence[str] = (),
    ) -> None:
        """The seat's current choices, privately to the clicker; ``edit``: in
        place of the panel that was clicked (one panel per decision)."""
        board = board if board is not None else self._panel_board(interaction)
        prompt, view = await self.boards.panel(row, game, state, interaction.user.id, locale, board=board)
        text = clip("\n".join([*lead, prompt]), 2000)
        if edit:
            await interaction.edit_original_response(content=text, view=view)
        else:
            await interaction.followup.send(text, ephemeral=True, view=view)

    async def on_panel(self, interaction: discord.Interaction, gid: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        remember(interaction.guild_id, interaction.user)
        locale = self.loc(interaction)
        loaded = await self.tables.load(gid, statuses=("active", "finished", "abandoned"))
        if not await at_table(interaction, loaded.row):
            return
        if loaded.row.status != "active":
            raise refusals.finished(loaded.row)
        seat = loaded.row.seat_of(interaction.user.id)
        if seat is None:
            raise refusals.not_seated(loaded.row, loaded.game, loaded.state)
        if seat not in loaded.game.to_act(loaded.state):
            raise refusals.not_your_turn(loaded.row, loaded.game, loaded.state)
        clicked = interaction.message
        if clicked is not None and clicked.flags.ephemeral:  # a locked-in panel's "Next decision": the table's board
            board = await self.boards.latest_board(loaded.row)
        else:
            board = clicked.id if clicked is not None else None
        await self.send_panel(interaction, loaded.row, loaded.game, loaded.state, seat, locale, board=board)

    async def on_private_view(self, interaction: discord.Interaction, gid: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self._private_view(interaction, gid=gid)

    async def _private_view(self, interaction: discord.Interaction, gid: int | None = None) -> None:
        locale = self.loc(interaction)
        if gid is None:
            loaded = await self.tables.load(channel_id=interaction.channel_id, statuses=("active",))
        else:
            loaded = await self.tables.load(gid, statuses=("active", "finished"))
        if not await at_table(interaction, loaded.row):
            return
        seat = loaded.row.seat_of(interaction.user.id)
        if seat is None:
            return await interaction.followup.send(t("core.ui.not_seated", locale), ephemeral=True)
        mine = await self.boards.private_view(loaded.row, loaded.game, loaded.state, interaction.user.id, locale)
        await interaction.followup.send(**mine, ephemeral=True)

    # -------------------------------------------------------- /game ...
    @game.command(
        name=ls("status", "discord.cmd.game.status"),
        description=ls("Show this channel's table again", "discord.cmd.game.status.desc"),
    )
    async def status(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        row = await self.tables.row(channel_id=interaction.channel_id)
        if row is None:
            return await self._last_finished(interaction, locale)
        g = get_game(row.game)
        if row.status == "lobby":
            await interaction.followup.send(t("core.ui.reposted", locale), ephemeral=True)
            plocale = await self.boards.public_locale_of(row)  # the lobby is public: the table's language
            view = lobby_components(row, g, plocale)
            await interaction.followup.send(embed=lobby_embed(row, g, plocale), view=view or discord.utils.MISSING)
            return
        loaded = await self.tables.load(row.id)
        plocale = await self.boards.public_locale_of(loaded.row)
        await interaction.followup.send(
            t("core.ui.reposted", locale) + "\n" + t("discord.table.language", locale, lang=language(plocale).name),
            ephemeral=True,
        )
        await self.show_again(interaction, TurnResult(loaded.row, loaded.game, loaded.state, []), plocale)

    async def _last_finished(self, interaction: discord.Interaction, locale: str) -> None:
        """No running table here: the channel's latest finished (or abandoned) one, privately:
        its result and final board, and where to see how it went (replay, log, export)."""
        loaded = await self.tables.log_table(channel_id(interaction))
        row = loaded.row
        head = t("play.status.last_finished", locale, id=row.id, game=game_name(row.game, locale))
        lines = [head]
        if loaded.game.outcome(loaded.state) is None and row.outcome:  # resigned: the reason is the row's
            reason = row.outcome.get("reason") or {}
            if isinstance(reason, dict) and isinstance(reason.get("key"), str):
                labels = await self.boards.labels(row, locale)
                lines.append(relabel(t(reason["key"], locale, **(reason.get("params") or {})), labels))
        turns = await self.tables.count_actions(row.id)
        lines.append(t("play.status.hints", locale, id=row.id, turns=turns))
        parts = await self.boards.message(
            TurnResult(row, loaded.game, loaded.state, []), locale, "\n".join(lines), live=False
        )
        await interaction.followup.send(**parts, ephemeral=True)

    @game.command(
        name=ls("view", "discord.cmd.game.view"),
        description=ls("Your own view of the table (your hand), privately", "discord.cmd.game.view.desc"),
    )
    async def view(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self._private_view(interaction)

    # ------------------------------------------------------------- /play
    @app_commands.command(
        name=ls("play", "discord.cmd.play"),
        description=ls("Make your move by name (autocomplete)", "discord.cmd.play.desc"),
    )
    @app_commands.describe(action=ls("One of your legal moves", "discord.arg.action"))
    @app_commands.guild_only()
    async def play(self, interaction: discord.Interaction, action: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        parsed = parse_chain(action)
        if parsed is None or not parsed[2]:
            return await interaction.followup.send(t("core.ui.bad_play", locale), ephemeral=True)
        gid, version, chain, _ = parsed
        row = await self.tables.row(channel_id=interaction.channel_id)
        if row is None:
            return await interaction.followup.send(t("discord.forged.play_no_table", locale), ephemeral=True)
        if row.id != gid:
            return await interaction.followup.send(t("discord.forged.play_other_table", locale, id=gid), ephemeral=True)
        await self._act(interaction, gid, version, chain, from_component=False)

    @play.autocomplete("action")
    async def play_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Legal choices only.  Picking one and going on typing extends a chain
        of this seat's decisions (e.g. a whole Thunder Road turn: die, car,
        command, each step of the path), simulated on a copy -- but never past
        a die roll, a shuffle or a reveal, which would show what is hidden."""
        locale = self.loc(interaction)
        try:
            loaded = await self.tables.load(channel_id=interaction.channel_id)
        except TurnRefused:
            return []
        game, state, row = loaded.game, loaded.state, loaded.row
        seat = row.seat_of(interaction.user.id)
        if seat is None or seat not in game.to_act(state):
            return []
        parsed = parse_chain(current)
        chain, needle = [], current.lower().strip()
        if parsed and parsed[0] == row.id and parsed[1] == row.version:
            chain, needle = parsed[2], parsed[3].lower().strip()
        shown = preview(game, state, seat, chain, locale)
        if not shown.valid:
            return []
        if shown.complete:  # the chain ends here: offer it as it stands
            name = " → ".join(shown.labels)
            return [
                app_commands.Choice(
                    name=clip("✔ " + name, 100) if len(name) < 98 else clip("✔ …" + name[-96:], 100),
                    value=chain_value(row.id, row.version, chain),
                )
            ]
        prefix = " → ".join(shown.labels)
        out = []
        for i, label in shown.options:
            if needle and needle not in label.lower():
                continue
            name = f"{prefix} → {label}" if prefix else label
            if len(name) > 100:
                name = "…" + name[-99:]
            value = chain_value(row.id, row.version, chain + [i])
            if len(value) > 100:
                break
            out.append(app_commands.Choice(name=name, value=value))
            if len(out) == 25:
                break
        return out

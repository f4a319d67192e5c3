"""History: ``/game catchup`` and the "Since your turn" button, ``/game log``,
``/game mine``, ``/game web``, ``/game export`` and ``/game replay``.
Refusals are raised, and answered by the one error hook (cogs/present/errors.py)."""

from __future__ import annotations

import io
import json

import discord
from discord import app_commands

from cogs.game.feature import TableFeature, channel_id, game
from cogs.kit.bound import at_table
from cogs.kit.locale import ls
from cogs.kit.reach import anywhere, bot_in_server
from cogs.present.catchupview import catchup_message
from cogs.present.ui import clip, event_lines, game_name, seat_tag
from engine.i18n import t
from store import UndoRow
from tables import LINK_SECONDS, Decision, clocks, decisions, escape, log_page, plain, said_by, secrecy, web_link


class History(TableFeature):
    @anywhere
    @game.command(
        name=ls("catchup", "play.cmd.game.catchup"),
        description=ls("What happened since your last decision, privately", "play.cmd.game.catchup.desc"),
    )
    @app_commands.describe(
        table=ls("The table's number (default: this channel's, else your most urgent)", "reach.arg.table")
    )
    async def catchup(
        self, interaction: discord.Interaction, table: app_commands.Range[int, 1, 2**53 - 1] | None = None
    ) -> None:
        """From anywhere (a DM, a server where only the member installed the bot): the table
        named, else this channel's where the bot is, else the member's most urgent table."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        if table is None and not bot_in_server(interaction):
            found = [row for row, seat, _ in await self.tables.mine(interaction.user.id, None) if seat is not None]
            running = [row for row in found if row.status == "active"]
            if not running:
                return await interaction.followup.send(t("reach.catchup.none", self.loc(interaction)), ephemeral=True)
            table = running[0].id
        await self._catchup(interaction, table, bound=False)

    @catchup.autocomplete("table")
    async def catchup_table_autocomplete(self, interaction: discord.Interaction, current: str):
        """The member's running tables in every server, most urgent first ("Thunder Road #12")."""
        locale = self.loc(interaction)
        found = await self.tables.mine(interaction.user.id, None)
        return [
            app_commands.Choice(name=plain(f"{game_name(row.game, locale)} #{row.id}", 100), value=row.id)
            for row, seat, _ in found
            if seat is not None and row.status == "active" and current.strip().lstrip("#") in str(row.id)
        ][:25]

    async def on_catchup(self, interaction: discord.Interaction, gid: int) -> None:
        """The board's "Since your turn" button: the clicker's own catch-up, privately."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self._catchup(interaction, gid)

    async def _catchup(self, interaction: discord.Interaction, gid: int | None, *, bound: bool = True) -> None:
        """``bound``: a click on a table's button, which acts only in that table's channel; a
        command may name any table the member sits at (what they see is their own seat's)."""
        locale = self.loc(interaction)
        if gid is None:
            loaded = await self.tables.load(channel_id=channel_id(interaction))
        else:
            loaded = await self.tables.load(gid)
        if gid is not None and bound and not await at_table(interaction, loaded.row):
            return
        if loaded.row.seat_of(interaction.user.id) is None:
            return await interaction.followup.send(t("play.catchup.not_seated", locale), ephemeral=True)
        found = await self.tables.catchup(loaded.row, loaded.game, loaded.state, interaction.user.id)
        labels = await self.boards.labels(loaded.row, locale)
        await interaction.followup.send(**await catchup_message(self.tables, found, locale, labels))

    @game.command(
        name=ls("log", "discord.cmd.game.log"),
        description=ls("Recent actions at this table", "discord.cmd.game.log.desc"),
    )
    @app_commands.describe(page=ls("Page (1 = the most recent)", "discord.arg.page"))
    async def log_(self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 1000] = 1) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        loaded = await self.tables.log_table(channel_id(interaction))
        per = 15  # decisions a page (a chain is one; its steps are in /game export)
        total = await self.tables.count_actions(loaded.row.id)
        seat = loaded.row.seat_of(interaction.user.id)
        log = await self.tables.actions(loaded.row.id, limit=total) if total else []
        # the steps this member may know of (no other crew's private steps: tables/seeing/secrecy.py),
        # and each undo where it happened: after the steps before the first it took back
        groups: list[Decision | UndoRow] = list(decisions(secrecy.visible(loaded.game, log, seat), seat))
        groups += await self.tables.undos(loaded.row.id)
        groups.sort(key=lambda g: g.first_action - 0.5 if isinstance(g, UndoRow) else g.steps[0].id)
        pages = max(1, -(-len(groups) // per))
        if not 1 <= page <= pages:  # Range is not enforced by discord.py: a forged page
            return await interaction.followup.send(t("discord.forged.page", locale, pages=pages), ephemeral=True)
        labels = await self.boards.labels(loaded.row, locale)
        shown: list[tuple[Decision, list[str]]] = []
        undone: dict[int, str] = {}  # position on the page -> its undo's line
        for d in log_page(groups, page, per):
            if isinstance(d, UndoRow):
                undone[len(shown) + len(undone)] = self._undo_line(loaded.row, d, labels, locale)
                continue
            evs = [e for a in d.steps for e in loaded.game.load_events(a.events)]
            # who took it, when not a person's click: the only choice, a timer, a league's deadline,
            # the reader's own standing order (another seat's reads as that member's decision)
            how = said_by(d.steps[0].by if d.by == "order" else d.by, locale)
            texts = event_lines(loaded.game, loaded.game.visible_events(evs, seat), locale, labels)
            texts = [x for x in texts if x]
            # the only choice is said after its step; a timer, a deadline or an order first (a long line is clipped)
            shown.append((d, texts + [how] if d.by == "auto" else [how, *texts] if how else texts))
        # a decision whose events say nothing to this reader: what was chosen, or that orders were given
        quiet = {k: d.steps for k, (d, texts) in enumerate(shown) if not texts}
        said = await self.tables.log_words(loaded.row, loaded.game, quiet, seat, locale, labels)
        lines: list[str] = []
        for k, (d, texts) in enumerate(shown):
            while len(lines) in undone:
                lines.append(clip(undone[len(lines)], 1900 // per))
            line = f"{seat_tag(loaded.row, labels, d.seat)}: " + ("; ".join(texts) or escape(said.get(k, ""), 1000))
            lines.append(clip(line, 1900 // per))  # every decision of the page shows
        while len(lines) in undone:
            lines.append(clip(undone[len(lines)], 1900 // per))
        head = t("core.ui.log_title", locale, id=loaded.row.id, page=page, pages=pages)
        body = "\n".join(lines) or t("core.ui.log_empty", locale)
        await interaction.followup.send(clip(f"{head}\n{body}", 2000), ephemeral=True)

    @staticmethod
    def _undo_line(row, undo: UndoRow, labels, locale: str) -> str:
        """ "↩ Taken back at Bob's request: his last move and everything after it (3 steps)"."""
        seat = row.seat_of(undo.by_user) if undo.by_user is not None else None
        who = seat_tag(row, labels, seat) if seat is not None else t("play.log.someone", locale)
        return t("play.log.undone", locale, user=who, steps=undo.steps)

    # ---------------------------------------------------------- history
    @game.command(
        name=ls("mine", "discord.cmd.game.mine"),
        description=ls("Tables in this server waiting for you", "discord.cmd.game.mine.desc"),
    )
    async def mine(self, interaction: discord.Interaction) -> None:
        await self._mine(interaction, interaction.guild_id)

    @app_commands.command(
        name=ls("mygames", "reach.cmd.mygames"),
        description=ls("Your tables in every server, privately, from anywhere", "reach.cmd.mygames.desc"),
    )
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.allowed_installs(guilds=True, users=True)
    async def mygames(self, interaction: discord.Interaction) -> None:
        await self._mine(interaction, None)

    async def _mine(self, interaction: discord.Interaction, guild_id: int | None) -> None:
        """The member's tables (in ``guild_id``, or in every server: then each names its
        server where the bot knows it), most urgent first, privately."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        lines = []
        # most urgent first: the tables waiting on the member, soonest time bank / timer first
        for row, seat, deadline in await self.tables.mine(interaction.user.id, guild_id):
            link = f"https://discord.com/channels/{row.guild_id}/{row.channel_id}"
            if row.status == "lobby":
                state = t("core.ui.mine_lobby", locale)
            elif seat in row.to_act:
                state = t("core.ui.mine_waiting", locale)
                if deadline is not None:
                    state += " — " + t("asyncplay.mine_deadline", locale, when=clocks.discord_time(deadline))
            else:
                state = t("core.ui.mine_others", locale)
            server = self.bot.get_guild(row.guild_id) if guild_id is None and row.guild_id else None
            where = f" — {escape(server.name, 100)}" if server is not None else ""
            lines.append(f"**{game_name(row.game, locale)}** #{row.id}{where} — {state} — {link}")
        text = "\n".join(lines) or t("core.ui.mine_none", locale)
        await interaction.followup.send(clip(text, 2000), ephemeral=True)

    @game.command(
        name=ls("web", "web.cmd.game.web"),
        description=ls("This table on the web, and your private link to your own view", "web.cmd.game.web.desc"),
    )
    async def web(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        base = self.services.web_url
        if not base:
            return await interaction.followup.send(t("web.link.off", locale), ephemeral=True)
        row = await self.tables.row(channel_id=interaction.channel_id)
        if row is None:
            row = await self.tables.last_ended(channel_id(interaction))
        lines = []
        if row is not None:
            lines.append(t("web.link.public", locale, url=web_link(base, row.id)))
        # the member's own link: signed, single use, short-lived, given to them alone
        token = await self.tables.link_token(
            interaction.user.id, row.id if row is not None and row.seat_of(interaction.user.id) else None
        )
        url = f"{base.rstrip('/')}/signin/{token}"
        lines.append(t("web.link.private", locale, minutes=LINK_SECONDS // 60, url=url))
        await interaction.followup.send("\n".join(lines), ephemeral=True)

    @game.command(
        name=ls("export", "discord.cmd.game.export"),
        description=ls("Seed and action log of a finished table, as JSON", "discord.cmd.game.export.desc"),
    )
    @app_commands.describe(table=ls("Table number (default: this channel's latest)", "discord.arg.table"))
    async def export(self, interaction: discord.Interaction, table: int | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        row = await self.tables.finished_table(interaction.guild_id, channel_id(interaction), table)
        data = await self.tables.export_data(row)
        blob = json.dumps(data, ensure_ascii=False, indent=1).encode()
        await interaction.followup.send(
            t("core.ui.export_ready", locale, id=row.id),
            ephemeral=True,
            file=discord.File(io.BytesIO(blob), filename=f"table-{row.id}.json"),
        )

    @game.command(
        name=ls("replay", "discord.cmd.game.replay"),
        description=ls("The board of a finished table at any turn", "discord.cmd.game.replay.desc"),
    )
    @app_commands.describe(
        table=ls("Table number (default: this channel's latest)", "discord.arg.table"),
        turn=ls("Turn (0 = the start; default: the end)", "discord.arg.turn"),
    )
    async def replay(self, interaction: discord.Interaction, table: int | None = None, turn: int | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        row = await self.tables.finished_table(interaction.guild_id, channel_id(interaction), table)
        if turn is not None:  # Range is not enforced by discord.py: a forged turn is refused, not clamped
            turns = await self.tables.count_actions(row.id)
            if not 0 <= turn <= turns:
                return await interaction.followup.send(t("discord.forged.turn", locale, turns=turns), ephemeral=True)
        g, state, n, total = await self.tables.replay_state(row, turn)
        # the players' names and seat colours, never seat ids
        await interaction.followup.send(
            **await self.boards.replay_message(row, g, state, n, total, locale), ephemeral=True
        )

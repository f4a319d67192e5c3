"""Seats: ``/game undo`` and ``/game handover`` (at once, or by a table vote),
the vote buttons, and ``/game resign``.  Refusals are raised, and answered by
the one error hook (cogs/present/errors.py)."""

from __future__ import annotations

import discord
from discord import app_commands

from cogs.game.feature import TableFeature, game, is_admin
from cogs.kit.inputs import check_id, echo
from cogs.kit.locale import ls
from cogs.present.ui import allowed_mentions, clip, seat_tag
from cogs.present.vote_posts import shown
from engine.i18n import t
from tables import TurnRefused


class Seats(TableFeature):
    @game.command(
        name=ls("undo", "discord.cmd.game.undo"),
        description=ls("Take back your last move", "discord.cmd.game.undo.desc"),
    )
    async def undo(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        loaded = await self.tables.load(channel_id=interaction.channel_id)
        res = await self.tables.undo(loaded.row.id, interaction.user.id)
        plocale = await self.public_locale(interaction, loaded.row)
        if res.done is not None:
            await interaction.followup.send(t("core.done.undone", locale), ephemeral=True)
            return await self.post_board(interaction, res.done, retire=True)
        assert res.vote is not None
        await interaction.followup.send(t("core.ui.vote_started", locale), ephemeral=True)
        await interaction.followup.send(
            t(
                "play.vote.undo",
                plocale,
                user=interaction.user.mention,
                voters=" ".join(f"<@{u}>" for u in res.vote.voters),
            ),
            view=self.vote_view(res.vote.vote.id, plocale),
            allowed_mentions=allowed_mentions(res.vote.voters),
        )
        await shown(self.boards, res.vote.vote.id)

    async def on_vote(self, interaction: discord.Interaction, vid: int, yes: bool) -> None:
        await interaction.response.defer()
        locale = self.loc(interaction)
        vote = await self.tables.vote(vid) if check_id(vid) is not None else None  # a forged id may be any size
        if vote is not None and not await self.here(interaction, vote.game_id):
            return
        plocale = await self.public_locale(interaction, vote.game_id if vote is not None else None)
        res = await self.tables.ballot(vid, interaction.user.id, yes)
        if res.status == "expired":
            await self.close_vote_message(interaction, t("play.vote.closed_expired", plocale))
            if res.reason in ("ended", "decided_again", "gone"):  # an undo vote says why it no longer applies
                return await self.refuse(
                    interaction, f"play.vote.expired_{res.reason}", user=f"<@{res.vote.payload.get('user')}>"
                )
            return await self.refuse(interaction, "core.ui.vote_expired")
        if res.status == "refused":
            await self.close_vote_message(
                interaction, t("play.vote.closed_refused", plocale, user=interaction.user.mention)
            )
            return await interaction.followup.send(
                t("core.ui.vote_refused", plocale, user=interaction.user.mention),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        if res.status == "counted":
            text = t("core.ui.vote_counted", locale, n=res.yes, needed=res.needed)
            if res.waiting:  # an undo vote: whose consent is still missing
                text += "\n" + t("play.vote.waiting", locale, who=" ".join(f"<@{u}>" for u in res.waiting))
            return await interaction.followup.send(
                text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
            )
        assert res.result is not None
        await self.close_vote_message(interaction, t("play.vote.closed_passed", plocale))
        await self.post_board(interaction, res.result, retire=True)

    @staticmethod
    async def close_vote_message(interaction: discord.Interaction, outcome: str) -> None:
        """A decided vote's message keeps its question, says how the vote ended (passed,
        failed, expired) and loses its buttons, so a member who was not asked sees why
        the table changed (or did not)."""
        question = interaction.message.content if interaction.message is not None else ""
        text = clip(f"{question}\n**{outcome}**" if question else f"**{outcome}**", 2000)
        try:
            await interaction.edit_original_response(
                content=text, view=None, allowed_mentions=discord.AllowedMentions.none()
            )
        except discord.HTTPException:
            pass  # the buttons stay; a later click is answered "closed"

    @game.command(
        name=ls("handover", "discord.cmd.game.handover"),
        description=ls("Give a seat to another member or the AI (host, or by vote)", "discord.cmd.game.handover.desc"),
    )
    @app_commands.describe(
        seat=ls("Whose seat (pick a player)", "discord.arg.seat"),
        member=ls("Who takes it (leave empty for the AI)", "discord.arg.member"),
    )
    async def handover(self, interaction: discord.Interaction, seat: str, member: discord.Member | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        loaded = await self.tables.load(channel_id=interaction.channel_id)
        if seat not in [s.seat for s in loaded.row.seats]:
            return await interaction.followup.send(
                t("core.error.unknown_seat", locale, seat=echo(seat)), ephemeral=True
            )
        to = member.id if member else None
        if member is not None and member.bot:
            return await interaction.followup.send(t("core.ui.already_seated", locale), ephemeral=True)
        plocale = await self.public_locale(interaction, loaded.row)
        res = await self.tables.handover(loaded.row.id, interaction.user.id, seat, to, admin=is_admin(interaction))
        if res.done is not None:
            await interaction.followup.send(t("core.done.handed_over", locale), ephemeral=True)
            return await self.post_board(interaction, res.done, retire=True)
        assert res.vote is not None
        opened = res.vote
        text = t(
            "core.ui.handover_vote",
            plocale,
            user=interaction.user.mention,
            seat=seat_tag(loaded.row, await self.boards.labels(loaded.row, plocale), seat),
            who=f"<@{to}>" if to else t("core.ui.ai", plocale),
            voters=" ".join(f"<@{u}>" for u in opened.voters),
        )
        if opened.owner is not None:  # the owner hears about a vote on their seat, and may refuse it
            text += "\n" + t(
                "discord.table.owner_may_refuse", plocale, owner=f"<@{opened.owner}>", needed=opened.needed
            )
        await interaction.followup.send(t("core.ui.vote_started", locale), ephemeral=True)
        await interaction.followup.send(
            text,
            view=self.vote_view(opened.vote.id, plocale),
            allowed_mentions=allowed_mentions([*opened.voters, to, opened.owner]),
        )
        await shown(self.boards, opened.vote.id)

    @handover.autocomplete("seat")
    async def handover_seat_autocomplete(self, interaction: discord.Interaction, current: str):
        """The table's seats by their players' names (the value is the seat id the service knows)."""
        try:
            row = await self.tables.row(channel_id=interaction.channel_id)
        except TurnRefused:
            return []
        if row is None:
            return []
        labels = await self.boards.labels(row, self.loc(interaction))
        needle = current.lower().strip()
        return [
            app_commands.Choice(name=clip(lab.name, 100), value=seat)
            for seat, lab in labels.items()
            if not needle or needle in lab.name.lower() or needle == seat
        ][:25]

    @game.command(
        name=ls("resign", "discord.cmd.game.resign"),
        description=ls("Leave this table (the AI takes your seat)", "discord.cmd.game.resign.desc"),
    )
    async def resign(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        loaded = await self.tables.load(channel_id=interaction.channel_id)
        result = await self.tables.resign(loaded.row.id, interaction.user.id)
        await interaction.followup.send(t("core.done.resigned", locale), ephemeral=True)
        await self.post_board(interaction, result, retire=True)

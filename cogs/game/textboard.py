"""The board in words, one click away for a screen reader: the board message's "Text
board" button answers the clicker privately with the board as text (tables/seeing/describe.py:
the same words as the image's description, with the latest moves and the choices)."""

from __future__ import annotations

import discord

from cogs.game.feature import TableFeature
from cogs.kit.bound import at_table
from cogs.present.ui import allowed_mentions


class TextBoards(TableFeature):
    async def on_text_board(self, interaction: discord.Interaction, gid: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        loaded = await self.tables.load(gid, statuses=("active", "finished"))
        if not await at_table(interaction, loaded.row):
            return
        text = await self.boards.text_board(loaded.row, loaded.game, loaded.state, interaction.user.id, locale)
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=allowed_mentions())

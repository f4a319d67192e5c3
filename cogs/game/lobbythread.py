"""The lobby's "Play in a thread" (issue 20 item 10): the host (or an admin) moves a
waiting table into a thread opened on its lobby message, so its boards stay out of the
channel.  A server makes threads the default per game (``/settings threads``; then
``/game new`` opens the thread itself and the lobby offers no second move).

Order: may this member move it now (the table service), the server's thread limits,
the thread, the move (compare-and-swap: a lobby that started or closed meanwhile keeps
its place and the thread is removed again), the lobby shown in the thread, the old
lobby message pointing to it without buttons."""

from __future__ import annotations

import logging

import discord

from cogs.present.lobby_view import lobby_components, lobby_embed
from cogs.present.ui import clip, game_name
from engine import get_game
from engine.i18n import t
from tables import TableService, TurnRefused

log = logging.getLogger("tabletop.lobby")


async def to_thread(interaction: discord.Interaction, tables: TableService, gid: int, locale: str, admin: bool) -> None:
    """Move lobby ``gid`` into a thread on the clicked lobby message (the interaction is
    deferred); raises :class:`TurnRefused` (nothing changed) to tell the member why not."""
    user = interaction.user.id
    message, channel = interaction.message, interaction.channel
    if message is None or not isinstance(channel, discord.TextChannel):  # already in a thread (or a forum post)
        raise TurnRefused("in_thread", "lobby.thread.already")
    row = await tables.to_thread(gid, user, None, admin=admin)
    claimed = await tables.claim_thread(interaction.guild_id, user)
    try:
        thread = await message.create_thread(name=clip(game_name(row.game, locale), 90))
    except discord.HTTPException:
        await tables.release_thread(user, claimed)
        raise TurnRefused("no_thread", "core.ui.no_thread") from None
    try:
        row = await tables.to_thread(gid, user, thread.id, admin=admin)
    except TurnRefused:  # the lobby started or closed meanwhile: it stays where it is
        try:
            await thread.delete()
        except discord.HTTPException:
            log.warning("lobby %s: an unused thread %s could not be removed", gid, thread.id)
        await tables.release_thread(user, claimed)
        raise
    game = get_game(row.game)
    embed, view = lobby_embed(row, game, locale), lobby_components(row, game, locale)
    assert view is not None  # a lobby has its buttons
    try:
        posted = await thread.send(embed=embed, view=view, allowed_mentions=discord.AllowedMentions.none())
        await tables.lobby_posted(row.id, posted.id)
    except discord.HTTPException as exc:  # moved: /game status in the thread shows it again
        log.warning("lobby %s: moved to thread %s, not shown there (%s)", gid, thread.id, exc)
    try:
        await interaction.edit_original_response(
            content=t("lobby.thread.moved", locale, thread=thread.mention), embed=embed, view=None
        )
    except discord.HTTPException:
        pass

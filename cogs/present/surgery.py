"""Message surgery: a superseded board loses its buttons and its "your turn" line (its
picture and text stay), found by the table ids its components carry."""

from __future__ import annotations

import logging
from typing import Any

import aiohttp
import discord

from cogs.kit.ids import table_of
from cogs.kit.names import DiscordNames
from cogs.present.ui import TURN_TEXT_ID
from store import GameRow

log = logging.getLogger("tabletop.boards")


def stripped(message: discord.Message) -> discord.ui.LayoutView | None:
    """A V2 board without its action rows and its "your turn" text (its picture and
    the rest of its text stay); None
    for a classic message (then ``view=None`` removes its components)."""
    if not message.flags.components_v2:
        return None
    view = discord.ui.LayoutView.from_message(message, timeout=None)
    names = {a.url.split("?")[0]: a.filename for a in message.attachments}
    for top in list(view.children):
        if isinstance(top, discord.ui.ActionRow):
            view.remove_item(top)
        elif isinstance(top, discord.ui.Container):
            for child in list(top.children):
                if isinstance(child, discord.ui.ActionRow) or child.id == TURN_TEXT_ID:
                    top.remove_item(child)  # its buttons, and whose turn it was (a newer board says)
                elif isinstance(child, discord.ui.MediaGallery):
                    # the message's own image: named again as attachment:// (its CDN address expires)
                    items = list(child.items)
                    child.clear_items()
                    for item in items:
                        name = names.get(item.media.url.split("?")[0])
                        url = f"attachment://{name}" if name else item.media.url
                        child.add_item(media=url, description=item.description, spoiler=item.spoiler)
    return view


def owns_table(message: discord.Message, gid: int) -> bool:
    """Whether a message carries live components of table ``gid``."""
    ids: list[str] = []

    def walk(components) -> None:
        for c in components or ():
            cid = getattr(c, "custom_id", None)
            if cid:
                ids.append(cid)
            walk(getattr(c, "children", None))
            acc = getattr(c, "accessory", None)
            if acc is not None:
                walk([acc])

    walk(message.components)
    return any(table_of(cid) == gid for cid in ids)


class Surgery(DiscordNames):
    """Retiring boards a newer one replaced."""

    # ---------------------------------------------------- superseded boards
    async def retire_message(self, message: discord.Message | None, *, edit=None) -> None:
        """A board that is no longer the table's current one keeps its picture
        and text and loses its buttons (``edit``: the interaction's edit, else
        the message's own)."""
        if message is None:
            return
        view = stripped(message)
        edit = edit or message.edit
        await edit(view=view, allowed_mentions=discord.AllowedMentions.none())  # an edit notifies nobody: say so

    async def latest_board(self, row: GameRow, look_back: int = 20) -> int | None:
        """The table's newest public board that still has its buttons (None: none found)."""
        channel = await self.channel_of(row)
        me = self.client.user
        if channel is None or me is None:
            return None
        try:
            async for message in channel.history(limit=look_back):
                if message.author.id == me.id and owns_table(message, row.id):
                    return message.id
        except discord.HTTPException:
            log.info("table %s: its board could not be found", row.id)
        return None

    async def retire_table(self, row: GameRow, look_back: int = 50, keep: int | None = None) -> int:
        """Every recent message of this table in its channel (but ``keep``) loses its
        buttons (a finished or abandoned table, a board posted anew); returns how many
        were edited."""
        channel = await self.channel_of(row)
        if channel is None:
            return 0
        me = self.client.user
        n = 0
        try:
            async for message in channel.history(limit=look_back):
                if message.id == keep:
                    continue
                if me is not None and message.author.id == me.id and owns_table(message, row.id):
                    await self.retire_message(message)
                    n += 1
        except discord.HTTPException:
            log.info("table %s: old boards could not all be retired", row.id)
        return n

    async def retire_others(self, row: GameRow, keep: int, also: int | None = None, look_back: int = 15) -> bool:
        """Every recent message of table ``row`` but ``keep`` (and ``also``, wherever it is)
        loses its buttons.  False when Discord could not be asked or refused an edit for
        a reason other than the message being gone (try again later)."""
        channel = await self.channel_of(row)
        if channel is None:
            return True  # no channel: nothing is live
        me = self.client.user
        seen: set[int] = set()
        try:
            async for message in channel.history(limit=look_back):
                seen.add(message.id)
                if message.id != keep and me is not None and message.author.id == me.id and owns_table(message, row.id):
                    await self._retire_gone_ok(message)
            if also is not None and also != keep and also not in seen:
                try:
                    message = await channel.fetch_message(also)
                except (discord.NotFound, discord.Forbidden):
                    return True
                if owns_table(message, row.id):
                    await self._retire_gone_ok(message)
        except (discord.DiscordServerError, discord.RateLimited, aiohttp.ClientError, OSError, TimeoutError) as exc:
            log.info("table %s: older boards not all retired yet (%s: %s)", row.id, type(exc).__name__, exc)
            return False  # Discord unreachable or failing: the scheduler tries again
        except discord.HTTPException as exc:  # refused (no permission to read the channel): trying again won't help
            log.warning("table %s: older boards cannot be retired (%s: %s)", row.id, type(exc).__name__, exc)
        return True

    async def _retire_gone_ok(self, message: discord.Message) -> None:
        try:
            await self.retire_message(message)
        except (discord.NotFound, discord.Forbidden):
            pass  # deleted meanwhile, or no longer ours to edit: nothing live is left of it

    @staticmethod
    def edit_kwargs(parts: dict[str, Any]) -> dict[str, Any]:
        return {"view": parts["view"], "attachments": [parts["file"]], "allowed_mentions": parts["allowed_mentions"]}

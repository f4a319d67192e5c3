"""Posting boards: shared by the cogs that tell a channel about a table
(turns, timers, votes).  Not a cog itself, so cogs never reach each other.

Every board message is built here, by :meth:`Boards.message` (Components V2,
see :func:`cogs.present.ui.board_view`): the first board, each turn, a redraw in
place, a repost after a failed edit, a timer's move, a vote's result.  What a
committed change owes the channel is posted by :meth:`Boards.deliver` (the
outbox: store/base.py), from the interaction at once or later by the scheduler.
"""

from __future__ import annotations

import io
import logging
import time
from collections.abc import Sequence
from typing import Any

import aiohttp
import discord

from cogs.kit.ids import table_of
from cogs.kit.locale import failure_key
from cogs.kit.services import Services
from cogs.present.clockview import bank_lines
from cogs.present.private_posts import push_private
from cogs.present.reposts import already_posted, post_owed
from cogs.present.ui import (
    TURN_TEXT_ID,
    action_view,
    allowed_mentions,
    board_file,
    board_link,
    board_view,
    clip,
    offered,
    public_prompt,
    relabel,
    seat_labels,
    seat_tag,
    where,
)
from engine.base import BaseState, Event, Game, SeatLabel
from engine.i18n import t
from store import GameRow, landed
from tables import TableService, TurnRefused, TurnResult, delivery_nonce
from tables.board import Board, web_link
from tables.pings import board_pings
from tables.text import escape

log = logging.getLogger("tabletop.boards")

#: display names seen lately: (guild id, user id) -> (name, when); names change rarely
_NAMES: dict[tuple[int, int], tuple[str, float]] = {}
#: each member's language, as their last interaction gave it (for messages sent them unasked)
_LOCALES: dict[int, str] = {}
NAME_TTL = 900.0


def remember(guild_id: int | None, user: discord.abc.User, locale: str | None = None) -> None:
    """Note a member's display name (every interaction carries it, fresh) and language."""
    if len(_NAMES) > 10_000:
        _NAMES.clear()
        _LOCALES.clear()
    if guild_id is not None:
        _NAMES[(guild_id, user.id)] = (user.display_name, time.monotonic())
    if locale:
        _LOCALES[user.id] = locale


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


async def truth_key(tables: TableService, error: BaseException | None = None) -> str:
    """The catalog key that tells a member the truth after an unexpected failure
    ``error`` in their interaction: nothing was changed (:func:`cogs.kit.locale.failure_key`:
    our fault, or the database unavailable); or their change was saved (a move counts,
    and its board goes out through the outbox: the scheduler takes it at once); or
    whether it was saved is not known (the database stopped answering during the
    commit).  ``store.landed()`` says what this interaction's last commit did."""
    state = landed()
    if state is None:
        return failure_key(error)
    if state[0] == "unknown":
        return "discord.table.commit_unknown"
    gid, version = state[1], state[2]
    if gid is None or version is None:
        return "discord.table.saved_not_shown"
    try:
        if not await tables.still_owed(gid, version):
            return "discord.table.saved_not_shown"
        await tables.delivery_failed(gid, version)  # the scheduler posts it after the first wait
    except Exception:  # noqa: BLE001 -- the store is down too: the lease runs out on its own
        log.warning("table %s: outbox not updated after a failure", gid)
    return "discord.table.saved_pending"


class Boards:
    def __init__(self, client: discord.Client, services: Services) -> None:
        self.client = client
        self.services = services

    @property
    def tables(self) -> TableService:
        return self.services.tables

    async def public_locale_of(self, row: GameRow) -> str:
        """A table's public language, fixed when it was opened (the server's
        setting then, else the host's locale); older tables without one: the
        server's setting now, else the bot's default."""
        if row.locale:
            return row.locale
        settings = await self.services.settings.guild(row.guild_id)
        return settings.get("language") or self.services.default_locale

    async def channel_of(self, row: GameRow):
        channel = self.client.get_channel(row.channel_id)
        if channel is None:
            try:
                channel = await self.client.fetch_channel(row.channel_id)
            except discord.HTTPException:
                log.warning("channel %s of table %s is gone", row.channel_id, row.id)
                return None
        return channel

    # ------------------------------------------------------------ names
    async def name_of(self, guild_id: int | None, user_id: int) -> str | None:
        now = time.monotonic()
        if guild_id is not None:
            hit = _NAMES.get((guild_id, user_id))
            if hit is not None and now - hit[1] < NAME_TTL:
                return hit[0]
            guild = self.client.get_guild(guild_id)
            member = guild.get_member(user_id) if guild is not None else None
            if member is None and guild is not None:
                try:
                    member = await guild.fetch_member(user_id)
                except discord.HTTPException:
                    member = None
            if member is not None:
                remember(guild_id, member)
                return member.display_name
            if hit is not None:
                return hit[0]
        user = self.client.get_user(user_id)
        return user.display_name if user is not None else None

    async def language_of(self, uid: int) -> str | None:
        """A member's language: their stored preference, else their last interaction's."""
        return await self.services.members.of(uid) or _LOCALES.get(uid)

    async def labels(self, row: GameRow, locale: str) -> dict[str, SeatLabel]:
        """Every seat's display name and stable colour (AI seats named as the AI)."""
        names = {}
        for uid in row.humans:
            name = await self.name_of(row.guild_id, uid)
            if name:
                names[uid] = name
        try:  # the names this board shows, for every process's pages (one write only when one changed)
            await self.tables.names.fill(row.guild_id, names)
        except Exception as exc:  # noqa: BLE001 -- a board is drawn even when the store cannot take a name
            log.warning("table %s: names not stored: %s", row.id, exc)
        return seat_labels(row, names, locale)

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
        :func:`tables.board.board` with the members' display names and markdown-safe texts."""
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
        pings = board_pings(result, b.to_act, live=live)  # tables/pings.py: the one place pings are decided
        return {"view": view, "file": board_file(png), "allowed_mentions": allowed_mentions(pings)}

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
        # the panel carries its seat's choice token: other seats' moves leave it live (tables/panels.py)
        token = await self.tables.panel_token(row, game, state, b.viewer_seat) if b.choices and b.viewer_seat else None
        return b.prompt or "", action_view(row, game, offered(b.choices), locale, board=board, ver=token)

    async def private_view(self, row: GameRow, game: Game, state: BaseState, user_id: int, locale: str) -> dict:
        """ "My view": the member's own view of the board (their hand), privately."""
        b = await self.board(row, user_id, locale, state=(game, state))
        seat = b.viewer_seat or ""
        assert b.image is not None
        png = await b.image(marked=False)
        text = t("core.ui.your_view", locale, seat=escape(b.label(seat)) if b.player(seat) else seat)
        if b.private is not None:
            text += "\n" + b.private
        return {"content": clip(text, 2000), "file": discord.File(io.BytesIO(png), filename="view.png")}

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
        return {"embed": embed, "file": board_file(await b.image())}

    def add_web_link(self, view: discord.ui.LayoutView, row: GameRow, locale: str) -> None:
        """A link button to the table's page on the web companion (when it has a public URL)."""
        url = web_link(self.services.web_url, row.id)
        box = next((c for c in view.children if isinstance(c, discord.ui.Container)), None)
        if url is None or box is None:
            return
        box.add_item(discord.ui.ActionRow(discord.ui.Button(label=t("web.link.button", locale), url=url, emoji="🌐")))

    async def cached_names(self, guild_id: int | None, members: Sequence[int]) -> dict[int, str]:
        """Display names the bot already knows (for the web companion: no Discord request per page view)."""
        now = time.monotonic()
        out: dict[int, str] = {}
        guild = self.client.get_guild(guild_id) if guild_id is not None else None
        for uid in members:
            hit = _NAMES.get((guild_id, uid)) if guild_id is not None else None
            member = guild.get_member(uid) if guild is not None else None
            if hit is not None and now - hit[1] < NAME_TTL:
                out[uid] = hit[0]
            elif member is not None:
                out[uid] = member.display_name
            elif hit is not None:
                out[uid] = hit[0]
            elif (user := self.client.get_user(uid)) is not None:
                out[uid] = user.display_name
        return out

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

    # ------------------------------------------------------------ notes
    async def note_text(self, result: TurnResult, locale: str) -> str | None:
        """The notices a change owes the channel with its board (``TurnResult.notes``,
        recorded by the table service), worded in ``locale``; the members they are
        about are mentioned (and pinged with the board)."""
        lines = []
        for n in result.notes:
            kind, user = n.get("note"), n.get("user")
            if kind == "timeout":
                key = "core.ui.timed_out"
                if n.get("bank"):  # a time bank ran out
                    key = "asyncplay.expired_ai" if n.get("policy") == "ai" else "asyncplay.expired_default"
                seats = [(str(s), int(u)) for s, u in n.get("seats") or []]
                lines.append(await self.timeout_note(result, seats, key, locale))
            elif kind == "undone" and "agreed" in n:  # a passed vote: at whose request, who agreed, how much
                agreed = " ".join(f"<@{u}>" for u in n.get("agreed") or []) or "-"
                lines.append(t("play.vote.undone", locale, user=f"<@{user}>", agreed=agreed, steps=n.get("steps", 0)))
            elif kind == "undone":
                lines.append(t("core.ui.undone", locale, user=f"<@{user}>"))
            elif kind == "handover":
                lines.append(
                    await self.handover_note(result, str(n.get("seat")), n.get("to"), locale, n.get("previous"))
                )
            elif kind == "resigned":
                line = t("core.ui.resigned", locale, user=f"<@{user}>")
                lines.append(line + " " + t("core.ui.table_closed", locale) if n.get("closed") else line)
            elif kind == "abandoned":
                lines.append(t("core.ui.abandoned", locale, id=result.row.id, user=f"<@{user}>"))
        return clip("\n".join(lines), 1500) if lines else None

    async def handover_note(
        self, result: TurnResult, seat: str, to: int | None, locale: str, previous: int | None = None
    ) -> str:
        """ "🟦 Bob's seat in Thunder Road #12 now belongs to @Carol": the seat named by whoever
        held it before (``previous``; None: the AI), the new owner pinged."""
        import dataclasses

        row = result.row
        before = dataclasses.replace(
            row, seats=[dataclasses.replace(s, user_id=previous) if s.seat == seat else s for s in row.seats]
        )
        labels = await self.labels(before, locale)
        who = f"<@{to}>" if to else t("core.ui.ai", locale)
        at = where(result.row, result.game, None, locale, labels)
        return t("discord.ping.handed_over", locale, seat=seat_tag(before, labels, seat), who=who, where=at)

    # ------------------------------------------------------------ outbox
    async def confirmed(self, result: TurnResult) -> None:
        """The change was shown another way (a board redrawn in place, a private panel):
        the outbox forgets it.  A store that fails now is only logged: the lease runs out
        and the board is posted by the scheduler."""
        try:
            await self.tables.delivered(result.row.id, result.row.version)
        except Exception as exc:  # noqa: BLE001
            log.warning("table %s: shown, outbox not cleared (%s: %s)", result.row.id, type(exc).__name__, exc)

    async def not_shown(self, result: TurnResult) -> None:
        """The change could not be shown another way: the scheduler posts its board soon."""
        try:
            await self.tables.delivery_failed(result.row.id, result.row.version)
        except Exception as exc:  # noqa: BLE001 -- the lease runs out on its own
            log.warning("table %s: outbox not updated (%s: %s)", result.row.id, type(exc).__name__, exc)

    async def deliver(self, result: TurnResult, *, retire: bool = True, also: int | None = None) -> bool:
        """Show a committed change in its table's channel: the board (with its pings
        and the change's notices) or, for a table that ended without one, the notices.
        Posted with the board's own nonce (``enforce_nonce``), so a repeat -- a retry
        after a lost reply, another process -- gives back the first message and pings
        nobody twice.  Confirmed: the outbox forgets it.  Refused or failed: the outbox
        keeps it and the scheduler tries again after the backoff.  Nothing to do (True)
        when a newer change owes a newer board or this one was shown already (a
        superseded board is never posted).  ``retire``: the table's older boards
        lose their buttons once this one is posted (exactly one live board per table:
        ``also``, the board the change was made from, if it is older than the recent
        messages looked at); the outbox forgets the change only then, so a Discord
        outage between the post and the retirement is finished by the scheduler, which
        never posts a board twice (cogs/present/reposts.py).  Never raises; False: not shown."""
        row = result.row
        try:
            owed = await self.tables.owed_now(row.id, row.version)
            if owed is None:
                return True
            channel: Any = self.client.get_channel(row.channel_id)
            if channel is None:
                try:
                    channel = await self.client.fetch_channel(row.channel_id)
                except (discord.NotFound, discord.Forbidden):  # the channel is gone: nobody can be shown it
                    log.warning("table %s: channel %s is gone; its board is dropped", row.id, row.channel_id)
                    await self.tables.delivered(row.id, row.version)
                    return False
            sent_id = owed.message_id  # posted by an earlier try: never again (cogs/present/reposts.py)
            if sent_id is None and owed.attempts > 0 and result.kind != "notice":
                sent_id = await already_posted(self.client, channel, row.id, row.version)
            if sent_id is None:
                sent_id = await post_owed(self, channel, result)
        except Exception as exc:  # Discord down or refusing, the store unreachable, a render failing
            try:
                await self.tables.delivery_failed(row.id, row.version)
            except Exception:  # noqa: BLE001 -- the lease runs out and the scheduler takes it
                log.warning("table %s: outbox not updated after a failed delivery", row.id)
            log.warning(
                "table %s: the board of version %s was not shown (%s: %s); the scheduler will try again",
                row.id,
                row.version,
                type(exc).__name__,
                exc,
            )
            return False
        retired = not retire or await self.retire_others(row, sent_id, also)
        try:
            if retired:
                await self.tables.delivered(row.id, row.version)
            else:  # posted, an older board still live: the scheduler finishes it
                await self.tables.delivery_failed(row.id, row.version)
        except Exception:  # noqa: BLE001 -- posted; a repeat gives back the same message (nonce)
            log.warning("table %s: board %s posted, outbox not updated", row.id, row.version)
        return True

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

    # ------------------------------------------------------------ pings
    async def reminder_text(self, row: GameRow, users: list[int], hours: int) -> str:
        """ "@name, Thunder Road #12 (round 3) is waiting for you (5 h so far): move a car <link>"."""
        locale = await self.public_locale_of(row)
        try:
            loaded = await self.tables.load(row.id)
        except TurnRefused:
            return t("core.ui.reminder", locale, users=" ".join(f"<@{u}>" for u in users), id=row.id, hours=hours)
        labels = await self.labels(row, locale)
        at = where(row, loaded.game, loaded.state, locale, labels)
        lines = []
        for seat in loaded.game.to_act(loaded.state):
            uid = row.user_of(seat)
            if uid in users:
                what = public_prompt(loaded.game, loaded.state, seat, locale, labels)
                lines.append(
                    t(
                        "discord.ping.reminder",
                        locale,
                        user=f"<@{uid}>",
                        where=at,
                        hours=hours,
                        what=what,
                        link=board_link(row),
                    )
                )
        return clip("\n".join(lines), 2000)

    async def timeout_note(
        self, result: TurnResult, seats: list[tuple[str, int]], key: str = "", locale: str | None = None
    ) -> str:
        """ "⏰ Time ran out for @name in Thunder Road #12 ..." (``key``: a time bank's own wording)."""
        locale = locale or await self.public_locale_of(result.row)
        labels = await self.labels(result.row, locale)
        at = where(result.row, result.game, None, locale, labels)
        if key and key != "core.ui.timed_out":
            lines = [t(key, locale, user=f"<@{uid}>", seat=seat_tag(result.row, labels, seat)) for seat, uid in seats]
            return f"{at}: " + " ".join(lines)
        return " ".join(
            t("discord.ping.timed_out", locale, user=f"<@{uid}>", where=at, seat=seat_tag(result.row, labels, seat))
            for seat, uid in seats
        )

    # ------------------------------------------------- hidden information
    async def push_private(self, result: TurnResult, *, skip: int | None = None, start: bool = False) -> int:
        """Hidden information reaches its owner unasked: every human seat's own
        private events of this result (cards dealt, a secret draw) go to its
        member by direct message, in their language (``skip``: the member who
        is told in the interaction itself); ``start``: the game has just
        started, so each also gets what their seat holds (its private summary:
        cards dealt when the table was set up).  Each is owed through the outbox
        (cogs/present/private_posts.py): what Discord does not take now is sent later.
        A member who closed their DMs keeps the board's "My view" button.
        Returns the messages sent."""
        return await push_private(self, result, skip=skip, start=start)

    @staticmethod
    def edit_kwargs(parts: dict[str, Any]) -> dict[str, Any]:
        return {"view": parts["view"], "attachments": [parts["file"]], "allowed_mentions": parts["allowed_mentions"]}

    async def post_to(self, channel, result: TurnResult, locale: str | None = None, note: str | None = None):
        """A board as an ordinary channel message (a league table's first board in its thread),
        with its nonce; once posted, the outbox forgets it (so it is not posted twice)."""
        nonce = delivery_nonce(result.row.id, result.row.version)
        sent = await channel.send(**await self.message(result, locale, note), nonce=nonce)
        await self.confirmed(result)
        return sent

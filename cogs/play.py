"""The /game, /play and /rules commands and every component click.

Thin adapters: each handler defers within Discord's 3-second deadline, turns
the interaction into one call on the table service (:mod:`tables`) and its
result into messages.  Errors reach only the user who caused them
(ephemeral), in their language.  Nothing here writes to the store.
"""

from __future__ import annotations

import io
import json
import logging
import secrets
from collections.abc import Sequence
from typing import Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from engine import GameError, available, get_game
from engine.i18n import t
from store import GameRow
from tables import TurnRefused, TurnResult, clocks, preview, refusals
from tables.board import web_link
from tables.catchup import catchup
from tables.decisions import decisions
from tables.decisions import page as log_page
from tables.levels import check_level
from tables.text import plain
from tables.web_sessions import LINK_SECONDS, WebSessions

from .boards import Boards, remember, truth_key
from .bound import at_table
from .catchupview import catchup_message
from .flood import admit
from .inputs import (
    chain_value,
    check_game,
    check_id,
    echo,
    game_choices,
    known_component,
    options_error,
    parse_chain,
    parse_options,
)
from .levels import level_choices
from .locale import is_unavailable, locale_of, ls
from .services import Services
from .ui import (
    allowed_mentions,
    clip,
    event_lines,
    game_name,
    lobby_components,
    lobby_embed,
    log_lines,
    relabel,
    seat_tag,
)

log = logging.getLogger("tabletop.play")
GAME_CHOICES = game_choices()  # at load time: see game_choices()
CLOCK_CHOICES = [
    app_commands.Choice(name=ls(name, f"asyncplay.profile.{name}"), value=name) for name in clocks.PROFILES
]
LEVEL_CHOICES = level_choices()
#: commands that change a member's preferences (cogs/community.py): the language is not noted from them
PREFS_COMMANDS = ("remind", "privacy")


def rules_topics(game_id: str, locale: str) -> list[tuple[str, str, str]]:
    """(title, summary, body) per ``## `` topic of the game's rules/<lang>.md (data/<game>/rules/)."""
    base = get_game(game_id).data_path("rules")
    path = base / f"{locale}.md"
    if not path.exists():
        path = base / "en.md"
    if not path.exists():
        return []
    topics: list[tuple[str, str, str]] = []
    title: str | None = None
    body: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines() + ["## "]:
        if line.startswith("## "):
            if title is not None:
                text = "\n".join(body).strip()
                topics.append((title, text.splitlines()[0] if text else "", text))
            title, body = line[3:].strip(), []
        elif title is not None:
            body.append(line)
    return topics


def find_topic(game_id: str, topics: list[tuple[str, str, str]], query: str):
    """A topic by number (what autocomplete sends), or by title in the reader's
    language or in English (the rules files keep their topics in the same order)."""
    q = query.strip().lower()
    if q.isdecimal() and len(q) <= 6:  # isdigit() would let "²" through to int()
        n = int(q) - 1
        return topics[n] if 0 <= n < len(topics) else None
    for titles in ([tp[0] for tp in topics], [tp[0] for tp in rules_topics(game_id, "en")]):
        for pick in (lambda x: x.lower() == q, lambda x: q in x.lower()):
            for i, title in enumerate(titles):
                if pick(title) and i < len(topics):
                    return topics[i]
    return None


class NotShown(Exception):
    """A committed change's board was not taken by Discord (the outbox keeps it)."""


def _channel_id(interaction: discord.Interaction) -> int:
    assert interaction.channel_id is not None  # every command and component here is in a guild channel
    return interaction.channel_id


def _guild_id(interaction: discord.Interaction) -> int:
    assert interaction.guild_id is not None  # the commands are guild_only
    return interaction.guild_id


class Play(commands.Cog):
    game = app_commands.Group(
        name=ls("game", "discord.cmd.game"),
        description=ls("Play a table game", "discord.cmd.game.desc"),
        guild_only=True,
    )

    def __init__(self, bot: commands.Bot, services: Services) -> None:
        self.bot = bot
        self.services = services
        self.store = services.store  # reads only
        self.tables = services.tables
        self.boards = Boards(bot, services)

    # ----------------------------------------------------------- helpers
    async def guard(self, interaction: discord.Interaction, coro) -> None:
        """Run a component handler (after the flood check); an unexpected error
        is logged and the user told, privately."""
        if not await admit(interaction):
            coro.close()
            return
        try:
            await coro
        except Exception as exc:
            if not is_unavailable(exc):  # (the store said that once)
                log.exception("interaction %s failed", getattr(interaction, "id", "?"))
            await self.failed(interaction, exc)

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        if not is_unavailable(error):
            log.error("command %s failed", getattr(interaction.command, "qualified_name", "?"), exc_info=error)
        await self.failed(interaction, error)

    async def failed(self, interaction: discord.Interaction, error: BaseException | None = None) -> None:
        """Something failed unexpectedly: tell the user, privately, the truth about their
        change (:func:`cogs.boards.truth_key`: nothing changed, saved, or not known)."""
        try:
            await self.refuse(interaction, await truth_key(self.tables, error))
        except discord.HTTPException:
            pass

    def loc(self, interaction: discord.Interaction) -> str:
        return locale_of(interaction, self.services.default_locale)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A click on a component that is none of ours (a forged or mangled
        custom_id, or one not on the clicked message) reaches no handler in
        discord.py and would go unanswered: answer it, privately."""
        if interaction.type is discord.InteractionType.component and not known_component(interaction):
            await self.guard(interaction, self.refuse(interaction, "discord.forged.component"))
        # every interaction carries the member's language: remembered for what is sent them unasked
        # (not from the commands that write the member's preferences themselves: their own
        # read-modify-write must not race this one)
        data: Any = interaction.data or {}
        if interaction.type is discord.InteractionType.application_command and data.get("name") in PREFS_COMMANDS:
            return
        try:
            await self.services.members.note(interaction.user.id, str(getattr(interaction.locale, "value", "") or ""))
        except Exception as exc:  # noqa: BLE001 -- a lost database is said elsewhere; this must never break a click
            if not is_unavailable(exc):
                log.warning("locale of %s not remembered: %s", interaction.user.id, exc)

    async def refuse(self, interaction: discord.Interaction, key: str, /, **params: Any) -> None:
        """Tell only this user, in their language; works before or after deferring."""
        text = t(key, self.loc(interaction), **params)
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    async def tell(self, interaction: discord.Interaction, exc: TurnRefused) -> None:
        text = await self.explain(exc, self.loc(interaction))
        if interaction.response.is_done():
            await interaction.followup.send(clip(text, 2000), ephemeral=True)
        else:
            await interaction.response.send_message(clip(text, 2000), ephemeral=True)

    async def explain(self, exc: TurnRefused, locale: str) -> str:
        """A refusal in the reader's language, seats by display name, and for a table
        that moved on, what happened since (tables/refusals.py)."""
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

    async def public_locale(self, interaction: discord.Interaction, row: GameRow | int | None = None) -> str:
        """Public messages: the table's language, fixed when it was opened (see
        :meth:`Boards.public_locale_of`); without a table, the server's setting,
        else the acting user's."""
        if isinstance(row, int):
            try:
                row = await self.tables.row(row)
            except TurnRefused:
                row = None
        if row is not None:
            return await self.boards.public_locale_of(row)
        settings = await self.services.settings.guild(interaction.guild_id)
        return settings.get("language") or self.loc(interaction)

    async def post_board(
        self, interaction: discord.Interaction, result: TurnResult, *, start: bool = False, retire: bool = False
    ) -> None:
        """A committed change's board (with its notices) goes to the channel through
        the outbox (:meth:`Boards.deliver`); the table's private hands follow."""

        async def show() -> None:
            shown = await self.boards.deliver(result, retire=retire)
            await self.boards.push_private(result, start=start)  # private hands go out either way
            if not shown:  # the outbox keeps it and the scheduler tries again
                raise NotShown()

        await self.deliver(interaction, result, show)

    async def deliver(self, interaction: discord.Interaction, result: TurnResult, send) -> None:
        """Show a saved change.  The change is already committed: whatever fails now
        (Discord refusing or down, an expired token, a deleted message, the store or a
        renderer failing), the player is told their move counts, and the board goes
        out anyway: posted anew in the channel at once, else by the scheduler (the
        outbox) as soon as Discord takes it."""
        try:
            await send()
            return
        except NotShown:
            posted = False  # the outbox tried already: the scheduler takes it from here
        except Exception as exc:  # noqa: BLE001 -- a committed change: never "nothing was changed"
            log.warning(
                "table %s: saved at version %s, but it could not be shown (%s: %s); posting it anew",
                result.row.id,
                result.row.version,
                type(exc).__name__,
                exc,
            )
            posted = await self.boards.deliver(result)
        key = "discord.table.saved_reposted" if posted else "discord.table.saved_pending"
        try:
            await interaction.followup.send(t(key, self.loc(interaction)), ephemeral=True)
        except discord.HTTPException:
            pass

    async def show_again(self, interaction: discord.Interaction, result: TurnResult, locale: str) -> None:
        """The table's board shown again on request (``/game status``: nothing changed)."""
        await interaction.followup.send(**await self.boards.message(result, locale))

    async def redraw_board(self, interaction: discord.Interaction, result: TurnResult, locale: str) -> None:
        """Replace the clicked board with the new one (same message, new image and buttons)."""
        parts = await self.boards.message(result, locale)
        await interaction.edit_original_response(**self.boards.edit_kwargs(parts))

    async def retire_clicked(self, interaction: discord.Interaction) -> None:
        """The clicked board is superseded by a new one: it keeps its picture and
        text, and loses its buttons."""
        try:
            await self.boards.retire_message(interaction.message, edit=interaction.edit_original_response)
        except discord.HTTPException:
            pass

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

    # -------------------------------------------------------- /game new
    @game.command(
        name=ls("new", "discord.cmd.game.new"), description=ls("Open a table for a game", "discord.cmd.game.new.desc")
    )
    @app_commands.describe(
        game=ls("Which game", "discord.arg.game"),
        options=ls("Options as key=value, e.g. hero=brawler", "discord.arg.options"),
        ai=ls("Seats for the AI", "discord.arg.ai"),
        thread=ls("Open the table in a new thread", "discord.arg.thread"),
        timer=ls("Minutes before the AI plays for an absent player (0 = never)", "discord.arg.timer"),
        remind=ls("Minutes before a waiting player is pinged (0 = never)", "discord.arg.remind"),
        campaign=ls("Count this table in a campaign", "discord.arg.campaign"),
        clock=ls("Time bank per player (replaces the turn timer)", "asyncplay.arg.clock"),
        ai_level=ls("How well the AI plays: its seats, and for absent players", "discord.arg.ai_level"),
    )
    @app_commands.choices(game=GAME_CHOICES, clock=CLOCK_CHOICES, ai_level=LEVEL_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction,
        game: str,
        options: str | None = None,
        ai: app_commands.Range[int, 0, 4] = 0,
        thread: bool | None = None,
        timer: app_commands.Range[int, 0, 10080] | None = None,
        remind: app_commands.Range[int, 0, 10080] | None = None,
        campaign: str | None = None,
        clock: str | None = None,
        ai_level: str | None = None,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        settings = await self.services.settings.guild(interaction.guild_id)
        channel = interaction.channel
        allowed = settings.get("channels") or []
        parent = getattr(channel, "parent_id", None)
        if allowed and interaction.channel_id not in allowed and parent not in allowed:
            await interaction.followup.send(
                t("core.ui.channel_not_allowed", locale, channels=" ".join(f"<#{c}>" for c in allowed)), ephemeral=True
            )
            return
        try:
            game = check_game(game)
        except TurnRefused as exc:
            return await interaction.followup.send(exc.text(locale), ephemeral=True)
        g = get_game(game)
        merged: dict[str, Any] = {}
        try:
            merged = {**(settings.get("options") or {}).get(game, {}), **parse_options(options)}
            g.parse_options(merged)  # refuse bad options before a thread is opened for them
            check_level(g, ai_level)
        except GameError as exc:
            await interaction.followup.send(clip(options_error(game, merged, exc, locale), 2000), ephemeral=True)
            return
        for value in (timer, remind):
            if value is not None and not 0 <= value <= 10080:  # Range is not enforced by discord.py at run time
                await interaction.followup.send(t("core.ui.bad_number", locale, lo=0, hi=10080), ephemeral=True)
                return
        table = {
            "turn_timer": settings["turn_timer"] if timer is None else timer,
            "reminder": settings["reminder"] if remind is None else remind,
            "clock": clock or settings.get("clock") or "off",  # a profile name: the table service makes it concrete
            "clock_policy": settings.get("clock_policy") or "ai",
        }
        plocale = settings.get("language") or locale
        if thread is None:
            thread = bool((settings.get("threads") or {}).get(game))
        if thread and isinstance(channel, discord.TextChannel):
            try:  # the server's limits, before a thread is opened for nothing
                lo, hi = g.seat_range(g.parse_options(merged).model_dump(mode="json"))
                if not (hi == 1 or 1 + int(ai) >= hi):  # the table will wait in its lobby
                    await self.tables.check_can_open(interaction.guild_id, interaction.user.id)
                claimed = await self.tables.claim_thread(interaction.guild_id, interaction.user.id)
            except TurnRefused as exc:
                return await interaction.followup.send(exc.text(locale), ephemeral=True)
            try:
                channel = await channel.create_thread(
                    name=clip(game_name(game, plocale), 90), type=discord.ChannelType.public_thread
                )
            except discord.HTTPException:
                await self.tables.release_thread(interaction.user.id, claimed)
                await interaction.followup.send(t("core.ui.no_thread", locale), ephemeral=True)
                return
        assert channel is not None
        try:
            opened = await self.tables.open_table(
                guild_id=interaction.guild_id,
                channel_id=channel.id,
                game_id=game,
                host_id=interaction.user.id,
                options=merged,
                ai=int(ai),
                seed=secrets.randbits(48),
                locale=plocale,
                table=table,
                campaign=campaign,
                ai_level=ai_level,
            )
        except TurnRefused as exc:
            return await interaction.followup.send(exc.text(locale), ephemeral=True)
        if opened.started is not None:
            await interaction.followup.send(t("core.ui.started", locale, game=game_name(game, locale)), ephemeral=True)
            return await self.post_board(interaction, opened.started, start=True)
        await interaction.followup.send(t("core.ui.lobby_opened", locale), ephemeral=True)
        posted = await self._send(
            interaction,
            channel,
            embed=lobby_embed(opened.row, g, plocale),
            view=lobby_components(opened.row, g, plocale),
        )
        if posted is not None:  # where the lobby is shown: its expiry is said there
            await self.tables.lobby_posted(opened.row.id, posted.id)

    @new.autocomplete("campaign")
    async def new_campaign_autocomplete(self, interaction: discord.Interaction, current: str):
        game = getattr(interaction.namespace, "game", None)
        camps = await self.store.campaigns(interaction.guild_id) if interaction.guild_id else []
        return [
            app_commands.Choice(name=plain(c.name, 100) or "?", value=c.name)
            for c in camps
            if c.status == "open" and (game is None or c.game == game) and current.lower() in c.name.lower()
        ][:25]

    async def _send(self, interaction: discord.Interaction, channel, **kwargs) -> discord.Message | None:
        """Public message: as a followup in the command's channel, or into a new thread."""
        if channel is not None and channel.id != interaction.channel_id:
            return await channel.send(**kwargs)
        return await interaction.followup.send(wait=True, **kwargs)

    # ------------------------------------------------------------ lobby
    async def on_lobby(self, interaction: discord.Interaction, gid: int, op: str, level: str | None = None) -> None:
        await interaction.response.defer()
        if not await self._here(interaction, gid):
            return
        remember(interaction.guild_id, interaction.user)
        locale = await self.public_locale(interaction, gid)
        try:
            res = await self.tables.lobby(gid, interaction.user.id, op, admin=self._is_admin(interaction), level=level)
        except TurnRefused as exc:
            return await self.tell(interaction, exc)
        if res.started is not None:
            try:  # the lobby now says the game is on, without buttons
                started = res.started
                await interaction.edit_original_response(
                    embed=lobby_embed(started.row, started.game, locale), view=None
                )
            except discord.HTTPException:
                pass
            await self.post_board(interaction, res.started, start=True)
            return
        g = get_game(res.row.game)
        embed, view = lobby_embed(res.row, g, locale), lobby_components(res.row, g, locale)
        try:
            await interaction.edit_original_response(embed=embed, view=view)
        except Exception as exc:  # noqa: BLE001 -- the change is saved: say so, and show the lobby anew
            log.warning("lobby %s: %s saved, the lobby message not updated (%s: %s)", gid, op, type(exc).__name__, exc)
            await self._lobby_not_shown(interaction, res.row, embed, view)

    async def _lobby_not_shown(self, interaction: discord.Interaction, row: GameRow, embed, view) -> None:
        """A lobby change is saved but its message could not be edited (Discord failing,
        the message deleted): the member is told it is done, and the lobby is posted anew."""
        key = "discord.lobby.done_not_shown"
        channel = await self.boards.channel_of(row)
        if channel is not None and row.status == "lobby":
            try:
                await channel.send(embed=embed, view=view, allowed_mentions=discord.AllowedMentions.none())
                key = "discord.lobby.done_reposted"
            except discord.HTTPException:
                pass
        try:
            await interaction.followup.send(t(key, self.loc(interaction)), ephemeral=True)
        except discord.HTTPException:
            pass

    async def _here(self, interaction: discord.Interaction, gid: int) -> bool:
        """Whether a component of table ``gid`` was used in that table's server and
        channel (else the member is told, and nothing changes; see cogs/bound.py)."""
        if check_id(gid) is None:
            return True  # no such table: the service refuses it
        try:
            row = await self.tables.row(gid)
        except TurnRefused:
            return True  # an unreadable table: the service refuses it
        return await at_table(interaction, row)

    @staticmethod
    def _is_admin(interaction: discord.Interaction) -> bool:
        perms = getattr(interaction.user, "guild_permissions", None)
        return bool(perms and perms.manage_guild)

    # ---------------------------------------------------------- actions
    async def on_action(self, interaction: discord.Interaction, gid: int, version: int, idx: int) -> None:
        await interaction.response.defer()
        remember(interaction.guild_id, interaction.user)
        await self._act(interaction, gid, version, idx, from_component=True)

    async def _act(
        self, interaction: discord.Interaction, gid: int, version: int, idx: int | list[int], *, from_component: bool
    ) -> None:
        """A click picks one of the choices its board offered (a chain of single
        steps, see tables/choices.py); ``/play`` gives legal-action indices."""
        locale = self.loc(interaction)
        if not await self._here(interaction, gid):
            return

        def picker(i: int):
            def pick(game, state, seat, legal):
                if not 0 <= i < len(legal):  # never offered (a forged index)
                    raise TurnRefused("not_offered", "discord.forged.not_offered")
                return legal[i]

            return pick

        try:
            if isinstance(idx, list):
                result = await self.tables.act(
                    gid, interaction.user.id, [picker(i) for i in idx], expected_version=version
                )
            else:
                result = await self.tables.act(gid, interaction.user.id, [], expected_version=version, choice=idx)
        except TurnRefused as exc:
            if exc.code == "stale" and not from_component:  # a /play suggestion, not a button
                exc = TurnRefused("stale", "discord.forged.play_stale")
            await interaction.followup.send(clip(await self.explain(exc, locale), 2000), ephemeral=True)
            if exc.code in ("stale", "not_offered"):
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
            await interaction.followup.send(t("core.ui.ok", locale), ephemeral=True)
        # the new board (with the ping) first, then the old one loses its buttons; what is
        # private still reaches its owners when Discord did not take the board (the outbox has it)
        shown = await self.boards.deliver(result)
        if from_component and not on_panel:
            if shown:
                await self.retire_clicked(interaction)
        elif on_panel:
            labels = await self.boards.labels(result.row, locale)
            own = self._own_lines(result, seat, locale, labels)
            try:
                done = "\n".join([*own, t("discord.panel.done", locale)])
                await interaction.edit_original_response(content=clip(done, 2000), view=None)
            except discord.HTTPException:
                pass
            if shown:
                await self.boards.retire_board_of(result.row, self._panel_board(interaction))
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
        data: Any = interaction.data or {}
        parts = str(data.get("custom_id", "")).split(":")
        return int(parts[5]) if len(parts) > 5 and parts[5].isdigit() else None

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
        text = clip("\n".join([*lead, t("core.ui.committed", locale)]), 2000)
        if on_panel:
            await interaction.edit_original_response(content=text, view=None)
        else:
            await interaction.followup.send(text, ephemeral=True)
        board = self._panel_board(interaction) if on_panel else None
        if board is None or await self.boards.update_board(result, board, plocale):
            await self.boards.confirmed(result)  # redrawn (or nothing public to redraw)
        else:
            await self.boards.not_shown(result)  # the outbox posts it anew

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
        try:
            loaded = await self.tables.load(gid, statuses=("active", "finished", "abandoned"))
        except TurnRefused as exc:
            return await interaction.followup.send(exc.text(locale), ephemeral=True)
        if not await at_table(interaction, loaded.row):
            return
        if loaded.row.status != "active":
            return await self.tell(interaction, refusals.finished(loaded.row))
        seat = loaded.row.seat_of(interaction.user.id)
        if seat is None:
            return await self.tell(interaction, refusals.not_seated(loaded.row, loaded.game, loaded.state))
        if seat not in loaded.game.to_act(loaded.state):
            return await self.tell(interaction, refusals.not_your_turn(loaded.row, loaded.game, loaded.state))
        board = interaction.message.id if interaction.message is not None else None
        await self.send_panel(interaction, loaded.row, loaded.game, loaded.state, seat, locale, board=board)

    async def on_private_view(self, interaction: discord.Interaction, gid: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self._private_view(interaction, gid=gid)

    async def _private_view(self, interaction: discord.Interaction, gid: int | None = None) -> None:
        locale = self.loc(interaction)
        try:
            if gid is None:
                loaded = await self.tables.load(channel_id=interaction.channel_id, statuses=("active",))
            else:
                loaded = await self.tables.load(gid, statuses=("active", "finished"))
        except TurnRefused as exc:
            return await interaction.followup.send(exc.text(locale), ephemeral=True)
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
        try:
            row = await self.tables.row(channel_id=interaction.channel_id)
            if row is None:
                return await self._last_finished(interaction, locale)
            g = get_game(row.game)
            if row.status == "lobby":
                await interaction.followup.send(t("core.ui.reposted", locale), ephemeral=True)
                view = lobby_components(row, g, locale)
                await interaction.followup.send(embed=lobby_embed(row, g, locale), view=view or discord.utils.MISSING)
                return
            loaded = await self.tables.load(row.id)
        except TurnRefused as exc:
            return await interaction.followup.send(exc.text(locale), ephemeral=True)
        plocale = await self.boards.public_locale_of(loaded.row)
        await interaction.followup.send(
            t("core.ui.reposted", locale)
            + "\n"
            + t("discord.table.language", locale, lang=t(f"discord.lang.{plocale}", locale)),
            ephemeral=True,
        )
        await self.show_again(interaction, TurnResult(loaded.row, loaded.game, loaded.state, []), plocale)

    async def _last_finished(self, interaction: discord.Interaction, locale: str) -> None:
        """No running table here: the channel's latest finished (or abandoned) one, privately:
        its result and final board, and where to see how it went (replay, log, export)."""
        try:
            loaded = await self.tables.log_table(_channel_id(interaction))
        except TurnRefused as exc:
            return await interaction.followup.send(exc.text(locale), ephemeral=True)
        row = loaded.row
        head = t("play.status.last_finished", locale, id=row.id, game=game_name(row.game, locale))
        lines = [head]
        if loaded.game.outcome(loaded.state) is None and row.outcome:  # resigned: the reason is the row's
            reason = row.outcome.get("reason") or {}
            if isinstance(reason, dict) and isinstance(reason.get("key"), str):
                labels = await self.boards.labels(row, locale)
                lines.append(relabel(t(reason["key"], locale, **(reason.get("params") or {})), labels))
        turns = await self.store.count_actions(row.id)
        lines.append(t("play.status.hints", locale, id=row.id, turns=turns))
        parts = await self.boards.message(
            TurnResult(row, loaded.game, loaded.state, []), locale, "\n".join(lines), live=False
        )
        await interaction.followup.send(**parts, ephemeral=True)

    @game.command(
        name=ls("catchup", "play.cmd.game.catchup"),
        description=ls("What happened since your last decision, privately", "play.cmd.game.catchup.desc"),
    )
    async def catchup(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self._catchup(interaction, None)

    async def on_catchup(self, interaction: discord.Interaction, gid: int) -> None:
        """The board's "Since your turn" button: the clicker's own catch-up, privately."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self._catchup(interaction, gid)

    async def _catchup(self, interaction: discord.Interaction, gid: int | None) -> None:
        locale = self.loc(interaction)
        try:
            if gid is None:
                loaded = await self.tables.load(channel_id=_channel_id(interaction))
            else:
                loaded = await self.tables.load(gid)
        except TurnRefused as exc:
            return await interaction.followup.send(exc.text(locale), ephemeral=True)
        if gid is not None and not await at_table(interaction, loaded.row):
            return
        if loaded.row.seat_of(interaction.user.id) is None:
            return await interaction.followup.send(t("play.catchup.not_seated", locale), ephemeral=True)
        found = await catchup(self.tables, loaded.row, loaded.game, loaded.state, interaction.user.id)
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
        try:
            loaded = await self.tables.log_table(_channel_id(interaction))
        except TurnRefused as exc:
            return await interaction.followup.send(exc.text(locale), ephemeral=True)
        per = 15  # decisions a page (a chain is one; its steps are in /game export)
        total = await self.store.count_actions(loaded.row.id)
        groups = decisions(await self.store.actions(loaded.row.id, limit=total)) if total else []
        pages = max(1, -(-len(groups) // per))
        if not 1 <= page <= pages:  # Range is not enforced by discord.py: a forged page
            return await interaction.followup.send(t("discord.forged.page", locale, pages=pages), ephemeral=True)
        seat = loaded.row.seat_of(interaction.user.id)
        labels = await self.boards.labels(loaded.row, locale)
        lines = []
        for d in log_page(groups, page, per):
            evs = [e for a in d.steps for e in loaded.game.load_events(a.events)]
            shown = event_lines(loaded.game, loaded.game.visible_events(evs, seat), locale, labels)
            auto = [t("discord.log.auto", locale)] if d.by == "auto" else []
            line = f"{seat_tag(loaded.row, labels, d.seat)}: " + ("; ".join(shown + auto) or "…")
            lines.append(clip(line, 1900 // per))  # every decision of the page shows
        head = t("core.ui.log_title", locale, id=loaded.row.id, page=page, pages=pages)
        body = "\n".join(lines) or t("core.ui.log_empty", locale)
        await interaction.followup.send(clip(f"{head}\n{body}", 2000), ephemeral=True)

    @game.command(
        name=ls("abandon", "discord.cmd.game.abandon"),
        description=ls("End this channel's table without a result", "discord.cmd.game.abandon.desc"),
    )
    async def abandon(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        try:
            row = await self.tables.abandon(
                _channel_id(interaction), interaction.user.id, admin=self._is_admin(interaction)
            )
        except TurnRefused as exc:
            return await interaction.followup.send(exc.text(locale), ephemeral=True)
        await interaction.followup.send(t("core.ui.abandoned_ack", locale), ephemeral=True)
        await self.boards.retire_table(row)  # its boards lose their buttons
        if await self.tables.still_owed(row.id, row.version):  # a running table: its channel is owed the notice
            note = {"note": "abandoned", "user": interaction.user.id}
            g, state = await self.tables.open_state(row)
            return await self.post_board(interaction, TurnResult(row, g, state, [], notes=[note], kind="notice"))
        plocale = await self.boards.public_locale_of(row)
        await interaction.followup.send(
            t("core.ui.abandoned", plocale, id=row.id, user=interaction.user.mention),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @game.command(
        name=ls("view", "discord.cmd.game.view"),
        description=ls("Your own view of the table (your hand), privately", "discord.cmd.game.view.desc"),
    )
    async def view(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self._private_view(interaction)

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
        try:
            row = await self.tables.row(channel_id=interaction.channel_id)
            if row is None:
                row = await self.store.latest_game(_channel_id(interaction), ("finished", "abandoned"))
        except TurnRefused as exc:
            return await interaction.followup.send(exc.text(locale), ephemeral=True)
        lines = []
        if row is not None:
            lines.append(t("web.link.public", locale, url=web_link(base, row.id)))
        # the member's own link: signed, single use, short-lived, given to them alone
        token = await WebSessions(self.store, clock=self.services.clock).link_token(
            interaction.user.id, row.id if row is not None and row.seat_of(interaction.user.id) else None
        )
        url = f"{base.rstrip('/')}/signin/{token}"
        lines.append(t("web.link.private", locale, minutes=LINK_SECONDS // 60, url=url))
        await interaction.followup.send("\n".join(lines), ephemeral=True)

    # ------------------------------------------------- undo, resign, seats
    async def _my_table(self, interaction: discord.Interaction, locale: str):
        """This channel's running table, or a private refusal (and None)."""
        try:
            return await self.tables.load(channel_id=interaction.channel_id)
        except TurnRefused as exc:
            await interaction.followup.send(exc.text(locale), ephemeral=True)
            return None

    @game.command(
        name=ls("undo", "discord.cmd.game.undo"),
        description=ls("Take back your last move", "discord.cmd.game.undo.desc"),
    )
    async def undo(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        loaded = await self._my_table(interaction, locale)
        if loaded is None:
            return
        try:
            res = await self.tables.undo(loaded.row.id, interaction.user.id)
        except TurnRefused as exc:
            return await interaction.followup.send(exc.text(locale), ephemeral=True)
        plocale = await self.public_locale(interaction, loaded.row)
        if res.done is not None:
            await interaction.followup.send(t("core.ui.ok", locale), ephemeral=True)
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
            view=self._vote_view(res.vote.vote.id, plocale),
            allowed_mentions=allowed_mentions(res.vote.voters),
        )

    def _vote_view(self, vid: int, locale: str) -> discord.ui.View:
        from .components import VoteButton

        view = discord.ui.View(timeout=None)
        view.add_item(VoteButton(vid, "yes", label=t("core.ui.agree", locale)))
        view.add_item(VoteButton(vid, "no", label=t("core.ui.refuse", locale)))
        return view

    async def on_vote(self, interaction: discord.Interaction, vid: int, yes: bool) -> None:
        await interaction.response.defer()
        locale = self.loc(interaction)
        vote = await self.store.get_vote(vid) if check_id(vid) is not None else None  # a forged id may be any size
        if vote is not None and not await self._here(interaction, vote.game_id):
            return
        plocale = await self.public_locale(interaction, vote.game_id if vote is not None else None)
        try:
            res = await self.tables.ballot(vid, interaction.user.id, yes)
        except TurnRefused as exc:
            return await self.tell(interaction, exc)
        if res.status == "expired":
            await interaction.edit_original_response(view=None)
            if res.reason in ("ended", "decided_again", "gone"):  # an undo vote says why it no longer applies
                return await self.refuse(
                    interaction, f"play.vote.expired_{res.reason}", user=f"<@{res.vote.payload.get('user')}>"
                )
            return await self.refuse(interaction, "core.ui.vote_expired")
        if res.status == "refused":
            await interaction.edit_original_response(view=None)
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
        try:
            await interaction.edit_original_response(view=None)
        except discord.HTTPException:
            pass
        await self.post_board(interaction, res.result, retire=True)

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
        loaded = await self._my_table(interaction, locale)
        if loaded is None:
            return
        if seat not in [s.seat for s in loaded.row.seats]:
            return await interaction.followup.send(
                t("core.error.unknown_seat", locale, seat=echo(seat)), ephemeral=True
            )
        to = member.id if member else None
        if member is not None and member.bot:
            return await interaction.followup.send(t("core.ui.already_seated", locale), ephemeral=True)
        plocale = await self.public_locale(interaction, loaded.row)
        try:
            res = await self.tables.handover(
                loaded.row.id, interaction.user.id, seat, to, admin=self._is_admin(interaction)
            )
        except TurnRefused as exc:
            return await interaction.followup.send(exc.text(locale), ephemeral=True)
        if res.done is not None:
            await interaction.followup.send(t("core.ui.ok", locale), ephemeral=True)
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
            view=self._vote_view(opened.vote.id, plocale),
            allowed_mentions=allowed_mentions([*opened.voters, to, opened.owner]),
        )

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
        loaded = await self._my_table(interaction, locale)
        if loaded is None:
            return
        try:
            result = await self.tables.resign(loaded.row.id, interaction.user.id)
        except TurnRefused as exc:
            return await interaction.followup.send(exc.text(locale), ephemeral=True)
        await interaction.followup.send(t("core.ui.ok", locale), ephemeral=True)
        await self.post_board(interaction, result, retire=True)

    # ---------------------------------------------------------- history
    @game.command(
        name=ls("mine", "discord.cmd.game.mine"),
        description=ls("Tables in this server waiting for you", "discord.cmd.game.mine.desc"),
    )
    async def mine(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        lines = []
        # most urgent first: the tables waiting on the member, soonest time bank / timer first
        for row, seat, deadline in await self.tables.mine(interaction.user.id, interaction.guild_id):
            link = f"https://discord.com/channels/{row.guild_id}/{row.channel_id}"
            if row.status == "lobby":
                state = t("core.ui.mine_lobby", locale)
            elif seat in row.to_act:
                state = t("core.ui.mine_waiting", locale)
                if deadline is not None:
                    state += " — " + t("asyncplay.mine_deadline", locale, when=clocks.discord_time(deadline))
            else:
                state = t("core.ui.mine_others", locale)
            lines.append(f"**{game_name(row.game, locale)}** #{row.id} — {state} — {link}")
        text = "\n".join(lines) or t("core.ui.mine_none", locale)
        await interaction.followup.send(clip(text, 2000), ephemeral=True)

    # -------------------------------------------------------- followers
    @game.command(
        name=ls("follow", "asyncplay.cmd.game.follow"),
        description=ls(
            "Follow this channel's table (public board, in a private message)", "asyncplay.cmd.game.follow.desc"
        ),
    )
    @app_commands.describe(mode=ls("Each turn, or a daily digest", "asyncplay.arg.mode"))
    @app_commands.choices(
        mode=[
            app_commands.Choice(name=ls("each turn", "asyncplay.mode.turn"), value="turn"),
            app_commands.Choice(name=ls("daily digest", "asyncplay.mode.digest"), value="digest"),
        ]
    )
    async def follow(self, interaction: discord.Interaction, mode: str = "turn") -> None:
        locale = self.loc(interaction)
        try:
            row = await self.tables.follow(_channel_id(interaction), interaction.user.id, mode)
        except TurnRefused as exc:
            return await self.tell(interaction, exc)
        text = t("asyncplay.following", locale, id=row.id, mode=t(f"asyncplay.mode.{mode}", locale))
        await interaction.response.send_message(text, ephemeral=True)

    @game.command(
        name=ls("unfollow", "asyncplay.cmd.game.unfollow"),
        description=ls("Stop following this channel's table", "asyncplay.cmd.game.unfollow.desc"),
    )
    async def unfollow(self, interaction: discord.Interaction) -> None:
        try:
            gid = await self.tables.unfollow(interaction.user.id, channel_id=_channel_id(interaction))
        except TurnRefused as exc:
            return await self.tell(interaction, exc)
        await interaction.response.send_message(
            t("asyncplay.unfollowed", self.loc(interaction), id=gid), ephemeral=True
        )

    @game.command(
        name=ls("followers", "asyncplay.cmd.game.followers"),
        description=ls("Open or close this table to followers (host)", "asyncplay.cmd.game.followers.desc"),
    )
    @app_commands.describe(open=ls("Open to followers?", "asyncplay.arg.open"))
    async def followers(self, interaction: discord.Interaction, open: bool) -> None:
        try:
            row = await self.tables.close_to_followers(
                _channel_id(interaction), interaction.user.id, not open, admin=self._is_admin(interaction)
            )
        except TurnRefused as exc:
            return await self.tell(interaction, exc)
        key = "asyncplay.followers_open_now" if open else "asyncplay.followers_closed_now"
        await interaction.response.send_message(t(key, self.loc(interaction), id=row.id), ephemeral=True)

    async def _finished_table(self, interaction: discord.Interaction, gid: int | None, locale: str):
        try:
            return await self.tables.finished_table(interaction.guild_id, _channel_id(interaction), gid)
        except TurnRefused as exc:
            await interaction.followup.send(exc.text(locale), ephemeral=True)
            return None

    @game.command(
        name=ls("export", "discord.cmd.game.export"),
        description=ls("Seed and action log of a finished table, as JSON", "discord.cmd.game.export.desc"),
    )
    @app_commands.describe(table=ls("Table number (default: this channel's latest)", "discord.arg.table"))
    async def export(self, interaction: discord.Interaction, table: int | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = self.loc(interaction)
        row = await self._finished_table(interaction, table, locale)
        if row is None:
            return
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
        row = await self._finished_table(interaction, table, locale)
        if row is None:
            return
        if turn is not None:  # Range is not enforced by discord.py: a forged turn is refused, not clamped
            turns = await self.store.count_actions(row.id)
            if not 0 <= turn <= turns:
                return await interaction.followup.send(t("discord.forged.turn", locale, turns=turns), ephemeral=True)
        try:
            g, state, n, total = await self.tables.replay_state(row, turn)
        except TurnRefused as exc:
            return await interaction.followup.send(exc.text(locale), ephemeral=True)
        # the players' names and seat colours, never seat ids
        await interaction.followup.send(
            **await self.boards.replay_message(row, g, state, n, total, locale), ephemeral=True
        )

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
        try:
            row = await self.tables.row(channel_id=interaction.channel_id)
        except TurnRefused as exc:
            return await interaction.followup.send(exc.text(locale), ephemeral=True)
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

    # ------------------------------------------------------------ /rules
    @app_commands.command(
        name=ls("rules", "discord.cmd.rules"), description=ls("Read a game's rules", "discord.cmd.rules.desc")
    )
    @app_commands.describe(
        game=ls("Which game", "discord.arg.game"), topic=ls("Which part of the rules", "discord.arg.topic")
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: str, topic: str | None = None) -> None:
        locale = self.loc(interaction)
        try:
            game = check_game(game)  # a registered id only: it names a folder
        except TurnRefused as exc:
            await interaction.response.send_message(exc.text(locale), ephemeral=True)
            return
        topics = rules_topics(game, locale)
        if not topics:
            await interaction.response.send_message(t("core.ui.no_rules", locale), ephemeral=True)
            return
        chosen = None
        if topic:
            chosen = find_topic(game, topics, topic)
            if chosen is None:
                await interaction.response.send_message(
                    t("core.ui.no_topic", locale, topic=echo(topic)), ephemeral=True
                )
                return
        embed = discord.Embed(title=game_name(game, locale), colour=0x3498DB)
        if chosen:
            embed.add_field(name=chosen[0], value=clip(chosen[2], 1024), inline=False)
            if len(chosen[2]) > 1024:
                embed.description = clip(chosen[2], 4000)
                embed.clear_fields()
                embed.title = f"{game_name(game, locale)} — {chosen[0]}"
        else:
            embed.description = "\n".join(f"**{tp[0]}** — {tp[1]}" for tp in topics)[:4000]
            embed.set_footer(text=t("core.ui.rules_hint", locale))
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @rules.autocomplete("topic")
    async def rules_topic_autocomplete(self, interaction: discord.Interaction, current: str):
        game = getattr(interaction.namespace, "game", None)
        if game not in available():
            return []
        needle = current.lower()
        return [
            app_commands.Choice(name=clip(tp[0], 100), value=str(i + 1))
            for i, tp in enumerate(rules_topics(game, self.loc(interaction)))
            if needle in tp[0].lower()
        ][:25]


async def setup(bot: commands.Bot) -> None:  # discord.py extension entry point
    await bot.add_cog(Play(bot, cast(Any, bot).services))

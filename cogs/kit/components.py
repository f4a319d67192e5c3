"""Persistent components: DynamicItems whose custom_id carries ids only.

Registered once with ``bot.add_dynamic_items`` so a click on any message the
bot ever sent (also before a restart) reaches the right handler.  Each item's
custom_id is read and written by the one codec (cogs/kit/ids.py); its callback
calls a typed handler (:class:`TableClicks`, :class:`LeagueClicks`) that the
cogs register on the bot's :class:`Routes`, through the one error hook
(:class:`ClickHook`, cogs/present/errors.py): a refusal or failure of any click is
answered there.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

import discord

from cogs.kit import ids

if TYPE_CHECKING:
    from tables import TurnRefused


class TableClicks(Protocol):
    """What a click on a table's components does (cogs/game/play.py implements it)."""

    async def on_action(self, interaction: discord.Interaction, gid: int, version: int, idx: int) -> None: ...
    async def on_lobby(self, interaction: discord.Interaction, gid: int, op: str, level: str | None = None) -> None: ...
    async def on_panel(self, interaction: discord.Interaction, gid: int) -> None: ...
    async def on_private_view(self, interaction: discord.Interaction, gid: int) -> None: ...
    async def on_catchup(self, interaction: discord.Interaction, gid: int) -> None: ...
    async def on_text_board(self, interaction: discord.Interaction, gid: int) -> None: ...
    async def on_vote(self, interaction: discord.Interaction, vid: int, yes: bool) -> None: ...
    async def on_orders(self, interaction: discord.Interaction, gid: int) -> None: ...
    async def on_order(self, interaction: discord.Interaction, gid: int, op: str, value: str | None) -> None: ...


class LeagueClicks(Protocol):
    """A league's signup buttons (cogs/league/commands.py implements it)."""

    async def on_signup(self, interaction: discord.Interaction, lid: int, op: str) -> None: ...


class NotifyClicks(Protocol):
    """A choice in a member's /notify panel (cogs/game/notify.py implements it)."""

    async def on_notify(self, interaction: discord.Interaction, scope: str, key: str, value: str | None) -> None: ...


class ClickHook(Protocol):
    """The one error hook (cogs/present/errors.py): runs a click after the flood check and
    answers whatever it raises; answers a slash command's error the same way."""

    async def click(self, interaction: discord.Interaction, call: Callable[[], Awaitable[None]]) -> None: ...
    async def answer(self, interaction: discord.Interaction, error: BaseException) -> None: ...
    async def tell(self, interaction: discord.Interaction, exc: TurnRefused) -> None: ...
    async def explain(self, exc: TurnRefused, locale: str) -> str: ...


class NotLoaded(RuntimeError):
    """A click reached a handler whose cog is not loaded (answered as a failure)."""


@dataclass
class Routes:
    """Where this bot's clicks go: the hook, and the handlers the cogs registered."""

    hook: ClickHook
    tables: TableClicks | None = None
    leagues: LeagueClicks | None = None
    notify: NotifyClicks | None = None
    #: ordinary (non-dynamic) views the bot keeps live on its messages: a click on one of
    #: their components is theirs to answer (the bot sends none today; add any it sends here)
    views: weakref.WeakSet[discord.ui.View] = field(default_factory=weakref.WeakSet)

    def live_view_handles(self, custom_id: str) -> bool:
        """Whether a live ordinary view of the bot answers this custom_id."""
        return any(
            getattr(item, "custom_id", None) == custom_id
            for view in list(self.views)
            if not view.is_finished()
            for item in view.walk_children()
        )

    def table_clicks(self) -> TableClicks:
        if self.tables is None:
            raise NotLoaded("no table handler is registered")
        return self.tables

    def league_clicks(self) -> LeagueClicks:
        if self.leagues is None:
            raise NotLoaded("no league handler is registered")
        return self.leagues

    def notify_clicks(self) -> NotifyClicks:
        if self.notify is None:
            raise NotLoaded("no notify handler is registered")
        return self.notify


def routes_of(client: discord.Client) -> Routes:
    """The bot's click routes (set by bot.TabletopBot)."""
    routes = getattr(client, "routes", None)
    if not isinstance(routes, Routes):
        raise NotLoaded("this client has no click routes")
    return routes


async def route(interaction: discord.Interaction, handle: Callable[[Routes], Awaitable[None]]) -> None:
    routes = routes_of(interaction.client)
    await routes.hook.click(interaction, lambda: handle(routes))


def _selected(interaction: discord.Interaction) -> str | None:
    """The value a select sent (None: none, or not a select's data)."""
    data = interaction.data
    values = data.get("values") if isinstance(data, dict) else None
    return str(values[0]) if isinstance(values, list) and values else None


class ActionButton(discord.ui.DynamicItem[discord.ui.Button], template=ids.Action.TEMPLATE):
    """Picks choice ``idx`` of the board (or private panel) at table version ``ver``."""

    def __init__(
        self,
        gid: int,
        ver: int,
        idx: int,
        *,
        label: str = "?",
        row: int | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.primary,
        board: int | None = None,
    ) -> None:
        self.key = ids.Action(gid, ver, idx, board)
        super().__init__(discord.ui.Button(label=label, style=style, row=row, custom_id=self.key.encode()))

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        i = ids.Action.read(match)
        return cls(i.gid, i.ver, i.idx, board=i.board)

    async def callback(self, interaction: discord.Interaction) -> None:
        i = self.key
        await route(interaction, lambda r: r.table_clicks().on_action(interaction, i.gid, i.ver, i.idx))


class ActionSelect(discord.ui.DynamicItem[discord.ui.Select], template=ids.ActionMenu.TEMPLATE):
    def __init__(
        self,
        gid: int,
        ver: int,
        n: int,
        *,
        placeholder: str | None = None,
        options: list[discord.SelectOption] | None = None,
        row: int | None = None,
        board: int | None = None,
    ) -> None:
        self.key = ids.ActionMenu(gid, ver, n, board)
        super().__init__(
            discord.ui.Select(
                custom_id=self.key.encode(),
                placeholder=placeholder,
                options=options or [discord.SelectOption(label="-", value="0")],
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        i = ids.ActionMenu.read(match)
        return cls(i.gid, i.ver, i.n, board=i.board)

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            idx = int(_selected(interaction) or "")
        except ValueError:
            idx = -1
        i = self.key
        await route(interaction, lambda r: r.table_clicks().on_action(interaction, i.gid, i.ver, idx))


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button], template=ids.Lobby.TEMPLATE):
    def __init__(
        self, gid: int, op: ids.LobbyOp, *, label: str = "?", style: discord.ButtonStyle = discord.ButtonStyle.secondary
    ) -> None:
        self.key = ids.Lobby(gid, op)
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=self.key.encode()))

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        i = ids.Lobby.read(match)
        return cls(i.gid, i.op)

    async def callback(self, interaction: discord.Interaction) -> None:
        i = self.key
        await route(interaction, lambda r: r.table_clicks().on_lobby(interaction, i.gid, i.op))


class LobbyAISelect(discord.ui.DynamicItem[discord.ui.Select], template=ids.LobbyAI.TEMPLATE):
    """Add an AI seat at the chosen level (a lobby of a game with several AI levels)."""

    def __init__(
        self,
        gid: int,
        *,
        placeholder: str | None = None,
        options: list[discord.SelectOption] | None = None,
        row: int | None = None,
    ) -> None:
        self.key = ids.LobbyAI(gid)
        super().__init__(
            discord.ui.Select(
                custom_id=self.key.encode(),
                placeholder=placeholder,
                options=options or [discord.SelectOption(label="-", value="-")],
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(ids.LobbyAI.read(match).gid)

    async def callback(self, interaction: discord.Interaction) -> None:
        level, gid = _selected(interaction), self.key.gid
        await route(interaction, lambda r: r.table_clicks().on_lobby(interaction, gid, "ai", level))


class PanelButton(discord.ui.DynamicItem[discord.ui.Button], template=ids.Panel.TEMPLATE):
    """Opens a private panel with the clicker's own choices (simultaneous or secret turns)."""

    def __init__(self, gid: int, ver: int, *, label: str = "?") -> None:
        self.key = ids.Panel(gid, ver)
        super().__init__(
            discord.ui.Button(label=label, style=discord.ButtonStyle.primary, row=4, custom_id=self.key.encode())
        )

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        i = ids.Panel.read(match)
        return cls(i.gid, i.ver)

    async def callback(self, interaction: discord.Interaction) -> None:
        gid = self.key.gid
        await route(interaction, lambda r: r.table_clicks().on_panel(interaction, gid))


class PrivateViewButton(discord.ui.DynamicItem[discord.ui.Button], template=ids.PrivateView.TEMPLATE):
    """Shows the clicker their own seat's view (hand, private cards), ephemerally."""

    def __init__(self, gid: int, *, label: str = "?") -> None:
        self.key = ids.PrivateView(gid)
        super().__init__(
            discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, row=4, custom_id=self.key.encode())
        )

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(ids.PrivateView.read(match).gid)

    async def callback(self, interaction: discord.Interaction) -> None:
        gid = self.key.gid
        await route(interaction, lambda r: r.table_clicks().on_private_view(interaction, gid))


class CatchupButton(discord.ui.DynamicItem[discord.ui.Button], template=ids.Catchup.TEMPLATE):
    """ "Since your turn": the clicker's private catch-up (tables/seeing/catchup.py)."""

    def __init__(self, gid: int, *, label: str = "?") -> None:
        self.key = ids.Catchup(gid)
        super().__init__(
            discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, row=4, custom_id=self.key.encode())
        )

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(ids.Catchup.read(match).gid)

    async def callback(self, interaction: discord.Interaction) -> None:
        gid = self.key.gid
        await route(interaction, lambda r: r.table_clicks().on_catchup(interaction, gid))


class TextBoardButton(discord.ui.DynamicItem[discord.ui.Button], template=ids.TextBoard.TEMPLATE):
    """ "Text board": the board in words for the clicker, privately (their own view when seated)."""

    def __init__(self, gid: int, *, label: str = "?") -> None:
        self.key = ids.TextBoard(gid)
        super().__init__(
            discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, row=4, custom_id=self.key.encode())
        )

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(ids.TextBoard.read(match).gid)

    async def callback(self, interaction: discord.Interaction) -> None:
        gid = self.key.gid
        await route(interaction, lambda r: r.table_clicks().on_text_board(interaction, gid))


class VoteButton(discord.ui.DynamicItem[discord.ui.Button], template=ids.Vote.TEMPLATE):
    """Agree / refuse in a table vote (undo consent, seat hand-over)."""

    def __init__(self, vid: int, answer: str, *, label: str = "?") -> None:
        self.key = ids.Vote(vid, answer == "yes")
        style = discord.ButtonStyle.success if self.key.yes else discord.ButtonStyle.danger
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=self.key.encode()))

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        i = ids.Vote.read(match)
        return cls(i.vid, "yes" if i.yes else "no")

    async def callback(self, interaction: discord.Interaction) -> None:
        i = self.key
        await route(interaction, lambda r: r.table_clicks().on_vote(interaction, i.vid, i.yes))


class LeagueButton(discord.ui.DynamicItem[discord.ui.Button], template=ids.LeagueSignup.TEMPLATE):
    """Sign up for a league, or leave it (works across restarts: ids only)."""

    def __init__(
        self,
        lid: int,
        op: ids.LeagueOp,
        *,
        label: str = "?",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        self.key = ids.LeagueSignup(lid, op)
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=self.key.encode()))

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        i = ids.LeagueSignup.read(match)
        return cls(i.lid, i.op)

    async def callback(self, interaction: discord.Interaction) -> None:
        i = self.key
        await route(interaction, lambda r: r.league_clicks().on_signup(interaction, i.lid, i.op))


class OrdersButton(discord.ui.DynamicItem[discord.ui.Button], template=ids.Orders.TEMPLATE):
    """Opens the clicker's standing orders at a table, privately (cogs/game/orders.py)."""

    def __init__(self, gid: int, *, label: str = "?", row: int | None = 4) -> None:
        self.key = ids.Orders(gid)
        super().__init__(
            discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, row=row, custom_id=self.key.encode())
        )

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(ids.Orders.read(match).gid)

    async def callback(self, interaction: discord.Interaction) -> None:
        gid = self.key.gid
        await route(interaction, lambda r: r.table_clicks().on_orders(interaction, gid))


class OrderSelect(discord.ui.DynamicItem[discord.ui.Select], template=ids.OrderMenu.TEMPLATE):
    """The standing-orders panel's selects: arm an offered order, or switch off an armed one."""

    def __init__(
        self,
        gid: int,
        op: str,
        *,
        placeholder: str | None = None,
        options: list[discord.SelectOption] | None = None,
        row: int | None = None,
    ) -> None:
        self.key = ids.OrderMenu(gid, "arm" if op == "arm" else "off")
        super().__init__(
            discord.ui.Select(
                custom_id=self.key.encode(),
                placeholder=placeholder,
                options=options or [discord.SelectOption(label="-", value="-")],
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        i = ids.OrderMenu.read(match)
        return cls(i.gid, i.op)

    async def callback(self, interaction: discord.Interaction) -> None:
        i, value = self.key, _selected(interaction)
        await route(interaction, lambda r: r.table_clicks().on_order(interaction, i.gid, i.op, value))


class NotifySelect(discord.ui.DynamicItem[discord.ui.Select], template=ids.Notify.TEMPLATE):
    """A select of the member's /notify panel (cogs/present/notify_panel.py): what it sets is in its id."""

    def __init__(
        self,
        scope: str,
        key: str,
        *,
        placeholder: str | None = None,
        options: list[discord.SelectOption] | None = None,
    ) -> None:
        self.key = ids.Notify(scope, key)
        super().__init__(
            discord.ui.Select(
                custom_id=self.key.encode(),
                placeholder=placeholder,
                options=options or [discord.SelectOption(label="-", value="-")],
            )
        )

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        i = ids.Notify.read(match)
        return cls(i.scope, i.key)

    async def callback(self, interaction: discord.Interaction) -> None:
        i, value = self.key, _selected(interaction)
        await route(interaction, lambda r: r.notify_clicks().on_notify(interaction, i.scope, i.key, value))


DYNAMIC_ITEMS = (
    ActionButton,
    ActionSelect,
    LobbyButton,
    LobbyAISelect,
    PanelButton,
    PrivateViewButton,
    CatchupButton,
    VoteButton,
    LeagueButton,
    TextBoardButton,
    OrdersButton,
    OrderSelect,
    NotifySelect,
)

"""Persistent components: DynamicItems whose custom_id carries ids only.

Registered once with ``bot.add_dynamic_items`` so a click on any message the
bot ever sent (also before a restart) reaches the right handler.
"""

from __future__ import annotations

import re
from typing import Any, cast

import discord
from discord.ext import commands


class _Guarded:
    """Routes a component click to the Play cog, with its error guard."""

    def __init__(self, interaction: discord.Interaction):
        self.interaction = interaction
        self.cog: Any = cast(commands.Bot, interaction.client).get_cog("Play")

    def __getattr__(self, name: str):
        handler = getattr(self.cog, name)

        async def call(*args):
            await self.cog.guard(self.interaction, handler(*args))

        return call


def _tables(interaction: discord.Interaction) -> _Guarded:
    return _Guarded(interaction)


def _board(board: int | None) -> str:
    """A private panel's components also name the public board they came from."""
    return f":{board}" if board else ""


class ActionButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"tg:a:(?P<gid>\d+):(?P<ver>\d+):(?P<idx>\d+)(?::(?P<board>\d+))?",
):
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
        super().__init__(
            discord.ui.Button(label=label, style=style, row=row, custom_id=f"tg:a:{gid}:{ver}:{idx}{_board(board)}")
        )
        self.gid, self.ver, self.idx = gid, ver, idx

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        board = int(match["board"]) if match["board"] else None
        return cls(int(match["gid"]), int(match["ver"]), int(match["idx"]), board=board)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _tables(interaction).on_action(interaction, self.gid, self.ver, self.idx)


class ActionSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"tg:s:(?P<gid>\d+):(?P<ver>\d+):(?P<n>\d+)(?::(?P<board>\d+))?",
):
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
        super().__init__(
            discord.ui.Select(
                custom_id=f"tg:s:{gid}:{ver}:{n}{_board(board)}",
                placeholder=placeholder,
                options=options or [discord.SelectOption(label="-", value="0")],
                row=row,
            )
        )
        self.gid, self.ver = gid, ver

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        board = int(match["board"]) if match["board"] else None
        return cls(int(match["gid"]), int(match["ver"]), int(match["n"]), board=board)

    async def callback(self, interaction: discord.Interaction) -> None:
        data: Any = interaction.data or {}
        values = data.get("values") or []
        try:
            idx = int(values[0])
        except (IndexError, ValueError):
            idx = -1
        await _tables(interaction).on_action(interaction, self.gid, self.ver, idx)


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"tg:l:(?P<gid>\d+):(?P<op>join|leave|ai|start|cancel)"
):
    def __init__(
        self, gid: int, op: str, *, label: str = "?", style: discord.ButtonStyle = discord.ButtonStyle.secondary
    ) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"tg:l:{gid}:{op}"))
        self.gid, self.op = gid, op

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["gid"]), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _tables(interaction).on_lobby(interaction, self.gid, self.op)


class LobbyAISelect(discord.ui.DynamicItem[discord.ui.Select], template=r"tg:la:(?P<gid>\d+)"):
    """Add an AI seat at the chosen level (a lobby of a game with several AI levels)."""

    def __init__(
        self,
        gid: int,
        *,
        placeholder: str | None = None,
        options: list[discord.SelectOption] | None = None,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"tg:la:{gid}",
                placeholder=placeholder,
                options=options or [discord.SelectOption(label="-", value="-")],
                row=row,
            )
        )
        self.gid = gid

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        data: Any = interaction.data or {}
        values = data.get("values") or [None]
        await _tables(interaction).on_lobby(interaction, self.gid, "ai", values[0])


class PanelButton(discord.ui.DynamicItem[discord.ui.Button], template=r"tg:p:(?P<gid>\d+):(?P<ver>\d+)"):
    """Opens a private panel with the clicker's own choices (simultaneous or secret turns)."""

    def __init__(self, gid: int, ver: int, *, label: str = "?") -> None:
        super().__init__(
            discord.ui.Button(label=label, style=discord.ButtonStyle.primary, row=4, custom_id=f"tg:p:{gid}:{ver}")
        )
        self.gid, self.ver = gid, ver

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["gid"]), int(match["ver"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _tables(interaction).on_panel(interaction, self.gid)


class PrivateViewButton(discord.ui.DynamicItem[discord.ui.Button], template=r"tg:v:(?P<gid>\d+)"):
    """Shows the clicker their own seat's view (hand, private cards), ephemerally."""

    def __init__(self, gid: int, *, label: str = "?") -> None:
        super().__init__(
            discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, row=4, custom_id=f"tg:v:{gid}")
        )
        self.gid = gid

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _tables(interaction).on_private_view(interaction, self.gid)


class CatchupButton(discord.ui.DynamicItem[discord.ui.Button], template=r"tg:c:(?P<gid>\d+)"):
    """ "Since your turn": the clicker's private catch-up (tables/catchup.py)."""

    def __init__(self, gid: int, *, label: str = "?") -> None:
        super().__init__(
            discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, row=4, custom_id=f"tg:c:{gid}")
        )
        self.gid = gid

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _tables(interaction).on_catchup(interaction, self.gid)


class VoteButton(discord.ui.DynamicItem[discord.ui.Button], template=r"tg:vote:(?P<vid>\d+):(?P<answer>yes|no)"):
    """Agree / refuse in a table vote (undo consent, seat hand-over)."""

    def __init__(self, vid: int, answer: str, *, label: str = "?") -> None:
        style = discord.ButtonStyle.success if answer == "yes" else discord.ButtonStyle.danger
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"tg:vote:{vid}:{answer}"))
        self.vid, self.answer = vid, answer

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["vid"]), match["answer"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _tables(interaction).on_vote(interaction, self.vid, self.answer == "yes")


class LeagueButton(discord.ui.DynamicItem[discord.ui.Button], template=r"tg:lg:(?P<lid>\d{1,18}):(?P<op>join|leave)"):
    """Sign up for a league, or leave it (works across restarts: ids only)."""

    def __init__(self, lid: int, op: str, *, label: str = "?", style=discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"tg:lg:{lid}:{op}"))
        self.lid, self.op = lid, op

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["lid"]), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        from engine.i18n import t  # noqa: PLC0415 -- kept out of this light module's import time
        from tables import TurnRefused  # noqa: PLC0415
        from tables.text import escape  # noqa: PLC0415

        from .flood import admit  # noqa: PLC0415
        from .locale import locale_of  # noqa: PLC0415

        if not await admit(interaction):
            return
        services: Any = cast(Any, interaction.client).services
        locale = locale_of(interaction, services.default_locale)
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            if self.op == "join":
                row = await services.leagues.signup(self.lid, interaction.user.id)
                key = "league.signed_up" if row.status == "signup" else "league.signed_up_late"
                n = int(row.state.get("round", 0)) + 1
            else:
                row, _ = await services.leagues.withdraw(self.lid, interaction.user.id)
                key, n = "league.left", 0
        except TurnRefused as exc:
            await interaction.followup.send(exc.text(locale), ephemeral=True)
            return
        await interaction.followup.send(
            t(key, locale, name=escape(row.name, 60), round=n),
            ephemeral=True,
        )


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
)

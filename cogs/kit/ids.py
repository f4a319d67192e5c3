"""The one codec for our components' custom_ids.

A custom_id carries ids only (``tg:<kind>:...``): every component the bot ever
sent, also before a restart, names what it does and for which table, vote or
league.  Each kind is a small frozen dataclass with :meth:`encode` and a
regular expression (:attr:`TEMPLATE`, also the DynamicItem's template in
cogs/kit/components.py); :func:`decode` reads any custom_id back into its kind, or
None.  The formats are the ones on messages already in Discord and must stay
readable: change a format only by adding a kind (tests/test_ids.py holds the
old ids).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar, Literal, TypeAlias

LobbyOp = Literal["join", "leave", "ai", "start", "cancel", "thread"]
LeagueOp = Literal["join", "leave"]
LOBBY_OPS: tuple[LobbyOp, ...] = ("join", "leave", "ai", "start", "cancel", "thread")
LEAGUE_OPS: tuple[LeagueOp, ...] = ("join", "leave")


def _board(board: int | None) -> str:
    """A private panel's components also name the public board they came from."""
    return f":{board}" if board else ""


def _opt(value: str | None) -> int | None:
    return int(value) if value else None


@dataclass(frozen=True)
class Action:
    """Choice ``idx`` of the board (or private panel) of table ``gid`` at version ``ver``."""

    TEMPLATE: ClassVar[str] = r"tg:a:(?P<gid>\d+):(?P<ver>\d+):(?P<idx>\d+)(?::(?P<board>\d+))?"
    gid: int
    ver: int
    idx: int
    board: int | None = None

    def encode(self) -> str:
        return f"tg:a:{self.gid}:{self.ver}:{self.idx}{_board(self.board)}"

    @classmethod
    def read(cls, m: re.Match[str]) -> Action:
        return cls(int(m["gid"]), int(m["ver"]), int(m["idx"]), _opt(m["board"]))


@dataclass(frozen=True)
class ActionMenu:
    """A select of the choices of table ``gid`` at version ``ver`` (the ``n``-th menu)."""

    TEMPLATE: ClassVar[str] = r"tg:s:(?P<gid>\d+):(?P<ver>\d+):(?P<n>\d+)(?::(?P<board>\d+))?"
    gid: int
    ver: int
    n: int
    board: int | None = None

    def encode(self) -> str:
        return f"tg:s:{self.gid}:{self.ver}:{self.n}{_board(self.board)}"

    @classmethod
    def read(cls, m: re.Match[str]) -> ActionMenu:
        return cls(int(m["gid"]), int(m["ver"]), int(m["n"]), _opt(m["board"]))


@dataclass(frozen=True)
class Lobby:
    """A lobby button: join, leave, add an AI, start, cancel, play in a thread."""

    TEMPLATE: ClassVar[str] = r"tg:l:(?P<gid>\d+):(?P<op>join|leave|ai|start|cancel|thread)"
    gid: int
    op: LobbyOp

    def encode(self) -> str:
        return f"tg:l:{self.gid}:{self.op}"

    @classmethod
    def read(cls, m: re.Match[str]) -> Lobby:
        op = next(o for o in LOBBY_OPS if o == m["op"])
        return cls(int(m["gid"]), op)


@dataclass(frozen=True)
class LobbyAI:
    """The lobby's AI-level select (a game with several AI levels)."""

    TEMPLATE: ClassVar[str] = r"tg:la:(?P<gid>\d+)"
    gid: int

    def encode(self) -> str:
        return f"tg:la:{self.gid}"

    @classmethod
    def read(cls, m: re.Match[str]) -> LobbyAI:
        return cls(int(m["gid"]))


@dataclass(frozen=True)
class Panel:
    """Opens the clicker's private panel (simultaneous or secret turns)."""

    TEMPLATE: ClassVar[str] = r"tg:p:(?P<gid>\d+):(?P<ver>\d+)"
    gid: int
    ver: int

    def encode(self) -> str:
        return f"tg:p:{self.gid}:{self.ver}"

    @classmethod
    def read(cls, m: re.Match[str]) -> Panel:
        return cls(int(m["gid"]), int(m["ver"]))


@dataclass(frozen=True)
class PrivateView:
    """Shows the clicker their own seat's view."""

    TEMPLATE: ClassVar[str] = r"tg:v:(?P<gid>\d+)"
    gid: int

    def encode(self) -> str:
        return f"tg:v:{self.gid}"

    @classmethod
    def read(cls, m: re.Match[str]) -> PrivateView:
        return cls(int(m["gid"]))


@dataclass(frozen=True)
class Catchup:
    """ "Since your turn": the clicker's private catch-up."""

    TEMPLATE: ClassVar[str] = r"tg:c:(?P<gid>\d+)"
    gid: int

    def encode(self) -> str:
        return f"tg:c:{self.gid}"

    @classmethod
    def read(cls, m: re.Match[str]) -> Catchup:
        return cls(int(m["gid"]))


@dataclass(frozen=True)
class TextBoard:
    """ "Text board": the board in words, privately (a screen reader's board)."""

    TEMPLATE: ClassVar[str] = r"tg:t:(?P<gid>\d+)"
    gid: int

    def encode(self) -> str:
        return f"tg:t:{self.gid}"

    @classmethod
    def read(cls, m: re.Match[str]) -> TextBoard:
        return cls(int(m["gid"]))


@dataclass(frozen=True)
class Vote:
    """Agree / refuse in table vote ``vid``."""

    TEMPLATE: ClassVar[str] = r"tg:vote:(?P<vid>\d+):(?P<answer>yes|no)"
    vid: int
    yes: bool

    def encode(self) -> str:
        return f"tg:vote:{self.vid}:{'yes' if self.yes else 'no'}"

    @classmethod
    def read(cls, m: re.Match[str]) -> Vote:
        return cls(int(m["vid"]), m["answer"] == "yes")


@dataclass(frozen=True)
class LeagueSignup:
    """Sign up for league ``lid``, or leave it."""

    TEMPLATE: ClassVar[str] = r"tg:lg:(?P<lid>\d{1,18}):(?P<op>join|leave)"
    lid: int
    op: LeagueOp

    def encode(self) -> str:
        return f"tg:lg:{self.lid}:{self.op}"

    @classmethod
    def read(cls, m: re.Match[str]) -> LeagueSignup:
        op = next(o for o in LEAGUE_OPS if o == m["op"])
        return cls(int(m["lid"]), op)


@dataclass(frozen=True)
class Notify:
    """A control of a member's ``/notify`` panel: ``key`` what it sets (an event's way, the
    time zone, the quiet hours, the digest's hour, the scope shown) in ``scope`` ("all":
    every table; "g.<game>": one game's tables; "t.<id>": one table).  The member is the
    clicker: the id names nobody."""

    TEMPLATE: ClassVar[str] = r"tg:n:(?P<scope>all|g\.[a-z0-9_]{1,40}|t\.\d{1,18}):(?P<key>[a-z0-9_]{1,40})"
    scope: str
    key: str

    def encode(self) -> str:
        return f"tg:n:{self.scope}:{self.key}"

    @classmethod
    def read(cls, m: re.Match[str]) -> Notify:
        return cls(m["scope"], m["key"])


@dataclass(frozen=True)
class Orders:
    """Opens the clicker's standing orders at table ``gid`` (what is armed, what may be)."""

    TEMPLATE: ClassVar[str] = r"tg:o:(?P<gid>\d+)"
    gid: int

    def encode(self) -> str:
        return f"tg:o:{self.gid}"

    @classmethod
    def read(cls, m: re.Match[str]) -> Orders:
        return cls(int(m["gid"]))


@dataclass(frozen=True)
class OrderMenu:
    """The standing-orders panel's selects at table ``gid``: arm the picked offer (``op``
    "arm"; the value names it) or switch off the picked armed order ("off")."""

    TEMPLATE: ClassVar[str] = r"tg:o(?P<op>a|d):(?P<gid>\d+)"
    gid: int
    op: Literal["arm", "off"]

    def encode(self) -> str:
        return f"tg:o{'a' if self.op == 'arm' else 'd'}:{self.gid}"

    @classmethod
    def read(cls, m: re.Match[str]) -> OrderMenu:
        return cls(int(m["gid"]), "arm" if m["op"] == "a" else "off")


ComponentId: TypeAlias = (
    Action
    | ActionMenu
    | Lobby
    | LobbyAI
    | Panel
    | PrivateView
    | Catchup
    | TextBoard
    | Vote
    | LeagueSignup
    | Orders
    | OrderMenu
    | Notify
)
KINDS: tuple[type[ComponentId], ...] = (
    Action,
    ActionMenu,
    Lobby,
    LobbyAI,
    Panel,
    PrivateView,
    Catchup,
    Vote,
    LeagueSignup,
    TextBoard,
    Orders,
    OrderMenu,
    Notify,
)
_COMPILED = [(re.compile(kind.TEMPLATE), kind) for kind in KINDS]


def decode(custom_id: object) -> ComponentId | None:
    """The component a custom_id names, or None (not ours, mangled, forged)."""
    if not isinstance(custom_id, str):
        return None
    for pattern, kind in _COMPILED:
        m = pattern.fullmatch(custom_id)
        if m is not None:
            return kind.read(m)
    return None


def table_of(custom_id: object) -> int | None:
    """The table a component belongs to (None: a vote, a league, the notify panel, not ours)."""
    found = decode(custom_id)
    return None if found is None or isinstance(found, (Vote, LeagueSignup, Notify)) else found.gid


def panel_board(custom_id: object) -> int | None:
    """The public board a private panel's action was opened from (its id rides in the custom_id)."""
    found = decode(custom_id)
    return found.board if isinstance(found, (Action, ActionMenu)) else None

"""The storage interface the cogs use.  No SQL leaves this package.

A backend (SQLite now; PostgreSQL for sharded bots later) implements
:class:`Store`.  Rows come back as plain dataclasses holding JSON *text* for
the state, so the cogs never depend on a driver's types.
"""

from __future__ import annotations

import asyncio
import json
import weakref
from collections.abc import AsyncIterator, Hashable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

ACTIVE_STATUSES = ("lobby", "active")


class StoreError(Exception):
    pass


class VersionConflict(StoreError):
    """Somebody else saved this game first (compare-and-swap lost)."""


class StoreInUse(StoreError):
    """The database cannot be opened by this process (SQLite file held by another bot process)."""


class ChannelBusy(StoreError):
    """The channel already has a game in its lobby or running."""


class CorruptRow(StoreError):
    def __init__(self, game_id: int, reason: str):
        self.game_id = game_id
        self.reason = reason
        super().__init__(f"game {game_id}: {reason}")


@dataclass
class Seat:
    seat: str
    user_id: int | None  # None: the seat-filler AI plays it

    @property
    def is_ai(self) -> bool:
        return self.user_id is None


@dataclass
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int
    game: str
    status: str
    host_id: int
    seats: list[Seat]
    options: dict[str, Any]
    seed: int
    state_json: str | None
    version: int
    created_at: float
    updated_at: float
    locale: str | None = None
    outcome: dict[str, Any] | None = None
    turn_started_at: float | None = None
    to_act: list[str] = field(default_factory=list)
    last_reminder_at: float | None = None
    campaign_id: int | None = None
    finished_at: float | None = None
    table: dict[str, Any] = field(default_factory=dict)  # platform settings of this table (timers)

    def seat_of(self, user_id: int) -> str | None:
        for s in self.seats:
            if s.user_id == user_id:
                return s.seat
        return None

    def user_of(self, seat: str) -> int | None:
        for s in self.seats:
            if s.seat == seat:
                return s.user_id
        return None

    @property
    def humans(self) -> list[int]:
        return [s.user_id for s in self.seats if s.user_id is not None]


@dataclass
class ActionRow:
    seat: str
    user_id: int | None
    action: dict[str, Any]
    version: int = 0
    created_at: float = 0.0
    id: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class ResultRow:
    seat: str
    user_id: int
    place: int
    won: bool
    score: float | None = None
    record: float | None = None


@dataclass
class StatRow:
    game: str
    user_id: int
    played: int
    wins: int
    best_low: float | None  # smallest record (e.g. fewest rounds to clear)
    best_high: float | None  # largest record (e.g. biggest fortune)


@dataclass
class Campaign:
    id: int
    guild_id: int
    game: str
    name: str
    points: list[int]
    progress: dict[str, Any] | None
    created_by: int
    status: str = "open"


@dataclass
class Vote:
    id: int
    game_id: int
    kind: str
    payload: dict[str, Any]
    base_version: int
    voters: list[int]
    yes: list[int]
    status: str
    created_by: int | None
    no: list[int] = field(default_factory=list)


class Store:
    """Abstract storage.  Every method is a coroutine; all writes are atomic."""

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[Hashable, asyncio.Lock] = weakref.WeakValueDictionary()

    @asynccontextmanager
    async def lock(self, key: Hashable) -> AsyncIterator[None]:
        """Per-game (or per-vote) lock inside this process; the version CAS covers other processes."""
        lock = self._locks.get(key)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[key] = lock
        async with lock:
            yield

    # lifecycle
    async def open(self) -> None: ...
    async def close(self) -> None: ...

    # games
    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game: str,
        host_id: int,
        options: dict[str, Any],
        seed: int,
        seats: Sequence[Seat],
        locale: str | None = None,
        status: str = "lobby",
        state_json: str | None = None,
        table: dict[str, Any] | None = None,
        campaign_id: int | None = None,
    ) -> GameRow:
        raise NotImplementedError

    async def get_game(self, game_id: int) -> GameRow | None:
        raise NotImplementedError

    async def active_game(self, channel_id: int) -> GameRow | None:
        raise NotImplementedError

    async def update_game(
        self,
        game_id: int,
        expected_version: int,
        *,
        seats: Sequence[Seat] | None = None,
        status: str | None = None,
        state_json: str | None = None,
        options: dict[str, Any] | None = None,
        outcome: dict[str, Any] | None = None,
        actions: Sequence[ActionRow] = (),
        to_act: Sequence[str] | None = None,
        results: Sequence[ResultRow] = (),
        table: dict[str, Any] | None = None,
        revert: Sequence[int] = (),
        by_user: int | None = None,
    ) -> int:
        """Compare-and-swap: apply the changes only if the row is still at
        ``expected_version``; append ``actions`` to the log, mark the action ids
        in ``revert`` as taken back (undo), record ``results`` (a finished
        game); return the new version.  Raises :class:`VersionConflict` otherwise."""
        raise NotImplementedError

    async def actions(self, game_id: int, *, limit: int = 50, offset: int = 0) -> list[ActionRow]:
        """The effective log (taken-back actions left out), oldest first."""
        raise NotImplementedError

    async def count_actions(self, game_id: int) -> int:
        raise NotImplementedError

    async def waiting_tables(self) -> list[GameRow]:
        """Running games with somebody to act (reminders and turn timers)."""
        raise NotImplementedError

    async def mark_reminded(self, game_id: int, at: float) -> None:
        raise NotImplementedError

    # settings
    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        raise NotImplementedError

    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None:
        raise NotImplementedError

    async def user_prefs(self, user_id: int) -> dict[str, Any]:
        raise NotImplementedError

    async def set_user_prefs(self, user_id: int, prefs: dict[str, Any]) -> None:
        raise NotImplementedError

    # stats
    async def stats(self, guild_id: int, *, game: str | None = None, user_id: int | None = None) -> list[StatRow]:
        raise NotImplementedError

    async def results_of_campaign(self, campaign_id: int) -> list[ResultRow]:
        raise NotImplementedError

    # campaigns
    async def create_campaign(
        self,
        *,
        guild_id: int,
        game: str,
        name: str,
        points: list[int],
        created_by: int,
        progress: dict[str, Any] | None = None,
    ) -> Campaign:
        raise NotImplementedError

    async def campaign(self, guild_id: int, name: str) -> Campaign | None:
        raise NotImplementedError

    async def campaign_by_id(self, campaign_id: int) -> Campaign | None:
        raise NotImplementedError

    async def campaigns(self, guild_id: int) -> list[Campaign]:
        raise NotImplementedError

    async def set_campaign_progress(self, campaign_id: int, progress: dict[str, Any]) -> None:
        raise NotImplementedError

    # votes (undo consent, seat hand-over)
    async def create_vote(
        self,
        *,
        game_id: int,
        kind: str,
        payload: dict[str, Any],
        base_version: int,
        voters: list[int],
        created_by: int | None,
    ) -> Vote:
        raise NotImplementedError

    async def get_vote(self, vote_id: int) -> Vote | None:
        raise NotImplementedError

    async def update_vote(
        self, vote_id: int, *, yes: list[int] | None = None, no: list[int] | None = None, status: str | None = None
    ) -> None:
        raise NotImplementedError

    async def quarantine(self, game_id: int, reason: str) -> None:
        raise NotImplementedError

    async def games_of_user(
        self, user_id: int, guild_id: int | None = None, statuses: Sequence[str] = ACTIVE_STATUSES
    ) -> list[GameRow]:
        raise NotImplementedError

    async def count_games(self) -> int:
        raise NotImplementedError

    # key/value metadata (command-tree hash, ...)
    async def get_meta(self, key: str) -> str | None:
        raise NotImplementedError

    async def set_meta(self, key: str, value: str) -> None:
        raise NotImplementedError


def dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), sort_keys=True)

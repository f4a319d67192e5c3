"""The store's narrow interfaces: one :class:`typing.Protocol` per role.

:class:`store.base.Store` is what a backend implements (every method, both
backends).  Nobody above the store needs all of it: the table kernel needs a
handful of calls (load a table, the one compare-and-swap commit, the replay
source and its snapshots), and each feature module of tables/ needs a few of its
own.  Each of them types its store as the protocol below that names exactly
what it calls, so mypy proves a feature uses nothing else (the backends satisfy
every protocol structurally; nothing here is inherited).

tests/test_store_ports.py keeps this honest: each protocol stays small, and
every public method of :class:`Store` belongs to at least one protocol or to the
explicit :data:`TEST_SUPPORT` list (with its reason), so a method nothing uses
shows up.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Hashable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol, runtime_checkable

from .rows import (
    ACTIVE_STATUSES,
    ActionRow,
    Campaign,
    Caps,
    ChangeSet,
    Committed,
    FollowRow,
    GameRow,
    LeagueRow,
    NewSnapshot,
    OutboxRow,
    OwedMessage,
    RatingRow,
    ReplaySource,
    ResultRow,
    Seat,
    StatRow,
    UndoRow,
    Vote,
)

#: Store methods no feature calls, kept for tests, benches and tools (each with its reason)
TEST_SUPPORT: dict[str, str] = {
    "inject_crash": "crash injection: tests prove a change set lands whole or not at all",
    "quarantined": "tests and bench list the quarantined tables (operators' view of broken rows)",
    "waiting_tables": "tests and bench/scale.py list running tables",
    "count_games": "tests and bench count every stored table",
    "snapshots": "tests and bench read a table's snapshot rows (the kernel writes them through commit)",
}


@runtime_checkable
class KernelStore(Protocol):
    """tables/kernel.py: load a table, the compare-and-swap commit, the replay source and its snapshots, a health check."""

    async def get_game(self, game_id: int) -> GameRow | None: ...
    async def active_game(self, channel_id: int) -> GameRow | None: ...
    async def commit(self, changes: ChangeSet) -> Committed: ...
    async def update_game(self, game_id: int, expected_version: int, **changes: Any) -> int: ...
    async def replay_source(
        self, game_id: int, key: str | None, *, turn: int | None = None, user_id: int | None = None
    ) -> ReplaySource: ...
    async def fill_snapshots(self, game_id: int, expected_version: int, snapshots: Sequence[NewSnapshot]) -> bool: ...
    async def drop_snapshots(self, game_id: int | None = None) -> int: ...
    async def quarantine(self, game_id: int, reason: str) -> None: ...
    async def campaign_by_id(self, campaign_id: int) -> Campaign | None: ...
    async def ratings(
        self, guild_id: int, game: str | None = None, user_ids: Sequence[int] | None = None
    ) -> list[RatingRow]: ...
    async def check(self) -> None: ...


@runtime_checkable
class LobbyStore(Protocol):
    """tables/lobby.py and tables/limits.py: open a table under the caps, rate limits, the lobby message, idle lobbies."""

    def lock(self, key: Hashable) -> AbstractAsyncContextManager[None]: ...
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
        caps: Caps | None = None,
    ) -> GameRow: ...
    async def campaign(self, guild_id: int, name: str) -> Campaign | None: ...
    async def claim_rate(
        self, kind: str, guild_id: int | None, user_id: int, now: float, window: float, caps: Caps
    ) -> None: ...
    async def release_rate(self, kind: str, user_id: int, at: float) -> None: ...
    async def count_open(self, guild_id: int, user_id: int) -> dict[str, tuple[int, int]]: ...
    async def set_lobby_message(self, game_id: int, message_id: int) -> None: ...
    async def idle_lobbies(self, before: float) -> list[tuple[GameRow, int | None]]: ...


@runtime_checkable
class SeatStore(Protocol):
    """tables/turns.py, seats.py, votes.py (and refusals): votes, undo's replay, what happened since."""

    def lock(self, key: Hashable) -> AbstractAsyncContextManager[None]: ...
    async def get_vote(self, vote_id: int) -> Vote | None: ...
    async def replay_source(
        self, game_id: int, key: str | None, *, turn: int | None = None, user_id: int | None = None
    ) -> ReplaySource: ...
    async def actions(self, game_id: int, *, limit: int = 50, offset: int = 0) -> list[ActionRow]: ...
    async def count_actions(self, game_id: int) -> int: ...


@runtime_checkable
class ScheduleStore(Protocol):
    """tables/schedule.py: tables due a timeout or a reminder, the reminder mark, open votes."""

    def lock(self, key: Hashable) -> AbstractAsyncContextManager[None]: ...
    async def due_tables(self, now: float) -> list[GameRow]: ...
    async def mark_reminded(
        self, game_id: int, at: float | None, *, expected_version: int | None = None, previous: float | None = None
    ) -> bool: ...
    async def open_votes(self, game_id: int) -> list[Vote]: ...


@runtime_checkable
class HistoryStore(Protocol):
    """tables/history.py, catchup.py, board.py: the log, the last finished table, replay."""

    async def get_game(self, game_id: int) -> GameRow | None: ...
    async def latest_game(self, channel_id: int, statuses: Sequence[str]) -> GameRow | None: ...
    async def actions(self, game_id: int, *, limit: int = 50, offset: int = 0) -> list[ActionRow]: ...
    async def count_actions(self, game_id: int) -> int: ...
    async def undos(self, game_id: int) -> list[UndoRow]: ...
    async def replay_source(
        self, game_id: int, key: str | None, *, turn: int | None = None, user_id: int | None = None
    ) -> ReplaySource: ...


@runtime_checkable
class PeopleStore(Protocol):
    """tables/people.py: /mine and follows."""

    async def latest_game(self, channel_id: int, statuses: Sequence[str]) -> GameRow | None: ...
    async def games_of_user(
        self, user_id: int, guild_id: int | None = None, statuses: Sequence[str] = ACTIVE_STATUSES
    ) -> list[GameRow]: ...
    async def follow(self, game_id: int, user_id: int, mode: str, sent_version: int) -> None: ...
    async def unfollow(self, game_id: int, user_id: int) -> bool: ...
    async def due_follows(self, now: float, digest_seconds: float) -> list[FollowRow]: ...
    async def mark_follow_sent(self, game_id: int, user_id: int, version: int, now: float, previous: int) -> bool: ...
    async def followers_closed(self, game_id: int) -> bool: ...
    async def set_followers_closed(self, game_id: int, closed: bool) -> None: ...


@runtime_checkable
class PrivacyStore(Protocol):
    """tables/privacy.py: what the bot keeps about a member, and forgetting it."""

    async def footprint(self, user_id: int, guild_id: int | None = None) -> dict[str, Any]: ...
    async def web_tokens_end(self, user_id: int) -> int: ...
    async def forget_user(self, user_id: int, anon_id: int, guild_id: int | None = None) -> dict[str, int]: ...


@runtime_checkable
class CampaignStore(Protocol):
    """tables/campaigns.py, community.py, standings.py: campaigns, their standings, stats and ratings."""

    async def create_campaign(
        self,
        *,
        guild_id: int,
        game: str,
        name: str,
        points: list[int],
        created_by: int,
        progress: dict[str, Any] | None = None,
        caps: Caps | None = None,
    ) -> Campaign: ...
    async def campaign(self, guild_id: int, name: str) -> Campaign | None: ...
    async def campaign_by_id(self, campaign_id: int) -> Campaign | None: ...
    async def campaigns(self, guild_id: int) -> list[Campaign]: ...
    async def results_of_campaign(self, campaign_id: int) -> list[ResultRow]: ...
    async def stats(self, guild_id: int, *, game: str | None = None, user_id: int | None = None) -> list[StatRow]: ...
    async def ratings(
        self, guild_id: int, game: str | None = None, user_ids: Sequence[int] | None = None
    ) -> list[RatingRow]: ...


@runtime_checkable
class LeagueStore(Protocol):
    """tables/league_setup.py, leagues.py, league_rules.py: leagues, their steps, their tables and results."""

    def lock(self, key: Hashable) -> AbstractAsyncContextManager[None]: ...
    async def create_league(
        self,
        *,
        guild_id: int,
        channel_id: int,
        game: str,
        name: str,
        format: str,
        config: dict[str, Any],
        state: dict[str, Any],
        created_by: int,
        caps: Caps | None = None,
    ) -> LeagueRow: ...
    async def league(self, league_id: int) -> LeagueRow | None: ...
    async def league_named(self, guild_id: int, name: str) -> LeagueRow | None: ...
    async def leagues(self, guild_id: int | None = None, statuses: Sequence[str] | None = None) -> list[LeagueRow]: ...
    async def update_league(
        self,
        league_id: int,
        expected_version: int,
        *,
        status: str | None = None,
        state: dict[str, Any] | None = None,
        config: dict[str, Any] | None = None,
    ) -> int: ...
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
        caps: Caps | None = None,
    ) -> GameRow: ...
    async def get_game(self, game_id: int) -> GameRow | None: ...
    async def actions(self, game_id: int, *, limit: int = 50, offset: int = 0) -> list[ActionRow]: ...
    async def results_of_games(self, game_ids: Sequence[int]) -> dict[int, list[ResultRow]]: ...
    async def ratings(
        self, guild_id: int, game: str | None = None, user_ids: Sequence[int] | None = None
    ) -> list[RatingRow]: ...


@runtime_checkable
class LeagueStepStore(Protocol):
    """tables/leagues.py and league_deadline.py: a league pass's steps, each claimed once across
    processes for a lease, done only when its effect is, given back when it could not be."""

    async def claim_league_step(self, league_id: int, round: int, step: str, now: float, lease: float) -> bool: ...
    async def finish_league_step(self, league_id: int, round: int, step: str, now: float) -> None: ...
    async def release_league_step(self, league_id: int, round: int, step: str) -> None: ...


@runtime_checkable
class SettingsStore(Protocol):
    """tables/settings.py and members.py: server settings and member preferences."""

    async def guild_settings(self, guild_id: int) -> dict[str, Any]: ...
    async def update_guild_settings(
        self, guild_id: int, change: Callable[[dict[str, Any]], dict[str, Any]]
    ) -> dict[str, Any]: ...
    async def user_prefs(self, user_id: int) -> dict[str, Any]: ...
    async def update_user_prefs(
        self, user_id: int, change: Callable[[dict[str, Any]], dict[str, Any]]
    ) -> dict[str, Any]: ...
    async def set_user_prefs(self, user_id: int, prefs: dict[str, Any]) -> None: ...


@runtime_checkable
class DeliveryStore(Protocol):
    """tables/delivery.py: the outbox of boards and notes owed to channels."""

    async def outbox(self, game_id: int) -> OutboxRow | None: ...
    async def due_outbox(self, now: float, limit: int = 50) -> list[OutboxRow]: ...
    async def claim_outbox(self, row: OutboxRow, owner: str, until: float, now: float) -> bool: ...
    async def outbox_posted(self, game_id: int, version: int, message_id: int) -> bool: ...
    async def outbox_done(self, game_id: int, version: int) -> bool: ...
    async def outbox_retry(self, game_id: int, version: int, owner: str | None, due_at: float) -> bool: ...
    async def due_messages(self, now: float, limit: int = 50) -> list[OwedMessage]: ...
    async def claim_message(self, row: OwedMessage, owner: str, until: float, now: float) -> bool: ...
    async def message_done(self, key: str) -> bool: ...
    async def message_retry(self, key: str, owner: str | None, due_at: float) -> bool: ...
    async def actions(self, game_id: int, *, limit: int = 50, offset: int = 0) -> list[ActionRow]: ...
    async def count_actions(self, game_id: int) -> int: ...


@runtime_checkable
class WebSessionStore(Protocol):
    """tables/web_sessions.py: the web companion's sign-in tokens."""

    async def meta_default(self, key: str, value: str) -> str: ...
    async def web_token_put(
        self, token_hash: str, kind: str, user_id: int, game_id: int | None, expires_at: float
    ) -> None: ...
    async def web_token_take(self, token_hash: str, kind: str, now: float) -> tuple[int, int | None] | None: ...
    async def web_token_get(self, token_hash: str, kind: str, now: float) -> tuple[int, int | None] | None: ...
    async def web_tokens_end(self, user_id: int) -> int: ...
    async def web_tokens_purge(self, now: float) -> int: ...


@runtime_checkable
class NameStore(Protocol):
    """tables/names.py: members' display names, read by every process (the web companion's pages)."""

    async def member_names(self, guild_id: int, user_ids: Sequence[int]) -> dict[int, str]: ...
    async def set_member_name(
        self, guild_id: int, user_id: int, name: str, now: float, *, create: bool = True
    ) -> bool: ...


@runtime_checkable
class LiveStore(Protocol):
    """tables/live.py: which tables moved (for the web companion's live pages)."""

    async def table_versions(self, game_ids: Sequence[int]) -> dict[int, int]: ...
    async def listen_tables(self, callback: Callable[[int, int], None]) -> Callable[[], Awaitable[None]] | None: ...


@runtime_checkable
class AdminStore(Protocol):
    """bot.py and operators' tools: open, close, check, the bot's own notes (command sync digest)."""

    async def open(self) -> None: ...
    async def close(self) -> None: ...
    async def check(self) -> None: ...
    async def get_meta(self, key: str) -> str | None: ...
    async def set_meta(self, key: str, value: str) -> None: ...


#: every role above, for tests/test_store_ports.py
PORTS: tuple[type, ...] = (
    KernelStore,
    LobbyStore,
    SeatStore,
    ScheduleStore,
    HistoryStore,
    PeopleStore,
    PrivacyStore,
    CampaignStore,
    LeagueStore,
    LeagueStepStore,
    SettingsStore,
    DeliveryStore,
    WebSessionStore,
    NameStore,
    LiveStore,
    AdminStore,
)

"""The roles of the table kernel and the play around it: the kernel, the lobby, seats and
votes, the scheduler, the log, delivery, the live pages, the bot's wiring, and what only
tests and tools call."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from ..rows import (
    Caps,
    ChangeSet,
    Committed,
    GameRow,
    NewSnapshot,
    OrdersChange,
    OutboxRow,
    OwedMessage,
    SnapshotRow,
    UndoRow,
    Vote,
)
from .shared import (
    ActionCount,
    ActionLog,
    CampaignById,
    CampaignByName,
    Health,
    LatestTable,
    Locking,
    RatingReads,
    Replay,
    TableById,
    TableCreation,
)


@runtime_checkable
class KernelStore(TableById, Replay, RatingReads, CampaignById, Health, Protocol):
    """tables/core/kernel.py: load a table, the compare-and-swap commit, the replay source and its snapshots, a health check."""

    async def active_game(self, channel_id: int) -> GameRow | None:
        """The channel's lobby or running table."""

    async def commit(self, changes: ChangeSet) -> Committed:
        """Apply ``changes`` in one transaction, all or nothing (see store/base.py,
        "Writing").  Raises :class:`VersionConflict` when any expected version
        no longer holds; then nothing was written."""

    async def update_game(self, game_id: int, expected_version: int, **changes: Any) -> int:
        """One :class:`GameChange` on its own; returns the new version."""

    async def fill_snapshots(self, game_id: int, expected_version: int, snapshots: Sequence[NewSnapshot]) -> bool:
        """Cache states a replay computed (each names its ``action_id``), while the
        table is still at ``expected_version`` (the version does not change; a
        snapshot already there is kept).  Returns False and writes nothing when
        the table moved on."""

    async def drop_snapshots(self, game_id: int | None = None) -> int:
        """Drop the cached states of one table (None: of every table); returns how many."""

    async def quarantine(self, game_id: int, reason: str) -> None:
        """Take a table out of play (status ``quarantined``; the channel is
        free again) and keep its raw row for a developer."""


@runtime_checkable
class OrderStore(Locking, Protocol):
    """tables/play/orders.py: a member arms or disarms a standing order (store/orders.py)."""

    async def set_orders(self, game_id: int, expected_version: int, change: OrdersChange) -> bool:
        """Replace a running table's armed standing orders while it is at ``expected_version``
        and they are still as read (``change.expected``); its version stays.  False: not written."""


@runtime_checkable
class LobbyStore(Locking, TableCreation, CampaignByName, Protocol):
    """tables/play/lobby.py and tables/rules/limits.py: open a table under the caps, rate limits, the lobby message, idle lobbies."""

    async def claim_rate(
        self, kind: str, guild_id: int | None, user_id: int, now: float, window: float, caps: Caps
    ) -> None:
        """Record one ``kind`` event (a thread opened) of the member, unless the member
        (``caps.member``) or the server (``caps.server``) had that many in the last
        ``window`` seconds: then raise :class:`LimitReached` and write nothing.  Counted
        and written in one transaction; events older than the window are dropped."""

    async def release_rate(self, kind: str, user_id: int, at: float) -> None:
        """Give back a claimed event (what it was for could not be done)."""

    async def count_open(self, guild_id: int, user_id: int) -> dict[str, tuple[int, int]]:
        """What the member and the server have open: {"lobbies": (member's, server's),
        "campaigns": (...)}; lobbies the member hosts, open campaigns they created."""

    async def set_lobby_message(self, game_id: int, message_id: int) -> None:
        """Remember the message that shows a lobby (so its expiry can be shown there);
        the table's version does not change."""

    async def idle_lobbies(self, before: float) -> list[tuple[GameRow, int | None]]:
        """Lobbies unchanged since ``before``, with their lobby message (None: unknown), oldest first."""


@runtime_checkable
class SeatStore(Locking, ActionLog, ActionCount, Replay, Protocol):
    """tables/play/turns.py, seats.py, votes.py (and refusals): votes, undo's replay, what happened since."""

    async def get_vote(self, vote_id: int) -> Vote | None: ...


@runtime_checkable
class ScheduleStore(Locking, Protocol):
    """tables/play/schedule.py: tables due a timeout or a reminder, the reminder mark, open votes."""

    async def due_tables(self, now: float) -> list[GameRow]:
        """Running tables with a seat whose reminder or turn timer is due at ``now``:
        read through the indexed due times, so a pass costs what is due, not what runs."""

    async def mark_reminded(
        self, game_id: int, at: float | None, *, expected_version: int | None = None, previous: float | None = None
    ) -> bool:
        """Reminder bookkeeping (does not change the table's version).  With
        ``expected_version`` it claims the reminder: it writes, and returns True,
        only while the table is at that version and its last reminder time is
        still ``previous`` (the one the caller saw), so each reminder is sent
        once, also across processes.  ``at=None`` clears the mark."""

    async def open_votes(self, game_id: int) -> list[Vote]:
        """The table's open votes, oldest first."""


@runtime_checkable
class HistoryStore(TableById, LatestTable, ActionLog, ActionCount, Replay, Protocol):
    """tables/play/history.py, tables/seeing/catchup.py, board.py: the log, the last finished table, replay."""

    async def undos(self, game_id: int) -> list[UndoRow]:
        """The table's undos (its taken-back steps by the undo that took them back), in log order."""


@runtime_checkable
class DeliveryStore(ActionLog, ActionCount, Protocol):
    """tables/play/delivery.py: the outbox of boards and notes owed to channels (see store/base.py, "The outbox")."""

    async def outbox(self, game_id: int) -> OutboxRow | None:
        """The table's undelivered board, if any."""

    async def due_outbox(self, now: float, limit: int = 50) -> list[OutboxRow]:
        """Undelivered boards whose backoff is over and whose lease (if any) ran out, oldest first."""

    async def claim_outbox(self, row: OutboxRow, owner: str, until: float, now: float) -> bool:
        """Take the delivery of ``row`` until ``until`` (counting one attempt): True only
        while the row is still at that version and attempt count and nobody holds a
        live lease (so one process delivers it, also across processes)."""

    async def outbox_posted(self, game_id: int, version: int, message_id: int) -> bool:
        """Record the message the board of ``version`` was posted as (False: no longer owed)."""

    async def outbox_done(self, game_id: int, version: int) -> bool:
        """Discord confirmed the board of ``version``: remove the row, unless a newer change replaced it."""

    async def outbox_retry(self, game_id: int, version: int, owner: str | None, due_at: float) -> bool:
        """A delivery failed: release ``owner``'s lease and try again from ``due_at``
        (None as ``owner``: whoever holds it); False when the row moved on."""

    async def due_messages(self, now: float, limit: int = 50) -> list[OwedMessage]:
        """Owed messages (votes' questions) whose backoff is over and whose lease ran out."""

    async def claim_message(self, row: OwedMessage, owner: str, until: float, now: float) -> bool:
        """Take the posting of ``row`` until ``until`` (as :meth:`claim_outbox`: one process)."""

    async def message_done(self, key: str) -> bool:
        """Discord confirmed the message (or it is no longer owed): remove it."""

    async def message_retry(self, key: str, owner: str | None, due_at: float) -> bool:
        """Posting failed: release ``owner``'s lease and try again from ``due_at``."""


@runtime_checkable
class LiveStore(Protocol):
    """tables/seeing/live.py: which tables moved (for the web companion's live pages)."""

    async def table_versions(self, game_ids: Sequence[int]) -> dict[int, int]:
        """The current version of each of these tables (one query; missing ids left out)."""

    async def listen_tables(self, callback: Callable[[int, int], None]) -> Callable[[], Awaitable[None]] | None:
        """Call ``callback(game_id, version)`` on every committed table change made by any
        process, until the returned coroutine function is awaited; None when the backend
        cannot push changes (SQLite: poll :meth:`table_versions`)."""


@runtime_checkable
class AdminStore(Health, Protocol):
    """bot.py and operators' tools: open, close, check, the bot's own notes (command sync digest)."""

    async def open(self) -> None: ...

    async def close(self) -> None: ...

    async def get_meta(self, key: str) -> str | None: ...

    async def set_meta(self, key: str, value: str) -> None: ...


@runtime_checkable
class SupportStore(Protocol):
    """Tests, benches and tools: the methods of :data:`TEST_SUPPORT` (no feature calls them)."""

    def inject_crash(self, step: str | None, how: str = "raise") -> None:
        """Tests: make the next commit fail at ``step`` (``how`` "raise": raise
        :class:`InjectedCrash`; "kill": SIGKILL this process).  ``None`` clears it."""

    async def quarantined(self) -> list[tuple[int, str]]:
        """(table id, reason) of every quarantined table, oldest first."""

    async def waiting_tables(self) -> list[GameRow]:
        """Running games with somebody to act (reminders and turn timers);
        quarantined, finished and unreadable tables are left out."""

    async def count_games(self) -> int: ...

    async def snapshots(self, game_id: int) -> list[SnapshotRow]:
        """Every snapshot of a table (any key), oldest first."""

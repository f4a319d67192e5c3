"""The SQL both backends share, and the small adapter each backend gives it.

Every query of the store is written once (store/core.py, store/due.py,
store/history.py, store/community.py), with ``?`` placeholders and the SQL both SQLite and
PostgreSQL accept (``INSERT ... ON CONFLICT``, ``RETURNING``, ``IS NOT DISTINCT FROM``,
``CAST``).  What the two really do differently is a backend's :class:`Dialect`
and :class:`Conn`:

- :class:`Conn` runs one statement on a connection inside a transaction or read
  snapshot the backend opened (PostgreSQL turns ``?`` into ``$1, $2, ...``);
- :class:`Dialect` names the few SQL spellings that differ: a table's seats as one
  JSON column, a list parameter (``IN (?, ?)`` or ``= ANY(?)``), row locks (``FOR
  UPDATE``, nothing under SQLite's one writer), a cross-process lock (an advisory
  lock, nothing under SQLite's ``BEGIN IMMEDIATE``), the physical row id, and which
  driver error is a unique violation.

Transactions, locking and connection handling stay in the backends
(store/sqlite.py, store/postgres.py): :meth:`SqlBase._tx` and :meth:`SqlBase._read`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, TypeVar

from .base import StoreBase
from .ports import DuePolicy

T = TypeVar("T")


class Conn(ABC):
    """One connection inside the transaction (or read snapshot) its backend opened;
    SQL with ``?`` placeholders."""

    @abstractmethod
    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[tuple]: ...

    @abstractmethod
    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        """Run a write; the number of rows it touched."""

    @abstractmethod
    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...

    async def one(self, sql: str, args: Sequence[Any] = ()) -> tuple | None:
        rows = await self.fetch(sql, args)
        return rows[0] if rows else None

    async def value(self, sql: str, args: Sequence[Any] = ()) -> Any:
        """The first column of the first row (None: no row)."""
        row = await self.one(sql, args)
        return row[0] if row else None


@dataclass(frozen=True)
class Dialect:
    """The SQL spellings one backend needs (see the module docstring)."""

    name: str
    #: a table's seats (alias ``g``) as JSON text: [[position, seat, user_id, ai_level], ...]
    seats_json: str
    #: a list parameter: ``{col}`` and ``{type}`` filled in; ``{marks}`` (SQLite: ``?, ?, ...``)
    in_list: str
    #: the most ids one list parameter carries (SQLite's bound-parameter limit)
    chunk: int
    #: appended to a SELECT whose rows the transaction goes on to change
    for_update: str
    #: a row's physical id (to delete one of several equal rows)
    row_id: str
    #: a transaction-scoped lock on a string key across processes ("" : the writer is alone anyway)
    lock: str

    def within(self, column: str, values: Sequence[Any], sql_type: str = "BIGINT") -> tuple[str, list[Any]]:
        """``column`` is one of ``values`` (at most :attr:`chunk` of them): (SQL, args)."""
        if not values:
            return "1=0", []
        if "{marks}" in self.in_list:
            return self.in_list.format(col=column, marks=",".join("?" * len(values))), list(values)
        return self.in_list.format(col=column, type=sql_type), [list(values)]


SQLITE = Dialect(
    name="sqlite",
    seats_json="(SELECT json_group_array(json_array(s.position, s.seat, s.user_id, s.ai_level))"
    " FROM seats s WHERE s.game_id=g.id)",
    in_list="{col} IN ({marks})",
    chunk=500,
    for_update="",
    row_id="rowid",
    lock="",
)

POSTGRESQL = Dialect(
    name="postgresql",
    seats_json="(SELECT COALESCE(json_agg(json_build_array(s.position, s.seat, s.user_id, s.ai_level)), '[]')::text"
    " FROM seats s WHERE s.game_id=g.id)",
    in_list="{col} = ANY(CAST(? AS {type}[]))",
    chunk=10_000,
    for_update=" FOR UPDATE",
    row_id="ctid",
    lock="SELECT pg_advisory_xact_lock(hashtext(?))",
)


def chunks(values: Sequence[Any], size: int) -> list[list[Any]]:
    items = list(values)
    return [items[i : i + size] for i in range(0, len(items), size)]


def fl(value: float | int | None) -> float | None:
    """A number for a DOUBLE PRECISION column (asyncpg wants a float there)."""
    return None if value is None else float(value)


class SqlBase(StoreBase, ABC):
    """What a backend gives the SQL core: its dialect and connections, one write
    transaction and one read snapshot; and what the opener gives it: the clock
    and the due-time policy (store/due.py; None: this store refuses to time a running
    table, as a copy or backup tool may)."""

    dialect: Dialect
    #: the driver's error for a unique index refusing a row
    unique_violation: type[Exception] | tuple[type[Exception], ...] = ()

    def __init__(self, *, clock: Callable[[], float], due: DuePolicy | None) -> None:
        super().__init__()
        self.clock = clock
        self.due = due

    # ------------------------------------------------ what a backend gives (with open, close, check)
    @abstractmethod
    async def _tx(self, fn: Callable[[Conn], Awaitable[T]]) -> T:
        """Run ``fn`` in one write transaction (all or nothing); a COMMIT whose reply
        is lost raises :class:`CommitUnknown`."""

    @abstractmethod
    def _read(self, snapshot: bool = True) -> AbstractAsyncContextManager[Conn]:
        """A connection for reads: every query inside sees one committed snapshot
        (``snapshot=False``: one statement only, no transaction needed)."""

    async def listen_tables(self, callback: Callable[[int, int], None]) -> Callable[[], Awaitable[None]] | None:
        """None: this backend cannot push changes (SQLite; PostgreSQL overrides it)."""
        return None

    async def _lock(self, db: Conn, key: str) -> None:
        """Serialise this transaction with others taking the same ``key`` (across processes)."""
        if self.dialect.lock:
            await db.execute(self.dialect.lock, [key])

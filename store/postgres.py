"""PostgreSQL backend (asyncpg), for several bot processes sharing one database: the
pool, the transactions and the error mapping; every query is the shared SQL core's
(store/core.py, store/community.py, in the PostgreSQL dialect of store/sql.py).

Every write is one transaction; every change to a table is a compare-and-swap on
its version (``UPDATE ... WHERE id=? AND version=?``: under READ COMMITTED a
racing writer waits for the row lock, re-reads the version and loses); rows a
transaction goes on to change are read ``FOR UPDATE`` and counts that guard an
insert (caps, rate limits) run under a transaction-scoped advisory lock.  A read of
several statements runs in one REPEATABLE READ snapshot.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import asyncpg

from .base import CommitUnknown, InjectedCrash, StoreError, VersionConflict, redact, scrub
from .community import SqlStore
from .migrations import CLOCKS_VERSION, migrate_postgres
from .ports import DuePolicy
from .sql import POSTGRESQL, Conn

T = TypeVar("T")

log = logging.getLogger("tabletop.store")


@functools.lru_cache(maxsize=1024)
def dollars(sql: str) -> str:
    """``?`` placeholders (the core's spelling) to ``$1, $2, ...``."""
    parts = sql.split("?")
    return "".join(p + (f"${i}" if i < len(parts) else "") for i, p in enumerate(parts, 1))


def _count(status: str | None) -> int:
    """The rows a command touched, from its status ("UPDATE 1", "INSERT 0 1")."""
    last = (status or "").split()[-1:]
    return int(last[0]) if last and last[0].isdigit() else 0


class _Conn(Conn):
    """The SQL core's connection on asyncpg."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[tuple]:
        return [tuple(r) for r in await self.conn.fetch(dollars(sql), *args)]

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        return _count(await self.conn.execute(dollars(sql), *args))

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self.conn.executemany(dollars(sql), rows)


class PostgresStore(SqlStore):
    dialect = POSTGRESQL
    unique_violation = asyncpg.UniqueViolationError

    def __init__(
        self,
        dsn: str,
        clock: Callable[[], float] = time.time,
        *,
        due: DuePolicy | None = None,
        min_size: int = 1,
        max_size: int = 4,
    ) -> None:
        super().__init__(clock=clock, due=due)
        self.dsn = dsn
        self.min_size = min_size
        self.max_size = max_size
        self._pool: asyncpg.Pool | None = None

    # ---------------------------------------------------------- lifecycle
    async def open(self) -> None:
        if self._pool is not None:
            return
        where = redact(self.dsn)
        try:
            pool = await asyncpg.create_pool(self.dsn, min_size=self.min_size, max_size=self.max_size)
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            raise StoreError(f"cannot connect to PostgreSQL at {where}: {self._reason(exc)}") from None
        except ValueError as exc:  # the URL itself (a port that is not a number, a stray bracket)
            raise StoreError(f"TG_DATABASE is not a valid PostgreSQL URL ({where}): {self._reason(exc)}") from None
        try:
            async with pool.acquire() as conn:
                before, after = await migrate_postgres(conn, self.clock())
                if before < CLOCKS_VERSION <= after:  # due times for the tables an older schema left running
                    async with conn.transaction():
                        await self._retime_all(_Conn(conn))
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            await pool.close()
            raise StoreError(f"cannot prepare the PostgreSQL database at {where}: {self._reason(exc)}") from None
        except BaseException:
            await pool.close()
            raise
        self._pool = pool

    def _reason(self, exc: BaseException) -> str:
        """The driver's one-line reason, never with the password in it."""
        text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return scrub(text, self.dsn)

    async def close(self) -> None:
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await pool.close()

    async def check(self) -> None:
        """Nothing to check ahead: a server that stopped answering fails the next query
        itself (SQLite's check is for a file deleted or replaced under an open store)."""

    @property
    def pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise RuntimeError("store is not open")
        return self._pool

    async def _tx(self, fn: Callable[[Conn], Awaitable[T]]) -> T:
        """Run ``fn`` in one write transaction on a pooled connection.  A COMMIT whose
        answer is lost (the connection dropped; the ``"committed"`` crash step) raises
        :class:`CommitUnknown`: the change may have been written, or not.  A deadlock or
        serialization failure rolled everything back: :class:`VersionConflict`."""
        async with self._conn() as conn:
            tr = conn.transaction()
            await tr.start()
            try:
                result = await fn(_Conn(conn))
                await self._step("commit")
            except BaseException as exc:
                try:
                    await tr.rollback()
                except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError):
                    pass  # the connection is gone: the server rolls back on its own
                if isinstance(exc, (asyncpg.SerializationError, asyncpg.DeadlockDetectedError)):
                    raise VersionConflict(f"the transaction lost a race: {exc}") from exc
                raise
            try:
                await tr.commit()
                await self._step("committed")
            except (
                TimeoutError,
                asyncpg.PostgresConnectionError,
                asyncpg.InterfaceError,
                OSError,
                InjectedCrash,
            ) as exc:
                raise CommitUnknown(f"COMMIT did not answer: {exc}") from exc
            return result

    @asynccontextmanager
    async def _conn(self) -> AsyncIterator[Any]:
        """A pooled connection.  Handing it back resets it (asyncpg's ``reset``: a
        query of its own, after the caller's COMMIT or read); when that fails (the
        server restarting just then) asyncpg has already dropped the connection from
        the pool, and the failure says nothing about what the caller did: the COMMIT
        (or the read) decided that.  So it is logged, never raised over the outcome."""
        pool = self.pool
        conn = await pool.acquire()
        try:
            yield conn
        finally:
            try:
                await pool.release(conn)
            except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError) as exc:
                log.warning(
                    "PostgreSQL: a connection could not be reset after use and was dropped (%s: %s)",
                    type(exc).__name__,
                    self._reason(exc),
                )

    @asynccontextmanager
    async def _read(self, snapshot: bool = True) -> AsyncIterator[Conn]:
        """A pooled connection for reads: with ``snapshot`` inside one read-only REPEATABLE
        READ transaction (every query sees one snapshot); without, for one statement."""
        async with self._conn() as conn:
            if not snapshot:
                yield _Conn(conn)
                return
            async with conn.transaction(isolation="repeatable_read", readonly=True):
                yield _Conn(conn)

    async def schema_version(self) -> int:
        return int(await self.pool.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_migrations"))

    async def sql(self, query: str, *args: Any) -> list[tuple]:
        """Raw SQL for tests and tools (``?`` placeholders); autocommit."""
        return [tuple(r) for r in await self.pool.fetch(dollars(query), *args)]

    async def listen_tables(self, callback: Callable[[int, int], None]) -> Callable[[], Awaitable[None]] | None:
        """LISTEN on a connection of its own (the trigger of migration 10 notifies every change)."""
        conn = await asyncpg.connect(self.dsn)

        def heard(_conn, _pid, _channel, payload: str) -> None:
            try:
                gid, version = payload.split(":")
                callback(int(gid), int(version))
            except ValueError:
                return

        await conn.add_listener("tg_tables", heard)

        async def stop() -> None:
            try:
                await conn.remove_listener("tg_tables", heard)
            finally:
                await conn.close()

        return stop

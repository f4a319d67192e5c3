"""SQLite backend (aiosqlite, WAL, foreign keys, versioned migrations): the connections,
the transactions and the one-process claim on the file; every query is the shared SQL
core's (store/core.py, store/community.py, in the SQLite dialect of store/sql.py).

One write connection (every write is one ``BEGIN IMMEDIATE`` transaction, so the
writer is alone: no row locks needed) and one read connection: under WAL a reader
sees only committed transactions, and each multi-statement read runs inside its own
read transaction, so a row, its seats and its version always come from one snapshot.
An in-memory database has a single connection; its reads then wait for the writer.
"""

from __future__ import annotations

import asyncio
import errno
import fcntl
import logging
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from .base import CommitUnknown, StoreError, StoreInUse, StoreUnavailable
from .community import SqlStore
from .migrations import CLOCKS_VERSION, migrate_sqlite
from .ports import DuePolicy
from .sql import SQLITE, Conn

log = logging.getLogger("tabletop.store")
T = TypeVar("T")


class _Conn(Conn):
    """The SQL core's connection on aiosqlite (``?`` placeholders as they are)."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[tuple]:
        async with self.db.execute(sql, list(args)) as cur:
            return [tuple(r) for r in await cur.fetchall()]

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        cur = await self.db.execute(sql, list(args))
        return int(cur.rowcount)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self.db.executemany(sql, rows)


class SqliteStore(SqlStore):
    dialect = SQLITE
    unique_violation = aiosqlite.IntegrityError

    def __init__(
        self, path: str | Path = "tabletop.db", clock: Callable[[], float] = time.time, *, due: DuePolicy | None = None
    ) -> None:
        super().__init__(clock=clock, due=due)
        self.path = str(path)
        self._db: aiosqlite.Connection | None = None
        self._reader: aiosqlite.Connection | None = None
        self._write = asyncio.Lock()
        self._read_lock = asyncio.Lock()
        self._claim: _Claim | None = None

    # ---------------------------------------------------------- lifecycle
    async def open(self) -> None:
        """Connect and migrate.  A file that cannot be opened or written (a missing
        directory, no permission, a read-only file system, not a database) raises
        :class:`StoreError` with one line saying why; :class:`StoreInUse` when another
        bot process holds it."""
        if self._db is not None:
            return
        try:
            await self._open()
        except StoreError:
            raise
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot open the SQLite database {self.path}: {_why(exc)}") from None

    async def _open(self) -> None:
        if self.path != ":memory:":
            parent = Path(self.path).parent
            if parent.exists() and not parent.is_dir():  # (mkdir would say "file exists")
                raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(parent))
            parent.mkdir(parents=True, exist_ok=True)
            self._claim = _claim_file(self.path)
            links = os.fstat(self._claim.fd).st_nlink
            if links > 1:
                log.warning(
                    "the database file %s has %d hard links: only one name of it may be used (SQLite keeps its WAL "
                    "beside the name)",
                    self.path,
                    links,
                )
        try:
            self._db = await aiosqlite.connect(self.path, isolation_level=None)
            await self._db.execute("PRAGMA busy_timeout=5000")
            await self._db.execute("PRAGMA journal_mode=WAL")
            await self._db.execute("PRAGMA foreign_keys=ON")
            await self._db.execute("PRAGMA synchronous=NORMAL")
            async with self._write:
                before, after = await migrate_sqlite(self._db, self.clock())
            if before < CLOCKS_VERSION <= after:  # due times for the tables an older schema left running
                await self._tx(self._retime_all)
            if self.path != ":memory:":
                self._reader = await aiosqlite.connect(self.path, isolation_level=None)
                await self._reader.execute("PRAGMA busy_timeout=5000")
                await self._reader.execute("PRAGMA query_only=ON")
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        """Close the reader, checkpoint the WAL into the database file and close
        the writer (the last connection: SQLite then removes the -wal file)."""
        try:
            if self._reader is not None:
                async with self._read_lock:
                    await self._reader.close()
                    self._reader = None
            if self._db is not None:
                async with self._write:
                    try:
                        await self._checkpoint_on_close()
                    finally:
                        await self._db.close()
                        self._db = None
        finally:  # after the connections (see _claim_file), also when closing one failed
            if self._claim is not None and self._db is None and self._reader is None:
                claim, self._claim = self._claim, None
                _release_file(claim)

    async def _checkpoint_on_close(self) -> None:
        """Move the write-ahead log into the database file before closing.  When that
        cannot be done (a full disk: "database or disk is full"; a file that may not
        grow), nothing is lost -- every commit is in the log, which SQLite applies when
        the database is next opened -- so the store still closes, and says how much was
        left in the log and where."""
        assert self._db is not None
        wal = f"{self.path}-wal"
        try:
            async with self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)") as cur:
                busy, frames, done = await cur.fetchone() or (0, 0, 0)
        except sqlite3.Error as exc:
            size = _size(wal)
            if size == 0:  # nothing was left to checkpoint (a file that never opened as a database)
                log.debug(
                    "SQLite: no checkpoint of %s on close (%s): its write-ahead log is empty", self.path, _why(exc)
                )
                return
            log.warning(
                "SQLite: the write-ahead log of %s could not be checkpointed on close (%s): %s bytes of"
                " committed changes stay in %s and are applied when the database is next opened"
                " (free some disk space first)",
                self.path,
                _why(exc),
                size,
                wal,
            )
            return
        if busy or (frames > 0 and done < frames):
            log.warning(
                "SQLite: %s of %s pages of the write-ahead log of %s were not checkpointed on close;"
                " they stay in %s and are applied when the database is next opened",
                max(frames - done, 0),
                frames,
                self.path,
                wal,
            )

    async def check(self) -> None:
        """Refuse (:class:`StoreUnavailable`) once the database file was deleted or
        replaced under this store: what it writes then would be lost."""
        if self._claim is not None and (why := self._claim.problem()):
            async with self._write:
                await self._lost(why)

    async def _lost(self, why: str) -> None:
        """Inside the write lock, no transaction open: raise :class:`StoreUnavailable`.
        The first time in this process one error line is logged, after the WAL was moved
        into the lost file (SQLite writes through its own descriptor: into the file it
        opened, not the one now at the path) so that its data can still be copied out."""
        claim = self._claim
        assert claim is not None
        if claim.lost is None:
            claim.lost = why
            try:
                await self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except Exception:  # noqa: BLE001 -- the refusal matters, not this copy
                pass
            log.error(
                "the database file %s %s while the bot ran: no more changes are taken until the bot is restarted "
                "with its database in place (until this process stops, its data can be copied from /proc/%d/fd/%d)",
                self.path,
                why,
                os.getpid(),
                claim.fd,
            )
        raise StoreUnavailable(f"the database file {self.path} {claim.lost}")

    @property
    def db(self) -> aiosqlite.Connection:
        """The write connection (tests use it to damage rows on purpose)."""
        if self._db is None:
            raise RuntimeError("store is not open")
        return self._db

    @asynccontextmanager
    async def _read(self, snapshot: bool = True) -> AsyncIterator[Conn]:
        """A read connection: with ``snapshot`` one read transaction (every query inside
        sees the same committed snapshot); without, for one statement (atomic on its own)."""
        if self._reader is None:
            if self._db is None:
                raise RuntimeError("store is not open")
            async with self._write:  # :memory: has one connection: wait for the writer
                yield _Conn(self._db)
            return
        async with self._read_lock:
            if not snapshot:
                yield _Conn(self._reader)
                return
            await self._reader.execute("BEGIN")
            try:
                yield _Conn(self._reader)
            finally:
                await self._reader.execute("COMMIT")

    async def schema_version(self) -> int:
        async with self.db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def sql(self, query: str, *args: Any) -> list[tuple]:
        """Raw SQL for tests and tools (``?`` placeholders); autocommit."""
        async with self.db.execute(query, args) as cur:
            return [tuple(r) for r in await cur.fetchall()]

    async def _tx(self, fn: Callable[[Conn], Awaitable[T]]) -> T:
        """Run ``fn`` inside one write transaction (serialised in-process).  A COMMIT
        that fails (or whose success is not seen: the ``"committed"`` crash step)
        raises :class:`CommitUnknown`."""
        async with self._write:
            claim = self._claim
            if claim is not None and (why := claim.problem()):
                await self._lost(why)
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                result = await fn(_Conn(self.db))
                await self._step("commit")
                # the file deleted or replaced meanwhile: nothing goes into a lost file
                why = claim.problem() if claim is not None else None
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise
            if why:
                await self.db.execute("ROLLBACK")
                await self._lost(why)
            try:
                await self.db.execute("COMMIT")
                await self._step("committed")
            except Exception as exc:
                if self.db.in_transaction:
                    try:
                        await self.db.execute("ROLLBACK")
                    except Exception:  # noqa: BLE001 -- the connection itself may be gone
                        pass
                raise CommitUnknown(f"COMMIT did not answer: {exc}") from exc
            return result


# ------------------------------------------------------------ one process per file
# SQLite serves one bot process: a second process on the same file is refused at
# start (several writers on one file fail with "database is locked" under load, and
# two processes reaching one database file by two names keep two WAL files beside
# them: that corrupts it).  The claim is two flocks, released by the kernel when the
# process dies, even on SIGKILL:
#   - on the database file itself (its inode): holds through a hard link to the file
#     and through a deleted ``-lock`` file;
#   - on ``<file>-lock`` beside it (the name): holds while the database file was
#     deleted or replaced under a running bot, whose WAL file is still beside the name.
# flock and SQLite's own (POSIX, fcntl) locks are independent on Linux.  The descriptor
# on the database file stays open until every SQLite connection of the store closed:
# closing a descriptor drops all the POSIX locks the process holds on that file.
# Stores of the same process share the claim.


@dataclass
class _Claim:
    path: str  # real path
    fd: int  # the database file
    lock_fd: int  # <path>-lock
    holders: int = 1
    lost: str | None = None  # why the file can no longer be written (said once per process)

    @property
    def inode(self) -> tuple[int, int]:
        st = os.fstat(self.fd)
        return st.st_dev, st.st_ino

    def problem(self) -> str | None:
        """Why the database file this claim holds is no longer the one at its path, if it is not."""
        if self.lost:
            return self.lost
        held = os.fstat(self.fd)
        try:
            now = os.stat(self.path)
        except FileNotFoundError:
            return "was deleted" if held.st_nlink == 0 else "was moved away (renamed)"
        except OSError as exc:
            return f"cannot be checked ({exc.strerror})"
        if (now.st_dev, now.st_ino) != (held.st_dev, held.st_ino):
            return "was replaced by another file"
        return None


_claims: dict[tuple[int, int], _Claim] = {}  # (st_dev, st_ino) of the database file -> claim


def _claim_file(path: str, exclusive: bool = False) -> _Claim:
    """Claim the database file at ``path`` for this process (created empty when absent);
    ``exclusive``: also refuse when a store of this process has it open (restoring a backup)."""
    real = os.path.realpath(path)
    try:
        st = os.stat(real)
    except FileNotFoundError:
        st = None
    held = _claims.get((st.st_dev, st.st_ino)) if st is not None else None
    if held is not None:
        if exclusive:
            raise StoreInUse(f"{path} is in use by this process (pid {os.getpid()}); stop the bot first")
        if held.path != real:
            raise StoreInUse(f"{path} is {held.path} under another name (a hard link), already open in this process")
        held.holders += 1
        return held
    flags = os.O_RDWR | os.O_CREAT | os.O_CLOEXEC
    lock_fd = os.open(real + "-lock", flags, 0o644)
    fd = -1
    try:
        _flock(lock_fd, path, lock_fd)
        fd = os.open(real, flags, 0o644)
        _flock(fd, path, lock_fd)
    except BaseException:
        if fd >= 0:
            os.close(fd)  # no SQLite connection of this process is on this file (no claim): no lock to lose
        os.close(lock_fd)
        raise
    os.ftruncate(lock_fd, 0)
    os.pwrite(lock_fd, str(os.getpid()).encode(), 0)
    claim = _Claim(real, fd, lock_fd)
    _claims[claim.inode] = claim
    return claim


def _flock(fd: int, path: str, lock_fd: int) -> None:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = _holder(fd) or os.pread(lock_fd, 32, 0).decode(errors="replace").strip()
        raise StoreInUse(
            f"{path} is in use by another bot process{f' (pid {holder})' if holder else ''}; SQLite serves one process: "
            "to run several, set TG_DATABASE=postgresql://user:pass@host/db (see the README)"
        ) from None


def _holder(fd: int) -> str:
    """The pid holding a flock on ``fd``'s file, from /proc/locks (Linux); "" when unknown."""
    st = os.fstat(fd)
    want = (os.major(st.st_dev), os.minor(st.st_dev), st.st_ino)
    try:
        with open("/proc/locks", encoding="ascii", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return ""
    for line in lines:
        parts = line.split()
        if len(parts) < 6 or parts[1] != "FLOCK":  # "->" marks a waiter
            continue
        try:
            major, minor, ino = parts[5].split(":")
            if (int(major, 16), int(minor, 16), int(ino)) == want:
                return parts[4]
        except ValueError:
            continue
    return ""


def _size(path: str) -> int:
    """A file's size in bytes (0 when it is not there)."""
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def _why(exc: BaseException) -> str:
    """One line for a file that cannot be opened: the OS's reason, or SQLite's."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror[0].lower() + exc.strerror[1:]
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def _release_file(claim: _Claim) -> None:
    claim.holders -= 1
    if claim.holders > 0:
        return
    for key, held in list(_claims.items()):
        if held is claim:
            del _claims[key]
    os.close(claim.fd)  # closing the descriptors drops the flocks
    os.close(claim.lock_fd)

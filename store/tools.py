"""Operator tools behind ``python -m store``: copy a whole database between backends
(moving up from SQLite to PostgreSQL), and online SQLite backups and their restore.

The copier knows no table by name: it reads the schema of the source (every table the
migrations created, in foreign-key order) and refuses when source and destination
differ, so a migration that adds a table is copied without touching this file
(tests/test_store_copy.py checks every table of the schema is carried over).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import backend_of, open_store
from .base import Store, StoreError
from .ports import DuePolicy
from .sqlite import SqliteStore, _claim_file, _release_file

SKIP = {"schema_migrations"}  # each side's own migration record
BATCH = 1000


@dataclass
class TableCopy:
    table: str
    rows: int


async def tables_of(store: Store) -> dict[str, set[str]]:
    """Every table of the schema -> the tables its foreign keys point at."""
    if isinstance(store, SqliteStore):
        names = [
            r[0]
            for r in await store.sql(
                "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
            )
        ]
        return {n: {r[2] for r in await store.sql(f"PRAGMA foreign_key_list({n})")} - {n} for n in names}
    rows = await store.sql(  # type: ignore[attr-defined]
        "SELECT c.relname, ARRAY(SELECT DISTINCT p.relname::text FROM pg_constraint k JOIN pg_class p"
        " ON p.oid=k.confrelid WHERE k.conrelid=c.oid AND k.contype='f' AND p.oid<>c.oid)"
        " FROM pg_class c JOIN pg_namespace n ON n.oid=c.relnamespace"
        " WHERE n.nspname=current_schema() AND c.relkind IN ('r','p') ORDER BY c.relname"
    )
    return {name: set(parents) for name, parents in rows}


def fk_order(tables: dict[str, set[str]]) -> list[str]:
    """Parents before children."""
    done: list[str] = []
    left = {t: parents & set(tables) for t, parents in tables.items()}
    while left:
        ready = sorted(t for t, parents in left.items() if parents <= set(done))
        if not ready:
            raise StoreError(f"foreign keys form a cycle among {sorted(left)}")
        for t in ready:
            done.append(t)
            del left[t]
    return done


@asynccontextmanager
async def _reader(store: Store) -> AsyncIterator[Callable[[str], Any]]:
    """``read(table)`` yields (columns, batch of rows), all from one snapshot."""
    if isinstance(store, SqliteStore):
        db = store.db
        async with store._write:  # nothing of ours writes meanwhile; BEGIN pins the snapshot
            await db.execute("BEGIN")
            try:

                async def read_sqlite(table: str):
                    async with db.execute(f'SELECT * FROM "{table}" ORDER BY rowid') as cur:
                        cols = [d[0] for d in cur.description]
                        while batch := await cur.fetchmany(BATCH):
                            yield cols, [tuple(r) for r in batch]

                yield read_sqlite
            finally:
                await db.execute("COMMIT")
        return
    async with store.pool.acquire() as conn, conn.transaction(isolation="repeatable_read", readonly=True):  # type: ignore[attr-defined]

        async def read_pg(table: str):
            cur = await conn.cursor(f'SELECT * FROM "{table}"')
            while batch := await cur.fetch(BATCH):
                yield list(batch[0].keys()), [tuple(r) for r in batch]

        yield read_pg


def _coerce(kind: str) -> Callable[[Any], Any]:
    if kind in ("bigint", "integer", "smallint"):
        return lambda v: None if v is None else int(v)
    if kind in ("double precision", "real", "numeric"):
        return lambda v: None if v is None else float(v)
    return lambda v: None if v is None else str(v)


async def copy(
    src_url: str, dst_url: str, log: Callable[[str], None] = lambda _: None, *, due: DuePolicy | None = None
) -> list[TableCopy]:
    """Copy every table of ``src_url`` into the empty database ``dst_url`` (both are
    migrated to the newest schema first), in one transaction on the destination:
    it gets all of it or nothing.  Stop the bot first (SQLite refuses a second process).
    ``due``: the due-time policy, for a source whose schema predates due times and that
    has running tables (``python -m store`` has none to give: open such a database with
    the bot first)."""
    src, dst = open_store(src_url, due=due), open_store(dst_url, due=due)
    await src.open()
    try:
        await dst.open()
        try:
            return await _copy(src, dst, log)
        finally:
            await dst.close()
    finally:
        await src.close()


async def _copy(src: Store, dst: Store, log: Callable[[str], None]) -> list[TableCopy]:
    src_tables, dst_tables = await tables_of(src), await tables_of(dst)
    if set(src_tables) != set(dst_tables):
        raise StoreError(
            f"the schemas differ: only in the source {sorted(set(src_tables) - set(dst_tables))},"
            f" only in the destination {sorted(set(dst_tables) - set(src_tables))}"
        )
    order = [t for t in fk_order(src_tables) if t not in SKIP]
    for table in order:
        (n,) = (await dst.sql(f'SELECT COUNT(*) FROM "{table}"'))[0]  # type: ignore[attr-defined]
        if n:
            raise StoreError(f"the destination is not empty (table {table} has {n} rows); copy into a fresh database")
    out: list[TableCopy] = []
    async with _reader(src) as read, _writer(dst) as write:
        for table in order:
            count = 0
            async for cols, rows in read(table):
                await write(table, cols, rows)
                count += len(rows)
            out.append(TableCopy(table, count))
            log(f"{table}: {count} rows")
    return out


@asynccontextmanager
async def _writer(store: Store) -> AsyncIterator[Callable[[str, list[str], list[tuple]], Any]]:
    if isinstance(store, SqliteStore):
        db = store.db
        async with store._write:
            await db.execute("BEGIN IMMEDIATE")
            try:

                async def write_sqlite(table: str, cols: list[str], rows: list[tuple]) -> None:
                    names = ", ".join(f'"{c}"' for c in cols)
                    marks = ", ".join("?" for _ in cols)
                    await db.executemany(f'INSERT INTO "{table}" ({names}) VALUES ({marks})', rows)

                yield write_sqlite
            except BaseException:
                await db.execute("ROLLBACK")
                raise
            await db.execute("COMMIT")
        return
    async with store.pool.acquire() as conn, conn.transaction():  # type: ignore[attr-defined]
        types: dict[str, dict[str, str]] = {}

        async def write_pg(table: str, cols: list[str], rows: list[tuple]) -> None:
            if table not in types:
                types[table] = {
                    r["column_name"]: r["data_type"]
                    for r in await conn.fetch(
                        "SELECT column_name, data_type FROM information_schema.columns"
                        " WHERE table_schema=current_schema() AND table_name=$1",
                        table,
                    )
                }
            missing = [c for c in cols if c not in types[table]]
            if missing:
                raise StoreError(f"table {table}: the destination has no column(s) {missing}")
            casts = [_coerce(types[table][c]) for c in cols]
            records = [tuple(f(v) for f, v in zip(casts, r)) for r in rows]
            await conn.copy_records_to_table(table, records=records, columns=cols)

        yield write_pg
        # identity columns continue after the copied ids
        for table, column in await conn.fetch(
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE table_schema=current_schema() AND is_identity='YES'"
        ):
            await conn.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'),"
                f' COALESCE(MAX("{column}"), 1), MAX("{column}") IS NOT NULL) FROM "{table}"'
            )


# ------------------------------------------------------------------ SQLite backups
def sqlite_path(url: str) -> str:
    if backend_of(url) != "sqlite":
        raise StoreError("online backups are for SQLite; for PostgreSQL use pg_dump (see the README)")
    return url.removeprefix("sqlite:///")


def backup(db_url: str, dest: str | Path) -> int:
    """An online, consistent copy of a SQLite database into ``dest`` (a new file) while
    the bot keeps running: SQLite's backup API copies one snapshot (WAL readers never
    block the writer).  Returns the number of games in the backup, after an integrity check."""
    src_path, dest = sqlite_path(db_url), Path(dest)
    if not Path(src_path).exists():
        raise StoreError(f"{src_path} does not exist")
    if dest.exists():
        raise StoreError(f"{dest} already exists; choose a new file")
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(dest.name + ".part")
    src = sqlite3.connect(f"file:{src_path}?mode=ro", uri=True, timeout=30)
    try:
        out = sqlite3.connect(tmp)
        try:
            src.backup(out)  # all pages in one step: one consistent snapshot
            out.execute("PRAGMA journal_mode=DELETE")  # a single self-contained file
            ok = out.execute("PRAGMA integrity_check").fetchone()[0]
            if ok != "ok":
                raise StoreError(f"backup failed its integrity check: {ok}")
            games = int(out.execute("SELECT COUNT(*) FROM games").fetchone()[0])
        finally:
            out.close()
    finally:
        src.close()
    os.replace(tmp, dest)
    return games


def restore(backup_file: str | Path, db_url: str) -> Path | None:
    """Put a backup in place of the database (the bot must be stopped: refused while a
    process holds the file).  The replaced database is kept beside it; returns its path."""
    path = Path(sqlite_path(db_url))
    backup_file = Path(backup_file)
    con = sqlite3.connect(f"file:{backup_file}?mode=ro", uri=True)
    try:
        ok = con.execute("PRAGMA integrity_check").fetchone()[0]
        con.execute("SELECT COUNT(*) FROM games").fetchone()
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{backup_file} is not a usable backup: {exc}") from None
    finally:
        con.close()
    if ok != "ok":
        raise StoreError(f"{backup_file} failed its integrity check: {ok}")
    path.parent.mkdir(parents=True, exist_ok=True)
    existed = path.exists()  # (claiming creates it empty)
    claim = _claim_file(str(path), exclusive=True)  # refuses while the bot runs
    try:
        kept = None
        if existed:
            kept = path.with_name(f"{path.name}.replaced-{time.strftime('%Y%m%d-%H%M%S')}")
            # a clean copy of what is replaced, WAL included
            old = sqlite3.connect(path)
            try:
                old.execute("VACUUM INTO ?", (str(kept),))
            finally:
                old.close()
        for suffix in ("-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        tmp = path.with_name(path.name + ".part")
        shutil.copyfile(backup_file, tmp)
        os.replace(tmp, path)
        return kept
    finally:
        _release_file(claim)

"""Which tables changed, for open web pages (Discord-free): :class:`TableWatch`.

One watcher per process serves every open page.  PostgreSQL pushes each
committed change (``LISTEN tg_tables``, notified by a trigger, so changes made
by any process arrive at once); the watcher still polls slowly in case that
connection drops.  SQLite cannot push: the watcher polls the versions of the
watched tables, once per interval for all of them together (one query, however
many people watch).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from store import Store, open_store
from store.ports import LiveStore
from tables.rules.clocks import due_times

log = logging.getLogger("tabletop.live")

#: seconds between two polls of the watched tables' versions (SQLite)
POLL = 0.25
#: with PostgreSQL's notifications, a slow poll is only a safety net
FALLBACK_POLL = 5.0


class TableWatch:
    def __init__(self, store: LiveStore, poll: float = POLL, fallback_poll: float = FALLBACK_POLL) -> None:
        self.store = store
        self.poll = poll
        self.fallback_poll = fallback_poll
        self._subs: dict[int, set[asyncio.Queue[int]]] = {}
        self._known: dict[int, int] = {}
        self._task: asyncio.Task | None = None
        self._stop_listen: Callable[[], Awaitable[None]] | None = None
        self.pushed = False  # whether the backend pushes changes
        #: called with (table, version) on every change seen (caches drop their copy)
        self.listeners: list[Callable[[int, int], None]] = []

    async def watch_tables(self) -> None:
        """Start watching (idempotent): the push of the backend where it has one, and the poll."""
        if self._task is not None:
            return
        try:
            self._stop_listen = await self.store.listen_tables(self.changed)
        except Exception:  # noqa: BLE001 -- no push: polling alone still serves every page
            log.exception("cannot listen for table changes; polling instead")
            self._stop_listen = None
        self.pushed = self._stop_listen is not None
        self._task = asyncio.create_task(self._run(), name="table-watch")

    async def stop_watching(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        stop, self._stop_listen = self._stop_listen, None
        if stop is not None:
            with contextlib.suppress(Exception):
                await stop()

    def on_table_change(self, listener: Callable[[int, int], None]) -> None:
        """Call ``listener(table, version)`` on every change seen (a cache drops its copy)."""
        self.listeners.append(listener)

    def watching(self) -> int:
        return sum(len(s) for s in self._subs.values())

    def watch_table(self, game_id: int, version: int) -> asyncio.Queue[int]:
        """A queue that receives the table's new version after each change (only the latest is kept)."""
        q: asyncio.Queue[int] = asyncio.Queue(maxsize=1)
        self._subs.setdefault(game_id, set()).add(q)
        self._known[game_id] = max(self._known.get(game_id, 0), version)
        return q

    def unwatch_table(self, game_id: int, q: asyncio.Queue[int]) -> None:
        subs = self._subs.get(game_id)
        if subs is None:
            return
        subs.discard(q)
        if not subs:
            del self._subs[game_id]
            self._known.pop(game_id, None)

    def changed(self, game_id: int, version: int) -> None:
        """A table now has ``version`` (a notification, a poll, or this process's own commit)."""
        if game_id not in self._subs or version <= self._known.get(game_id, 0):
            return
        self._known[game_id] = version
        for listener in self.listeners:
            listener(game_id, version)
        for q in self._subs[game_id]:
            if q.full():
                q.get_nowait()
            q.put_nowait(version)

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.fallback_poll if self.pushed else self.poll)
            ids = list(self._subs)
            if not ids:
                continue
            try:
                versions = await self.store.table_versions(ids)
            except Exception:  # noqa: BLE001 -- a failed poll is tried again next time
                log.exception("polling table versions failed")
                continue
            for gid, version in versions.items():
                self.changed(gid, version)


async def open_database(url: str) -> Store:
    """The bot's database (``TG_DATABASE``), opened and migrated (``python -m web``)."""
    store = open_store(url, due=due_times)
    await store.open()
    return store

"""What every page of the web companion stands on: its limits and caches, the rate
limiter, the visitor's language and session, the table rows (read at most once a
second, at once after a change) with their access rule, the board and its changing
part, and the HTML response.  The pages themselves are in web/routes/."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from tables import Board, TableService, TableWatch, WebSessions, locales
from tables import board_text as text
from web import pages
from web.serve import guard as guards
from web.serve.names import Names, PageNames, token

COOKIE = "tg_session"
LANG_COOKIE = "tg_lang"
MAX_ID = 2**63 - 1


@dataclass
class Limits:
    rate: float = 20.0  # requests per second per client (a token bucket)
    burst: float = 60.0
    streams_per_client: int = 12  # open live pages per client
    streams_per_prefix: int = 48  # open live pages per network (/24 IPv4, /64 IPv6)
    streams: int = 5000  # open live pages in all (lowered to what the connection budget allows)
    connections: int = 8192  # open connections in all, at most (web/serve/guard.py's budget: often fewer)
    connections_per_client: int = 32  # open connections per address (not behind a trusted proxy)
    connections_per_prefix: int = 128  # ... per network prefix
    reserve_files: int = 256  # open files left to Discord, the database, renders and logs
    raise_files_to: int = 65536  # the soft open-files limit is raised toward the hard one, up to this (0: never)
    retry_after: int = 30  # seconds, in a 503's Retry-After
    idle_seconds: float = 20.0  # a connection with no request in flight is closed after this long
    stream_seconds: float = 3600.0  # a live page reconnects after this long
    keepalive: float = 15.0
    clients: int = 20000  # clients remembered by the rate limiter
    row_seconds: float = 1.0  # a table's row is trusted this long for page views (open pages get changes live)


class LRU(OrderedDict):
    def __init__(self, size: int):
        super().__init__()
        self.size = size
        self.hits = 0
        self.misses = 0

    def get_(self, key):
        if key in self:
            self.move_to_end(key)
            self.hits += 1
            return self[key]
        self.misses += 1
        return None

    def put(self, key, value):
        self[key] = value
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)


def _int(value: str | None) -> int | None:
    return guards.ascii_id(value, MAX_ID)


@dataclass
class CompanionBase:
    """The companion's state and the helpers its pages share."""

    tables: TableService
    base_url: str = ""
    names: Names | None = None  # inside the bot: its cache, for names the store lacks (web/serve/names.py)
    limits: Limits = field(default_factory=Limits)
    trust_proxy: bool = False
    sessions: WebSessions = field(init=False)
    people: PageNames = field(init=False)
    watch: TableWatch = field(init=False)
    images: LRU = field(default_factory=lambda: LRU(512))
    frames: LRU = field(default_factory=lambda: LRU(4096))
    fragments: LRU = field(default_factory=lambda: LRU(1024))
    _buckets: dict[str, tuple[float, float]] = field(default_factory=dict)
    streams: guards.Streams = field(init=False)
    pressure: guards.Pressure = field(default_factory=guards.Pressure)
    gate: guards.Gate | None = None  # (when served by start(): the connections it holds)
    _inflight: dict[Any, asyncio.Future] = field(default_factory=dict)
    _rows: dict[int, tuple[float, Any, bool]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.base_url = self.base_url.rstrip("/")
        self.tables.on_table_change(self.forget_row)
        self.people = PageNames(self.tables, self.names)
        self.tables.on_forget(self.forgotten)
        lim = self.limits
        self.streams = guards.Streams(lim.streams_per_client, lim.streams_per_prefix, lim.streams)

    # ------------------------------------------------------------ helpers
    async def _names(self, row) -> Mapping[int, str]:
        return await self.people(row)

    async def names_key(self, row) -> str:
        """The digest of the table's members and their names, part of every cache key
        of what shows them (web/serve/names.py): a rename or a forget makes new keys."""
        return token(row, await self.people(row))

    async def forgotten(self, user_id: int, guild_id: int | None) -> None:
        """A forget committed in this process: nothing made before it is served again
        (other processes: the keys changed with the seats, see :meth:`names_key`)."""
        for cache in (self.fragments, self.images, self.frames):
            cache.clear()
        self._rows.clear()
        self.people.clear()

    async def once(self, cache: LRU, key: Any, compute: Callable[[], Awaitable[Any]]) -> Any:
        """``cache[key]``, computed once even when many viewers ask at the same moment."""
        found = cache.get_(key)
        if found is not None:
            return found

        async def fill() -> Any:
            value = await compute()
            cache.put(key, value)
            return value

        return await self.single_flight(key, fill)

    async def single_flight(self, key: Any, compute: Callable[[], Awaitable[Any]]) -> Any:
        """``compute()``, run once for all who ask for ``key`` while it runs: they share its
        result (or its error)."""
        pending = self._inflight.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        fut: asyncio.Future = asyncio.get_running_loop().create_future()
        self._inflight[key] = fut
        try:
            value = await compute()
            fut.set_result(value)
            return value
        except BaseException as exc:
            fut.set_exception(exc)
            fut.exception()  # retrieved: no "never retrieved" warning when nobody else waited
            raise
        finally:
            self._inflight.pop(key, None)

    def client(self, request: web.Request) -> str:
        if self.trust_proxy:
            forwarded = request.headers.get("X-Forwarded-For", "")
            if forwarded:
                return forwarded.split(",")[-1].strip()[:64]
        return request.remote or "?"

    def allow(self, client: str) -> bool:
        now = time.monotonic()
        tokens, last = self._buckets.get(client, (self.limits.burst, now))
        tokens = min(self.limits.burst, tokens + (now - last) * self.limits.rate)
        if tokens < 1:
            self._buckets[client] = (tokens, now)
            return False
        if len(self._buckets) > self.limits.clients:
            self._buckets.clear()
        self._buckets[client] = (tokens - 1, now)
        return True

    def locale(self, request: web.Request, fallback: str | None = None) -> str:
        q = request.query.get("lang")
        if q in pages.LANGS:
            return q
        c = request.cookies.get(LANG_COOKIE)
        if c in pages.LANGS:
            return c
        asked = locales.accept_language(request.headers.get("Accept-Language"))
        if asked is not None:
            return asked
        return fallback if fallback in pages.LANGS else locales.DEFAULT

    async def member(self, request: web.Request) -> int | None:
        return await self.tables.session_member(request.cookies.get(COOKIE))

    async def row(self, request: web.Request, member: int | None):
        """The table of the URL when this visitor may see it (else 404): public tables to
        anyone; a table closed to followers to its seated members only; nothing of a
        server that turned the companion off."""
        gid = _int(request.match_info.get("id"))
        row, public = await self.fresh_row(gid) if gid is not None else (None, False)
        if not await self.may_see(row, public, member):
            raise web.HTTPNotFound()
        return row

    async def may_see(self, row, public: bool, member: int | None) -> bool:
        """The access rule of :meth:`row` (asked again before every live push)."""
        if row is None or row.status == "quarantined":
            return False
        if public:
            return True
        settings = await self.tables.server_settings(row.guild_id)
        return settings.get("web") is not False and member is not None and row.seat_of(member) is not None

    async def fresh_row(self, gid: int, *, fresh: bool = False):
        """(row, shown to anyone?) of a table, read at most once per ``limits.row_seconds``
        (and at once after the watcher saw it change): many viewers cost one query."""
        now = time.monotonic()
        hit = self._rows.get(gid)
        if hit is not None and not fresh and now - hit[0] < self.limits.row_seconds:
            return hit[1], hit[2]

        async def read():
            row = await self.tables.row(gid)
            public = row is not None and await self.tables.public(row)
            self.people.stale(gid)  # its names are read again with it
            if len(self._rows) > 10_000:
                self._rows.clear()
            self._rows[gid] = (time.monotonic(), row, public)
            return row, public

        return await self.single_flight(("row", gid), read)

    def forget_row(self, gid: int, version: int) -> None:
        """The watcher saw a table change: its cached row is stale."""
        hit = self._rows.get(gid)
        if hit is not None and (hit[1] is None or hit[1].version < version):
            del self._rows[gid]

    async def board(self, row, member: int | None, locale: str) -> Board:
        return await self.tables.board(row, member, locale, names=self._names)

    def image_url(self, b: Board, *, absolute: bool = False) -> str | None:
        if b.status == "lobby" or b.image is None:
            return None
        name = "mine" if b.viewer_seat else "board"
        path = f"/t/{b.id}/{name}.png?v={b.seen}&lang={b.locale}"
        return (self.base_url + path) if absolute else path

    async def fragment(self, row, member: int | None, locale: str) -> tuple[str, str | None, Board]:
        """The changing part of a table page, its image URL and the board (public: cached per version)."""
        seat = row.seat_of(member) if member is not None else None
        key = ("frag", row.id, row.version, seat, locale, await self.names_key(row))

        async def compute():
            b = await self.board(row, member if seat else None, locale)
            return pages.dynamic(b), self.image_url(b), b

        return await self.once(self.fragments, key, compute)

    def html(self, body: str, request: web.Request, *, status: int = 200, private: bool = False) -> web.Response:
        resp = web.Response(text=body, content_type="text/html", charset="utf-8", status=status)
        resp.headers["Cache-Control"] = "private, no-store" if private else "no-cache"
        q = request.query.get("lang")
        if q in pages.LANGS:
            resp.set_cookie(LANG_COOKIE, q, max_age=365 * 86400, samesite="Lax", path="/")
        return resp

    @property
    def sessions_seconds(self) -> float:
        from tables import SESSION_SECONDS

        return SESSION_SECONDS

    async def _guild_on(self, guild_id: int | None) -> None:
        if guild_id is None or (await self.tables.server_settings(guild_id)).get("web") is False:
            raise web.HTTPNotFound()

    async def _member_names(self, guild_id: int | None, members: Sequence[int], locale: str) -> dict[int, str]:
        names: Mapping[int, str] = {}
        if members:
            with contextlib.suppress(Exception):
                names = await self.people.members(guild_id, list(members))
        return {m: names.get(m) or text("web.member", locale, n=str(m)[-4:]) for m in members}

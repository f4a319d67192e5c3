"""The web companion's aiohttp application: read-only pages built from tables/.

Routes (all GET unless said):
    /t/{id}                 the table: live board (zoom and pan), players, whose turn, banks, log
    /t/{id}/board.png       the public board image (``?v=`` version, ``&lang=``)
    /t/{id}/mine.png        the signed-in seat's own view (their hand), never cached by others
    /t/{id}/live            Server-Sent Events: the changed part of the page after every move
    /t/{id}/history         the replay slider (``?at=`` position)
    /t/{id}/frames/{n}      one past position as JSON; /t/{id}/frames/{n}.png its image
    /me                     the signed-in member's tables, those waiting for them first
    /c/{id}                 a campaign's standings
    /g/{guild}/leaderboard  a server's leaderboards (``?game=``)
    /g/{guild}/leagues      a server's leagues (when the bot runs leagues)
    /signin/{token}         a private sign-in link (GET shows a button; POST /signin redeems it once)
    POST /signout           end this browser's session
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from tables import TableService, TurnRefused, locales, standings
from tables import board as boards
from tables.board import Board, text
from tables.leagues import LeagueService
from tables.leagues import standings as league_standings
from tables.live import TableWatch
from tables.secrecy import public_position
from tables.web_sessions import WebSessions
from web import pages
from web.serve import caching
from web.serve import guard as guards
from web.serve.names import Names, PageNames, token

log = logging.getLogger("tabletop.web")

STATIC = __import__("pathlib").Path(__file__).parent / "static"
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


@dataclass
class Companion:
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
        self.sessions = self.tables.web_sessions
        self.watch = self.tables.watch
        self.watch.listeners.append(self.forget_row)
        self.people = PageNames(self.tables.names, self.names)
        self.tables.privacy.on_forget(self.forgotten)
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
        return await self.sessions.member(request.cookies.get(COOKIE))

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
        settings = await self.tables.settings.guild(row.guild_id)
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

    # ------------------------------------------------------------ pages
    async def table(self, request: web.Request) -> web.StreamResponse:
        member = await self.member(request)
        row = await self.row(request, member)
        locale = self.locale(request, row.locale)
        seat = row.seat_of(member) if member is not None else None

        async def make() -> str:
            part, image, b = await self.fragment(row, member, locale)
            public_image = None
            if b.status != "lobby" and b.image is not None:
                public_image = f"{self.base_url}/t/{b.id}/board.png?v={b.seen}&lang={locale}"
            return pages.table_page(
                b,
                image,
                self.base_url,
                public_image,
                live=f"/t/{row.id}/live?lang={locale}&v={b.seen}",
                here=f"/t/{row.id}",
                signed_in=member is not None,
                part=part,
            )

        if member is None:  # anyone's page: made once per table version and language
            key = ("page", row.id, row.version, locale, await self.names_key(row))
            body = await self.once(self.fragments, key, make)
        else:
            body = await make()
        return self.html(body, request, private=seat is not None or member is not None)

    async def image(self, request: web.Request) -> web.StreamResponse:
        own = request.match_info["kind"] == "mine"
        member = await self.member(request) if own else None
        row = await self.row(request, member)
        seat = row.seat_of(member) if member is not None else None
        if own and seat is None:
            raise web.HTTPNotFound()
        if row.status == "lobby":
            raise web.HTTPNotFound()
        locale = self.locale(request, row.locale)
        key = ("img", row.id, row.version, seat, locale, await self.names_key(row))

        # drawn from the page's board (cached per version, seat, language and names: the page
        # just made it), never by building the board again: no store read, no log read
        _, _, shown = await self.fragment(row, member if seat else None, locale)
        draw = shown.image
        assert draw is not None
        if own:
            png = await self.once(self.images, key, draw)
            return web.Response(body=png, content_type="image/png", headers={"Cache-Control": caching.PRIVATE_IMAGE})
        # what the image shows (the public view's digest, not the table version: a private step changes
        # no public ETag) and whom it names: a forget makes a new tag (web/serve/caching.py)
        tag = caching.etag("img", row.id, shown.seen, locale, key[-1])
        return await caching.png(request, tag, lambda: self.once(self.images, key, draw))

    async def live(self, request: web.Request) -> web.StreamResponse:
        member = await self.member(request)
        row = await self.row(request, member)
        locale = self.locale(request, row.locale)
        client = self.client(request)
        lim = self.limits
        why = self.streams.take(client)
        if why is not None:  # (the page still works; it is not live until a reload)
            self.pressure.note(why, self.streams.open, self.streams.total)
            return web.Response(
                status=503, text=text("web.busy", locale), headers={"Retry-After": str(lim.retry_after)}
            )
        await self.watch.start()
        q = self.watch.subscribe(row.id, row.version)
        resp = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store", "X-Accel-Buffering": "no"}
        )
        try:
            await resp.prepare(request)
            await resp.write(b"retry: 2000\n\n")
            version = row.version
            # a change between the page's load and this stream: send it now
            last = request.query.get("v")
            sent: list[Any] = [None]  # what this page shows now: a change it cannot see sends nothing
            html_part, image, b = await self.fragment(row, member, locale)
            if last == b.seen:
                sent[0] = (b.seen, html_part, image)
            elif last is not None:
                await self._send_board(resp, row, member, locale, sent)
            ends = time.monotonic() + lim.stream_seconds
            while time.monotonic() < ends:
                try:
                    version = await asyncio.wait_for(q.get(), lim.keepalive)
                except TimeoutError:
                    await resp.write(b": keep-alive\n\n")
                    continue
                fresh, public = await self.fresh_row(row.id)
                if fresh is not None and fresh.version < version:
                    fresh, public = await self.fresh_row(row.id, fresh=True)
                if fresh is None or fresh.version < version:
                    continue
                # re-authorised on every push: signed out (or forgotten), closed to
                # followers, the server turned the companion off: the page stops updating
                if member is not None and await self.member(request) != member:
                    break
                if not await self.may_see(fresh, public, member):
                    break
                row = fresh
                await self._send_board(resp, row, member, locale, sent)
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            self.watch.unsubscribe(row.id, q)
            self.streams.give(client)
        return resp

    async def _send_board(self, resp: web.StreamResponse, row, member: int | None, locale: str, sent: list) -> None:
        """Push the page's changing part, unless the viewer would see nothing new (another
        crew's private step of its secret order changes the table, not this viewer's page:
        tables/secrecy.py)."""
        html_part, image, b = await self.fragment(row, member, locale)
        if sent[0] == (b.seen, html_part, image):
            return
        sent[0] = (b.seen, html_part, image)
        data = json.dumps({"version": b.seen, "html": html_part, "image": image}, ensure_ascii=False)
        await resp.write(f"event: board\ndata: {data}\n\n".encode())

    async def history(self, request: web.Request) -> web.StreamResponse:
        row = await self.row(request, await self.member(request))
        if row.status == "lobby":
            raise web.HTTPNotFound()
        locale = self.locale(request, row.locale)
        at = _int(request.query.get("at"))
        b = await self.board(row, None, locale)
        f = await self.frame(row, b.positions if at is None else at, locale)
        return self.html(
            pages.history_page(b, f["frame"], f["image"], f["caption"], f"/t/{row.id}/history?at={f['position']}"),
            request,
        )

    async def frame(self, row, position: int, locale: str) -> dict[str, Any]:
        """One past position: computed once per (table, position, the action it ends on)."""
        n, total, _, step = await public_position(self.tables, row, position)
        anchor = step.id if step is not None else 0
        key = ("frame", row.id, n, anchor, locale, await self.names_key(row))

        async def compute() -> dict[str, Any]:
            f = await self.tables.frame(row, n, locale, names=self._names)
            return {
                "frame": f,
                "position": f.position,
                "total": f.total,
                "caption": pages.frame_caption(f, locale),
                "image": f"/t/{row.id}/frames/{f.position}.png?a={f.key}&lang={locale}",
                "png": None,
            }

        found = await self.once(self.frames, key, compute)
        return dict(found, total=total)

    async def frame_json(self, request: web.Request) -> web.StreamResponse:
        row = await self.row(request, await self.member(request))
        n = _int(request.match_info.get("n"))
        if n is None or row.status == "lobby":
            raise web.HTTPNotFound()
        f = await self.frame(row, n, self.locale(request, row.locale))
        body = {k: f[k] for k in ("position", "total", "caption", "image")}
        return web.json_response(body, headers={"Cache-Control": "no-cache"})

    async def frame_png(self, request: web.Request) -> web.StreamResponse:
        row = await self.row(request, await self.member(request))
        n = _int(request.match_info.get("n"))
        if n is None or row.status == "lobby":
            raise web.HTTPNotFound()
        locale = self.locale(request, row.locale)
        f = await self.frame(row, n, locale)
        key = ("framepng", row.id, f["position"], f["frame"].anchor, locale, await self.names_key(row))
        # never immutable: it shows names, and a forget must reach browsers and proxies (web/serve/caching.py)
        return await caching.png(request, caching.etag(key), lambda: self.once(self.images, key, f["frame"].image))

    async def mine(self, request: web.Request) -> web.StreamResponse:
        locale = self.locale(request)
        member = await self.member(request)
        if member is None:
            return self.html(
                pages.message(text("web.mine.title", locale), text("web.mine.signin", locale), locale, "/me"),
                request,
                status=401,
            )
        rows = []
        for row, seat, deadline in await self.tables.mine(member, None):
            title = text("core.ui.board_title", locale, game=boards.game_name(row.game, locale), id=row.id)
            if row.status == "lobby":
                state = text("web.mine.lobby", locale)
            elif seat in row.to_act:
                state = text("web.mine.waiting", locale)
            else:
                state = text("web.mine.others", locale)
            when = (
                text("web.bank.runs_out", locale, time=pages.duration(deadline - self.tables.clock(), locale))
                if deadline is not None and seat in row.to_act
                else None
            )
            rows.append((f"/t/{row.id}", title, state, when))
        return self.html(pages.mine_page(rows, locale), request, private=True)

    async def _guild_on(self, guild_id: int | None) -> None:
        if guild_id is None or (await self.tables.settings.guild(guild_id)).get("web") is False:
            raise web.HTTPNotFound()

    async def _member_names(self, guild_id: int | None, members: Sequence[int], locale: str) -> dict[int, str]:
        names: Mapping[int, str] = {}
        if members:
            with contextlib.suppress(Exception):
                names = await self.people.members(guild_id, list(members))
        return {m: names.get(m) or text("web.member", locale, n=str(m)[-4:]) for m in members}

    async def campaign(self, request: web.Request) -> web.StreamResponse:
        cid = _int(request.match_info.get("id"))
        camp = await self.tables.community.campaign_by_id(cid) if cid is not None else None
        if camp is None:
            raise web.HTTPNotFound()
        await self._guild_on(camp.guild_id)
        locale = self.locale(request)
        rows = await self.tables.community.campaign_standings(camp)
        names = await self._member_names(camp.guild_id, [r[0] for r in rows], locale)
        title = text("core.campaign.title", locale, name=camp.name, game=boards.game_name(camp.game, locale))
        headers = [text("core.board.rank", locale), text("core.board.player", locale)] + [
            text(k, locale) for k in ("web.points", "web.tables", "core.board.wins")
        ]
        body = [(i + 1, names[u], p, n, w) for i, (u, p, n, w) in enumerate(rows)]
        note = text("core.campaign.points", locale, points=", ".join(map(str, camp.points)))
        return self.html(pages.ranking_page(title, headers, body, locale, f"/c/{camp.id}", note), request)

    async def leaderboard(self, request: web.Request) -> web.StreamResponse:
        guild = _int(request.match_info.get("guild"))
        await self._guild_on(guild)
        assert guild is not None
        locale = self.locale(request)
        games = standings.games()
        game = request.query.get("game") or await self.tables.community.opening_game(guild)
        if game not in games:
            raise web.HTTPNotFound()
        ranked = await self.tables.community.leaderboard(guild, game)
        names = await self._member_names(guild, [r.stat.user_id for r in ranked], locale)
        record, lower = standings.record_column(game)
        headers = [
            text("core.board.rank", locale),
            text("core.board.player", locale),
            text("core.board.played", locale),
            text("core.board.wins", locale),
            text("core.board.rating", locale),
        ] + ([text(record, locale)] if record else [])
        body = []
        for r in ranked:
            line: list[object] = [
                r.place,
                names[r.stat.user_id],
                r.stat.played,
                r.stat.wins,
                standings.rating_value(r.rating),
            ]
            if record:
                best = r.stat.best_low if lower else r.stat.best_high
                line.append(standings.record_value(game, best, locale))
            body.append(line)
        title = text("core.board.title", locale, game=boards.game_name(game, locale))
        tabs = [(f"/g/{guild}/leaderboard?game={g}", boards.game_name(g, locale), g == game) for g in games]
        here = f"/g/{guild}/leaderboard?game={game}"
        note = text("web.ranking_note", locale)
        return self.html(pages.ranking_page(title, headers, body, locale, here, note, tabs), request)

    async def leagues(self, request: web.Request) -> web.StreamResponse:
        """A server's league seasons and their standings (tables/leagues.py)."""
        guild = _int(request.match_info.get("guild"))
        await self._guild_on(guild)
        locale = self.locale(request)
        headers = [text(k, locale) for k in ("core.board.rank", "core.board.player", "web.points")]
        headers += [text(k, locale) for k in ("core.board.played", "core.board.wins", "league.col.absent")]
        parts = []
        leagues = LeagueService(self.tables)
        for league in (await leagues.of_guild(guild))[:50]:
            st = await league_standings(leagues.store, league.id)
            if st is None:
                continue
            rows = list(st.rows)
            names = await self._member_names(guild, [r.user_id for r in rows], locale)
            cells = "".join(
                "<tr>"
                + "".join(
                    f"<td>{pages.e(c)}</td>"
                    for c in (r.rank or i + 1, names[r.user_id], f"{r.points:g}", r.played, r.wins, r.absent)
                )
                + "</tr>"
                for i, r in enumerate(rows)
            )
            head = "".join(f"<th>{pages.e(h)}</th>" for h in headers)
            title = f"{league.name} · {boards.game_name(league.game, locale)}"
            rounds = text("web.league.round", locale, round=st.round, rounds=st.rounds or "?")
            parts.append(
                f'<div class="card"><h2>{pages.e(title)}</h2><p class="muted">{pages.e(rounds)}</p>'
                f'<table class="rank"><thead><tr>{head}</tr></thead><tbody>{cells}</tbody></table></div>'
            )
        body = "".join(parts) or f'<div class="card"><p>{pages.e(text("web.none_yet", locale))}</p></div>'
        return self.html(pages.page(text("web.leagues", locale), locale, f"/g/{guild}/leagues", body), request)

    async def signin_form(self, request: web.Request) -> web.StreamResponse:
        token = request.match_info.get("token", "")[:400]
        locale = self.locale(request)
        value = guards.form_value()
        resp = self.html(pages.signin_page(token, locale, value), request, private=True)
        resp.headers["Referrer-Policy"] = guards.SIGNIN_REFERRER
        resp.set_cookie(
            guards.FORM_COOKIE,
            value,
            max_age=3600,
            httponly=True,
            samesite="Strict",
            secure=self.base_url.startswith("https://"),
            path="/signin",
        )
        return resp

    async def signin(self, request: web.Request) -> web.StreamResponse:
        """Redeem a link: only from this site's own form (its origin, and the form's value
        matching this browser's form cookie), so no other site can sign a browser in."""
        form = await request.post()
        token = str(form.get("token", ""))[:400]
        locale = self.locale(request)
        if not guards.same_site(request, self.base_url) or not guards.form_matches(request, str(form.get("form", ""))):
            log.info("web: a sign-in form came from another site or without its form cookie; refused")
            return self.html(
                pages.message(text("web.signin.title", locale), text("web.signin.foreign", locale), locale),
                request,
                status=403,
                private=True,
            )
        got = await self.sessions.redeem(token)
        if got is None:
            return self.html(
                pages.message(text("web.signin.title", locale), text("web.signin.bad", locale), locale),
                request,
                status=403,
                private=True,
            )
        sid, _member, game_id = got
        where = f"/t/{game_id}" if game_id else "/me"
        resp = web.HTTPSeeOther(where)
        resp.del_cookie(guards.FORM_COOKIE, path="/signin")
        resp.set_cookie(
            COOKIE,
            sid,
            max_age=int(self.sessions_seconds),
            httponly=True,
            samesite="Lax",
            secure=self.base_url.startswith("https://"),
            path="/",
        )
        raise resp

    @property
    def sessions_seconds(self) -> float:
        from tables.web_sessions import SESSION_SECONDS

        return SESSION_SECONDS

    async def signout(self, request: web.Request) -> web.StreamResponse:
        sid = request.cookies.get(COOKIE)
        if sid:
            await self.sessions.sign_out(sid)
        resp = web.HTTPSeeOther("/")
        resp.del_cookie(COOKIE, path="/")
        raise resp

    async def home(self, request: web.Request) -> web.StreamResponse:
        locale = self.locale(request)
        return self.html(pages.message("Tabletop GM", text("web.home", locale), locale), request)

    async def static(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        if name not in ("app.js", "app.css"):
            raise web.HTTPNotFound()
        kind = "application/javascript" if name.endswith(".js") else "text/css"
        return web.Response(
            body=(STATIC / name).read_bytes(),
            content_type=kind,
            charset="utf-8",
            headers={"Cache-Control": "public, max-age=3600"},
        )

    def html(self, body: str, request: web.Request, *, status: int = 200, private: bool = False) -> web.Response:
        resp = web.Response(text=body, content_type="text/html", charset="utf-8", status=status)
        resp.headers["Cache-Control"] = "private, no-store" if private else "no-cache"
        q = request.query.get("lang")
        if q in pages.LANGS:
            resp.set_cookie(LANG_COOKIE, q, max_age=365 * 86400, samesite="Lax", path="/")
        return resp


COMPANION = web.AppKey("companion", Companion)


def _int(value: str | None) -> int | None:
    return guards.ascii_id(value, MAX_ID)


@web.middleware
async def guard(request: web.Request, handler):
    """Rate limits per client, bounded inputs, security headers on every answer, and
    no error page that says more than 'not found'."""
    comp: Companion = request.app[COMPANION]
    resp: web.StreamResponse
    if len(request.raw_path) > 600 or len(request.query_string) > 300:
        resp = web.Response(status=414, text="request URI too long")
    elif not request.path.startswith("/static/") and not comp.allow(comp.client(request)):
        resp = web.Response(status=429, text="too many requests", headers={"Retry-After": "2"})
    else:
        try:
            resp = await handler(request)
        except web.HTTPException as exc:
            if exc.status != 404:
                _secure(exc, comp)
                raise
            locale = comp.locale(request)
            resp = web.Response(
                status=404,
                text=pages.message(text("web.not_found.title", locale), text("web.not_found", locale), locale),
                content_type="text/html",
                charset="utf-8",
            )
        except TurnRefused:
            resp = web.Response(status=404, text="not found")
        except (asyncio.CancelledError, ConnectionResetError):
            raise
        except Exception:  # noqa: BLE001 -- logged once here; the visitor gets a plain 500 with the headers
            log.exception("web: error answering %s", request.path[:200])
            resp = web.Response(status=500, text="internal error")
    _secure(resp, comp)
    return resp


def _secure(resp: web.StreamResponse, comp: Companion) -> None:
    guards.secure(resp.headers, comp.base_url.startswith("https://"))


def make_app(
    tables: TableService,
    *,
    base_url: str = "",
    names: Names | None = None,
    limits: Limits | None = None,
    trust_proxy: bool = False,
) -> web.Application:
    comp = Companion(tables, base_url=base_url, names=names, limits=limits or Limits(), trust_proxy=trust_proxy)
    app = web.Application(middlewares=[guard], client_max_size=16 * 1024)
    app[COMPANION] = comp
    app.on_response_prepare.append(guards.on_prepare(comp.base_url.startswith("https://")))
    r = app.router
    r.add_get("/", comp.home)
    r.add_get("/t/{id}", comp.table)
    r.add_get("/t/{id}/{kind:board|mine}.png", comp.image)
    r.add_get("/t/{id}/live", comp.live)
    r.add_get("/t/{id}/history", comp.history)
    r.add_get(r"/t/{id}/frames/{n:\d+}", comp.frame_json)
    r.add_get(r"/t/{id}/frames/{n:\d+}.png", comp.frame_png)
    r.add_get("/me", comp.mine)
    r.add_get("/c/{id}", comp.campaign)
    r.add_get("/g/{guild}/leaderboard", comp.leaderboard)
    r.add_get("/g/{guild}/leagues", comp.leagues)
    r.add_get("/signin/{token}", comp.signin_form)
    r.add_post("/signin", comp.signin)
    r.add_post("/signout", comp.signout)
    r.add_get("/static/{name}", comp.static)

    async def stop_watch(app: web.Application) -> None:
        await comp.watch.stop()

    app.on_shutdown.append(stop_watch)
    return app


async def start(
    tables: TableService, port: int, *, host: str = "0.0.0.0", base_url: str = "", names: Names | None = None, **kw
) -> web.AppRunner:
    """Serve the companion on ``host:port`` inside the running event loop (the bot's, or
    ``python -m web``'s); returns the runner (``await runner.cleanup()`` stops it)."""
    app = make_app(tables, base_url=base_url, names=names, **kw)
    comp, lim = app[COMPANION], app[COMPANION].limits
    # what the process can afford (web/serve/guard.py): the companion shares the bot's open files
    budget = guards.Budget.of_process(raise_to=lim.raise_files_to, reserve=lim.reserve_files, ceiling=lim.connections)
    comp.streams.total = min(lim.streams, max(0, budget.connections - max(16, budget.connections // 8)))
    guards.quiet_accept_errors()
    runner = web.AppRunner(app, shutdown_timeout=2, access_log=None, keepalive_timeout=lim.idle_seconds)
    await runner.setup()
    busy = "\n".join(text("web.busy", lang) for lang in pages.LANGS) + "\n"
    comp.gate = guards.Gate(
        budget.connections,
        per_address=lim.connections_per_client,
        per_prefix=lim.connections_per_prefix,
        by_address=not comp.trust_proxy,
        pressure=comp.pressure,
        busy=guards.busy_response(lim.retry_after, busy, base_url.startswith("https://")),
        https=base_url.startswith("https://"),
    )
    await guards.GuardedSite(runner, host, port, comp.gate).start()
    log.info(
        "web companion on %s:%s (%s); at most %d connections and %d live pages (open files: limit %d, %d open, %d kept back)",
        host,
        port,
        base_url or "no public URL",
        budget.connections,
        comp.streams.total,
        budget.soft,
        budget.open_at_start,
        budget.reserve,
    )
    return runner

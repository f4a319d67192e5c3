"""A table's pages: the live page, its board images, the live stream of its changes,
the replay slider and its frames."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from aiohttp import web

from tables import board_text as text
from tables import public_position
from web import pages
from web.serve import caching
from web.serve.companion import CompanionBase, _int


class TablePages(CompanionBase):
    """/t/{id}, /t/{id}/board.png, /t/{id}/mine.png, /t/{id}/live, /t/{id}/history, /t/{id}/frames/{n}"""

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
        await self.tables.watch_tables()
        q = self.tables.watch_table(row.id, row.version)
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
            self.tables.unwatch_table(row.id, q)
            self.streams.give(client)
        return resp

    async def _send_board(self, resp: web.StreamResponse, row, member: int | None, locale: str, sent: list) -> None:
        """Push the page's changing part, unless the viewer would see nothing new (another
        crew's private step of its secret order changes the table, not this viewer's page:
        tables/seeing/secrecy.py)."""
        html_part, image, b = await self.fragment(row, member, locale)
        if sent[0] == (b.seen, html_part, image):
            return
        sent[0] = (b.seen, html_part, image)
        alt = b.describe() if b.describe is not None else ""  # the image in words (its alt)
        data = json.dumps({"version": b.seen, "html": html_part, "image": image, "alt": alt}, ensure_ascii=False)
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
            pages.history_page(
                b, f["frame"], f["image"], f["caption"], f"/t/{row.id}/history?at={f['position']}", alt=f["alt"]
            ),
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
                "alt": f.describe() if f.describe is not None else pages.frame_caption(f, locale),
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
        body = {k: f[k] for k in ("position", "total", "caption", "image", "alt")}
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

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
    /cal/{secret}.ics       a member's deadlines as a calendar feed (the secret URL /notify calendar gives)
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from aiohttp import web

from tables import TableService, TurnRefused
from tables import board_text as text
from web import pages
from web.routes.calendar import CalendarFeed
from web.serve import guard as guards
from web.serve.companion import Limits
from web.serve.names import Names

log = logging.getLogger("tabletop.web")

STATIC = __import__("pathlib").Path(__file__).parent / "static"


@dataclass
class Companion(CalendarFeed):
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


COMPANION = web.AppKey("companion", Companion)


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
    r.add_get("/cal/{secret}.ics", comp.calendar)
    r.add_get("/static/{name}", comp.static)

    async def stop_watch(app: web.Application) -> None:
        await comp.tables.stop_watching()

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

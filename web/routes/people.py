"""The pages about people: a member's tables, a campaign's and a server's standings,
a server's leagues, signing in and out, the home page."""

from __future__ import annotations

import logging

from aiohttp import web

from tables import LeagueService, league_standings, standings
from tables import board as boards
from tables import board_text as text
from web import pages
from web.routes.tables import TablePages
from web.serve import guard as guards
from web.serve.companion import COOKIE, _int

log = logging.getLogger("tabletop.web")


class PeoplePages(TablePages):
    """/me, /c/{id}, /g/{guild}/leaderboard, /g/{guild}/leagues, /signin, /signout, /"""

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

    async def campaign(self, request: web.Request) -> web.StreamResponse:
        cid = _int(request.match_info.get("id"))
        camp = await self.tables.campaign_by_id(cid) if cid is not None else None
        if camp is None:
            raise web.HTTPNotFound()
        await self._guild_on(camp.guild_id)
        locale = self.locale(request)
        rows = await self.tables.campaign_standings(camp)
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
        game = request.query.get("game") or await self.tables.opening_game(guild)
        if game not in games:
            raise web.HTTPNotFound()
        ranked = await self.tables.leaderboard(guild, game)
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
        """A server's league seasons and their standings (tables/leagues/rounds.py)."""
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
            title = f"{league.name} · {boards.game_name(league.game, locale)}"
            rounds = text("web.league.round", locale, round=st.round, rounds=st.rounds or "?")
            cells = [
                (r.rank or i + 1, names[r.user_id], f"{r.points:g}", r.played, r.wins, r.absent)
                for i, r in enumerate(rows)
            ]
            parts.append(pages.league_card(title, rounds, headers, cells))
        return self.html(pages.leagues_page(parts, locale, f"/g/{guild}/leagues"), request)

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
        got = await self.tables.redeem_link(token)
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

    async def signout(self, request: web.Request) -> web.StreamResponse:
        sid = request.cookies.get(COOKIE)
        if sid:
            await self.tables.sign_out(sid)
        resp = web.HTTPSeeOther("/")
        resp.del_cookie(COOKIE, path="/")
        raise resp

    async def home(self, request: web.Request) -> web.StreamResponse:
        locale = self.locale(request)
        return self.html(pages.message("Tabletop GM", text("web.home", locale), locale), request)

"""A member's calendar feed (the route for /cal/SECRET.ics): every deadline that concerns them
(tables/people/calendar.py) as iCalendar (RFC 5545), written with the icalendar library.

The secret is the member's alone (``/notify calendar`` gives it privately); an unknown,
replaced or forgotten one answers 404 like any unknown page.  Each event keeps its id
(``table-ID@HOST``, ``league-ID-round-N@HOST``) for as long as its deadline
exists, so a calendar app moves the event when the deadline moves, and drops it when
the table ends.  The feed goes through the guard like every page (rate limits,
headers); it is never cached by anyone but the member's client."""

from __future__ import annotations

from datetime import UTC, datetime
from urllib.parse import urlsplit

import icalendar
from aiohttp import web

from tables import board_text as text
from tables import game_name
from web.routes.people import PeoplePages

#: how often a calendar app should read the feed again (its own choice, when it honours it)
REFRESH = "PT1H"


def _when(at: float) -> datetime:
    return datetime.fromtimestamp(at, UTC)


class CalendarFeed(PeoplePages):
    """/cal/{secret}.ics"""

    def uid_host(self) -> str:
        """The host part of every event id: the companion's public host (stable across restarts)."""
        return urlsplit(self.base_url).hostname or "tabletop-gm.invalid"

    async def calendar(self, request: web.Request) -> web.StreamResponse:
        member = await self.tables.calendar_member(request.match_info.get("secret", ""))
        if member is None:
            raise web.HTTPNotFound()
        locale = self.locale(request)
        deadlines = await self.tables.calendar_deadlines(member)
        now = _when(self.tables.clock())
        cal = icalendar.Calendar()
        cal.add("prodid", "-//Tabletop GM//calendar feed//EN")
        cal.add("version", "2.0")
        cal.add("calscale", "GREGORIAN")
        cal.add("method", "PUBLISH")
        cal.add("x-wr-calname", text("calendar.name", locale))
        cal.add("refresh-interval", icalendar.vDuration.from_ical(REFRESH), parameters={"VALUE": "DURATION"})
        cal.add("x-published-ttl", REFRESH)
        base = self.base_url.rstrip("/")
        host = self.uid_host()
        for d in deadlines:
            game = game_name(d.game, locale)
            event = icalendar.Event()
            event.add("uid", f"{d.uid}@{host}")
            event.add("dtstamp", now)
            event.add("dtstart", _when(d.at))
            discord_url = f"https://discord.com/channels/{d.guild_id}/{d.channel_id}"
            if d.kind == "turn":
                event.add("summary", text("calendar.turn", locale, game=game, id=d.table_id))
                page = f"{base}/t/{d.table_id}" if base else discord_url
                event.add("description", text("calendar.turn.desc", locale, url=discord_url))
            else:
                event.add("summary", text("calendar.round", locale, league=d.league, round=d.round, game=game))
                page = discord_url
                event.add("description", text("calendar.round.desc", locale, url=discord_url))
            event.add("url", page)
            event.add("transp", "TRANSPARENT")
            cal.add_component(event)
        return web.Response(
            body=cal.to_ical(),
            content_type="text/calendar",
            charset="utf-8",
            headers={
                "Cache-Control": "private, no-cache",
                "Referrer-Policy": "no-referrer",
                "Content-Disposition": 'inline; filename="tabletop-gm.ics"',
            },
        )

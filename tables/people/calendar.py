"""A member's deadlines as a calendar feed (Discord-free): when each table waiting on
them runs out of time (its turn timer or their time bank) and when each league round
they play in closes, behind a secret URL only they were given.

The secret is random (``secrets.token_urlsafe``); only its SHA-256 is stored (like the
web companion's sessions, tables/people/web_sessions.py), so a copy of the database
opens no feed.  A member has one feed: asking for a new one replaces it and the old
URL then opens nothing; ``/privacy forget`` deletes it (store/privacy.py).

Each deadline keeps one id for as long as its table or round exists (``table-<id>``,
``league-<id>-round-<n>``), so a calendar app that reads the feed again moves the event
instead of adding a second one; a table that ended, or no longer waits on the member,
drops out of the feed (the app removes the event).  The feed names only the member's
own tables and rounds, never another member.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

from store.ports import CalendarStore, LeagueStore
from tables.core.kernel import Kernel
from tables.leagues.rules import now_round
from tables.people.mine import People

#: the longest feed secret accepted (a longer one is refused before the database is asked)
MAX_SECRET = 100


@dataclass(frozen=True)
class Deadline:
    """One deadline of a member.  ``kind``: "turn" (table ``table_id`` runs out of the
    member's time at ``at``) or "round" (round ``round`` of league ``league`` closes)."""

    uid: str
    kind: str
    at: float
    game: str
    guild_id: int
    channel_id: int
    table_id: int | None = None
    league: str | None = None
    round: int | None = None


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


class Calendar:
    """Each member's feed secret and the deadlines their feed lists."""

    def __init__(self, kernel: Kernel, people: People) -> None:
        self.k = kernel
        self.people = people
        self.store: CalendarStore = kernel.backend
        self.leagues: LeagueStore = kernel.backend

    async def calendar_secret(self, user_id: int, *, replace: bool = False) -> str | None:
        """A new feed secret for ``user_id`` (for their URL).  When they already have one:
        None, unless ``replace`` (then the old one opens nothing from now on)."""
        secret = secrets.token_urlsafe(32)
        stored = await self.store.calendar_feed_put(user_id, _hash(secret), self.k.clock(), replace=replace)
        return secret if stored else None

    async def calendar_member(self, secret: str) -> int | None:
        """Whose feed this secret opens (None: nobody's, or not a secret we make)."""
        if not secret or len(secret) > MAX_SECRET or not secret.isascii():
            return None
        return await self.store.calendar_feed_member(_hash(secret))

    async def calendar_deadlines(self, user_id: int) -> list[Deadline]:
        """The member's deadlines still to come, soonest first."""
        now = self.k.clock()
        out = []
        for row, seat, deadline in await self.people.mine(user_id, None):
            if deadline is None or seat is None or seat not in row.to_act or row.status != "active":
                continue
            out.append(
                Deadline(
                    uid=f"table-{row.id}",
                    kind="turn",
                    at=deadline,
                    game=row.game,
                    guild_id=row.guild_id or 0,
                    channel_id=row.channel_id,
                    table_id=row.id,
                )
            )
        for league in await self.leagues.leagues(statuses=["running"]):
            me = league.state.get("players", {}).get(str(user_id))
            rnd = now_round(league.state)
            if not isinstance(me, dict) or me.get("dropped") is not None or rnd is None or rnd.get("ended_at"):
                continue
            at = float(rnd.get("deadline") or 0)
            if at <= now:
                continue
            n = int(rnd.get("n") or league.state.get("round", 0))
            out.append(
                Deadline(
                    uid=f"league-{league.id}-round-{n}",
                    kind="round",
                    at=at,
                    game=league.game,
                    guild_id=league.guild_id,
                    channel_id=league.channel_id,
                    league=league.name,
                    round=n,
                )
            )
        return sorted(out, key=lambda d: (d.at, d.uid))

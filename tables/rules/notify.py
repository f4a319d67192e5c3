"""Each member's notification policy (issue 32 item 1; docs/rulings.md, "Notifications"):
which way each event reaches them, overrides per game and per table, quiet hours in an
IANA time zone, and the hour of their daily digest.  Pure and Discord-free: the rooms
read it from the member's stored preferences (``prefs["notify"]``) and ask it
:meth:`NotifyPolicy.way` and :meth:`NotifyPolicy.quiet_at`.

Events: ``turn`` (your turn), ``next`` (you are next), ``clock`` (your clock at 75% and
one hour before it runs out), ``vote`` (a vote needs you), ``followed`` (a table you
follow moved), ``ended`` (a game you played ended), ``league`` (a league round opened or
closes soon).  Ways: ``ping`` (a mention in the table's channel or thread), ``dm`` (a
direct message), ``digest`` (only in the daily digest), ``off``.

Quiet hours are whole local hours ``[start, end)`` in the member's zone (they may wrap
past midnight); the zone is an IANA name (``Europe/Berlin``: its daylight saving
followed by :mod:`zoneinfo`) or a fixed offset ``+05:30`` (what the old ``/remind quiet``
stored, kept as it was by the migration, store/schema.py 19).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from typing import Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from pydantic import BaseModel, ConfigDict, Field

Event = Literal["turn", "next", "clock", "vote", "followed", "ended", "league"]
Way = Literal["ping", "dm", "digest", "off"]
EVENTS: tuple[str, ...] = ("turn", "next", "clock", "vote", "followed", "ended", "league")
WAYS: tuple[str, ...] = ("ping", "dm", "digest", "off")

#: every member's default way per event (docs/rulings.md, "Notifications"): what the bot
#: did before the policy (a ping for a turn, a vote, a league notice; the follower's post)
#: and a private message for the new clock alerts; "you are next" only in the digest
DEFAULT_WAYS: dict[str, str] = {
    "turn": "ping",
    "next": "off",
    "clock": "dm",
    "vote": "ping",
    "followed": "dm",
    "ended": "ping",
    "league": "ping",
}
#: the local hour of the daily digest unless the member picks one
DEFAULT_DIGEST_HOUR = 9
#: a member who acted at a table this recently is not pinged for it again (seconds)
RECENT_SECONDS = 5 * 60
#: the clock alerts: at this share of the turn's time used, and this long before it runs out
CLOCK_SHARE = 0.75
CLOCK_LAST_SECONDS = 3600.0

_OFFSET = re.compile(r"^([+-])(\d{1,2}):(\d{2})$")


class BadZone(ValueError):
    """Not an IANA time zone nor a ``+HH:MM`` offset."""


def zone(name: str) -> tzinfo:
    """The time zone ``name``: an IANA name (with its daylight saving) or ``+HH:MM``."""
    m = _OFFSET.match(name or "")
    if m:
        hours, minutes = int(m.group(2)), int(m.group(3))
        if hours > 14 or minutes >= 60:
            raise BadZone(name)
        sign = -1 if m.group(1) == "-" else 1
        return timezone(sign * timedelta(hours=hours, minutes=minutes))
    if not name or name.startswith(("/", ".")) or ".." in name:
        raise BadZone(name)
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise BadZone(name) from exc


def offset_zone(hours: float) -> str:
    """The fixed zone of an old ``utc_offset`` (hours east of UTC), as ``+HH:MM``."""
    minutes = round(float(hours) * 60)
    sign = "-" if minutes < 0 else "+"
    return f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def zone_names(prefix: str = "", limit: int = 25) -> list[str]:
    """IANA zone names containing ``prefix`` (case-insensitive), for autocomplete."""
    p = prefix.lower()
    return sorted(z for z in available_timezones() if p in z.lower())[:limit]


Overrides = dict[str, str]


class NotifyPolicy(BaseModel):
    """A member's notification policy (stored as ``prefs["notify"]``)."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    ways: dict[str, str] = Field(default_factory=dict)  # event -> way (the member's own defaults)
    games: dict[str, Overrides] = Field(default_factory=dict)  # game id -> event -> way
    tables: dict[str, Overrides] = Field(default_factory=dict)  # table id (as text) -> event -> way
    quiet: tuple[int, int] | None = None  # local hours [start, end); None: never quiet
    tz: str = "UTC"
    digest_hour: int = DEFAULT_DIGEST_HOUR

    @classmethod
    def of(cls, prefs: dict[str, Any]) -> NotifyPolicy:
        """The policy in a member's stored preferences (a broken one reads as the defaults)."""
        raw = prefs.get("notify") or {}
        try:
            policy = cls.model_validate(raw)
            zone(policy.tz)
        except (ValueError, TypeError):
            return cls()
        return policy

    def stored(self) -> dict[str, Any]:
        """What goes into ``prefs["notify"]``."""
        return self.model_dump(mode="json", exclude_defaults=True)

    def way(self, event: str, game: str | None = None, table: int | None = None) -> str:
        """How ``event`` reaches the member: the table's override, else the game's, else
        the member's own default, else everyone's."""
        if table is not None and (w := self.tables.get(str(table), {}).get(event)):
            return w
        if game is not None and (w := self.games.get(game, {}).get(event)):
            return w
        return self.ways.get(event) or DEFAULT_WAYS.get(event, "off")

    def local(self, now: float) -> datetime:
        return datetime.fromtimestamp(now, UTC).astimezone(zone(self.tz))

    def quiet_at(self, now: float) -> bool:
        """Whether ``now`` falls in the member's quiet hours, in their zone's local time."""
        if self.quiet is None:
            return False
        start, end = self.quiet[0] % 24, self.quiet[1] % 24
        if start == end:
            return False
        h = self.local(now).hour
        return start <= h < end if start < end else (h >= start or h < end)

    def awake_at(self, now: float) -> float:
        """The first moment at or after ``now`` outside quiet hours (``now`` when awake)."""
        t = now
        for _ in range(49):  # quiet hours end within a day, DST changes included
            if not self.quiet_at(t):
                return t
            nxt = self.local(t).replace(minute=0, second=0, microsecond=0) + timedelta(hours=1)
            t = max(t + 1, nxt.timestamp())
        return t

    def digest_day(self, now: float) -> str | None:
        """The member's local date (``YYYY-MM-DD``) when ``now`` is at or after their
        digest hour that day, else None (the digest of the day is not due yet)."""
        local = self.local(now)
        return local.date().isoformat() if local.hour >= self.digest_hour else None

    def uses(self, way: str) -> bool:
        """Whether any event (default or override) reaches the member this way."""
        if any(self.way(e) == way for e in EVENTS):
            return True
        return any(way in o.values() for o in (*self.games.values(), *self.tables.values()))

    # ------------------------------------------------------------ changes (new policies)
    def with_way(self, event: str, way: str, game: str | None = None, table: int | None = None) -> NotifyPolicy:
        """This policy with ``event`` reaching the member ``way`` (everywhere, for one game,
        or for one table); ``way`` "default" removes the override."""
        if event not in EVENTS or (way not in WAYS and way != "default"):
            raise ValueError(f"{event}/{way}")

        def put(over: dict[str, str]) -> dict[str, str]:
            out = {k: v for k, v in over.items() if k != event}
            if way != "default":
                out[event] = way
            return out

        if table is not None:
            key = str(table)
            tables = {**self.tables, key: put(self.tables.get(key, {}))}
            return self.model_copy(update={"tables": {k: v for k, v in tables.items() if v}})
        if game is not None:
            games = {**self.games, game: put(self.games.get(game, {}))}
            return self.model_copy(update={"games": {k: v for k, v in games.items() if v}})
        return self.model_copy(update={"ways": put(self.ways)})

    def with_quiet(self, tz: str, start: int | None, end: int | None) -> NotifyPolicy:
        zone(tz)  # raises BadZone
        if start is None or end is None:
            return self.model_copy(update={"tz": tz, "quiet": None})
        if not (0 <= start <= 23 and 0 <= end <= 23):
            raise ValueError("hours")
        return self.model_copy(update={"tz": tz, "quiet": (start, end)})

    def with_digest_hour(self, hour: int) -> NotifyPolicy:
        if not 0 <= hour <= 23:
            raise ValueError("hour")
        return self.model_copy(update={"digest_hour": hour})

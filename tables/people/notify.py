"""Each member's notification policy, kept with their preferences (Discord-free; issue 32
items 1 and 3; the model is tables/rules/notify.py, the decisions docs/rulings.md,
"Notifications").

Every place that reaches a member asks :meth:`Notify.reach` which way (a ping in the
table's channel, a direct message, only the digest, or not at all) and whether now:
never in their quiet hours (a ping or a DM waits for the digest, or the next pass when
the member is awake), never while they are away, never for a table they acted at in the
last :data:`~tables.rules.notify.RECENT_SECONDS`.  Alerts and digests that must go out
once whatever the number of processes are claimed by key in the store
(``notify_sent``, store/notify_sql.py), like the outbox.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from store import GameRow
from store.ports import NotifyStore
from tables.core.common import TurnRefused
from tables.core.kernel import Kernel
from tables.rules import clocks
from tables.rules.notify import EVENTS, RECENT_SECONDS, WAYS, BadZone, NotifyPolicy


@dataclass(frozen=True)
class Reach:
    """Which way an event reaches each member it concerns, now.  ``ping``: mention them in
    the table's message; ``dm``: a direct message; ``later``: nothing now (quiet hours,
    away, acted recently, the digest or off)."""

    ping: list[int] = field(default_factory=list)
    dm: list[int] = field(default_factory=list)
    later: list[int] = field(default_factory=list)


class Notify:
    """Members' notification policies and what they allow now."""

    def __init__(self, kernel: Kernel) -> None:
        self.k = kernel
        self.store: NotifyStore = kernel.backend

    # ------------------------------------------------------------ the member's policy
    async def notify_settings(self, user_id: int) -> NotifyPolicy:
        """The member's policy (the defaults where they chose nothing)."""
        return NotifyPolicy.of(await self.k.settings.user(user_id))

    async def _change(self, user_id: int, change: Any) -> NotifyPolicy:
        def apply(prefs: dict[str, Any]) -> dict[str, Any]:
            new = change(NotifyPolicy.of(prefs)).stored()
            out = {k: v for k, v in prefs.items() if k != "notify"}
            return {**out, "notify": new} if new else out

        return NotifyPolicy.of(await self.k.settings.update_user(user_id, apply))

    async def set_notify(
        self, user_id: int, event: str, way: str, game: str | None = None, table: int | None = None
    ) -> NotifyPolicy:
        """Make ``event`` reach the member ``way`` (everywhere, for one game or one
        table; "default" drops that override)."""
        if event not in EVENTS:
            raise TurnRefused("bad_choice", "notify.bad_event", event=str(event)[:40])
        if way not in (*WAYS, "default"):
            raise TurnRefused("bad_choice", "notify.bad_way", way=str(way)[:40])
        return await self._change(user_id, lambda p: p.with_way(event, way, game, table))

    async def set_quiet_hours(self, user_id: int, tz: str, start: int | None, end: int | None) -> NotifyPolicy:
        """Quiet hours ``[start, end)`` in local hours of the zone ``tz`` (an IANA name such
        as ``Europe/Berlin``, or ``+05:30``); ``start``/``end`` None: never quiet."""
        try:
            return await self._change(user_id, lambda p: p.with_quiet(tz, start, end))
        except BadZone:
            raise TurnRefused("bad_choice", "notify.bad_zone", zone=str(tz)[:60]) from None
        except ValueError:
            raise TurnRefused("bad_number", "core.ui.bad_number", lo=0, hi=23) from None

    async def set_digest_hour(self, user_id: int, hour: int) -> NotifyPolicy:
        """The local hour (0-23, in the member's zone) of their daily digest."""
        try:
            return await self._change(user_id, lambda p: p.with_digest_hour(int(hour)))
        except ValueError:
            raise TurnRefused("bad_number", "core.ui.bad_number", lo=0, hi=23) from None

    # ------------------------------------------------------------ asking the policy
    async def reach(
        self, event: str, users: Iterable[int], row: GameRow | None = None, now: float | None = None
    ) -> Reach:
        """Which way ``event`` (at table ``row``, if any) reaches each of ``users`` now."""
        now = self.k.clock() if now is None else now
        out = Reach()
        for uid in dict.fromkeys(int(u) for u in users):
            way = await self.way_now(uid, event, row, now)
            (out.ping if way == "ping" else out.dm if way == "dm" else out.later).append(uid)
        return out

    async def way_now(self, user_id: int, event: str, row: GameRow | None, now: float) -> str:
        """``ping``, ``dm`` or ``later`` for one member (see :meth:`reach`)."""
        prefs = await self.k.settings.user(user_id)
        policy = NotifyPolicy.of(prefs)
        way = policy.way(event, row.game if row else None, row.id if row else None)
        if way not in ("ping", "dm"):
            return "later"
        if policy.quiet_at(now) or clocks.away_now(prefs, now) is not None:
            return "later"
        if row is not None and event in ("turn", "next", "clock"):
            acted = await self.store.last_acted(row.id, user_id)
            if acted is not None and now - acted < RECENT_SECONDS:
                return "later"
        return way

    async def claim(self, key: str, user_id: int, now: float) -> bool:
        """Claim sending ``key`` once across processes (see store/notify_sql.py)."""
        return await self.store.notify_claim(key, user_id, now)

    async def release(self, key: str) -> None:
        await self.store.notify_release(key)

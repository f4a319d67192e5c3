"""What the bot keeps about a member, and forgetting it (``/privacy``; issue 19).
Discord-free.

The store walks one registry of the places that keep a member's id
(:data:`store.PERSONAL_DATA`): a feature with a table of its own that keeps member ids
adds an entry there (store/privacy.py :class:`store.PersonalData`) and is covered by
``show`` and ``forget`` on both backends.  State outside the database that belongs to a
member (a web companion's in-memory sessions, caches) registers a hook with
:meth:`Privacy.on_forget`: it is called after every committed forget.

A forget puts one pseudonym in the member's place everywhere (every table, log, vote
and roster of that forget), so a replay, an export or a log still tells the players
apart; the pseudonym is random and negative (never a Discord id) and nothing links it
back to the member.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from store.ports import PrivacyStore
from store.privacy import on_forget_json
from tables.core import standing
from tables.leagues import rules as league_rules  # noqa: F401 -- a forget withdraws the member from every league (its forget step)

log = logging.getLogger("tabletop.privacy")
#: a forget drops the member's standing orders and their notices, and the table's next due
#: step is that of the orders left (tables/core/standing.py)
on_forget_json("games", "orders_json", standing.forgotten, also=standing.forgotten_due)

#: called with (member id, server id or None: every server) after a forget committed
ForgetHook = Callable[[int, int | None], Awaitable[None]]


def pseudonym() -> int:
    """A fresh pseudonym: negative, so never a Discord id (seats keep their names)."""
    return -secrets.randbits(47) - 1


class Privacy:
    def __init__(self, store: PrivacyStore) -> None:
        self.store = store
        self.hooks: list[ForgetHook] = []

    def on_forget(self, hook: ForgetHook) -> None:
        """Also forget the member in state outside the database (``hook(user_id, guild_id)``)."""
        self.hooks.append(hook)

    async def footprint(self, user_id: int, guild_id: int | None = None) -> dict[str, Any]:
        """Counts of what is kept about the member (and, asked about oneself, one's
        settings under ``prefs``); with ``guild_id`` (an admin asking about a member)
        only that server's data and no personal settings."""
        return await self.store.footprint(user_id, guild_id)

    async def forget(self, user_id: int, guild_id: int | None = None) -> dict[str, int]:
        """Forget the member (on one server with ``guild_id``): raises
        :class:`store.StillSeated` while they sit at a lobby or running table there."""
        done = await self.store.forget_user(user_id, pseudonym(), guild_id)
        for hook in self.hooks:
            try:
                await hook(user_id, guild_id)
            except Exception:  # noqa: BLE001 -- the database part is done; say so, keep going
                log.exception("privacy: a forget hook failed for a member")
        return done

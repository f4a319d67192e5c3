"""Limits a server sets on what one member (and the whole server) may open: lobbies
waiting for players, threads opened per hour, campaigns, leagues; and the expiry of idle lobbies,
which frees their channel (issue 19).  Discord-free.

The caps are server settings (``/settings limits``), kept under the ``limits`` key;
:data:`DEFAULT_LIMITS` holds the defaults, documented in the README.  Every cap is
counted in the transaction that creates the thing it caps (store: :class:`store.Caps`),
so two members racing for the last place get one place, also across processes.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from store import Caps, ChangeSet, Committed, GameChange, GameRow, LimitReached, VersionConflict
from store.ports import LobbyStore

#: the defaults of a server's limits (0 = no cap; lobby_idle_hours 0 = lobbies never expire)
DEFAULT_LIMITS: dict[str, int] = {
    "lobbies_member": 3,  # lobbies one member hosts that wait for players
    "lobbies_server": 25,  # lobbies waiting for players on the server
    "threads_member": 5,  # table threads one member opens per hour
    "threads_server": 30,  # table threads opened on the server per hour
    "campaigns_member": 5,  # open campaigns one member created
    "campaigns_server": 50,  # open campaigns on the server
    "leagues_member": 5,  # leagues one member created that are in sign-up or running
    "leagues_server": 50,  # leagues in sign-up or running on the server
    "lobby_idle_hours": 24,  # a lobby nobody joined, left or changed for this long expires
}
#: the values ``/settings limits`` accepts, per limit
RANGES: dict[str, tuple[int, int]] = {
    "lobbies_member": (0, 100),
    "lobbies_server": (0, 1000),
    "threads_member": (0, 100),
    "threads_server": (0, 1000),
    "campaigns_member": (0, 100),
    "campaigns_server": (0, 1000),
    "leagues_member": (0, 100),
    "leagues_server": (0, 1000),
    "lobby_idle_hours": (0, 720),
}
THREAD_WINDOW = 3600.0  # seconds: threads are counted per hour
EXPIRED_REASON = "asyncplay.lobby_expired_reason"  # the outcome reason of an expired lobby


def limits_of(settings: dict[str, Any]) -> dict[str, int]:
    """A server's limits: its settings' ``limits`` over the defaults (bad values ignored)."""
    out = dict(DEFAULT_LIMITS)
    stored = settings.get("limits")
    for key, value in (stored if isinstance(stored, dict) else {}).items():
        if key in RANGES and isinstance(value, int) and not isinstance(value, bool):
            lo, hi = RANGES[key]
            if lo <= value <= hi:
                out[key] = value
    return out


def caps(limits: dict[str, int], kind: str) -> Caps:
    """The member and server caps of ``kind`` ("lobbies", "threads", "campaigns", "leagues"); 0: none."""
    member, server = limits[f"{kind}_member"], limits[f"{kind}_server"]
    return Caps(member=member or None, server=server or None)


def refusal(exc: LimitReached) -> tuple[str, str, dict[str, Any]]:
    """(code, catalog key, params) of the private message that names the limit reached."""
    return "limit", f"asyncplay.limit.{exc.kind}.{exc.scope}", {"limit": exc.limit}


def check_open(limits: dict[str, int], kind: str, counts: dict[str, tuple[int, int]]) -> None:
    """Raise :class:`LimitReached` when the member or server is already at the cap of
    ``kind`` (a courtesy check before a thread is opened for a lobby; the creation
    itself counts again in its transaction)."""
    c = caps(limits, kind)
    mine, server = counts[kind]
    if c.member is not None and mine >= c.member:
        raise LimitReached(kind, "member", c.member)
    if c.server is not None and server >= c.server:
        raise LimitReached(kind, "server", c.server)


async def expire_lobbies(
    store: LobbyStore,
    now: float,
    limits_for: Callable[[int | None], Any],
    commit: Callable[[ChangeSet], Awaitable[Committed]],
) -> list[tuple[GameRow, int | None]]:
    """End every lobby idle longer than its server's ``lobby_idle_hours`` (status
    "abandoned", the reason :data:`EXPIRED_REASON`; its channel is free again).  Each is
    a compare-and-swap on the lobby's version, so a join racing the expiry wins or loses
    whole.  Returns the expired lobbies with their lobby message (to say so there).
    ``commit``: the kernel's (tables/core/kernel.py), the only code that commits a table."""
    out = []
    for row, message_id in await store.idle_lobbies(now - 3600):  # 1 hour: the shortest idle limit
        hours = (await limits_for(row.guild_id))["lobby_idle_hours"]
        if not hours or row.updated_at > now - hours * 3600:
            continue
        outcome = {"winners": [], "scores": {}, "reason": {"key": EXPIRED_REASON, "params": {"hours": hours}}}
        try:
            done = await commit(
                ChangeSet(game=GameChange(row.id, row.version, status="abandoned", outcome=outcome, to_act=[]))
            )
        except VersionConflict:
            continue  # somebody joined (or the host started) just now
        row.version = done.version or row.version
        row.status, row.outcome = "abandoned", outcome
        out.append((row, message_id))
    return out

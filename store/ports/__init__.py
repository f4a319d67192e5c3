"""The store's interface, written once: one :class:`typing.Protocol` per role, and
:class:`Store`, the union of them all.

Nobody above the store needs all of it: the table kernel needs a handful of calls
(load a table, the one compare-and-swap commit, the replay source and its snapshots),
and each feature module of tables/ needs a few of its own.  Each of them types its
store as the role that names exactly what it calls, so mypy proves a feature uses
nothing else.  Each method is declared once: in its role (store/ports/play.py, the
table kernel and the play around it; store/ports/community.py, the features around
tables), or, when several roles call it, in a small protocol of its own
(store/ports/shared.py) that those roles inherit.  :class:`Store` inherits every role
and :class:`~store.ports.play.SupportStore` (what only tests, benches and tools call).
What the calls promise together (one transaction per change set, compare-and-swap,
snapshots, the outbox, crash injection) is store/base.py's docstring.

The one implementation is :class:`store.community.SqlStore` (the SQL written once),
which SQLite and PostgreSQL specialise only by connections, locking and dialect.  It
inherits none of these protocols and satisfies them structurally, so a method it lacks
is a type error where a backend is handed out as a :class:`Store` (store/__init__.py's
``open_store``), never a stub that fails at run time.

tests/test_store_ports.py keeps this honest: each role stays small, :class:`Store` is
exactly the union of the roles and the support protocol, whose methods are listed in
:data:`TEST_SUPPORT` with their reasons, and both backends have every method.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from .community import (
    CalendarStore,
    CampaignStore,
    LeagueStepStore,
    LeagueStore,
    NameStore,
    NotifyStore,
    PeopleStore,
    PrivacyStore,
    SettingsStore,
    WebSessionStore,
)
from .play import (
    AdminStore,
    DeliveryStore,
    HistoryStore,
    KernelStore,
    LiveStore,
    LobbyStore,
    OrderStore,
    ScheduleStore,
    SeatStore,
    SupportStore,
)


class DuePolicy(Protocol):
    """The one port that points the other way, from the store to the table service: given
    to the store by whoever opens it (store/due.py).  (seat, member, waiting since, next
    reminder due, timer or bank runs out) for every human seat a running table waits for
    (tables/rules/clocks.py ``due_times``)."""

    def __call__(
        self,
        *,
        status: str,
        to_act: Sequence[str],
        seats: Sequence[tuple[str, int | None]],
        table: dict[str, Any],
        guild: dict[str, Any],
        since: float | None,
        last_reminder_at: float | None,
        prefs: dict[int, dict[str, Any]],
    ) -> list[tuple[str, int, float, float | None, float | None]]: ...


#: Store methods no feature calls, kept for tests, benches and tools (each with its reason)
TEST_SUPPORT: dict[str, str] = {
    "inject_crash": "crash injection: tests prove a change set lands whole or not at all",
    "quarantined": "tests and bench list the quarantined tables (operators' view of broken rows)",
    "waiting_tables": "tests and bench/scale.py list running tables",
    "count_games": "tests and bench count every stored table",
    "snapshots": "tests and bench read a table's snapshot rows (the kernel writes them through commit)",
}


@runtime_checkable
class Store(
    KernelStore,
    LobbyStore,
    SeatStore,
    OrderStore,
    ScheduleStore,
    HistoryStore,
    PeopleStore,
    PrivacyStore,
    CampaignStore,
    LeagueStore,
    LeagueStepStore,
    SettingsStore,
    DeliveryStore,
    WebSessionStore,
    NameStore,
    CalendarStore,
    NotifyStore,
    LiveStore,
    AdminStore,
    SupportStore,
    Protocol,
):
    """The whole store: every role, nothing else.  Every method but ``lock`` and
    ``inject_crash`` is a coroutine.  Only the wiring names it (bot.py, the facade, the
    kernel that hands the backend to the features, tools and tests); a feature names its
    role.  cogs/ never hold the store (they read through tables/; tests/test_architecture.py)."""


#: every role (what tables/, bot.py and the web companion call), for tests/test_store_ports.py
PORTS: tuple[type, ...] = tuple(b for b in Store.__bases__ if b not in (SupportStore, Protocol))


__all__ = [
    "PORTS",
    "DuePolicy",
    "TEST_SUPPORT",
    "AdminStore",
    "CalendarStore",
    "NotifyStore",
    "CampaignStore",
    "DeliveryStore",
    "HistoryStore",
    "KernelStore",
    "LeagueStepStore",
    "LeagueStore",
    "LiveStore",
    "LobbyStore",
    "NameStore",
    "OrderStore",
    "PeopleStore",
    "PrivacyStore",
    "ScheduleStore",
    "SeatStore",
    "SettingsStore",
    "Store",
    "SupportStore",
    "WebSessionStore",
]

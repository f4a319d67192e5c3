"""The table service: Discord-free, the only code that changes a table.

``bot -> cogs -> tables -> (engine, render, store)``.  The cogs turn
interactions into calls on :class:`TableService` and its results into
messages; every call here is one store transaction (see store/base.py).
Whoever opens the store gives it :func:`due_times`, the rule of when a running
table's reminders and timers fall (``store.open_store(url, due=due_times)``).
TableService is a facade: tables/kernel.py loads, advances and commits a table
(the only code that does), and feature modules around it decide the changes
(tables/service.py lists them).
"""

from engine import locales  # the one language list, for web/ (which reads the engine through tables/)

from . import clocks, limits, privacy, ratings, refusals
from .clocks import due_times
from .preview import Preview, preview, step_ends_chain
from .service import (
    BallotResult,
    Delivery,
    Due,
    HandoverResult,
    Loaded,
    LobbyResult,
    TableService,
    TurnRefused,
    TurnResult,
    UndoResult,
    VoteOpened,
    delivery_nonce,
    log_entry,
    placings,
)
from .settings import DEFAULT_SETTINGS, Settings, in_quiet_hours

__all__ = [
    "DEFAULT_SETTINGS",
    "clocks",
    "locales",
    "limits",
    "privacy",
    "ratings",
    "refusals",
    "BallotResult",
    "Delivery",
    "Due",
    "HandoverResult",
    "Loaded",
    "LobbyResult",
    "Preview",
    "Settings",
    "TableService",
    "TurnRefused",
    "TurnResult",
    "UndoResult",
    "VoteOpened",
    "delivery_nonce",
    "due_times",
    "in_quiet_hours",
    "log_entry",
    "placings",
    "preview",
    "step_ends_chain",
]

"""The table service: Discord-free, the only code that changes a table.

``bot -> cogs -> tables -> (engine, render, store)``.  The cogs turn
interactions into calls on :class:`TableService` and its results into
messages; every call here is one store transaction (see store/base.py).
Whoever opens the store gives it :func:`due_times`, the rule of when a running
table's reminders and timers fall (``store.open_store(url, due=due_times)``).
TableService is a facade: tables/core/kernel.py loads, advances and commits a table
(the only code that does), and the rooms around it decide the changes
(tables/service.py lists them).

This package is the one door: cogs/, web/, bot.py and driver.py import only the names
below (``from tables import ...``), never a room (``tables.<layer>.<room>``); the layers
and what each may import are in docs/architecture.md (tests/test_architecture.py).
"""

from engine import locales  # the one language list, for web/ (which reads the engine through tables/)
from tables.core.standing import notice_lines as order_notices
from tables.core.standing import noticed as order_noticed
from tables.leagues.rounds import LeagueService, RoundEvent, Standings
from tables.leagues.rounds import standings as league_standings
from tables.people import privacy, standings
from tables.people.flood import FloodGate
from tables.people.members import MemberLocales
from tables.people.names import clean
from tables.people.notify import Reach
from tables.people.standings import rank, rank_by_rating, record_value
from tables.people.web_sessions import LINK_SECONDS, SESSION_SECONDS, WebSessions
from tables.play import refusals
from tables.rules import clocks, limits, ratings
from tables.rules.clocks import WallClock, due_times, steady_clock
from tables.rules.decisions import Decision, decisions, said_by
from tables.rules.decisions import page as log_page
from tables.rules.levels import (
    PLATFORM_LEVELS,
    check_level,
    level_key,
    level_name,
    level_param,
    seat_level,
    table_level,
)
from tables.rules.notify import DEFAULT_WAYS, EVENTS, WAYS, NotifyPolicy, offset_zone, zone_names
from tables.rules.preview import Preview, preview, step_ends_chain
from tables.rules.settings import DEFAULT_SETTINGS, Settings, in_quiet_hours
from tables.rules.text import escape, plain, quote
from tables.seeing import board, secrecy
from tables.seeing.board import (
    Board,
    Choice,
    Frame,
    Happened,
    board_seat,
    clip,
    game_name,
    happenings,
    seat_labels,
    web_link,
)
from tables.seeing.board import text as board_text
from tables.seeing.catchup import Catchup
from tables.seeing.colours import seat_colours, symbol_svg_points
from tables.seeing.describe import DESCRIPTION_LIMIT, describe_table, describe_view, is_described
from tables.seeing.live import TableWatch, open_database
from tables.seeing.pings import board_pings
from tables.seeing.secrecy import public_position

from .core.common import (
    BallotResult,
    Due,
    HandoverResult,
    Loaded,
    LobbyResult,
    TurnRefused,
    TurnResult,
    UndoResult,
    VoteOpened,
    log_entry,
    placings,
)
from .play.delivery import Delivery, delivery_nonce
from .play.orders import ArmedShown, ArmResult, OrderChoice
from .service import TableService

__all__ = [
    "ArmResult",
    "ArmedShown",
    "OrderChoice",
    "said_by",
    "order_notices",
    "order_noticed",
    # the facade and what its calls return
    "TableService",
    "LeagueService",
    "BallotResult",
    "Delivery",
    "Due",
    "HandoverResult",
    "Loaded",
    "LobbyResult",
    "TurnRefused",
    "TurnResult",
    "UndoResult",
    "VoteOpened",
    "delivery_nonce",
    "log_entry",
    "placings",
    "due_times",
    # what a viewer sees (boards, frames, catch-up, the log)
    "Board",
    "Catchup",
    "Choice",
    "Decision",
    "Frame",
    "Happened",
    "board_pings",
    "board_seat",
    "board_text",
    "clip",
    "decisions",
    "game_name",
    "happenings",
    "log_page",
    "public_position",
    "seat_colours",
    "symbol_svg_points",
    "seat_labels",
    "web_link",
    "DESCRIPTION_LIMIT",
    "describe_table",
    "describe_view",
    "is_described",
    "Preview",
    "preview",
    "step_ends_chain",
    # leagues
    "RoundEvent",
    "Standings",
    "league_standings",
    # members, servers, the web companion
    "DEFAULT_SETTINGS",
    "FloodGate",
    "LINK_SECONDS",
    "MemberLocales",
    "SESSION_SECONDS",
    "Settings",
    "TableWatch",
    "WallClock",
    "WebSessions",
    "clean",
    "in_quiet_hours",
    "DEFAULT_WAYS",
    "EVENTS",
    "WAYS",
    "NotifyPolicy",
    "Reach",
    "zone_names",
    "offset_zone",
    "open_database",
    "rank",
    "rank_by_rating",
    "record_value",
    "steady_clock",
    # AI levels
    "PLATFORM_LEVELS",
    "check_level",
    "level_key",
    "level_name",
    "level_param",
    "seat_level",
    "table_level",
    # text a member supplied
    "escape",
    "plain",
    "quote",
    # rule modules read as namespaces (their constants and small pure functions)
    "board",
    "clocks",
    "limits",
    "locales",
    "privacy",
    "ratings",
    "refusals",
    "secrecy",
    "standings",
]

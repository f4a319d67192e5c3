"""The storage interface the table service uses.  No SQL leaves this package.

A backend (SQLite now; PostgreSQL for several bot processes) implements
:class:`Store`.  Rows come back as plain dataclasses holding JSON *text* for
the state, so nothing above the store depends on a driver's types.

Writing: one call, one transaction
----------------------------------
Every change the table service makes is one :class:`ChangeSet` passed to
:meth:`Store.commit`.  A change set holds at most one table's changes
(:class:`GameChange`), any campaign progress (:class:`CampaignChange`), vote
ballots (:class:`VoteChange`) and new votes (:class:`NewVote`).  Each part that
changes an existing row names the version it was decided on
(``expected_version``); the backend applies the whole set in ONE database
transaction and only if every one of those rows is still at its expected
version (compare-and-swap), else it writes nothing and raises
:class:`VersionConflict`.  So correctness never rests on an in-process lock:
several processes may share one database.  :meth:`Store.lock` is only a
courtesy that saves a process from racing itself.

Every row kind that can be changed has an integer ``version`` that a
successful change increments by one.

Reading: one snapshot
---------------------
Each read method returns data from one consistent snapshot (a row's seats,
state and version always belong together; a half-written change is never
seen).

Snapshots: a rebuildable cache of states
----------------------------------------
A table's state after the first *n* actions of its (effective) log is the
state its seed and those actions replay to; that replay is the truth.  To
spare replaying a long log (undo, ``/game replay <turn>``), a turn may carry a
:class:`NewSnapshot` of the state after its last action.  The backend writes
it in the turn's transaction, keyed by that action's id and by the ``key`` the
caller gives (the engine and schema version of the state), and records its
``position`` (how many effective actions lead up to it).  A change that
reverts actions drops every snapshot at or after the first reverted one; the
action log itself stays append-only.  :meth:`Store.replay_source` returns the
nearest usable snapshot and the actions after it, in one read snapshot; a
caller that finds a snapshot unusable asks again with ``key=None`` (none).

The outbox: what a committed change owes its channel
----------------------------------------------------
A change that the players must see (a turn's board and its pings, a timer's
note) carries an :class:`Owed`; the backend records it in the change's own
transaction, in the table's one ``outbox`` row (a table owes only its newest
board: a later change replaces the row and keeps the earliest version not yet
shown, ``since``, and the notes not yet posted).  A process that commits with
``Owed.owner`` holds the row's lease for ``Owed.lease`` seconds and delivers it
at once; anything not confirmed (a process killed, Discord down) is taken by
whoever :meth:`Store.claim_outbox` lets claim it (a compare-and-swap on the
row's version and attempt count, so one process at a time) once the lease ran
out and its backoff is over; :meth:`Store.outbox_done` removes it when Discord
confirmed.

What the last write of this task did
------------------------------------
:data:`LANDED` says whether the latest :meth:`Store.commit` (or
:meth:`Store.create_game`) of the running asyncio task (one interaction) was
committed (``("committed", table id, new version)``) or whether its outcome is unknown
(``("unknown", table id, None)``: the database stopped answering during COMMIT;
:class:`CommitUnknown` is raised).  The Discord layer reads it when something
fails later, so a player is never told "nothing was changed" after a change.

Crash injection (tests)
-----------------------
A backend calls ``await self._step(name)`` between the steps of a write,
inside its transaction: after the table's row is updated and before its
``"seats"``, ``"revert"``, ``"actions"``, ``"snapshot"``, ``"results"``, then before each
``"campaigns"``, ``"votes"``, ``"ratings"`` and ``"outbox"`` part, last before ``"commit"`` and, once COMMIT
returned, ``"committed"`` (the reply to COMMIT lost: :class:`CommitUnknown`); :meth:`Store.inject_crash` makes the
named step raise :class:`InjectedCrash` (or kill the process), which tests
use to show that a change set lands whole or not at all.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable, Sequence
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

ACTIVE_STATUSES = ("lobby", "active")
#: the columns of a ``games`` row, in the order both backends read them into a GameRow
GAME_COLUMNS = (
    "id, guild_id, channel_id, game, status, host_id, options_json, seed, state_json, version, "
    "created_at, updated_at, locale, outcome_json, turn_started_at, to_act_json, last_reminder_at, "
    "campaign_id, finished_at, table_json"
)


def qualified(columns: str, alias: str) -> str:
    """``columns`` (comma-separated) each prefixed with ``alias.``."""
    return ", ".join(f"{alias}.{c.strip()}" for c in columns.split(","))


#: the platform defaults of a waiting seat's two clocks, in minutes (0 = never): a
#: table's own setting (``GameRow.table``) beats its server's, which beats these.
#: The store keeps each waiting seat's due times in indexed columns (``turn_clocks``),
#: so a scheduler pass reads only what is due (:meth:`Store.due_tables`).
DEFAULT_CLOCKS: dict[str, float] = {"reminder": 720, "turn_timer": 0}


def clock_minutes(key: str, table: dict[str, Any], guild: dict[str, Any]) -> float:
    """The minutes of clock ``key`` ("reminder", "turn_timer") for a table."""
    value = table.get(key, guild.get(key, DEFAULT_CLOCKS[key]))
    try:
        return max(0.0, float(value or 0))
    except (TypeError, ValueError):
        return 0.0


def json_list(raw: str | None) -> list:
    """A stored JSON list, or [] when it is missing or damaged."""
    try:
        value = json.loads(raw) if raw else []
    except ValueError:
        return []
    return value if isinstance(value, list) else []


def json_dict(raw: str | None) -> dict:
    """A stored JSON object, or {} when it is missing or damaged."""
    try:
        value = json.loads(raw) if raw else {}
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


# ------------------------------------------------------------------ time banks
# A table with a clock profile keeps, in ``GameRow.table["clock"]``, each seat's bank
# (seconds left) as of the moment ``at`` of its last change; a bank runs only while
# its seat is waiting and its member is not away (``away``: [start, end] periods of
# the member's vacations, from their preferences).  Everything is computed from
# these stored times, so the due times survive restarts (tables/clocks.py keeps
# the accounting; these two functions are shared with the store's due times).


def away_periods(prefs: dict[str, Any]) -> list[tuple[float, float]]:
    """A member's vacations ([start, end] in epoch seconds), sorted."""
    out = []
    for p in prefs.get("away") or []:
        try:
            start, end = float(p[0]), float(p[1])
        except (TypeError, ValueError, IndexError):
            continue
        if end > start:
            out.append((start, end))
    return sorted(out)


def running_seconds(start: float, end: float, away: Sequence[tuple[float, float]] = ()) -> float:
    """Seconds of [start, end] outside every vacation period (the time a bank ran)."""
    if end <= start:
        return 0.0
    total = end - start
    cursor = start
    for a, b in sorted(away):
        a, b = max(a, cursor), min(b, end)
        if b > a:
            total -= b - a
            cursor = b
    return max(0.0, total)


def runs_out_at(start: float, seconds: float, away: Sequence[tuple[float, float]] = ()) -> float:
    """When a clock of ``seconds`` that starts running at ``start`` runs out, paused
    during the vacation periods ``away``."""
    t, left = start, max(0.0, seconds)
    for a, b in sorted(away):
        if b <= t:
            continue
        a = max(a, t)
        if t + left <= a:
            break
        left -= a - t
        t = b
    return t + left


def seat_clocks(
    *,
    status: str,
    to_act: Sequence[str],
    seats: Sequence[tuple[str, int | None]],
    table: dict[str, Any],
    guild: dict[str, Any],
    since: float | None,
    last_reminder_at: float | None,
    away: dict[int, list[tuple[float, float]]] | None = None,
) -> list[tuple[str, int, float, float | None, float | None]]:
    """(seat, user, waiting since, next reminder due, turn timer / bank runs out) for
    every human seat a running table waits for; the same rule the scheduler applies.
    A table with a clock profile runs out when the seat's bank does; vacations
    (``away``: member -> periods) pause both the bank or timer and the reminders."""
    if status != "active" or since is None:
        return []
    remind, timer = clock_minutes("reminder", table, guild), clock_minutes("turn_timer", table, guild)
    clock = table.get("clock") if isinstance(table.get("clock"), dict) else None
    banks = clock.get("banks") if clock else None
    users = dict(seats)
    out = []
    for seat in to_act:
        uid = users.get(seat)
        if uid is None:
            continue
        periods = (away or {}).get(uid, [])
        remind_at = None
        if remind:
            remind_at = since + remind * 60
            if last_reminder_at is not None:
                remind_at = max(remind_at, last_reminder_at + remind * 60)
            for a, b in periods:  # no pings while away: the next one is due when they are back
                if a <= remind_at < b:
                    remind_at = b
        if clock is not None and isinstance(banks, dict) and seat in banks:
            expire_at: float | None = runs_out_at(float(clock.get("at") or since), float(banks[seat]), periods)
        else:
            expire_at = runs_out_at(since, timer * 60, periods) if timer else None
        out.append((seat, uid, since, remind_at, expire_at))
    return out


def replace_member(value: Any, user_id: int, anon_id: int) -> Any:
    """``value`` (parsed JSON) with every occurrence of a member's id, as a number
    or as an object key, replaced by ``anon_id`` (privacy: vote ballots, campaign members)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return anon_id if value == user_id else value
    if isinstance(value, list):
        return [replace_member(v, user_id, anon_id) for v in value]
    if isinstance(value, dict):
        return {
            (str(anon_id) if k == str(user_id) else k): replace_member(v, user_id, anon_id) for k, v in value.items()
        }
    return value


def anonymised(raw: str | None, user_id: int, anon_id: int) -> str | None:
    """Stored JSON text with the member replaced (None when nothing changed or it does not parse)."""
    if not raw or str(user_id) not in raw:
        return None
    try:
        value = json.loads(raw)
    except ValueError:
        return None
    out = dumps(replace_member(value, user_id, anon_id))
    return out if out != raw else None


class StoreError(Exception):
    pass


def redact(url: str) -> str:
    """``url`` with any password replaced by ``***`` (``user:password@``, ``password=``),
    for messages and logs; a malformed URL is redacted as far as it can be read."""
    import re

    url = re.sub(r"(://[^/@:]*:).*@", r"\1***@", url, count=1)
    return re.sub(r"(?i)(password=)[^&]*", r"\1***", url)


def scrub(text: str, url: str) -> str:
    """``text`` (a driver's error message) without the password of ``url`` anywhere in it."""
    import re
    from urllib.parse import unquote

    found = re.search(r"://[^/@:]*:(.*)@", url)
    secrets = [found.group(1)] if found else []
    secrets += re.findall(r"(?i)password=([^&]*)", url)
    for secret in secrets:
        for form in {secret, unquote(secret)}:
            if form:
                text = text.replace(form, "***")
    return redact(text)


class VersionConflict(StoreError):
    """Somebody else changed one of the rows first (compare-and-swap lost); nothing was written."""


class VoteTaken(VersionConflict):
    """A vote on that decision (the same seat at the same table version) exists already:
    opened by another call or process first; nothing was written."""


class LimitReached(StoreError):
    """A creation would pass a server's cap (``kind``: "lobbies", "threads",
    "campaigns"; ``scope``: "member" or "server"; ``limit``: the cap); nothing was written."""

    def __init__(self, kind: str, scope: str, limit: int):
        self.kind, self.scope, self.limit = kind, scope, limit
        super().__init__(f"{kind} per {scope}: {limit}")


class StillSeated(StoreError):
    """``forget`` refused: the member still sits at these lobby or running tables."""

    def __init__(self, game_ids: Sequence[int]):
        self.game_ids = list(game_ids)
        super().__init__(f"still seated at {self.game_ids}")


class CommitUnknown(StoreError):
    """The database stopped answering during COMMIT: the change may have been written, or not."""


#: what the latest commit of this asyncio task did (see the module docstring)
LANDED: ContextVar[tuple[str, int | None, int | None] | None] = ContextVar("tabletop_landed", default=None)


def landed() -> tuple[str, int | None, int | None] | None:
    """``("committed" | "unknown", table id, its new version)`` of this task's latest commit, or None."""
    return LANDED.get()


class InjectedCrash(StoreError):
    """Raised inside a transaction by :meth:`Store.inject_crash` (tests only)."""


class StoreInUse(StoreError):
    """The database cannot be opened by this process (SQLite file held by another bot process)."""


class StoreUnavailable(StoreError):
    """The database this store opened is gone (SQLite: its file was deleted or replaced
    while the bot ran): nothing is written any more; nothing of the refused write was kept."""


class ChannelBusy(StoreError):
    """The channel already has a game in its lobby or running."""


class CorruptRow(StoreError):
    def __init__(self, game_id: int, reason: str):
        self.game_id = game_id
        self.reason = reason
        super().__init__(f"game {game_id}: {reason}")


@dataclass
class Seat:
    seat: str
    user_id: int | None  # None: the seat-filler AI plays it
    #: the level the seat-filler AI plays this seat at (one of the game's ``ai_levels``);
    #: None: the game's default level.  Kept for a human's seat too: the level the AI
    #: stands in at when the seat is handed to it.
    ai_level: str | None = None

    @property
    def is_ai(self) -> bool:
        return self.user_id is None


@dataclass
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int
    game: str
    status: str
    host_id: int
    seats: list[Seat]
    options: dict[str, Any]
    seed: int
    state_json: str | None
    version: int
    created_at: float
    updated_at: float
    locale: str | None = None
    outcome: dict[str, Any] | None = None
    turn_started_at: float | None = None
    to_act: list[str] = field(default_factory=list)
    last_reminder_at: float | None = None
    campaign_id: int | None = None
    finished_at: float | None = None
    table: dict[str, Any] = field(default_factory=dict)  # platform settings of this table (timers)

    def seat_of(self, user_id: int) -> str | None:
        for s in self.seats:
            if s.user_id == user_id:
                return s.seat
        return None

    def user_of(self, seat: str) -> int | None:
        for s in self.seats:
            if s.seat == seat:
                return s.user_id
        return None

    def ai_level_of(self, seat: str) -> str | None:
        """The AI level stored with ``seat`` (None: the game's default)."""
        for s in self.seats:
            if s.seat == seat:
                return s.ai_level
        return None

    @property
    def humans(self) -> list[int]:
        return [s.user_id for s in self.seats if s.user_id is not None]


@dataclass
class ActionRow:
    seat: str
    user_id: int | None
    action: dict[str, Any]
    version: int = 0
    created_at: float = 0.0
    id: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class NewSnapshot:
    """A cached state to store with a change: the state after the last of the
    change's ``actions`` (or, for :meth:`Store.fill_snapshots`, after the logged
    action ``action_id``), under ``key`` (the engine/schema version that made it)."""

    key: str
    state_json: str
    action_id: int | None = None


@dataclass
class SnapshotRow:
    action_id: int  # the last action the state includes
    position: int  # effective actions up to and including ``action_id``
    key: str
    state_json: str


@dataclass
class ReplaySource:
    """What rebuilding a state needs: a cached state (or None: start from the
    seed) and the effective actions after it, oldest first."""

    snapshot: SnapshotRow | None
    actions: list[ActionRow]
    total: int  # effective actions in the whole log
    cut: int | None = None  # with ``user_id``: index in ``actions`` of that member's last action
    version: int | None = None  # the table's version in the same read snapshot

    @property
    def start(self) -> int:
        """The log position the snapshot stands for (0: the start of the game)."""
        return self.snapshot.position if self.snapshot else 0


@dataclass
class ResultRow:
    seat: str
    user_id: int
    place: int
    won: bool
    score: float | None = None
    record: float | None = None


@dataclass
class StatRow:
    game: str
    user_id: int
    played: int
    wins: int
    best_low: float | None  # smallest record (e.g. fewest rounds to clear)
    best_high: float | None  # largest record (e.g. biggest fortune)


@dataclass
class Campaign:
    id: int
    guild_id: int
    game: str
    name: str
    points: list[int]
    progress: dict[str, Any] | None
    created_by: int
    status: str = "open"
    version: int = 1


@dataclass
class LeagueRow:
    """A league season (tables/leagues.py): its settings (``config``) and its
    running model (``state``: players, rounds, tables) as JSON; ``version``
    for compare-and-swap (:meth:`Store.update_league`)."""

    id: int
    guild_id: int
    channel_id: int
    game: str
    name: str
    format: str
    status: str  # signup, running, finished, cancelled
    config: dict[str, Any]
    state: dict[str, Any]
    created_by: int
    created_at: float
    updated_at: float
    version: int = 1


@dataclass
class Vote:
    id: int
    game_id: int
    kind: str
    payload: dict[str, Any]
    base_version: int
    voters: list[int]
    yes: list[int]
    status: str
    created_by: int | None
    no: list[int] = field(default_factory=list)
    version: int = 1
    created_at: float = 0.0


@dataclass
class GameChange:
    """Changes to one table, applied only while it is at ``expected_version``.

    ``None`` (or an empty sequence) leaves a field as it is.  ``seats`` replaces
    the whole seat list; ``actions`` are appended to the log (stamped with the
    new version); ``revert`` marks logged action ids as taken back (undo) by
    ``by_user`` (and drops the snapshots from the first of them on);
    ``snapshot`` caches the state after the last of ``actions``;
    ``results`` records a finished game's placings; ``to_act``
    (who must decide now) also restarts the decision's clock (timer and
    reminders); ``status`` "active" stamps the start, "finished"/"abandoned" the end.
    The new version is ``expected_version + 1``."""

    game_id: int
    expected_version: int
    seats: Sequence[Seat] | None = None
    status: str | None = None
    state_json: str | None = None
    options: dict[str, Any] | None = None
    outcome: dict[str, Any] | None = None
    actions: Sequence[ActionRow] = ()
    to_act: Sequence[str] | None = None
    results: Sequence[ResultRow] = ()
    table: dict[str, Any] | None = None
    revert: Sequence[int] = ()
    by_user: int | None = None
    snapshot: NewSnapshot | None = None


@dataclass
class CampaignChange:
    """Replace a campaign's progress, if the campaign is still at ``expected_version``."""

    campaign_id: int
    expected_version: int
    progress: dict[str, Any]


@dataclass
class VoteChange:
    """A ballot or the close of a vote, if the vote is still at ``expected_version``."""

    vote_id: int
    expected_version: int
    yes: list[int] | None = None
    no: list[int] | None = None
    status: str | None = None  # open, passed, refused, expired


@dataclass
class NewVote:
    game_id: int
    kind: str
    payload: dict[str, Any]
    base_version: int  # the table version the vote is about; it expires when the table moves on
    voters: list[int]
    created_by: int | None
    #: what the vote decides (e.g. "seat:p2"): at most one vote per table, ``base_version`` and
    #: decision, whatever its outcome, enforced by the database (:class:`VoteTaken`), so two
    #: processes noticing the same expired bank open one vote.  None: no such limit.
    decision: str | None = None


@dataclass
class RatingRow:
    """A member's multiplayer rating in one game on one server (OpenSkill: mean and
    uncertainty), with the number of rated games."""

    guild_id: int
    game: str
    user_id: int
    mu: float
    sigma: float
    played: int
    version: int = 1


@dataclass
class RatingChange:
    """A new rating, if the stored one is still at ``expected_version`` (0: no rating yet)."""

    guild_id: int
    game: str
    user_id: int
    expected_version: int
    mu: float
    sigma: float
    played: int


@dataclass
class FollowRow:
    """A member following a table: ``mode`` "turn" (a summary of each turn) or "digest"
    (once a day); ``sent_version`` is the table version they last heard of."""

    game_id: int
    user_id: int
    mode: str
    sent_version: int
    sent_at: float


@dataclass
class Caps:
    """Caps a creation must respect, counted in its own transaction (so also across
    processes): how many the member (``member``) and the whole server (``server``) may
    have; None: no cap."""

    member: int | None = None
    server: int | None = None


# ------------------------------------------------------------------- privacy
@dataclass(frozen=True)
class PersonalData:
    """One place the store keeps a member's Discord id.  ``/privacy show`` counts
    these places and ``/privacy forget`` clears them: both walk :data:`PERSONAL_DATA`,
    so a new table that keeps member ids (a web companion's sessions, say) is covered
    by adding one entry there (tests/test_privacy.py fails for a schema column named
    like a member id that no entry covers).

    ``forget``: "delete" the rows, or "pseudonym" (put the forget's pseudonym in the
    member's place: logs, seats and rosters keep telling players apart, so replays and
    exports still work).  ``scope``: how a row belongs to a server ("guild_id": its own
    column; "game_id": its table's server); None: personal data of no server (settings,
    sessions): only the member's own forget touches it and an admin never sees it.
    ``json``: the column is JSON text that may name the member anywhere (as a number or
    an object key), rewritten row by row (``pk`` names the row)."""

    name: str  # what ``footprint`` counts it as
    table: str
    column: str
    forget: str = "pseudonym"
    scope: str | None = "game_id"
    json: bool = False
    pk: str = ""


PERSONAL_DATA: list[PersonalData] = [
    PersonalData("results", "results", "user_id", "delete", "guild_id"),
    PersonalData("ratings", "ratings", "user_id", "delete", "guild_id"),
    PersonalData("follows", "follows", "user_id", "delete"),
    PersonalData("tables", "seats", "user_id"),
    PersonalData("actions", "actions", "user_id"),
    PersonalData("records", "reverts", "by_user"),
    PersonalData("records", "turn_clocks", "user_id"),
    PersonalData("hosted", "games", "host_id", scope="guild_id"),
    PersonalData("votes", "votes", "created_by", pk="id"),
    PersonalData("votes", "votes", "payload_json", json=True, pk="id"),
    PersonalData("votes", "votes", "voters_json", json=True, pk="id"),
    PersonalData("votes", "votes", "yes_json", json=True, pk="id"),
    PersonalData("votes", "votes", "no_json", json=True, pk="id"),
    PersonalData("records", "outbox", "notes_json", json=True, pk="game_id"),  # a notice not yet posted
    PersonalData("campaigns", "campaigns", "created_by", scope="guild_id", pk="id"),
    PersonalData("campaigns", "campaigns", "progress_json", scope="guild_id", json=True, pk="id"),
    PersonalData("records", "rate_events", "user_id", "delete", "guild_id"),
    PersonalData("leagues", "leagues", "created_by", scope="guild_id", pk="id"),
    # league rosters, pairings, places and podiums (tables/leagues.py)
    PersonalData("leagues", "leagues", "state_json", scope="guild_id", json=True, pk="id"),
    PersonalData("prefs", "user_prefs", "user_id", "delete", None),
    PersonalData("web_sessions", "web_tokens", "user_id", "delete", None),  # the web companion's sign-ins
]


def register_personal_data(entry: PersonalData) -> None:
    """Add a place that keeps member ids (a feature's own table); idempotent."""
    if entry not in PERSONAL_DATA:
        PERSONAL_DATA.append(entry)


class Sql:
    """What the shared privacy code needs from a backend's transaction: ``?``
    placeholders (a backend translates them)."""

    async def fetch(self, sql: str, args: Sequence[Any]) -> list[tuple]:
        raise NotImplementedError

    async def execute(self, sql: str, args: Sequence[Any]) -> int:
        """Run a write; the number of rows it touched."""
        raise NotImplementedError


def _scoped(e: PersonalData, guild_id: int | None) -> tuple[str, list[Any]]:
    if guild_id is None:
        return "", []
    if e.scope == "guild_id":
        return " AND guild_id=?", [guild_id]
    return f" AND {e.scope} IN (SELECT id FROM games WHERE guild_id=?)", [guild_id]


async def _json_hits(db: Sql, e: PersonalData, user_id: int, guild_id: int | None) -> list[tuple[Any, str]]:
    """(row key, the column's text) of the rows whose JSON names the member."""
    scope, args = _scoped(e, guild_id)
    rows = await db.fetch(
        f"SELECT {e.pk}, {e.column} FROM {e.table} WHERE {e.column} LIKE ?{scope}", [f"%{user_id}%", *args]
    )
    return [(k, raw) for k, raw in rows if anonymised(raw, user_id, 0) is not None]


async def personal_footprint(db: Sql, user_id: int, guild_id: int | None = None) -> dict[str, Any]:
    """Counts per :class:`PersonalData` name of what is kept about the member (one
    read snapshot); with ``guild_id`` only that server's data and no personal settings.
    Unscoped, ``prefs`` is the member's settings (a dict)."""
    counts: dict[str, int] = {}
    keyed: dict[tuple[str, str], set[Any]] = {}
    for e in PERSONAL_DATA:
        if e.scope is None and guild_id is not None:
            continue
        if e.table == "user_prefs":
            continue  # shown as the settings themselves
        counts.setdefault(e.name, 0)
        if e.json:
            keyed.setdefault((e.name, e.table), set()).update(k for k, _ in await _json_hits(db, e, user_id, guild_id))
            continue
        scope, args = _scoped(e, guild_id)
        if e.pk:
            rows = await db.fetch(f"SELECT {e.pk} FROM {e.table} WHERE {e.column}=?{scope}", [user_id, *args])
            keyed.setdefault((e.name, e.table), set()).update(r[0] for r in rows)
        elif e.name == "tables":
            rows = await db.fetch(
                f"SELECT COUNT(DISTINCT game_id) FROM {e.table} WHERE {e.column}=?{scope}", [user_id, *args]
            )
            counts[e.name] += int(rows[0][0])
        else:
            rows = await db.fetch(f"SELECT COUNT(*) FROM {e.table} WHERE {e.column}=?{scope}", [user_id, *args])
            counts[e.name] += int(rows[0][0])
    for (name, _), keys in keyed.items():
        counts[name] += len(keys)
    out: dict[str, Any] = dict(counts)
    if guild_id is None:
        rows = await db.fetch("SELECT prefs_json FROM user_prefs WHERE user_id=?", [user_id])
        out["prefs"] = json_dict(rows[0][0]) if rows else {}
    return out


async def forget_personal(db: Sql, user_id: int, anon_id: int, guild_id: int | None = None) -> dict[str, int]:
    """Inside one write transaction: refuse (:class:`StillSeated`) while the member sits
    at a lobby or running table (of that server), else clear every :data:`PERSONAL_DATA`
    place: rows deleted, or ``anon_id`` in the member's place.  Counts per name."""
    scope, args = ("", []) if guild_id is None else (" AND g.guild_id=?", [guild_id])
    seated = await db.fetch(
        "SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id=g.id"
        f" WHERE s.user_id=? AND g.status IN ('lobby','active'){scope} ORDER BY g.id",
        [user_id, *args],
    )
    if seated:
        raise StillSeated([int(r[0]) for r in seated])
    done: dict[str, int] = {}
    keyed: dict[tuple[str, str], set[Any]] = {}
    for e in PERSONAL_DATA:
        if e.scope is None and guild_id is not None:
            continue
        done.setdefault(e.name, 0)
        if e.json:
            hits = await _json_hits(db, e, user_id, guild_id)
            for k, raw in hits:
                new = anonymised(raw, user_id, anon_id)
                await db.execute(f"UPDATE {e.table} SET {e.column}=? WHERE {e.pk}=?", [new, k])
            keyed.setdefault((e.name, e.table), set()).update(k for k, _ in hits)
            continue
        where, wargs = _scoped(e, guild_id)
        if e.pk:
            rows = await db.fetch(f"SELECT {e.pk} FROM {e.table} WHERE {e.column}=?{where}", [user_id, *wargs])
            keyed.setdefault((e.name, e.table), set()).update(r[0] for r in rows)
        if e.forget == "delete":
            n = await db.execute(f"DELETE FROM {e.table} WHERE {e.column}=?{where}", [user_id, *wargs])
        else:
            n = await db.execute(
                f"UPDATE {e.table} SET {e.column}=? WHERE {e.column}=?{where}", [anon_id, user_id, *wargs]
            )
        if not e.pk:
            done[e.name] += n
    for (name, _), keys in keyed.items():
        done[name] += len(keys)
    return done


@dataclass
class Owed:
    """What a table change owes its channel, recorded with it (the outbox; see the
    module docstring): ``kind`` "board" (the table's board at the new version, which
    pings whoever is to act) or "notice" (only ``notes``: a table that ended without
    a board); ``notes``: notices to post with it (JSON objects the Discord layer
    words); ``owner``: the process that delivers it at once, holding the lease for
    ``lease`` seconds (None: the scheduler delivers it)."""

    kind: str = "board"
    notes: Sequence[dict[str, Any]] = ()
    owner: str | None = None
    lease: float = 60.0


#: notices kept in one outbox row (the oldest are dropped beyond this)
OUTBOX_NOTES = 8


@dataclass
class OutboxRow:
    """A table's undelivered board (see :class:`Owed`): the newest ``version``, the
    first version not yet shown ``since``, the notes not yet posted, how many
    deliveries were tried, when the next may start and who holds the lease."""

    game_id: int
    version: int
    since: int
    kind: str
    notes: list[dict[str, Any]]
    attempts: int
    due_at: float
    lease_until: float | None
    lease_owner: str | None
    created_at: float


def merge_owed(existing: tuple[int, str] | None, version: int, owed: Owed) -> tuple[int, str]:
    """(since, notes JSON) of a table's outbox row after a change at ``version``
    that owes ``owed``; ``existing``: the (since, notes JSON) of the row it replaces."""
    since, notes = version, list(owed.notes)
    if existing is not None:
        since = min(int(existing[0]), version)
        notes = json_list(existing[1]) + notes
    return since, dumps(notes[-OUTBOX_NOTES:])


def outbox_row(r: Sequence[Any]) -> OutboxRow:
    """An OutboxRow from the columns of :data:`OUTBOX_COLUMNS`."""
    return OutboxRow(
        game_id=int(r[0]),
        version=int(r[1]),
        since=int(r[2]),
        kind=str(r[3]),
        notes=[n for n in json_list(r[4]) if isinstance(n, dict)],
        attempts=int(r[5]),
        due_at=float(r[6]),
        lease_until=None if r[7] is None else float(r[7]),
        lease_owner=r[8],
        created_at=float(r[9]),
    )


OUTBOX_COLUMNS = "game_id, version, since, kind, notes_json, attempts, due_at, lease_until, lease_owner, created_at"


@dataclass
class ChangeSet:
    """Everything one service call writes: all of it in one transaction, or nothing.
    ``owed``: what the table change (``game``) owes its channel (the outbox)."""

    game: GameChange | None = None
    campaigns: Sequence[CampaignChange] = ()
    votes: Sequence[VoteChange] = ()
    new_votes: Sequence[NewVote] = ()
    ratings: Sequence[RatingChange] = ()
    owed: Owed | None = None

    def __bool__(self) -> bool:
        return bool(self.game or self.campaigns or self.votes or self.new_votes or self.ratings)

    def __post_init__(self) -> None:
        if self.owed is not None and self.game is None:
            raise ValueError("an owed delivery belongs to a table change")


@dataclass
class Committed:
    """What :meth:`Store.commit` wrote: the table's new version (if it changed)
    and the ids of the new votes, in order."""

    version: int | None = None
    vote_ids: list[int] = field(default_factory=list)


class Store:
    """Abstract storage.  Every method is a coroutine.

    A backend implements :meth:`commit` (the only table/campaign/vote writer)
    and the read methods; the convenience writers below are built on
    :meth:`commit`."""

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[Hashable, asyncio.Lock] = weakref.WeakValueDictionary()
        self._crash: tuple[str, str] | None = None

    @asynccontextmanager
    async def lock(self, key: Hashable) -> AsyncIterator[None]:
        """Per-key lock inside this process (saves racing ourselves); the
        compare-and-swap in :meth:`commit` is what keeps other processes right."""
        lock = self._locks.get(key)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[key] = lock
        async with lock:
            yield

    # ------------------------------------------------- crash injection
    def inject_crash(self, step: str | None, how: str = "raise") -> None:
        """Tests: make the next commit fail at ``step`` (``how`` "raise": raise
        :class:`InjectedCrash`; "kill": SIGKILL this process).  ``None`` clears it."""
        self._crash = None if step is None else (step, how)

    async def _step(self, name: str) -> None:
        """Called by backends between the steps of a commit, inside its transaction."""
        if self._crash is not None and self._crash[0] == name:
            how = self._crash[1]
            self._crash = None
            if how == "kill":
                os.kill(os.getpid(), signal.SIGKILL)
            raise InjectedCrash(name)

    # lifecycle
    async def open(self) -> None: ...
    async def close(self) -> None: ...

    async def check(self) -> None:
        """Raise :class:`StoreUnavailable` when the database this store opened can no
        longer be written (called before every commit by the backend, and by the
        scheduler's periodic pass so a lost database is noticed while nobody plays)."""

    # ----------------------------------------------------------- writing
    async def commit(self, changes: ChangeSet) -> Committed:
        """Apply ``changes`` in one transaction, all or nothing (see the module
        docstring).  Raises :class:`VersionConflict` when any expected version
        no longer holds; then nothing was written."""
        raise NotImplementedError

    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game: str,
        host_id: int,
        options: dict[str, Any],
        seed: int,
        seats: Sequence[Seat],
        locale: str | None = None,
        status: str = "lobby",
        state_json: str | None = None,
        table: dict[str, Any] | None = None,
        campaign_id: int | None = None,
        caps: Caps | None = None,
    ) -> GameRow:
        """A new table with its seats, in one transaction.  Raises
        :class:`ChannelBusy` when the channel already has a lobby or running
        table (enforced by the database, so also across processes), and
        :class:`LimitReached` when ``caps`` are given and the host (lobbies they host)
        or the server (its lobbies) already has that many lobbies, counted in the
        same transaction."""
        raise NotImplementedError

    async def update_game(self, game_id: int, expected_version: int, **changes: Any) -> int:
        """One :class:`GameChange` on its own; returns the new version."""
        done = await self.commit(ChangeSet(game=GameChange(game_id, expected_version, **changes)))
        assert done.version is not None
        return done.version

    async def create_vote(
        self,
        *,
        game_id: int,
        kind: str,
        payload: dict[str, Any],
        base_version: int,
        voters: list[int],
        created_by: int | None,
    ) -> Vote:
        done = await self.commit(
            ChangeSet(new_votes=[NewVote(game_id, kind, payload, base_version, voters, created_by)])
        )
        vote = await self.get_vote(done.vote_ids[0])
        assert vote is not None
        return vote

    async def mark_reminded(
        self, game_id: int, at: float | None, *, expected_version: int | None = None, previous: float | None = None
    ) -> bool:
        """Reminder bookkeeping (does not change the table's version).  With
        ``expected_version`` it claims the reminder: it writes, and returns True,
        only while the table is at that version and its last reminder time is
        still ``previous`` (the one the caller saw), so each reminder is sent
        once, also across processes.  ``at=None`` clears the mark."""
        raise NotImplementedError

    # ------------------------------------------------------------ outbox
    async def outbox(self, game_id: int) -> OutboxRow | None:
        """The table's undelivered board, if any."""
        raise NotImplementedError

    async def due_outbox(self, now: float, limit: int = 50) -> list[OutboxRow]:
        """Undelivered boards whose backoff is over and whose lease (if any) ran out, oldest first."""
        raise NotImplementedError

    async def claim_outbox(self, row: OutboxRow, owner: str, until: float, now: float) -> bool:
        """Take the delivery of ``row`` until ``until`` (counting one attempt): True only
        while the row is still at that version and attempt count and nobody holds a
        live lease (so one process delivers it, also across processes)."""
        raise NotImplementedError

    async def outbox_done(self, game_id: int, version: int) -> bool:
        """Discord confirmed the board of ``version``: remove the row, unless a newer change replaced it."""
        raise NotImplementedError

    async def outbox_retry(self, game_id: int, version: int, owner: str | None, due_at: float) -> bool:
        """A delivery failed: release ``owner``'s lease and try again from ``due_at``
        (None as ``owner``: whoever holds it); False when the row moved on."""
        raise NotImplementedError

    async def quarantine(self, game_id: int, reason: str) -> None:
        """Take a table out of play (status ``quarantined``; the channel is
        free again) and keep its raw row for a developer."""
        raise NotImplementedError

    # ----------------------------------------------------------- reading
    async def get_game(self, game_id: int) -> GameRow | None:
        """Raises :class:`CorruptRow` when the row cannot be read."""
        raise NotImplementedError

    async def active_game(self, channel_id: int) -> GameRow | None:
        """The channel's lobby or running table."""
        raise NotImplementedError

    async def latest_game(self, channel_id: int, statuses: Sequence[str]) -> GameRow | None:
        """The channel's most recent table (highest id) with one of ``statuses``."""
        raise NotImplementedError

    async def actions(self, game_id: int, *, limit: int = 50, offset: int = 0) -> list[ActionRow]:
        """The effective log (taken-back actions left out), oldest first."""
        raise NotImplementedError

    async def count_actions(self, game_id: int) -> int:
        raise NotImplementedError

    # snapshots (a cache: see the module docstring)
    async def replay_source(
        self, game_id: int, key: str | None, *, turn: int | None = None, user_id: int | None = None
    ) -> ReplaySource:
        """From one read snapshot: the latest snapshot stored under ``key`` that
        serves the request, and the effective actions after it.

        ``turn``: to rebuild the state after the first ``turn`` actions (the
        actions stop there).  ``user_id``: to take back that member's last
        action: the snapshot lies before it, the actions run to the end of the
        log and ``cut`` indexes that action (``None``: the member has none).
        Neither: the whole log.  ``key=None`` uses no snapshot."""
        raise NotImplementedError

    async def snapshots(self, game_id: int) -> list[SnapshotRow]:
        """Every snapshot of a table (any key), oldest first."""
        raise NotImplementedError

    async def fill_snapshots(self, game_id: int, expected_version: int, snapshots: Sequence[NewSnapshot]) -> bool:
        """Cache states a replay computed (each names its ``action_id``), while the
        table is still at ``expected_version`` (the version does not change; a
        snapshot already there is kept).  Returns False and writes nothing when
        the table moved on."""
        raise NotImplementedError

    async def drop_snapshots(self, game_id: int | None = None) -> int:
        """Drop the cached states of one table (None: of every table); returns how many."""
        raise NotImplementedError

    async def due_tables(self, now: float) -> list[GameRow]:
        """Running tables with a seat whose reminder or turn timer is due at ``now``:
        read through the indexed due times, so a pass costs what is due, not what runs."""
        raise NotImplementedError

    async def waiting_tables(self) -> list[GameRow]:
        """Running games with somebody to act (reminders and turn timers);
        quarantined, finished and unreadable tables are left out."""
        raise NotImplementedError

    async def quarantined(self) -> list[tuple[int, str]]:
        """(table id, reason) of every quarantined table, oldest first."""
        raise NotImplementedError

    # settings: read-modify-write in one transaction, the row locked (no lost updates:
    # two admins changing different settings at once both keep theirs)
    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        raise NotImplementedError

    async def update_guild_settings(
        self, guild_id: int, change: Callable[[dict[str, Any]], dict[str, Any]]
    ) -> dict[str, Any]:
        """Replace a server's settings by ``change(current)``, where ``current`` is read
        in the same write transaction with the row locked (also against other processes);
        returns what was written.  ``change`` may raise: then nothing is written."""
        raise NotImplementedError

    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None:
        await self.update_guild_settings(guild_id, lambda _: settings)

    async def user_prefs(self, user_id: int) -> dict[str, Any]:
        raise NotImplementedError

    async def update_user_prefs(
        self, user_id: int, change: Callable[[dict[str, Any]], dict[str, Any]]
    ) -> dict[str, Any]:
        """Like :meth:`update_guild_settings`, for a member's preferences (and re-times
        the member's waiting seats: a vacation moves their due times)."""
        raise NotImplementedError

    async def set_user_prefs(self, user_id: int, prefs: dict[str, Any]) -> None:
        await self.update_user_prefs(user_id, lambda _: prefs)

    # limits (issue 19)
    async def claim_rate(
        self, kind: str, guild_id: int | None, user_id: int, now: float, window: float, caps: Caps
    ) -> None:
        """Record one ``kind`` event (a thread opened) of the member, unless the member
        (``caps.member``) or the server (``caps.server``) had that many in the last
        ``window`` seconds: then raise :class:`LimitReached` and write nothing.  Counted
        and written in one transaction; events older than the window are dropped."""
        raise NotImplementedError

    async def release_rate(self, kind: str, user_id: int, at: float) -> None:
        """Give back a claimed event (what it was for could not be done)."""
        raise NotImplementedError

    async def count_open(self, guild_id: int, user_id: int) -> dict[str, tuple[int, int]]:
        """What the member and the server have open: {"lobbies": (member's, server's),
        "campaigns": (...)}; lobbies the member hosts, open campaigns they created."""
        raise NotImplementedError

    async def set_lobby_message(self, game_id: int, message_id: int) -> None:
        """Remember the message that shows a lobby (so its expiry can be shown there);
        the table's version does not change."""
        raise NotImplementedError

    async def idle_lobbies(self, before: float) -> list[tuple[GameRow, int | None]]:
        """Lobbies unchanged since ``before``, with their lobby message (None: unknown), oldest first."""
        raise NotImplementedError

    # stats
    async def stats(self, guild_id: int, *, game: str | None = None, user_id: int | None = None) -> list[StatRow]:
        raise NotImplementedError

    async def results_of_campaign(self, campaign_id: int) -> list[ResultRow]:
        raise NotImplementedError

    # campaigns
    async def create_campaign(
        self,
        *,
        guild_id: int,
        game: str,
        name: str,
        points: list[int],
        created_by: int,
        progress: dict[str, Any] | None = None,
        caps: Caps | None = None,
    ) -> Campaign:
        """Raises :class:`ChannelBusy` when the server has a campaign of that name, and
        :class:`LimitReached` when ``caps`` are given and the creator or the server
        already has that many open campaigns (counted in the same transaction)."""
        raise NotImplementedError

    async def campaign(self, guild_id: int, name: str) -> Campaign | None:
        raise NotImplementedError

    async def campaign_by_id(self, campaign_id: int) -> Campaign | None:
        raise NotImplementedError

    async def campaigns(self, guild_id: int) -> list[Campaign]:
        raise NotImplementedError

    # leagues (tables/leagues.py)
    async def create_league(
        self,
        *,
        guild_id: int,
        channel_id: int,
        game: str,
        name: str,
        format: str,
        config: dict[str, Any],
        state: dict[str, Any],
        created_by: int,
    ) -> LeagueRow:
        """Raises :class:`ChannelBusy` when the server has a league of that name."""
        raise NotImplementedError

    async def league(self, league_id: int) -> LeagueRow | None:
        raise NotImplementedError

    async def league_named(self, guild_id: int, name: str) -> LeagueRow | None:
        raise NotImplementedError

    async def leagues(self, guild_id: int | None = None, statuses: Sequence[str] | None = None) -> list[LeagueRow]:
        """A server's leagues (every server's with ``guild_id`` None), oldest first."""
        raise NotImplementedError

    async def update_league(
        self,
        league_id: int,
        expected_version: int,
        *,
        status: str | None = None,
        state: dict[str, Any] | None = None,
        config: dict[str, Any] | None = None,
    ) -> int:
        """One change to a league, only while it is at ``expected_version`` (else
        :class:`VersionConflict`); returns the new version."""
        raise NotImplementedError

    async def claim_league_step(self, league_id: int, round: int, step: str, now: float, lease: float) -> bool:
        """Claim one step of a league round (open a table, decide at the deadline, ...):
        True for exactly one caller across processes, unless the claim is older than
        ``lease`` seconds and was never marked done (its process died: claimable again)."""
        raise NotImplementedError

    async def finish_league_step(self, league_id: int, round: int, step: str, now: float) -> None:
        raise NotImplementedError

    async def league_step_done(self, league_id: int, round: int, step: str) -> bool:
        raise NotImplementedError

    async def results_of_games(self, game_ids: Sequence[int]) -> dict[int, list[ResultRow]]:
        """The recorded placings of these tables (finished ones only), by table."""
        raise NotImplementedError

    # votes (undo consent, seat hand-over)
    async def get_vote(self, vote_id: int) -> Vote | None:
        raise NotImplementedError

    async def games_of_user(
        self, user_id: int, guild_id: int | None = None, statuses: Sequence[str] = ACTIVE_STATUSES
    ) -> list[GameRow]:
        raise NotImplementedError

    async def count_games(self) -> int:
        raise NotImplementedError

    async def open_votes(self, game_id: int) -> list[Vote]:
        """The table's open votes, oldest first."""
        raise NotImplementedError

    # ratings
    async def ratings(
        self, guild_id: int, game: str | None = None, user_ids: Sequence[int] | None = None
    ) -> list[RatingRow]:
        raise NotImplementedError

    # followers (spectators)
    async def follow(self, game_id: int, user_id: int, mode: str, sent_version: int) -> None:
        """Start (or change) following a table."""
        raise NotImplementedError

    async def unfollow(self, game_id: int, user_id: int) -> bool:
        raise NotImplementedError

    async def follows_of_user(self, user_id: int) -> list[FollowRow]:
        raise NotImplementedError

    async def followers_of(self, game_id: int) -> list[FollowRow]:
        raise NotImplementedError

    async def due_follows(self, now: float, digest_seconds: float) -> list[FollowRow]:
        """Follows whose table moved on since they last heard: "turn" ones at once,
        "digest" ones when ``digest_seconds`` passed since the last digest."""
        raise NotImplementedError

    async def mark_follow_sent(self, game_id: int, user_id: int, version: int, now: float, previous: int) -> bool:
        """Claim one delivery: True only while the follow is still at ``previous``."""
        raise NotImplementedError

    async def set_followers_closed(self, game_id: int, closed: bool) -> None:
        """Close (or reopen) a table to followers; closing ends every follow of it."""
        raise NotImplementedError

    async def followers_closed(self, game_id: int) -> bool:
        raise NotImplementedError

    # privacy: both walk PERSONAL_DATA (see :class:`PersonalData`)
    async def footprint(self, user_id: int, guild_id: int | None = None) -> dict[str, Any]:
        """What is kept about a member, counted per kind (:func:`personal_footprint`):
        with ``guild_id`` only that server's data and no personal settings."""
        return await self._personal(False, lambda db: personal_footprint(db, user_id, guild_id))

    async def forget_user(self, user_id: int, anon_id: int, guild_id: int | None = None) -> dict[str, int]:
        """In one transaction (:func:`forget_personal`): refused with :class:`StillSeated`
        while the member sits at a lobby or running table (of ``guild_id``'s server), else
        every place that keeps their id is cleared, in running and finished tables alike:
        results, ratings, follows, limits' events (and, unless ``guild_id`` limits it to one
        server, their preferences) deleted; ``anon_id`` put in their place in seats, host,
        action logs, reverts, votes and campaign rosters (replays and exports keep working:
        they use seats, not members).  Returns counts."""
        return await self._personal(True, lambda db: forget_personal(db, user_id, anon_id, guild_id))

    async def _personal(self, write: bool, fn: Callable[[Sql], Awaitable[Any]]) -> Any:
        """Run ``fn`` in one write transaction (``write``) or one read snapshot."""
        raise NotImplementedError

    # key/value metadata (command-tree hash, ...)
    async def get_meta(self, key: str) -> str | None:
        raise NotImplementedError

    async def set_meta(self, key: str, value: str) -> None:
        raise NotImplementedError

    async def meta_default(self, key: str, value: str) -> str:
        """The stored value of ``key``, storing ``value`` first when there is none
        (two processes racing both get the one value that was stored)."""
        raise NotImplementedError

    # the web companion (tables/web_sessions.py): sign-in links and sessions, by token hash
    async def web_token_put(
        self, token_hash: str, kind: str, user_id: int, game_id: int | None, expires_at: float
    ) -> None:
        raise NotImplementedError

    async def web_token_take(self, token_hash: str, kind: str, now: float) -> tuple[int, int | None] | None:
        """Remove a token and return its (member, table) when it had not expired: each
        token is taken once, even by two processes at the same moment."""
        raise NotImplementedError

    async def web_token_get(self, token_hash: str, kind: str, now: float) -> tuple[int, int | None] | None:
        raise NotImplementedError

    async def web_tokens_end(self, user_id: int) -> int:
        """Remove every link and session of a member; how many there were."""
        raise NotImplementedError

    async def web_tokens_purge(self, now: float) -> int:
        raise NotImplementedError

    async def table_versions(self, game_ids: Sequence[int]) -> dict[int, int]:
        """The current version of each of these tables (one query; missing ids left out)."""
        raise NotImplementedError

    async def listen_tables(self, callback: Callable[[int, int], None]) -> Callable[[], Awaitable[None]] | None:
        """Call ``callback(game_id, version)`` on every committed table change made by any
        process, until the returned coroutine function is awaited; None when the backend
        cannot push changes (SQLite: poll :meth:`table_versions`)."""
        return None


def dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), sort_keys=True)

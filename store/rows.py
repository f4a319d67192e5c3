"""The rows the store hands out and the changes it takes: plain dataclasses holding
JSON *text* for states, so nothing above the store depends on a driver's types
(see store/base.py for what a change set promises)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

ACTIVE_STATUSES = ("lobby", "active")
#: the columns of a ``games`` row, in the order both backends read them into a GameRow
GAME_COLUMNS = (
    "id, guild_id, channel_id, game, status, host_id, options_json, seed, state_json, version, "
    "created_at, updated_at, locale, outcome_json, turn_started_at, to_act_json, last_reminder_at, "
    "campaign_id, finished_at, table_json, orders_json"
)


def qualified(columns: str, alias: str) -> str:
    """``columns`` (comma-separated) each prefixed with ``alias.``."""
    return ", ".join(f"{alias}.{c.strip()}" for c in columns.split(","))


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


def dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


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
    #: the members' armed standing orders as stored (JSON text, tables/core/standing.py; private to each owner)
    orders_json: str | None = None

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
    by: str = ""  # who took the step ("player", "ai", "auto", "timer", "order:...", "league"; "" before 2026)


@dataclass
class UndoRow:
    """One undo of a table (its rows in ``reverts``): who asked for it (``by_user``; a
    pseudonym once they were forgotten), when, how many logged steps it took back and
    the first of them (an undo takes back the log's tail: it came after every step
    before ``first_action``)."""

    by_user: int | None
    at: float
    steps: int
    first_action: int


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
    """A league season (tables/leagues/rounds.py): its settings (``config``) and its
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
    #: the table moves to another channel (a lobby into its own thread)
    channel_id: int | None = None
    #: the armed standing orders replaced, only while still as read (store/orders.py)
    orders: OrdersChange | None = None


@dataclass
class OrdersChange:
    """A table's armed standing orders (store/orders.py) replaced by ``orders`` (JSON text; None:
    none) while still ``expected`` (the text read); ``due``: when a delayed step of one falls due."""

    expected: str | None
    orders: str | None
    due: float | None = None


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
    #: (member, "dm" or "hand"): the members a private message is owed (their seat's private
    #: events; "hand": the table starts, so also what their seat holds), in ``outbox_messages``
    dms: Sequence[tuple[int, str]] = ()


#: notices kept in one outbox row (the oldest are dropped beyond this)
OUTBOX_NOTES = 8


@dataclass
class OutboxRow:
    """A table's undelivered board (see :class:`Owed`): the newest ``version``, the
    first version not yet shown ``since``, the notes not yet posted, how many
    deliveries were tried, when the next may start and who holds the lease;
    ``message_id``: the message it was posted as, once Discord said so (a later try
    then only finishes the delivery, it never posts again)."""

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
    message_id: int | None = None


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
        message_id=None if r[10] is None else int(r[10]),
    )


OUTBOX_COLUMNS = (
    "game_id, version, since, kind, notes_json, attempts, due_at, lease_until, lease_owner, created_at, message_id"
)


@dataclass
class OwedMessage:
    """A message other than the board that a commit owes Discord (the outbox's
    ``outbox_messages``; a vote's question with its buttons: ``kind`` "vote", ``ref`` the
    vote's id), until Discord confirms it; leased and claimed like a board."""

    key: str
    game_id: int
    kind: str
    ref: int
    attempts: int
    due_at: float
    lease_until: float | None
    lease_owner: str | None
    created_at: float


MESSAGE_COLUMNS = "key, game_id, kind, ref, attempts, due_at, lease_until, lease_owner, created_at"


def message_row(r: Sequence[Any]) -> OwedMessage:
    until = None if r[6] is None else float(r[6])
    return OwedMessage(str(r[0]), int(r[1]), str(r[2]), int(r[3]), int(r[4]), float(r[5]), until, r[7], float(r[8]))


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
    #: the process that posts the messages this change owes besides its board (a new
    #: vote's question) at once, holding their lease for ``Owed.lease`` (60 s); None: the
    #: scheduler of any process posts them
    messenger: str | None = None

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

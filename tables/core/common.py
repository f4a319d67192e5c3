"""The names every module of tables/ shares: the refusal, what a call returns
(a turn's result, a lobby, a vote, ...), one row of the action log and the
placings of a finished game.  Nothing here reads or writes a table."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from engine import GameError
from engine.base import BaseState, Event, Game
from engine.i18n import t
from store import ActionRow, GameRow, LimitReached, ResultRow, Vote
from tables.rules import limits
from tables.rules.decisions import taken_by

Picker = Callable[[Game, BaseState, str, list[Any]], Any]
FINISHED = ("finished", "abandoned")


class TurnRefused(Exception):
    """A player-facing refusal: ``key``/``params`` are a catalog message; nothing was changed."""

    def __init__(self, code: str, key: str, **params: Any):
        self.code, self.key, self.params = code, key, params
        #: parameters that name seats (shown by display name: tables/play/refusals.py), the
        #: log steps a refusal refers to (what happened since), and the table concerned
        self.named: dict[str, list[str]] = {}
        self.steps: list[Step] = []
        self.row: GameRow | None = None
        super().__init__(code)

    def text(self, locale: str) -> str:
        return t(self.key, locale, **self.params)

    @classmethod
    def from_game_error(cls, exc: GameError) -> TurnRefused:
        return cls(exc.code, exc.key, **exc.params)


@dataclass
class Logged(ActionRow):
    """A log row as a service call made it: with its events as objects and
    whether the platform took it (a forced single choice) rather than a player."""

    evs: list[Event] = field(default_factory=list, compare=False, repr=False)
    auto: bool = False


@dataclass
class Step:
    """One action of a turn result, for the log: who, what it caused, how."""

    seat: str
    events: list[Event]
    by: str  # who took it, as its reader may know (tables/rules/decisions.py ``taken_by``)


@dataclass
class TurnResult:
    row: GameRow
    game: Game
    state: BaseState
    events: list[Event]
    actors: list[str] = field(default_factory=list)
    waiting_before: list[str] = field(default_factory=list)  # to_act before this action
    entries: list[ActionRow] = field(default_factory=list)
    #: the notices the change owes the channel with its board (see store.Owed), e.g.
    #: {"note": "timeout", ...}; the Discord layer words them
    notes: list[dict[str, Any]] = field(default_factory=list)
    #: "board" (the table's board) or "notice" (only the notes: the table ended without one)
    kind: str = "board"
    #: the member whose request made the change (their move, undo, resignation, the ballot
    #: that decided a vote, the start): its board never pings them (tables/seeing/pings.py)
    by: int | None = None
    #: members another message told of this change already (a league table's opening post)
    told: list[int] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return self.game.outcome(self.state) is not None

    @property
    def steps(self) -> list[Step]:
        """The actions this call saved, in order (empty: a board shown again)."""
        out = []
        for e in self.entries:
            evs = e.evs if isinstance(e, Logged) else self.game.load_events(e.events)
            out.append(Step(e.seat, list(evs), taken_by(e, None)))
        return out


@dataclass
class Loaded:
    row: GameRow
    game: Game
    state: BaseState


@dataclass
class LobbyResult:
    row: GameRow
    started: TurnResult | None = None  # set when the call started the game


@dataclass
class VoteOpened:
    vote: Vote
    voters: list[int]
    needed: int
    owner: int | None = None  # the member whose seat the vote is about (to be pinged)


@dataclass
class UndoResult:
    done: TurnResult | None = None
    vote: VoteOpened | None = None


@dataclass
class HandoverResult:
    done: TurnResult | None = None
    vote: VoteOpened | None = None


@dataclass
class BallotResult:
    status: str  # counted, passed, refused, expired
    vote: Vote
    yes: int = 0
    needed: int = 0
    result: TurnResult | None = None  # the undo or hand-over the passed vote made
    waiting: list[int] = field(default_factory=list)  # counted: who is still to agree
    reason: str = ""  # expired: ended, decided_again, gone (the decision was taken back) or moved_on


@dataclass
class Due:
    """Scheduler work for one table: a turn timer ran out, or a reminder is due."""

    row: GameRow
    kind: str  # "timeout", "remind" or "order" (a standing order's delayed step)
    seats: list[tuple[str, int]]  # (seat, member) waiting (timeouts: those whose time ran out)
    users: list[int] = field(default_factory=list)  # reminders: the members awake now
    policy: str = "default"  # timeouts: "ai", "default" or "vote" (tables/rules/clocks.py POLICIES)


class Raced(Exception):
    """A commit lost only on a row other than the table (a campaign): decide again."""


def limit_refused(exc: LimitReached) -> TurnRefused:
    """The private refusal that names the limit reached."""
    code, key, params = limits.refusal(exc)
    return TurnRefused(code, key, **params)


def storable(row_id: int) -> bool:
    """Whether a row can have this id (a forged custom_id or option may carry any
    integer; the stores keep 64-bit ones)."""
    return -(2**63) <= row_id < 2**63


def log_entry(
    game: Game,
    seat: str,
    user_id: int | None,
    action: Any,
    events: Sequence[Event],
    *,
    auto: bool = False,
    by: str | None = None,
) -> ActionRow:
    """One row of the action log: who acted (``by``: the source, tables/rules/decisions.py),
    the action and what it caused (all JSON)."""
    by = by or ("auto" if auto else "ai" if user_id is None else "player")
    return Logged(
        seat=seat,
        user_id=user_id,
        action=game.parse_action(action).model_dump(mode="json"),
        events=game.dump_events(events),
        evs=list(events),
        auto=by == "auto",
        by=by,
    )


def placings(row: GameRow, game: Game, state: BaseState) -> list[ResultRow]:
    """Places for the human seats of a finished game: winners 1st, the rest from
    2nd by score (highest first) when the game scores, else all 2nd."""
    out = game.outcome(state)
    assert out is not None
    ranked: dict[str, int] = {s: 1 for s in out.winners}
    others = [s.seat for s in row.seats if s.seat not in ranked]
    scores = out.scores
    # a table nobody won (a lost solo or co-operative game) ranks everyone behind a winner
    if scores:
        values = sorted({scores.get(s, float("-inf")) for s in others}, reverse=True)
        for seat in others:
            ranked[seat] = 2 + values.index(scores.get(seat, float("-inf")))
    else:
        for seat in others:
            ranked[seat] = 2
    return [
        ResultRow(
            seat=s.seat,
            user_id=s.user_id,
            place=ranked[s.seat],
            won=s.seat in out.winners,
            score=scores.get(s.seat),
            record=game.record(state, s.seat),
        )
        for s in row.seats
        if s.user_id is not None
    ]


T = TypeVar("T")


class KernelSetting(Generic[T]):
    """An attribute of the facade that is the kernel's own (one value, read and set here)."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, owner: type | None = None) -> T:
        return getattr(obj.kernel, self.name)

    def __set__(self, obj: Any, value: T) -> None:
        setattr(obj.kernel, self.name, value)


def validate(game: Game, state: BaseState) -> str | None:
    """The game's own check of what a state means, when the engine offers one
    (``validate(state)``: raises, or returns the first problem)."""
    check = getattr(game, "validate", None)
    if check is None:
        return None
    problem = check(state)
    if problem is None or problem is True:
        return None
    if problem is False:
        return "validation failed"
    if isinstance(problem, (list, tuple)):
        return str(problem[0]) if problem else None
    return str(problem)

"""The contract every game implements, and the generic parts they share.

A game is a :class:`Game` subclass registered under its id.  Its public API is
small and exact (python-chess style):

* ``new(seats, options, seed) -> State``
* ``legal_actions(state, seat) -> list[Action]``
* ``apply(state, seat, action) -> (State, list[Event])`` -- never mutates its
  input; an illegal action raises :class:`GameError` and nothing changes.
* ``view(state, seat) -> dict`` -- what that seat (``None`` = a spectator /
  the public channel) may see.  Hidden information leaves only through here.
* ``to_act(state) -> list[str]`` and ``outcome(state) -> Outcome | None``.

Each decision is kept small (at most 25 choices); a turn needing several
decisions keeps a *pending* decision in the state, so every prompt can be
shown as buttons and survives a restart.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from .errors import GameError
from .i18n import t
from .rng import Rng


class Model(BaseModel):
    """Base of all states, actions and events: strict about unknown fields."""

    model_config = ConfigDict(extra="forbid")


class Msg(Model):
    """A message key with its parameters, translated at the edge."""

    key: str
    params: dict[str, Any] = Field(default_factory=dict)

    def text(self, locale: str | None = None) -> str:
        return t(self.key, locale, **self.params)


class Event(Model):
    """Something that happened.  ``to`` limits it to some seats (private)."""

    kind: str
    to: list[str] | None = None


class Outcome(Model):
    winners: list[str]
    scores: dict[str, float] = Field(default_factory=dict)
    reason: Msg


class BaseState(Model):
    schema_version: int
    game: str
    seats: list[str]
    seed: int
    rng: Rng
    step: int = 0


class NoOptions(Model):
    pass


class Game:
    """Base class: subclasses set the ClassVars and implement the ``_`` hooks."""

    id: ClassVar[str]
    schema_version: ClassVar[int] = 1
    min_seats: ClassVar[int] = 1
    max_seats: ClassVar[int] = 1
    State: ClassVar[type[BaseState]]
    Action: ClassVar[Any]  # a pydantic model or an Annotated discriminated union
    Event: ClassVar[Any] = Event
    Options: ClassVar[type[BaseModel]] = NoOptions
    #: the game has per-seat hidden information (a hand): offer a private view
    private_view: ClassVar[bool] = False
    #: actions are committed in secret (simultaneous turns): never show them on the public board
    private_actions: ClassVar[bool] = False

    def __init__(self) -> None:
        self._action_adapter = TypeAdapter(self.Action)
        self._event_adapter = TypeAdapter(self.Event)

    # ------------------------------------------------------------ API
    def new(
        self,
        seats: Sequence[str],
        options: dict[str, Any] | BaseModel | None = None,
        seed: int = 0,
        rig: dict[str, Sequence[Any]] | None = None,
    ) -> BaseState:
        """A new game.  ``rig`` forces named outcomes from the very first draw
        (set-up shuffles included) -- for tests and the driver, never live play."""
        seats = [str(s) for s in seats]
        opts = self.parse_options(options)
        lo, hi = self.seat_range(opts)
        if not lo <= len(seats) <= hi:
            raise GameError("bad_seat_count", "core.error.bad_seat_count", lo=lo, hi=hi, n=len(seats))
        if len(set(seats)) != len(seats) or any(not s for s in seats):
            raise GameError("bad_seats", "core.error.bad_seats")
        rng = Rng.from_seed(int(seed))
        for name, values in (rig or {}).items():
            rng.force(str(name), list(values))
        return self._new(seats, opts, int(seed), rng)

    def seat_range(self, options: BaseModel | dict[str, Any] | None = None) -> tuple[int, int]:
        """How many seats these options allow (an extra crew may add a seat)."""
        return self.min_seats, self.max_seats

    def parse_options(self, options: dict[str, Any] | BaseModel | None) -> BaseModel:
        if isinstance(options, self.Options):
            return options
        if isinstance(options, BaseModel):
            options = options.model_dump()
        try:
            return self.Options.model_validate(options or {})
        except ValidationError as exc:
            raise GameError("bad_options", "core.error.bad_options", detail=_first_error(exc)) from None

    def parse_action(self, action: Any) -> Any:
        if isinstance(action, BaseModel):
            action = action.model_dump(mode="json")
        try:
            return self._action_adapter.validate_python(action)
        except ValidationError as exc:
            raise GameError("bad_action", "core.error.bad_action", detail=_first_error(exc)) from None

    def legal_actions(self, state: BaseState, seat: str) -> list[Any]:
        if seat not in state.seats or self.outcome(state) is not None or seat not in self.to_act(state):
            return []
        return self._legal(state, seat)

    def apply(self, state: BaseState, seat: str, action: Any) -> tuple[BaseState, list[Event]]:
        action = self.parse_action(action)
        if seat not in state.seats:
            raise GameError("unknown_seat", "core.error.unknown_seat", seat=seat)
        if self.outcome(state) is not None:
            raise GameError("game_over", "core.error.game_over", seat=seat)
        if seat not in self.to_act(state):
            raise GameError("not_your_turn", "core.error.not_your_turn", seat=seat)
        self._check(state, seat, action)
        new, events = self._transition(state, seat, action)
        new.step = state.step + 1
        return new, events

    def copy_state(self, state: BaseState) -> BaseState:
        """An independent copy.  States round-trip through JSON exactly (every game
        tests it), and pydantic-core does that 1-3x faster than ``copy.deepcopy``."""
        return type(state).model_validate_json(state.model_dump_json())

    def _transition(self, state: BaseState, seat: str, action: Any) -> tuple[BaseState, list[Event]]:
        """The new state and events of a checked action; never mutates ``state``.
        Default: copy the state, then let ``_apply`` change the copy."""
        new = self.copy_state(state)
        return new, self._apply(new, seat, action)

    def view(self, state: BaseState, seat: str | None) -> dict[str, Any]:
        """Default: everything but the RNG and the seed (either would predict the future)."""
        data = state.model_dump(mode="json", exclude={"rng", "seed"})
        data["to_act"] = self.to_act(state)
        return data

    def to_act(self, state: BaseState) -> list[str]:
        raise NotImplementedError

    def outcome(self, state: BaseState) -> Outcome | None:
        raise NotImplementedError

    # ------------------------------------------------------ helpers
    def load(self, data: dict[str, Any] | str) -> BaseState:
        """State from JSON (dict or text); raises GameError('bad_state')."""
        try:
            if isinstance(data, str):
                return self.State.model_validate_json(data)
            return self.State.model_validate(data)
        except ValidationError as exc:
            raise GameError("bad_state", "core.error.bad_state", detail=_first_error(exc)) from None

    def dump(self, state: BaseState) -> dict[str, Any]:
        return state.model_dump(mode="json")

    def rig(self, state: BaseState, name: str, values: Iterable[Any]) -> BaseState:
        new = self.copy_state(state)
        new.rng.force(name, list(values))
        return new

    def replay(self, seats: Sequence[str], options: Any, seed: int, log: Iterable[tuple[str, Any]]) -> BaseState:
        """The state a game reaches from its seed and action log."""
        return self.apply_all(self.new(seats, options, seed), log)

    def apply_all(self, state: BaseState, log: Iterable[tuple[str, Any]]) -> BaseState:
        """``state`` with every ``(seat, action)`` of ``log`` applied in order."""
        for seat, action in log:
            state, _ = self.apply(state, seat, action)
        return state

    def action_schema(self) -> dict[str, Any]:
        return self._action_adapter.json_schema()

    def state_schema(self) -> dict[str, Any]:
        return self.State.model_json_schema()

    def dump_events(self, events: Iterable[Event]) -> list[dict[str, Any]]:
        return [e.model_dump(mode="json") for e in events]

    def load_events(self, data: Iterable[dict[str, Any]]) -> list[Event]:
        """Events back from the JSON ``dump_events`` wrote (the stored log)."""
        return [self._event_adapter.validate_python(e) for e in data]

    def visible_events(self, events: Iterable[Event], seat: str | None) -> list[Event]:
        return [e for e in events if e.to is None or (seat is not None and seat in e.to)]

    # ------------------------------------------------ presentation
    def action_label(self, state: BaseState, action: Any, locale: str | None = None) -> str:
        """Short button/select text.  Default: catalog key ``<game>.action.<kind>``."""
        params = action.model_dump(mode="json")
        params.pop("kind", None)
        return t(f"{self.id}.action.{action.kind}", locale, **params)

    def action_group(self, state: BaseState, action: Any) -> str:
        """Actions of one group share a select menu when there are many."""
        return action.kind

    def event_text(self, event: Event, locale: str | None = None) -> str:
        params = event.model_dump(mode="json")
        params.pop("kind", None)
        params.pop("to", None)
        return t(f"{self.id}.event.{event.kind}", locale, **params)

    def prompt(self, state: BaseState, seat: str) -> Msg:
        """What ``seat`` is asked to decide now."""
        return Msg(key="core.prompt.your_move")

    def private_summary(self, state: BaseState, seat: str) -> Msg | None:
        """A line of what only ``seat`` knows (its hand), for its private view."""
        return None

    def summary(self, state: BaseState) -> Msg:
        """One line describing the table (round, phase...)."""
        return Msg(key="core.summary.step", params={"step": state.step})

    # --------------------------------------------- platform hooks
    #: catalog key naming the per-game record (e.g. "fewest rounds to clear"); None: no record
    record_key: ClassVar[str | None] = None
    record_lower_is_better: ClassVar[bool] = True

    def record(self, state: BaseState, seat: str) -> float | None:
        """A finished game's record for ``seat`` for the leaderboards (or None)."""
        return None

    def hidden_revealed(self, before: BaseState, after: BaseState) -> bool:
        """Whether going from ``before`` to ``after`` revealed hidden information
        (undo then needs everyone's consent).  Dice and shuffles are caught by
        the RNG comparison; override for reveals that use no randomness."""
        return False

    def campaign_init(self, options: dict[str, Any]) -> dict[str, Any] | None:
        """Story progress for a new campaign of this game (None: a plain points
        campaign).  Raises GameError for options the story cannot take."""
        return None

    def campaign_summary(self, progress: dict[str, Any] | None) -> Msg | None:
        """One line on where a story campaign stands."""
        return None

    def campaign_options(self, progress: dict[str, Any] | None, seats: Sequence[str]) -> dict[str, Any] | None:
        """Options for the next game of a campaign (story modes); None: no story."""
        return None

    def campaign_progress(self, progress: dict[str, Any] | None, state: BaseState) -> dict[str, Any] | None:
        """Campaign progress after a finished game (story modes); None: unchanged."""
        return None

    # ------------------------------------------------------- AI
    def ai_action(self, state: BaseState, seat: str) -> Any:
        """Seat-filler AI.  Deterministic for a given state.  Default: random legal."""
        legal = self.legal_actions(state, seat)
        if not legal:
            raise GameError("nothing_to_do", "core.error.nothing_to_do", seat=seat)
        return self.ai_rng(state, seat).choice(legal)

    def ai_step(self, state: BaseState) -> tuple[BaseState, list[Event]]:
        """One decision of self-play: the first seat to act plays the AI's choice."""
        seat = self.to_act(state)[0]
        return self.apply(state, seat, self.ai_action(state, seat))

    def default_action(self, state: BaseState, seat: str) -> Any:
        """What a turn timer takes for an absent seat (default: the AI's choice)."""
        return self.ai_action(state, seat)

    @staticmethod
    def ai_rng(state: BaseState, seat: str) -> random.Random:
        return random.Random(f"{state.seed}:{state.step}:{seat}")

    # ------------------------------------------------- to implement
    def _new(self, seats: list[str], options: Any, seed: int, rng: Rng) -> BaseState:
        raise NotImplementedError

    def _legal(self, state: BaseState, seat: str) -> list[Any]:
        raise NotImplementedError

    def _check(self, state: BaseState, seat: str, action: Any) -> None:
        """Raise GameError if ``action`` is illegal.  Default: must be in the legal list."""
        if action not in self._legal(state, seat):
            raise GameError("illegal_action", "core.error.illegal_action", seat=seat)

    def _apply(self, state: BaseState, seat: str, action: Any) -> list[Event]:
        raise NotImplementedError


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    loc = ".".join(str(p) for p in err.get("loc", ()))
    return f"{loc}: {err.get('msg', '')}" if loc else str(err.get("msg", ""))


def canonical(obj: Any) -> str:
    """Canonical JSON text (sorted keys) used to compare states bit for bit."""
    if isinstance(obj, BaseModel):
        obj = obj.model_dump(mode="json")
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":"))

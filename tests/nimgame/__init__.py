"""Nim, a tiny two-player game defined entirely under tests/ (issue 10 item 3).

It proves a game needs no platform edit: nothing in engine/, render/, cogs/,
store/ or data/ names it.  ``tests/test_fifth_game.py`` registers it
(``engine.register(GAME)``) and plays it through the Discord stand-in.  Its
catalog lives with its data (``tests/nimgame/data/locales/<lang>.json``), its
renderer is ``nimgame.board`` (named by ``Nim.renderer``), and it declares one
extra command, ``/nim heaps``, as data.

Rules: heaps of counters; players take turns removing one or more counters
from a single heap; whoever takes the last counter wins.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field

from engine import BaseState, Event, Game, GameCommand, Model, Msg, Outcome, RigSpec, SeatId, View, bad_state
from engine.base import SeatLabels
from engine.rng import Rng


class NimOptions(Model):
    heaps: list[Annotated[int, Field(ge=1, le=7)]] = Field(
        default=[3, 4, 5], min_length=1, max_length=4, description="Counters in each heap."
    )
    random_start: bool = Field(default=False, description="Draw who starts (else the first seat).")


class NimState(BaseState):
    game: Literal["nim"] = "nim"
    heaps: list[int]
    current: int = 0  # index into seats of the player to move
    winner: str | None = None


class Take(Model):
    kind: Literal["take"] = "take"
    heap: int = Field(ge=0, le=3)
    n: int = Field(ge=1, le=7)


class Took(Event):
    kind: Literal["took"] = "took"
    seat: SeatId
    heap: int  # the heap's number as players see it (1 = the first)
    n: int
    left: int


class Won(Event):
    kind: Literal["won"] = "won"
    seat: SeatId


NimEvent = Annotated[Took | Won, Field(discriminator="kind")]


class NimView(View):
    heaps: list[int]
    winner: str | None


class Nim(Game[NimState]):
    id = "nim"
    schema_version = 2  # version 1 called the heaps "piles"
    min_seats = max_seats = 2
    State = NimState
    Action = Take
    Event = NimEvent
    Options = NimOptions
    View = NimView
    ai_levels = ("easy", "hard")
    data_dir = Path(__file__).resolve().parent / "data"
    renderer = "nimgame.board"
    commands = (
        GameCommand(name="heaps", key="nim.cmd.heaps", hook="heaps_command", description="The heaps, as text"),
        GameCommand(
            name="picture", key="nim.cmd.picture_desc", hook="picture_command", description="The heaps, as a picture"
        ),
    )

    def _new(self, seats: list[str], options: NimOptions, seed: int, rng: Rng) -> NimState:
        first = rng.choice("first", [0, 1]) if options.random_start else 0
        return NimState(
            schema_version=self.schema_version,
            seats=seats,
            seed=seed,
            rng=rng,
            heaps=list(options.heaps),
            current=first,
        )

    def _to_act(self, state: NimState) -> list[str]:
        return [] if state.winner is not None else [state.seats[state.current]]

    def _outcome(self, state: NimState) -> Outcome | None:
        if state.winner is None:
            return None
        return Outcome(
            winners=[state.winner],
            scores={s: float(s == state.winner) for s in state.seats},
            reason=Msg(key="nim.outcome", params={"seat": state.winner}),
        )

    def _legal(self, state: NimState, seat: str) -> list[Any]:
        return [Take(heap=h, n=n) for h, size in enumerate(state.heaps) for n in range(1, size + 1)]

    def _apply(self, state: NimState, seat: str, action: Any) -> list[Any]:
        state.heaps[action.heap] -= action.n
        events: list[Any] = [Took(seat=seat, heap=action.heap + 1, n=action.n, left=state.heaps[action.heap])]
        if not any(state.heaps):
            state.winner = seat
            events.append(Won(seat=seat))
        else:
            state.current = 1 - state.current
        return events

    def _view(self, state: NimState, seat: str | None) -> dict[str, Any]:
        return {"heaps": list(state.heaps), "winner": state.winner}

    def _validate(self, state: NimState) -> None:
        if not 1 <= len(state.heaps) <= 4 or any(not 0 <= h <= 7 for h in state.heaps):
            raise bad_state("heaps", "one to four heaps of 0..7 counters")
        if state.current not in (0, 1):
            raise bad_state("current", f"{state.current}")
        if (state.winner is None) == (not any(state.heaps)):
            raise bad_state("winner", "the game is won exactly when the heaps are empty")

    def _migrate(self, data: dict[str, Any], version: int) -> dict[str, Any]:
        if version == 1:
            data["heaps"] = data.pop("piles")
            return data
        return super()._migrate(data, version)

    def _rigs(self) -> dict[str, RigSpec]:
        return {"first": RigSpec(kind="choice", values=[0, 1], doc="who starts (random_start): the seat's index")}

    def _ai_action(self, state: NimState, seat: str, level: str, legal: list[Any]) -> Any:
        if level == "hard":  # leave a nim-sum of zero when possible
            total = 0
            for h in state.heaps:
                total ^= h
            for a in legal:
                if total and state.heaps[a.heap] ^ total == state.heaps[a.heap] - a.n:
                    return a
        return self.ai_rng(state, seat).choice(legal)

    def _prompt(self, state: NimState, seat: str) -> Msg:
        return Msg(key="nim.prompt", params={"heaps": ", ".join(map(str, state.heaps))})

    def _summary(self, state: NimState) -> Msg:
        return Msg(key="nim.summary", params={"heaps": ", ".join(map(str, state.heaps))})

    def _action_label(self, state: Any, action: Any, locale: str | None, labels: SeatLabels | None) -> str:
        from engine.i18n import t

        return t("nim.action.take", locale, n=action.n, heap=action.heap + 1)

    def heaps_command(self, state: NimState, seat: str | None, locale: str | None, labels: SeatLabels | None) -> Msg:
        return Msg(key="nim.heaps", params={"heaps": ", ".join(map(str, state.heaps))})

    def picture_command(self, state: NimState, seat: str | None, locale: str | None, labels: SeatLabels | None) -> View:
        """A command answered with an image: the caller's view, drawn (and described) by the platform."""
        return self.view(state, seat, labels)


GAME = Nim()

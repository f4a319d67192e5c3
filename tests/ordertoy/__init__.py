"""Bids, a tiny game defined under tests/ to test standing orders (issue 31).

Rules: two to four seats play ``rounds`` rounds.  A round has two phases and
each seat acts once in each, in seat order.  In the bidding phase a seat
passes or bids (the high bid goes up by one and is the bidder's).  In the
dice phase a seat keeps its secret die or rerolls it (once per game).  At the
end each seat scores its die plus the bids it made; the highest score wins.

Its orders exercise every path of the contract (engine/orders.py):

* ``keep_passing`` (phase): passes for the rest of the bidding phase; lapses
  with its own reason when someone bids after it was armed;
* ``bid_once`` (round, one use): bids once this round;
* ``decline_reroll`` (game, hidden timing): keeps the die in every dice phase
  (an instant "keep" would tell others the order exists);
* ``always_reroll`` (game): rerolls -- legal once, then it lapses as no longer legal;
* ``bad_fire`` (game): fires an action that is never legal (a broken game).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field

from engine import BaseState, Event, Game, Model, Msg, Outcome, SeatId, View, bad_state
from engine.orders import ArmedOrder, Fire, Hold, Lapse, OrderKind, OrderStep
from engine.rng import Rng


class BidsOptions(Model):
    rounds: int = Field(default=3, ge=1, le=9)


class BidsState(BaseState):
    game: Literal["bids"] = "bids"
    rounds: int
    round: int = 1
    phase: int = 0  # 0: bidding, 1: dice
    current: int = 0
    high: int = 0
    bids: dict[str, int]
    dice: dict[str, int]
    rerolls: dict[str, int]
    over: bool = False


class Pass(Model):
    kind: Literal["pass"] = "pass"


class Bid(Model):
    kind: Literal["bid"] = "bid"


class Keep(Model):
    kind: Literal["keep"] = "keep"


class Reroll(Model):
    kind: Literal["reroll"] = "reroll"


BidsAction = Annotated[Pass | Bid | Keep | Reroll, Field(discriminator="kind")]


class Passed(Event):
    kind: Literal["passed"] = "passed"
    seat: SeatId


class BidMade(Event):
    kind: Literal["bid"] = "bid"
    seat: SeatId
    high: int


class Kept(Event):
    kind: Literal["kept"] = "kept"
    seat: SeatId


class Rerolled(Event):
    kind: Literal["rerolled"] = "rerolled"
    seat: SeatId


class Rolled(Event):  # private: the new value
    kind: Literal["rolled"] = "rolled"
    seat: SeatId
    value: int


BidsEvent = Annotated[Passed | BidMade | Kept | Rerolled | Rolled, Field(discriminator="kind")]


class BidsView(View):
    round: int
    phase: int
    high: int
    bids: dict[str, int]
    die: int | None = None  # the viewer's own die


class Bids(Game[BidsState]):
    id = "bids"
    min_seats = 2
    max_seats = 4
    State = BidsState
    Action = BidsAction
    Event = BidsEvent
    Options = BidsOptions
    View = BidsView
    private_view = True
    data_dir = Path(__file__).resolve().parent / "data"
    renderer = "ordertoy.board"

    # ------------------------------------------------------------- rules
    def _new(self, seats: list[str], options: BidsOptions, seed: int, rng: Rng) -> BidsState:
        return BidsState(
            schema_version=self.schema_version,
            seats=seats,
            seed=seed,
            rng=rng,
            rounds=options.rounds,
            bids={s: 0 for s in seats},
            dice={s: rng.randint("die", 1, 6) for s in seats},
            rerolls={s: 1 for s in seats},
        )

    def _to_act(self, state: BidsState) -> list[str]:
        return [] if state.over else [state.seats[state.current]]

    def _outcome(self, state: BidsState) -> Outcome | None:
        if not state.over:
            return None
        scores = {s: float(state.dice[s] + state.bids[s]) for s in state.seats}
        best = max(scores.values())
        return Outcome(
            winners=[s for s in state.seats if scores[s] == best],
            scores=scores,
            reason=Msg(key="bids.outcome"),
        )

    def _legal(self, state: BidsState, seat: str) -> list[Any]:
        if state.phase == 0:
            return [Pass(), Bid()]
        return [Keep()] + ([Reroll()] if state.rerolls[seat] > 0 else [])

    def _apply(self, state: BidsState, seat: str, action: Any) -> list[Any]:
        events: list[Any]
        if action.kind == "pass":
            events = [Passed(seat=seat)]
        elif action.kind == "bid":
            state.high += 1
            state.bids[seat] += 1
            events = [BidMade(seat=seat, high=state.high)]
        elif action.kind == "keep":
            events = [Kept(seat=seat)]
        else:
            state.rerolls[seat] -= 1
            state.dice[seat] = state.rng.randint("die", 1, 6)
            events = [Rerolled(seat=seat), Rolled(seat=seat, value=state.dice[seat], to=[seat])]
        state.current += 1
        if state.current == len(state.seats):
            state.current = 0
            if state.phase == 0:
                state.phase = 1
            else:
                state.phase = 0
                state.round += 1
                state.over = state.round > state.rounds
        return events

    def _view(self, state: BidsState, seat: str | None) -> dict[str, Any]:
        return {
            "round": state.round,
            "phase": state.phase,
            "high": state.high,
            "bids": dict(state.bids),
            "die": state.dice[seat] if seat is not None else None,
        }

    def _validate(self, state: BidsState) -> None:
        if not 0 <= state.current < len(state.seats):
            raise bad_state("current", f"{state.current}")

    def _prompt(self, state: BidsState, seat: str) -> Msg:
        return Msg(key="bids.prompt")

    def _summary(self, state: BidsState) -> Msg:
        return Msg(key="bids.summary", params={"round": state.round, "high": state.high})

    # ------------------------------------------------------------ orders
    def _order_kinds(self, state: BidsState, seat: str) -> list[OrderKind]:
        out = []
        if state.phase == 0:
            out.append(
                OrderKind(
                    kind="keep_passing",
                    label=Msg(key="bids.order.keep_passing"),
                    scope="phase",
                    params={"high": state.high},
                )
            )
            if state.current <= state.seats.index(seat):
                out.append(OrderKind(kind="bid_once", label=Msg(key="bids.order.bid_once"), scope="round", uses=1))
        out.append(
            OrderKind(kind="decline_reroll", label=Msg(key="bids.order.decline_reroll"), scope="game", hide_timing=True)
        )
        if state.rerolls[seat] > 0:
            out.append(OrderKind(kind="always_reroll", label=Msg(key="bids.order.always_reroll"), scope="game"))
        out.append(OrderKind(kind="bad_fire", label=Msg(key="bids.order.bad_fire"), scope="game"))
        return out

    def _order_marker(self, state: BidsState, scope: str) -> str:
        return {"game": "", "round": f"r{state.round}", "phase": f"r{state.round}p{state.phase}"}[scope]

    def _order_step(self, state: BidsState, seat: str, order: ArmedOrder, legal: list[Any]) -> OrderStep:
        if order.kind == "keep_passing":
            if state.high != order.params.get("high"):
                return Lapse(reason=Msg(key="bids.order.someone_bid"))
            return Fire(action=Pass())
        if order.kind == "bid_once":
            return Fire(action=Bid()) if state.phase == 0 else Hold()
        if order.kind == "decline_reroll":
            return Fire(action=Keep()) if state.phase == 1 else Hold()
        if order.kind == "always_reroll":
            return Fire(action=Reroll()) if state.phase == 1 else Hold()
        if order.kind == "bad_fire":
            return Fire(action={"kind": "reroll"} if state.phase == 0 else {"kind": "bid"})
        return Hold()


GAME = Bids()

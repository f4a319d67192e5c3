"""Automobile (汽车传奇): 3-5 players, 4 rounds of 9 phases.

Phases: 1 demand cards (private) -> 2 character selection -> 3 actions (3 rounds)
-> 4 Howard's sales -> 5 distributor sales -> 6 executive decisions -> 7 demand
sales -> 8 losses -> 9 clean-up.  Phases 1, 7, 8 and 9 resolve automatically;
every decision is one small pending step.
"""

from __future__ import annotations

import math
from typing import Any

from ..base import Game, Msg, Outcome
from ..errors import GameError
from ..i18n import t
from ..rng import Rng
from . import data as D
from .models import (
    Act,
    Action,
    AutoState,
    BuildClass,
    BuildCount,
    BuildParts,
    BuildSpace,
    Cancel,
    Close,
    DistMove,
    DistSell,
    DistStop,
    Done,
    Ev,
    Exec,
    HowardSell,
    Loan,
    Marker,
    Pending,
    Pick,
    PlaceDist,
    Player,
    Produce,
    Space,
)

CLASSES = D.CLASSES
MONEY_KINDS = frozenset(
    {
        "build",
        "parts",
        "produce",
        "close",
        "loan",
        "howard_sale",
        "dist_sale",
        "demand_sale",
        "loss_fee",
        "interest",
        "emergency_loan",
        "repay",
    }
)
PHASE_DRAW, PHASE_SELECT, PHASE_ACTIONS, PHASE_HOWARD, PHASE_DIST, PHASE_EXEC, PHASE_DEMAND, PHASE_LOSS, PHASE_END = (
    range(1, 10)
)


class Automobile(Game):
    id = "automobile"
    schema_version = 1
    min_seats = 3
    max_seats = 5
    State = AutoState
    Action = Action
    Event = Ev
    private_view = True  # demand cards: each seat sees its own hand ("My view", /game view, /auto hand)
    record_key = "core.record.best_fortune"
    record_lower_is_better = False

    def private_summary(self, state: AutoState, seat: str) -> Msg | None:
        hand = state.players[seat].hand if seat in state.players else []
        return Msg(key="automobile.private.hand", params={"cards": ", ".join(map(str, hand)) or "-"})

    def hidden_revealed(self, before: AutoState, after: AutoState) -> bool:
        """Phase 7 turns the demand cards face up (no die involved): an undo past
        the reveal, or past a new deal, needs the other players' consent."""
        return (
            before.revealed_round != after.revealed_round
            or before.revealed != after.revealed
            or any(before.players[s].hand != after.players[s].hand for s in after.seats)
        )

    def record(self, state: AutoState, seat: str) -> float | None:
        return float(state.scores[seat]) if state.finished and seat in state.scores else None

    # ================================================================ setup
    def _new(self, seats: list[str], options: Any, seed: int, rng: Rng) -> AutoState:
        R = D.rules()
        order = rng.shuffle("seat_order", seats)
        state = AutoState(
            schema_version=self.schema_version,
            seats=seats,
            seed=seed,
            rng=rng,
            selection_order=order,
            players={
                s: Player(money=R["start_money"], rd=R["start_rd"], dist_supply=R["pieces"]["distributors_per_player"])
                for s in seats
            },
            spaces=[Space() for _ in D.board()],
            bag=list(R["demand_tiles"]),
            char_rd={},
            exec_close=R["exec"]["close"],
            bonus_left=list(R["exec"]["bonus_prices"]),
            discount_left=list(R["exec"]["discount_groups"]),
        )
        self._start_round(state, [])
        return state

    # ====================================================== turn structure
    def to_act(self, state: AutoState) -> list[str]:
        if state.finished or state.current is None:
            return []
        return [state.current]

    def outcome(self, state: AutoState) -> Outcome | None:
        if not state.finished:
            return None
        best = max(state.scores.values())
        winners = [s for s in state.seats if state.scores[s] == best]
        return Outcome(
            winners=winners,
            scores={s: float(v) for s, v in state.scores.items()},
            reason=Msg(key="automobile.outcome.money", params={"money": best}),
        )

    def _start_round(self, state: AutoState, ev: list[Ev]) -> None:
        R = D.rules()
        state.phase = PHASE_DRAW
        ev.append(Ev(kind="round_start", n=state.round))
        sched = R["demand_schedule"][str(state.round)]
        bag = state.rng.shuffle("deck.demand", state.bag)
        for seat in state.selection_order:
            cards = sorted(bag[: sched["draw"]], reverse=True)
            bag = bag[sched["draw"] :]
            state.players[seat].hand = cards
            ev.append(Ev(kind="demand_drawn", seat=seat, cards=list(cards), to=[seat]))
            ev.append(Ev(kind="demand_count", seat=seat, n=len(cards)))
        state.bag = bag
        # phase 2 set-up: R&D cubes on the character spaces, executive area restocked in clean-up
        state.char_rd = dict(D.character_rd())
        state.taken = {}
        state.phase = PHASE_SELECT
        state.current = state.selection_order[0]

    def _next_selector(self, state: AutoState, ev: list[Ev]) -> None:
        for seat in state.selection_order:
            if state.players[seat].character is None:
                state.current = seat
                return
        # everyone chose: action order = character order on the board
        chars = D.characters()
        state.action_order = sorted(state.seats, key=lambda s: chars.index(state.players[s].character or ""))
        ev.append(Ev(kind="action_order", text=",".join(state.action_order)))
        state.phase = PHASE_ACTIONS
        state.turn = 0
        state.current = state.action_order[0]

    def _end_turn(self, state: AutoState, ev: list[Ev]) -> None:
        """Phase 3: one action done."""
        state.pending = None
        state.turn += 1
        n = len(state.seats)
        if state.turn < D.rules()["action_rounds"] * n:
            state.current = state.action_order[state.turn % n]
            return
        self._phase_howard(state, ev)

    # -------------------------------------------------------------- phase 4
    def _howard_seat(self, state: AutoState) -> str | None:
        return state.taken.get("howard")

    def _phase_howard(self, state: AutoState, ev: list[Ev]) -> None:
        state.phase = PHASE_HOWARD
        seat = self._howard_seat(state)
        if seat is not None and self._howard_spaces(state, seat):
            state.pending = Pending(kind="howard", seat=seat, left=D.rules()["howard_sales"])
            state.current = seat
            self._auto(state, ev)
            return
        self._phase_dist(state, ev)

    def _howard_spaces(self, state: AutoState, seat: str) -> list[int]:
        prices = D.rules()["howard_price"]
        return [
            i for i, sp in enumerate(state.spaces) if sp.owner == seat and sp.cars > 0 and D.board()[i]["cls"] in prices
        ]

    # -------------------------------------------------------------- phase 5
    def _phase_dist(self, state: AutoState, ev: list[Ev]) -> None:
        state.phase = PHASE_DIST
        state.pending = None
        for p in state.players.values():
            p.dist_used = {c: 0 for c in CLASSES}
            p.dist_lane = {c: 0 for c in CLASSES}
            p.dist_done = False
        state.lanes = {c: [] for c in CLASSES}
        state.turn = 0
        self._dist_next(state, ev, start=0)

    def lane_capacity(self, state: AutoState) -> int:
        R = D.rules()
        boxes = sum(1 for b in R["sales_boxes"] if b["from_round"] <= state.round)
        return boxes * R["box_capacity_per_player"] * len(state.seats)

    def _dist_moves(self, state: AutoState, seat: str) -> list[DistMove]:
        p = state.players[seat]
        cap = self.lane_capacity(state)
        out = []
        for src in CLASSES:
            if p.dist[src] - p.dist_used[src] <= 0:
                continue
            for lane in D.rules()["distributor_moves"][src]:
                if len(state.lanes[lane]) < cap and self._car_spaces(state, seat, lane):
                    out.append(DistMove(src=src, lane=lane))
        return out

    def _car_spaces(self, state: AutoState, seat: str, cls: str) -> list[int]:
        return [i for i in D.class_spaces(cls) if state.spaces[i].owner == seat and state.spaces[i].cars > 0]

    def _dist_next(self, state: AutoState, ev: list[Ev], start: int) -> None:
        order = state.action_order
        n = len(order)
        for k in range(n):
            seat = order[(start + k) % n]
            p = state.players[seat]
            if p.dist_done:
                continue
            if not self._dist_moves(state, seat):
                p.dist_done = True
                continue
            state.turn = (start + k) % n
            state.current = seat
            return
        self._end_dist(state, ev)

    def _end_dist(self, state: AutoState, ev: list[Ev]) -> None:
        loss = D.rules()["unused_distributor_loss"]
        for seat in state.action_order:
            p = state.players[seat]
            unused = sum(p.dist[c] - p.dist_used[c] for c in CLASSES)
            if unused:
                p.losses += unused * loss
                p.dist_supply += unused
                ev.append(Ev(kind="dist_unused", seat=seat, n=unused, value=unused * loss))
            # used distributors go back to the big square of the lane they sold in
            p.dist = dict(p.dist_lane)
            p.dist_used = {c: 0 for c in CLASSES}
            p.dist_lane = {c: 0 for c in CLASSES}
        self._phase_exec(state, ev)

    # -------------------------------------------------------------- phase 6
    def _phase_exec(self, state: AutoState, ev: list[Ev]) -> None:
        state.phase = PHASE_EXEC
        state.pending = None
        state.exec_done = []
        state.pass_order = []
        state.turn = 0
        state.current = state.action_order[0]

    def _exec_next(self, state: AutoState, ev: list[Ev]) -> None:
        state.pending = None
        state.turn += 1
        if state.turn < len(state.action_order):
            state.current = state.action_order[state.turn]
            return
        self._phase_demand(state, ev)
        self._phase_loss(state, ev)
        self._phase_end(state, ev)

    # -------------------------------------------------------------- phase 7
    def _phase_demand(self, state: AutoState, ev: list[Ev]) -> None:
        R = D.rules()
        state.phase = PHASE_DEMAND
        state.current = None
        sched = R["demand_schedule"][str(state.round)]
        demand = {c: 0 for c in CLASSES}
        state.revealed = {}
        for seat in state.selection_order:
            hand = state.players[seat].hand
            state.revealed[seat] = list(hand)
            for value, cls in zip(hand, sched["assign"]):
                demand[cls] += value
        state.extra = {}
        bag = list(state.bag)
        for cls in sched["extra"]:
            card = state.rng.choice("demand.extra", bag)
            bag.remove(card)
            demand[cls] += card
            state.extra.setdefault(cls, []).append(card)
        state.bag = bag
        state.demand = demand
        state.revealed_round = state.round
        ev.append(
            Ev(
                kind="demand_revealed",
                detail={**state.revealed, **{"+" + k: v for k, v in state.extra.items()}},
                text=",".join(f"{c}={demand[c]}" for c in CLASSES),
            )
        )
        prices, disc = R["price"], R["discount_price"]
        for cls in CLASSES:
            left = demand[cls]
            spaces = list(reversed(D.class_spaces(cls)))  # newest first
            while left > 0:
                sold_any = False
                for i in spaces:
                    sp = state.spaces[i]
                    if left <= 0:
                        break
                    if sp.cars <= 0 or sp.owner is None:
                        continue
                    k = min(1 + int(sp.bonus) + int(sp.discount), sp.cars, left)
                    price = disc[cls] if sp.discount else prices[cls]
                    sp.cars -= k
                    left -= k
                    state.players[sp.owner].money += k * price
                    ev.append(
                        Ev(kind="demand_sale", seat=sp.owner, space=i, cls=cls, n=k, value=price, delta=k * price)
                    )
                    sold_any = True
                if not sold_any:
                    break
        unsold_loss = R["unsold_car_loss"]
        for i, sp in enumerate(state.spaces):
            if sp.cars > 0 and sp.owner is not None:
                state.players[sp.owner].losses += sp.cars * unsold_loss
                ev.append(Ev(kind="unsold", seat=sp.owner, space=i, n=sp.cars, value=sp.cars * unsold_loss))
                sp.cars = 0

    # -------------------------------------------------------------- phase 8
    def _phase_loss(self, state: AutoState, ev: list[Ev]) -> None:
        R = D.rules()
        state.phase = PHASE_LOSS
        for cls in CLASSES:
            rank = 0
            for i in reversed(D.class_spaces(cls)):
                sp = state.spaces[i]
                if not (sp.closed or sp.factories > 0):
                    continue
                if not sp.closed and rank > 0 and sp.owner is not None:
                    state.players[sp.owner].losses += rank
                    ev.append(Ev(kind="loss_points", seat=sp.owner, space=i, cls=cls, n=rank))
                rank += 1
        rate = R["loss_fee"][str(state.round)]
        interest = R["loan"]["interest"]
        for seat in state.action_order:
            p = state.players[seat]
            if p.losses:
                fee = p.losses * rate
                self._charge(state, seat, fee, "loss_fee", ev, n=p.losses, value=rate)
        # Sloan and Chrysler discard after paying (text order: "付费后损失点保留" then the discards)
        sloan, chrysler = state.taken.get("sloan"), state.taken.get("chrysler")
        if sloan is not None:
            p = state.players[sloan]
            k = math.ceil(p.losses / 2)
            if k:
                p.losses -= k
                ev.append(Ev(kind="sloan_discard", seat=sloan, n=k))
        if chrysler is not None:
            p = state.players[chrysler]
            k = min(state.round, p.losses)
            if k:
                p.losses -= k
                ev.append(Ev(kind="chrysler_discard", seat=chrysler, n=k))
        for seat in state.action_order:
            p = state.players[seat]
            if p.loans:
                self._charge(state, seat, p.loans * interest, "interest", ev, n=p.loans, value=interest)

    def _charge(self, state: AutoState, seat: str, amount: int, kind: str, ev: list[Ev], **extra: Any) -> None:
        """A payment the rules force.  Remedy when short: emergency loans, then arrears."""
        L = D.rules()["loan"]
        p = state.players[seat]
        while p.money < amount and p.loans < L["max"]:
            p.loans += 1
            p.money += L["amount"]
            ev.append(Ev(kind="emergency_loan", seat=seat, delta=L["amount"], n=p.loans))
        paid = min(p.money, amount)
        p.money -= paid
        ev.append(Ev(kind=kind, seat=seat, delta=-paid, **extra))
        if paid < amount:
            p.arrears += amount - paid
            p.bankrupt = True
            ev.append(Ev(kind="arrears", seat=seat, value=amount - paid))

    # -------------------------------------------------------------- phase 9
    def _phase_end(self, state: AutoState, ev: list[Ev]) -> None:
        R = D.rules()
        state.phase = PHASE_END
        for p in state.players.values():
            state.bag.extend(p.hand)
            p.hand = []
        for _i, sp in enumerate(state.spaces):
            if sp.cars and sp.owner is not None:  # nothing should be left after phase 7
                sp.cars = 0
            sp.bonus = False
            sp.discount = False
        # the extra cards go back to the bag; state.extra stays as the public record of this round's demand
        state.bag.extend(c for cards in state.extra.values() for c in cards)
        state.bag.sort()
        state.lanes = {c: [] for c in CLASSES}
        state.exec_close = R["exec"]["close"]
        state.bonus_left = list(R["exec"]["bonus_prices"])
        state.discount_left = list(R["exec"]["discount_groups"])
        state.char_rd = {}
        state.ford_used = False
        # next selection order: passers first (in passing order), then the others in action order
        rest = [s for s in state.action_order if s not in state.pass_order]
        state.selection_order = list(state.pass_order) + rest
        for p in state.players.values():
            p.character = None
        state.taken = {}
        ev.append(Ev(kind="round_end", n=state.round))
        if state.round >= R["rounds"]:
            self._finish(state, ev)
            return
        state.round += 1
        self._start_round(state, ev)

    def _finish(self, state: AutoState, ev: list[Ev]) -> None:
        repay = D.rules()["loan"]["repay"]
        for seat in state.seats:
            p = state.players[seat]
            if p.loans:
                due = p.loans * repay
                paid = min(due, p.money)
                p.money -= paid
                ev.append(Ev(kind="repay", seat=seat, delta=-paid, n=p.loans))
                if paid < due:
                    p.arrears += due - paid
                    p.bankrupt = True
                    ev.append(Ev(kind="arrears", seat=seat, value=due - paid))
                p.loans = 0
            state.scores[seat] = p.money - p.arrears
        state.finished = True
        state.current = None
        state.pending = None
        best = max(state.scores.values())
        ev.append(Ev(kind="game_end", value=best, text=",".join(s for s in state.seats if state.scores[s] == best)))

    # ==================================================== legal actions
    def _check(self, state: AutoState, seat: str, action: Any) -> None:
        legal = self._legal(state, seat)
        if action in legal:
            return
        if all(a.kind != action.kind for a in legal):
            raise GameError("wrong_step", "automobile.error.wrong_step", seat=seat)
        raise GameError("not_allowed", "automobile.error.not_allowed", seat=seat)

    def _legal(self, state: AutoState, seat: str) -> list[Any]:
        pend = state.pending
        if pend is not None:
            return self._legal_pending(state, seat, pend)
        if state.phase == PHASE_SELECT:
            return [Pick(character=c) for c in D.characters() if c not in state.taken]
        if state.phase == PHASE_ACTIONS:
            out: list[Any] = []
            if self._build_classes(state, seat, 0):
                out.append(Act(what="build"))
            if state.players[seat].dist_supply > 0:
                out.append(Act(what="distributors"))
            out.append(Act(what="rd"))
            if self._produce_spaces(state, seat):
                out.append(Act(what="produce"))
            if self._closable(state, seat):
                out.append(Act(what="close"))
            if state.players[seat].loans < D.rules()["loan"]["max"]:
                out.append(Loan())
            return out
        if state.phase == PHASE_DIST:
            return [*self._dist_moves(state, seat), DistStop()]
        if state.phase == PHASE_EXEC:
            return self._exec_choices(state, seat)
        return []

    def _legal_pending(self, state: AutoState, seat: str, pend: Pending) -> list[Any]:
        k = pend.kind
        can_cancel = pend.origin in ("action", "durant")
        if k == "build_class":
            out: list[Any] = [BuildClass(cls=c) for c in self._build_classes(state, seat, self._build_cap(state, pend))]
            return out + [Cancel()] if can_cancel else out
        if k == "build_space":
            out = [
                BuildSpace(space=i)
                for i in self._build_spaces(state, seat, pend.cls or "", self._build_cap(state, pend))
            ]
            return out + [Cancel()]
        if k == "build_count":
            assert pend.space is not None
            out = [
                BuildCount(count=n) for n in self._build_counts(state, seat, pend.space, self._build_cap(state, pend))
            ]
            if pend.origin == "action" and self._can_parts(state, seat, pend.space):
                out.append(BuildParts())
            return out + [Cancel()]
        if k == "dist_place":
            p = state.players[seat]
            out = [PlaceDist(cls=c) for c in CLASSES] if p.dist_supply > 0 and pend.left > 0 else []
            if pend.done_any:
                out.append(Done())
            else:
                out.append(Cancel())
            return out
        if k == "produce":
            space = pend.queue[0]
            return [Produce(space=space, count=n) for n in self._produce_counts(state, seat, space)]
        if k == "close":
            out = [Close(space=i) for i in self._closable(state, seat)]
            return out + [Cancel()] if can_cancel else out
        if k == "howard":
            return [HowardSell(space=i) for i in self._howard_spaces(state, seat)]
        if k == "dist_sell":
            return [DistSell(space=i) for i in self._car_spaces(state, seat, pend.lane or "")]
        if k in ("bonus", "discount"):
            return [Marker(space=i) for i in self._marker_spaces(state, seat, k)]
        return []

    # ---- build helpers
    def _build_cap(self, state: AutoState, pend: Pending) -> int:
        R = D.rules()
        if pend.origin == "durant":
            return R["durant_factories"]
        cap = R["build_max"]
        if state.players[pend.seat].character == "ford" and not state.ford_used:
            cap += R["ford_extra_factories"]
        return cap

    def jump_fee(self, state: AutoState, space: int) -> int:
        """R&D cubes per factory: empty spaces of the class skipped past the newest occupied one."""
        sp = state.spaces[space]
        if sp.owner is not None or sp.closed:
            return 0
        cls = D.board()[space]["cls"]
        order = D.class_spaces(cls)
        newest = -1
        for pos, i in enumerate(order):
            if state.spaces[i].factories > 0 or state.spaces[i].closed:
                newest = pos
        pos = order.index(space)
        return max(0, pos - newest - 1)

    def _factories_owned(self, state: AutoState, seat: str) -> int:
        return sum(sp.factories for sp in state.spaces if sp.owner == seat and not sp.closed)

    def _build_counts(self, state: AutoState, seat: str, space: int, cap: int, owned: int | None = None) -> list[int]:
        R = D.rules()
        sp = state.spaces[space]
        b = D.board()[space]
        if b["era"] > state.round or sp.closed or (sp.owner not in (None, seat)):
            return []
        p = state.players[seat]
        if p.money < b["cost"]:
            return []
        if owned is None:
            owned = self._factories_owned(state, seat)
        room = min(cap, R["max_factories_per_space"] - sp.factories, R["pieces"]["factories_per_player"] - owned)
        if room <= 0:
            return []
        fee = self.jump_fee(state, space)
        return [n for n in range(1, room + 1) if n * b["cost"] <= p.money and n * fee <= p.rd]

    def _can_parts(self, state: AutoState, seat: str, space: int) -> bool:
        R = D.rules()
        sp = state.spaces[space]
        used = sum(1 for s in state.spaces if s.parts and not s.closed)
        return (
            sp.owner == seat
            and sp.factories > 0
            and not sp.closed
            and not sp.parts
            and used < R["pieces"]["parts_factories"]
            and state.players[seat].money >= R["parts_factory_cost"]
        )

    def _build_spaces(self, state: AutoState, seat: str, cls: str, cap: int, first: bool = False) -> list[int]:
        out = []
        owned = self._factories_owned(state, seat)
        for i in D.class_spaces(cls):
            if self._build_counts(state, seat, i, cap, owned) or (cap > 1 and self._can_parts(state, seat, i)):
                out.append(i)
                if first:
                    break
        return out

    def _build_classes(self, state: AutoState, seat: str, cap: int) -> list[str]:
        if cap == 0:
            cap = D.rules()["build_max"]
        return [c for c in CLASSES if self._build_spaces(state, seat, c, cap, first=True)]

    # ---- production helpers
    def _cars_on_board(self, state: AutoState, seat: str) -> int:
        return sum(sp.cars for sp in state.spaces if sp.owner == seat)

    def _produce_counts(self, state: AutoState, seat: str, space: int) -> list[int]:
        sp = state.spaces[space]
        cls = D.board()[space]["cls"]
        lo, hi = D.production_range(cls, sp.factories)
        cost = D.car_cost(cls, sp.parts)
        supply = D.rules()["pieces"]["cars_per_player"] - self._cars_on_board(state, seat)
        money = state.players[seat].money
        return [0] + [n for n in range(lo, hi + 1) if n <= supply and n * cost <= money]

    def _produce_spaces(self, state: AutoState, seat: str) -> list[int]:
        return [
            i
            for i, sp in enumerate(state.spaces)
            if sp.owner == seat and sp.factories > 0 and not sp.closed and len(self._produce_counts(state, seat, i)) > 1
        ]

    def _closable(self, state: AutoState, seat: str) -> list[int]:
        if state.closed_used >= D.rules()["pieces"]["closed_tiles"]:
            return []
        return [i for i, sp in enumerate(state.spaces) if sp.owner == seat and sp.factories > 0 and not sp.closed]

    # ---- executive helpers
    def _marker_spaces(self, state: AutoState, seat: str, kind: str) -> list[int]:
        out = []
        for i, sp in enumerate(state.spaces):
            if sp.owner != seat or sp.closed:
                continue
            if kind == "bonus" and not sp.bonus:
                out.append(i)
            if kind == "discount" and not sp.discount and D.board()[i]["cls"] != "high":
                out.append(i)
        return out

    def _exec_choices(self, state: AutoState, seat: str) -> list[Exec]:
        out = []
        if state.exec_close > 0 and self._closable(state, seat):
            out.append(Exec(choice="close"))
        if (
            state.bonus_left
            and state.players[seat].rd >= state.bonus_left[0]
            and self._marker_spaces(state, seat, "bonus")
        ):
            out.append(Exec(choice="bonus"))
        dspaces = len(self._marker_spaces(state, seat, "discount"))
        if 2 in state.discount_left and dspaces >= 2:
            out.append(Exec(choice="discount2"))
        if 1 in state.discount_left and dspaces >= 1:
            out.append(Exec(choice="discount1"))
        out.append(Exec(choice="pass"))
        return out

    # ========================================================== apply
    def _apply(self, state: AutoState, seat: str, action: Any) -> list[Ev]:
        ev: list[Ev] = []
        getattr(self, f"_do_{action.kind}")(state, seat, action, ev)
        self._auto(state, ev)
        return ev

    def _auto(self, state: AutoState, ev: list[Ev]) -> None:
        """Resolve forced steps with exactly one possible choice (Howard's and distributor car picks)."""
        guard = 0
        while state.pending is not None and state.pending.kind in ("howard", "dist_sell") and guard < 50:
            guard += 1
            legal = self._legal(state, state.pending.seat)
            if len(legal) != 1:
                return
            getattr(self, f"_do_{legal[0].kind}")(state, state.pending.seat, legal[0], ev)

    # ---- phase 2
    def _do_pick(self, state: AutoState, seat: str, a: Pick, ev: list[Ev]) -> None:
        p = state.players[seat]
        p.character = a.character
        state.taken[a.character] = seat
        rd = state.char_rd.get(a.character, 0)
        p.rd += rd
        state.char_rd[a.character] = 0
        ev.append(Ev(kind="pick", seat=seat, text=a.character, n=rd))
        if a.character == "durant" and self._build_classes(state, seat, D.rules()["durant_factories"]):
            state.pending = Pending(kind="build_class", seat=seat, origin="durant")
            return
        self._next_selector(state, ev)

    # ---- phase 3 action choice
    def _do_act(self, state: AutoState, seat: str, a: Act, ev: list[Ev]) -> None:
        R = D.rules()
        if a.what == "build":
            state.pending = Pending(kind="build_class", seat=seat)
        elif a.what == "distributors":
            state.pending = Pending(kind="dist_place", seat=seat, left=R["distributors_per_action"])
        elif a.what == "rd":
            state.players[seat].rd += R["rd_action"]
            ev.append(Ev(kind="rd", seat=seat, n=R["rd_action"]))
            self._end_turn(state, ev)
        elif a.what == "produce":
            state.pending = Pending(kind="produce", seat=seat, queue=self._produce_spaces(state, seat))
        elif a.what == "close":
            state.pending = Pending(kind="close", seat=seat)

    def _do_loan(self, state: AutoState, seat: str, a: Loan, ev: list[Ev]) -> None:
        L = D.rules()["loan"]
        p = state.players[seat]
        p.loans += 1
        p.money += L["amount"]
        ev.append(Ev(kind="loan", seat=seat, delta=L["amount"], n=p.loans))

    def _do_cancel(self, state: AutoState, seat: str, a: Cancel, ev: list[Ev]) -> None:
        pend = state.pending
        assert pend is not None
        state.pending = None
        if pend.origin == "durant":
            ev.append(Ev(kind="durant_decline", seat=seat))
            self._next_selector(state, ev)

    def _do_build_class(self, state: AutoState, seat: str, a: BuildClass, ev: list[Ev]) -> None:
        assert state.pending is not None
        state.pending.kind = "build_space"
        state.pending.cls = a.cls

    def _do_build_space(self, state: AutoState, seat: str, a: BuildSpace, ev: list[Ev]) -> None:
        pend = state.pending
        assert pend is not None
        pend.space = a.space
        if pend.origin == "durant":
            self._build(state, seat, a.space, 1, ev)
            state.pending = None
            self._next_selector(state, ev)
            return
        pend.kind = "build_count"

    def _build(self, state: AutoState, seat: str, space: int, n: int, ev: list[Ev]) -> None:
        sp = state.spaces[space]
        b = D.board()[space]
        fee = self.jump_fee(state, space)
        p = state.players[seat]
        p.money -= n * b["cost"]
        p.rd -= n * fee
        sp.owner = seat
        sp.factories += n
        ev.append(Ev(kind="build", seat=seat, space=space, n=n, value=n * fee, delta=-n * b["cost"]))

    def _do_build_count(self, state: AutoState, seat: str, a: BuildCount, ev: list[Ev]) -> None:
        pend = state.pending
        assert pend is not None and pend.space is not None
        if a.count > D.rules()["build_max"]:
            state.ford_used = True
        self._build(state, seat, pend.space, a.count, ev)
        self._end_turn(state, ev)

    def _do_build_parts(self, state: AutoState, seat: str, a: BuildParts, ev: list[Ev]) -> None:
        pend = state.pending
        assert pend is not None and pend.space is not None
        cost = D.rules()["parts_factory_cost"]
        state.players[seat].money -= cost
        state.spaces[pend.space].parts = True
        ev.append(Ev(kind="parts", seat=seat, space=pend.space, delta=-cost))
        self._end_turn(state, ev)

    def _do_place_dist(self, state: AutoState, seat: str, a: PlaceDist, ev: list[Ev]) -> None:
        pend = state.pending
        assert pend is not None
        p = state.players[seat]
        p.dist_supply -= 1
        p.dist[a.cls] += 1
        pend.left -= 1
        pend.done_any = True
        ev.append(Ev(kind="place_dist", seat=seat, cls=a.cls, n=1))
        if pend.left <= 0 or p.dist_supply <= 0:
            self._end_turn(state, ev)

    def _do_done(self, state: AutoState, seat: str, a: Done, ev: list[Ev]) -> None:
        self._end_turn(state, ev)

    def _do_produce(self, state: AutoState, seat: str, a: Produce, ev: list[Ev]) -> None:
        pend = state.pending
        assert pend is not None
        pend.queue.pop(0)
        if a.count:
            sp = state.spaces[a.space]
            cost = a.count * D.car_cost(D.board()[a.space]["cls"], sp.parts)
            state.players[seat].money -= cost
            sp.cars += a.count
            ev.append(Ev(kind="produce", seat=seat, space=a.space, n=a.count, delta=-cost))
        # drop spaces that can no longer produce (money or car supply ran out)
        pend.queue = [i for i in pend.queue if len(self._produce_counts(state, seat, i)) > 1]
        if not pend.queue:
            self._end_turn(state, ev)

    def _close(self, state: AutoState, seat: str, space: int, ev: list[Ev]) -> None:
        R = D.rules()
        sp = state.spaces[space]
        cost = D.board()[space]["cost"]
        refund = sp.factories * (cost - R["close_refund_less"]) + (R["parts_refund"] if sp.parts else 0)
        p = state.players[seat]
        p.money += refund
        half = math.ceil(p.losses / 2)
        p.losses -= half
        ev.append(Ev(kind="close", seat=seat, space=space, n=sp.factories, value=half, delta=refund))
        sp.factories = 0
        sp.parts = False
        sp.closed = True
        sp.bonus = False
        sp.discount = False
        state.closed_used += 1

    def _do_close(self, state: AutoState, seat: str, a: Close, ev: list[Ev]) -> None:
        pend = state.pending
        assert pend is not None
        self._close(state, seat, a.space, ev)
        if pend.origin == "exec":
            state.exec_close -= 1
            self._exec_next(state, ev)
        else:
            self._end_turn(state, ev)

    # ---- phase 4
    def _do_howard_sell(self, state: AutoState, seat: str, a: HowardSell, ev: list[Ev]) -> None:
        pend = state.pending
        assert pend is not None
        cls = D.board()[a.space]["cls"]
        price = D.rules()["howard_price"][cls]
        state.spaces[a.space].cars -= 1
        state.players[seat].money += price
        ev.append(Ev(kind="howard_sale", seat=seat, space=a.space, value=price, delta=price))
        pend.left -= 1
        if pend.left <= 0 or not self._howard_spaces(state, seat):
            state.pending = None
            self._phase_dist(state, ev)

    # ---- phase 5
    def _do_dist_move(self, state: AutoState, seat: str, a: DistMove, ev: list[Ev]) -> None:
        state.pending = Pending(kind="dist_sell", seat=seat, src=a.src, lane=a.lane)

    def _do_dist_sell(self, state: AutoState, seat: str, a: DistSell, ev: list[Ev]) -> None:
        pend = state.pending
        assert pend is not None and pend.src and pend.lane
        p = state.players[seat]
        p.dist_used[pend.src] += 1
        p.dist_lane[pend.lane] += 1
        price = D.rules()["price"][pend.lane]
        state.spaces[a.space].cars -= 1
        state.lanes[pend.lane].append(seat)
        p.money += price
        ev.append(
            Ev(kind="dist_sale", seat=seat, space=a.space, cls=pend.lane, text=pend.src, value=price, delta=price)
        )
        state.pending = None
        self._dist_next(state, ev, start=state.turn + 1)

    def _do_dist_stop(self, state: AutoState, seat: str, a: DistStop, ev: list[Ev]) -> None:
        state.players[seat].dist_done = True
        ev.append(Ev(kind="dist_stop", seat=seat))
        self._dist_next(state, ev, start=state.turn + 1)

    # ---- phase 6
    def _do_exec(self, state: AutoState, seat: str, a: Exec, ev: list[Ev]) -> None:
        if a.choice == "close":
            state.pending = Pending(kind="close", seat=seat, origin="exec")
        elif a.choice == "bonus":
            price = state.bonus_left.pop(0)
            state.players[seat].rd -= price
            ev.append(Ev(kind="bonus_bought", seat=seat, n=price))
            state.pending = Pending(kind="bonus", seat=seat, origin="exec", left=1)
        elif a.choice in ("discount2", "discount1"):
            size = 2 if a.choice == "discount2" else 1
            state.discount_left.remove(size)
            ev.append(Ev(kind="discount_taken", seat=seat, n=size))
            state.pending = Pending(kind="discount", seat=seat, origin="exec", left=size)
        else:
            state.pass_order.append(seat)
            ev.append(Ev(kind="exec_pass", seat=seat, n=len(state.pass_order)))
            self._exec_next(state, ev)

    def _do_marker(self, state: AutoState, seat: str, a: Marker, ev: list[Ev]) -> None:
        pend = state.pending
        assert pend is not None
        sp = state.spaces[a.space]
        if pend.kind == "bonus":
            sp.bonus = True
        else:
            sp.discount = True
        ev.append(Ev(kind=f"{pend.kind}_placed", seat=seat, space=a.space))
        pend.left -= 1
        if pend.left <= 0:
            self._exec_next(state, ev)

    # ===================================================== presentation
    def view(self, state: AutoState, seat: str | None) -> dict[str, Any]:
        board = D.board()
        players = {}
        for s in state.seats:
            p = state.players[s]
            players[s] = {
                "money": p.money,
                "rd": p.rd,
                "loans": p.loans,
                "losses": p.losses,
                "arrears": p.arrears,
                "character": p.character,
                "dist": dict(p.dist),
                "dist_supply": p.dist_supply,
                "dist_used": dict(p.dist_used),
                "hand_count": len(p.hand),
                "bankrupt": p.bankrupt,
                "cars_supply": D.rules()["pieces"]["cars_per_player"] - self._cars_on_board(state, s),
                "factories_supply": D.rules()["pieces"]["factories_per_player"] - self._factories_owned(state, s),
            }
        spaces = []
        for i, sp in enumerate(state.spaces):
            b = board[i]
            spaces.append(
                {
                    "id": i,
                    "year": b["year"],
                    "name": b["name"],
                    "name_zh": b["name_zh"],
                    "cls": b["cls"],
                    "era": b["era"],
                    "cost": b["cost"],
                    **sp.model_dump(mode="json"),
                }
            )
        out: dict[str, Any] = {
            "game": self.id,
            "round": state.round,
            "phase": state.phase,
            "current": state.current,
            "seats": list(state.seats),
            "selection_order": list(state.selection_order),
            "action_order": list(state.action_order),
            "turn": state.turn,
            "players": players,
            "spaces": spaces,
            "characters": {c: {"seat": state.taken.get(c), "rd": state.char_rd.get(c, 0)} for c in D.characters()},
            "lanes": {c: list(v) for c, v in state.lanes.items()},
            "lane_capacity": self.lane_capacity(state),
            "boxes_open": [b["label"] for b in D.rules()["sales_boxes"] if b["from_round"] <= state.round],
            "exec": {
                "close": state.exec_close,
                "bonus": list(state.bonus_left),
                "discount": list(state.discount_left),
                "passed": list(state.pass_order),
            },
            "pending": state.pending.model_dump(mode="json") if state.pending else None,
            "revealed": {k: list(v) for k, v in state.revealed.items()},
            "extra": {k: list(v) for k, v in state.extra.items()},
            "demand": dict(state.demand),
            "revealed_round": state.revealed_round,
            "finished": state.finished,
            "scores": dict(state.scores),
            "to_act": self.to_act(state),
        }
        if seat is not None and seat in state.players:
            out["you"] = seat
            out["hand"] = list(state.players[seat].hand)
        return out

    def action_label(self, state: AutoState, action: Any, locale: str | None = None) -> str:
        params: dict[str, Any] = action.model_dump(mode="json")
        params.pop("kind", None)
        if "space" in params:
            i = params["space"]
            params["name"] = D.space_name(i, locale)
            params["cls_name"] = t(f"automobile.cls.{D.board()[i]['cls']}", locale)
            params["cost"] = D.board()[i]["cost"]
            params["fee"] = self.jump_fee(state, i)
            if action.kind == "produce":
                params["money"] = action.count * D.car_cost(D.board()[i]["cls"], state.spaces[i].parts)
                if action.count == 0:
                    return t("automobile.action.produce_none", locale, **params)
            if action.kind == "close":
                sp = state.spaces[i]
                params["refund"] = sp.factories * (D.board()[i]["cost"] - D.rules()["close_refund_less"]) + (
                    D.rules()["parts_refund"] if sp.parts else 0
                )
        if action.kind == "dist_move":
            params["price"] = D.rules()["price"][action.lane]
        for key in ("cls", "src", "lane"):
            if key in params:
                params[key] = t(f"automobile.cls.{params[key]}", locale)
        if action.kind == "pick":
            params["character"] = t(f"automobile.char.{action.character}", locale)
            params["rd"] = state.char_rd.get(action.character, 0)
        if action.kind in ("act", "exec"):
            return t(
                f"automobile.action.{action.kind}.{params.get('what') or params.get('choice')}",
                locale,
                price=state.bonus_left[0] if state.bonus_left else 0,
            )
        if action.kind == "build_count" and state.pending and state.pending.space is not None:
            params["money"] = action.count * D.board()[state.pending.space]["cost"]
            params["rd"] = action.count * self.jump_fee(state, state.pending.space)
        return t(f"automobile.action.{action.kind}", locale, **params)

    def action_group(self, state: AutoState, action: Any) -> str:
        return action.kind

    def event_text(self, event: Ev, locale: str | None = None) -> str:
        params: dict[str, Any] = event.model_dump(mode="json")
        params.pop("kind", None)
        params.pop("to", None)
        if event.space is not None:
            params["name"] = D.space_name(event.space, locale)
        if event.cls:
            params["cls"] = t(f"automobile.cls.{event.cls}", locale)
        if event.kind == "pick" and event.text:
            params["text"] = t(f"automobile.char.{event.text}", locale)
        if event.kind in ("demand_drawn",):
            params["cards"] = ", ".join(str(c) for c in event.cards)
        if event.kind == "demand_revealed":
            params["cards"] = "; ".join(f"{k}: {', '.join(str(c) for c in v)}" for k, v in event.detail.items())
        params["money"] = abs(event.delta)
        return t(f"automobile.event.{event.kind}", locale, **params)

    def prompt(self, state: AutoState, seat: str) -> Msg:
        if seat not in self.to_act(state):
            return Msg(key="automobile.prompt.wait")
        p = state.pending
        if p is not None:
            params: dict[str, Any] = {"left": p.left}
            if p.kind == "produce" and p.queue:
                i = p.queue[0]
                lo, hi = D.production_range(D.board()[i]["cls"], state.spaces[i].factories)
                params.update(
                    name=f"@automobile.space.{i}",
                    lo=lo,
                    hi=hi,
                    cost=D.car_cost(D.board()[i]["cls"], state.spaces[i].parts),
                )
            return Msg(key=f"automobile.prompt.{p.kind}", params=params)
        key = {PHASE_SELECT: "select", PHASE_ACTIONS: "action", PHASE_DIST: "dist", PHASE_EXEC: "exec"}.get(
            state.phase, "wait"
        )
        return Msg(
            key=f"automobile.prompt.{key}",
            params={"n": state.turn // len(state.seats) + 1, "money": state.players[seat].money},
        )

    def summary(self, state: AutoState) -> Msg:
        if state.finished:
            return Msg(key="automobile.summary.over")
        return Msg(
            key="automobile.summary.round", params={"round": state.round, "phase": f"@automobile.phase.{state.phase}"}
        )

    def ai_action(self, state: AutoState, seat: str) -> Any:
        from .ai import choose

        return choose(self, state, seat)

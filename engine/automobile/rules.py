"""Automobile's rules as small functions on a state (see docs/rulings.md, Automobile).

Phases: 1 demand cards (private) -> 2 character selection -> 3 actions (3 rounds)
-> 4 Howard's sales -> 5 distributor sales -> 6 executive decisions (round after
round until everyone passed) -> 7 demand sales -> 8 losses -> 9 clean-up.
Phases 1, 7, 8 and 9 resolve automatically; every decision is one small pending
step.  Every function changes the state it is given (``game.py`` hands them a copy).
"""

from __future__ import annotations

import math
from typing import Any

from ..errors import GameError
from ..rng import Rng
from . import content as C
from .models import (
    Act,
    ActionOrder,
    Arrears,
    AutoEvent,
    AutoState,
    BonusBought,
    BonusPlaced,
    BuildClass,
    BuildCount,
    BuildParts,
    BuildSpace,
    Built,
    Cancel,
    ChryslerDiscard,
    Close,
    Closed,
    DemandCount,
    DemandDrawn,
    DemandRevealed,
    DemandSale,
    DiscountPlaced,
    DiscountTaken,
    DistMove,
    DistPlaced,
    DistSale,
    DistSell,
    DistStop,
    DistStopped,
    DistUnused,
    Done,
    DurantDecline,
    EmergencyLoan,
    Exec,
    ExecPass,
    GameEnd,
    HowardSale,
    HowardSell,
    Interest,
    Loan,
    LoanTaken,
    LossFee,
    LossPoints,
    Marker,
    PartsBuilt,
    Pending,
    Pick,
    Picked,
    PlaceDist,
    Player,
    Produce,
    Produced,
    RdTaken,
    Repay,
    RoundEnd,
    RoundStart,
    SloanDiscard,
    Space,
    Unsold,
)

CLASSES = C.CLASSES
PHASE_DRAW, PHASE_SELECT, PHASE_ACTIONS, PHASE_HOWARD, PHASE_DIST, PHASE_EXEC, PHASE_DEMAND, PHASE_LOSS, PHASE_END = (
    range(1, 10)
)
Evs = list[AutoEvent]


# ================================================================ setup
def new_state(seats: list[str], seed: int, rng: Rng, schema_version: int, ruleset: int = 2) -> AutoState:
    R = C.rules()
    order = rng.shuffle("seat_order", seats)
    state = AutoState(
        schema_version=schema_version,
        ruleset=ruleset,
        seats=seats,
        seed=seed,
        rng=rng,
        selection_order=order,
        players={
            s: Player(money=R["start_money"], rd=R["start_rd"], dist_supply=R["pieces"]["distributors_per_player"])
            for s in seats
        },
        spaces=[Space() for _ in C.board()],
        bag=list(R["demand_tiles"]),
        char_rd={},
        exec_close=R["exec"]["close"],
        bonus_left=list(R["exec"]["bonus_prices"]),
        discount_left=list(R["exec"]["discount_groups"]),
    )
    start_round(state, [])
    return state


def to_act(state: AutoState) -> list[str]:
    if state.finished or state.current is None:
        return []
    return [state.current]


# ====================================================== turn structure
def start_round(state: AutoState, ev: Evs) -> None:
    R = C.rules()
    state.phase = PHASE_DRAW
    ev.append(RoundStart(round=state.round))
    sched = R["demand_schedule"][str(state.round)]
    bag = state.rng.shuffle("deck.demand", state.bag)
    for seat in state.selection_order:
        cards = sorted(bag[: sched["draw"]], reverse=True)
        bag = bag[sched["draw"] :]
        state.players[seat].hand = cards
        ev.append(DemandDrawn(seat=seat, cards=list(cards), to=[seat]))
        ev.append(DemandCount(seat=seat, n=len(cards)))
    state.bag = bag
    # phase 2 set-up: R&D cubes on the character spaces, executive area restocked in clean-up
    state.char_rd = dict(C.character_rd())
    state.taken = {}
    state.phase = PHASE_SELECT
    state.current = state.selection_order[0]


def next_selector(state: AutoState, ev: Evs) -> None:
    for seat in state.selection_order:
        if state.players[seat].character is None:
            state.current = seat
            return
    # everyone chose: action order = character order on the board
    chars = C.characters()
    state.action_order = sorted(state.seats, key=lambda s: chars.index(state.players[s].character or ""))
    ev.append(ActionOrder(order=list(state.action_order)))
    state.phase = PHASE_ACTIONS
    state.turn = 0
    state.current = state.action_order[0]


def end_turn(state: AutoState, ev: Evs) -> None:
    """Phase 3: one action done."""
    state.pending = None
    state.turn += 1
    n = len(state.seats)
    if state.turn < C.rules()["action_rounds"] * n:
        state.current = state.action_order[state.turn % n]
        return
    phase_howard(state, ev)


# -------------------------------------------------------------- phase 4
def phase_howard(state: AutoState, ev: Evs) -> None:
    state.phase = PHASE_HOWARD
    seat = state.taken.get("howard")
    if seat is not None and howard_spaces(state, seat):
        state.pending = Pending(kind="howard", seat=seat, left=C.rules()["howard_sales"])
        state.current = seat
        auto(state, ev)
        return
    phase_dist(state, ev)


def howard_spaces(state: AutoState, seat: str) -> list[int]:
    prices = C.rules()["howard_price"]
    board = C.board()
    return [i for i, sp in enumerate(state.spaces) if sp.owner == seat and sp.cars > 0 and board[i]["cls"] in prices]


# -------------------------------------------------------------- phase 5
def phase_dist(state: AutoState, ev: Evs) -> None:
    state.phase = PHASE_DIST
    state.pending = None
    for p in state.players.values():
        p.dist_used = {c: 0 for c in CLASSES}
        p.dist_lane = {c: 0 for c in CLASSES}
        p.dist_done = False
    state.lanes = {c: [] for c in CLASSES}
    state.turn = 0
    dist_next(state, ev, start=0)


def lane_capacity(state: AutoState) -> int:
    R = C.rules()
    boxes = sum(1 for b in R["sales_boxes"] if b["from_round"] <= state.round)
    return boxes * R["box_capacity_per_player"] * len(state.seats)


def dist_moves(state: AutoState, seat: str) -> list[DistMove]:
    p = state.players[seat]
    cap = lane_capacity(state)
    moves = C.rules()["distributor_moves"]
    out = []
    for src in CLASSES:
        if p.dist[src] - p.dist_used[src] <= 0:
            continue
        for lane in moves[src]:
            if len(state.lanes[lane]) < cap and car_spaces(state, seat, lane):
                out.append(DistMove(src=src, lane=lane))
    return out


def car_spaces(state: AutoState, seat: str, cls: str) -> list[int]:
    spaces = state.spaces
    return [i for i in C.class_spaces(cls) if spaces[i].owner == seat and spaces[i].cars > 0]


def dist_next(state: AutoState, ev: Evs, start: int) -> None:
    order = state.action_order
    n = len(order)
    for k in range(n):
        seat = order[(start + k) % n]
        p = state.players[seat]
        if p.dist_done:
            continue
        if not dist_moves(state, seat):
            p.dist_done = True
            continue
        state.turn = (start + k) % n
        state.current = seat
        return
    end_dist(state, ev)


def end_dist(state: AutoState, ev: Evs) -> None:
    loss = C.rules()["unused_distributor_loss"]
    for seat in state.action_order:
        p = state.players[seat]
        unused = sum(p.dist[c] - p.dist_used[c] for c in CLASSES)
        if unused:
            p.losses += unused * loss
            p.dist_supply += unused
            ev.append(DistUnused(seat=seat, n=unused, points=unused * loss))
        # used distributors go back to the big square of the lane they sold in
        p.dist = dict(p.dist_lane)
        p.dist_used = {c: 0 for c in CLASSES}
        p.dist_lane = {c: 0 for c in CLASSES}
    phase_exec(state, ev)


# -------------------------------------------------------------- phase 6
def phase_exec(state: AutoState, ev: Evs) -> None:
    """Executive decisions: in action order, one decision a turn, round after round,
    until every player has passed (ruleset 1: one decision each)."""
    state.phase = PHASE_EXEC
    state.pending = None
    state.pass_order = []
    state.turn = 0
    state.current = state.action_order[0]


def exec_next(state: AutoState, ev: Evs) -> None:
    """The next player who has not passed, after the current one; phase 7 when all passed."""
    state.pending = None
    order = state.action_order
    n = len(order)
    if state.ruleset < 2:
        state.turn += 1
        if state.turn < n:
            state.current = order[state.turn]
            return
    else:
        for k in range(1, n + 1):
            seat = order[(state.turn + k) % n]
            if seat not in state.pass_order:
                state.turn = (state.turn + k) % n
                state.current = seat
                return
    phase_demand(state, ev)
    phase_loss(state, ev)
    phase_end(state, ev)


# -------------------------------------------------------------- phase 7
def phase_demand(state: AutoState, ev: Evs) -> None:
    R = C.rules()
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
        DemandRevealed(
            hands={k: list(v) for k, v in state.revealed.items()},
            extra={k: list(v) for k, v in state.extra.items()},
            demand=dict(demand),
        )
    )
    prices, disc = R["price"], R["discount_price"]
    for cls in CLASSES:
        left = demand[cls]
        spaces = list(reversed(C.class_spaces(cls)))  # newest first
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
                ev.append(DemandSale(seat=sp.owner, space=i, cls=cls, n=k, price=price, delta=k * price))
                sold_any = True
            if not sold_any:
                break
    unsold_loss = R["unsold_car_loss"]
    for i, sp in enumerate(state.spaces):
        if sp.cars > 0 and sp.owner is not None:
            state.players[sp.owner].losses += sp.cars * unsold_loss
            ev.append(Unsold(seat=sp.owner, space=i, n=sp.cars, points=sp.cars * unsold_loss))
            sp.cars = 0


# -------------------------------------------------------------- phase 8
def phase_loss(state: AutoState, ev: Evs) -> None:
    R = C.rules()
    state.phase = PHASE_LOSS
    for cls in CLASSES:
        rank = 0
        for i in reversed(C.class_spaces(cls)):
            sp = state.spaces[i]
            if not (sp.closed or sp.factories > 0):
                continue
            if not sp.closed and rank > 0 and sp.owner is not None:
                state.players[sp.owner].losses += rank
                ev.append(LossPoints(seat=sp.owner, space=i, cls=cls, n=rank))
            rank += 1
    rate = R["loss_fee"][str(state.round)]
    interest = R["loan"]["interest"]
    for seat in state.action_order:
        p = state.players[seat]
        if p.losses:
            charge(
                state,
                seat,
                p.losses * rate,
                ev,
                lambda paid, s=seat, n=p.losses: LossFee(seat=s, delta=-paid, n=n, rate=rate),
            )
    # Sloan and Chrysler discard after paying (text order: "付费后损失点保留" then the discards)
    sloan, chrysler = state.taken.get("sloan"), state.taken.get("chrysler")
    if sloan is not None:
        p = state.players[sloan]
        k = math.ceil(p.losses / 2)
        if k:
            p.losses -= k
            ev.append(SloanDiscard(seat=sloan, n=k))
    if chrysler is not None:
        p = state.players[chrysler]
        k = min(state.round, p.losses)
        if k:
            p.losses -= k
            ev.append(ChryslerDiscard(seat=chrysler, n=k))
    for seat in state.action_order:
        p = state.players[seat]
        if p.loans:
            n = p.loans
            charge(
                state,
                seat,
                n * interest,
                ev,
                lambda paid, s=seat, n=n: Interest(seat=s, delta=-paid, n=n, rate=interest),
            )


def charge(state: AutoState, seat: str, amount: int, ev: Evs, event: Any) -> None:
    """A payment the rules force.  Remedy when short: emergency loans, then arrears.
    ``event(paid)`` builds the payment's event."""
    L = C.rules()["loan"]
    p = state.players[seat]
    while p.money < amount and p.loans < L["max"]:
        p.loans += 1
        p.money += L["amount"]
        ev.append(EmergencyLoan(seat=seat, delta=L["amount"], n=p.loans))
    paid = min(p.money, amount)
    p.money -= paid
    ev.append(event(paid))
    if paid < amount:
        p.arrears += amount - paid
        p.bankrupt = True
        ev.append(Arrears(seat=seat, amount=amount - paid))


# -------------------------------------------------------------- phase 9
def phase_end(state: AutoState, ev: Evs) -> None:
    R = C.rules()
    state.phase = PHASE_END
    for p in state.players.values():
        state.bag.extend(p.hand)
        p.hand = []
    for sp in state.spaces:
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
    # next selection order: passers first, in passing order (under ruleset 2 everyone passes);
    # ruleset 1: the others follow in action order
    rest = [s for s in state.action_order if s not in state.pass_order]
    state.selection_order = list(state.pass_order) + rest
    for p in state.players.values():
        p.character = None
    state.taken = {}
    ev.append(RoundEnd(round=state.round))
    if state.round >= R["rounds"]:
        finish(state, ev)
        return
    state.round += 1
    start_round(state, ev)


def finish(state: AutoState, ev: Evs) -> None:
    repay = C.rules()["loan"]["repay"]
    for seat in state.seats:
        p = state.players[seat]
        if p.loans:
            due = p.loans * repay
            paid = min(due, p.money)
            p.money -= paid
            ev.append(Repay(seat=seat, delta=-paid, n=p.loans))
            if paid < due:
                p.arrears += due - paid
                p.bankrupt = True
                ev.append(Arrears(seat=seat, amount=due - paid))
            p.loans = 0
        state.scores[seat] = p.money - p.arrears
    state.finished = True
    state.current = None
    state.pending = None
    best = max(state.scores.values())
    ev.append(GameEnd(best=best, winners=[s for s in state.seats if state.scores[s] == best]))


# ================================================ what a state may be
def first_problem(s: AutoState) -> str | None:
    """The first thing in ``s`` that no game of Automobile can reach, as "field: detail", or None."""
    Rl = C.rules()
    board = C.board()
    seats = s.seats
    if s.ruleset not in (1, 2):
        return f"ruleset {s.ruleset}"
    if set(s.players) != set(seats):
        return "players: one per seat"
    if not 1 <= s.round <= Rl["rounds"] or not 1 <= s.phase <= 9:
        return f"round {s.round} / phase {s.phase} out of range"
    if s.current is not None and s.current not in seats:
        return f"current: {s.current!r} is not a seat"
    if not s.finished and s.current is None:
        return "current: nobody can act in an unfinished game"
    if s.finished and (s.current is not None or set(s.scores) != set(seats)):
        return "finished game: nobody acts, every seat scored"
    if not s.finished and s.phase not in (PHASE_SELECT, PHASE_ACTIONS, PHASE_HOWARD, PHASE_DIST, PHASE_EXEC):
        return f"phase {s.phase}: phases 1 and 7-9 resolve without a decision"
    for name in ("selection_order", "action_order"):
        order = getattr(s, name)
        if order and sorted(order) != sorted(seats):
            return f"{name}: must be the seats in some order"
    if s.phase == PHASE_SELECT and not s.finished:
        if sorted(s.selection_order) != sorted(seats):
            return "selection_order: the seats in some order while characters are chosen"
        waiting = [x for x in s.selection_order if s.players[x].character is None]
        nxt = waiting[0] if waiting else None
        if s.pending is None and (nxt is None or s.current != nxt):  # (Durant's build comes between)
            return f"current: {s.current!r}, but the next to choose a character is {nxt!r}"
    if s.phase >= PHASE_ACTIONS and not s.finished and sorted(s.action_order) != sorted(seats):
        return "action_order: set once everyone chose"
    if len(s.spaces) != len(board):
        return f"spaces: {len(board)} model spaces"
    tiles = list(Rl["demand_tiles"])
    cards = list(s.bag) + [c for p in s.players.values() for c in p.hand]
    if not s.finished and s.phase < PHASE_DEMAND:
        pool = list(tiles)
        for c in cards:
            if c not in pool:
                return f"demand cards: {c!r} is not a demand tile left (bag + hands must come from data/)"
            pool.remove(c)
        if pool:
            return "demand cards: bag + hands must be the 16 tiles"
    faces = set(tiles)
    shown = [c for cs in (*s.revealed.values(), *s.extra.values()) for c in cs]
    if any(c not in faces for c in cards + shown):
        return f"demand cards: every card is one of the tiles {sorted(faces)}"
    if not set(s.revealed) <= set(seats) or not 0 <= s.revealed_round <= s.round:
        return f"revealed: the cards of seats, of round {s.revealed_round} (now {s.round})"
    if not set(s.demand) <= set(CLASSES) or any(v < 0 for v in s.demand.values()):
        return f"demand: {s.demand} (a count >= 0 per class)"
    if set(s.lanes) != set(CLASSES) or any(x not in seats for lane in s.lanes.values() for x in lane):
        return "lanes: one lane per class, holding seats"
    turns = Rl["action_rounds"] * len(seats)
    if not 0 <= s.turn <= turns or (s.phase == PHASE_ACTIONS and not s.finished and s.turn == turns):
        return f"turn: {s.turn} (phase 3 has {turns} turns)"
    draw = Rl["demand_schedule"][str(s.round)]["draw"]
    pieces = Rl["pieces"]
    chars = C.characters()
    for seat in seats:
        p = s.players[seat]
        if p.money < 0:
            return f"players.{seat}.money: {p.money} < 0"
        if p.rd < 0 or p.losses < 0 or p.arrears < 0:
            return f"players.{seat}: R&D, losses and arrears are never negative"
        if not 0 <= p.loans <= Rl["loan"]["max"]:
            return f"players.{seat}.loans: {p.loans} (0-{Rl['loan']['max']})"
        if not s.finished and len(p.hand) != draw:
            return f"players.{seat}.hand: {len(p.hand)} cards in round {s.round} (expected {draw})"
        if p.character is not None and s.taken.get(p.character) != seat:
            return f"players.{seat}.character: not recorded as taken"
        if any(set(d) != set(CLASSES) for d in (p.dist_used, p.dist_lane)):
            return f"players.{seat}.dist_lane: counts per class"
        if set(p.dist) != set(CLASSES) or min(p.dist.values()) < 0 or p.dist_supply < 0:
            return f"players.{seat}.dist: counts per class, never negative"
        if (
            sum(p.dist.values()) + p.dist_supply + sum(p.dist_lane.values()) - sum(p.dist_used.values())
            != pieces["distributors_per_player"]
        ):
            return f"players.{seat}: {pieces['distributors_per_player']} distributors in all"
        owned = factories_owned(s, seat)
        if owned > pieces["factories_per_player"]:
            return f"players.{seat}: {owned} factories (at most {pieces['factories_per_player']})"
        if cars_on_board(s, seat) > pieces["cars_per_player"]:
            return f"players.{seat}: more than {pieces['cars_per_player']} cars"
    for ch, seat in s.taken.items():
        if ch not in chars or seat not in seats or s.players[seat].character != ch:
            return f"taken.{ch}: {seat!r}"
    for ch, rd in s.char_rd.items():
        if ch not in chars or rd < 0:
            return f"char_rd.{ch}: {rd}"
    for i, sp in enumerate(s.spaces):
        if sp.owner is not None and sp.owner not in seats:
            return f"spaces.{i}.owner: {sp.owner!r} is not a seat"
        if not 0 <= sp.factories <= Rl["max_factories_per_space"] or sp.cars < 0:
            return f"spaces.{i}: factories 0-{Rl['max_factories_per_space']}, cars >= 0"
        if (sp.factories or sp.parts or sp.cars) and sp.owner is None:
            return f"spaces.{i}: factories or cars without an owner"
        if sp.closed and (sp.factories or sp.parts):
            return f"spaces.{i}: a closed space has no factories"
        if sp.parts and not sp.factories:
            return f"spaces.{i}: a parts factory needs a factory"
        if sp.discount and board[i]["cls"] == "high":
            return f"spaces.{i}: no discount marker on a high-price space"
    if sum(1 for sp in s.spaces if sp.closed) != s.closed_used or s.closed_used > pieces["closed_tiles"]:
        return "closed_used: must count the closed-factory tiles"
    if sum(1 for sp in s.spaces if sp.parts) > pieces["parts_factories"]:
        return f"spaces: at most {pieces['parts_factories']} parts factories"
    ex = Rl["exec"]
    if not 0 <= s.exec_close <= ex["close"]:
        return f"exec_close: {s.exec_close}"
    prices = list(ex["bonus_prices"])
    if s.bonus_left != prices[len(prices) - len(s.bonus_left) :]:
        return f"bonus_left: {s.bonus_left} (the rest of {prices})"
    groups = list(ex["discount_groups"])
    for g in s.discount_left:
        if g not in groups:
            return f"discount_left: {s.discount_left} (a subset of {ex['discount_groups']})"
        groups.remove(g)
    if len(set(s.pass_order)) != len(s.pass_order) or any(x not in seats for x in s.pass_order):
        return "pass_order: distinct seats"
    if s.phase == PHASE_EXEC and not s.finished and s.ruleset >= 2 and s.current in s.pass_order:
        return f"current: {s.current} has passed"
    return pending_problem(s)


def pending_problem(s: AutoState) -> str | None:
    p = s.pending
    if p is None:
        if s.phase == PHASE_HOWARD and not s.finished:
            return "phase 4 waits on Howard's pending sale"
        return None
    if s.finished:
        return "pending: a finished game decides nothing"
    if p.seat != s.current:
        return f"pending.seat: {p.seat!r} is not the seat to act ({s.current!r})"
    phase_of = {
        "build_class": (PHASE_SELECT, PHASE_ACTIONS),
        "build_space": (PHASE_SELECT, PHASE_ACTIONS),
        "build_count": (PHASE_ACTIONS,),
        "dist_place": (PHASE_ACTIONS,),
        "produce": (PHASE_ACTIONS,),
        "close": (PHASE_ACTIONS, PHASE_EXEC),
        "howard": (PHASE_HOWARD,),
        "dist_sell": (PHASE_DIST,),
        "bonus": (PHASE_EXEC,),
        "discount": (PHASE_EXEC,),
    }
    if s.phase not in phase_of[p.kind]:
        return f"pending.kind {p.kind!r} cannot wait in phase {s.phase}"
    if (p.origin == "durant") != (s.phase == PHASE_SELECT) or (p.origin == "exec") != (s.phase == PHASE_EXEC):
        return f"pending.origin {p.origin!r} does not fit phase {s.phase}"
    n = len(C.board())
    if p.left < 0:
        return f"pending.left: {p.left}"
    if p.space is not None and not 0 <= p.space < n:
        return f"pending.space: {p.space}"
    if p.kind == "build_count" and p.space is None:
        return "pending: build_count needs a space"
    if p.kind == "build_space" and p.cls is None:
        return "pending: build_space needs a class"
    if p.kind == "produce" and (not p.queue or any(not 0 <= i < n for i in p.queue)):
        return "pending.queue: the spaces still to produce at"
    if p.kind == "dist_sell" and (p.src is None or p.lane is None):
        return "pending: dist_sell needs a source square and a lane"
    if not legal_pending(s, p.seat, p):
        return f"pending {p.kind!r}: no possible choice"
    return None


# ==================================================== legal actions
def check(state: AutoState, seat: str, action: Any, legal: list[Any]) -> None:
    if action in legal or legacy_build_class(state, seat, action):
        return
    if all(a.kind != action.kind for a in legal):
        raise GameError("wrong_step", "automobile.error.wrong_step", seat=seat)
    raise GameError("not_allowed", "automobile.error.not_allowed", seat=seat)


def legal(state: AutoState, seat: str) -> list[Any]:
    pend = state.pending
    if pend is not None:
        return legal_pending(state, seat, pend)
    if state.phase == PHASE_SELECT:
        return [Pick(character=c) for c in C.characters() if c not in state.taken]
    if state.phase == PHASE_ACTIONS:
        R = C.rules()
        p = state.players[seat]
        out: list[Any] = []
        if build_classes(state, seat, 0):
            out.append(Act(what="build"))
        if p.dist_supply > 0:
            out.append(Act(what="distributors"))
        out.append(Act(what="rd"))
        if produce_spaces(state, seat):
            out.append(Act(what="produce"))
        if closable(state, seat):
            out.append(Act(what="close"))
        if p.loans < R["loan"]["max"]:
            out.append(Loan())
        return out
    if state.phase == PHASE_DIST:
        return [*dist_moves(state, seat), DistStop()]
    if state.phase == PHASE_EXEC:
        return exec_choices(state, seat)
    return []


def legal_pending(state: AutoState, seat: str, pend: Pending) -> list[Any]:
    k = pend.kind
    can_cancel = pend.origin in ("action", "durant")
    out: list[Any]
    if k == "build_class":
        # a model space names its price class, so a build is the space, then the count
        # (issue 12); a class first only when the spaces would not fit one select
        cap = build_cap(state, pend)
        spaces = sorted(i for c in CLASSES for i in build_spaces(state, seat, c, cap))
        if len(spaces) + int(can_cancel) <= MAX_OFFER:
            out = [BuildSpace(space=i) for i in spaces]
        else:
            out = [BuildClass(cls=c) for c in build_classes(state, seat, cap)]
        return out + [Cancel()] if can_cancel else out
    if k == "build_space":
        out = [BuildSpace(space=i) for i in build_spaces(state, seat, pend.cls or "", build_cap(state, pend))]
        return out + [Cancel()]
    if k == "build_count":
        assert pend.space is not None
        out = [BuildCount(count=n) for n in build_counts(state, seat, pend.space, build_cap(state, pend))]
        if pend.origin == "action" and can_parts(state, seat, pend.space):
            out.append(BuildParts())
        return out + [Cancel()]
    if k == "dist_place":
        p = state.players[seat]
        out = [PlaceDist(cls=c) for c in CLASSES] if p.dist_supply > 0 and pend.left > 0 else []
        out.append(Done() if pend.done_any else Cancel())
        return out
    if k == "produce":
        space = pend.queue[0]
        return [Produce(space=space, count=n) for n in produce_counts(state, seat, space)]
    if k == "close":
        out = [Close(space=i) for i in closable(state, seat)]
        return out + [Cancel()] if can_cancel else out
    if k == "howard":
        return [HowardSell(space=i) for i in howard_spaces(state, seat)]
    if k == "dist_sell":
        return [DistSell(space=i) for i in car_spaces(state, seat, pend.lane or "")]
    if k in ("bonus", "discount"):
        return [Marker(space=i) for i in marker_spaces(state, seat, k)]
    return []


# ---- build helpers
#: the most choices one decision lists (a Discord select holds 25)
MAX_OFFER = 25


def legacy_build_class(state: AutoState, seat: str, action: Any) -> bool:
    """A price class chosen before the model space: how every build was logged
    before issue 12 (class, space, count), and how one still goes when the spaces
    would not fit one select.  Always accepted, so stored logs replay; the class's
    spaces follow (``build_space``)."""
    pend = state.pending
    return (
        isinstance(action, BuildClass)
        and pend is not None
        and pend.seat == seat
        and pend.kind == "build_class"
        and action.cls in build_classes(state, seat, build_cap(state, pend))
    )


def build_cap(state: AutoState, pend: Pending) -> int:
    R = C.rules()
    if pend.origin == "durant":
        return int(R["durant_factories"])
    cap = int(R["build_max"])
    if state.players[pend.seat].character == "ford" and not state.ford_used:
        cap += int(R["ford_extra_factories"])
    return cap


def jump_fee(state: AutoState, space: int) -> int:
    """R&D cubes per factory: empty spaces of the class skipped past the newest occupied one."""
    sp = state.spaces[space]
    if sp.owner is not None or sp.closed:
        return 0
    order = C.class_spaces(C.board()[space]["cls"])
    newest = -1
    for pos, i in enumerate(order):
        s = state.spaces[i]
        if s.factories > 0 or s.closed:
            newest = pos
    return max(0, order.index(space) - newest - 1)


def factories_owned(state: AutoState, seat: str) -> int:
    return sum(sp.factories for sp in state.spaces if sp.owner == seat and not sp.closed)


def build_counts(state: AutoState, seat: str, space: int, cap: int, owned: int | None = None) -> list[int]:
    R = C.rules()
    sp = state.spaces[space]
    b = C.board()[space]
    if b["era"] > state.round or sp.closed or (sp.owner not in (None, seat)):
        return []
    p = state.players[seat]
    cost = b["cost"]
    if p.money < cost:
        return []
    if owned is None:
        owned = factories_owned(state, seat)
    room = min(cap, R["max_factories_per_space"] - sp.factories, R["pieces"]["factories_per_player"] - owned)
    if room <= 0:
        return []
    fee = jump_fee(state, space)
    return [n for n in range(1, room + 1) if n * cost <= p.money and n * fee <= p.rd]


def can_parts(state: AutoState, seat: str, space: int) -> bool:
    R = C.rules()
    sp = state.spaces[space]
    if sp.owner != seat or sp.factories <= 0 or sp.closed or sp.parts:
        return False
    if state.players[seat].money < R["parts_factory_cost"]:
        return False
    used = sum(1 for s in state.spaces if s.parts and not s.closed)
    return used < R["pieces"]["parts_factories"]


def build_spaces(state: AutoState, seat: str, cls: str, cap: int, first: bool = False) -> list[int]:
    out = []
    owned = factories_owned(state, seat)
    for i in C.class_spaces(cls):
        if build_counts(state, seat, i, cap, owned) or (cap > 1 and can_parts(state, seat, i)):
            out.append(i)
            if first:
                break
    return out


def build_classes(state: AutoState, seat: str, cap: int) -> list[str]:
    if cap == 0:
        cap = C.rules()["build_max"]
    return [c for c in CLASSES if build_spaces(state, seat, c, cap, first=True)]


# ---- production helpers
def cars_on_board(state: AutoState, seat: str) -> int:
    return sum(sp.cars for sp in state.spaces if sp.owner == seat)


def produce_counts(state: AutoState, seat: str, space: int) -> list[int]:
    sp = state.spaces[space]
    cls = C.board()[space]["cls"]
    lo, hi = C.production_range(cls, sp.factories)
    cost = C.car_cost(cls, sp.parts)
    supply = C.rules()["pieces"]["cars_per_player"] - cars_on_board(state, seat)
    money = state.players[seat].money
    hi = min(hi, supply, money // cost)
    return [0, *range(lo, hi + 1)]


def produce_spaces(state: AutoState, seat: str) -> list[int]:
    return [
        i
        for i, sp in enumerate(state.spaces)
        if sp.owner == seat and sp.factories > 0 and not sp.closed and len(produce_counts(state, seat, i)) > 1
    ]


def closable(state: AutoState, seat: str) -> list[int]:
    if state.closed_used >= C.rules()["pieces"]["closed_tiles"]:
        return []
    return [i for i, sp in enumerate(state.spaces) if sp.owner == seat and sp.factories > 0 and not sp.closed]


def close_refund(state: AutoState, space: int) -> int:
    R = C.rules()
    sp = state.spaces[space]
    return sp.factories * (C.board()[space]["cost"] - R["close_refund_less"]) + (R["parts_refund"] if sp.parts else 0)


# ---- executive helpers
def marker_spaces(state: AutoState, seat: str, kind: str) -> list[int]:
    board = C.board()
    out = []
    for i, sp in enumerate(state.spaces):
        if sp.owner != seat or sp.closed:
            continue
        if kind == "bonus" and not sp.bonus:
            out.append(i)
        if kind == "discount" and not sp.discount and board[i]["cls"] != "high":
            out.append(i)
    return out


def exec_choices(state: AutoState, seat: str) -> list[Exec]:
    out = []
    if state.exec_close > 0 and closable(state, seat):
        out.append(Exec(choice="close"))
    if state.bonus_left and state.players[seat].rd >= state.bonus_left[0] and marker_spaces(state, seat, "bonus"):
        out.append(Exec(choice="bonus"))
    dspaces = len(marker_spaces(state, seat, "discount"))
    if 2 in state.discount_left and dspaces >= 2:
        out.append(Exec(choice="discount2"))
    if 1 in state.discount_left and dspaces >= 1:
        out.append(Exec(choice="discount1"))
    out.append(Exec(choice="pass"))
    return out


# ========================================================== apply
def apply(state: AutoState, seat: str, action: Any) -> Evs:
    ev: Evs = []
    DO[action.kind](state, seat, action, ev)
    auto(state, ev)
    return ev


def auto(state: AutoState, ev: Evs) -> None:
    """Resolve forced steps with exactly one possible choice (Howard's and distributor car picks)."""
    guard = 0
    while state.pending is not None and state.pending.kind in ("howard", "dist_sell") and guard < 50:
        guard += 1
        seat = state.pending.seat
        options = legal(state, seat)
        if len(options) != 1:
            return
        DO[options[0].kind](state, seat, options[0], ev)


# ---- phase 2
def do_pick(state: AutoState, seat: str, a: Pick, ev: Evs) -> None:
    p = state.players[seat]
    p.character = a.character
    state.taken[a.character] = seat
    rd = state.char_rd.get(a.character, 0)
    p.rd += rd
    state.char_rd[a.character] = 0
    ev.append(Picked(seat=seat, character=a.character, rd=rd))
    if a.character == "durant" and build_classes(state, seat, C.rules()["durant_factories"]):
        state.pending = Pending(kind="build_class", seat=seat, origin="durant")
        return
    next_selector(state, ev)


# ---- phase 3 action choice
def do_act(state: AutoState, seat: str, a: Act, ev: Evs) -> None:
    R = C.rules()
    if a.what == "build":
        state.pending = Pending(kind="build_class", seat=seat)
    elif a.what == "distributors":
        state.pending = Pending(kind="dist_place", seat=seat, left=R["distributors_per_action"])
    elif a.what == "rd":
        state.players[seat].rd += R["rd_action"]
        ev.append(RdTaken(seat=seat, n=R["rd_action"]))
        end_turn(state, ev)
    elif a.what == "produce":
        state.pending = Pending(kind="produce", seat=seat, queue=produce_spaces(state, seat))
    elif a.what == "close":
        state.pending = Pending(kind="close", seat=seat)


def do_loan(state: AutoState, seat: str, a: Loan, ev: Evs) -> None:
    L = C.rules()["loan"]
    p = state.players[seat]
    p.loans += 1
    p.money += L["amount"]
    ev.append(LoanTaken(seat=seat, delta=L["amount"], n=p.loans))


def do_cancel(state: AutoState, seat: str, a: Cancel, ev: Evs) -> None:
    pend = state.pending
    assert pend is not None
    state.pending = None
    if pend.origin == "durant":
        ev.append(DurantDecline(seat=seat))
        next_selector(state, ev)


def do_build_class(state: AutoState, seat: str, a: BuildClass, ev: Evs) -> None:
    assert state.pending is not None
    state.pending.kind = "build_space"
    state.pending.cls = a.cls


def do_build_space(state: AutoState, seat: str, a: BuildSpace, ev: Evs) -> None:
    pend = state.pending
    assert pend is not None
    pend.cls = C.board()[a.space]["cls"]
    pend.space = a.space
    if pend.origin == "durant":
        build(state, seat, a.space, 1, ev)
        state.pending = None
        next_selector(state, ev)
        return
    pend.kind = "build_count"


def build(state: AutoState, seat: str, space: int, n: int, ev: Evs) -> None:
    sp = state.spaces[space]
    cost = C.board()[space]["cost"]
    fee = jump_fee(state, space)
    p = state.players[seat]
    p.money -= n * cost
    p.rd -= n * fee
    sp.owner = seat
    sp.factories += n
    ev.append(Built(seat=seat, space=space, n=n, rd=n * fee, delta=-n * cost))


def do_build_count(state: AutoState, seat: str, a: BuildCount, ev: Evs) -> None:
    pend = state.pending
    assert pend is not None and pend.space is not None
    if a.count > C.rules()["build_max"]:
        state.ford_used = True
    build(state, seat, pend.space, a.count, ev)
    end_turn(state, ev)


def do_build_parts(state: AutoState, seat: str, a: BuildParts, ev: Evs) -> None:
    pend = state.pending
    assert pend is not None and pend.space is not None
    cost = C.rules()["parts_factory_cost"]
    state.players[seat].money -= cost
    state.spaces[pend.space].parts = True
    ev.append(PartsBuilt(seat=seat, space=pend.space, delta=-cost))
    end_turn(state, ev)


def do_place_dist(state: AutoState, seat: str, a: PlaceDist, ev: Evs) -> None:
    pend = state.pending
    assert pend is not None
    p = state.players[seat]
    p.dist_supply -= 1
    p.dist[a.cls] += 1
    pend.left -= 1
    pend.done_any = True
    ev.append(DistPlaced(seat=seat, cls=a.cls, n=1))
    if pend.left <= 0 or p.dist_supply <= 0:
        end_turn(state, ev)


def do_done(state: AutoState, seat: str, a: Done, ev: Evs) -> None:
    end_turn(state, ev)


def do_produce(state: AutoState, seat: str, a: Produce, ev: Evs) -> None:
    pend = state.pending
    assert pend is not None
    pend.queue.pop(0)
    if a.count:
        sp = state.spaces[a.space]
        cost = a.count * C.car_cost(C.board()[a.space]["cls"], sp.parts)
        state.players[seat].money -= cost
        sp.cars += a.count
        ev.append(Produced(seat=seat, space=a.space, n=a.count, delta=-cost))
    # drop spaces that can no longer produce (money or car supply ran out)
    pend.queue = [i for i in pend.queue if len(produce_counts(state, seat, i)) > 1]
    if not pend.queue:
        end_turn(state, ev)


def close(state: AutoState, seat: str, space: int, ev: Evs) -> None:
    """关闭停产车型位: the factories leave, a closed-factory tile goes on the space; under
    ruleset 2 the discontinued model's cars still on the space go back to their owner unsold."""
    sp = state.spaces[space]
    refund = close_refund(state, space)
    p = state.players[seat]
    p.money += refund
    half = math.ceil(p.losses / 2)
    p.losses -= half
    cars = sp.cars if state.ruleset >= 2 else 0
    ev.append(Closed(seat=seat, space=space, n=sp.factories, discarded=half, cars=cars, delta=refund))
    sp.cars -= cars
    sp.factories = 0
    sp.parts = False
    sp.closed = True
    sp.bonus = False
    sp.discount = False
    state.closed_used += 1


def do_close(state: AutoState, seat: str, a: Close, ev: Evs) -> None:
    pend = state.pending
    assert pend is not None
    close(state, seat, a.space, ev)
    if pend.origin == "exec":
        state.exec_close -= 1
        exec_next(state, ev)
    else:
        end_turn(state, ev)


# ---- phase 4
def do_howard_sell(state: AutoState, seat: str, a: HowardSell, ev: Evs) -> None:
    pend = state.pending
    assert pend is not None
    price = C.rules()["howard_price"][C.board()[a.space]["cls"]]
    state.spaces[a.space].cars -= 1
    state.players[seat].money += price
    ev.append(HowardSale(seat=seat, space=a.space, price=price, delta=price))
    pend.left -= 1
    if pend.left <= 0 or not howard_spaces(state, seat):
        state.pending = None
        phase_dist(state, ev)


# ---- phase 5
def do_dist_move(state: AutoState, seat: str, a: DistMove, ev: Evs) -> None:
    state.pending = Pending(kind="dist_sell", seat=seat, src=a.src, lane=a.lane)


def do_dist_sell(state: AutoState, seat: str, a: DistSell, ev: Evs) -> None:
    pend = state.pending
    assert pend is not None and pend.src and pend.lane
    p = state.players[seat]
    p.dist_used[pend.src] += 1
    p.dist_lane[pend.lane] += 1
    price = C.rules()["price"][pend.lane]
    state.spaces[a.space].cars -= 1
    state.lanes[pend.lane].append(seat)
    p.money += price
    ev.append(DistSale(seat=seat, space=a.space, lane=pend.lane, src=pend.src, price=price, delta=price))
    state.pending = None
    dist_next(state, ev, start=state.turn + 1)


def do_dist_stop(state: AutoState, seat: str, a: DistStop, ev: Evs) -> None:
    state.players[seat].dist_done = True
    ev.append(DistStopped(seat=seat))
    dist_next(state, ev, start=state.turn + 1)


# ---- phase 6
def do_exec(state: AutoState, seat: str, a: Exec, ev: Evs) -> None:
    if a.choice == "close":
        state.pending = Pending(kind="close", seat=seat, origin="exec")
    elif a.choice == "bonus":
        price = state.bonus_left.pop(0)
        state.players[seat].rd -= price
        ev.append(BonusBought(seat=seat, price=price))
        state.pending = Pending(kind="bonus", seat=seat, origin="exec", left=1)
    elif a.choice in ("discount2", "discount1"):
        size = 2 if a.choice == "discount2" else 1
        state.discount_left.remove(size)
        ev.append(DiscountTaken(seat=seat, n=size))
        state.pending = Pending(kind="discount", seat=seat, origin="exec", left=size)
    else:
        state.pass_order.append(seat)
        ev.append(ExecPass(seat=seat, n=len(state.pass_order)))
        exec_next(state, ev)


def do_marker(state: AutoState, seat: str, a: Marker, ev: Evs) -> None:
    pend = state.pending
    assert pend is not None
    sp = state.spaces[a.space]
    if pend.kind == "bonus":
        sp.bonus = True
        ev.append(BonusPlaced(seat=seat, space=a.space))
    else:
        sp.discount = True
        ev.append(DiscountPlaced(seat=seat, space=a.space))
    pend.left -= 1
    if pend.left <= 0:
        exec_next(state, ev)


DO: dict[str, Any] = {
    "pick": do_pick,
    "act": do_act,
    "loan": do_loan,
    "cancel": do_cancel,
    "build_class": do_build_class,
    "build_space": do_build_space,
    "build_count": do_build_count,
    "build_parts": do_build_parts,
    "place_dist": do_place_dist,
    "done": do_done,
    "produce": do_produce,
    "close": do_close,
    "howard_sell": do_howard_sell,
    "dist_move": do_dist_move,
    "dist_sell": do_dist_sell,
    "dist_stop": do_dist_stop,
    "exec": do_exec,
    "marker": do_marker,
}

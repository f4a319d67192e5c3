"""Seat-filler AI: a plain, cautious economy.

It builds early in the class where demand is expected, produces about what
demand (and its own distributors) can absorb, sells everything it can through
distributors, uses executive decisions for markers or closing outdated
models, and keeps cash for the loss fees.  It sees only what its seat sees:
its own demand cards plus the public board (the expected value of the other
players' cards stands in for them).  Deterministic for a given state.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..errors import GameError
from . import content as C
from . import rules as R
from .models import (
    Act,
    AutoState,
    BuildClass,
    BuildCount,
    BuildSpace,
    Cancel,
    Close,
    DistMove,
    DistStop,
    Done,
    Exec,
    Loan,
    PlaceDist,
    Produce,
)

E_ONE, E_HIGH, E_LOW = 3.5, 4.1, 2.9  # expected single card, larger (4.17) and smaller (2.83) of two, rounded


def expected_demand(state: AutoState, seat: str) -> dict[str, float]:
    sched = C.rules()["demand_schedule"][str(state.round)]
    est = {c: 0.0 for c in C.CLASSES}
    for s in state.seats:
        if s == seat:
            for value, cls in zip(state.players[seat].hand, sched["assign"]):
                est[cls] += value
        else:
            exp = [E_ONE] if sched["draw"] == 1 else [E_HIGH, E_LOW]
            for guess, cls in zip(exp, sched["assign"]):
                est[cls] += guess
    for cls in sched["extra"]:
        est[cls] += E_ONE
    return est


def _active(state: AutoState, cls: str) -> list[int]:
    return [i for i in C.class_spaces(cls) if state.spaces[i].factories > 0]


def _reserve(state: AutoState, seat: str) -> int:
    """Cash kept back for this round's loss fee and interest."""
    Rl = C.rules()
    p = state.players[seat]
    rate = Rl["loss_fee"][str(state.round)]
    return (p.losses + 3) * rate + p.loans * Rl["loan"]["interest"]


def _my_spaces(state: AutoState, seat: str) -> list[int]:
    return [i for i, sp in enumerate(state.spaces) if sp.owner == seat and sp.factories > 0 and not sp.closed]


def _produced(state: AutoState, seat: str) -> bool:
    return any(sp.cars > 0 for sp in state.spaces if sp.owner == seat)


@dataclass(frozen=True)
class Style:
    """The knobs of the building plan (the easy level uses the defaults)."""

    margin: float = 0.7  # share of the expected margin a factory is credited with
    keep: int = 150  # cash kept back beyond the round's fees when building
    most: int = 2  # most factories built in one action
    idle: float = -150.0  # plan threshold without a factory
    busy: float = 0.0  # plan threshold with one


EASY = Style()


def build_plan(state: AutoState, seat: str, cap: int, style: Style = EASY) -> tuple[str, int, int] | None:
    """(class, space, count) of the build worth doing, or None."""
    Rl = C.rules()
    if state.round >= Rl["rounds"]:
        return None
    p = state.players[seat]
    est = expected_demand(state, seat)
    future = {"low": 1.0 + 0.4 * state.round, "mid": 1.4 - 0.15 * state.round, "high": 0.3 + 0.2 * state.round}
    best: tuple[float, str, int, int] | None = None
    budget = p.money - _reserve(state, seat) - style.keep
    for cls in C.CLASSES:
        spaces = list(reversed(C.class_spaces(cls)))
        others = sum(1 for i in _active(state, cls) if state.spaces[i].owner != seat)
        mine = [i for i in _active(state, cls) if state.spaces[i].owner == seat]
        for i in spaces:
            counts = R.build_counts(state, seat, i, cap)
            if not counts:
                continue
            cost = C.board()[i]["cost"]
            counts = [n for n in counts if n * cost <= budget]
            if not counts:
                continue
            sp = state.spaces[i]
            fac = sp.factories
            if fac and fac >= 2 and state.round >= 3:
                continue
            n = max(counts) if (fac == 0 and est[cls] >= 8 and len(counts) > 1) else 1
            n = min(n, style.most)
            if fac + n > 3:
                n = 3 - fac
            lo, hi = C.production_range(cls, fac + n)
            share = (est[cls] * future[cls]) / (1 + others + (0 if fac else len(mine)))
            margin = Rl["price"][cls] - C.car_cost(cls, sp.parts)
            rounds_left = Rl["rounds"] - state.round + 1
            # a factory can be closed later for its cost less $100, so it really costs about $100 + risk
            value = min(share, hi) * margin * rounds_left * style.margin - n * (Rl["close_refund_less"] + 0.3 * cost)
            if lo > share + 2:
                value -= 200
            value -= _future_loss_cost(state, i)
            if best is None or value > best[0]:
                best = (value, cls, i, n)
            break  # only the newest buildable space of each class is considered
    idle = not _my_spaces(state, seat)
    if best is None or best[0] <= (style.idle if idle else style.busy):
        return None
    return best[1], best[2], best[3]


def produce_target(state: AutoState, seat: str, space: int) -> int:
    counts = R.produce_counts(state, seat, space)
    if len(counts) <= 1:
        return 0
    cls = C.board()[space]["cls"]
    sp = state.spaces[space]
    est = expected_demand(state, seat)
    active = [i for i in _active(state, cls)]
    k = max(1, len(active))
    share = est[cls] / k * (1 + 0.5 * (int(sp.bonus) + int(sp.discount)))
    p = state.players[seat]
    moves = C.rules()["distributor_moves"]
    dist = sum(p.dist[src] for src in C.CLASSES if cls in moves[src])
    howard = 2 if p.character == "howard" and cls in C.rules()["howard_price"] else 0
    target = math.floor(share + 0.5 * dist + howard)
    lo = counts[1]
    hi = counts[-1]
    cash = p.money - _reserve(state, seat)
    cost = C.car_cost(cls, sp.parts)
    affordable = max(0, cash // max(cost, 1))
    target = min(target, hi, affordable)
    if target < lo:
        return lo if lo <= target + 1 and lo <= affordable else 0
    return target


def choose(state: AutoState, seat: str, style: Style = EASY) -> Any:
    """The easy level (the seat-filler AI as it was before levels existed)."""
    legal = R.legal(state, seat) if seat in R.to_act(state) else []
    if not legal:
        raise GameError("nothing_to_do", "core.error.nothing_to_do", seat=seat)
    if len(legal) == 1:
        return legal[0]
    pend = state.pending
    state.players[seat]
    Rl = C.rules()
    kinds = {a.kind for a in legal}

    if "pick" in kinds:
        return _pick(state, seat, legal)

    if pend is not None:
        cap = R.build_cap(state, pend)
        if pend.kind in ("build_class", "build_space", "build_count"):
            plan = build_plan(state, seat, cap, style)
            if plan is None:
                return Cancel() if Cancel() in legal else legal[0]
            cls, space, n = plan
            if BuildClass(cls=cls) in legal:  # a class first: the spaces would not fit one select
                return BuildClass(cls=cls)
            if pend.kind in ("build_class", "build_space"):
                return BuildSpace(space=space) if BuildSpace(space=space) in legal else legal[0]
            for cand in (BuildCount(count=n), BuildCount(count=1)):
                if cand in legal:
                    return cand
            return legal[0]
        if pend.kind == "dist_place":
            if PlaceDist(cls="mid") in legal and pend.left > 0:
                if _dist_wanted(state, seat) > 0 or not pend.done_any:
                    return PlaceDist(cls="mid")
            return Done() if Done() in legal else legal[0]
        if pend.kind == "produce":
            n = produce_target(state, seat, pend.queue[0])
            made = Produce(space=pend.queue[0], count=n)
            return made if made in legal else legal[0]
        if pend.kind == "close":
            best = max(legal, key=lambda a: _close_value(state, a.space) if isinstance(a, Close) else 0.0)
            return best
        if pend.kind == "howard":
            return max(legal, key=lambda a: (state.spaces[a.space].cars, -a.space))
        if pend.kind == "dist_sell":
            return max(legal, key=lambda a: (state.spaces[a.space].discount, -a.space))
        if pend.kind in ("bonus", "discount"):
            return max(legal, key=lambda a: (state.spaces[a.space].cars, a.space))
        return legal[0]

    if state.phase == 3:
        return _action(state, seat, legal, style)
    if state.phase == 5:
        moves = [a for a in legal if isinstance(a, DistMove)]
        if not moves:
            return DistStop()
        price = Rl["price"]
        return max(moves, key=lambda a: (price[a.lane], a.src == a.lane, a.src != "mid"))
    if state.phase == 6:
        return _exec(state, seat, legal)
    return legal[0]


def _pick(state: AutoState, seat: str, legal: list[Any]) -> Any:
    p = state.players[seat]
    r = state.round
    has_lm = any(C.board()[i]["cls"] in ("low", "mid") for i in _my_spaces(state, seat))
    score = {
        "ford": 3.0 if r <= 2 else 1.2,
        "kettering": 1.5,
        "sloan": 0.4 * p.losses,
        "howard": 2.6 if has_lm or r == 1 else 0.5,
        "durant": 2.8 if r <= 3 and p.money >= 600 else 0.3,
        "chrysler": 1.0 + 0.15 * p.losses,
    }
    chars = C.characters()
    return max(
        legal, key=lambda a: (score[a.character] + 0.3 * state.char_rd.get(a.character, 0), -chars.index(a.character))
    )


def _action(state: AutoState, seat: str, legal: list[Any], style: Style = EASY) -> Any:
    p = state.players[seat]
    k = state.turn // len(state.seats)
    mine = _my_spaces(state, seat)
    produced = _produced(state, seat)
    if (
        not mine
        and p.loans == 0
        and state.round <= 2
        and Loan() in legal
        and p.money < min(b["cost"] for b in C.board() if b["era"] <= state.round)
    ):
        return Loan()
    can_build = Act(what="build") in legal and not produced
    plan = build_plan(state, seat, R.build_cap(state, game_pending(seat)), style) if can_build else None
    if plan is not None and (k == 0 or not mine):
        return Act(what="build")
    if Act(what="produce") in legal and not produced:
        if any(produce_target(state, seat, i) > 0 for i in R.produce_spaces(state, seat)):
            return Act(what="produce")
    if Act(what="distributors") in legal and _dist_wanted(state, seat) > 0:
        return Act(what="distributors")
    if plan is not None and k == 1:
        return Act(what="build")
    if state.round == C.rules()["rounds"] and produced and Act(what="close") in legal:
        if any(_close_value(state, i) > 0 for i in R.closable(state, seat)):
            return Act(what="close")  # last round: a factory not producing any more is worth only its refund
    return Act(what="rd")


def _dist_wanted(state: AutoState, seat: str) -> int:
    """Distributors worth adding: cars beyond the expected demand share, less distributors already out."""
    p = state.players[seat]
    est = expected_demand(state, seat)
    surplus = 0.0
    for i, sp in enumerate(state.spaces):
        if sp.owner == seat and sp.cars > 0:
            cls = C.board()[i]["cls"]
            k = max(1, len(_active(state, cls)))
            surplus += max(0.0, sp.cars - est[cls] / k)
    have = sum(p.dist.values())
    return max(0, min(3, math.ceil(surplus) - have))


def game_pending(seat: str) -> Any:
    from .models import Pending

    return Pending(kind="build_class", seat=seat)


def _point_cost(state: AutoState, k: int) -> int:
    """What one loss point held from round k costs until the end (fees are paid every round)."""
    fee = C.rules()["loss_fee"]
    return sum(fee[str(j)] for j in range(k, C.rules()["rounds"] + 1))


def _future_loss_cost(state: AutoState, space: int) -> float:
    """Expected loss fees of holding a factory at ``space`` from now on."""
    cls = C.board()[space]["cls"]
    newer = sum(
        1 for i in C.class_spaces(cls) if i > space and (state.spaces[i].factories > 0 or state.spaces[i].closed)
    )
    total = 0.0
    for k in range(state.round, C.rules()["rounds"] + 1):
        total += (newer + 0.6 * (k - state.round)) * _point_cost(state, k)
    return total


def _close_value(state: AutoState, space: int) -> float:
    """What closing ``space`` is worth: the refund and the loss points it stops; (ruleset 2) never
    a space with cars on it, which would leave unsold."""
    if state.ruleset >= 2 and state.spaces[space].cars:
        return -1e6  # its cars would leave unsold
    return R.close_refund(state, space) + 100 * _loss_rank(state, space)


def _loss_rank(state: AutoState, space: int) -> int:
    cls = C.board()[space]["cls"]
    rank = 0
    for i in reversed(C.class_spaces(cls)):
        if i == space:
            return rank
        if state.spaces[i].factories > 0 or state.spaces[i].closed:
            rank += 1
    return rank


def _exec(state: AutoState, seat: str, legal: list[Any]) -> Any:
    p = state.players[seat]
    Rl = C.rules()
    if Exec(choice="close") in legal and any(_close_value(state, i) > 0 for i in R.closable(state, seat)):
        spaces = _my_spaces(state, seat)
        if state.round == Rl["rounds"]:
            return Exec(choice="close")  # factories are worth nothing after the last round
        if any(_loss_rank(state, i) >= 3 for i in spaces) or (p.losses >= 10 and len(spaces) > 1):
            return Exec(choice="close")
    est = expected_demand(state, seat)
    surplus = {}
    for i, sp in enumerate(state.spaces):
        if sp.owner == seat and sp.cars > 0 and not sp.closed:
            cls = C.board()[i]["cls"]
            k = max(1, len([j for j in C.class_spaces(cls) if state.spaces[j].cars > 0]))
            surplus[i] = sp.cars - est[cls] / k
    if Exec(choice="bonus") in legal and any(v >= 1 for v in surplus.values()):
        return Exec(choice="bonus")
    cheap = [i for i, v in surplus.items() if v >= 2 and C.board()[i]["cls"] != "high"]
    if len(cheap) >= 2 and Exec(choice="discount2") in legal:
        return Exec(choice="discount2")
    if cheap and Exec(choice="discount1") in legal:
        return Exec(choice="discount1")
    return Exec(choice="pass")


# =========================================================== the hard level
# The hard AI plays the easy AI's plan but decides the money questions by forecast:
# how many cars to make, where its distributors and markers go, which characters
# to take and when to build are judged by simulating this round's sales
# (phases 4, 5 and 7) over sampled deals of the cards it cannot see (never the real
# hidden cards: only the bag and the other hands, shuffled by the AI's own RNG).
SAMPLES = 16
#: the hard AI's character preference (+0.3 per R&D cube on the space): Ford builds one factory more
#: and acts first in every phase, phase 6 included, so the Ford player can pass first and choose first
#: again next round (docs/rulings.md, Automobile, "Ford lock")
HARD_PICK: dict[str, float] = {
    "ford": 5.0,
    "durant": 3.0,
    "howard": 2.0,
    "kettering": 1.5,
    "chrysler": 1.0,
    "sloan": 0.0,
}
#: the hard AI's building knobs by seat count (tuned with bench/ai_levels_automobile.py: with more
#: rivals a factory is credited with more of its margin)
HARD_BY_SEATS: dict[int, Style] = {
    3: Style(idle=-400.0, busy=-100.0),
    4: Style(idle=-400.0, busy=-100.0, margin=0.9),
    5: Style(idle=-400.0, busy=-100.0, margin=0.9),
}


def _point_cost_now(state: AutoState) -> float:
    """What one more loss point costs from this round on (the fee is paid every round it is kept;
    closing or Sloan halve it now and then, hence the 0.8)."""
    return 0.8 * _point_cost(state, state.round)


def _demand_samples(state: AutoState, seat: str) -> list[dict[str, int]]:
    """Demand totals per class for SAMPLES deals consistent with what ``seat`` knows."""
    import random

    sched = C.rules()["demand_schedule"][str(state.round)]
    pool = list(state.bag) + [c for s in state.seats if s != seat for c in state.players[s].hand]
    pool.sort()
    rnd = random.Random(f"{state.seed}:{state.round}:{seat}:hard")
    out = []
    mine = state.players[seat].hand
    others = [s for s in state.seats if s != seat]
    for _ in range(SAMPLES):
        deck = list(pool)
        rnd.shuffle(deck)
        demand = {c: 0 for c in C.CLASSES}
        for value, cls in zip(mine, sched["assign"]):
            demand[cls] += value
        for _s in others:
            hand = sorted(deck[: sched["draw"]], reverse=True)
            deck = deck[sched["draw"] :]
            for value, cls in zip(hand, sched["assign"]):
                demand[cls] += value
        for cls in sched["extra"]:
            demand[cls] += deck.pop()
        out.append(demand)
    return out


def _expected_cars(state: AutoState, seat: str) -> list[int]:
    """Cars expected on each space at phase 7: what is there, plus (phase 3) the middle of the
    range for other players' factories that have not produced yet."""
    cars = [sp.cars for sp in state.spaces]
    if state.phase == 3:
        board = C.board()
        for i, sp in enumerate(state.spaces):
            if sp.owner not in (None, seat) and sp.factories and not sp.closed and not sp.cars:
                if any(state.spaces[j].cars for j in range(len(state.spaces)) if state.spaces[j].owner == sp.owner):
                    continue  # that player produced already this round
                lo, hi = C.production_range(board[i]["cls"], sp.factories)
                cars[i] = (lo + hi) // 2
    return cars


def _class_sales(state: AutoState, cars: list[int], cls: str, demand: int, marks: dict[int, int]) -> dict[int, int]:
    """Phase 7 for one class: newest model first, 1 car per pass (+1 per marker)."""
    sold: dict[int, int] = {}
    left = demand
    spaces = [i for i in reversed(C.class_spaces(cls)) if cars[i] > 0 and state.spaces[i].owner is not None]
    stock = {i: cars[i] for i in spaces}
    while left > 0:
        any_ = False
        for i in spaces:
            if left <= 0:
                break
            if stock[i] <= 0:
                continue
            sp = state.spaces[i]
            k = min(1 + int(sp.bonus) + int(sp.discount) + marks.get(i, 0), stock[i], left)
            stock[i] -= k
            left -= k
            sold[i] = sold.get(i, 0) + k
            any_ = True
        if not any_:
            break
    return sold


def _my_presales(state: AutoState, seat: str, cars: list[int]) -> list[int]:
    """Cars left on ``seat``'s spaces after its Howard (phase 4) and distributor (phase 5) sales."""
    left = list(cars)
    p = state.players[seat]
    board = C.board()
    if state.phase <= 4 and p.character == "howard":
        k = C.rules()["howard_sales"]
        for i in sorted(range(len(left)), key=lambda j: -left[j]):
            if k <= 0:
                break
            if state.spaces[i].owner == seat and board[i]["cls"] in C.rules()["howard_price"]:
                n = min(k, left[i])
                left[i] -= n
                k -= n
    if state.phase <= 5:
        moves = C.rules()["distributor_moves"]
        cap = R.lane_capacity(state) // len(state.seats) + 1
        used = {c: 0 for c in C.CLASSES}
        for src in ("high", "mid", "low"):
            for _ in range(p.dist[src] - p.dist_used[src]):
                best = None
                for lane in moves[src]:
                    if used[lane] >= cap:
                        continue
                    for i in C.class_spaces(lane):
                        if state.spaces[i].owner == seat and left[i] > 0:
                            price = C.rules()["price"][lane]
                            if best is None or price > best[0]:
                                best = (price, lane, i)
                if best is not None:
                    left[best[2]] -= 1
                    used[best[1]] += 1
    return left


def _money_of(
    state: AutoState,
    seat: str,
    cars: list[int],
    samples: list[dict[str, int]],
    marks: dict[int, int],
    disc: frozenset[int] = frozenset(),
) -> float:
    """Expected phase-7 revenue less the loss points of unsold cars, for ``seat``; ``marks``:
    extra markers per space to be placed, ``disc``: of them, the discount markers."""
    left = _my_presales(state, seat, cars)
    Rl = C.rules()
    pc = _point_cost_now(state)
    classes = {C.board()[i]["cls"] for i, sp in enumerate(state.spaces) if sp.owner == seat and left[i] > 0}
    total = 0.0
    for demand in samples:
        for cls in classes:
            sold = _class_sales(state, left, cls, demand[cls], marks)
            for i in C.class_spaces(cls):
                if state.spaces[i].owner != seat or left[i] <= 0:
                    continue
                k = sold.get(i, 0)
                cut = state.spaces[i].discount or i in disc
                price = Rl["discount_price"][cls] if cut else Rl["price"][cls]
                total += k * price - (left[i] - k) * pc
    return total / len(samples)


def _presale_revenue(state: AutoState, seat: str, cars: list[int]) -> float:
    left = _my_presales(state, seat, cars)
    Rl = C.rules()
    board = C.board()
    rev = 0.0
    for i, sp in enumerate(state.spaces):
        if sp.owner == seat and cars[i] > left[i]:
            rev += (cars[i] - left[i]) * Rl["price"][board[i]["cls"]]
    return rev


def hard_produce(state: AutoState, seat: str, space: int, counts: list[int]) -> int:
    samples = _demand_samples(state, seat)
    cls = C.board()[space]["cls"]
    cost = C.car_cost(cls, state.spaces[space].parts)
    base = _expected_cars(state, seat)
    reserve = _reserve(state, seat)
    money = state.players[seat].money
    best, best_n = -1e9, 0
    for n in counts:
        if n and money - n * cost < reserve * 0.5:
            continue
        cars = list(base)
        cars[space] = state.spaces[space].cars + n
        value = _money_of(state, seat, cars, samples, {}) + _presale_revenue(state, seat, cars) - n * cost
        if value > best + 1e-9:
            best, best_n = value, n
    return best_n


def _hard_exec(state: AutoState, seat: str, legal: list[Any]) -> Any:
    """Markers where the forecast says they sell more than they cost; the close the easy AI would make."""
    samples = _demand_samples(state, seat)
    cars = _expected_cars(state, seat)
    now = _money_of(state, seat, cars, samples, {})
    best: tuple[float, Any] = (0.0, Exec(choice="pass"))
    rd_value = 0.0 if state.round == C.rules()["rounds"] else 25.0  # a cube saves a jump fee later
    if Exec(choice="bonus") in legal:
        for i in R.marker_spaces(state, seat, "bonus"):
            if cars[i] > 0:
                gain = _money_of(state, seat, cars, samples, {i: 1}) - now - rd_value * state.bonus_left[0]
                if gain > best[0]:
                    best = (gain, Exec(choice="bonus"))
    for choice, size in (("discount2", 2), ("discount1", 1)):
        if Exec(choice=choice) not in legal:
            continue
        spaces = [i for i in R.marker_spaces(state, seat, "discount") if cars[i] > 0]
        if len(spaces) < size:
            continue
        gains = sorted((_discount_gain(state, seat, cars, samples, i, now) for i in spaces), reverse=True)
        gain = sum(gains[:size])
        if gain > best[0] and all(g > 0 for g in gains[:size]):
            best = (gain, Exec(choice=choice))
    if state.round < C.rules()["rounds"] and not state.pass_order:
        # the first to pass chooses first next round (Ford again, decisive in self-play): that
        # beats any marker; only a close that pays is worth giving it up
        best = (0.0, Exec(choice="pass"))
    if Exec(choice="close") in legal:
        last = state.round == C.rules()["rounds"]
        for i in R.closable(state, seat):
            if last:
                # a factory is worth only its refund now; its remaining cars would leave unsold
                without = list(cars)
                without[i] = 0
                gain = R.close_refund(state, i) - (now - _money_of(state, seat, without, samples, {}))
            else:
                gain = _close_value(state, i) - 400.0 * state.spaces[i].factories * (C.rules()["rounds"] - state.round)
            if gain > best[0]:
                best = (gain, Exec(choice="close"))
    return best[1]


def _discount_gain(
    state: AutoState, seat: str, cars: list[int], samples: list[dict[str, int]], space: int, now: float
) -> float:
    return _money_of(state, seat, cars, samples, {space: 1}, frozenset({space})) - now


def _hard_marker(state: AutoState, seat: str, legal: list[Any], kind: str) -> Any:
    samples = _demand_samples(state, seat)
    cars = _expected_cars(state, seat)
    if kind == "bonus":
        return max(legal, key=lambda a: (_money_of(state, seat, cars, samples, {a.space: 1}), a.space))
    now = _money_of(state, seat, cars, samples, {})
    return max(legal, key=lambda a: (_discount_gain(state, seat, cars, samples, a.space, now), a.space))


def choose_hard(state: AutoState, seat: str) -> Any:
    """The hard level: the easy AI's plan, with production, markers and distributors by forecast."""
    legal = R.legal(state, seat) if seat in R.to_act(state) else []
    if not legal:
        raise GameError("nothing_to_do", "core.error.nothing_to_do", seat=seat)
    if len(legal) == 1:
        return legal[0]
    pend = state.pending
    if pend is not None:
        if pend.kind == "produce":
            counts = [a.count for a in legal if isinstance(a, Produce)]
            return Produce(space=pend.queue[0], count=hard_produce(state, seat, pend.queue[0], counts))
        if pend.kind in ("bonus", "discount"):
            return _hard_marker(state, seat, legal, pend.kind)
        if pend.kind == "close" and pend.origin == "exec":
            return max(legal, key=lambda a: _hard_close_gain(state, seat, a.space))
        return choose(state, seat, HARD_BY_SEATS[len(state.seats)])
    if state.phase == 6:
        return _hard_exec(state, seat, legal)
    if state.phase == 2 and pend is None:
        chars = C.characters()
        return max(
            legal,
            key=lambda a: (HARD_PICK[a.character] + 0.3 * state.char_rd.get(a.character, 0), -chars.index(a.character)),
        )
    return choose(state, seat, HARD_BY_SEATS[len(state.seats)])


def _hard_close_gain(state: AutoState, seat: str, space: int) -> float:
    samples = _demand_samples(state, seat)
    cars = _expected_cars(state, seat)
    without = list(cars)
    without[space] = 0
    lost = _money_of(state, seat, cars, samples, {}) - _money_of(state, seat, without, samples, {})
    return R.close_refund(state, space) + 100 * _loss_rank(state, space) - lost

"""Standing orders on the platform's side (issue 31): what a table stores of its
members' armed orders, and the autopilot's policy that applies them.

A table's orders are one JSON text in its row (``GameRow.orders_json``, store/orders.py),
private to each owner: the armed orders (:class:`Standing`: the engine's
:class:`~engine.orders.ArmedOrder` with its owner, its label and, for an order whose
timing is hidden, when its pending step falls due) and the last notices of orders that
switched themselves off (:class:`Notice`, worded in the owner's private message).

:class:`OrderPolicy` (source "order") is the autopilot's policy (tables/core/autopilot.py):
for a seat to act it asks ``Game.order_step`` of each of the seat's armed orders, in the
order they were armed: Fire -> the step is taken (``uses`` counted down, the order removed
at 0), Lapse -> the order is removed and its owner told why (a notice, and a private
message owed in the same commit), Hold -> nothing.  An order whose timing is hidden
(``hide_timing``) does not fire at once: its step falls due after a random delay
(:data:`DELAY`, from ``secrets``, never the game's RNG), which the scheduler finds through
``games.orders_due`` and the autopilot applies then; a member who acts first simply acts.
A trigger that decides a seat's step itself (its timer ran out, the league's deadline)
fires the seat's hidden orders at once: its moment tells nothing.

The policy keeps its working copy of the orders on the row it was built from
(:func:`book`), so whichever change commits the row writes what the orders did in the
same compare-and-swap (:func:`pending`), whatever path ran the autopilot.

Every commit of a turn also looks at every armed order of every seat (:func:`sweep`,
the kernel's ``turn_change``), not only the seats asked: an order whose scope ended (its
phase, round or game marker changed) and an order of a member who no longer holds its
seat (handed over, resigned, voted away, played out at a league's deadline) are removed
and their owner told why, in that commit's private message.  The game's own reasons to
switch an order off are asked when its seat is next to act, as before (docs/rulings.md).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Collection, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine.base import BaseState, Game, Msg
from engine.i18n import t
from engine.orders import NO_LONGER_LEGAL, SCOPE_ENDED, ArmedOrder, Fire, Lapse, OrderStep
from store import GameRow, OrdersChange
from tables.rules.decisions import order_by, order_kind

log = logging.getLogger("tabletop.orders")

#: the bounds of the random delay of an order whose timing is hidden (seconds; docs/rulings.md)
DELAY = (120.0, 1200.0)
#: notices kept in a table's orders (the oldest are dropped beyond this)
NOTICES = 16
#: why a member's orders went with their seat (the notice's reason, catalog "standing"), by
#: the change that unseated them; without one, by who holds the seat now ("member", "ai")
UNSEATED = ("member", "ai", "resigned", "vote", "league")
#: the reason of an order whose scope an undo took the game back out of
TAKEN_BACK = "standing.taken_back"


def random_delay() -> float:
    """A delay in :data:`DELAY`, from the operating system's randomness (never the game's)."""
    lo, hi = DELAY
    return lo + secrets.randbelow(int(hi - lo) + 1)


class Standing(ArmedOrder):
    """An armed order as the table stores it: the engine's, with its owner and label;
    ``due_at``/``due_step``: when its hidden-timing step falls due, for which state step."""

    user: int
    label: Msg
    due_at: float | None = None
    due_step: int | None = None


class Notice(BaseModel):
    """An order that switched itself off, for its owner's private message at ``version``."""

    model_config = ConfigDict(extra="ignore")
    user: int
    seat: str
    version: int
    kind: str
    label: Msg
    reason: Msg


class Book(BaseModel):
    model_config = ConfigDict(extra="ignore")
    armed: list[Standing] = Field(default_factory=list)
    notices: list[Notice] = Field(default_factory=list)


def parse(text: str | None) -> Book:
    """The orders stored as ``text`` (none when empty; a damaged text holds none, logged)."""
    if not text:
        return Book()
    try:
        return Book.model_validate_json(text)
    except (ValidationError, ValueError) as exc:
        log.warning("unreadable standing orders dropped: %s", str(exc)[:200])
        return Book()


def dump(b: Book) -> str | None:
    if not b.armed and not b.notices:
        return None
    return b.model_dump_json(exclude_defaults=False)


def book(row: GameRow) -> Book:
    """The working copy of ``row``'s orders (read once per row object)."""
    found = row.__dict__.get("_orders_book")
    if found is None:
        found = row.__dict__["_orders_book"] = parse(row.orders_json)
    return found


def due(b: Book) -> float | None:
    times = [o.due_at for o in b.armed if o.due_at is not None]
    return min(times) if times else None


def pending(row: GameRow, to_act: Sequence[str] | None = None) -> OrdersChange | None:
    """What the orders of ``row`` became since read (None: unchanged), for its commit; a
    delayed step of a seat no longer to act (``to_act``) is no longer due."""
    ended = to_act is not None and not to_act
    b = book(row) if ended and row.orders_json else row.__dict__.get("_orders_book")
    if b is None:
        return None
    if ended:  # the game ended: every order with it
        b.armed = []
    for o in b.armed:
        if o.due_at is not None and to_act is not None and o.seat not in to_act:
            o.due_at = o.due_step = None
    text = dump(b)
    if text == row.orders_json:
        return None
    return OrdersChange(expected=row.orders_json, orders=text, due=due(b))


def written(row: GameRow, change: OrdersChange | None) -> None:
    """Keep ``row`` in step with the orders a commit wrote."""
    if change is not None:
        row.orders_json = change.orders
        row.__dict__.pop("_orders_book", None)


def notified(row: GameRow, version: int) -> list[int]:
    """The members a notice of ``row``'s orders is owed with the commit making ``version``."""
    b = row.__dict__.get("_orders_book")
    return sorted({n.user for n in b.notices if n.version == version}) if b is not None else []


def notices(row: GameRow, user_id: int, version: int) -> list[Notice]:
    """The notices for ``user_id`` written with ``version`` (their private message words them)."""
    return [n for n in parse(row.orders_json).notices if n.user == user_id and n.version == version]


def noticed(row: GameRow, version: int) -> list[int]:
    """The members told with ``version`` of an order that switched off (as stored; one who
    no longer holds a seat there is told too: their seat went with their orders)."""
    return sorted({n.user for n in parse(row.orders_json).notices if n.version == version})


def notice_lines(row: GameRow, user_id: int, version: int, locale: str | None) -> list[str]:
    """The member's notices of orders that switched off with ``version``, in ``locale``."""
    return [
        t("core.order.switched_off", locale, label=n.label.text(locale), reason=n.reason.text(locale))
        for n in notices(row, user_id, version)
    ]


def mine(row: GameRow, user_id: int) -> list[Standing]:
    """The orders ``user_id`` has armed at ``row`` (for their seat now)."""
    seat = row.seat_of(user_id)
    return [o for o in book(row).armed if o.user == user_id and o.seat == seat]


def lapse(row: GameRow, order: Standing, reason: Msg) -> None:
    """Switch ``order`` off and note why for its owner (written with the next commit)."""
    b = book(row)
    b.armed = [o for o in b.armed if o is not order]
    b.notices.append(
        Notice(user=order.user, seat=order.seat, version=row.version + 1, kind=order.kind, label=order.label,
               reason=reason)
    )  # fmt: skip
    del b.notices[:-NOTICES]


def sweep(row: GameRow, game: Game, state: BaseState, *, unseated: str | None = None, undo: bool = False) -> None:
    """Every armed order of ``row`` checked as the commit of ``state`` is built, every seat's,
    not only the seats the autopilot asked: one whose member no longer holds its seat is
    removed (``unseated``: why, one of :data:`UNSEATED`), and, while the game goes on, one
    whose scope's marker moved (``undo``: the game was taken back out of it); each owner is
    told in this commit's private message (:func:`lapse`).  Nothing to do without orders."""
    if not row.orders_json and "_orders_book" not in row.__dict__:
        return
    b = book(row)
    over = bool(b.armed) and game.outcome(state) is not None
    for order in list(b.armed):
        owner = row.user_of(order.seat)
        if owner != order.user:
            why = unseated if unseated in UNSEATED else ("ai" if owner is None else "member")
            lapse(row, order, Msg(key=f"standing.unseated.{why}"))
        elif not over:
            try:
                moved = game.order_marker(state, order.scope) != order.marker
            except Exception:  # noqa: BLE001 -- a game's broken hook switches its order off, never the table
                log.exception("table %s: order %s of seat %s failed; switched off", row.id, order.kind, order.seat)
                lapse(row, order, Msg(key=NO_LONGER_LEGAL))
                continue
            if moved:
                lapse(row, order, Msg(key=TAKEN_BACK if undo else SCOPE_ENDED))


def stored_by(order: Standing) -> str:
    """The log's source of a step ``order`` took ("order:" and its kind and label)."""
    return order_by(order.kind, order.label)


def taken_back(row: GameRow, user_id: int, steps: Sequence[Any]) -> None:
    """An undo by ``user_id`` takes back ``steps`` (log rows): their orders that took any of
    them are disarmed, so the member decides again themselves; none is re-armed (one used
    up stays used: docs/rulings.md, "Standing orders")."""
    kinds = {order_kind(a.by or "") for a in steps if a.user_id == user_id}
    b = book(row)
    b.armed = [o for o in b.armed if not (o.user == user_id and o.kind in kinds)]


def forgotten(value: Any, anon_id: int) -> Any:
    """A table's stored orders once a forget put ``anon_id`` in a member's place: theirs
    (armed, and the notices for them) are gone (store/privacy.py's forget step); None when
    no order or notice is left (as a table nobody armed one at)."""
    if not isinstance(value, dict):
        return value
    for key in ("armed", "notices"):
        if isinstance(value.get(key), list):
            value[key] = [o for o in value[key] if not (isinstance(o, dict) and o.get("user") == anon_id)]
    return None if not value.get("armed") and not value.get("notices") else value


def forgotten_due(value: Any) -> dict[str, Any]:
    """``games.orders_due`` for the orders a forget left (its step's companion): the next due
    step of an order still armed, else none, so the scheduler stops reading the row."""
    try:
        left = Book.model_validate(value) if value is not None else Book()
    except ValidationError:
        left = Book()
    return {"orders_due": due(left)}


class OrderPolicy:
    """The members' standing orders, applied by the autopilot (see the module docstring).
    ``now``: the kernel's clock; ``delay``: the random delay of a hidden-timing step;
    ``at_once``: seats whose hidden-timing orders fire at once (True: every seat)."""

    source = "order"

    def __init__(
        self,
        row: GameRow,
        now: Callable[[], float],
        delay: Callable[[], float] = random_delay,
        at_once: Collection[str] | bool = (),
    ) -> None:
        self.row = row
        self.now = now
        self.delay = delay
        self.at_once = at_once
        #: the order that took the last step (its source in the log)
        self.fired: Standing | None = None

    def decide(self, game: Game, row: GameRow, state: BaseState, seat: str) -> Any | None:
        owner = row.user_of(seat)
        b = book(self.row)
        if owner is None or not b.armed:
            return None
        for order in [o for o in b.armed if o.seat == seat]:
            if order.user != owner:  # the seat changed hands: the commit's sweep removes it, and says so
                continue
            step = self._ask(game, state, seat, order)
            if isinstance(step, Lapse):
                lapse(self.row, order, step.reason)
                continue
            if not isinstance(step, Fire):  # not a decision it covers: nothing falls due
                order.due_at = order.due_step = None
                continue
            instant = self.at_once is True or (not isinstance(self.at_once, bool) and seat in self.at_once)
            if order.hide_timing and not instant:
                if order.due_step != state.step or order.due_at is None:
                    # the seat's decision waits a random while; another seat's move meanwhile
                    # does not postpone it (a due time still ahead is kept)
                    keep = order.due_at is not None and order.due_at > self.now()
                    order.due_at = order.due_at if keep else self.now() + self.delay()
                    order.due_step = state.step
                    return None
                if self.now() < order.due_at:
                    return None
            order.due_at = order.due_step = None
            if order.uses is not None:
                order.uses -= 1
                if order.uses <= 0:
                    b.armed = [o for o in b.armed if o is not order]
            self.fired = order
            return step.action
        return None

    def by(self) -> str:
        assert self.fired is not None
        return stored_by(self.fired)

    @staticmethod
    def _ask(game: Game, state: BaseState, seat: str, order: Standing) -> OrderStep:
        try:
            return game.order_step(state, seat, order)
        except Exception:  # noqa: BLE001 -- a game's broken hook switches its order off, never the table
            log.exception("table order %s of seat %s failed; switched off", order.kind, seat)
            return Lapse(reason=Msg(key=NO_LONGER_LEGAL))


def policies(row: GameRow, now: Callable[[], float], delay: Callable[[], float], at_once: Any = ()) -> Sequence[Any]:
    """The standing-order policy of ``row`` (none while nobody armed one)."""
    if not row.orders_json and "_orders_book" not in row.__dict__:
        return []
    return [OrderPolicy(row, now, delay, at_once)]

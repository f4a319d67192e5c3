"""The table service: the one door for callers (cogs/, web/, bot.py, bench/).

:class:`TableService` keeps the public names it always had; each call goes to
the module that owns it, and only the kernel commits.  Its verbs are written in one
verb class per layer, which it inherits: tables/core/facade.py (the kernel),
tables/play/facade.py, tables/seeing/facade.py and tables/people/facade.py; a new
verb goes in its layer's class, named as the room's method it calls.  The rooms:

* tables/core/kernel.py -- load and validate a table, advance it (the seat-filler AI
  and forced choices), the one compare-and-swap commit and what it owes the channel;
* tables/play/lobby.py -- open, join, start, cancel, abandon; lobby and thread limits;
* tables/play/turns.py -- a seat's action, a turn timer or time bank running out;
* tables/play/seats.py -- undo, hand-over, resign; tables/play/votes.py -- ballots;
* tables/play/schedule.py -- due timeouts and reminders, vacations;
* tables/play/orders.py -- a member's standing orders (arm, disarm, a delayed step due);
* tables/play/history.py -- the log's table, export, replay;
* tables/people/mine.py -- ``/mine``, follows, privacy; tables/play/campaigns.py -- campaigns;
* tables/play/views.py -- what a seat is offered, the board image, the time banks;
* tables/seeing/verbs.py -- what a viewer sees (tables/seeing/board.py, catchup.py), read down from :attr:`reads`;
* tables/play/delivery.py -- the outbox of boards and notices owed to channels.

The names others import from here (results, refusals, log entries) live in
tables/core/common.py and tables/play/delivery.py and are re-exported.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from store import Store
from tables.core.common import KernelSetting
from tables.core.facade import KernelVerbs
from tables.core.kernel import Kernel
from tables.people.calendar import Calendar
from tables.people.community import Community
from tables.people.facade import PeopleVerbs
from tables.people.mine import People
from tables.people.names import MemberNames
from tables.people.notify import Notify
from tables.people.privacy import Privacy
from tables.people.web_sessions import WebSessions
from tables.play.campaigns import Campaigns
from tables.play.delivery import Outbox
from tables.play.facade import PlayVerbs
from tables.play.history import History
from tables.play.lobby import Lobby
from tables.play.orders import Orders
from tables.play.schedule import Schedule
from tables.play.seats import Seats
from tables.play.turns import Turns
from tables.play.views import Views
from tables.play.votes import Votes
from tables.rules.settings import Settings
from tables.seeing.facade import SeeingVerbs
from tables.seeing.live import TableWatch
from tables.seeing.reads import Reads
from tables.seeing.verbs import Seeing


class TableService(KernelVerbs, PlayVerbs, SeeingVerbs, PeopleVerbs):
    """Every call a caller makes on tables, each handed to the module that owns it: the
    verbs are the layers' verb classes (tables/<layer>/facade.py); this class makes the
    rooms they hand their calls to, and holds the kernel's shared settings."""

    def __init__(
        self,
        store: Store,
        executor=None,
        max_ai_steps: int = 2000,
        *,
        settings: Settings | None = None,
        clock: Callable[[], float] = time.time,
    ):
        self.kernel = kernel = Kernel(store, executor, max_ai_steps, settings=settings, clock=clock)
        self.views = Views(kernel)
        self.lobbies = Lobby(kernel)
        self.campaigns = Campaigns(kernel, self.lobbies.limits)
        self.turns = Turns(kernel, self.views)
        self.seats = Seats(kernel)
        self.votes = Votes(kernel, self.seats)
        self.schedule = Schedule(kernel, self.seats)
        self.history = History(kernel)
        self.people = People(kernel)
        self.outbox = Outbox(kernel)
        self.orders = Orders(kernel)
        self.community = Community(kernel)
        #: the web companion's sign-in links and sessions (tables/people/web_sessions.py)
        self.web_sessions = WebSessions(kernel.backend, clock=kernel.clock)
        #: the watcher of table changes behind the web companion's live pages (tables/seeing/live.py)
        self.watch = TableWatch(kernel.backend)
        #: members' display names, stored where every process reads them (tables/people/names.py)
        self.names = MemberNames(kernel.backend, kernel.clock)
        self.people.privacy.on_forget(self.names.forget)
        #: each member's calendar feed (tables/people/calendar.py)
        self.calendar = Calendar(kernel, self.people)
        #: each member's notification policy (tables/people/notify.py)
        self.notify = Notify(kernel)
        #: the rooms a board reads (tables/seeing/reads.py): the builder never calls back up through here
        self.reads = Reads(kernel, self.views, self.history)
        self.seeing = Seeing(self.reads)

    # ------------------------------------------- the kernel's settings, shared
    @property
    def store(self) -> Store:
        return self.kernel.backend

    @property
    def settings(self) -> Settings:
        return self.kernel.settings

    @property
    def clock(self) -> Callable[[], float]:
        return self.kernel.clock

    @property
    def executor(self) -> Any:
        return self.kernel.executor

    @property
    def privacy(self) -> Privacy:
        return self.people.privacy

    @property
    def owner(self) -> str:
        """This service's name in the outbox leases (one per process)."""
        return self.kernel.owner

    #: the kernel's settings, read and set here: the outbox lease (seconds), the AI's step cap,
    #: each stage's wall times when a dict (bench/), a forced single choice taken for a human
    #: seat (said in the log), a state cached every this many log positions (0: never)
    lease = KernelSetting[float]()
    max_ai_steps = KernelSetting[int]()
    timings = KernelSetting[dict[str, list[float]] | None]()
    auto_forced = KernelSetting[bool]()
    snapshot_every = KernelSetting[int]()

    def stage(self, name: str):
        return self.kernel.stage(name)

"""Flood control: how many interactions a member may send in a short time.

Discord-free state for the one interaction check in ``cogs/kit/flood.py``.  A
member who sends more than ``limit`` interactions (commands, clicks, selects)
within ``window`` seconds is refused until they slow down: every attempt
counts, refused ones too, so a member who keeps hammering stays refused, and
one who pauses for ``window`` seconds is served again.  Each member is counted
alone; nobody else is slowed by a flooder.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

DEFAULT_LIMIT = 5
DEFAULT_WINDOW = 2.0  # seconds


class FloodGate:
    def __init__(
        self,
        limit: int = DEFAULT_LIMIT,
        window: float = DEFAULT_WINDOW,
        clock: Callable[[], float] = time.monotonic,
        *,
        sweep_every: int = 1024,
    ) -> None:
        if limit < 1 or window <= 0:
            raise ValueError("limit must be at least 1 and window positive")
        self.limit = limit
        self.window = window
        self.clock = clock
        self.sweep_every = sweep_every
        self._seen: dict[int, deque[float]] = {}  # member -> times of their last ``limit`` attempts
        self._calls = 0

    def admit(self, member: int) -> bool:
        """Record one attempt by ``member`` now; True when it may go ahead."""
        now = self.clock()
        self._calls += 1
        if self._calls % self.sweep_every == 0:
            self._sweep(now)
        times = self._seen.get(member)
        if times is None:
            times = self._seen[member] = deque(maxlen=self.limit)
        ok = len(times) < self.limit or now - times[0] >= self.window
        times.append(now)
        return ok

    def retry_after(self, member: int) -> float:
        """Seconds until ``member``'s next attempt would be admitted (0 when now)."""
        times = self._seen.get(member)
        if times is None or len(times) < self.limit:
            return 0.0
        return max(0.0, self.window - (self.clock() - times[0]))

    def _sweep(self, now: float) -> None:
        """Forget members who have been quiet for a whole window (bounded memory)."""
        for member in [m for m, times in self._seen.items() if not times or now - times[-1] >= self.window]:
            del self._seen[member]

    def __len__(self) -> int:
        return len(self._seen)

"""Deterministic, serialisable randomness.

Every random outcome of a game comes from one :class:`Rng` stored in the game
state.  It is a SplitMix64 generator whose whole state is one integer, so it
round-trips through JSON exactly.  Outcomes can be *rigged*: ``rig`` holds, per
named die or deck, the values the next calls must produce; tests and the
driver use it to play a rule example exactly.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, TypeVar

from pydantic import BaseModel, Field

T = TypeVar("T")
_MASK = (1 << 64) - 1


class RigError(ValueError):
    """A forced (rigged) value that cannot happen at the draw that would use it."""


class Rng(BaseModel):
    state: int = 0
    rig: dict[str, list[Any]] = Field(default_factory=dict)

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        return cls(state=seed & _MASK)

    # -- primitive -----------------------------------------------------
    def _next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def _below(self, n: int) -> int:
        """Uniform integer in [0, n) without modulo bias."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (_MASK + 1) - ((_MASK + 1) % n)
        while True:
            x = self._next()
            if x < limit:
                return x % n

    def _forced(self, name: str) -> tuple[bool, Any]:
        queue = self.rig.get(name)
        if queue:
            value = queue.pop(0)
            if not queue:
                del self.rig[name]
            return True, value
        return False, None

    # -- public --------------------------------------------------------
    def randint(self, name: str, lo: int, hi: int) -> int:
        """Integer in [lo, hi] for the die or draw called ``name``."""
        forced, value = self._forced(name)
        if forced:
            if (
                isinstance(value, bool)
                or not isinstance(value, (int, float))
                or (isinstance(value, float) and not (math.isfinite(value) and value.is_integer()))
            ):
                raise RigError(f"rigged {name}={value!r} is not a whole number")
            value = int(value)
            if not lo <= value <= hi:
                raise RigError(f"rigged {name}={value} outside {lo}..{hi}")
            return value
        return lo + self._below(hi - lo + 1)

    def roll(self, name: str, sides: int = 6) -> int:
        return self.randint(name, 1, sides)

    def choice(self, name: str, seq: Sequence[T]) -> T:
        """One element of ``seq``; a rigged value must be an element."""
        if not seq:
            raise ValueError("choice from an empty sequence")
        forced, value = self._forced(name)
        if forced:
            if value not in seq:
                raise RigError(f"rigged {name}={value!r} is not one of the options")
            return value
        return seq[self._below(len(seq))]

    def shuffle(self, name: str, seq: Sequence[T]) -> list[T]:
        """A shuffled copy.  Rigged values (in order) come first."""
        rest = list(seq)
        head: list[T] = []
        forced = self.rig.pop(name, None) or []
        for value in forced:
            if value not in rest:
                raise RigError(f"rigged {name} card {value!r} is not in the deck")
            rest.remove(value)
            head.append(value)
        for i in range(len(rest) - 1, 0, -1):
            j = self._below(i + 1)
            rest[i], rest[j] = rest[j], rest[i]
        return head + rest

    def force(self, name: str, values: Sequence[Any]) -> None:
        """Append forced outcomes for ``name`` (used by tests and the driver)."""
        self.rig.setdefault(name, []).extend(values)

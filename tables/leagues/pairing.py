"""League pairings: pure and deterministic (the same standings give the same
tables), no database, no Discord.  docs/rulings.md "Leagues" states the rules.

Every function takes the players in standing order, best first (the caller
sorts by points, tie-breaks, then rating: ties are broken by rating there), and
returns a :class:`Pairing`: the tables of the round (each a tuple of players in
seat order, first seat first) and the players with a bye.

* :func:`round_robin`: the circle method; every two players meet once over
  ``n - 1`` rounds (``n`` for an odd count, one bye per round).
* :func:`swiss`: two-seat games.  Players are paired down the standings (1st v
  2nd, 3rd v 4th, ...), taking the first pairing in that order with no rematch
  (depth-first search); a rematch is only made when none can be avoided.  With an
  odd count the bye goes to a player with the fewest byes so far, the lowest in
  the standings first, choosing one that leaves a rematch-free round when there is one.
* :func:`pods`: multiplayer games.  Consecutive players in the standings share a
  table (pods of ``seats``, smaller ones at the bottom when the count does not
  divide, never below ``min_seats``); who cannot be seated gets a bye, chosen
  as in Swiss.

Seat order inside a table: the player who has had the first seat least often
sits first (the higher in the standings on a tie), so first-move advantage is
shared out over the season.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

#: depth-first steps one Swiss search may take before it settles for fewer rematches
#: (far more than a real league needs: 64 players take a few hundred)
SEARCH_BUDGET = 200_000


@dataclass
class Pairing:
    tables: list[tuple[int, ...]] = field(default_factory=list)
    byes: list[int] = field(default_factory=list)
    rematches: int = 0  # pairs that had met before (Swiss: only when unavoidable)


def met_key(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def seat_order(players: Sequence[int], rank: Mapping[int, int], firsts: Mapping[int, int]) -> tuple[int, ...]:
    """Fewest first seats so far sits first; the higher-ranked on a tie."""
    return tuple(sorted(players, key=lambda p: (firsts.get(p, 0), rank.get(p, 0))))


def round_robin(players: Sequence[int], round_index: int) -> Pairing:
    """Round ``round_index`` (0-based) of a single round robin by the circle
    method; ``players`` in seeding order.  Seats alternate by round so each
    player has the first seat about half the time."""
    order: list[int | None] = list(players)
    if len(order) % 2:
        order.append(None)
    n = len(order)
    if n < 2:
        return Pairing(byes=[p for p in order if p is not None])
    r = round_index % (n - 1)
    rest = order[1:]
    rest = rest[len(rest) - r :] + rest[: len(rest) - r]  # rotate right by r
    ring = [order[0]] + rest
    out = Pairing()
    for i in range(n // 2):
        a, b = ring[i], ring[n - 1 - i]
        if a is None or b is None:
            out.byes.append(a if b is None else b)  # type: ignore[arg-type]
            continue
        # the fixed player alternates seats by round; the others by their place on the ring
        out.tables.append((a, b) if (i == 0 and r % 2 == 0) or (i > 0 and i % 2 == 1) else (b, a))
    return out


class _Budget(Exception):
    pass


def _rematch_free(
    order: Sequence[int], met: Collection[tuple[int, int]], budget: list[int]
) -> list[tuple[int, int]] | None:
    """The first perfect matching down ``order`` with no pair in ``met`` (depth-first), or None."""
    n = len(order)
    used = [False] * n
    out: list[tuple[int, int]] = []
    # can ever meet: players with no possible opponent left make a branch fail at once
    allowed = [[j for j in range(n) if j != i and met_key(order[i], order[j]) not in met] for i in range(n)]

    def rec(i: int) -> bool:
        while i < n and used[i]:
            i += 1
        if i == n:
            return True
        used[i] = True
        for j in allowed[i]:
            if j < i or used[j]:
                continue
            budget[0] -= 1
            if budget[0] < 0:
                raise _Budget
            used[j] = True
            out.append((order[i], order[j]))
            if rec(i + 1):
                return True
            used[j] = False
            out.pop()
        used[i] = False
        return False

    try:
        return out if rec(0) else None
    except _Budget:
        return None


def _fewest_rematches(order: Sequence[int], met: Collection[tuple[int, int]]) -> list[tuple[int, int]]:
    """Greedy down the standings: the nearest opponent not met before, else the nearest."""
    left = list(order)
    out = []
    while len(left) >= 2:
        a = left.pop(0)
        j = next((k for k, b in enumerate(left) if met_key(a, b) not in met), 0)
        out.append((a, left.pop(j)))
    return out


def _bye_candidates(order: Sequence[int], byes: Mapping[int, int]) -> list[int]:
    """Players with the fewest byes so far, lowest in the standings first."""
    fewest = min(byes.get(p, 0) for p in order)
    return [p for p in reversed(order) if byes.get(p, 0) == fewest]


def swiss(
    order: Sequence[int],
    met: Collection[tuple[int, int]] = (),
    byes: Mapping[int, int] | None = None,
    firsts: Mapping[int, int] | None = None,
    budget: int = SEARCH_BUDGET,
) -> Pairing:
    """One Swiss round for a two-seat game; ``met``: pairs (as :func:`met_key`) that played before."""
    byes = byes or {}
    firsts = firsts or {}
    met = set(met)
    rank = {p: i for i, p in enumerate(order)}
    left = [budget]
    if len(order) % 2:
        candidates = _bye_candidates(order, byes)
        choice: tuple[int, list[tuple[int, int]]] | None = None
        for bye in candidates:
            rest = [p for p in order if p != bye]
            pairs = _rematch_free(rest, met, left)
            if pairs is not None:
                choice = (bye, pairs)
                break
        if choice is None:
            bye = candidates[0]
            choice = (bye, _fewest_rematches([p for p in order if p != bye], met))
        bye_list, pairs = [choice[0]], choice[1]
    else:
        bye_list = []
        found = _rematch_free(order, met, left)
        pairs = found if found is not None else _fewest_rematches(order, met)
    tables = [seat_order(p, rank, firsts) for p in pairs]
    return Pairing(tables=tables, byes=bye_list, rematches=sum(1 for a, b in pairs if met_key(a, b) in met))


def pod_sizes(n: int, seats: int, min_seats: int) -> list[int]:
    """Table sizes for ``n`` players: as few tables as fit, as even as possible,
    larger ones first, none below ``min_seats`` (whoever is left over gets a bye)."""
    if n < min_seats or seats < 1:
        return []
    k = -(-n // seats)
    while k > 0 and n // k < min_seats:
        k -= 1
    if k == 0:
        return []
    seated = min(n, k * seats)
    base, extra = divmod(seated, k)
    return [base + 1] * extra + [base] * (k - extra)


def pods(
    order: Sequence[int],
    seats: int,
    min_seats: int = 2,
    byes: Mapping[int, int] | None = None,
    firsts: Mapping[int, int] | None = None,
) -> Pairing:
    """One round of pods: consecutive players in the standings share a table."""
    byes = byes or {}
    firsts = firsts or {}
    rank = {p: i for i, p in enumerate(order)}
    sizes = pod_sizes(len(order), seats, min_seats)
    out = Pairing()
    spare = len(order) - sum(sizes)
    if spare:
        out.byes = _bye_candidates(order, byes)[:spare]
        if len(out.byes) < spare:  # more byes than players at the fewest: the next fewest, lowest first
            rest = sorted((p for p in order if p not in out.byes), key=lambda p: (byes.get(p, 0), -rank[p]))
            out.byes += rest[: spare - len(out.byes)]
    seated = [p for p in order if p not in out.byes]
    i = 0
    for size in sizes:
        out.tables.append(seat_order(seated[i : i + size], rank, firsts))
        i += size
    return out

"""League pairings (tables/leagues/pairing.py): properties over many generated standings."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tables.leagues import pairing
from tables.leagues.pairing import met_key


def _perfect_matchings(players: list[int]):
    if not players:
        yield []
        return
    a, rest = players[0], players[1:]
    for i, b in enumerate(rest):
        for m in _perfect_matchings(rest[:i] + rest[i + 1 :]):
            yield [(a, b), *m]


def _rematch_free_exists(order: list[int], met: set, byes: dict) -> bool:
    """Brute force: is there a round with no rematch (bye to a player with the fewest byes)?"""
    if len(order) % 2:
        fewest = min(byes.get(p, 0) for p in order)
        choices = [[p for p in order if p != b] for b in order if byes.get(b, 0) == fewest]
    else:
        choices = [order]
    return any(all(met_key(a, b) not in met for a, b in m) for rest in choices for m in _perfect_matchings(rest))


@st.composite
def swiss_round(draw):
    n = draw(st.integers(2, 10))
    order = list(range(100, 100 + n))
    draw(st.randoms()).shuffle(order)
    pairs = list(itertools.combinations(order, 2))
    met = set(draw(st.lists(st.sampled_from([met_key(a, b) for a, b in pairs]), max_size=len(pairs))))
    byes = {p: draw(st.integers(0, 2)) for p in order}
    return order, met, byes


@settings(max_examples=300, deadline=None)
@given(swiss_round())
def test_swiss_round_no_rematch_while_avoidable_and_fair_bye(case):
    order, met, byes = case
    got = pairing.swiss(order, met, byes)
    seated = [p for t in got.tables for p in t]
    assert sorted(seated + got.byes) == sorted(order)  # everyone exactly once
    assert all(len(t) == 2 for t in got.tables)
    assert len(got.byes) == len(order) % 2
    if got.byes:  # the bye goes to a player with the fewest byes so far
        assert byes[got.byes[0]] == min(byes.values())
    actual = sum(1 for a, b in got.tables if met_key(a, b) in met)
    assert actual == got.rematches
    if _rematch_free_exists(order, met, byes):
        assert actual == 0
    else:
        assert actual > 0


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 12), st.integers(0, 10_000))
def test_swiss_season_spreads_byes_and_avoids_rematches(n, seed):
    rnd = random.Random(seed)
    players = list(range(1, n + 1))
    points = {p: 0.0 for p in players}
    met: set = set()
    byes: dict[int, int] = {}
    firsts: dict[int, int] = {}
    rounds = n - 1 if n % 2 == 0 else n  # as many as a round robin: a rematch-free season still exists
    for _ in range(min(rounds, 6)):
        order = sorted(players, key=lambda p: (-points[p], p))
        free = _rematch_free_exists(order, met, byes) if n <= 10 else True
        got = pairing.swiss(order, met, byes, firsts)
        if free:
            assert got.rematches == 0
        for b in got.byes:
            byes[b] = byes.get(b, 0) + 1
            points[b] += 1
        for a, b in got.tables:
            met.add(met_key(a, b))
            firsts[a] = firsts.get(a, 0) + 1
            w = rnd.choice((a, b))
            points[w] += 1
        counts = [byes.get(p, 0) for p in players]
        assert max(counts) - min(counts) <= 1  # byes spread fairly


def test_swiss_pairs_down_the_standings_and_is_deterministic():
    order = [5, 3, 8, 1, 9, 2]
    got = pairing.swiss(order)
    assert [set(t) for t in got.tables] == [{5, 3}, {8, 1}, {9, 2}]
    assert got.byes == []
    assert pairing.swiss(order).tables == got.tables
    # the leader already met the second: the first pairing down the list without a rematch
    again = pairing.swiss(order, {met_key(5, 3)})
    assert {frozenset(t) for t in again.tables} == {frozenset({5, 8}), frozenset({3, 1}), frozenset({9, 2})}
    odd = pairing.swiss([1, 2, 3], byes={3: 1})
    assert odd.byes == [2]  # 3 had a bye already: the lowest of those with none


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 40), st.integers(2, 5), st.integers(2, 5), st.dictionaries(st.integers(0, 39), st.integers(0, 3)))
def test_pods_everyone_in_exactly_one_pod(n, seats, min_seats, byes):
    min_seats = min(min_seats, seats)
    order = list(range(n))
    got = pairing.pods(order, seats, min_seats, byes)
    seated = [p for t in got.tables for p in t]
    assert sorted(seated + got.byes) == order  # every player in exactly one pod, or a bye
    assert all(min_seats <= len(t) <= seats for t in got.tables)
    sizes = [len(t) for t in got.tables]
    assert sizes == sorted(sizes, reverse=True) and (not sizes or sizes[0] - sizes[-1] <= 1)
    if n >= min_seats:
        # byes only when the count cannot be seated, and fewer than one table's worth
        assert len(got.byes) < max(min_seats, 1) or not got.tables
    if got.byes and n:
        left = [byes.get(p, 0) for p in order if p not in got.byes]
        assert max(byes.get(p, 0) for p in got.byes) <= min(left, default=99)


def test_pods_follow_the_standings():
    got = pairing.pods(list(range(10)), 4, 3)
    assert [sorted(t) for t in got.tables] == [[0, 1, 2, 3], [4, 5, 6], [7, 8, 9]]
    assert pairing.pod_sizes(12, 4, 3) == [4, 4, 4]
    assert pairing.pod_sizes(5, 4, 3) == [4]  # 2 + 3 would seat one below the minimum


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 14))
def test_round_robin_everyone_meets_everyone_once(n):
    players = list(range(1, n + 1))
    rounds = n - 1 if n % 2 == 0 else n
    seen: list = []
    byes: dict[int, int] = {}
    firsts: dict[int, int] = {p: 0 for p in players}
    for r in range(rounds):
        got = pairing.round_robin(players, r)
        here = [p for t in got.tables for p in t] + got.byes
        assert sorted(here) == players
        seen += [met_key(a, b) for a, b in got.tables]
        for b in got.byes:
            byes[b] = byes.get(b, 0) + 1
        for a, _ in got.tables:
            firsts[a] += 1
    assert sorted(seen) == sorted(itertools.combinations(players, 2))
    assert all(v == 1 for v in byes.values()) and (len(byes) == (n % 2) * n)
    games = {p: sum(1 for k in seen if p in k) for p in players}
    assert all(abs(2 * firsts[p] - games[p]) <= 2 for p in players)  # first seats shared out

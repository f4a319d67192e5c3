"""The seat-filler AI: a one-round exhaustive lookahead with a heuristic.

Once the cards are dealt, City of Fury has no randomness left, so the AI can
play out every way to resolve the current skill (each optional action and each
target), the best raise, the enemy phase and the scroll phase on a light
:class:`~.rules.Board`, and score the result.  It re-plans at every pending
step, so a plan is never stored in the state.  Deterministic: ties go to the
first option in legal order.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from . import models as m
from . import rules as r
from .content import SKILLS, enemies, heroes

WIN = 1_000_000.0
# value of the hero's HP: concave, a point is worth more when few are left
HP_VALUE = (0.0, 14.0, 25.0, 34.0, 41.0, 46.0, 50.0)
DAMAGE = 6.0  # per point of damage dealt to enemies (beaten cards count their full HP)
THREAT = 0.6  # share of the HP value lost if the enemies acted again from here
LEVEL = 0.5  # per damaging action available in the skills' levels after the raise
PATIENCE = 0.08  # damage is worth more the longer the fight drags on (breaks heal-forever loops)
DESPERATE = 40  # from this round on a loss only costs a little: break stalemates
FINISH = 60.0  # bonus when the best skill can finish the boss next round


def _progress(b: r.Board) -> float:
    cards = enemies()
    done = sum(cards[e].max_hp for e in b.beaten)
    return done + sum(cards[e].max_hp - hp for e, hp in b.enemy_hp.items())


@lru_cache(maxsize=4096)
def _level_value(hero: str, levels: tuple[int, ...]) -> float:
    skills = heroes()[hero].skills
    v = 0.0
    for k, lv in zip(SKILLS, levels):
        acts = skills[k][lv - 1]
        v += sum(1.0 for a in acts if a in ("attack", "shoot")) + 0.4 * acts.count("heal") + 0.15 * acts.count("move")
    return v


def best_raise(hero: str, levels: dict[str, int]) -> tuple[tuple[str, ...], float]:
    return _best_raise(hero, tuple(levels[k] for k in SKILLS))


@lru_cache(maxsize=4096)
def _best_raise(hero: str, levels: tuple[int, ...]) -> tuple[tuple[str, ...], float]:
    best: list[str] | None = None
    best_v = -1e18
    for option in r.raise_options(dict(zip(SKILLS, levels))):
        lv = list(levels)
        for k in option:
            lv[SKILLS.index(k)] += 1
        v = _level_value(hero, tuple(lv))
        if v > best_v:
            best, best_v = option, v
    assert best is not None
    return tuple(best), best_v


def _score(b: r.Board) -> float:
    """Value of a board at the start of a hero phase (or at the end of the game)."""
    if b.result == "win":
        return WIN - b.round
    if b.result == "loss":
        # after a long stand-off (the hero can only heal what it loses) the AI stops
        # fearing the loss so much and goes for the boss instead of stalling forever
        if b.round <= DESPERATE:
            return -WIN + _progress(b)
        return DAMAGE * (1.0 + PATIENCE * b.round) * _progress(b) - 3 * HP_VALUE[1]
    hp = b.hero_hp
    v = HP_VALUE[min(hp, 6)] + DAMAGE * (1.0 + PATIENCE * b.round) * _progress(b)
    boss = r.boss_id()
    if boss in b.enemy_hp:
        # the boss is in reach: can the best skill at its current level finish him next round?
        skills = heroes()[b.hero].skills
        reach = max(sum(1 for a in skills[k][b.levels[k] - 1] if a in ("attack", "shoot")) for k in SKILLS)
        if b.enemy_hp[boss] <= reach:
            v += FINISH
    # threat: what the enemies would do to the hero if it stood still for a round
    t = b.copy()
    r.enemy_phase(t, None)
    lost = hp - t.hero_hp
    if t.result == "loss":
        v -= 3 * HP_VALUE[1]
    v -= THREAT * (HP_VALUE[min(hp, 6)] - HP_VALUE[min(t.hero_hp, 6)]) + 0.0 * lost
    return v


def _key(b: r.Board) -> tuple:
    """The position, without the round number."""
    return (
        b.hero_hp,
        tuple(b.street),
        tuple(sorted(b.enemy_hp.items())),
        tuple(b.levels[k] for k in SKILLS),
        tuple(b.screen),
    )


def _finish_round(b: r.Board, skill: str, avoid: tuple | None = None) -> float:
    """Reset the skill, take the best raise, play the enemy and scroll phases, score."""
    if b.result is not None:
        return _score(b)
    b.levels[skill] = 1
    raise_, lv = best_raise(b.hero, b.levels)
    for k in raise_:
        b.levels[k] += 1
    r.enemy_phase(b, None)
    if b.result is None:
        r.scroll_phase(b, None)
        b.round += 1
    if avoid is not None and b.result is None and _key(b) == avoid:
        # The round would end exactly where it started.  The game and this player are
        # deterministic, so that repeats forever: it can never be won, which makes it
        # worth no more than a loss (any other way out is preferred; if every other
        # way loses at once, the position was lost anyway).
        return -WIN + _progress(b) - 1.0
    return _score(b) + LEVEL * lv


def _options(b: r.Board, step: str) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    if step == "move":
        out = [("move", d) for d in r.move_options(b)]
    elif step == "attack":
        out = [("attack", e) for e in r.attack_targets(b)]
    elif step == "shoot":
        out = [("shoot", e) for e in r.shoot_targets(b)]
    elif step == "heal" and r.can_heal(b):
        out = [("heal", None)]
    return out + [("skip", None)]


def _do(b: r.Board, opt: tuple[str, Any]) -> None:
    kind, arg = opt
    if kind == "move":
        r.hero_move(b, arg, None)
    elif kind in ("attack", "shoot"):
        r.damage_enemy(b, arg, kind, None)
    elif kind == "heal":
        r.hero_heal(b, None)


def _best_steps(b: r.Board, skill: str, actions: list[str], index: int, avoid: tuple | None = None) -> float:
    if b.result is not None or index >= len(actions):
        return _finish_round(b, skill, avoid)
    best = -1e18
    for opt in _options(b, actions[index]):
        c = b.copy()
        _do(c, opt)
        v = _best_steps(c, skill, actions, index + 1, avoid)
        if v > best:
            best = v
    return best


def choose(game: Any, state: m.State, legal: list[Any]) -> Any:
    p = state.pending
    assert p is not None  # legal actions exist only while a decision is pending
    b = r.Board.of(state)
    if p.kind == "raise":
        pick, _ = best_raise(state.hero, state.levels)
        for a in legal:
            if tuple(a.skills) == pick:
                return a
        return legal[0]
    if p.kind == "choose_skill":
        best, best_v = legal[0], -1e18
        start = _key(b)
        for a in legal:
            level = state.levels[a.skill]
            v = _best_steps(b.copy(), a.skill, r.level_actions(state.hero, a.skill, level), 0, start)
            if v > best_v:
                best, best_v = a, v
        return best
    assert p.skill is not None and p.level is not None
    actions = r.level_actions(state.hero, p.skill, p.level)
    # Before the first action of the skill nothing has changed yet, so the position is still
    # the one the round started from: keep steering away from a round that returns to it.
    avoid = _key(b) if p.index == 0 else None
    best, best_v = legal[0], -1e18
    for a in legal:
        c = b.copy()
        if a.kind == "move":
            _do(c, ("move", a.direction))
        elif a.kind in ("attack", "shoot"):
            _do(c, (a.kind, a.target))
        elif a.kind == "heal":
            _do(c, ("heal", None))
        v = _best_steps(c, p.skill, actions, p.index + 1, avoid)
        if v > best_v:
            best, best_v = a, v
    return best

"""The rules of City of Fury as plain functions over a state-like object.

Every function takes ``s`` (the pydantic :class:`~.models.State` or the AI's
lightweight :class:`Board`, which have the same fields) and ``ev`` (a list to
append events to, or ``None`` when the AI simulates and wants no events).
Slots are numbered 0 (the street's left end) to 4 (its right end).
"""

from __future__ import annotations

from typing import Any

from . import models as m
from .content import MAX_LEVEL, SKILLS, SLOTS, content, enemies, heroes

HERO = m.HERO
DIRS = {"left": -1, "right": 1}


class Board:
    """A fast copy of the mutable game fields, for the AI's lookahead."""

    __slots__ = (
        "hero",
        "hero_hp",
        "levels",
        "screen",
        "street",
        "enemy_hp",
        "to_scroll",
        "beaten",
        "gone",
        "round",
        "result",
    )

    def __init__(
        self,
        hero: str,
        hero_hp: int,
        levels: dict[str, int],
        screen: list[str],
        street: list[str | None],
        enemy_hp: dict[str, int],
        to_scroll: list[str],
        beaten: list[str],
        gone: list[str],
        round: int,
        result: str | None,
    ):
        self.hero = hero
        self.hero_hp = hero_hp
        self.levels = levels
        self.screen = screen
        self.street = street
        self.enemy_hp = enemy_hp
        self.to_scroll = to_scroll
        self.beaten = beaten
        self.gone = gone
        self.round = round
        self.result = result

    @classmethod
    def of(cls, s: Any) -> Board:
        return cls(
            s.hero,
            s.hero_hp,
            dict(s.levels),
            list(s.screen),
            list(s.street),
            dict(s.enemy_hp),
            list(s.to_scroll),
            list(s.beaten),
            list(s.gone),
            s.round,
            s.result,
        )

    def copy(self) -> Board:
        return Board(
            self.hero,
            self.hero_hp,
            dict(self.levels),
            list(self.screen),
            list(self.street),
            dict(self.enemy_hp),
            list(self.to_scroll),
            list(self.beaten),
            list(self.gone),
            self.round,
            self.result,
        )


# ------------------------------------------------------------ geometry
def hero_slot(s: Any) -> int:
    return s.street.index(HERO)


def enemies_on_street(s: Any) -> list[tuple[int, str]]:
    """(slot, enemy id) for every enemy on the street, left to right."""
    return [(i, x) for i, x in enumerate(s.street) if x is not None and x != HERO]


def hero_max_hp(s: Any) -> int:
    return heroes()[s.hero].max_hp


def level_actions(hero_id: str, skill: str, level: int) -> list[str]:
    return list(heroes()[hero_id].skills[skill][level - 1])


# ------------------------------------------------------- hero options
def move_options(s: Any) -> list[str]:
    """Directions the hero may move: any slot on the street (swapping with an enemy there)."""
    h = hero_slot(s)
    return [d for d, dx in DIRS.items() if 0 <= h + dx < SLOTS]


def attack_targets(s: Any) -> list[str]:
    h = hero_slot(s)
    return [e for i, e in enemies_on_street(s) if abs(i - h) == 1]


def shoot_targets(s: Any) -> list[str]:
    h = hero_slot(s)
    return [e for i, e in enemies_on_street(s) if abs(i - h) > 1]


def can_heal(s: Any) -> bool:
    return s.hero_hp < hero_max_hp(s)


def step_possible(s: Any, action: str) -> bool:
    if action == "move":
        return bool(move_options(s))
    if action == "attack":
        return bool(attack_targets(s))
    if action == "shoot":
        return bool(shoot_targets(s))
    if action == "heal":
        return can_heal(s)
    raise ValueError(action)


def raise_options(levels: dict[str, int]) -> list[list[str]]:
    """The legal raises: every pair of different skills below the top level.

    Ruling: a skill at level 4 cannot be raised.  If only one skill can be
    raised (never zero: the skill just used is at level 1) that one alone is
    the only choice.
    """
    open_ = [k for k in SKILLS if levels[k] < MAX_LEVEL]
    if len(open_) >= 2:
        return [[a, b] for i, a in enumerate(open_) for b in open_[i + 1 :]]
    return [[a] for a in open_]


# ------------------------------------------------------- hero actions
def hero_move(s: Any, direction: str, ev: list | None) -> None:
    h = hero_slot(s)
    dst = h + DIRS[direction]
    other = s.street[dst]
    s.street[h], s.street[dst] = other, HERO
    if ev is not None:
        ev.append(m.HeroMoved(direction=direction, src=h, dst=dst, swapped=other))


def damage_enemy(s: Any, target: str, how: str, ev: list | None) -> None:
    hp = s.enemy_hp[target] - 1
    s.enemy_hp[target] = hp
    if ev is not None:
        ev.append(m.HeroHit(how=how, target=target, hp=hp))
    if hp <= 0:
        # "当一名敌人的生命值降至0时，将其移出街道并翻面"
        s.street[s.street.index(target)] = None
        del s.enemy_hp[target]
        s.beaten.append(target)
        if ev is not None:
            ev.append(m.EnemyDefeated(enemy=target))
        if target == boss_id():
            s.result = "win"
            if ev is not None:
                ev.append(m.GameWon(round=s.round))
        else:
            s.to_scroll.append(target)


def hero_heal(s: Any, ev: list | None) -> None:
    s.hero_hp = min(hero_max_hp(s), s.hero_hp + 1)
    if ev is not None:
        ev.append(m.HeroHealed(hp=s.hero_hp))


def boss_id() -> str:
    return content().boss.id


# ------------------------------------------------------- enemy phase
def enemy_order(s: Any) -> list[str]:
    """The enemy farthest from the street's left end acts first."""
    return [e for _, e in sorted(enemies_on_street(s), reverse=True)]


def behaviour_row(s: Any, enemy: str) -> tuple[str, str]:
    """(side, row): an enemy LEFT of the hero uses its RIGHT row and vice versa."""
    side = "left" if s.street.index(enemy) < hero_slot(s) else "right"
    return side, ("right" if side == "left" else "left")


def _hurt_hero(s: Any, enemy: str, how: str, ev: list | None) -> None:
    s.hero_hp = max(0, s.hero_hp - 1)
    if ev is not None:
        ev.append(m.EnemyHitHero(enemy=enemy, how=how, hp=s.hero_hp))
    if s.hero_hp == 0 and s.result is None:
        s.result = "loss"
        if ev is not None:
            ev.append(m.GameLost(round=s.round))


def enemy_action(s: Any, enemy: str, action: str, ev: list | None) -> bool:
    """Carry out one behaviour-row action; return False when it had to be skipped."""
    pos = s.street.index(enemy)
    h = hero_slot(s)
    if action in ("move_left", "move_right"):
        dst = pos + (-1 if action == "move_left" else 1)
        if not 0 <= dst < SLOTS or s.street[dst] is not None:
            return False
        s.street[pos], s.street[dst] = None, enemy
        if ev is not None:
            ev.append(m.EnemyMoved(enemy=enemy, how="move", src=pos, dst=dst))
        return True
    if action in ("jump_left", "jump_right"):
        dst = pos + (-1 if action == "jump_left" else 1)
        if not 0 <= dst < SLOTS:
            return False
        other = s.street[dst]
        s.street[pos], s.street[dst] = other, enemy
        if ev is not None:
            ev.append(m.EnemyMoved(enemy=enemy, how="jump", src=pos, dst=dst, swapped=other))
        return True
    if action == "attack":
        if abs(pos - h) != 1:
            return False
        _hurt_hero(s, enemy, "attack", ev)
        return True
    if action == "shoot":
        if abs(pos - h) == 1:
            return False
        _hurt_hero(s, enemy, "shoot", ev)
        return True
    if action in ("push_left", "push_right"):
        dx = -1 if action == "push_left" else 1
        # the hero must be exactly one slot on that side, and has to land on the street
        if h != pos + dx or not 0 <= h + dx < SLOTS:
            return False
        dst = h + dx
        other = s.street[dst]
        s.street[h], s.street[dst] = other, HERO
        if ev is not None:
            ev.append(m.HeroPushed(enemy=enemy, src=h, dst=dst, swapped=other))
        return True
    raise ValueError(action)


def enemy_phase(s: Any, ev: list | None) -> None:
    order = enemy_order(s)
    for enemy in order:
        if s.result is not None:
            return
        side, row = behaviour_row(s, enemy)  # re-evaluated when each enemy starts to act
        actions = getattr(enemies()[enemy], row)
        if ev is not None:
            ev.append(m.EnemyTurn(enemy=enemy, side=side, row=row, actions=list(actions)))
        for action in actions:
            if not enemy_action(s, enemy, action, ev) and ev is not None:
                ev.append(m.EnemySkipped(enemy=enemy, action=action))
            if s.result is not None:
                return


# ------------------------------------------------------- scroll phase
def scroll_phase(s: Any, ev: list | None) -> None:
    """Once per enemy defeated this round, in the order they were defeated."""
    while s.to_scroll and s.result is None:
        defeated = s.to_scroll.pop(0)
        left_card = s.screen.pop(0)
        s.screen.append(defeated)  # the defeated card, street side up, at the right end
        # Characters stay on their cards; the leftmost card left, so everyone shifts
        # one slot left and whoever stood on that card fell off the screen.
        fallen = s.street[0]
        street = s.street[1:] + [None]
        slid: list[str] = []
        if fallen is not None:
            # slide it right until it is on the screen, pushing the characters in its way
            j = street.index(None)
            street[1 : j + 1] = street[0:j]
            street[0] = fallen
            slid = [fallen]
        s.street[:] = street
        entered: str | None = None
        if left_card not in s.beaten:
            entered = left_card
        else:
            s.gone.append(left_card)  # an already beaten card never comes back (ruling)
        if ev is not None:
            ev.append(m.Scrolled(defeated=defeated, left_card=left_card, entered=entered, slid=slid))
        if entered is not None:
            slot = SLOTS - 1 if s.street[SLOTS - 1] is None else max(i for i, x in enumerate(s.street) if x is None)
            s.street[slot] = entered
            s.enemy_hp[entered] = enemies()[entered].max_hp
            if ev is not None:
                ev.append(m.EnemyEntered(enemy=entered, slot=slot, hp=s.enemy_hp[entered]))


# ------------------------------------------------ the phase's record
def phase_record(round_: int, screen: list[str], street: list[str | None], hero_hp: int, events: list) -> m.EnemyPhase:
    """The record of one enemy phase from its events (``street`` and ``hero_hp``: before it)."""
    street = list(street)
    hero_at = street.index(HERO)
    turns: list[m.EnemyTurnRecord] = []
    cur: m.EnemyTurn | None = None
    steps: list[m.EnemyStep] = []
    slot = 0

    def close() -> None:
        if cur is not None:
            turns.append(m.EnemyTurnRecord(enemy=cur.enemy, side=cur.side, row=cur.row, slot=slot, steps=tuple(steps)))

    for e in events:
        if isinstance(e, m.EnemyTurn):
            close()
            cur, steps, slot = e, [], street.index(e.enemy)
            continue
        if cur is None or not isinstance(e, (m.EnemyMoved, m.HeroPushed, m.EnemyHitHero, m.EnemySkipped)):
            continue  # the game's end; nothing else happens in an enemy phase
        action = cur.actions[len(steps)]
        if isinstance(e, m.EnemySkipped):
            steps.append(m.EnemyStep(action=action, done=False))
        elif isinstance(e, m.EnemyHitHero):
            steps.append(m.EnemyStep(action=action, done=True, hp=e.hp))
        else:  # a move, jump or push: the two slots trade what stands on them
            steps.append(m.EnemyStep(action=action, done=True, src=e.src, dst=e.dst, swapped=e.swapped))
            street[e.src], street[e.dst] = street[e.dst], street[e.src]
    close()
    return m.EnemyPhase(round=round_, screen=tuple(screen), hero_slot=hero_at, hero_hp=hero_hp, turns=tuple(turns))

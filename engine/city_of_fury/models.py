"""State, options, actions, events and views of City of Fury (pydantic v2, JSON exact)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field

from ..base import BaseState, Event, Model, View
from .content import hero_ids

HERO = "hero"  # the hero's marker on the street

Skill = Literal["punch", "kick", "shoot", "dodge"]
Direction = Literal["left", "right"]
HeroId = Literal[tuple(hero_ids())]  # type: ignore[valid-type]


class Options(Model):
    hero: HeroId = Field(default=hero_ids()[0], description="The hero you play (vigilante or brawler).")  # type: ignore[valid-type]


class Pending(Model):
    """The decision the player owes now.

    ``choose_skill``: pick one of the four skills.  ``step``: resolve action
    number ``index`` of ``skill`` at ``level`` (do it or skip it).  ``raise``:
    raise two different skills by one.
    """

    kind: Literal["choose_skill", "step", "raise"]
    skill: Skill | None = None
    level: int | None = None
    index: int = 0


# ------------------------------------------------- the last enemy phase
class Record(Model):
    """Immutable: a state's copy shares it (it is replaced, never changed)."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class EnemyStep(Record):
    """One action of an enemy's behaviour row as the enemy phase carried it out."""

    action: str  # the row's action (move_left, jump_right, attack, shoot, push_left, ...)
    done: bool  # False: it could not be done and was skipped
    src: int | None = None  # a move or jump: the enemy's slot before; a push: the hero's
    dst: int | None = None  # ... and after
    swapped: str | None = None  # who traded places with the mover ("hero" or an enemy id)
    hp: int | None = None  # an attack or shot: the hero's HP after it


class EnemyTurnRecord(Record):
    enemy: str
    side: Direction  # its side of the hero when its turn began
    row: Direction  # the behaviour row it used
    slot: int  # where it stood when its turn began
    steps: tuple[EnemyStep, ...]  # one per row action carried out or skipped, in order


class EnemyPhase(Record):
    """What the enemies did in the last enemy phase, exactly as its events say.

    Slots are those of ``screen``, the street cards during the phase (a
    scroll after it shifts the cards left; the renderer maps them)."""

    round: int
    screen: tuple[str, ...]
    hero_slot: int  # where the hero stood when the phase began
    hero_hp: int  # the hero's HP when the phase began
    turns: tuple[EnemyTurnRecord, ...]  # in acting order


class State(BaseState):
    game: Literal["city_of_fury"] = "city_of_fury"
    hero: str
    hero_hp: int
    levels: dict[str, int]
    screen: list[str]  # the five street cards, left to right (card ids)
    street: list[str | None]  # five slots under the screen: "hero", an enemy id, or null
    enemy_hp: dict[str, int]  # HP of the enemies on the street
    to_scroll: list[str] = Field(default_factory=list)  # defeated this round, in order, awaiting the scroll phase
    beaten: list[str] = Field(default_factory=list)  # every enemy defeated so far, in order
    gone: list[str] = Field(default_factory=list)  # cards that left the game (see rulings)
    round: int = 1
    pending: Pending | None = None
    result: Literal["win", "loss"] | None = None
    #: the last enemy phase (None before the first one, and in states stored by schema 1)
    last_enemy_phase: EnemyPhase | None = None


# ------------------------------------------------------------------ actions
class ChooseSkill(Model):
    kind: Literal["choose_skill"] = "choose_skill"
    skill: Skill


class Move(Model):
    kind: Literal["move"] = "move"
    direction: Direction


class Attack(Model):
    kind: Literal["attack"] = "attack"
    target: str


class Shoot(Model):
    kind: Literal["shoot"] = "shoot"
    target: str


class Heal(Model):
    kind: Literal["heal"] = "heal"


class Skip(Model):
    kind: Literal["skip"] = "skip"


class RaiseSkills(Model):
    kind: Literal["raise"] = "raise"
    skills: list[Skill] = Field(min_length=1, max_length=2)


Action = Annotated[ChooseSkill | Move | Attack | Shoot | Heal | Skip | RaiseSkills, Field(discriminator="kind")]


# ------------------------------------------------------------------- events
class RoundStarted(Event):
    kind: Literal["round_started"] = "round_started"
    round: int


class SkillChosen(Event):
    kind: Literal["skill_chosen"] = "skill_chosen"
    skill: Skill
    level: int
    actions: list[str]


class HeroMoved(Event):
    kind: Literal["hero_moved"] = "hero_moved"
    direction: Direction
    src: int
    dst: int
    swapped: str | None = None


class HeroHit(Event):
    """The hero's attack or shot hit an enemy."""

    kind: Literal["hero_hit"] = "hero_hit"
    how: Literal["attack", "shoot"]
    target: str
    hp: int


class EnemyDefeated(Event):
    kind: Literal["enemy_defeated"] = "enemy_defeated"
    enemy: str


class HeroHealed(Event):
    kind: Literal["hero_healed"] = "hero_healed"
    hp: int


class StepSkipped(Event):
    kind: Literal["step_skipped"] = "step_skipped"
    action: str
    forced: bool  # True: nothing could be done, skipped automatically


class SkillReset(Event):
    kind: Literal["skill_reset"] = "skill_reset"
    skill: Skill


class SkillsRaised(Event):
    kind: Literal["skills_raised"] = "skills_raised"
    skills: list[Skill]
    levels: list[int]


class EnemyTurn(Event):
    kind: Literal["enemy_turn"] = "enemy_turn"
    enemy: str
    side: Direction  # the enemy's side of the hero
    row: Direction  # the behaviour row it uses (the opposite one)
    actions: list[str]


class EnemyMoved(Event):
    kind: Literal["enemy_moved"] = "enemy_moved"
    enemy: str
    how: Literal["move", "jump"]
    src: int
    dst: int
    swapped: str | None = None


class EnemyHitHero(Event):
    kind: Literal["enemy_hit_hero"] = "enemy_hit_hero"
    enemy: str
    how: Literal["attack", "shoot"]
    hp: int


class HeroPushed(Event):
    kind: Literal["hero_pushed"] = "hero_pushed"
    enemy: str
    src: int
    dst: int
    swapped: str | None = None


class EnemySkipped(Event):
    kind: Literal["enemy_skipped"] = "enemy_skipped"
    enemy: str
    action: str


class Scrolled(Event):
    kind: Literal["scrolled"] = "scrolled"
    defeated: str  # the card put street side up at the right end
    left_card: str  # the leftmost card that left the screen
    entered: str | None = None  # the enemy it became (None: an already beaten card, set aside)
    slid: list[str] = Field(default_factory=list)  # characters that slid right back onto the screen


class EnemyEntered(Event):
    kind: Literal["enemy_entered"] = "enemy_entered"
    enemy: str
    slot: int
    hp: int


class GameWon(Event):
    kind: Literal["game_won"] = "game_won"
    round: int


class GameLost(Event):
    kind: Literal["game_lost"] = "game_lost"
    round: int


AnyEvent = Annotated[
    RoundStarted
    | SkillChosen
    | HeroMoved
    | HeroHit
    | EnemyDefeated
    | HeroHealed
    | StepSkipped
    | SkillReset
    | SkillsRaised
    | EnemyTurn
    | EnemyMoved
    | EnemyHitHero
    | HeroPushed
    | EnemySkipped
    | Scrolled
    | EnemyEntered
    | GameWon
    | GameLost,
    Field(discriminator="kind"),
]


# -------------------------------------------------------------------- views
class HeroFace(Model):
    """The hero card as the board shows it: HP and the four skill rows."""

    id: str
    max_hp: int
    skills: dict[str, list[list[str]]]  # skill -> its four levels' actions


class EnemyFace(Model):
    """An enemy card: its HP and behaviour rows (the street side is ``street``)."""

    id: str
    max_hp: int
    left: list[str]
    right: list[str]
    boss: bool = False


class CofView(View):
    """Everything the board shows.  City of Fury hides nothing from its one
    player (the face-down boss card is the cafe street card, drawn as such), so
    the public and the seat's view are the same model."""

    hero: str
    hero_hp: int
    levels: dict[str, int]
    screen: list[str]
    street: list[str | None]
    enemy_hp: dict[str, int]
    to_scroll: list[str]
    beaten: list[str]
    gone: list[str]
    round: int
    pending: Pending | None
    result: Literal["win", "loss"] | None
    current_step: str | None  # the action the pending step asks for (move, attack, ...)
    hero_card: HeroFace
    cards: dict[str, EnemyFace]  # every enemy card by id
    boss: str  # the boss card's id
    last_enemy_phase: EnemyPhase | None  # what the enemies did in their last phase

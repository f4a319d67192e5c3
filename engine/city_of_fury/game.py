"""City of Fury (狂怒之城): the 9-card solo beat-'em-up, as a :class:`engine.base.Game`."""

from __future__ import annotations

from typing import Any

from ..base import Event as BaseEvent
from ..base import Game, Msg, Outcome, RigSpec, SeatLabels, bad_state, rebuilt
from ..errors import GameError
from ..i18n import has, t
from ..rng import Rng
from . import models as m
from . import rules as r
from .content import MAX_LEVEL, MIN_LEVEL, SKILLS, SLOTS, START_LEVEL, content, enemies, heroes

NS = "city_of_fury"


def _name(card: str | None, locale: str | None) -> str:
    if card is None:
        return ""
    if card == m.HERO:
        return t(f"{NS}.hero_marker", locale)
    return t(f"{NS}.card.{card}.name", locale)


def _skill(skill: str, locale: str | None) -> str:
    return t(f"{NS}.skill.{skill}", locale)


def _acts(actions: list[str], locale: str | None, prefix: str = "act") -> str:
    sep = t(f"{NS}.list_sep", locale)
    return sep.join(t(f"{NS}.{prefix}.{a}", locale) for a in actions)


class CityOfFury(Game[m.State]):
    id = NS
    schema_version = 2  # 2: the state records the last enemy phase (``last_enemy_phase``)
    min_seats = 1
    max_seats = 1
    State = m.State
    Action = m.Action
    Event = m.AnyEvent
    Options = m.Options
    View = m.CofView
    ai_levels = ("easy",)  # a solo game: the AI only plays for an absent player (timers, self-play)
    record_key = "core.record.fastest_clear"  # leaderboards: fewest rounds to beat the boss
    record_lower_is_better = True

    def _record(self, state: m.State, seat: str) -> float | None:
        return float(state.round) if state.result == "win" else None

    # ------------------------------------------------------------ setup
    def _new(self, seats: list[str], options: m.Options, seed: int, rng: Rng) -> m.State:
        c = content()
        deck = rng.shuffle("deck.enemies", [e.id for e in c.minions])
        screen = deck[:4] + [c.boss.id]  # 4 street cards left of the cafe (boss card face down)
        street: list[str | None] = [None] * SLOTS
        street[0] = m.HERO  # the hero at the far left
        street[SLOTS - 2], street[SLOTS - 1] = deck[4], deck[5]  # the other two under the two rightmost cards
        hero = heroes()[options.hero]
        return m.State(
            schema_version=self.schema_version,
            seats=seats,
            seed=seed,
            rng=rng,
            hero=hero.id,
            hero_hp=hero.max_hp,
            levels={k: START_LEVEL for k in SKILLS},
            screen=screen,
            street=street,
            enemy_hp={deck[4]: enemies()[deck[4]].max_hp, deck[5]: enemies()[deck[5]].max_hp},
            pending=m.Pending(kind="choose_skill"),
        )

    # ------------------------------------------------------------ turn
    def _to_act(self, state: m.State) -> list[str]:
        return list(state.seats) if state.result is None and state.pending is not None else []

    def _outcome(self, state: m.State) -> Outcome | None:
        seat = state.seats[0]
        if state.result == "win":
            return Outcome(
                winners=[seat], scores={seat: 1.0}, reason=Msg(key=f"{NS}.outcome.win", params={"round": state.round})
            )
        if state.result == "loss":
            return Outcome(
                winners=[], scores={seat: 0.0}, reason=Msg(key=f"{NS}.outcome.loss", params={"round": state.round})
            )
        return None

    @staticmethod
    def current_step(state: m.State) -> str | None:
        p = state.pending
        if p is None or p.kind != "step":
            return None
        assert p.skill is not None and p.level is not None  # validate: a step names its skill and level
        return r.level_actions(state.hero, p.skill, p.level)[p.index]

    def _legal(self, state: m.State, seat: str) -> list[Any]:
        p = state.pending
        if p is None:
            return []
        if p.kind == "choose_skill":
            return [m.ChooseSkill(skill=k) for k in SKILLS]
        if p.kind == "raise":
            return [m.RaiseSkills(skills=pair) for pair in r.raise_options(state.levels)]
        step = self.current_step(state)
        out: list[Any] = []
        if step == "move":
            out = [m.Move(direction=d) for d in r.move_options(state)]
        elif step == "attack":
            out = [m.Attack(target=e) for e in r.attack_targets(state)]
        elif step == "shoot":
            out = [m.Shoot(target=e) for e in r.shoot_targets(state)]
        elif step == "heal" and r.can_heal(state):
            out = [m.Heal()]
        return out + [m.Skip()]

    def _check(self, state: m.State, seat: str, a: Any) -> None:
        """Why ``a`` (equal to no legal action) is refused, as precisely as possible."""
        p = state.pending
        if p is None:
            raise GameError("nothing_to_do", "core.error.nothing_to_do", seat=seat)
        expected = {"choose_skill": ("choose_skill",), "raise": ("raise",)}.get(p.kind) or (
            self.current_step(state),
            "skip",
        )
        if a.kind not in expected:
            raise GameError("wrong_step", f"{NS}.error.wrong_step", seat=seat, expected=f"@{NS}.expect.{expected[0]}")
        if a.kind == "move" and a.direction not in r.move_options(state):
            raise GameError("off_street", f"{NS}.error.off_street", seat=seat)
        if a.kind == "attack" and a.target not in r.attack_targets(state):
            raise GameError("bad_target", f"{NS}.error.attack_target", seat=seat, target=a.target)
        if a.kind == "shoot" and a.target not in r.shoot_targets(state):
            raise GameError("bad_target", f"{NS}.error.shoot_target", seat=seat, target=a.target)
        if a.kind == "heal" and not r.can_heal(state):
            raise GameError("full_hp", f"{NS}.error.full_hp", seat=seat)
        if a.kind == "raise":
            if len(set(a.skills)) != len(a.skills):
                raise GameError("same_skill_twice", f"{NS}.error.same_skill_twice", seat=seat)
            if sorted(a.skills, key=SKILLS.index) not in r.raise_options(state.levels):
                raise GameError("bad_raise", f"{NS}.error.bad_raise", seat=seat)
        if a not in self._legal(state, seat):  # e.g. the raise's two skills in the other order
            raise GameError("illegal_action", "core.error.illegal_action", seat=seat)

    def _copy(self, s: m.State) -> m.State:
        """Field by field: every field is a scalar, a flat list or dict of scalars,
        or a small model of scalars (the RNG, the pending decision); ~3x faster than
        the JSON round trip.  ``test_city_of_fury_contract`` checks it equals one.
        The record of the last enemy phase is frozen (replaced, never changed): shared."""
        d = dict(s.__dict__)
        for k in ("levels", "enemy_hp"):
            d[k] = dict(d[k])
        for k in ("seats", "screen", "street", "to_scroll", "beaten", "gone"):
            d[k] = list(d[k])
        rng = d["rng"]
        d["rng"] = rebuilt(rng, {"state": rng.state, "rig": {k: list(v) for k, v in rng.rig.items()}})
        if d["pending"] is not None:
            d["pending"] = rebuilt(d["pending"], dict(d["pending"].__dict__))
        return rebuilt(s, d)

    def _apply(self, s: m.State, seat: str, a: Any) -> list[BaseEvent]:
        ev: list[BaseEvent] = []
        p = s.pending
        if a.kind == "choose_skill":
            level = s.levels[a.skill]
            ev.append(m.SkillChosen(skill=a.skill, level=level, actions=r.level_actions(s.hero, a.skill, level)))
            s.pending = m.Pending(kind="step", skill=a.skill, level=level, index=0)
            self._advance(s, ev)
        elif a.kind == "raise":
            self._raise(s, list(a.skills), ev)
        else:
            step = self.current_step(s)
            assert p is not None and step is not None  # the action was checked against this step
            if a.kind == "skip":
                ev.append(m.StepSkipped(action=step, forced=False))
            elif a.kind == "move":
                r.hero_move(s, a.direction, ev)
            elif a.kind in ("attack", "shoot"):
                r.damage_enemy(s, a.target, a.kind, ev)
            elif a.kind == "heal":
                r.hero_heal(s, ev)
            p.index += 1
            if s.result is not None:
                s.pending = None
                return ev
            self._advance(s, ev)
        return ev

    def _advance(self, s: m.State, ev: list[BaseEvent]) -> None:
        """Skip steps that cannot be done; after the last one reset the skill and ask for the raise."""
        p = s.pending
        while p is not None and p.kind == "step":
            assert p.skill is not None and p.level is not None
            actions = r.level_actions(s.hero, p.skill, p.level)
            if p.index >= len(actions):
                s.levels[p.skill] = 1  # back to the leftmost box
                ev.append(m.SkillReset(skill=p.skill))
                s.pending = m.Pending(kind="raise", skill=p.skill, level=1)
                options = r.raise_options(s.levels)
                if len(options) == 1:  # only one skill can still go up: no choice to make
                    self._raise(s, options[0], ev)
                return
            if r.step_possible(s, actions[p.index]):
                return
            ev.append(m.StepSkipped(action=actions[p.index], forced=True))
            p.index += 1

    def _raise(self, s: m.State, skills: list[str], ev: list[BaseEvent]) -> None:
        skills = sorted(skills, key=SKILLS.index)
        for k in skills:
            s.levels[k] += 1
        ev.append(m.SkillsRaised(skills=skills, levels=[s.levels[k] for k in skills]))
        s.pending = None
        street, hp, start = list(s.street), s.hero_hp, len(ev)
        r.enemy_phase(s, ev)
        s.last_enemy_phase = r.phase_record(s.round, s.screen, street, hp, ev[start:])
        if s.result is None:
            r.scroll_phase(s, ev)
        if s.result is None:
            s.round += 1
            ev.append(m.RoundStarted(round=s.round))
            s.pending = m.Pending(kind="choose_skill")

    # ------------------------------------------------------------ views
    def _view(self, state: m.State, seat: str | None) -> dict[str, Any]:
        hero = heroes()[state.hero]
        boss = content().boss.id
        return {
            "hero": state.hero,
            "hero_hp": state.hero_hp,
            "levels": dict(state.levels),
            "screen": list(state.screen),
            "street": list(state.street),
            "enemy_hp": dict(state.enemy_hp),
            "to_scroll": list(state.to_scroll),
            "beaten": list(state.beaten),
            "gone": list(state.gone),
            "round": state.round,
            "pending": state.pending,
            "result": state.result,
            "current_step": self.current_step(state),
            "hero_card": m.HeroFace(
                id=hero.id, max_hp=hero.max_hp, skills={k: [list(lv) for lv in v] for k, v in hero.skills.items()}
            ),
            "cards": {
                e.id: m.EnemyFace(id=e.id, max_hp=e.max_hp, left=list(e.left), right=list(e.right), boss=e.id == boss)
                for e in enemies().values()
            },
            "boss": boss,
            "last_enemy_phase": state.last_enemy_phase,
        }

    def _migrate(self, data: dict[str, Any], version: int) -> dict[str, Any]:
        if version == 1:  # schema 1 kept no record of the enemy phase: none is known
            data["last_enemy_phase"] = None
            return data
        return super()._migrate(data, version)

    # ------------------------------------------------------------ checks
    def _rigs(self) -> dict[str, RigSpec]:
        return {
            "deck.enemies": RigSpec(
                kind="deck",
                values=[e.id for e in content().minions],
                doc="the six minion cards, shuffled at set-up: the first four become the street cards left "
                "of the cafe, the fifth and sixth the enemies on the two rightmost cards",
            )
        }

    def _validate(self, s: m.State) -> None:
        cards = enemies()
        boss = content().boss.id
        hero = heroes().get(s.hero)
        if hero is None:
            raise bad_state("hero", f"no hero card {s.hero!r}")
        if set(s.levels) != set(SKILLS) or any(not MIN_LEVEL <= v <= MAX_LEVEL for v in s.levels.values()):
            raise bad_state("levels", f"each of {', '.join(SKILLS)} at level {MIN_LEVEL}..{MAX_LEVEL}")
        if not 0 <= s.hero_hp <= hero.max_hp:
            raise bad_state("hero_hp", f"{s.hero_hp} outside 0..{hero.max_hp}")
        if (s.hero_hp == 0) != (s.result == "loss"):
            raise bad_state("hero_hp", "the hero has 0 HP exactly when the game is lost")
        for name, ids in (("screen", s.screen), ("to_scroll", s.to_scroll), ("beaten", s.beaten), ("gone", s.gone)):
            for x in ids:
                if x not in cards:
                    raise bad_state(name, f"no enemy card {x!r}")
        if len(s.screen) != SLOTS or len(s.street) != SLOTS:
            raise bad_state("screen", f"the screen and the street are {SLOTS} cards wide")
        if s.street.count(m.HERO) != 1:
            raise bad_state("street", "exactly one hero on the street")
        on_street = [x for x in s.street if x is not None and x != m.HERO]
        for x in on_street:
            if x not in cards:
                raise bad_state("street", f"no enemy card {x!r}")
        if sorted(on_street) != sorted(s.enemy_hp):
            raise bad_state("enemy_hp", "HP is kept for exactly the enemies on the street")
        for x, hp in s.enemy_hp.items():
            if not 1 <= hp <= cards[x].max_hp:
                raise bad_state("enemy_hp", f"{x} has {hp} HP, outside 1..{cards[x].max_hp}")
        if len(set(s.beaten)) != len(s.beaten) or any(x in s.enemy_hp for x in s.beaten):
            raise bad_state("beaten", "an enemy is beaten once and then off the street")
        if any(x not in s.beaten for x in s.to_scroll):
            raise bad_state("to_scroll", "only beaten enemies wait for the scroll phase")
        if (s.result == "win") != (boss in s.beaten):
            raise bad_state("result", "the game is won exactly when the boss is beaten")
        places = s.screen + on_street + s.to_scroll + s.gone + ([boss] if s.result == "win" else [])
        if sorted(places) != sorted(cards):
            raise bad_state("screen", "every card is on the screen, on the street, waiting to scroll or gone, once")
        if s.round < 1:
            raise bad_state("round", f"{s.round}")
        if s.last_enemy_phase is not None:
            self._validate_phase(s, s.last_enemy_phase)
        p = s.pending
        if (p is None) != (s.result is not None):
            raise bad_state("pending", "a decision is pending exactly while the game runs")
        if p is None:
            return
        if p.kind != "step" and (p.index != 0 or p.level not in (None, MIN_LEVEL if p.kind == "raise" else None)):
            raise bad_state("pending", f"a {p.kind} decision has no step index (nor a level but the reset one)")
        if p.kind == "choose_skill" and (p.skill is not None or s.to_scroll):
            raise bad_state("pending", "choosing a skill starts a round: no skill in use, nothing left to scroll")
        if p.kind in ("step", "raise") and p.skill is None:
            raise bad_state("pending", f"a {p.kind} decision names the skill in use")
        if p.kind == "step":
            if p.level is None or not MIN_LEVEL <= p.level <= MAX_LEVEL or p.level != s.levels.get(p.skill or ""):
                raise bad_state("pending", "the step's level is the skill's current level")
            if not 0 <= p.index < len(r.level_actions(s.hero, p.skill or "", p.level)):
                raise bad_state("pending", f"step {p.index} is not an action of that level")
        if p.kind == "raise" and s.levels.get(p.skill or "") != MIN_LEVEL:
            raise bad_state("pending", "the skill just used is back at level 1 when raising")

    @staticmethod
    def _validate_phase(s: m.State, ph: m.EnemyPhase) -> None:
        """The record of the last enemy phase names real cards, slots on the street
        and each enemy's own behaviour row, action by action."""
        cards = enemies()
        mx = heroes()[s.hero].max_hp
        if not 1 <= ph.round <= s.round or ph.round < s.round - 1:
            raise bad_state("last_enemy_phase", f"round {ph.round} is not this round or the last")
        if len(ph.screen) != SLOTS or any(x not in cards for x in ph.screen):
            raise bad_state("last_enemy_phase", f"the screen is {SLOTS} street cards")
        if not 0 <= ph.hero_slot < SLOTS or not 0 < ph.hero_hp <= mx:
            raise bad_state("last_enemy_phase", "the hero's slot and HP when the phase began")
        seen: set[str] = set()
        for turn in ph.turns:
            card = cards.get(turn.enemy)
            if card is None or turn.enemy in seen or not 0 <= turn.slot < SLOTS:
                raise bad_state("last_enemy_phase", f"{turn.enemy!r}: an enemy card, once, on a slot")
            seen.add(turn.enemy)
            row = list(getattr(card, turn.row))
            if turn.side == turn.row or len(turn.steps) > len(row):
                raise bad_state("last_enemy_phase", f"{turn.enemy}: its row opposite its side, at most its actions")
            for step, action in zip(turn.steps, row):
                moved = step.src is not None or step.dst is not None
                if step.action != action or (
                    moved and not (0 <= (step.src or 0) < SLOTS and 0 <= (step.dst or 0) < SLOTS)
                ):
                    raise bad_state(
                        "last_enemy_phase", f"{turn.enemy}: {step.action!r} is not {action!r} on the street"
                    )
                if step.swapped is not None and step.swapped != m.HERO and step.swapped not in cards:
                    raise bad_state("last_enemy_phase", f"no card {step.swapped!r}")
                if step.hp is not None and not 0 <= step.hp < mx:
                    raise bad_state("last_enemy_phase", f"hero HP {step.hp} after a hit")

    # ------------------------------------------------------ presentation
    def _option_value(self, name: str, value: Any, locale: str | None) -> str:
        if name == "hero" and has(f"city_of_fury.card.{value}.name"):
            return t(f"city_of_fury.card.{value}.name", locale)
        return super()._option_value(name, value, locale)

    def _action_label(self, state: m.State, a: Any, locale: str | None, labels: SeatLabels | None) -> str:
        k = a.kind
        if k == "choose_skill":
            level = state.levels[a.skill]
            return t(
                f"{NS}.action.choose_skill",
                locale,
                skill=_skill(a.skill, locale),
                level=level,
                actions=_acts(r.level_actions(state.hero, a.skill, level), locale),
            )
        if k == "move":
            h = r.hero_slot(state)
            other = state.street[h + r.DIRS[a.direction]]
            key = "move_swap" if other else "move"
            return t(
                f"{NS}.action.{key}", locale, direction=t(f"{NS}.dir.{a.direction}", locale), other=_name(other, locale)
            )
        if k in ("attack", "shoot"):
            return t(f"{NS}.action.{k}", locale, target=_name(a.target, locale), hp=state.enemy_hp.get(a.target, 0))
        if k == "heal":
            mx = heroes()[state.hero].max_hp
            return t(f"{NS}.action.heal", locale, hp=state.hero_hp, new=min(mx, state.hero_hp + 1))
        if k == "skip":
            step = self.current_step(state) or "move"
            return t(f"{NS}.action.skip", locale, action=t(f"{NS}.act.{step}", locale))
        if k == "raise":
            names = [
                t(f"{NS}.action.raise_one", locale, skill=_skill(x, locale), level=state.levels[x] + 1)
                for x in a.skills
            ]
            return t(f"{NS}.action.raise", locale, skills=t(f"{NS}.list_sep_plus", locale).join(names))
        return super()._action_label(state, a, locale, labels)

    def _action_group(self, state: m.State, a: Any) -> str:
        return {"choose_skill": "skill", "raise": "raise"}.get(a.kind, "step")

    def _prompt(self, state: m.State, seat: str) -> Msg:
        p = state.pending
        if p is None:
            return Msg(key=f"{NS}.prompt.over")
        if p.kind == "choose_skill":
            return Msg(key=f"{NS}.prompt.choose_skill", params={"round": state.round})
        if p.kind == "raise":
            return Msg(key=f"{NS}.prompt.raise", params={"skill": f"@{NS}.skill.{p.skill}"})
        assert p.skill is not None and p.level is not None
        actions = r.level_actions(state.hero, p.skill, p.level)
        return Msg(
            key=f"{NS}.prompt.step.{actions[p.index]}",
            params={"skill": f"@{NS}.skill.{p.skill}", "level": p.level, "n": p.index + 1, "total": len(actions)},
        )

    def _summary(self, state: m.State) -> Msg:
        params = {
            "round": state.round,
            "hp": state.hero_hp,
            "max": heroes()[state.hero].max_hp,
            "beaten": len(state.beaten),
            "enemies": len(state.enemy_hp),
        }
        if state.result is not None:
            return Msg(key=f"{NS}.summary.{state.result}", params=params)
        return Msg(key=f"{NS}.summary.running", params=params)

    def _event_text(self, event: Any, locale: str | None, labels: SeatLabels | None) -> str:
        params = event.model_dump(mode="json")
        params.pop("to", None)
        kind = params.pop("kind")
        for key in ("enemy", "target", "swapped", "defeated", "left_card", "entered"):
            if key in params:
                params[key] = _name(params[key], locale)
        for key in ("skill",):
            if key in params:
                params[key] = _skill(params[key], locale)
        if "skills" in params:
            params["skills"] = t(f"{NS}.list_sep_plus", locale).join(
                f"{_skill(k, locale)} {t(f'{NS}.lv', locale, level=lv)}" for k, lv in zip(event.skills, event.levels)
            )
        if kind == "skill_chosen":
            params["actions"] = _acts(event.actions, locale)
        if kind == "enemy_turn":
            params["actions"] = _acts(event.actions, locale, "eact")
            params["side"] = t(f"{NS}.dir.{event.side}", locale)
            params["row"] = t(f"{NS}.dir.{event.row}", locale)
        if kind in ("step_skipped",):
            params["action"] = t(f"{NS}.act.{event.action}", locale)
        if kind == "enemy_skipped":
            params["action"] = t(f"{NS}.eact.{event.action}", locale)
        if "direction" in params:
            params["direction"] = t(f"{NS}.dir.{params['direction']}", locale)
        if "how" in params and kind in ("hero_hit", "enemy_hit_hero"):
            kind = f"{kind}.{event.how}"
        if kind == "enemy_moved":
            kind = f"enemy_moved.{event.how}"
        if kind in ("hero_moved", "enemy_moved.jump", "hero_pushed") and event.swapped:
            kind = f"{kind}.swap"
        if kind == "step_skipped" and event.forced:
            kind = "step_skipped.forced"
        if kind == "scrolled":
            if event.entered is None:
                kind = "scrolled.gone"
            params["slid"] = t(f"{NS}.list_sep", locale).join(_name(x, locale) for x in event.slid)
            if event.slid:
                kind += ".slid"
        if "src" in params:
            params["src"] += 1
            params["dst"] += 1
        if "slot" in params:
            params["slot"] += 1
        return t(f"{NS}.event.{kind}", locale, **params)

    # ------------------------------------------------------------ AI
    def _ai_action(self, state: m.State, seat: str, level: str, legal: list[Any]) -> Any:
        from .ai import choose

        return choose(self, state, legal)

"""City of Fury: the designed card data is complete and within the rules' bounds."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from engine.city_of_fury.content import EnemyCard, HeroCard, content, enemies, heroes


def test_two_heroes_six_minions_and_the_boss():
    c = content()
    assert [h.id for h in c.heroes] == ["vigilante", "brawler"]
    assert len(c.minions) == 6 and c.boss.id == "boss_man"
    assert c.boss.name == "Boss Man" and c.boss.street == "Cafe Bar"
    assert "rash" in enemies()  # the enemy named in the rules' move example


def test_hp_fits_a_d6_and_levels_are_four_ordered_lists():
    for e in enemies().values():
        assert 1 <= e.max_hp <= 6 and e.left and e.right
    for h in heroes().values():
        assert 1 <= h.max_hp <= 6
        assert list(h.skills) == ["punch", "kick", "shoot", "dodge"]
        assert all(len(levels) == 4 and all(levels) for levels in h.skills.values())


def test_first_hero_kick_level_two_is_the_rules_example():
    assert heroes()["vigilante"].skills["kick"][1] == ["move", "move", "attack"]


def test_invalid_cards_are_rejected():
    good = heroes()["vigilante"].model_dump()
    with pytest.raises(ValidationError):
        HeroCard.model_validate({**good, "max_hp": 7})
    with pytest.raises(ValidationError):
        HeroCard.model_validate({**good, "skills": {**good["skills"], "kick": good["skills"]["kick"][:3]}})
    with pytest.raises(ValidationError):
        HeroCard.model_validate({**good, "skills": {**good["skills"], "punch": [["uppercut"]] * 4}})
    e = enemies()["rash"].model_dump()
    with pytest.raises(ValidationError):
        EnemyCard.model_validate({**e, "left": ["teleport"]})
    with pytest.raises(ValidationError):
        EnemyCard.model_validate({**e, "right": []})

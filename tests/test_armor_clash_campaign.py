"""Story mode: campaign progress as pure data (join, start, record, promotions, losses)."""

import pytest

from engine import GameError
from engine.armor_clash import GAME, content, start_scenario
from engine.armor_clash import campaign as C


def res(scenario, won, *units):
    return C.ScenarioResult(
        scenario=scenario,
        won=won,
        turns=10,
        units=[C.UnitResult(seat=s, status=st, kills=k, track_knockouts=tk) for s, st, k, tk in units],
    )


def test_scenarios_end_with_the_boss():
    ids = [s["id"] for s in C.scenario_list()]
    assert len(ids) >= 3 and ids[-1] == "c4_wittmann"
    assert any(e.get("boss") for e in content.scenarios()[ids[-1]]["enemies"])


def test_hard_campaign_refused():
    with pytest.raises(GameError) as exc:
        C.new_campaign("hell")
    assert exc.value.code == "mode_unavailable"


def test_start_scenario_creates_recruit_crews_and_a_playable_state():
    p = C.new_campaign()
    p, opts, s = start_scenario(p, ["a", "b"], seed=4)
    assert set(p.crews) == {"a", "b"} and all(c.level == "recruit" for c in p.crews.values())
    assert opts.scenario == "c1_recon" and opts.crews == ["recruit", "recruit"]
    assert GAME.to_act(s) == ["a", "b"] and s.max_turns == C.scenario_list()[0]["max_turns"]["normal"] == 60
    assert all(u.crew == "recruit" for u in s.units if u.seat)


def test_players_join_between_scenarios_up_to_four():
    p = C.new_campaign()
    for seat in "abcd":
        p = C.join(p, seat)
    with pytest.raises(GameError) as exc:
        C.join(p, "e")
    assert exc.value.code == "campaign_full"
    p2, _, s = start_scenario(C.join(C.new_campaign(), "a"), ["a", "z"], seed=1)
    assert "z" in p2.crews


def test_victory_gives_experience_promotes_and_advances():
    p = C.join(C.join(C.new_campaign(), "a"), "b")
    p = C.record_result(p, res("c1_recon", True, ("a", "active", 1, 0), ("b", "out", 0, 0)))
    assert p.index == 1
    assert p.crews["a"].xp == 3 and p.crews["a"].level == "veteran"  # survived 1 + kill 1 + victory 1
    assert p.crews["b"].xp == 2 and p.crews["b"].level == "recruit"
    assert p.history[-1].promotions == ["a:veteran"]
    p.crews["a"].xp = 6
    p = C.record_result(p, res("c2_bridge", True, ("a", "active", 0, 0)))
    assert p.crews["a"].level == "legend"


def test_defeat_keeps_the_scenario_for_a_retry_and_losses_carry_over():
    p = C.join(C.new_campaign(), "a")
    p.crews["a"].xp, p.crews["a"].level = 5, "veteran"
    p = C.record_result(p, res("c1_recon", False, ("a", "destroyed", 0, 0)))
    assert p.index == 0 and p.losses == 1 and p.reserve == content.campaign()["reserve_vehicles"] - 1
    crew = p.crews["a"]
    assert crew.level == "recruit" and crew.xp == 0 and crew.generation == 2


def test_unrepairable_tracks_with_the_option():
    p = C.join(C.new_campaign(repeated_hits=True), "a")
    p = C.record_result(p, res("c1_recon", False, ("a", "out", 0, 1)))
    assert p.losses == 0
    p = C.record_result(p, res("c1_recon", False, ("a", "out", 0, 1)))
    assert p.losses == 1 and p.crews["a"].generation == 1


def test_tracks_are_always_repaired_without_the_option():
    p = C.join(C.new_campaign(), "a")
    for _ in range(3):
        p = C.record_result(p, res("c1_recon", False, ("a", "out", 0, 1)))
    assert p.losses == 0


def test_campaign_lost_when_reserve_runs_out():
    p = C.join(C.new_campaign(), "a")
    p.reserve = 0
    p = C.record_result(p, res("c1_recon", False, ("a", "destroyed", 0, 0)))
    assert p.finished and not p.won
    with pytest.raises(GameError) as exc:
        start_scenario(p, ["a"])
    assert exc.value.code == "campaign_over"


def test_winning_the_boss_fight_finishes_the_campaign():
    p = C.join(C.new_campaign(), "a")
    p.index = len(C.scenario_list()) - 1
    p = C.record_result(p, res("c4_wittmann", True, ("a", "active", 1, 0)))
    assert p.finished and p.won


def test_result_for_another_scenario_is_refused():
    p = C.join(C.new_campaign(), "a")
    with pytest.raises(GameError) as exc:
        C.record_result(p, res("c3_village", True, ("a", "active", 0, 0)))
    assert exc.value.code == "campaign_wrong_scenario"


def test_full_scenario_from_start_to_record_and_json_round_trip():
    p = C.new_campaign("simple")
    p, _, s = start_scenario(p, ["a"], seed=7)
    while GAME.outcome(s) is None:
        seat = GAME.to_act(s)[0]
        s, _ = GAME.apply(s, seat, GAME.ai_action(s, seat))
    r = C.result_of(s)
    assert r.scenario == "c1_recon" and r.won == (GAME.outcome(s).winners == ["a"])
    p = C.record_result(p, s)
    again = C.Progress.model_validate_json(p.model_dump_json())
    assert again == p and p.crews["a"].battles == 1


def test_veteran_crews_get_their_link_trait_in_scenarios():
    p = C.join(C.new_campaign(), "a")
    p.crews["a"].level = "veteran"
    p, opts, s = start_scenario(p, ["a"])
    assert opts.links == [True] and s.units[0].link


def test_simple_campaign_battles_are_shorter():
    p, opts, s = start_scenario(C.new_campaign("simple"), ["a"])
    assert s.max_turns == C.scenario_list()[0]["max_turns"]["simple"] < 60

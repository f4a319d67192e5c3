"""Thunder Road: Vendetta -- typed events: one model per kind, log text from typed fields,
seat labels, and logs stored before schema 2 (one generic event with a ``params`` dict)."""

from __future__ import annotations

import random
import typing

import pytest
from pydantic import TypeAdapter

from engine.locales import CODES
from engine.thunder_road import GAME
from engine.thunder_road import models as M

# (stored event, English text, Chinese text) as the schema-1 engine wrote and showed them,
# one per event kind (recorded from self-play with the schema-1 code)
LEGACY_EVENTS = [
    (
        {"kind": "airstrike", "to": None, "params": {"seat": "p0", "col": 4, "row": 7}},
        "p0's chopper lands on D7.",  # spaces named as on the board (issue 12)
        "p0 的直升机部署到D7。",
    ),
    (
        {
            "kind": "assign",
            "to": None,
            "params": {"die": 5, "vid": "p1:medium", "car": "@thunder_road.vehicle.medium", "owner": "p1"},
        },
        "p1/Medium car gets die 5.",
        "p1/中型车 分配骰子5。",
    ),
    (
        {
            "kind": "blast",
            "to": None,
            "params": {
                "dir": "@thunder_road.dir.se",
                "n": 1,
                "vid": "p2:medium",
                "car": "@thunder_road.vehicle.medium",
                "owner": "p2",
            },
        },
        "p2/Medium car is blasted 1 space back-right.",
        "p2/中型车 被炸飞，向右后移动1格。",
    ),
    (
        {
            "kind": "bonus",
            "to": None,
            "params": {"n": 2, "vid": "p1:medium", "car": "@thunder_road.vehicle.medium", "owner": "p1"},
        },
        "p1/Medium car takes the road bonus +2.",
        "p1/中型车 使用道路加速 +2。",
    ),
    (
        {
            "kind": "bonus_declined",
            "to": None,
            "params": {"vid": "p2:medium", "car": "@thunder_road.vehicle.medium", "owner": "p2"},
        },
        "p2/Medium car skips the road bonus.",
        "p2/中型车 放弃道路加速。",
    ),
    (
        {"kind": "chopper_returned", "to": None, "params": {"seat": "p0"}},
        "p0's chopper returns from the removed tile.",
        "p0 的直升机从被移除的道路返回。",
    ),
    (
        {
            "kind": "coast",
            "to": None,
            "params": {"die": 2, "vid": "p1:large", "car": "@thunder_road.vehicle.large", "owner": "p1"},
        },
        "p1/Large car coasts (die 2).",
        "p1/大型车 滑行（骰子2）。",
    ),
    (
        {"kind": "command", "to": None, "params": {"seat": "p1", "command": "@thunder_road.command.nitro", "die": 1}},
        "p1 uses Nitro (die 1).",
        "p1 执行氮气加速（骰子1）。",
    ),
    (
        {
            "kind": "damage",
            "to": None,
            "params": {
                "token": "@thunder_road.token.dazed",
                "type": "dazed",
                "vid": "p0:small",
                "car": "@thunder_road.vehicle.small",
                "owner": "p0",
            },
        },
        "p0/Small car draws Dazed.",
        "p0/小型车 抽到伤害标记：眩晕。",
    ),
    (
        {
            "kind": "damage_ignored",
            "to": None,
            "params": {"vid": "p0:large", "car": "@thunder_road.vehicle.large", "owner": "p0"},
        },
        "p0/Large car is already inoperable; damage ignored.",
        "p0/大型车 已失去行动能力，忽略伤害。",
    ),
    (
        {
            "kind": "dazed",
            "to": None,
            "params": {"n": 2, "vid": "p0:small", "car": "@thunder_road.vehicle.small", "owner": "p0"},
        },
        "p0/Small car is dazed for 2 spaces.",
        "p0/小型车 眩晕，移动2格。",
    ),
    (
        {
            "kind": "drift_through",
            "to": None,
            "params": {"other": "p1:large", "vid": "p0:medium", "car": "@thunder_road.vehicle.medium", "owner": "p0"},
        },
        "p0/Medium car drifts through.",
        "p0/中型车 漂移穿过。",
    ),
    (
        {
            "kind": "eliminated",
            "to": None,
            "params": {
                "reason": "@thunder_road.reason.impassable",
                "vid": "p1:medium",
                "car": "@thunder_road.vehicle.medium",
                "owner": "p1",
            },
        },
        "p1/Medium car is eliminated: hit impassable terrain.",
        "p1/中型车 被淘汰：进入无法通行格。",
    ),
    (
        {
            "kind": "enter",
            "to": None,
            "params": {"col": 4, "vid": "p1:medium", "car": "@thunder_road.vehicle.medium", "owner": "p1"},
        },
        "p1/Medium car enters the road at D1.",
        "p1/中型车 从D1驶入道路。",
    ),
    (
        {"kind": "extend", "to": None, "params": {"tile": "Runway to Ruin"}},
        "The road extends; Runway to Ruin is removed behind.",
        "道路延伸，后方的毁灭跑道被移除。",  # tile names in the reader's language (issue 12)
    ),
    (
        {
            "kind": "finish",
            "to": None,
            "params": {"seat": "p1", "vid": "p1:small", "car": "@thunder_road.vehicle.small", "owner": "p1"},
        },
        "p1/Small car crosses the finish line!",
        "p1/小型车 冲过终点线！",
    ),
    (
        {"kind": "finish_line", "to": None, "params": {"tiles": 5}},
        "The finish line is placed after the lead tile (tile 5).",
        "终点线放在领先道路前方（第5块）。",
    ),
    (
        {
            "kind": "fire_roll",
            "to": None,
            "params": {
                "face": "@thunder_road.fireface.flare_2",
                "vid": "p3:bike4",
                "car": "@thunder_road.vehicle.bike4",
                "owner": "p3",
            },
        },
        "p3/Bike 4 is on fire: flare: +2 moves.",
        "p3/摩托4 着火：火势加速：+2格。",
    ),
    (
        {"kind": "first_player", "to": None, "params": {"seat": "p1"}},
        "p1 has the lowest total and starts.",
        "p1 点数最低，成为起始玩家。",
    ),
    (
        {"kind": "game_over", "to": None, "params": {"seats": "p1", "reason": "@thunder_road.end.finish"}},
        "Game over: p1 wins (finish line).",
        "游戏结束：p1 获胜（冲过终点线）。",
    ),
    (
        {
            "kind": "hazard",
            "to": None,
            "params": {
                "token": "@thunder_road.token.road",
                "type": "road",
                "vid": "p0:small",
                "car": "@thunder_road.vehicle.small",
                "owner": "p0",
            },
        },
        "p0/Small car flips a hazard: Road!",
        "p0/小型车 翻开危险标记：道路！",
    ),
    (
        {
            "kind": "hit",
            "to": None,
            "params": {"vid": "p0:medium", "car": "@thunder_road.vehicle.medium", "owner": "p0"},
        },
        "Hit! p0/Medium car takes damage.",
        "命中！p0/中型车 受到伤害。",
    ),
    (
        {
            "kind": "inoperable",
            "to": None,
            "params": {"vid": "p0:small", "car": "@thunder_road.vehicle.small", "owner": "p0"},
        },
        "p0/Small car is inoperable.",
        "p0/小型车 失去行动能力。",
    ),
    (
        {"kind": "last_standing", "to": None, "params": {"seat": "p0"}},
        "p0 is the last crew standing.",
        "p0 是最后幸存的车队。",
    ),
    (
        {
            "kind": "minor_damage",
            "to": None,
            "params": {"n": 1, "cap": 1, "vid": "p3:bike3", "car": "@thunder_road.vehicle.bike3", "owner": "p3"},
        },
        "p3/Bike 3 takes minor damage (1/1).",
        "p3/摩托3 受到轻微伤害（1/1）。",
    ),
    (
        {
            "kind": "miss",
            "to": None,
            "params": {"vid": "p0:small", "car": "@thunder_road.vehicle.small", "owner": "p0"},
        },
        "Missed p0/Small car.",
        "未命中 p0/小型车。",
    ),
    (
        {"kind": "no_wreck", "to": None, "params": {}},
        "No wreck figure left; the token is discarded.",
        "没有剩余的残骸模型，弃掉该标记。",
    ),
    (
        {
            "kind": "oil",
            "to": None,
            "params": {
                "dir": "@thunder_road.dir.n",
                "vid": "p1:small",
                "car": "@thunder_road.vehicle.small",
                "owner": "p1",
            },
        },
        "p1/Small car slides on oil forward.",
        "p1/小型车 在油污上向正前滑动。",
    ),
    (
        {
            "kind": "on_fire",
            "to": None,
            "params": {"vid": "p2:large", "car": "@thunder_road.vehicle.large", "owner": "p2"},
        },
        "p2/Large car is ON FIRE!",
        "p2/大型车 着火了！",
    ),
    ({"kind": "pass", "to": None, "params": {"seat": "p0"}}, "p0 does not coast.", "p0 选择不滑行。"),
    ({"kind": "player_out", "to": None, "params": {"seat": "p1"}}, "p1 is out of the race.", "p1 退出比赛。"),
    (
        {
            "kind": "plough",
            "to": None,
            "params": {
                "token": "@thunder_road.token.mine",
                "vid": "p4:rig",
                "car": "@thunder_road.vehicle.rig",
                "owner": "p4",
            },
        },
        "p4/Big Rig ploughs through Mine.",
        "p4/重型卡车 碾过地雷。",
    ),
    (
        {
            "kind": "pushed",
            "to": None,
            "params": {
                "dir": "@thunder_road.dir.nw",
                "vid": "p1:small",
                "car": "@thunder_road.vehicle.small",
                "owner": "p1",
            },
        },
        "p1/Small car is pushed front-left.",
        "p1/小型车 被推向左前。",
    ),
    (
        {
            "kind": "repair",
            "to": None,
            "params": {"vid": "p1:small", "car": "@thunder_road.vehicle.small", "owner": "p1"},
        },
        "p1/Small car is repaired.",
        "p1/小型车 修复了1个伤害。",
    ),
    (
        {
            "kind": "reroll",
            "to": None,
            "params": {"seat": "p1", "slam": "@thunder_road.slamface.bottom", "dir": "@thunder_road.dir.se"},
        },
        "p1 demands a reroll: bottom vehicle moves; back-right.",
        "p1 要求重新投掷：下方载具移动；右后。",
    ),
    (
        {
            "kind": "reroll_asked",
            "to": None,
            "params": {
                "seat": "p1",
                "slam": "@thunder_road.slamface.top",
                "dir": "@thunder_road.dir.ne",
                "pushed": "@thunder_road.vehicle.medium",
                "owner": "p0",
                "result": "@thunder_road.mark.ok",
            },
        },
        "p1 may demand a reroll (top vehicle moves; front-right).",
        "p1 可以要求重新投掷（上方载具移动；右前）。",
    ),
    (
        {
            "kind": "restored",
            "to": None,
            "params": {"vid": "p3:bike3", "car": "@thunder_road.vehicle.bike3", "owner": "p3"},
        },
        "p3/Bike 3 is operable again.",
        "p3/摩托3 恢复行动能力。",
    ),
    (
        {"kind": "road_die", "to": None, "params": {"seat": "p0", "value": 2}},
        "p0 rolls the road die: +2.",
        "p0 投掷道路骰：+2。",
    ),
    (
        {"kind": "round", "to": None, "params": {"round": 2, "seat": "p0"}},
        "Round 2 begins; p0 starts.",
        "第2轮开始，起始玩家 p0。",
    ),
    (
        {"kind": "setup", "to": None, "params": {"start": "The Parking Lot", "mid": "Canyon Run", "lead": "Mud Flats"}},
        "Road: The Parking Lot → Canyon Run → Mud Flats.",
        "道路：The Parking Lot → Canyon Run → Mud Flats。",
    ),
    (
        {"kind": "setup_roll", "to": None, "params": {"seat": "p0", "dice": [1, 3, 4, 6], "total": 14}},
        "p0 rolls [1, 3, 4, 6] (total 14).",
        "p0 掷出 [1, 3, 4, 6]（总和14）。",
    ),
    (
        {
            "kind": "shoot",
            "to": None,
            "params": {
                "face": "@thunder_road.shootface.large",
                "target": "p0:small",
                "target_car": "@thunder_road.vehicle.small",
                "target_owner": "p0",
                "vid": "p1:small",
                "car": "@thunder_road.vehicle.small",
                "owner": "p1",
            },
        },
        "p1/Small car shoots at p0/Small car: large.",
        "p1/小型车 射击 p0/小型车：大型。",
    ),
    (
        {
            "kind": "shrapnel",
            "to": None,
            "params": {
                "dir": "@thunder_road.dir.n",
                "target": "p0:small",
                "target_car": "@thunder_road.vehicle.small",
                "target_owner": "p0",
                "vid": "p1:large",
                "car": "@thunder_road.vehicle.large",
                "owner": "p1",
            },
        },
        "Shrapnel flies forward into p0/Small car.",
        "弹片向正前飞出，击中 p0/小型车。",
    ),
    (
        {
            "kind": "shrapnel_none",
            "to": None,
            "params": {
                "dir": "@thunder_road.dir.s",
                "vid": "p1:large",
                "car": "@thunder_road.vehicle.large",
                "owner": "p1",
            },
        },
        "Shrapnel flies back and hits nothing.",
        "弹片向正后飞出，没有击中任何载具。",
    ),
    (
        {
            "kind": "skid",
            "to": None,
            "params": {
                "dir": "@thunder_road.dir.ne",
                "vid": "p0:small",
                "car": "@thunder_road.vehicle.small",
                "owner": "p0",
            },
        },
        "p0/Small car skids front-right.",
        "p0/小型车 向右前打滑。",
    ),
    (
        {
            "kind": "slam",
            "to": None,
            "params": {
                "top": "p1:small",
                "bottom": "p0:small",
                "top_car": "@thunder_road.vehicle.small",
                "bottom_car": "@thunder_road.vehicle.small",
                "top_owner": "p1",
                "bottom_owner": "p0",
            },
        },
        "SLAM! p1/Small car hits p0/Small car.",
        "撞击！p1/小型车 撞上 p0/小型车。",
    ),
    (
        {
            "kind": "slam_roll",
            "to": None,
            "params": {"slam": "@thunder_road.slamface.top", "dir": "@thunder_road.dir.nw"},
        },
        "Slam die: top vehicle moves; direction: front-left.",
        "撞击骰：上方载具移动；方向骰：左前。",
    ),
    (
        {
            "kind": "step",
            "to": None,
            "params": {
                "dir": "@thunder_road.dir.n",
                "vid": "p1:medium",
                "car": "@thunder_road.vehicle.medium",
                "owner": "p1",
            },
        },
        "p1/Medium car moves forward.",
        "p1/中型车 向正前移动。",
    ),
    (
        {
            "kind": "stop",
            "to": None,
            "params": {"vid": "p1:small", "car": "@thunder_road.vehicle.small", "owner": "p1"},
        },
        "p1/Small car loses its remaining moves.",
        "p1/小型车 失去剩余移动。",
    ),
    (
        {"kind": "tile", "to": None, "params": {"name": "Scrapyard", "number": 4}},
        "New lead tile: Scrapyard (tile 4).",
        "新的领先道路：废车场（第4块）。",
    ),
    (
        {"kind": "turn", "to": None, "params": {"seat": "p0", "round": 1, "turn": 1}},
        "p0: turn 1 of round 1.",
        "p0：第1轮第1次行动。",
    ),
    (
        {"kind": "turn_skipped", "to": None, "params": {"seat": "p3"}},
        "p3 has no car that can move; turn skipped.",
        "p3 没有可以移动的汽车，跳过本次行动。",
    ),
    (
        {
            "kind": "wreck_placed",
            "to": None,
            "params": {"vid": "w1", "car": "@thunder_road.vehicle.wreck", "owner": "-"},
        },
        "A wreck appears on the road.",
        "道路上出现一个残骸。",
    ),
    (
        {
            "kind": "wreck_removed",
            "to": None,
            "params": {
                "reason": "@thunder_road.reason.rear_tile",
                "vid": "w1",
                "car": "@thunder_road.vehicle.wreck",
                "owner": "-",
            },
        },
        "A wreck is removed: left behind on the rear tile.",
        "一个残骸被移除：被留在后方道路板块。",
    ),
]


def test_every_event_kind_has_its_own_model_in_the_union():
    union = typing.get_args(M.TREvent)[0]
    classes = typing.get_args(union)
    assert set(classes) == set(M.EVENT_CLASSES) and len(classes) == len(M.EVENT_BY_KIND) == 54
    assert {c.model_fields["kind"].default for c in classes} == {row[0]["kind"] for row in LEGACY_EVENTS}
    for c in classes:
        assert "params" not in c.model_fields
        for f in c.refs:
            assert f in c.model_fields, (c, f)
        for f in c.seat_fields:
            assert f in c.model_fields, (c, f)


@pytest.mark.parametrize("stored,en,zh", LEGACY_EVENTS, ids=[r[0]["kind"] for r in LEGACY_EVENTS])
def test_schema_1_log_events_load_as_typed_events_and_read_the_same(stored, en, zh):
    (e,) = GAME.load_events([stored])
    assert type(e) is M.EVENT_BY_KIND[stored["kind"]]
    assert GAME.event_text(e, "en") == en and GAME.event_text(e, "zh") == zh
    # and the new form round-trips
    (again,) = GAME.load_events(GAME.dump_events([e]))
    assert again == e and "params" not in GAME.dump_events([e])[0]


def test_events_of_play_are_typed_round_trip_and_translate():
    adapter = TypeAdapter(M.TREvent)
    kinds = set()
    for g in range(6):
        st = GAME.new([f"p{i}" for i in range(2 + g % 3)], {"on_fire": g % 2 == 1}, g)
        rnd = random.Random(g)
        while GAME.outcome(st) is None:
            s = GAME.to_act(st)[0]
            legal = GAME.legal_actions(st, s)
            st, ev = GAME.apply(st, s, GAME.ai_action(st, s) if rnd.random() < 0.8 else rnd.choice(legal))
            for e in ev:
                kinds.add(e.kind)
                assert isinstance(e, M.TREventBase) and adapter.validate_python(e.model_dump(mode="json")) == e
                for loc in CODES:
                    txt = GAME.event_text(e, loc)
                    assert "@" not in txt and "{" not in txt and "thunder_road." not in txt, txt
    assert len(kinds) > 30


def test_event_text_uses_the_callers_seat_labels():
    class Label:
        def __init__(self, name):
            self.name = name

    labels = {"p0": Label("Alice"), "p1": Label("Bob")}
    slam = M.SlamEvent(
        top="p0:small", bottom="p1:large", top_car="small", bottom_car="large", top_owner="p0", bottom_owner="p1"
    )
    assert GAME.event_text(slam, "en", labels) == "SLAM! Alice/Small car hits Bob/Large car."
    assert GAME.event_text(slam, "en") == "SLAM! p0/Small car hits p1/Large car."
    over = M.GameOverEvent(winners=["p0", "p1"], reason="last_standing")
    assert "Alice, Bob" in GAME.event_text(over, "en", labels)
    wreck = M.HitEvent(vid="w7", car="wreck", owner=None)
    assert GAME.event_text(wreck, "en", labels).startswith("Hit! -/")


def test_a_wrong_event_field_fails_where_it_is_made():
    with pytest.raises(ValueError):
        M.StepEvent(vid="a", car="small", owner="p0", dir="up")
    with pytest.raises(ValueError):
        M.EliminatedEvent(vid="a", car="small", owner="p0", reason="bad luck")

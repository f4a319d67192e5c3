"""A scripted 3-player game of Automobile, checked step by step against money computed by hand.

Demand cards are dealt by rigging ``deck.demand`` (and ``demand.extra``), so
every sale below is known in advance.  Comments give the arithmetic.
Space ids: mid 0 ($300), 3 ($310), 6 ($320); low 9 ($240, era 2).
"""

from engine.automobile import GAME
from engine.automobile import rules as R
from engine.automobile.models import (
    Act,
    BuildClass,
    BuildCount,
    BuildSpace,
    Cancel,
    Close,
    DistMove,
    Done,
    Exec,
    Loan,
    Marker,
    Pick,
    PlaceDist,
    Produce,
)


class Table:
    def __init__(self):
        st = GAME.new(["a", "b", "c"], seed=2024)
        # rigged first deal: selection order a, b, c; cards a 5, b 3, c 4 (all mid demand)
        st.selection_order = ["a", "b", "c"]
        st.current = "a"
        bag = [2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5]
        for seat, card in (("a", 5), ("b", 3), ("c", 4)):
            st.players[seat].hand = [card]
            bag.remove(card)
        st.bag = bag
        self.st = st

    def __call__(self, seat, action):
        assert GAME.to_act(self.st) == [seat], (GAME.to_act(self.st), seat, action)
        self.st, events = GAME.apply(self.st, seat, action)
        return events

    def rig(self, name, values):
        self.st = GAME.rig(self.st, name, values)

    def money(self):
        return tuple(self.st.players[s].money for s in "abc")

    def losses(self):
        return tuple(self.st.players[s].losses for s in "abc")


def mid_mid():
    return DistMove(src="mid", lane="mid")


def test_scripted_three_player_game():
    g = Table()
    st = lambda: g.st  # noqa: E731

    # ---------------- round 1 (mid demand 5 + 3 + 4 = 12)
    g("a", Pick(character="ford"))
    g("b", Pick(character="kettering"))  # b takes 3 R&D
    g("c", Pick(character="durant"))  # c takes 1 R&D, builds at once
    g("c", BuildClass(cls="mid"))
    g("c", BuildSpace(space=3))  # $310, jump fee 1 R&D
    assert g.money() == (2000, 2000, 1690) and st().players["c"].rd == 0
    assert st().action_order == ["a", "b", "c"]

    g("a", Act(what="build"))
    g("a", BuildClass(cls="mid"))
    g("a", BuildSpace(space=6))
    g("a", BuildCount(count=3))  # Ford's extra factory: 3 x $320
    g("b", Act(what="build"))
    g("b", BuildClass(cls="mid"))
    g("b", BuildSpace(space=0))
    g("b", BuildCount(count=2))  # 2 x $300
    g("c", Act(what="build"))
    g("c", BuildClass(cls="mid"))
    g("c", BuildSpace(space=3))
    g("c", BuildCount(count=1))  # $310
    assert g.money() == (1040, 1400, 1380)

    g("a", Act(what="produce"))
    g("a", Produce(space=6, count=8))  # 3 factories: 8-11, 8 x $60
    g("b", Act(what="produce"))
    g("b", Produce(space=0, count=4))  # 2 factories: 4-7
    g("c", Act(what="produce"))
    g("c", Produce(space=3, count=4))
    assert g.money() == (560, 1160, 1140)

    g("a", Act(what="distributors"))
    g("a", PlaceDist(cls="mid"))
    g("a", PlaceDist(cls="mid"))
    g("a", Done())
    g("b", Act(what="rd"))
    g("c", Act(what="distributors"))
    g("c", PlaceDist(cls="mid"))
    g("c", Done())
    assert st().phase == 5 and R.lane_capacity(st()) == 3  # no Howard this round

    g("a", mid_mid())  # +150, the car is taken from space 6
    g("c", mid_mid())  # b has no distributor
    g("a", mid_mid())  # mid lane now full (3)
    assert g.money() == (860, 1160, 1290) and st().phase == 6

    g("a", Exec(choice="pass"))
    g("b", Exec(choice="bonus"))  # first marker: 2 R&D
    g("b", Marker(space=0))
    g("c", Exec(choice="discount1"))
    g("c", Marker(space=3))
    # decisions go round until everyone passed: a passed, so b and c decide again
    assert GAME.to_act(st()) == ["b"]
    g("b", Exec(choice="pass"))
    g.rig("deck.demand", [5, 2, 4, 3, 4, 2])  # round 2 deal, selection order a, b, c (the passing order)
    events = g("c", Exec(choice="pass"))
    # demand 12: newest first. pass 1: a 1 @150, c 2 @100 (discount), b 2 @150 (bonus)
    # pass 2: a 1, c 1 (c empty), b 2 (b empty); then a alone: 3 more -> a sold 5, 1 left unsold
    sales = [(e.seat, e.n, e.price) for e in events if e.kind == "demand_sale"]
    assert sales == [
        ("a", 1, 150),
        ("c", 2, 100),
        ("b", 2, 150),
        ("a", 1, 150),
        ("c", 1, 100),
        ("b", 2, 150),
        ("a", 1, 150),
        ("a", 1, 150),
        ("a", 1, 150),
    ]
    # losses: a 1 unsold; mid ranks 6 (a) 0, 3 (c) 1, 0 (b) 2; $10 a point
    assert [(e.seat, e.delta) for e in events if e.kind == "loss_fee"] == [("a", -10), ("b", -20), ("c", -10)]
    assert g.money() == (860 + 750 - 10, 1160 + 600 - 20, 1290 + 300 - 10) == (1600, 1740, 1580)
    assert g.losses() == (1, 2, 1)

    # ---------------- round 2 (mid 5 + 4 + 4 = 13, low 2 + 3 + 2 = 7)
    assert st().round == 2 and st().selection_order == ["a", "b", "c"]
    assert [st().players[s].hand for s in "abc"] == [[5, 2], [4, 3], [4, 2]]
    g("a", Pick(character="howard"))
    g("b", Pick(character="sloan"))
    g("c", Pick(character="chrysler"))
    assert st().action_order == ["b", "a", "c"]
    assert tuple(st().players[s].rd for s in "abc") == (1, 4, 2)

    g("b", Act(what="build"))
    g("b", BuildClass(cls="low"))
    g("b", BuildSpace(space=9))  # 3 low spaces skipped: 3 R&D a factory
    assert [a.count for a in GAME.legal_actions(st(), "b") if isinstance(a, BuildCount)] == [1]
    g("b", BuildCount(count=1))  # $240
    g("a", Act(what="produce"))
    g("a", Produce(space=6, count=8))  # $480
    g("c", Loan())  # +$500, still c's action
    g("c", Act(what="rd"))
    assert g.money() == (1120, 1500, 2080) and st().players["b"].rd == 1

    g("b", Act(what="produce"))
    g("b", Produce(space=0, count=5))  # 5 x $60
    g("b", Produce(space=9, count=2))  # 2 x $30
    g("a", Act(what="rd"))
    g("c", Act(what="produce"))
    g("c", Produce(space=3, count=6))  # $360
    assert g.money() == (1120, 1140, 1720)

    g("b", Act(what="distributors"))
    g("b", PlaceDist(cls="low"))
    g("b", Done())
    g("a", Act(what="rd"))
    events = g("c", Act(what="rd"))
    # Howard (a) must sell 2: only mid cars, so both come from space 6 at $150
    assert [e.delta for e in events if e.kind == "howard_sale"] == [150, 150]
    assert g.money() == (1420, 1140, 1720) and st().phase == 5 and R.lane_capacity(st()) == 6

    g("b", DistMove(src="low", lane="low"))  # +100 from space 9
    g("a", mid_mid())
    g("c", mid_mid())
    g("a", mid_mid())
    assert g.money() == (1720, 1240, 1870) and st().phase == 6

    g("b", Exec(choice="close"))
    events = g("b", Close(space=0))  # 2 x ($300 - $100); losses 2 -> 1; its 5 cars are withdrawn unsold
    assert [(e.kind, e.cars) for e in events if e.kind == "close"] == [("close", 5)] and st().spaces[0].cars == 0
    assert g.money()[1] == 1640 and st().players["b"].losses == 1
    assert Exec(choice="discount2") not in GAME.legal_actions(st(), "a")  # a has one space only
    g("a", Exec(choice="pass"))
    g("c", Exec(choice="pass"))
    assert Exec(choice="close") not in GAME.legal_actions(st(), "b")  # one close a round
    g.rig("deck.demand", [5, 3, 4, 4, 3, 2])  # round 3 order: a, c, b (the passing order)
    events = g("b", Exec(choice="pass"))
    # low 7: b sells its 1 car. mid 13: a 4, c 5 (b's cars left with the closed factories)
    assert g.money() == (2300, 1720, 2530)
    # losses: c rank 1 in mid -> 2 points; fees $20: b 1 -> 20, a 1 -> 20, c 2 -> 40
    # Sloan b discards 1, Chrysler c discards 2 (round 2), c pays $50 interest
    assert [(e.seat, e.delta) for e in events if e.kind == "loss_fee"] == [("b", -20), ("a", -20), ("c", -40)]
    assert g.losses() == (1, 0, 0)

    # ---------------- round 3 (low 5 + 4 + 3 = 12, mid 3 + 4 + 2 = 9, high: extra card 2)
    assert st().selection_order == ["a", "c", "b"]
    assert [st().players[s].hand for s in "acb"] == [[5, 3], [4, 4], [3, 2]]
    g("a", Pick(character="kettering"))
    g("c", Pick(character="ford"))
    g("b", Pick(character="durant"))
    g("b", Cancel())  # Durant builds nothing
    assert st().action_order == ["c", "a", "b"]
    g("c", Act(what="produce"))
    g("c", Produce(space=3, count=4))
    g("a", Act(what="produce"))
    g("a", Produce(space=6, count=8))
    g("b", Act(what="produce"))
    g("b", Produce(space=9, count=2))
    assert g.money() == (1820, 1660, 2290)
    for _ in range(2):
        for seat in "cab":
            g(seat, Act(what="rd"))
    assert R.lane_capacity(st()) == 9
    g("c", mid_mid())
    g("a", mid_mid())
    g("b", DistMove(src="low", lane="low"))
    g("a", mid_mid())
    assert g.money() == (2120, 1760, 2440) and st().phase == 6
    g("c", Exec(choice="pass"))
    g("a", Exec(choice="pass"))
    g.rig("demand.extra", [2, 5, 3])  # round 3 high; round 4 high then low
    g.rig("deck.demand", [5, 2, 4, 3, 3, 2])  # round 4 order: c, a, b
    events = g("b", Exec(choice="pass"))
    assert st().round == 4
    # low 12: b 1 car; mid 9: a 6 (all), c 3 (all); fees $30: c 1 point, a 1 (b has none); c interest $50
    assert g.money() == (2120 + 900 - 30, 1760 + 100, 2440 + 450 - 30 - 50) == (2990, 1860, 2810)

    # ---------------- round 4 (low 5 + 4 + 3 + extra 3 = 15, mid 2 + 3 + 2 = 7, high extra 5)
    assert st().selection_order == ["c", "a", "b"]
    g("c", Pick(character="sloan"))
    g("a", Pick(character="chrysler"))
    g("b", Pick(character="howard"))
    assert st().action_order == ["c", "b", "a"]
    g("c", Act(what="produce"))
    g("c", Produce(space=3, count=4))
    g("b", Act(what="produce"))
    g("b", Produce(space=9, count=2))
    g("a", Act(what="produce"))
    g("a", Produce(space=6, count=8))
    for _ in range(2):
        g("c", Act(what="rd"))
        g("b", Act(what="rd"))
        events = g("a", Act(what="rd"))
    # Howard (b) sells both low cars at $100
    assert [e.delta for e in events if e.kind == "howard_sale"] == [100, 100]
    assert g.money() == (2510, 2000, 2570)
    g("c", mid_mid())
    g("a", mid_mid())  # b has no car left for its distributor
    g("a", mid_mid())
    assert g.money() == (2810, 2000, 2720) and st().players["b"].losses == 1  # unused distributor
    g("c", Exec(choice="close"))
    g("c", Close(space=3))  # 2 x ($310 - $100); losses 1 -> 0; its 3 cars leave unsold
    g("b", Exec(choice="pass"))
    g("a", Exec(choice="pass"))
    events = g("c", Exec(choice="pass"))
    # mid 7: a sells all 6 (c's cars left with its factories); no unsold car
    # fees $40: b 1 -> 40, a 1 -> 40; Chrysler a discards 1; c interest 50, then repays $600
    out = GAME.outcome(st())
    assert out is not None
    assert out.scores == {"a": 2810 + 900 - 40, "b": 2000 - 40, "c": 2720 + 420 - 50 - 600}
    assert out.scores == {"a": 3670, "b": 1960, "c": 2490} and out.winners == ["a"]
    assert st().players["a"].losses == 0

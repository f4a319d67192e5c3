"""What a member sees of their choices tells every option apart (issue 29 item 5): over
seeded positions of every game, played by the AI with a seeded share of other moves
(a person's), the buttons or selects of one message (as cogs/present/ui.py builds them for
Discord) have pairwise distinct visible texts (label and description), none told apart
by a bare "(1)"/"(2)", and no select is opened for one lone option ("Back")."""

from __future__ import annotations

import itertools
import random
import re

import discord
import pytest

from cogs.present.ui import choice_items, merge_lone_options
from engine import get_game
from store import GameRow
from store.rows import Seat
from tables.rules.choices import _Label, _unique, choices, describe, destinations, numbering

GAMES = [
    ("thunder_road", 4, {}, "en"),
    ("thunder_road", 3, {}, "zh"),
    ("city_of_fury", 1, {}, "en"),
    ("city_of_fury", 1, {"hero": "brawler"}, "zh"),
    ("automobile", 3, {}, "en"),
    ("automobile", 5, {}, "zh"),
    ("armor_clash", 2, {}, "en"),
    ("armor_clash", 3, {}, "zh"),
]
SEEDS = range(3)
BARE_NUMBER = re.compile(r"\(\d+\)$")


def _row(game_id: str, seats: int) -> GameRow:
    return GameRow(
        id=7,
        guild_id=1,
        channel_id=2,
        game=game_id,
        status="active",
        host_id=10,
        seats=[Seat(seat=f"p{i + 1}", user_id=10 + i) for i in range(seats)],
        options={},
        seed=0,
        state_json=None,
        version=3,
        created_at=0.0,
        updated_at=0.0,
    )


def _seen(items: list[list[discord.ui.Item]]) -> list[tuple[str, list[str]]]:
    """Each component of a message as a member sees it: ("button", [its label]) or
    ("select", [each option's label and description])."""
    out = []
    for row in items:
        for item in row:
            inner = getattr(item, "item", item)
            if isinstance(inner, discord.ui.Select):
                out.append(("select", [f"{o.label}\n{o.description or ''}" for o in inner.options]))
            else:
                out.append(("button", [str(inner.label)]))
    return out


def _check(seen: list[tuple[str, list[str]]], where) -> None:
    texts = [x for _, opts in seen for x in opts]
    assert len(set(texts)) == len(texts), (where, [x for x in texts if texts.count(x) > 1])
    bare = [x for x in texts if BARE_NUMBER.search(x.strip())]
    assert not bare, (where, bare)
    lone = [opts for kind, opts in seen if kind == "select" and len(opts) == 1]
    assert not lone, (where, lone)


@pytest.mark.parametrize(("game_id", "seats", "options", "locale"), GAMES)
def test_every_option_a_member_sees_says_what_differs(game_id, seats, options, locale):
    game = get_game(game_id)
    row = _row(game_id, seats)
    messages = selects = 0
    for seed in SEEDS:
        rnd = random.Random(seed)
        state = game.new([s.seat for s in row.seats], options, seed)
        while game.outcome(state) is None and state.step < 120:
            seat = game.to_act(state)[0]
            offered = choices(game, state, seat)
            if offered:
                numbers, _ = numbering(destinations(game, state, seat, offered))
                described = describe(game, state, seat, offered, locale, None, numbers)
                shown = [(i, label, group) for i, (label, group) in enumerate(described)]
                seen = _seen(choice_items(row, game, shown, locale))
                _check(seen, (seed, state.step, seat))
                messages += 1
                selects += sum(1 for kind, _ in seen if kind == "select")
                if rnd.random() < 0.4:  # a person's move, not the AI's
                    for i in rnd.choice(offered).chain:
                        state, _ = game.apply(state, seat, game.legal_actions(state, seat)[i])
                    continue
            state, _ = game.ai_step(state, None)
    assert messages > 20


def test_long_chains_that_differ_late_in_their_steps_say_where():
    """City of Fury (as reported): chains of four long steps, each pair differing in one
    step's last words; the limit cut every difference and the labels read "… (1)",
    "… (2)".  Each label now shows the words that differ, within the limit."""
    steps = [
        ["Attack Officer Krupp (2 HP)", "Attack Officer Krupp (1 HP)"],
        ["Move left (swap with Officer Krupp)", "Move right (swap with Glitch)"],
        ["Attack Glitch (1 HP)", "Attack Glitch (2 HP)"],
        ["Raise Kick → Lv2, Block → Lv2", "Raise Kick → Lv2, Shoot → Lv2"],
    ]
    chains = [list(p) for p in itertools.product(*steps)]
    labels = _unique([_Label("", p, " → ".join(p), None, p) for p in chains], 80, "en")
    assert len(set(labels)) == len(labels), labels
    assert all(len(x) <= 80 and not BARE_NUMBER.search(x) for x in labels), labels
    for chain, label in zip(chains, labels):
        assert ("Block" in label) == ("Block" in chain[3]) and ("Shoot" in label) == ("Shoot" in chain[3]), label
        assert ("(2 HP)" in label.split(" → ")[0]) == (chain[0].endswith("(2 HP)")), label


def test_a_lone_option_joins_a_neighbouring_select():
    chunks = [("build", list(range(7))), ("", ["back"]), ("sell", list(range(3)))]
    merged = merge_lone_options(chunks, 25)
    assert [len(items) for _, items in merged] == [8, 3] or [len(items) for _, items in merged] == [7, 4]
    assert sum(len(items) for _, items in merged) == 11

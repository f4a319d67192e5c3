"""Destinations numbered on the board (issue 12, items 6 and 7): when a seat is
offered car moves, the board image shows each destination with the number its
button starts with.  One platform mechanism: ``Game.board_mark`` names the place a
choice's last step goes to, ``tables.rules.choices.destinations``/``numbering`` number
the offered choices' places, the table service passes ``{place: number}`` to the
renderer (``View.marks``) and starts each label with its number."""

from __future__ import annotations

import re

import render.thunder_road as tr_render
from engine import get_game
from engine.locales import CODES
from engine.thunder_road.content import add, hex_of, key, on_board, space_name, unkey
from tables.rules.choices import choices, describe, destinations, numbering
from tables.rules.preview import step_ends_chain

GAME = get_game("thunder_road")
NUMBERED = re.compile(r"^(\d+) · ")


def _move_states(seed: int = 3, seats: int = 2, limit: int = 400):
    """(state, seat, offered) of a self-played game wherever a car move is offered as runs."""
    st = GAME.new([f"p{i + 1}" for i in range(seats)], {}, seed)
    while GAME.outcome(st) is None and st.step < limit:
        seat = GAME.to_act(st)[0]
        if st.pending is not None and st.pending.stage in ("enter", "step") and st.pending.seat == seat:
            offered = choices(GAME, st, seat)
            if offered and offered[0].kind == "run":
                yield st, seat, offered
        st, _ = GAME.ai_step(st)


def _walk(state, seat, chain):
    """The state before the chain's last step, that step, and the state after it."""
    st = state
    for i in chain[:-1]:
        st, _ = GAME.apply(st, seat, GAME.legal_actions(st, seat)[i])
    last = GAME.legal_actions(st, seat)[chain[-1]]
    after, _ = GAME.apply(st, seat, last)
    return st, last, after


def test_marks_are_the_offered_moves_destinations_and_never_look_past_a_reveal():
    checked = revealed = 0
    for state, seat, offered in _move_states():
        places = destinations(GAME, state, seat, offered)
        numbers, marks = numbering(places)
        assert sorted(marks.values()) == list(range(1, len(marks) + 1)), "numbered 1..n"
        assert set(marks) == {p for p in places if p is not None}
        for choice, place, n in zip(offered, places, numbers):
            before, last, after = _walk(state, seat, choice.chain)
            car = next(v for v in after.vehicles if v.id == state.pending.car)
            # where the last step drives the car, worked out here from the action itself
            start = hex_of(0, last.col) if last.kind == "enter" else add(before_pos(before), last.dir)
            target = add(start, last.then) if last.then else start
            if not on_board(target):  # driving off the board: no space to number
                assert place is None and n is None
                continue
            assert place == key(target) and n == marks[place]
            if step_ends_chain(GAME, before, after, seat):
                revealed += 1  # the mark is where the car heads, not what the roll/reveal made of it
            else:
                assert car.where == "road" and key(car.pos) == place, "a plain run ends where it is marked"
            checked += 1
    assert checked > 50 and revealed > 0, (checked, revealed)


def before_pos(state):
    return next(v for v in state.vehicles if v.id == state.pending.car).pos


def test_labels_start_with_the_number_of_their_place_and_name_that_space():
    seen = 0
    for state, seat, offered in _move_states():
        places = destinations(GAME, state, seat, offered)
        numbers, marks = numbering(places)
        for locale in CODES:
            described = describe(GAME, state, seat, offered, locale, None, numbers)
            for (label, _), place, n in zip(described, places, numbers):
                m = NUMBERED.match(label)
                if place is None:
                    assert m is None and n is None, label
                    continue
                assert m and int(m.group(1)) == n == marks[place], label
                # the place comes right after the number, so a button's length limit
                # (80 characters) cuts the way there, never the place
                assert space_name(unkey(place)) in label[:30], (label, place)
                seen += 1
        plain = describe(GAME, state, seat, offered, "en")
        assert not any(NUMBERED.match(label) for label, _ in plain), "no numbers unless asked"
    assert seen > 100


def test_a_game_without_places_gets_no_marks():
    game = get_game("automobile")
    st = game.new(["p1", "p2", "p3"], {}, 5)
    for _ in range(30):
        seat = game.to_act(st)[0]
        offered = choices(game, st, seat)
        numbers, marks = numbering(destinations(game, st, seat, offered))
        assert marks == {} and set(numbers) <= {None}
        st, _ = game.ai_step(st)


def test_one_destination_reached_two_ways_shares_its_number():
    numbers, marks = numbering(["3,5", None, "4,6", "3,5"])
    assert numbers == [1, None, 2, 1] and marks == {"3,5": 1, "4,6": 2}


# ------------------------------------------------------------ through the stand-in
def _labels(msg, gid: int, version: int) -> dict[int, str]:
    """Choice index -> its button or select-option label on a board message."""
    out: dict[int, str] = {}
    for cid in msg.custom_ids:
        comp = msg.component(cid) or {}
        if cid.startswith(f"tg:a:{gid}:{version}:"):
            out[int(cid.split(":")[4])] = comp.get("label", "")
        elif cid.startswith(f"tg:s:{gid}:{version}:"):
            for opt in comp.get("options", []):
                if opt["value"].isdigit():
                    out[int(opt["value"])] = opt["label"]
    return out


async def test_the_numbers_on_the_buttons_are_the_numbers_drawn_on_the_board(table, monkeypatch):
    drawn: list[tuple[str | None, int, dict[str, int]]] = []
    real = tr_render.draw

    def spy(view, locale="en"):
        drawn.append((view.viewer, view.step, dict(view.marks)))
        return real(view, locale)

    monkeypatch.setattr(tr_render, "draw", spy)
    alice = table.fd.add_user(101, "alice")
    bob = table.fd.add_user(102, "bob", locale="zh-CN")
    await table.start()
    gid, board = await table.open_table(alice, "thunder_road", [bob])
    boards_checked = 0
    for _ in range(80):
        state = table.state(gid)
        if table.row(gid)["status"] != "active":
            break
        seat = GAME.to_act(state)[0]
        version = table.row(gid)["version"]
        public = [m for viewer, step, m in drawn if viewer is None and step == state.step]
        labels = _labels(board, gid, version)
        if public and public[-1]:
            marks = public[-1]
            numbered = {i: int(m.group(1)) for i, lab in labels.items() if (m := NUMBERED.match(lab))}
            assert set(numbered.values()) == set(marks.values()), (labels, marks)
            by_number = {n: place for place, n in marks.items()}
            for i, n in numbered.items():
                assert space_name(unkey(by_number[n])) in labels[i], (labels[i], by_number[n])
            # and they are the offered choices' own destinations
            offered = choices(GAME, state, seat)
            assert numbering(destinations(GAME, state, seat, offered))[1] == marks
            boards_checked += 1
            if boards_checked >= 3:
                break
        elif labels:
            assert not any(NUMBERED.match(lab) for lab in labels.values()), "numbers only with marks"
        user = table.fd.users[table.seat_user(gid)[seat]]
        ex = await table.choose(user, board, gid, table.choice_for(gid, seat, table.ai_index(gid, seat)), version)
        board = await table.next_board(ex, gid, version)
    assert boards_checked >= 1, "no board offered numbered destinations"
    assert not table.fd.violations

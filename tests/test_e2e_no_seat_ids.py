"""Seat ids never reach players (issue 29 item 9): a hand-over refusal names the seat by
its player ("That seat is Bob's"), in English and Chinese, and no message a scripted
game sends through the stand-in (content, embeds, text displays, component labels)
shows a seat id such as ``p3`` as a word; the Armor Clash campaign story names crews
by number and level in the reader's language, its scenario numbered once."""

from __future__ import annotations

import re
from typing import Any

import pytest

from engine import get_game
from engine.armor_clash.campaign import join, new_campaign

SEAT_ID = re.compile(r"(?<![\w@#<:/.-])p\d(?![\w>])")
TEXT_KEYS = {"content", "description", "title", "name", "value", "text", "label", "placeholder"}


def _texts(node: Any, key: str | None = None) -> list[str]:
    if isinstance(node, dict):
        return [x for k, v in node.items() for x in _texts(v, k)]
    if isinstance(node, list):
        return [x for v in node for x in _texts(v, key)]
    return [node] if isinstance(node, str) and key in TEXT_KEYS else []


async def test_no_message_of_a_game_shows_a_seat_id_and_a_refusal_names_the_seat(table):
    host = table.fd.add_user(101, "alice")
    bob = table.fd.add_user(102, "bob")
    carol = table.fd.add_user(103, "carol", locale="zh-CN")
    dave = table.fd.add_user(104, "dave")
    await table.start()
    gid, _ = await table.open_table(host, "thunder_road", [bob, carol, dave])
    # dave asks for Bob's seat, which has not kept anyone waiting: refused, naming Bob
    ex = await table.fd.slash(dave, "game handover", {"seat": "p2"})
    refusal = (await table.wait_ephemeral(ex)).content
    assert "Bob" in refusal and "belongs to another player" not in refusal, refusal
    assert not SEAT_ID.search(refusal), refusal
    ex = await table.fd.slash(carol, "game handover", {"seat": "p2"})
    refusal_zh = (await table.wait_ephemeral(ex)).content
    assert "Bob" in refusal_zh and "座位" in refusal_zh and not SEAT_ID.search(refusal_zh), refusal_zh
    assert table.seat_user(gid)["p2"] == 102, "nothing changed"
    await table.play_ai(gid)
    assert table.row(gid)["status"] == "finished"
    texts = [x for r in table.fd.message_requests for x in _texts(r.message_body)]
    assert len(texts) > 10
    leaked = [x for x in texts if SEAT_ID.search(x)]
    assert not leaked, leaked[:5]
    assert not table.fd.violations


def test_the_campaign_story_names_crews_by_number_and_level_and_numbers_the_scenario_once():
    progress = new_campaign()
    for seat in ("p1", "p2", "p3"):
        progress = join(progress, seat)
    story = get_game("armor_clash").campaign_summary(progress.model_dump(mode="json"))
    assert story is not None
    en, zh = story.text("en"), story.text("zh")
    assert not SEAT_ID.search(en) and not SEAT_ID.search(zh), (en, zh)
    assert "recruit crew 1" in en and "recruit crew 3" in en, en
    assert "新兵" in zh and "recruit" not in zh, zh
    assert "1. " not in en and "scenario 1 of 4" in en and "Reconnaissance in force" in en, en
    assert "1. " not in zh and "第 1/4 关「武装侦察」" in zh, zh


@pytest.mark.parametrize("game", ["thunder_road", "armor_clash"])
async def test_no_message_of_a_whole_game_played_through_its_components_shows_a_seat_id(table, game):
    """Every board, panel, private reply and notice of a whole two-player game."""
    alice = table.fd.add_user(101, "alice")
    bob = table.fd.add_user(102, "bob", locale="zh-CN")
    await table.start()
    gid, board = await table.open_table(alice, game, [bob])
    await table.play_buttons(gid, board)
    assert table.row(gid)["status"] == "finished"
    texts = [x for r in table.fd.message_requests for x in _texts(r.message_body)]
    assert len(texts) > 100
    leaked = [x for x in texts if SEAT_ID.search(x)]
    assert not leaked, leaked[:5]
    assert not table.fd.violations

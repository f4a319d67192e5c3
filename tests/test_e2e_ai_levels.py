"""AI levels through Discord: ``/game new ... ai_level:``, the lobby's Add AI
select, the levels shown in the lobby and on the board, forged levels refused
privately (issue 14 item 4, platform side)."""

from __future__ import annotations

import pytest

from engine import get_game


async def lobby_of(table, ex):
    return await ex.wait(lambda e: next((m for m in e.messages if not m.ephemeral and m.custom_ids), None), 20, "lobby")


def seat_levels(table, gid: int) -> dict[str, tuple[int | None, str | None]]:
    rows = table.sql("SELECT seat, user_id, ai_level FROM seats WHERE game_id=? ORDER BY position", gid)
    return {s: (u, lv) for s, u, lv in rows}


async def test_game_new_level_the_lobby_select_and_the_board(table):
    host = table.fd.add_user(101, "host")
    bob = table.fd.add_user(102, "bob", locale="zh-CN")
    await table.start()
    ex = await table.fd.slash(host, "game new", {"game": "thunder_road", "ai": 1, "ai_level": "hard"})
    lobby = await lobby_of(table, ex)
    gid = table.sql("SELECT id FROM games ORDER BY id DESC LIMIT 1")[0][0]
    assert seat_levels(table, gid) == {"p1": (101, None), "p2": (None, "hard")}
    assert "AI 1 (hard)" in lobby.text
    select = lobby.component(f"tg:la:{gid}")
    assert select is not None and f"tg:l:{gid}:ai" not in lobby.custom_ids, "several levels: one select, no button"
    assert [(o["value"], o["label"]) for o in select["options"]] == [
        ("hard", "Add AI (hard)"),  # the table's level first
        ("easy", "Add AI (easy)"),
    ]

    ex = await table.fd.select(bob, lobby, f"tg:la:{gid}", ["easy"])  # not the host
    assert "房主" in (await table.wait_ephemeral(ex)).content
    ex = await table.fd.select(host, lobby, f"tg:la:{gid}", ["nightmare"], force=True)  # a forged value
    refusal = await table.wait_ephemeral(ex)
    assert refusal.ephemeral
    assert refusal.content.startswith("Thunder Road")
    assert refusal.content.endswith(" has no AI level `nightmare`. Its levels: easy, hard. Nothing was changed.")
    assert seat_levels(table, gid) == {"p1": (101, None), "p2": (None, "hard")}

    await (await table.fd.select(host, lobby, f"tg:la:{gid}", ["easy"])).wait_response()
    assert seat_levels(table, gid) == {"p1": (101, None), "p2": (None, "hard"), "p3": (None, "easy")}
    assert "AI 2 (easy)" in lobby.text and "AI 1 (hard)" in lobby.text

    ex = await table.fd.click(host, lobby, f"tg:l:{gid}:start")
    board = await table.wait_board(ex)
    assert "AI 1 (hard), AI 2 (easy)" in board.text and "p2" not in board.text
    assert not table.fd.violations


async def test_a_forged_or_foreign_level_on_game_new_is_refused_privately(table):
    host = table.fd.add_user(101, "host")
    li = table.fd.add_user(103, "li", locale="zh-CN")
    await table.start()
    ex = await table.fd.slash(host, "game new", {"game": "thunder_road", "ai_level": "nightmare"}, unchecked=True)
    msg = await table.wait_ephemeral(ex)
    assert msg.ephemeral and "has no AI level `nightmare`. Its levels: easy, hard." in msg.content
    ex = await table.fd.slash(li, "game new", {"game": "thunder_road", "ai_level": "nightmare"}, unchecked=True)
    assert "可选难度：简单, 困难" in (await table.wait_ephemeral(ex)).content
    # a level of another game, which City of Fury has not
    ex = await table.fd.slash(host, "game new", {"game": "city_of_fury", "ai_level": "hard"})
    assert (await table.wait_ephemeral(ex)).content.endswith("Its levels: easy. Nothing was changed.")
    assert table.sql("SELECT COUNT(*) FROM games")[0][0] == 0
    with pytest.raises(ValueError):  # Discord itself refuses a value that is not a choice
        await table.fd.slash(host, "game new", {"game": "thunder_road", "ai_level": "nightmare"})
    assert not table.fd.violations


async def test_the_level_choices_are_named_in_both_languages(table):
    await table.start()
    commands = [c for scope in table.fd.commands.values() for c in scope.values() if c["name"] == "game"]
    new = next(o for o in commands[0]["options"] if o["name"] == "new")
    option = next(o for o in new["options"] if o["name"] == "ai_level")
    names = {c["value"]: (c["name"], (c.get("name_localizations") or {}).get("zh-CN")) for c in option["choices"]}
    assert names["easy"] == ("easy", "简单") and names["hard"] == ("hard", "困难")
    assert (option.get("description_localizations") or {}).get("zh-CN", "").startswith("AI 难度")


async def test_a_game_with_one_level_keeps_the_add_ai_button(table, monkeypatch):
    game = get_game("thunder_road")
    monkeypatch.setattr(game, "ai_levels", ("easy",))  # as a game with one AI level
    host = table.fd.add_user(101, "host")
    await table.start()
    lobby = await lobby_of(table, await table.fd.slash(host, "game new", {"game": "thunder_road"}))
    gid = table.sql("SELECT id FROM games ORDER BY id DESC LIMIT 1")[0][0]
    assert f"tg:l:{gid}:ai" in lobby.custom_ids and f"tg:la:{gid}" not in lobby.custom_ids
    await (await table.fd.click(host, lobby, f"tg:l:{gid}:ai")).wait_response()
    assert seat_levels(table, gid)["p2"] == (None, "easy")
    assert "AI 1" in lobby.text and "AI 1 (" not in lobby.text and "AI," not in lobby.text
    ex = await table.fd.click(host, lobby, f"tg:l:{gid}:start")
    assert "AI:" not in (await table.wait_board(ex)).text, "one level: no level line on the board"
    assert not table.fd.violations

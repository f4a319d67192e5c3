"""A German member sees no English (issue 33 item 4): a whole game of each of the four
games played through the stand-in by German members (Discord locale ``de``) on a German
server, every turn by the board's or the private panel's own components, and the commands
a player uses around a game; every text the bot sent (content, embeds, component labels,
select options, image descriptions, direct messages) is checked for English
(tests/germankit.py: the English catalogs' phrases no German message has, and English
function words)."""

from __future__ import annotations

import pytest
from germankit import english_in, left_in_english, sample_english
from test_e2e_no_seat_ids import TEXT_KEYS

from engine.i18n import t

#: (game, how many German members sit at it)
GAMES = [("thunder_road", 2), ("city_of_fury", 1), ("automobile", 3), ("armor_clash", 2)]
NAMES = ("anna", "bernd", "clara")


def texts(node, key: str | None = None) -> list[str]:
    """The texts a member reads in a message body: content, embeds, text displays, labels,
    placeholders, image descriptions; not a select option's value (a machine's word)."""
    if isinstance(node, dict):
        hidden = {"value"} if "label" in node else set()
        return [x for k, v in node.items() if k not in hidden for x in texts(v, k)]
    if isinstance(node, list):
        return [x for v in node for x in texts(v, key)]
    return [node] if isinstance(node, str) and key in TEXT_KEYS else []


def shown(fd) -> list[str]:
    """Every text of every message the bot created or edited, ephemeral and direct ones included."""
    return [x for r in fd.message_requests for x in texts(r.message_body)]


def test_the_check_finds_english_and_passes_german():
    for text in sample_english():
        assert english_in(text), text
    assert english_in("Table #4 is waiting for you") and english_in("the AI")
    for key in ("core.error.not_your_turn", "core.ui.take_turn", "thunder_road.event.slam_roll"):
        assert not english_in(t(key, "de", slam="Rammen", dir="vorne")), key
    assert not english_in("anna, bernd · 12 · City of Fury · Big Rig · #7")  # names and numbers are no English
    assert not english_in("https://discord.com/channels/1/2 `scenario=duel`") and english_in("see the channels")
    option = {"label": t("core.ai_level.easy", "de"), "value": "easy"}
    assert texts({"components": [{"options": [option]}]}) == [option["label"]], "a select's value is not shown"
    assert texts({"embeds": [{"fields": [{"name": "a", "value": "b"}]}]}) == ["a", "b"]


def test_no_german_message_is_left_in_english():
    """The check learns what German shares with English from the German catalogs, so a
    German message copied from the English one is refused here (names and shared words
    are listed in germankit.SAME_IN_GERMAN)."""
    assert left_in_english() == []


@pytest.mark.parametrize(("game", "members"), GAMES)
async def test_a_german_member_sees_no_english_in_a_whole_game(table, game, members):
    fd = table.fd
    fd.guild_locale = "de"
    users = [fd.add_user(201 + i, NAMES[i], locale="de") for i in range(members)]
    host = users[0]
    admin = fd.add_user(299, "jens", locale="de", manage_guild=True)
    await table.start()
    # the server reads German: its public posts (leaderboards, standings) are German too
    await (await fd.slash(admin, "einstellungen sprache", {"sprache": "de"})).wait_response()
    if members == 1:  # a solo game starts at once
        board = await table.wait_board(await fd.slash(host, "spiel neu", {"spiel": game}))
        gid = table.sql("SELECT id FROM games ORDER BY id DESC LIMIT 1")[0][0]
    else:
        gid, board = await table.open_table(host, game, users[1:])
    await (await fd.slash(host, "spiel status")).wait_idle(quiet=0.1)
    board = table.board_of(fd.messages()) or board
    final = await table.play_buttons(gid, board)
    assert table.row(gid)["status"] == "finished"
    assert t("core.ui.game_over", "de") in final.text, final.text
    # what a player reads around a game, each by its German name
    for command, options in (
        ("spiel status", {}),
        ("spiel protokoll", {}),
        ("spiel meine", {}),
        ("regeln", {"spiel": game}),
        ("hilfe", {}),
        ("statistik ich", {}),
        ("rangliste", {"spiel": game}),
    ):
        ex = await fd.slash(host, command, options)
        await ex.wait(lambda e: e.messages and not any(m.loading for m in e.messages), 20, command)
    texts = shown(fd)
    assert len(texts) > 50, len(texts)
    english = {x: english_in(x) for x in texts if english_in(x)}
    assert not english, list(english.items())[:8]
    assert not fd.violations


def test_the_armor_clash_prompt_names_the_loaded_round_in_the_readers_language():
    """The order prompt said "(loaded: AP, at F10)" in every language: the round's
    code, not its name (a German player read "geladen: AP")."""
    from engine.armor_clash import GAME

    prompt = GAME.prompt(GAME.new(["p1", "p2"], {}, 2), "p1")
    for lang in ("de", "zh", "en"):
        assert t("armor_clash.ammo.AP", lang) in prompt.text(lang), (lang, prompt.text(lang))
    assert "(geladen: PzGr," in prompt.text("de")


@pytest.mark.parametrize("game_id", [g for g, _ in GAMES])
def test_every_word_drawn_on_a_german_board_image_is_german(game_id):
    """The images themselves: every text run the renderer draws (render.common's record)
    on the public image and each seat's own, at spread positions of seeded AI games at the
    fewest and the most seats, has no English."""
    from test_render_legibility import NAMES as PLAYERS
    from test_render_legibility import positions, seat_counts

    from render import render
    from render.common import recorded_text

    english: dict[str, list[str]] = {}
    drawn = 0
    for seats in seat_counts(game_id):
        game, names, picks, labels = positions(game_id, seats, seed=11)
        for state in picks:
            for seat in [None, *names]:
                with recorded_text() as runs:
                    render(game_id, game.view(state, seat, labels), "de")
                for _, run in runs:
                    drawn += 1
                    for player in PLAYERS:
                        run = run.replace(player, " ")
                    if english_in(run):
                        english[run] = english_in(run)
    assert drawn > 100, drawn
    assert not english, list(english.items())[:10]
    with recorded_text() as runs:  # the same board in English: the check sees its words
        render(game_id, game.view(picks[-1], None, labels), "en")
    assert any(english_in(run) for _, run in runs)

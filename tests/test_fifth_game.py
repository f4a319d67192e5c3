"""A fifth game with no platform edit (issue 10 item 3).

Nim (tests/nimgame/) is defined entirely under tests/: nothing in engine/,
render/, cogs/, store/ or data/ names it.  This test registers it and plays it
through the real discord.py client against the Discord stand-in: /game new,
Join and Start in the lobby, the board image, the buttons until the finish,
the game's own declared command /nim heaps, and /stats.  docs/adding-a-game.md
("What tests/test_fifth_game.py does") describes exactly these steps.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import nimgame
import pytest
from PIL import Image

from engine import GameError, available, get_game, register, unregister
from engine.i18n import t

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def nim():
    game = register(nimgame.GAME)
    yield game
    unregister("nim")


def test_no_platform_file_names_the_game():
    pattern = re.compile(r"\bnim(game)?\b", re.IGNORECASE)
    for folder in ("engine", "render", "cogs", "store", "data"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and path.suffix in (".py", ".json", ".md"):
                assert not pattern.search(path.read_text(encoding="utf-8")), path


def test_registered_at_run_time_with_its_catalog_and_renderer(nim):
    assert "nim" in available() and get_game("nim") is nim
    assert t("nim.name", "zh") == "尼姆" and t("nim.event.won", "en", seat="x") == "x took the last counter and wins."
    from render import render

    state = nim.new(["a", "b"], {}, 1)
    png = render("nim", nim.view(state), "en")
    assert Image.open(io.BytesIO(png)).size == (420, 210)
    unregister("nim")
    with pytest.raises(GameError):
        get_game("nim")
    assert t("nim.name", "en") == "nim.name"  # the catalog left with the game
    register(nimgame.GAME)


def test_an_older_stored_shape_is_migrated(nim):
    data = nim.dump(nim.new(["a", "b"], {"heaps": [2, 2]}, 1))
    data["schema_version"] = 1
    data["piles"] = data.pop("heaps")
    state = nim.load(data)
    assert state.heaps == [2, 2] and state.schema_version == 2
    with pytest.raises(GameError) as exc:
        nim.load({**nim.dump(state), "schema_version": 0})
    assert exc.value.code == "bad_state"


def test_hard_ai_beats_easy_ai(nim):
    wins = 0
    for seed in range(40):
        s = nim.new(["hard", "easy"], {"heaps": [3, 4, 5]}, seed)
        while nim.outcome(s) is None:
            seat = nim.to_act(s)[0]
            s, _ = nim.apply(s, seat, nim.ai_action(s, seat, "hard" if seat == "hard" else "easy"))
        wins += nim.outcome(s).winners == ["hard"]
    assert wins == 40  # 3^4^5 != 0: the first player wins with perfect play


async def test_nim_through_discord_new_buttons_board_finish_and_stats(nim, table):
    alice = table.fd.add_user(101, "alice")
    bob = table.fd.add_user(102, "bob", locale="zh-CN")
    await table.start()

    # /game new game:nim, bob joins, alice starts: the first board is Nim's image with buttons
    gid, board = await table.open_table(alice, "nim", joiners=[bob])
    row = table.row(gid)
    assert row["game"] == "nim" and row["status"] == "active"
    img = Image.open(io.BytesIO(board.png()))
    assert img.size == (420, 210)  # drawn by nimgame.board: three heaps
    assert any(c.startswith(f"tg:a:{gid}:") for c in board.custom_ids), "the legal moves are buttons"
    assert "Heaps: 3, 4, 5" in board.text
    # described in words from its view's fields, with no platform edit (issue 33)
    said = board.attachments[0]["description"]
    assert said.startswith("Nim — table #") and "heaps: 3, 4, 5." in said, said

    # the game's declared command, registered by cogs/game/game_commands.py
    ex = await table.fd.slash(bob, "nim heaps")
    msg = await table.wait_ephemeral(ex)
    assert msg.content == "各堆：3, 4, 5"  # bob's language
    # a command answered with an image: drawn from the game's view and described from the same view
    ex = await table.fd.slash(alice, "nim picture")
    pic = await ex.wait(lambda e: next((m for m in e.messages if m.ephemeral and m.attachments), None), 30, "picture")
    said = pic.attachments[0]["description"]
    assert (
        pic.attachments[0]["filename"] == "view.png" and said.startswith("Nim — table #") and "heaps: 3, 4, 5." in said
    )

    # play every move through the buttons (the AI's choices)
    board = await table.play_buttons(gid, board)
    row = table.row(gid)
    assert row["status"] == "finished"
    state = table.state(gid)
    outcome = nim.outcome(state)
    assert outcome is not None and not any(state.heaps)
    winner = table.seat_user(gid)[outcome.winners[0]]
    name = {101: "Alice", 102: "Bob"}[winner]  # the seat shown by its member's name
    lang = "en"  # the table's language is fixed when it opens: the host's (alice)
    assert t("nim.outcome", lang, seat=name) in board.text and not board.custom_ids
    assert t("core.ui.board_title", lang, game=t("nim.name", lang), id=gid) in board.text  # the game's own catalog

    # the result counts in the leaderboards: /stats me
    results = table.sql("SELECT user_id, won FROM results WHERE game_id=? ORDER BY user_id", gid)
    assert sorted(results) == sorted([(101, int(winner == 101)), (102, int(winner == 102))])
    ex = await table.fd.slash(alice, "stats me")
    stats = await table.wait_ephemeral(ex)
    won = "1 won (100%)" if winner == 101 else "0 won (0%)"
    assert f"**Nim**: 1 played, {won}" in stats.text
    assert not table.fd.violations


async def test_nim_is_offered_by_its_own_name_and_rules_come_from_its_data_dir(nim, table):
    """The label in /game new's choices and /rules both come from tests/nimgame/data/
    (locales/ and rules/), which no platform file names."""
    alice = table.fd.add_user(101, "alice")
    await table.start()
    synced = {c["name"]: c for cmds in table.fd.commands.values() for c in cmds.values()}
    for command, sub in (("game", "new"), ("rules", None)):
        options = synced[command]["options"]
        if sub is not None:
            options = next(o for o in options if o["name"] == sub)["options"]
        choices = {c["value"]: c for c in next(o for o in options if o["name"] == "game")["choices"]}
        assert choices["nim"]["name"] == "Nim", command
        assert choices["nim"]["name_localizations"]["zh-CN"] == "尼姆", command
        for gid in available():  # every game is labelled from its own catalog, never by a raw key
            assert choices[gid]["name"] == t(f"{gid}.name", "en") != f"{gid}.name"

    ex = await table.fd.slash(alice, "rules", {"game": "nim"})
    embed = (await ex.wait_response()).embed
    assert embed["title"] == "Nim"
    assert embed["description"].splitlines()[0] == (
        "**Overview** — Two players take counters from heaps; whoever takes the last counter wins."
    )
    topics = await table.fd.autocomplete(alice, "rules", {"game": "nim", "topic": ""}, focused="topic")
    assert [c["name"] for c in topics] == ["Overview", "Your turn"]
    ex = await table.fd.slash(alice, "rules", {"game": "nim", "topic": "2"}, locale="zh-CN")
    embed = (await ex.wait_response()).embed
    assert embed["title"] == "尼姆"
    assert embed["fields"][0]["name"] == "你的回合" and "取走整堆" in embed["fields"][0]["value"]
    assert not table.fd.violations


def test_event_texts_and_views_name_seats_by_the_callers_labels(nim):
    from engine import SeatLabel

    state = nim.new(["p1", "p2"], {}, 1)
    state, events = nim.apply(state, "p1", nim.legal_actions(state, "p1")[0])
    labels = {"p1": SeatLabel(name="Alice", colour="#3d8bfd")}
    assert nim.event_text(events[0], "en", labels) == "Alice took 1 from heap 1 (2 left)."
    assert nim.event_text(events[0], "zh") == "p1 从第 1 堆取走 1 个（剩 2 个）。"  # no labels: the seat id
    assert nim.view(state, None, labels).label("p1") == "Alice"


def test_stored_events_actions_and_options_of_older_shapes_pass_the_migration_hooks(nim, monkeypatch):
    monkeypatch.setattr(nim, "_migrate_event", lambda d: {**d, "kind": "took"} if d.get("kind") == "took_v1" else d)
    monkeypatch.setattr(nim, "_migrate_action", lambda d: {"kind": "take", **d} if "kind" not in d else d)
    monkeypatch.setattr(nim, "_migrate_options", lambda o: {"heaps": o.pop("piles"), **o} if "piles" in o else o)
    (event,) = nim.load_events([{"kind": "took_v1", "seat": "a", "heap": 1, "n": 2, "left": 1}])
    assert event.kind == "took" and event.n == 2
    old = {"heap": 0, "n": 1}
    state = nim.replay(["a", "b"], {"piles": [2]}, 1, [("a", old)])
    assert state.heaps == [1] and old == {"heap": 0, "n": 1}  # the stored action is not changed

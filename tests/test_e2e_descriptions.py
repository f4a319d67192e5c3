"""Every image the bot posts carries a description a screen reader reads (issue 33 item 1),
through the real discord.py client against the stand-in (every request validated against
Discord's OpenAPI description, which caps an attachment's description at 1,024 characters):
the board, a seat's own view, the text board one click away, the catch-up, a follower's
message, a replay, stats and the leaderboard.  What the stand-in recorded of each upload
(``fd.posted_images``, ``fd.images_described()``) is what the benchmark counts."""

from __future__ import annotations

from fakediscord import walk_components

from engine import get_game

LIMIT = 1024


def described(msg, filename: str | None = None) -> str:
    """The description the message's image was posted with (asserting there is one)."""
    atts = [a for a in msg.attachments if filename is None or a["filename"] == filename]
    assert atts, f"no image {filename!r}: {[a['filename'] for a in msg.attachments]}"
    text = atts[0].get("description")
    assert isinstance(text, str) and text.strip(), f"{atts[0]['filename']} posted without a description"
    assert len(text) <= LIMIT
    return text


def gallery_descriptions(msg) -> list[str | None]:
    return [
        item.get("description") for c in walk_components(msg.components) if c.get("type") == 12 for item in c["items"]
    ]


async def ephemeral_with(ex, what: str, attachments: bool = True):
    return await ex.wait(
        lambda e: next(
            (m for m in e.messages if m.ephemeral and not m.loading and (m.attachments if attachments else m.content)),
            None,
        ),
        30,
        what,
    )


async def test_every_image_of_a_running_table_is_described_in_words_from_its_own_view(table):
    fd = table.fd
    alice, bob, carol = fd.add_user(101, "alice"), fd.add_user(102, "bob"), fd.add_user(103, "carol")
    dave = fd.add_user(104, "dave")  # not seated: follows the table
    await table.start()
    gid, board = await table.open_table(alice, "automobile", [bob, carol])
    ex = await fd.slash(dave, "game follow", {"mode": "turn"})
    await ex.wait_response()
    await table.play_ai(gid, steps=12)
    game, state = get_game("automobile"), table.state(gid)
    ex = await fd.slash(alice, "game status")
    board = await table.wait_board(ex)

    # the board: the attachment's description and the gallery item's alt text are the public view's words
    public = described(board, "board.png")
    assert gallery_descriptions(board) == [public]
    assert public.startswith("Automobile — table #") and "Players: Alice, Bob" in public
    acting = [table.fd.users[table.seat_user(gid)[s]].name.title() for s in game.to_act(state)]
    assert any(f"{who} to act" in public for who in acting), public
    hands = {s: state.players[s].hand for s in state.seats}
    assert "demand cards:" not in public, "nobody's hand on the public board"

    # "My view": alice's own view, in her words: her hand, nobody else's
    ex = await fd.click(alice, board, f"tg:v:{gid}")
    mine = described(await ephemeral_with(ex, "my view"), "view.png")
    alice_seat = next(s for s, u in table.seat_user(gid).items() if u == alice.id)
    assert "Alice's own view" in mine and f"Your demand cards: {', '.join(map(str, hands[alice_seat]))}" in mine

    # the text board: one click, privately, in the clicker's view (a stranger: the public one)
    ex = await fd.click(dave, board, f"tg:t:{gid}")
    text = await ephemeral_with(ex, "the text board", attachments=False)
    assert text.content.startswith("Automobile — table #") and "Latest moves:" in text.content
    assert "demand cards:" not in text.content and len(text.content) <= 2000
    ex = await fd.click(alice, board, f"tg:t:{gid}")
    own = await ephemeral_with(ex, "alice's text board", attachments=False)
    assert "Alice's own view" in own.content and "Your demand cards" in own.content

    # the catch-up's two boards: the member's own view then and now
    ex = await fd.click(bob, board, f"tg:c:{gid}")
    catchup = await ephemeral_with(ex, "the catch-up")
    for name in [a["filename"] for a in catchup.attachments]:
        assert "Bob's own view" in described(catchup, name)

    # a follower's private message: the public board, described
    assert await table.bot.get_cog("Following").tick(table.clock()) >= 1
    (dm,) = fd.messages(fd.dm_channel(dave))
    follower = described(dm, "board.png")
    assert "demand cards:" not in follower and "own view" not in follower

    posted, said = fd.images_described()
    assert posted == said and posted >= 6, fd.posted_images
    assert not fd.violations


async def test_replay_stats_and_the_leaderboard_are_described_and_chinese_for_a_chinese_reader(table):
    fd = table.fd
    alice = fd.add_user(101, "alice")
    await table.start()
    ex = await fd.slash(alice, "game new", {"game": "city_of_fury"})
    await table.wait_board(ex)
    gid = table.sql("SELECT id FROM games ORDER BY id DESC LIMIT 1")[0][0]
    await table.play_ai(gid)
    ex = await fd.slash(alice, "game replay", {"table": gid, "turn": 3})
    replay = described(await table.wait_ephemeral(ex), "board.png")
    assert replay.startswith("City of Fury — table #") and "Hero:" in replay and "The street:" in replay
    ex = await fd.slash(alice, "stats me")
    stats = described(await table.wait_ephemeral(ex), "stats.png")
    assert "Alice" in stats and "City of Fury" in stats
    ex = await fd.slash(alice, "stats server")
    assert "City of Fury" in described(await table.wait_ephemeral(ex), "stats.png")
    ex = await fd.slash(alice, "leaderboard", {"game": "city_of_fury"})
    assert "Alice" in described(await table.wait_board(ex), "leaderboard.png")
    ex = await fd.slash(alice, "game replay", {"table": gid, "turn": 2}, locale="zh-CN")
    zh = described(await table.wait_ephemeral(ex), "board.png")
    assert zh.startswith("狂怒之城") and "英雄" in zh, zh
    posted, said = fd.images_described()
    assert posted == said and posted >= 5, fd.posted_images
    assert not fd.violations

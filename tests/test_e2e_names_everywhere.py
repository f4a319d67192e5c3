"""Issue 20 item 5 (names): replays and follower messages show the players by
their display names and draw the board with the table's seat colours, never
seat ids such as p1."""

from __future__ import annotations

import re

from cogs.present.ui import seat_labels

SEAT_ID = re.compile(r"(?<![\w@#<])p\d(?![\w>])")


async def test_replay_and_follower_messages_use_names_and_seat_colours(table):
    alice = table.fd.add_user(101, "alice")
    bob = table.fd.add_user(102, "bob")
    carol = table.fd.add_user(103, "carol")
    await table.start()
    gid, board = await table.open_table(alice, "thunder_road", [bob])
    ex = await table.fd.slash(carol, "game follow", {"mode": "turn"})
    await ex.wait_response()
    following = table.bot.get_cog("Following")
    texts = []
    for _ in range(6):
        await table.play_ai(gid, steps=1)
        if await following.tick(table.clock()):
            texts.append(table.fd.messages(table.fd.dm_channel(carol))[-1].content)
    assert texts
    joined = "\n".join(texts)
    assert "Alice" in joined or "Bob" in joined, joined
    assert not SEAT_ID.search(joined), joined
    await table.play_ai(gid)
    assert table.row(gid)["status"] == "finished"
    ex = await table.fd.slash(alice, "game replay")
    msg = await ex.wait(lambda e: next((m for m in e.messages if m.ephemeral and m.attachments), None), 20, "replay")
    description = msg.embeds[0]["description"]
    assert not SEAT_ID.search(description), description
    assert "Alice" in description or "Bob" in description, description
    # the image is the one drawn with the players' names and seat colours
    service = table.bot.services.tables
    loaded = await service.log_table(table.row(gid)["channel_id"])
    labels = seat_labels(loaded.row, {101: "Alice", 102: "Bob"}, "en")
    with_names = await service.render(loaded.game, loaded.state, None, "en", labels)
    bare = await service.render(loaded.game, loaded.state, None, "en")
    assert with_names != bare, "names change the picture"
    assert msg.png() == with_names

"""Hostile names: members whose nicknames and display names are mentions,
``@everyone``, masked links, markdown, backticks, right-to-left overrides,
zero-width characters or simply very long play whole games through the
Discord stand-in, and every request the bot sent is checked: nobody but the
players it meant is ever notified, no name becomes a link, formatting or a
mention, every message says explicitly whom it may notify, and no name runs
past its bound."""

from __future__ import annotations

import re

from engine.i18n import t

STRANGER = 4242  # a member who never plays: no message may notify them
EVIL = "evil.example"
LONG = "L" * 120
HOSTILE = {
    # id: (username, nick, global name)
    701: ("alice", f"<@{STRANGER}>", None),
    702: ("bob", "@everyone @here", None),
    703: ("carol", f"[gift](https://{EVIL}/x)", None),
    704: ("dave", None, "**bold** `tick` ||spoil|| \u202eevil\u200b> quote " + LONG),
}
# a raw name leaks when any of these reaches a markdown text unescaped
LIVE_LINK = re.compile(r"(?<!\\)\[[^\]]*(?<!\\)\]\((?:\s*)https?|https?://\S*" + re.escape(EVIL))
CODE_SPAN = re.compile(r"(?<!\\)`[^`\n]+?(?<!\\)`")
INVISIBLE = re.compile("[\u202a-\u202e\u2066-\u2069\u200b-\u200c\u2060\ufeff]")


def markdown_texts(data: dict) -> list[str]:
    """Every text of a message that Discord renders as markdown (content, embeds, text displays)."""
    out = [data.get("content") or ""]
    for e in data.get("embeds") or []:
        out += [e.get("title") or "", e.get("description") or ""]
        out += [f.get("name", "") + "\n" + f.get("value", "") for f in e.get("fields") or []]
    stack = list(data.get("components") or [])
    while stack:
        c = stack.pop()
        if c.get("type") == 10:
            out.append(c.get("content") or "")
        stack += c.get("components") or []
        if c.get("accessory"):
            stack.append(c["accessory"])
    return [x for x in out if x]


def plain_texts(data: dict) -> list[str]:
    """Texts shown as they are: button and select labels, placeholders, embed footers."""
    out = [(e.get("footer") or {}).get("text") or "" for e in data.get("embeds") or []]
    stack = list(data.get("components") or [])
    while stack:
        c = stack.pop()
        out += [c.get("label") or "", c.get("placeholder") or ""]
        out += [o.get("label", "") for o in c.get("options") or []]
        stack += c.get("components") or []
        if c.get("accessory"):
            stack.append(c["accessory"])
    return [x for x in out if x]


def audit(fd, players: set[int]) -> dict[str, int]:
    """Every message request the bot made: explicit allowed_mentions naming only players,
    no stranger notified, no live link, no raw name; returns figures."""
    figures = {"requests": 0, "pinged": 0}
    for req in fd.message_requests:
        body = req.message_body
        assert body is not None
        if not any(k in body for k in ("content", "embeds", "components", "attachments")):
            continue  # e.g. a deferred update carrying nothing
        figures["requests"] += 1
        am = req.allowed_mentions
        assert am is not None, f"{req!r} carries no allowed_mentions: {body}"
        assert not (set(am.get("parse") or []) & {"everyone", "roles", "users"}), f"{req!r} parses {am}"
        assert not am.get("roles"), f"{req!r} may ping roles: {am}"
        assert {int(u) for u in am.get("users") or []} <= players, f"{req!r} may ping a non-player: {am}"
        for text in markdown_texts(body):
            text = CODE_SPAN.sub("`code`", text)  # an echoed value in a code span is shown as it is
            assert not LIVE_LINK.search(text), f"{req!r}: a live link in {text!r}"
            assert f"<@{STRANGER}>" not in text and "@everyone" not in text and "@here" not in text, text
            assert "**bold**" not in text and "`tick`" not in text.replace("`code`", "") and "||spoil||" not in text, (
                text
            )
            assert LONG[:40] not in text, f"{req!r}: an unbounded name in {text!r}"
            assert not INVISIBLE.search(text.replace("\\@\u200b", "@").replace("\\:\u200b/", ":/")), text
        for text in plain_texts(body):
            assert not INVISIBLE.search(text) and LONG[:40] not in text, text
    for msg in fd.all_messages:
        assert set(msg.pinged) <= players, f"message {msg.id} notified {msg.pinged}: {msg.text!r}"
        assert STRANGER not in msg.pinged
        figures["pinged"] += len(msg.pinged)
    return figures


async def test_a_full_game_with_hostile_names_pings_and_links_nobody(table):
    fd = table.fd
    fd.add_user(STRANGER, "stranger")
    users = [fd.add_user(uid, name, nick=nick, global_name=gname) for uid, (name, nick, gname) in HOSTILE.items()]
    await table.start()
    gid, board = await table.open_table(users[0], "thunder_road", users[1:], remind=30)
    # every path that names players: status, log, a reminder, a resignation, then the whole game
    await (await fd.slash(users[1], "game status")).wait_idle(quiet=0.1)
    await (await fd.slash(users[2], "game log")).wait_idle(quiet=0.1)
    table.clock.advance(45)
    assert (await table.tick())["reminders"] >= 1
    reminder = fd.messages()[-1]
    assert reminder.pinged and set(reminder.pinged) <= set(HOSTILE), reminder.text
    board = table.board_of(fd.messages()) or board
    final = await table.play_buttons(gid, board)
    assert table.row(gid)["status"] == "finished" and t("core.ui.game_over", "en") in final.text
    (last,) = table.sql(
        "SELECT user_id FROM actions WHERE game_id=? AND taken_by='player' ORDER BY id DESC LIMIT 1", gid
    )
    # every player but the one whose move ended it (they are looking at it: issue 29.6), and only them
    assert set(final.pinged) == set(HOSTILE) - {last[0]}, "the final board tells every other player, and only them"
    # the names reached the texts escaped, and still read as written
    shown = "\n".join(m.text for m in fd.all_messages)
    assert "\\[gift\\](https\\:\u200b//evil.example/x)" in shown
    assert "\\<\\@\u200b4242\\>" in shown and "\\@\u200beveryone \\@\u200bhere" in shown
    figures = audit(fd, set(HOSTILE))
    assert figures["requests"] > 50 and figures["pinged"] > 10, figures
    assert not fd.violations


async def test_hostile_campaign_and_options_are_escaped(table):
    fd = table.fd
    fd.add_user(STRANGER, "stranger")
    host = fd.add_user(701, "alice", nick=f"<@{STRANGER}>")
    await table.start()
    name = f"@everyone [win](https://{EVIL}/c) **x** <@{STRANGER}>"
    ex = await fd.slash(host, "campaign new", {"game": "thunder_road", "name": name})
    await ex.wait_idle(quiet=0.1)
    public = [m for m in ex.messages if not m.ephemeral]
    assert public and "\\[win\\]" in public[-1].text, [m.text for m in ex.messages]
    await (await fd.slash(host, "campaign standings", {"name": name[:60]})).wait_idle(quiet=0.1)
    ex = await fd.slash(host, "game new", {"game": "thunder_road", "campaign": f"[no](https://{EVIL}/n) @everyone"})
    refusal = await table.wait_ephemeral(ex)
    assert f"`[no](https://{EVIL}/n) @everyone`" in refusal.content, "echoed in a code span: never a link"
    assert not LIVE_LINK.search(CODE_SPAN.sub("", refusal.content)), refusal.content
    audit(fd, {701})
    assert not fd.violations

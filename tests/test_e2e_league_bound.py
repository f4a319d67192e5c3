"""A league's sign-up post through the stand-in (every request checked against
Discord's OpenAPI description): its buttons act only on the league's own server
and channel (issue 28 item 9), and the post shows who has signed up (issue 29 item 3)."""

from __future__ import annotations

from conftest import Table
from test_e2e_league import league_state, reply, signup_post, until

from engine.i18n import t

OTHER_GUILD = 987654321098765432


async def refused(fd, ex, key: str, lang: str = "en") -> None:
    text = await reply(fd, ex)
    assert text == t(key, lang), text
    assert not [m for m in ex.messages if not m.ephemeral], "nothing public"


async def test_signup_buttons_act_only_on_the_leagues_server_and_channel_and_the_post_lists_members(table: Table):
    fd = table.fd
    boss = fd.owner
    ann = fd.add_user(7001, "ann")
    eve = fd.add_user(7002, "eve", locale="zh-CN")
    await table.start()
    elsewhere = fd.add_channel("elsewhere")
    ex = await fd.slash(boss, "league new", {"game": "thunder_road", "name": "Cup", "format": "swiss"})
    await reply(fd, ex)
    signup = await signup_post(fd)

    def post():
        return next(m for m in fd.messages() if m.id == signup.id)

    assert signup.text.endswith(t("league.signed_list", "en", n=0, users="—"))
    ex = await fd.click(ann, signup, "tg:lg:1:join")
    assert "signed up" in await reply(fd, ex)
    # the post shows who has signed up (mentions that ping nobody)
    await until(lambda: post().text.endswith(f"Signed up (1): <@{ann.id}>"))
    before = league_state(table)

    # a join replayed from another server, from a DM and from another channel: nobody signed up
    await refused(fd, await fd.click(eve, signup, "tg:lg:1:join", origin=OTHER_GUILD), "league.elsewhere", "zh")
    await refused(fd, await fd.click(eve, signup, "tg:lg:1:join", origin="dm"), "league.elsewhere", "zh")
    await refused(fd, await fd.click(eve, signup, "tg:lg:1:join", channel=elsewhere), "league.elsewhere", "zh")
    # another server's Leave does not drop a member
    await refused(fd, await fd.click(ann, signup, "tg:lg:1:leave", origin=OTHER_GUILD), "league.elsewhere")
    assert league_state(table) == before and post().text.endswith(f"Signed up (1): <@{ann.id}>")
    assert list(before["players"]) == [str(ann.id)]
    # on its own post both still work
    ex = await fd.click(eve, signup, "tg:lg:1:join")
    assert (await reply(fd, ex)).startswith("你已报名")
    assert sorted(league_state(table)["players"]) == sorted([str(ann.id), str(eve.id)])
    await until(lambda: post().text.endswith(f"Signed up (2): <@{ann.id}>, <@{eve.id}>"))
    ex = await fd.slash(boss, "league drop", {"name": "Cup", "member": ann})  # an organiser's change too
    await reply(fd, ex)
    await until(lambda: post().text.endswith(f"Signed up (1): <@{eve.id}>"))
    assert all(m.pinged == [] for m in fd.messages() if m.id == signup.id)
    assert not fd.violations, fd.violations

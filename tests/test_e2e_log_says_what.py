"""No log line reads a bare "…" (issue 29 item 8): a step whose events say nothing to its
reader (an Automobile build's first pick, a crew's order built in secret) reads what was
chosen to its own player and at an open game, and "gave orders" to a reader from whom
it is hidden; in ``/game log`` and the web companion's log, English and Chinese."""

from __future__ import annotations

from engine.i18n import t


def _bodies(text: str) -> list[str]:
    """The words of each line of a /game log answer after its "who:" (its title line left out)."""
    return [line.split(": ", 1)[1] if ": " in line else line for line in text.splitlines()[1:]]


async def _log(table, user) -> str:
    ex = await table.fd.slash(user, "game log")
    return (await table.wait_ephemeral(ex)).content


async def test_automobile_log_lines_say_what_was_chosen(table):
    alice = table.fd.add_user(101, "alice")
    bob = table.fd.add_user(102, "bob", locale="zh-CN")
    carol = table.fd.add_user(103, "carol")
    await table.start()
    gid, _ = await table.open_table(alice, "automobile", [bob, carol])
    await table.play_ai(gid, steps=14)
    service = table.bot.services.tables
    for user, locale in ((alice, "en"), (bob, "zh")):
        bodies = _bodies(await _log(table, user))
        assert len(bodies) >= 10, bodies
        assert all(b.strip() not in ("", "…") for b in bodies), bodies
        web = await service.board(gid, user.id, locale)
        assert web.log and all(line.text.strip() not in ("", "…") for line in web.log), [x.text for x in web.log]
    assert not table.fd.violations


async def test_a_crew_reads_its_own_secret_steps_and_others_read_that_orders_were_given(table):
    alice = table.fd.add_user(101, "alice")
    bob = table.fd.add_user(102, "bob", locale="zh-CN")
    await table.start()
    gid, _ = await table.open_table(alice, "armor_clash", [bob])
    service = table.bot.services.tables
    # alice builds her order (some steps), bob has not given his yet
    await table.play_ai(gid, steps=2)
    own = _bodies(await _log(table, alice))
    assert own and all(b.strip() not in ("", "…") for b in own), own
    assert t("core.log.gave_orders", "en") not in own, "a crew reads its own steps in full"
    others = _bodies(await _log(table, bob))
    assert all(b.strip() not in ("", "…") for b in others), others
    web = await service.board(gid, None, "en")
    assert all(line.text.strip() not in ("", "…") for line in web.log), [x.text for x in web.log]
    assert not table.fd.violations

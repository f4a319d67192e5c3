"""The database file deleted or replaced under the running bot (the real client against
the stand-in): moves are refused, privately and in the player's language, nothing is
acknowledged or posted, the log says it once, and the scheduler stops its passes."""

from __future__ import annotations

import logging
import os
import sqlite3

from engine import get_game
from engine.i18n import t
from engine.locales import CODES

TR = get_game("thunder_road")
UNAVAILABLE = {lang: t("core.ui.store_unavailable", lang) for lang in CODES}


async def test_a_move_after_the_database_file_was_deleted_is_refused_and_not_taken(table, caplog):
    host = table.fd.add_user(101, "host")
    bob = table.fd.add_user(102, "bob")
    await table.start()
    gid, board = await table.open_table(host, "thunder_road", [bob])
    row = table.row(gid)
    state = table.state(gid)
    seat = next(s for s in TR.to_act(state))
    user = table.fd.users[table.seat_user(gid)[seat]]
    cid, values = table.custom_id_for(board, gid, row["version"], table.choice_for(gid, seat, 0))
    os.unlink(table.db)
    caplog.set_level(logging.INFO)
    for lang, locale in (("en", "en-US"), ("zh", "zh-CN"), ("en", "en-US")):  # every later move too
        before = len(table.fd.messages())
        if values is None:
            ex = await table.fd.click(user, board, cid, locale=locale)
        else:
            ex = await table.fd.select(user, board, cid, values, locale=locale)
        note = await table.wait_ephemeral(ex)
        assert note.content == UNAVAILABLE[lang], note.content
        await ex.wait_idle(quiet=0.2, timeout=10)
        assert not [m for m in ex.followups if not m.ephemeral], "nothing posted for the table"
        assert len(table.fd.messages()) == before, "no board, no ping"
    assert not table.db.exists()
    lost = [r for r in caplog.records if "while the bot ran" in r.getMessage()]
    assert len(lost) == 1 and lost[0].levelno == logging.ERROR
    assert not [r for r in caplog.records if r.exc_info], "no traceback for a known condition"
    assert await table.bot.get_cog("Scheduler").run_pass() is None, "the scheduler takes no pass"


async def test_a_replaced_database_file_is_noticed_by_the_scheduler_pass(table, caplog):
    host = table.fd.add_user(101, "host")
    await table.start()
    scheduler = table.bot.get_cog("Scheduler")
    assert await scheduler.run_pass() == {"reminders": 0, "timeouts": 0, "failed": 0, "lobbies_expired": 0}
    fresh = table.db.with_name("fresh.db")
    sqlite3.connect(fresh).close()
    os.replace(fresh, table.db)
    caplog.set_level(logging.INFO)
    assert await scheduler.run_pass() is None
    assert await scheduler.run_pass() is None
    lines = [r.getMessage() for r in caplog.records if "replaced by another file" in r.getMessage()]
    assert len(lines) == 1, lines
    ex = await table.fd.slash(host, "game new", {"game": "thunder_road"})
    note = await table.wait_ephemeral(ex)
    assert note.content == UNAVAILABLE["en"]

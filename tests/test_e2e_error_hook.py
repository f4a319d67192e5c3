"""The one error hook (cogs/present/errors.py) and the typed click routes (cogs/kit/components.py),
through the real discord.py client and the stand-in: a refusal raised by any command
or click is answered privately with its text, and a click whose handler is missing
is told the truth (nothing changed) instead of going unanswered."""

from __future__ import annotations

import logging

from cogs.kit.components import routes_of
from engine.i18n import t


async def _reply(ex) -> str:
    msg = await ex.wait_response()
    await ex.wait_idle(quiet=0.1, timeout=30)
    assert msg.ephemeral, msg.text
    return msg.text


async def test_a_refused_command_is_answered_privately_after_or_before_deferring(table, caplog):
    user = table.fd.add_user(101, "host")
    await table.start()
    caplog.set_level(logging.ERROR)
    # deferred first (/game undo), refused by the table service: the refusal's own text
    assert await _reply(await table.fd.slash(user, "game undo")) == t("core.ui.no_game", "en")
    # not deferred (/game follow), refused the same way
    assert await _reply(await table.fd.slash(user, "game follow")) == t("core.ui.no_game", "en")
    # in the member's language
    zh = table.fd.add_user(102, "zh", locale="zh-CN")
    assert await _reply(await table.fd.slash(zh, "game resign")) == t("core.ui.no_game", "zh")
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], "a refusal is no error"
    assert not table.fd.violations


async def test_clicks_reach_their_typed_handler_and_a_missing_one_changes_nothing(table, caplog):
    user = table.fd.add_user(101, "host")
    bot = await table.start()
    board = await table.wait_board(await table.fd.slash(user, "game new", {"game": "city_of_fury"}))
    gid = table.sql("SELECT id FROM games ORDER BY id DESC LIMIT 1")[0][0]
    routes = routes_of(bot)
    assert routes.tables is bot.get_cog("Play") and routes.leagues is bot.get_cog("League")
    version = table.row(gid)["version"]
    idx = table.choice_for(gid, "p1", table.ai_index(gid, "p1"))

    handler, routes.tables = routes.tables, None  # as if the cog were not loaded
    caplog.set_level(logging.ERROR)
    assert await _reply(await table.choose(user, board, gid, idx)) == t("core.ui.internal", "en")
    assert table.row(gid)["version"] == version, "nothing changed"

    routes.tables = handler
    ex = await table.choose(user, board, gid, idx)
    await table.next_board(ex, gid, version)
    assert table.row(gid)["version"] > version
    assert not table.fd.violations

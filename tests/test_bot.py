"""Start-up behaviour: the token check, .env, and syncing commands only on purpose."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from bot import Config, read_dotenv

ROOT = Path(__file__).resolve().parent.parent


def test_without_a_token_it_explains_and_exits(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    proc = subprocess.run(
        [sys.executable, str(ROOT / "bot.py")], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60
    )
    assert proc.returncode == 2
    assert "DISCORD_TOKEN" in proc.stderr and "developers/applications" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_config_from_env_and_dotenv(tmp_path):
    dotenv = tmp_path / ".env"
    dotenv.write_text("# comment\nDISCORD_TOKEN='abc'\nexport TG_DEV_GUILD=42\nTG_LOCALE=zh\n")
    assert read_dotenv(dotenv)["TG_DEV_GUILD"] == "42"
    cfg = Config.from_env({"TG_DATABASE": "x.db"}, dotenv)
    assert (cfg.token, cfg.dev_guild, cfg.locale, cfg.database, cfg.sync) == ("abc", 42, "zh", "x.db", "auto")
    assert Config.from_env({"DISCORD_TOKEN": "env wins"}, dotenv).token == "env wins"


async def test_commands_are_synced_only_when_they_change(table):
    await table.start()
    puts = lambda: [r for r in table.fd.requests if r.method == "PUT" and "/commands" in r.path]  # noqa: E731
    assert len(puts()) == 1, "a fresh database syncs once"
    await table.restart()
    assert len(puts()) == 1, "same commands, no sync at restart"
    table.bot.config.sync = "always"
    assert await table.bot.sync_commands(force=True)
    assert len(puts()) == 2

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
    assert "beside bot.py" in proc.stderr and "container" not in proc.stderr


def test_in_the_container_without_a_token_it_says_how_to_pass_one_there(tmp_path):
    """The image sets TG_IN_CONTAINER (Dockerfile): no bot.py or .env beside it to edit there."""
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"} | {"TG_IN_CONTAINER": "1"}
    proc = subprocess.run(
        [sys.executable, str(ROOT / "bot.py")], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60
    )
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "docker run -e DISCORD_TOKEN=" in proc.stderr and ".env beside docker-compose.yml" in proc.stderr
    assert "docker compose up -d" in proc.stderr and "docker-compose up -d" in proc.stderr
    assert "beside bot.py" not in proc.stderr and "python bot.py" not in proc.stderr
    assert "ENV TG_IN_CONTAINER=1" in (ROOT / "Dockerfile").read_text(encoding="utf-8")


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


# ------------------------------------------------------------------ lifecycle
import asyncio  # noqa: E402
import signal  # noqa: E402
import time  # noqa: E402

import pytest  # noqa: E402
from fakediscord import FakeDiscord  # noqa: E402


async def _spawn(tmp_path, base: str, token: str = "fake-token"):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "TG_"))}
    env.update(DISCORD_TOKEN=token, TG_API_BASE=base, TG_DATABASE=str(tmp_path / "bot.db"), PYTHONUNBUFFERED="1")
    return await asyncio.create_subprocess_exec(
        sys.executable,
        str(ROOT / "bot.py"),
        cwd=tmp_path,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def _wait_ready(fd: FakeDiscord, proc, timeout: float = 30.0) -> bytes:
    """Wait for the bot's own "ready as ..." log line (READY handled: on_ready ran), not a
    fixed time after its commands were synced; returns the log read so far."""
    seen = b""
    try:
        async with asyncio.timeout(timeout):
            while True:
                line = await proc.stderr.readline()
                seen += line
                if not line or b" ready as " in line:
                    break
    except TimeoutError:
        pass
    if b" ready as " in seen and fd.identifies:
        return seen
    proc.kill()
    out, err = await proc.communicate()
    raise AssertionError(f"bot not ready: rc={proc.returncode}\n{(seen + err).decode()[-3000:]}")


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
async def test_a_signal_stops_the_bot_cleanly_within_5_seconds(tmp_path, sig):
    async with FakeDiscord() as fd:
        proc = await _spawn(tmp_path, fd.base_url)
        early = await _wait_ready(fd, proc)
        assert (tmp_path / "bot.db-wal").exists(), "the bot runs on the database in WAL mode"
        sent = time.monotonic()
        proc.send_signal(sig)
        try:
            out, err = await asyncio.wait_for(proc.communicate(), 5)
        except TimeoutError:
            proc.kill()
            raise AssertionError("the bot did not stop within 5 s of the signal") from None
        took = time.monotonic() - sent
    text = (early + err).decode()
    assert proc.returncode == 0, text[-3000:]
    assert "Traceback" not in text and "Unclosed" not in text and "Task was destroyed" not in text, text[-3000:]
    assert not (tmp_path / "bot.db-wal").exists(), "a clean stop checkpoints the WAL"
    assert took < 5


async def test_a_refused_token_is_one_line_and_a_non_zero_exit(tmp_path):
    async with FakeDiscord() as fd:
        fd.fail_requests("GET", r"^/users/@me$", status=401, code=0, message="401: Unauthorized", times=10)
        proc = await _spawn(tmp_path, fd.base_url, token="garbage")
        out, err = await asyncio.wait_for(proc.communicate(), 30)
    text = err.decode()
    assert proc.returncode == 2
    assert "Discord refused the token" in text
    assert "Traceback" not in text and "Unclosed" not in text, text


async def test_discord_unreachable_is_one_line_and_a_non_zero_exit(tmp_path):
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = await _spawn(tmp_path, f"http://127.0.0.1:{port}")
    out, err = await asyncio.wait_for(proc.communicate(), 30)
    text = err.decode()
    assert proc.returncode == 3
    assert "Cannot reach Discord" in text
    assert "Traceback" not in text and "Unclosed" not in text, text
    lines = [
        line
        for line in text.splitlines()
        if line.strip() and " INFO " not in line and "TG_API_BASE is set" not in line  # (the stand-in's warning)
    ]
    assert len(lines) == 1, text

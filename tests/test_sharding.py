"""Several bot processes: shard ranges (AutoShardedBot) and one process syncing commands."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from discord.ext import commands

from bot import Config, ShardedTabletopBot, TabletopBot, create_bot, parse_shards, shard_config

ROOT = Path(__file__).resolve().parent.parent


def test_shard_ranges_from_the_environment():
    assert parse_shards("0-3") == [0, 1, 2, 3] and parse_shards("0-1,6, 4") == [0, 1, 4, 6]
    cfg = Config.from_env({"TG_SHARDS": "4-7", "TG_SHARD_COUNT": "8"}, None)
    assert (cfg.shards, cfg.shard_count, cfg.syncs_commands) == ([4, 5, 6, 7], 8, False)
    cfg = Config.from_env({"TG_SHARD_COUNT": "2"}, None)
    assert (cfg.shards, cfg.shard_count, cfg.syncs_commands) == ([0, 1], 2, True)
    cfg = Config.from_env({}, None)
    assert (cfg.shards, cfg.shard_count, cfg.syncs_commands) == (None, None, True)
    for shards, count in (("0-3", None), ("0-8", 8), ("a-b", 4), ("", 4), (None, 0)):
        with pytest.raises(ValueError):
            shard_config(shards, count)


@pytest.mark.parametrize("argv", [["--shards", "0-9", "--shard-count", "8"], ["--shards", "0-3"]])
def test_bad_shard_options_are_refused_with_one_line(tmp_path, argv):
    env = {**os.environ, "DISCORD_TOKEN": "x", "TG_DATABASE": str(tmp_path / "t.db")}
    env.pop("TG_SHARD_COUNT", None)
    proc = subprocess.run(
        [sys.executable, str(ROOT / "bot.py"), *argv], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60
    )
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert proc.returncode == 2 and len(lines) == 1 and "shard" in lines[0], proc.stderr


async def _puts(table, shards: str | None, count: int | None) -> tuple[object, int]:
    config = Config(token="t", database=str(table.db), sync="always", scheduler=False, **shard_config(shards, count))
    bot = create_bot(config, clock=table.clock, guild_ready_timeout=0.05)
    await table.fd.start(bot)
    puts = [r for r in table.fd.requests if r.method == "PUT" and "/commands" in r.path]
    await table.fd.stop(bot)
    return bot, len(puts)


async def test_only_the_process_running_shard_0_syncs_commands(table):
    table.fd.add_user(101, "alice")
    other, n = await _puts(table, "2-3", 4)
    assert isinstance(other, ShardedTabletopBot) and isinstance(other, commands.AutoShardedBot)
    assert (other.shard_ids, other.shard_count, n) == ([2, 3], 4, 0)
    first, n = await _puts(table, "0-1", 4)
    assert (first.shard_ids, first.shard_count, n) == ([0, 1], 4, 1)
    plain, _ = await _puts(table, None, None)
    assert type(plain) is TabletopBot

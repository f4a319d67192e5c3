"""Tabletop GM: a Discord game-master bot.

    python bot.py            run the bot (token from DISCORD_TOKEN or .env)
    python bot.py --sync     also push the slash commands to Discord now

Configuration comes from the environment (or a ``.env`` file beside this
script); see the README's configuration table.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import logging
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import discord
from discord.ext import commands

from cogs.components import DYNAMIC_ITEMS
from cogs.locale import CatalogTranslator
from cogs.services import Services
from store import Store, open_store

log = logging.getLogger("tabletop")
EXTENSIONS = ("cogs.tables", "cogs.scheduler", "cogs.community", "cogs.game_commands")
ROOT = Path(__file__).resolve().parent

NO_TOKEN = """\
No Discord bot token found.

  1. Open https://discord.com/developers/applications, create an application,
     then Bot -> Reset Token, and copy the token.
  2. Put it in the environment:   export DISCORD_TOKEN=your-token
     or in a file .env beside bot.py:   DISCORD_TOKEN=your-token
  3. Run `python bot.py` again.

No token at hand? Watch the engine play itself instead:
  python -m engine selfplay city_of_fury --seed 1 --render out/
"""


@dataclass
class Config:
    token: str | None = None
    database: str = "tabletop.db"
    dev_guild: int | None = None
    log_level: str = "INFO"
    locale: str = "en"
    sync: str = "auto"  # auto: sync when the command tree changed; always; never
    scheduler: bool = True  # run reminders/timers in the background (tests drive Scheduler.tick themselves)

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None, dotenv: Path | None = ROOT / ".env") -> Config:
        values = dict(read_dotenv(dotenv) if dotenv else {})
        values.update(env if env is not None else os.environ)
        guild = values.get("TG_DEV_GUILD") or None
        return cls(
            token=values.get("DISCORD_TOKEN") or None,
            database=values.get("TG_DATABASE", "tabletop.db"),
            dev_guild=int(guild) if guild else None,
            log_level=values.get("TG_LOG_LEVEL", "INFO").upper(),
            locale=values.get("TG_LOCALE", "en"),
            sync=values.get("TG_SYNC", "auto").lower(),
        )


def read_dotenv(path: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    if not path.exists():
        return out
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        out[key.strip().removeprefix("export ").strip()] = value.strip().strip('"').strip("'")
    return out


class TabletopBot(commands.Bot):
    def __init__(self, config: Config, store: Store | None = None, clock=time.time, **kwargs) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # slash commands and components need no privileged intents
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None, **kwargs)
        self.config = config
        self.services = Services(
            store=store or open_store(config.database, clock), default_locale=config.locale, clock=clock
        )

    async def setup_hook(self) -> None:
        await self.services.store.open()
        await self.tree.set_translator(CatalogTranslator())
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        await self.sync_commands(force=self.config.sync == "always")

    async def sync_commands(self, force: bool = False) -> bool:
        """Push the command tree only when it changed (or when forced).

        Discord rate-limits command syncs; syncing blindly at every start is
        wasteful.  We hash the translated payload and remember the last one
        pushed per target in the database."""
        if self.config.sync == "never" and not force:
            return False
        guild = discord.Object(self.config.dev_guild) if self.config.dev_guild else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        translator = self.tree.translator
        payload = [await c.get_translated_payload(self.tree, translator) for c in self.tree.get_commands(guild=guild)]
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()
        key = f"command_hash:{guild.id if guild else 'global'}"
        if not force and await self.services.store.get_meta(key) == digest:
            log.info("slash commands unchanged; not syncing")
            return False
        synced = await self.tree.sync(guild=guild)
        await self.services.store.set_meta(key, digest)
        log.info("synced %d slash commands to %s", len(synced), f"guild {guild.id}" if guild else "all guilds")
        return True

    async def close(self) -> None:
        await super().close()
        await self.services.store.close()
        self.services.executor.shutdown(wait=False, cancel_futures=True)

    async def on_ready(self) -> None:
        log.info("ready as %s in %d guild(s)", self.user, len(self.guilds))


def create_bot(config: Config, store: Store | None = None, clock=time.time, **kwargs) -> TabletopBot:
    return TabletopBot(config, store, clock, **kwargs)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Run the Tabletop GM Discord bot.")
    ap.add_argument(
        "--sync", action="store_true", help="push the slash commands to Discord at start, even if unchanged"
    )
    args = ap.parse_args(argv)
    config = Config.from_env()
    if args.sync:
        config.sync = "always"
    logging.basicConfig(
        level=getattr(logging, config.log_level, logging.INFO), format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    if not config.token:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    bot = create_bot(config)
    try:
        asyncio.run(bot.start(config.token))
    except discord.LoginFailure:
        print(
            "Discord refused the token (DISCORD_TOKEN). Reset it in the developer portal and try again.",
            file=sys.stderr,
        )
        return 2
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())

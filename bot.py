"""Tabletop GM: a Discord game-master bot.

    python bot.py            run the bot (token from DISCORD_TOKEN or .env)
    python bot.py --sync     also push the slash commands to Discord now
    python bot.py --shards 0-3 --shard-count 8
                             run shards 0..3 of 8 in this process (AutoShardedBot);
                             other processes run the other shards on the same PostgreSQL

Configuration comes from the environment (or a ``.env`` file beside this
script); see the README's configuration table.

SIGINT (Ctrl-C) or SIGTERM stops the bot cleanly: the gateway is closed, the
database closed (SQLite: WAL checkpointed, no ``-wal`` file left), the render
pool shut down, exit code 0.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import ipaddress
import json
import logging
import os
import signal
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import discord
import yarl
from discord.ext import commands

from cogs.kit.components import DYNAMIC_ITEMS, Routes
from cogs.kit.flood import GuardedTree
from cogs.kit.locale import CatalogTranslator
from cogs.kit.services import Services
from cogs.present.errors import ErrorHook
from engine.locales import DEFAULT
from store import Store, StoreError, open_store, redact
from tables import due_times

log = logging.getLogger("tabletop")
EXTENSIONS = (
    "cogs.game.play",
    "cogs.game.rules",
    "cogs.game.scheduler",
    "cogs.present.outbox",
    "cogs.game.community",
    "cogs.game.settings",
    "cogs.game.game_commands",
    "cogs.present.follower_posts",
    "cogs.league.commands",
    "cogs.game.help",
    "cogs.game.notify",
)
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

#: the same inside the image (its Dockerfile sets TG_IN_CONTAINER): no bot.py and no .env to edit there
NO_TOKEN_CONTAINER = """\
No Discord bot token found: DISCORD_TOKEN is not set in this container.

  1. Open https://discord.com/developers/applications, create an application,
     then Bot -> Reset Token, and copy the token.
  2. Give it to the container in its environment, either when you start it:
       docker run -e DISCORD_TOKEN=your-token -v tabletop-data:/data tabletop-gm
     or, with docker-compose.yml, as a line of the file .env beside docker-compose.yml:
       DISCORD_TOKEN=your-token
     then `docker compose up -d` again (Debian's docker-compose: `docker-compose up -d`).

No token at hand? Watch the engine play itself instead:
  docker run --rm tabletop-gm python -m engine selfplay city_of_fury --seed 1
"""


def no_token_text(env: Mapping[str, str]) -> str:
    """How to give the bot its token, where it runs: in the image or from a checkout."""
    return NO_TOKEN_CONTAINER if env.get("TG_IN_CONTAINER") else NO_TOKEN


@dataclass
class Config:
    token: str | None = None
    database: str = "tabletop.db"
    dev_guild: int | None = None
    log_level: str = "INFO"
    locale: str = DEFAULT
    sync: str = "auto"  # auto: sync when the command tree changed; always; never
    scheduler: bool = True  # run reminders/timers in the background (tests drive Scheduler.tick themselves)
    api_base: str | None = None  # TEST ONLY: a Discord stand-in at this http base URL (TG_API_BASE)
    shards: list[int] | None = None  # shard ids this process runs (None: all of shard_count, or unsharded)
    shard_count: int | None = None  # total shards across every process (None: unsharded)
    web_port: int | None = None  # serve the web companion on this port in this process (TG_WEB_PORT)
    web_url: str = ""  # the companion's public base URL (TG_WEB_URL): link buttons and /game web
    web_host: str = "0.0.0.0"  # TG_WEB_HOST
    web_proxy: bool = False  # TG_WEB_PROXY=1: trust X-Forwarded-For from a reverse proxy (rate limits)

    @property
    def syncs_commands(self) -> bool:
        """Exactly one process pushes slash commands: the one running shard 0."""
        return self.shard_count is None or 0 in (self.shards or [0])

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
            locale=values.get("TG_LOCALE", DEFAULT),
            sync=values.get("TG_SYNC", "auto").lower(),
            **shard_config(values.get("TG_SHARDS") or None, values.get("TG_SHARD_COUNT") or None),
            api_base=loopback_base(values.get("TG_API_BASE") or None),
            web_port=web_port(values.get("TG_WEB_PORT")),
            web_url=values.get("TG_WEB_URL", "").rstrip("/"),
            web_host=values.get("TG_WEB_HOST") or "0.0.0.0",
            web_proxy=values.get("TG_WEB_PROXY", "").lower() in ("1", "true", "yes"),
        )


def web_port(value: str | None) -> int | None:
    """``TG_WEB_PORT``: a TCP port (0: any free one), or None (the companion is off)."""
    if not value:
        return None
    if not value.strip().isdigit() or not 0 <= int(value) <= 65535:
        raise ValueError(f"TG_WEB_PORT must be a port number (0-65535), not {value!r}")
    return int(value)


def parse_shards(spec: str) -> list[int]:
    """``"0-3"``, ``"0,2,5"``, ``"4"`` or a mix (``"0-1,6"``) -> sorted shard ids."""
    ids: set[int] = set()
    for part in spec.replace(" ", "").split(","):
        if not part:
            continue
        lo, sep, hi = part.partition("-")
        if not lo.isdigit() or (sep and not hi.isdigit()):
            raise ValueError(f"bad shard range {part!r} (use e.g. 0-3 or 0,2,5)")
        ids.update(range(int(lo), int(hi) + 1) if sep else [int(lo)])
    if not ids:
        raise ValueError("no shard ids given")
    return sorted(ids)


def shard_config(shards: str | None, count: str | int | None) -> dict:
    """``TG_SHARDS`` / ``--shards`` and ``TG_SHARD_COUNT`` / ``--shard-count`` -> Config fields."""
    if shards is None and count is None:
        return {"shards": None, "shard_count": None}
    if count is None:
        raise ValueError("a shard range needs the total number of shards (TG_SHARD_COUNT / --shard-count)")
    total = int(count)
    if total < 1:
        raise ValueError("the shard count must be at least 1")
    ids = parse_shards(shards) if shards is not None else list(range(total))
    if ids[-1] >= total:
        raise ValueError(f"shard {ids[-1]} is out of range for {total} shards (ids 0..{total - 1})")
    return {"shards": ids, "shard_count": total}


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
        # a game bot has no voice: do not warn at every start that the voice libraries are missing
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        intents = discord.Intents.none()
        intents.guilds = True  # slash commands and components need no privileged intents
        # nobody is notified unless a message names them: a ping passes its users explicitly
        # (cogs.present.ui.allowed_mentions); never a role, @everyone or @here
        kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
        super().__init__(
            command_prefix=commands.when_mentioned, intents=intents, help_command=None, tree_cls=GuardedTree, **kwargs
        )
        self.config = config
        self.services = Services(
            store=store or open_store(config.database, clock, due=due_times),
            default_locale=config.locale,
            clock=clock,
            web_url=config.web_url,
        )
        #: where clicks go: the one error hook, and the handlers the cogs register (cogs/kit/components.py)
        self.routes = Routes(hook=ErrorHook(self, self.services))
        self.web_runner: Any = None  # the web companion (an aiohttp AppRunner), when TG_WEB_PORT is set

    async def setup_hook(self) -> None:
        await self.services.store.open()
        await self.tree.set_translator(CatalogTranslator())
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        if self.config.syncs_commands:
            await self.sync_commands(force=self.config.sync == "always")
        else:
            log.info("slash commands are synced by the process running shard 0")
        if self.config.web_port is not None:
            await self.start_web()

    async def start_web(self) -> None:
        """The web companion inside this process (same database, same table service)."""
        from cogs.present.board_posts import Boards
        from web import start

        boards = Boards(self, self.services)
        self.web_runner = await start(
            self.services.tables,
            self.config.web_port or 0,
            host=self.config.web_host,
            base_url=self.config.web_url,
            names=boards.cached_names,
            trust_proxy=self.config.web_proxy,
        )

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
        assert translator is not None  # set in setup_hook
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
        """Gateway and HTTP session first, then the web companion, then the database, then the render pool."""
        try:
            await super().close()
            if self.web_runner is not None:
                runner, self.web_runner = self.web_runner, None
                await runner.cleanup()
        finally:
            try:
                await self.services.store.close()
            finally:
                self.services.executor.shutdown(wait=False, cancel_futures=True)

    async def on_ready(self) -> None:
        log.info("ready as %s in %d guild(s)", self.user, len(self.guilds))


class ShardedTabletopBot(TabletopBot, commands.AutoShardedBot):
    """The bot running a range of shards (``Config.shards`` of ``Config.shard_count``)."""


def create_bot(config: Config, store: Store | None = None, clock=time.time, **kwargs) -> TabletopBot:
    if config.shard_count is not None:
        return ShardedTabletopBot(
            config, store, clock, shard_ids=config.shards, shard_count=config.shard_count, **kwargs
        )
    return TabletopBot(config, store, clock, **kwargs)


def loopback_base(base: str | None) -> str | None:
    """``TG_API_BASE`` as given, if it names this machine (127.0.0.0/8, ::1, localhost):
    the bot's token goes to that address, so a leftover value must never send it
    elsewhere.  Raises ValueError (one line) for any other host."""
    if base is None:
        return None
    refused = f"TG_API_BASE={redact(base)!r} is refused: it may only be an http(s) address of this machine (127.0.0.1, ::1, localhost)"
    try:
        url = yarl.URL(base)
        host = (url.host or "").rstrip(".").lower()
    except ValueError:
        raise ValueError(refused) from None
    if url.scheme not in ("http", "https") or url.user or url.password:
        raise ValueError(refused)
    if host == "localhost":
        return base
    try:
        if ipaddress.ip_address(host).is_loopback:
            return base
    except ValueError:
        pass
    raise ValueError(refused)


def use_api_base(base: str) -> None:
    """TEST ONLY (``TG_API_BASE``): talk to a Discord stand-in at ``base``
    (REST under ``/api/v10``, the gateway at ``/gateway``) instead of Discord."""
    url = yarl.URL(base)
    discord.http.Route.BASE = str(url / "api" / "v10")
    ws = url.with_scheme("wss" if url.scheme == "https" else "ws")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = ws / "gateway"


TOKEN_REFUSED = "Discord refused the token (DISCORD_TOKEN). Reset it in the developer portal and try again."
UNREACHABLE = "Cannot reach Discord ({detail}). Check this machine's network connection, DNS and proxy, then try again."


async def run(bot: TabletopBot, token: str) -> int:
    """Run until the bot ends or SIGINT/SIGTERM arrives; always close cleanly.
    Returns the exit code (0 after a signal; 2 for a refused token, 3 when
    Discord cannot be reached), printing one line for a failure."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    runner = asyncio.create_task(bot.start(token), name="discord")
    stopper = asyncio.create_task(stop.wait(), name="signals")
    code = 0
    try:
        await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        failure = runner.exception() if runner.done() and not runner.cancelled() else None
        if failure is not None:
            code = explain(failure)
    finally:
        stopper.cancel()
        try:
            await asyncio.wait_for(bot.close(), 4)
        except (TimeoutError, Exception):  # a hung close must not keep the process alive
            log.warning("closing did not finish cleanly", exc_info=True)
        if not runner.done():
            runner.cancel()
        await asyncio.gather(runner, return_exceptions=True)
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)
    if stop.is_set():
        log.info("stopped by signal")
    return code


def explain(exc: BaseException) -> int:
    """One friendly line for why the bot could not run (no traceback)."""
    if isinstance(exc, discord.LoginFailure):
        print(TOKEN_REFUSED, file=sys.stderr)
        return 2
    if isinstance(exc, (aiohttp.ClientConnectionError, OSError, TimeoutError, discord.GatewayNotFound)):
        print(UNREACHABLE.format(detail=type(exc).__name__), file=sys.stderr)
        return 3
    if isinstance(exc, discord.HTTPException) and exc.status >= 500:
        print(UNREACHABLE.format(detail=f"HTTP {exc.status}"), file=sys.stderr)
        return 3
    log.error("the bot stopped on an unexpected error", exc_info=exc)
    return 1


async def serve(config: Config) -> int:
    """Open the database first (a refused, unreachable or unwritable one stops the start
    with one line and no secret, before logging in), then run the bot on it."""
    try:
        store = open_store(config.database, due=due_times)
        await store.open()
    except (StoreError, ValueError) as exc:
        print(f"tabletop-gm: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001 -- its text may hold the URL: name the kind only
        print(
            f"tabletop-gm: cannot open the database {redact(config.database)} ({type(exc).__name__})", file=sys.stderr
        )
        return 2
    assert config.token
    return await run(create_bot(config, store), config.token)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Run the Tabletop GM Discord bot.")
    ap.add_argument(
        "--sync", action="store_true", help="push the slash commands to Discord at start, even if unchanged"
    )
    ap.add_argument("--shards", help="shard ids this process runs, e.g. 0-3 (default TG_SHARDS; all of --shard-count)")
    ap.add_argument("--shard-count", help="total shards across all processes (default TG_SHARD_COUNT)")
    args = ap.parse_args(argv)
    try:
        config = Config.from_env()
        if args.shards is not None or args.shard_count is not None:
            shards = args.shards if args.shards is not None else (",".join(map(str, config.shards or [])) or None)
            count = args.shard_count if args.shard_count is not None else config.shard_count
            vars(config).update(shard_config(shards, count))
    except ValueError as exc:
        print(f"tabletop-gm: {exc}", file=sys.stderr)
        return 2
    if args.sync:
        config.sync = "always"
    logging.basicConfig(
        level=getattr(logging, config.log_level, logging.INFO), format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    if not config.token:
        print(no_token_text(os.environ), file=sys.stderr)
        return 2
    if config.api_base:
        log.warning(
            "TG_API_BASE is set: talking to a Discord stand-in at %s, not to Discord (tests only)", config.api_base
        )
        use_api_base(config.api_base)
    return asyncio.run(serve(config))


if __name__ == "__main__":
    sys.exit(main())

"""``python -m web``: the web companion as its own process, reading the bot's database.

Environment (or a ``.env`` beside bot.py): ``TG_DATABASE`` (the same as the bot's; with
SQLite the bot must not be running, since SQLite serves one process: run the companion
inside the bot with ``TG_WEB_PORT`` instead), ``TG_WEB_PORT`` (default 8080),
``TG_WEB_HOST`` (default 0.0.0.0), ``TG_WEB_URL`` (public base URL), ``TG_WEB_SECRET``,
``TG_WEB_PROXY=1`` (trust X-Forwarded-For from a reverse proxy).
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
from pathlib import Path

from tables import TableService, open_database
from web.app import start


def _env() -> dict[str, str]:
    env = dict(os.environ)
    dotenv = Path(__file__).resolve().parent.parent / ".env"
    if dotenv.exists():
        for line in dotenv.read_text(encoding="utf-8").splitlines():
            line = line.strip()
            if line and not line.startswith("#") and "=" in line:
                k, v = line.split("=", 1)
                env.setdefault(k.strip(), v.strip().strip('"').strip("'"))
    return env


async def main() -> int:
    env = _env()
    logging.basicConfig(level=env.get("TG_LOG_LEVEL", "INFO"), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        store = await open_database(env.get("TG_DATABASE", "tabletop.db"))
    except Exception as exc:  # noqa: BLE001 -- one line, not a traceback
        print(f"web: cannot open the database: {exc}", file=sys.stderr)
        return 2
    tables = TableService(store)
    port = int(env.get("TG_WEB_PORT") or 8080)
    runner = await start(
        tables,
        port,
        host=env.get("TG_WEB_HOST", "0.0.0.0"),
        base_url=env.get("TG_WEB_URL", ""),
        trust_proxy=env.get("TG_WEB_PROXY", "") in ("1", "true", "yes"),
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await runner.cleanup()
    await store.close()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))

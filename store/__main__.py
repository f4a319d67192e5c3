"""Database tools for operators.

    python -m store copy SRC DST                  copy every table (e.g. sqlite:///tabletop.db to postgresql://...)
    python -m store backup [--database DB] FILE   online, consistent SQLite backup while the bot runs
    python -m store restore FILE [--database DB]  put a backup in place (bot stopped); the old file is kept

``DB`` defaults to ``TG_DATABASE`` (or tabletop.db), as for the bot.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys

from .base import StoreError
from .tools import backup, copy, restore


def main(argv: list[str] | None = None) -> int:
    default_db = os.environ.get("TG_DATABASE", "tabletop.db")
    ap = argparse.ArgumentParser(prog="python -m store", description="Tabletop GM database tools.")
    sub = ap.add_subparsers(dest="command", required=True)
    c = sub.add_parser("copy", help="copy every table into an empty database (stop the bot first)")
    c.add_argument("source", help="e.g. sqlite:///tabletop.db")
    c.add_argument("destination", help="e.g. postgresql://user:pass@host/db")
    b = sub.add_parser("backup", help="online, consistent backup of a SQLite database into a new file")
    b.add_argument("file")
    b.add_argument("--database", default=default_db, help="the SQLite database (default: TG_DATABASE)")
    r = sub.add_parser("restore", help="replace the SQLite database with a backup (stop the bot first)")
    r.add_argument("file")
    r.add_argument("--database", default=default_db, help="the SQLite database (default: TG_DATABASE)")
    args = ap.parse_args(argv)
    try:
        if args.command == "copy":
            tables = asyncio.run(copy(args.source, args.destination, log=print))
            print(f"copied {sum(t.rows for t in tables)} rows in {len(tables)} tables")
        elif args.command == "backup":
            games = backup(args.database, args.file)
            print(f"backed up {args.database} to {args.file} ({games} games)")
        else:
            kept = restore(args.file, args.database)
            print(f"restored {args.file} to {args.database}" + (f"; the replaced database is {kept}" if kept else ""))
    except StoreError as exc:
        print(f"python -m store {args.command}: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

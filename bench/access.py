"""Accessibility figures over all four games (issue 33 item 5), printed as one line:

    access images=<n> described=<n> cvd_min_delta=<x> axe_serious=<n> missing_keys=<n>

    python bench/access.py [--clicks 25] [--no-browser]

* images, described: every image the bot posted (each attachment, counted once however
  often its message was edited) while a scripted game of each game was played through the
  Discord stand-in (tests/fakediscord.py: the real discord.py client; the seat-filler AI's
  choices clicked as buttons, at most ``--clicks`` per game so the run is bounded), and
  those of them with a non-empty description (the attachment's, or the media gallery
  item's or thumbnail's that shows it: what a screen reader reads);
* cvd_min_delta: the least CAM02-UCS ΔE between two seats of any game at any seat count
  it seats, in normal vision or simulated protanopia, deuteranopia or tritanopia
  (tests/vision.py, colorspacious); the stated floor is render.common.MIN_SEAT_DELTA;
* axe_serious: serious and critical axe-core violations (one per rule and page) on every
  page of the companion (tests/sitekit.py) in headless Chromium at phone and desktop size;
  -1 with ``--no-browser`` or without Chromium;
* missing_keys: over every catalog (engine.i18n.namespaces) and every language of
  engine/locales.py but English: a key English has and it lacks (or the reverse), or a
  key whose placeholders differ.

Targets: described = images, cvd_min_delta >= the floor, axe_serious = 0, missing_keys = 0.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from conftest import Table  # noqa: E402
from fakediscord import FakeDiscord, walk_components  # noqa: E402
from vision import closest  # noqa: E402

from engine import available, get_game  # noqa: E402
from engine.i18n import catalog_path, namespaces, placeholders  # noqa: E402
from engine.locales import CODES, DEFAULT  # noqa: E402
from render import seat_colours  # noqa: E402

#: players of each scripted game (the host first; the solo game has one)
PLAYERS = {"thunder_road": 2, "city_of_fury": 1, "automobile": 3, "armor_clash": 2}


def _shown_by(state: dict) -> dict[str, str]:
    """What each image of one message state is described as: attachment URL/filename -> text."""
    out: dict[str, str] = {}
    for comp in walk_components(state.get("components") or []):
        media = []
        if comp.get("type") == 12:  # a media gallery
            media = [(item.get("media") or {}, item.get("description")) for item in comp.get("items") or []]
        elif comp.get("type") == 11:  # a thumbnail
            media = [(comp.get("media") or {}, comp.get("description"))]
        for m, desc in media:
            url = str(m.get("url") or "")
            if desc:
                out[url] = desc
                out[url.rsplit("/", 1)[-1].removeprefix("attachment://")] = desc
    return out


def count_images(fd: FakeDiscord) -> tuple[int, int]:
    """(images, described) over every message the bot posted, every state of it."""
    described: dict[str, bool] = {}
    for msg in fd.all_messages:
        for state in [*msg.versions, msg.data]:
            shown = _shown_by(state)
            for att in state.get("attachments") or []:
                kind = str(att.get("content_type") or "")
                if not (kind.startswith("image/") or str(att.get("filename", "")).endswith(".png")):
                    continue
                text = att.get("description") or shown.get(att.get("url", "")) or shown.get(att.get("filename", ""))
                described[att["id"]] = described.get(att["id"], False) or bool(str(text or "").strip())
    return len(described), sum(described.values())


async def play(game: str, clicks: int, folder: Path) -> tuple[int, int]:
    async with FakeDiscord() as fd:
        table = Table(fd, folder / f"{game}.db")
        users = [fd.add_user(700 + i, f"player{i}") for i in range(PLAYERS[game])]
        await table.start()
        if len(users) > 1:
            gid, board = await table.open_table(users[0], game, users[1:])
        else:  # a solo game starts at once: no lobby
            board = await table.wait_board(await fd.slash(users[0], "game new", {"game": game}))
            gid = table.sql("SELECT id FROM games ORDER BY id DESC LIMIT 1")[0][0]
        try:
            await table.play_buttons(gid, board, max_steps=clicks)
        except AssertionError as e:
            if "still running" not in str(e):
                raise
        # what the outbox still holds is posted before the count (and before the bot stops)
        for _ in range(600):
            pending = table.sql("SELECT COUNT(*) FROM outbox WHERE game_id=?", gid)[0][0]
            pending += table.sql("SELECT COUNT(*) FROM outbox_messages WHERE game_id=?", gid)[0][0]
            if not pending:
                break
            await table.deliver()
            await asyncio.sleep(0.05)
        found = count_images(fd)
        await fd.stop(table.bot)
        return found


async def images(clicks: int) -> tuple[int, int]:
    total = described = 0
    with tempfile.TemporaryDirectory() as tmp:
        for game in sorted(available()):
            n, d = await play(game, clicks, Path(tmp))
            total, described = total + n, described + d
    return total, described


def cvd_min_delta() -> float:
    least = float("inf")
    for game_id in available():
        game = get_game(game_id)
        most = max(game.max_seats, game.seat_range({"big_rig": True})[1] if game_id == "thunder_road" else 0)
        for n in range(2, most + 1):
            found = closest([c for c, _ in seat_colours(game_id, n)])
            if found is not None:
                least = min(least, found[0])
    return least


def axe_serious() -> int:
    from browserkit import CHROMIUM, DRIVER, chromium
    from sitekit import Site, page_violations

    if not (shutil.which(CHROMIUM) and shutil.which(DRIVER)):
        return -1
    # every table page holds a live stream: past the per-address cap the companion says so once
    # (and refuses more streams, not pages); the line stays the bench's only output
    logging.getLogger("tabletop.web").setLevel(logging.ERROR)
    with tempfile.TemporaryDirectory() as tmp:
        site = Site(Path(tmp) / "access.db")
        found = 0
        try:
            sizes = [(("--window-size=1280,900",), None)]
            sizes.append(((), {"deviceMetrics": {"width": 400, "height": 800, "pixelRatio": 2.0, "touch": True}}))
            for args, mobile in sizes:
                for driver in chromium(*args, mobile=mobile):
                    found += sum(len(v) for v in page_violations(site, driver).values())
        finally:
            site.close()
    return found


def missing_keys() -> int:
    def load(lang: str, ns: str) -> dict[str, str]:
        path = catalog_path(lang, ns)
        return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}

    missing = 0
    for ns in namespaces():
        en = load(DEFAULT, ns)
        for lang in CODES:
            if lang == DEFAULT:
                continue
            theirs = load(lang, ns)
            missing += len(set(en) - set(theirs))
            if ns != "discord":  # English command names are the code's defaults (tests/test_locales.py)
                missing += len(set(theirs) - set(en))
            missing += sum(1 for k in set(en) & set(theirs) if placeholders(en[k]) != placeholders(theirs[k]))
    return missing


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--clicks", type=int, default=25, help="button clicks per scripted game (bounds the run)")
    ap.add_argument("--no-browser", action="store_true", help="skip the companion's pages (axe_serious=-1)")
    args = ap.parse_args()
    n, d = asyncio.run(images(args.clicks))
    axe = -1 if args.no_browser else axe_serious()
    print(
        f"access images={n} described={d} cvd_min_delta={cvd_min_delta():.1f} axe_serious={axe} "
        f"missing_keys={missing_keys()}"
    )


if __name__ == "__main__":
    main()

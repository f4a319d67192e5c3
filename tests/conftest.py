"""Shared fixtures: the project's bot running against the local Discord stand-in,
and the one store factory the store and table-service tests use."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from backends import Backend, pg_database, pg_server, pytest_terminal_summary  # noqa: F401
from fakediscord import FakeDiscord, FakeMessage

from bot import Config, create_bot
from engine import get_game
from engine.i18n import t
from engine.locales import CODES
from store import SqliteStore, Store
from store.postgres import PostgresStore
from tables import due_times

#: every backend the store and table-service tests run against (PostgreSQL skips,
#: with one line at the end of the run, when no server or binaries are available:
#: tests/backends.py)
STORE_BACKENDS = ["sqlite", "postgresql"]


async def make_store(backend: str, tmp_path: Path, clock=None) -> Store:
    """A fresh, open, empty store of ``backend`` (the one place tests create stores), timing
    running tables by the table service's rule (tables/rules/clocks.py ``due_times``);
    ``backend`` is the ``store_backend`` fixture (for PostgreSQL it carries the URL
    of a fresh database)."""
    kw: dict[str, Any] = {"due": due_times} | ({"clock": clock} if clock else {})
    if backend == "sqlite":
        store: Store = SqliteStore(tmp_path / "store.db", **kw)
    elif backend == "postgresql":
        assert isinstance(backend, Backend), "use the store_backend fixture"
        store = PostgresStore(backend.url, **kw)
    else:
        raise ValueError(f"unknown store backend {backend!r}")
    await store.open()
    return store


@pytest.fixture(params=STORE_BACKENDS)
def store_backend(request, tmp_path) -> str:
    if request.param == "sqlite":
        return Backend("sqlite", str(tmp_path / "store.db"))
    return Backend("postgresql", request.getfixturevalue("pg_database"))


@pytest.fixture
def database_url(store_backend) -> str:
    """The ``TG_DATABASE`` value of the ``store`` fixture's database."""
    return store_backend.url


@pytest.fixture
async def store(store_backend, tmp_path):
    s = await make_store(store_backend, tmp_path)
    yield s
    await s.close()


class Clock:
    """Time under the test's control (no sleeping)."""

    def __init__(self, now: float = 1_800_000_000.0):  # 2027-01-15 08:00 UTC
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, minutes: float) -> float:
        self.now += minutes * 60
        return self.now


class Table:
    """Drives the real bot (real discord.py client) through FakeDiscord."""

    def __init__(self, fd: FakeDiscord, db: Path):
        self.fd = fd
        self.db = db
        self.bot = None
        self.clock = Clock()
        #: the flood limit (cogs/kit/flood.py) is off unless a test turns it on: tests click
        #: far faster than a person plays (tests/test_flood.py tests the limit itself)
        self.flood = False

    def make_bot(self):
        config = Config(token="test-token", database=str(self.db), sync="auto", scheduler=False)
        bot = create_bot(config, clock=self.clock, guild_ready_timeout=0.05)
        if not self.flood:
            bot.services.flood = None
        return bot

    async def tick(self):
        return await self.bot.get_cog("Scheduler").tick(self.clock())

    async def play_ai(self, gid: int, steps: int = 10_000, until=None):
        """Play through the bot's real table service (no Discord) with the AI's choices."""
        service = self.bot.services.tables
        for _ in range(steps):
            row = self.row(gid)
            if row["status"] != "active" or (until and until(self)):
                return
            state = self.state(gid)
            game = get_game(row["game"])
            seat = game.to_act(state)[0]
            uid = self.seat_user(gid)[seat]
            await service.act(gid, uid, lambda g, st, s, legal: g.ai_action(st, s))

    async def start(self):
        self.bot = self.make_bot()
        await self.fd.start(self.bot)
        return self.bot

    async def restart(self):
        await self.fd.stop(self.bot)
        return await self.start()

    # ----------------------------------------------------------- database
    def sql(self, query: str, *args: Any) -> list[tuple]:
        con = sqlite3.connect(self.db)
        try:
            return con.execute(query, args).fetchall()
        finally:
            con.close()

    def row(self, gid: int) -> dict:
        cols = ["id", "game", "status", "version", "state_json", "channel_id"]
        r = self.sql(f"SELECT {', '.join(cols)} FROM games WHERE id=?", gid)[0]
        return dict(zip(cols, r))

    def state(self, gid: int):
        r = self.row(gid)
        return get_game(r["game"]).load(r["state_json"])

    async def moved_and_shown(self, gid: int, version: int, timeout: float = 30.0) -> None:
        """Wait until the table has moved past ``version`` and what that change owes its
        channel is delivered (its outbox row is gone): the real condition a test means by
        "the turn is done", where a stretch of quiet is only a guess on busy cores."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while self.row(gid)["version"] == version or self.sql("SELECT 1 FROM outbox WHERE game_id=?", gid):
            if loop.time() > end:
                raise AssertionError(f"table {gid} did not move past version {version} and show it within {timeout}s")
            await asyncio.sleep(0.02)

    def seat_user(self, gid: int) -> dict[str, int | None]:
        return dict(self.sql("SELECT seat, user_id FROM seats WHERE game_id=?", gid))

    # ---------------------------------------------------------- messages
    @staticmethod
    def board_of(messages: list[FakeMessage]) -> FakeMessage | None:
        boards = sorted({m.id: m for m in messages if not m.ephemeral and m.attachments}.values(), key=lambda m: m.id)
        return boards[-1] if boards else None

    @classmethod
    def new_board(cls, ex) -> FakeMessage | None:
        """The board an interaction made: a committed change's board is posted in the
        table's channel (the outbox), a board shown again is its reply."""
        return cls.board_of(ex.followups + ex.messages + ex.posted)

    async def wait_board(self, ex, timeout: float = 30.0) -> FakeMessage:
        return await ex.wait(self.new_board, timeout, "a board message")

    async def deliver(self):
        """One pass of the outbox (cogs/present/outbox.py) at the test's clock."""
        return await self.bot.get_cog("Outbox").tick(self.clock())

    async def next_board(self, ex, gid: int, version: int, timeout: float = 30.0) -> FakeMessage:
        """After a click: the new board, posted as a new message or redrawn in place
        (the next step of the same player's turn)."""

        def found(e):
            board = self.new_board(e)
            if board is not None:
                return board
            v = self.row(gid)["version"]
            orig = e.original
            if (
                v != version
                and e.edits
                and orig is not None
                and orig.attachments
                and any(c.startswith((f"tg:a:{gid}:{v}:", f"tg:s:{gid}:{v}:")) for c in orig.custom_ids)
            ):
                return orig
            return None

        return await ex.wait(found, timeout, "the next board")

    async def wait_ephemeral(self, ex, timeout: float = 20.0) -> FakeMessage:
        def found(e):
            eph = [m for m in e.messages if m.ephemeral and not m.loading and (m.content or m.embeds)]
            return eph[-1] if eph else None

        return await ex.wait(found, timeout, "an ephemeral message")

    def choice_for(self, gid: int, seat: str, idx: int) -> int:
        """The board choice (tables/rules/choices.py) that begins with legal action ``idx``."""
        from tables.rules.choices import choices

        game = get_game(self.row(gid)["game"])
        offered = choices(game, self.state(gid), seat)
        return next((n for n, c in enumerate(offered) if c.chain[0] == idx), 0)

    @staticmethod
    def _current(cid: str, kind: str, gid: int, version: int, panel: bool) -> bool:
        """Whether ``cid`` is a component of kind ``kind`` ("a" or "s") of table ``gid`` drawn
        for ``version``, or (a private panel) carrying its seat's choice token (tables/rules/panels.py)."""
        from tables.rules.panels import is_token

        parts = cid.split(":")
        if len(parts) < 5 or parts[:3] != ["tg", kind, str(gid)] or not parts[3].isdigit():
            return False
        return int(parts[3]) == version or (panel and is_token(int(parts[3])))

    @classmethod
    def live_panel(cls, msg: FakeMessage | None, gid: int, version: int) -> bool:
        """Whether a private panel still offers choices (its components are current)."""
        return msg is not None and any(
            cls._current(c, k, gid, version, True) for c in msg.custom_ids for k in ("a", "s")
        )

    def custom_id_for(self, msg: FakeMessage, gid: int, version: int, idx: int) -> tuple[str, list[str] | None]:
        """The component on ``msg`` that picks choice ``idx`` (button, or a select value)."""
        panel = msg.ephemeral
        for cid in msg.custom_ids:
            if self._current(cid, "a", gid, version, panel) and cid.split(":")[4] == str(idx):
                return cid, None
        for cid in msg.custom_ids:
            if self._current(cid, "s", gid, version, panel):
                comp = msg.component(cid)
                if any(o["value"] == str(idx) for o in comp.get("options", [])):
                    return cid, [str(idx)]
        raise AssertionError(f"no component for choice {idx} (v{version}) on {msg!r}")

    async def choose(self, user, msg: FakeMessage, gid: int, idx: int, version: int | None = None):
        version = self.row(gid)["version"] if version is None else version
        cid, values = self.custom_id_for(msg, gid, version, idx)
        if values is None:
            return await self.fd.click(user, msg, cid)
        return await self.fd.select(user, msg, cid, values)

    def ai_index(self, gid: int, seat: str) -> int:
        state = self.state(gid)
        game = get_game(self.row(gid)["game"])
        legal = game.legal_actions(state, seat)
        return legal.index(game.ai_action(state, seat))

    async def open_table(self, host, game: str, joiners=(), **opts) -> tuple[int, FakeMessage]:
        """/game new, everyone in ``joiners`` clicks Join, the host clicks Start: (table id, first board)."""
        ex = await self.fd.slash(host, "game new", {"game": game, **opts})
        lobby = await ex.wait(
            lambda e: next((m for m in e.messages if not m.ephemeral and m.custom_ids), None), 20, "the lobby"
        )
        gid = self.sql("SELECT id FROM games ORDER BY id DESC LIMIT 1")[0][0]
        for user in joiners:
            await (await self.fd.click(user, lobby, f"tg:l:{gid}:join")).wait_response()
        return gid, await self.wait_board(await self.fd.click(host, lobby, f"tg:l:{gid}:start"))

    async def play_buttons(self, gid: int, board: FakeMessage, max_steps: int = 3000, seen=None) -> FakeMessage:
        """Play a whole game through the real components only: the board's buttons and
        selects, or the private panel (simultaneous / secret turns). Choices are the AI's.
        ``seen(user_id, exchange)`` is called for every interaction (hidden-information audits)."""
        game = get_game(self.row(gid)["game"])
        users = self.seat_user(gid)
        panels: dict[int, FakeMessage] = {}
        for _ in range(max_steps):
            row = self.row(gid)
            if row["status"] != "active":
                return board
            state = self.state(gid)
            seat = next(s for s in game.to_act(state) if users[s] is not None)
            user = self.fd.users[users[seat]]
            idx = self.choice_for(gid, seat, self.ai_index(gid, seat))
            version = row["version"]
            target = board
            panel = [c for c in board.custom_ids if c.startswith(f"tg:p:{gid}:")]
            mine = panels.get(user.id)
            if self.live_panel(mine, gid, version):
                assert mine is not None
                target = mine  # the private panel, edited in place, offers the next step
            elif panel:
                ex = await self.fd.click(user, board, panel[0])
                target = await ex.wait(
                    lambda e: next((m for m in e.messages if m.ephemeral and m.custom_ids), None), 5, "a private panel"
                )
                panels[user.id] = target
                if seen:
                    seen(user.id, ex)
            ex = await self.choose(user, target, gid, idx, version)
            committed = [t("core.ui.committed", code) for code in CODES]  # in the clicking member's language

            def replied(e, target=target, committed=committed, version=version):
                if self.new_board(e) or any(
                    m.ephemeral and (any(c in m.content for c in committed) or m.custom_ids) for m in e.followups
                ):
                    return True
                v = self.row(gid)["version"]
                if v != version and e.edits and target.ephemeral:
                    return True  # the private panel was edited in place (next step, or locked in)
                return (
                    v != version
                    and e.edits
                    and not target.ephemeral
                    and any(
                        c.startswith((f"tg:a:{gid}:{v}:", f"tg:s:{gid}:{v}:", f"tg:p:{gid}:", f"tg:v:{gid}"))
                        for c in target.custom_ids
                    )
                )

            await ex.wait(replied, 30, "the turn's reply")
            if target.ephemeral:
                if self.row(gid)["version"] != version:  # a resolved turn's new board follows the panel's edit
                    await self.moved_and_shown(gid, version)
                await ex.wait_idle(quiet=0.1, timeout=30)
            if seen:
                seen(user.id, ex)
            board = self.new_board(ex) or board
        raise AssertionError(f"table {gid} still running after {max_steps} steps")


@pytest.fixture
async def table(tmp_path):
    async with FakeDiscord(strict=True) as fd:
        t = Table(fd, tmp_path / "bot.db")
        yield t


def dump(obj: Any) -> str:
    return json.dumps(obj, indent=1, ensure_ascii=False)

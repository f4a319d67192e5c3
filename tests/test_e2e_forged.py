"""Forged interactions: whatever a client sends -- an option string (nested
JSON 1,000 deep, 6,000 characters, lone surrogates, catalog keys), an id, an
index, a custom_id, a choice never offered, a page past the end -- the member
gets a clear private message in their language and nothing changes.

The property test sends hypothesis-drawn forged payloads through the Discord
stand-in to the real bot and checks every one: answered privately, no internal
error (no "Something went wrong", nothing logged at ERROR), no catalog key or
placeholder left in the text, Chinese for a Chinese reader, and every stored
row (tables, seats, log, votes, settings, campaigns) identical before and after.
``FORGED_EXAMPLES=2000 pytest tests/test_e2e_forged.py -s`` prints the figures
"forged interactions: N tried / N held / 0 failed".
"""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import os
import re
import sqlite3

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from cogs.kit import ids
from cogs.kit.components import routes_of
from cogs.kit.inputs import parse_chain
from engine import available, get_game
from engine.i18n import t
from engine.locales import CODES
from tables.rules import clocks

INTERNAL = [t("core.ui.internal", lang) for lang in CODES]
CJK = re.compile(r"[\u4e00-\u9fff]")
CATALOG_KEY = re.compile(r"\b(?:core|discord)\.[a-z_]+\.[a-z_.]+")
PLACEHOLDER = re.compile(r"\{[a-z_]+\}")
TEMPLATES = [re.compile(kind.TEMPLATE) for kind in ids.KINDS]  # the one custom_id codec
OPTION_KEYS = {k for g in available() for k in get_game(g).Options.model_fields}
SEATS = {f"p{i}" for i in range(1, 7)}
EXAMPLES = int(os.environ.get("FORGED_EXAMPLES", "100"))
AWAY_DAYS = int(clocks.AWAY_DAYS_PER_YEAR)


# ------------------------------------------------------------ the world
class Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class World:
    """One bot with a running table, a lobby and an abandoned table, shared by
    every example (hypothesis runs them all in this test's event loop)."""

    def __init__(self, table) -> None:
        self.table = table
        self.fd = table.fd
        self.tried = self.held = self.failed = 0

    async def setup(self) -> None:
        fd = self.fd
        self.host = fd.add_user(101, "host")
        self.bob = fd.add_user(102, "bob", locale="zh-CN")
        self.admin = fd.add_user(103, "admin", manage_guild=True, locale="zh-CN")
        await self.table.start()
        self.lobby_channel = fd.add_channel("lobby")
        self.done_channel = fd.add_channel("done")
        self.gid, self.board = await self.table.open_table(self.host, "thunder_road", [self.bob])
        ex = await fd.slash(self.host, "game new", {"game": "automobile"}, channel=self.lobby_channel)
        await ex.wait(lambda e: any(m.custom_ids for m in e.messages if not m.ephemeral), 20, "the lobby")
        self.lobby = self.table.sql("SELECT id FROM games ORDER BY id DESC LIMIT 1")[0][0]
        ex = await fd.slash(self.bob, "game new", {"game": "city_of_fury"}, channel=self.done_channel)
        await self.table.wait_board(ex)
        self.done = self.table.sql("SELECT id FROM games ORDER BY id DESC LIMIT 1")[0][0]
        await (await fd.slash(self.bob, "game abandon", channel=self.done_channel)).wait_idle(quiet=0.2)
        for _ in range(200):  # every board and notice of the set-up confirmed (the outbox is empty)
            if self.table.sql("SELECT COUNT(*) FROM outbox") == [(0,)]:
                break
            await asyncio.sleep(0.05)
        assert self.table.sql("SELECT COUNT(*) FROM outbox") == [(0,)]
        assert self.table.row(self.done)["status"] == "abandoned"
        assert self.table.row(self.gid)["status"] == "active" and self.table.row(self.lobby)["status"] == "lobby"

    def snapshot(self) -> dict[str, list[tuple]]:
        con = sqlite3.connect(self.table.db)
        try:
            names = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]
            out = {n: con.execute(f'SELECT * FROM "{n}" ORDER BY rowid').fetchall() for n in names}
            # every interaction may note the member's language (tables/people/members.py): not a change of any table
            kept = [
                (uid, {k: v for k, v in json.loads(prefs).items() if k != "locale"})
                for uid, prefs in out.get("user_prefs", [])
            ]
            out["user_prefs"] = [(uid, json.dumps(p, sort_keys=True)) for uid, p in kept if p]
            return out
        finally:
            con.close()

    def legal(self, user) -> int | None:
        """How many moves ``user`` has at the running table now (None: not to act)."""
        state = self.table.state(self.gid)
        game = get_game("thunder_road")
        seat = {u: s for s, u in self.table.seat_user(self.gid).items()}.get(user.id)
        if seat is None or seat not in game.to_act(state):
            return None
        return len(game.legal_actions(state, seat))


@pytest.fixture
async def world(table):
    w = World(table)
    await w.setup()
    errors = Errors()
    logging.getLogger().addHandler(errors)
    w.errors = errors
    yield w
    logging.getLogger().removeHandler(errors)
    print(f"\nforged interactions: {w.tried} tried / {w.held} held / {w.failed} failed")


# ------------------------------------------------------------ strategies
NASTY = st.one_of(
    st.text(max_size=40),
    st.text(st.characters(codec="utf-16", exclude_categories=()), max_size=20),  # lone surrogates too
    st.sampled_from(
        [
            "../../..",
            "../../../etc/passwd",
            "thunder_road/../city_of_fury",
            "@core.ui.internal",
            "@discord.forged.game",
            "{id} {game} %s %(x)s",
            "\x00\x01\x7f",
            "\ud800",
            "1e400",
            "NaN",
            "-Infinity",
            "<@&1> @everyone",
            "x" * 6000,
            "[" * 1000 + "]" * 1000,
            '{"a":' * 1000 + "1" + "}" * 1000,
        ]
    ),
)
NOT_A_GAME = NASTY.filter(lambda s: s not in available())
INTS = st.one_of(st.integers(-(2**70), 2**70), st.sampled_from([0, -1, 2**63, 2**63 - 1, 2**64, 10**30]))
DEPTH = st.integers(5, 1000)


def _bad_value_options() -> st.SearchStrategy[str]:
    """A real key with a value it never takes."""
    pairs = []
    for gid in available():
        for key, f in get_game(gid).Options.model_fields.items():
            if f.annotation is bool:
                pairs.append(st.sampled_from([f"{key}=maybe", f"{key}=2", f"{key}=[true]"]))
            elif "Literal" in str(f.annotation):
                allowed = set(map(str, getattr(f.annotation, "__args__", ())))
                pairs.append(
                    st.text("abcxyz_", min_size=1, max_size=8)
                    .filter(lambda v, allowed=allowed: v not in allowed)
                    .map(lambda v, key=key: f"{key}={v}")
                )
    return st.one_of(pairs)


BAD_OPTIONS = st.one_of(
    DEPTH.map(lambda d: "hero=" + "[" * d + "]" * d),
    DEPTH.map(lambda d: "big_rig=" + '{"a":' * d + "1" + "}" * d),
    st.text("abcdefghij_", min_size=1, max_size=12).filter(lambda k: k not in OPTION_KEYS).map(lambda k: f"{k}=1"),
    st.text(st.characters(exclude_characters="=, \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0"), min_size=1, max_size=30)
    .filter(lambda s: s.strip() and "=" not in s and not any(c.isspace() for c in s))
    .map(lambda s: s),
    st.just("a=" + "x" * 1001),
    st.just(" ".join(f"k{i}=1" for i in range(25))),
    st.just("=1"),
    _bad_value_options(),
)
BAD_POINTS = st.one_of(
    st.text(min_size=1, max_size=30).filter(lambda s: any(c.isalpha() for c in s)),
    st.sampled_from(["-1", "1001", ",".join(["1"] * 11), "9" * 5000, "1e3", ","]),
)


def _outside(lo: int, hi: int) -> st.SearchStrategy[int]:
    return st.one_of(
        st.integers(max_value=lo - 1),
        st.integers(min_value=hi + 1),
        st.sampled_from([-(2**63), 2**63, 2**64, 10**30, -1, 0]).filter(lambda n: not lo <= n <= hi),
    )


COMMANDS = st.one_of(
    st.tuples(st.just("game new"), st.just("host"), st.fixed_dictionaries({"game": NOT_A_GAME})),
    st.tuples(
        st.just("game new"),
        st.sampled_from(["host", "bob"]),
        st.fixed_dictionaries({"game": st.sampled_from(available()), "options": BAD_OPTIONS}),
    ),
    st.tuples(
        st.just("game new"),
        st.just("bob"),
        st.fixed_dictionaries({"game": st.just("thunder_road"), "ai": _outside(0, 3)}),
    ),
    st.tuples(
        st.just("game new"),
        st.just("host"),
        st.fixed_dictionaries({"game": st.just("city_of_fury"), "timer": _outside(0, 10080)}),
    ),
    st.tuples(st.just("play"), st.sampled_from(["host", "bob"]), st.fixed_dictionaries({"action": NASTY})),
    st.tuples(
        st.just("play"),
        st.sampled_from(["host", "bob"]),
        st.builds(
            lambda a, b, c: {"action": f"{a}:{b}:{c}"},
            INTS.map(abs),
            INTS.map(abs),
            st.lists(INTS.map(abs), max_size=4).map(lambda xs: ".".join(map(str, xs))),
        ),
    ),
    st.tuples(st.just("play:chain"), st.sampled_from(["host", "bob"]), st.integers(0, 10**12)),
    st.tuples(st.just("rules"), st.sampled_from(["host", "bob"]), st.fixed_dictionaries({"game": NOT_A_GAME})),
    st.tuples(
        st.just("rules"),
        st.sampled_from(["host", "bob"]),
        st.fixed_dictionaries({"game": st.sampled_from(available()), "topic": NASTY}),
    ),
    st.tuples(st.just("game log"), st.sampled_from(["host", "bob"]), st.fixed_dictionaries({"page": _outside(1, 1)})),
    st.tuples(st.just("game export"), st.sampled_from(["host", "bob"]), st.fixed_dictionaries({"table": INTS})),
    st.tuples(
        st.just("game replay"),
        st.sampled_from(["host", "bob"]),
        st.fixed_dictionaries({"table": INTS}, optional={"turn": INTS}),
    ),
    st.tuples(
        st.just("game handover"),
        st.sampled_from(["host", "bob"]),
        st.fixed_dictionaries({"seat": NASTY.filter(lambda s: s not in SEATS)}),
    ),
    st.tuples(st.just("leaderboard"), st.sampled_from(["host", "bob"]), st.fixed_dictionaries({"game": NOT_A_GAME})),
    st.tuples(
        st.just("campaign new"),
        st.sampled_from(["host", "bob"]),
        st.fixed_dictionaries({"game": NOT_A_GAME, "name": st.text(min_size=1, max_size=20)}),
    ),
    st.tuples(
        st.just("campaign new"),
        st.sampled_from(["host", "bob"]),
        st.fixed_dictionaries({"game": st.sampled_from(available()), "name": st.just("Spring"), "points": BAD_POINTS}),
    ),
    st.tuples(st.just("campaign standings"), st.sampled_from(["host", "bob"]), st.fixed_dictionaries({"name": NASTY})),
    st.tuples(
        st.just("settings language"),
        st.just("admin"),
        st.fixed_dictionaries({"language": NASTY.filter(lambda s: s not in ("en", "zh", "user"))}),
    ),
    st.tuples(
        st.just("settings threads"),
        st.just("admin"),
        st.fixed_dictionaries({"game": NOT_A_GAME, "enabled": st.booleans()}),
    ),
    st.tuples(st.just("settings options"), st.just("admin"), st.fixed_dictionaries({"game": NOT_A_GAME})),
    st.tuples(
        st.just("settings options"),
        st.just("admin"),
        st.fixed_dictionaries({"game": st.sampled_from(available()), "options": BAD_OPTIONS}),
    ),
    st.tuples(
        st.just("settings timers"),
        st.just("admin"),
        st.one_of(
            st.fixed_dictionaries({"reminder": _outside(0, 10080), "turn_timer": st.integers(0, 10080)}),
            st.fixed_dictionaries({"reminder": st.integers(0, 10080), "turn_timer": _outside(0, 10080)}),
        ),
    ),
    st.tuples(
        st.just("remind away"),
        st.sampled_from(["host", "bob"]),
        st.fixed_dictionaries({"days": _outside(1, AWAY_DAYS)}),
    ),
    st.tuples(
        st.just("settings clock"),
        st.just("admin"),
        st.one_of(
            st.fixed_dictionaries({"profile": NASTY.filter(lambda s: s not in clocks.PROFILES)}),
            st.fixed_dictionaries(
                {
                    "profile": st.sampled_from(sorted(clocks.PROFILES)),
                    "policy": NASTY.filter(lambda s: s not in clocks.POLICIES),
                }
            ),
        ),
    ),
    st.tuples(
        st.just("game follow"),
        st.sampled_from(["host", "bob"]),
        st.fixed_dictionaries({"mode": NASTY.filter(lambda s: s not in ("turn", "digest"))}),
    ),
    st.tuples(
        st.just("remind quiet"),
        st.sampled_from(["host", "bob"]),
        st.fixed_dictionaries({"start": _outside(0, 23), "end": st.integers(0, 23)}),
    ),
)

TARGETS = st.sampled_from(["table", "lobby", "done", "missing", "zero", "huge"])
COMPONENTS = st.one_of(
    st.tuples(st.just("action"), st.sampled_from(["host", "bob"]), st.tuples(TARGETS, INTS, INTS)),
    st.tuples(
        st.just("select"),
        st.sampled_from(["host", "bob"]),
        st.tuples(TARGETS, INTS, st.lists(NASTY, min_size=1, max_size=3)),
    ),
    st.tuples(
        st.just("lobby"),
        st.sampled_from(["host", "bob"]),
        st.tuples(TARGETS, st.sampled_from(["join", "leave", "ai", "start", "cancel"])),
    ),
    st.tuples(st.just("panel"), st.sampled_from(["host", "bob"]), st.tuples(TARGETS, INTS)),
    st.tuples(st.just("view"), st.sampled_from(["host", "bob"]), TARGETS),
    st.tuples(
        st.just("vote"), st.sampled_from(["host", "bob"]), st.tuples(INTS.map(abs), st.sampled_from(["yes", "no"]))
    ),
    st.tuples(
        st.just("custom"),
        st.sampled_from(["host", "bob"]),
        st.text(max_size=100).filter(lambda c: c and not any(p.fullmatch(c) for p in TEMPLATES)),
    ),
    st.tuples(st.just("absent"), st.sampled_from(["host", "bob"]), st.sampled_from(["action", "panel", "vote"])),
    st.tuples(
        st.just("orders"),
        st.sampled_from(["host", "bob"]),
        st.tuples(TARGETS, st.sampled_from(["open", "arm", "off"]), st.lists(NASTY, min_size=1, max_size=3)),
    ),
)


WHO = st.sampled_from(["host", "bob"])
AUTOCOMPLETE = st.one_of(
    st.tuples(st.just("play"), WHO, st.fixed_dictionaries({"action": NASTY}), st.just("action")),
    st.tuples(
        st.just("play"),
        WHO,
        st.lists(INTS.map(abs), min_size=1, max_size=5).map(
            lambda xs: {"action": ":".join(["1", "@v"]) + ":" + ".".join(map(str, xs))}
        ),
        st.just("action"),
    ),
    st.tuples(
        st.just("rules"),
        WHO,
        st.fixed_dictionaries({"game": st.one_of(NOT_A_GAME, st.sampled_from(available())), "topic": NASTY}),
        st.just("topic"),
    ),
    st.tuples(
        st.just("game new"),
        WHO,
        st.fixed_dictionaries({"game": st.one_of(NOT_A_GAME, st.sampled_from(available())), "campaign": NASTY}),
        st.just("campaign"),
    ),
    st.tuples(st.just("campaign standings"), WHO, st.fixed_dictionaries({"name": NASTY}), st.just("name")),
)


# ------------------------------------------------------------ sending
def _target(world: World, which: str) -> int:
    return {
        "table": world.gid,
        "lobby": world.lobby,
        "done": world.done,
        "missing": 10**6,
        "zero": 0,
        "huge": 10**30,
    }[which]


def _message_with(world: World, component: dict) -> dict:
    """The running table's board as a client could forge it: carrying ``component``."""
    snap = copy.deepcopy(world.board.data)
    snap["components"] = [{"type": 1, "components": [component]}]
    return snap


def _button(cid: str) -> dict:
    return {"type": 2, "style": 1, "label": "x", "custom_id": cid}


async def _forge_component(world: World, kind: str, user, arg):
    fd, version = world.fd, world.table.row(world.gid)["version"]
    if kind == "action":
        which, ver, idx = arg
        gid = _target(world, which)
        ver = abs(ver)
        idx = abs(idx)
        moves = world.legal(user)
        if gid == world.gid and ver == version and moves is not None and idx < moves:
            idx += moves  # the one real choice is not forged: move it past the end
        cid = f"tg:a:{gid}:{ver}:{idx}"
        return await fd.click(user, _message_with(world, _button(cid)), cid, force=True)
    if kind == "select":
        which, ver, values = arg
        gid, ver = _target(world, which), abs(ver)
        moves = world.legal(user)
        try:
            first = int(values[0])
        except ValueError:
            first = -1
        if gid == world.gid and ver == version and moves is not None and 0 <= first < moves:
            values = [f"x{values[0]}"] + values[1:]
        cid = f"tg:s:{gid}:{ver}:0"
        select = {"type": 3, "custom_id": cid, "options": [{"label": "x", "value": "0"}], "max_values": 3}
        return await fd.select(user, _message_with(world, select), cid, values, force=True)
    if kind == "lobby":
        which, op = arg
        gid = _target(world, which)
        if gid == world.lobby and (user is world.bob and op == "join" or user is world.host and op != "join"):
            gid = world.done  # a lobby op that would really change the lobby is not forged
        cid = f"tg:l:{gid}:{op}"
        return await fd.click(user, _message_with(world, _button(cid)), cid, force=True)
    if kind == "panel":
        which, ver = arg
        cid = f"tg:p:{_target(world, which)}:{abs(ver)}"
        return await fd.click(user, _message_with(world, _button(cid)), cid, force=True)
    if kind == "view":
        cid = f"tg:v:{_target(world, arg)}"
        return await fd.click(user, _message_with(world, _button(cid)), cid, force=True)
    if kind == "vote":
        vid, answer = arg
        cid = f"tg:vote:{vid}:{answer}"
        return await fd.click(user, _message_with(world, _button(cid)), cid, force=True)
    if kind == "orders":  # standing orders (cogs/game/orders.py): the button, or a select's forged values
        which, op, values = arg
        gid = _target(world, which)
        if op == "open":
            cid = f"tg:o:{gid}"
            return await fd.click(user, _message_with(world, _button(cid)), cid, force=True)
        cid = f"tg:o{'a' if op == 'arm' else 'd'}:{gid}"
        select = {"type": 3, "custom_id": cid, "options": [{"label": "x", "value": "0"}], "max_values": 3}
        return await fd.select(user, _message_with(world, select), cid, values, force=True)
    if kind == "custom":
        return await fd.click(user, _message_with(world, _button(arg)), arg, force=True)
    # a real custom_id that is not on the clicked message
    cid = {"action": f"tg:a:{world.gid}:{version}:0", "panel": f"tg:p:{world.gid}:{version}", "vote": "tg:vote:1:yes"}[
        arg
    ]
    return await fd.click(user, _message_with(world, _button("tg:v:999")), cid, force=True)


async def _forge_command(world: World, name: str, user, options):
    channel = None
    if name == "play":  # a drawn value that happens to be a real move now is not forged: make it stale
        parsed = parse_chain(options["action"])
        version, moves = world.table.row(world.gid)["version"], world.legal(user)
        if parsed and parsed[:2] == (world.gid, version) and moves is not None and parsed[2] and parsed[2][0] < moves:
            options = {"action": f"{world.gid}:{version + 1}:{'.'.join(map(str, parsed[2]))}"}
    if name == "play:chain":  # a chain at the running table, stale or past the end
        version, moves = world.table.row(world.gid)["version"], world.legal(user) or 0
        ver = version - 1 - options % 3 if options % 2 else version
        options = {"action": f"{world.gid}:{max(0, ver)}:{moves + options}"}
        name = "play"
    return await world.fd.slash(user, name, options, unchecked=True, channel=channel)


def _text(m) -> str:
    parts = [m.content or ""]
    for e in m.embeds:
        parts += [e.get("title") or "", e.get("description") or ""]
        parts += [f.get("name", "") + " " + f.get("value", "") for f in e.get("fields", [])]
    return "\n".join(parts)


def _outside_backticks(text: str) -> str:
    return re.sub(r"`[^`]*`", "", text)


async def _check(world: World, ex, user, what: str) -> list[str]:
    """Problems with the answer to one forged interaction (empty: it held)."""
    problems = []
    try:
        reply = await world.table.wait_ephemeral(ex, 15)
    except AssertionError:
        return [f"{what}: no private answer\n{ex.describe()}"]
    await ex.wait_idle(quiet=0.05, timeout=10)
    for m in ex.messages:
        text = _text(m)
        if not m.ephemeral and not m.loading:
            problems.append(f"{what}: a public message {text[:120]!r}")
        if any(i in text for i in INTERNAL):
            problems.append(f"{what}: internal error {text[:200]!r}")
        bare = _outside_backticks(text)
        if CATALOG_KEY.search(bare) or PLACEHOLDER.search(bare):
            problems.append(f"{what}: unfilled message {text[:200]!r}")
    if ex.edits:
        problems.append(f"{what}: edited a message {ex.edits[:1]!r}")
    if user.locale.startswith("zh") and not CJK.search(_text(reply)):
        problems.append(f"{what}: not in the reader's language {_text(reply)[:200]!r}")
    return problems


async def _forge_autocomplete(world: World, name: str, user, options: dict, focused: str) -> list[str]:
    """Typing a forged value: answered with at most 25 valid choices, nothing logged."""
    fd = world.fd
    if options.get("action", "").startswith("1:@v:"):  # a chain at the running table, at its version
        options = {
            "action": options["action"].replace("1:@v:", f"{world.gid}:{world.table.row(world.gid)['version']}:")
        }
    data = fd._command_data(name, options, unchecked=True, focused=focused, user=user)
    ex = await fd._send_interaction("autocomplete", user, fd.interaction_payload(type=4, user=user, data=data))
    try:
        cb = await ex.wait_ack(10)
    except AssertionError:
        return [f"autocomplete {name}: no answer\n{ex.describe()}"]
    choices = cb.data.get("choices", []) if cb.type == 8 else None
    if choices is None:
        return [f"autocomplete {name}: answered with callback type {cb.type}"]
    if len(choices) > 25 or any(len(c["name"]) > 100 or len(str(c["value"])) > 100 for c in choices):
        return [f"autocomplete {name}: choices Discord refuses {choices[:3]!r}"]
    return []


FAMILIES = {"command": COMMANDS, "component": COMPONENTS, "autocomplete": AUTOCOMPLETE}


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(forgery=st.sampled_from(sorted(FAMILIES)).flatmap(lambda f: FAMILIES[f].map(lambda c, f=f: (f, c))))
async def test_forged_interactions_are_refused_privately_and_change_nothing(world, forgery):
    family, (kind, who, arg, *focused) = forgery
    user = {"host": world.host, "bob": world.bob, "admin": world.admin}[who]
    event(f"{family} {kind}")
    before = world.snapshot()
    errors_before, bot_errors_before = len(world.errors.records), len(world.fd.bot_errors)
    world.tried += 1
    what = f"{family} {kind} by {who}: {json.dumps(arg, default=str)[:300]}"
    if family == "autocomplete":
        problems = await _forge_autocomplete(world, kind, user, arg, focused[0])
    else:
        if family == "command":
            ex = await _forge_command(world, kind, user, arg)
        else:
            ex = await _forge_component(world, kind, user, arg)
        problems = await _check(world, ex, user, what)
    if world.snapshot() != before:
        problems.append(f"{what}: stored rows changed")
    logged = [
        r
        for r in world.errors.records[errors_before:] + world.fd.bot_errors[bot_errors_before:]
        if not r.getMessage().startswith("Can't keep up")  # the gateway's note on a loaded machine, not an error
    ]
    if logged:
        problems.append(f"{what}: logged {[r.getMessage()[:200] for r in logged]}")
    if problems:
        world.failed += 1
    else:
        world.held += 1
    assert not problems, "\n".join(problems)


# ------------------------------------------------------ the cases
async def _private(table, ex) -> str:
    msg = await table.wait_ephemeral(ex)
    assert msg.ephemeral
    return msg.content


async def test_the_reported_forgeries_get_clear_private_answers(table):
    host = table.fd.add_user(101, "host")
    bob = table.fd.add_user(102, "bob", locale="zh-CN")
    await table.start()
    fd = table.fd
    stale = t("core.ui.stale", "en")

    # /play with no table: not "this button is out of date"
    text = await _private(table, await fd.slash(host, "play", {"action": "1:2:0"}, unchecked=True))
    assert text == t("discord.forged.play_no_table", "en") and stale not in text

    # nested JSON 1,000 deep in /game new options: refused with the valid keys and values
    deep = "hero=" + "[" * 1000 + "]" * 1000
    text = await _private(table, await fd.slash(host, "game new", {"game": "city_of_fury", "options": deep}))
    assert "`hero` = `vigilante` | `brawler`" in text and "Something went wrong" not in text
    deep = "hero=" + "[" * 400 + "]" * 400  # short enough to pass the length bound: the depth bound
    text = await _private(table, await fd.slash(host, "game new", {"game": "city_of_fury", "options": deep}))
    assert "nested too deeply" in text and "`hero` = `vigilante` | `brawler`" in text

    # an unknown option, in the reader's language, with the keys and values
    text = await _private(table, await fd.slash(bob, "game new", {"game": "thunder_road", "options": "turbo=1"}))
    assert "没有选项" in text and "`turbo`" in text
    assert "`big_rig` = `true` | `false`" in text and "`start_face` = `a` | `b` | `random`" in text

    # /rules with a value that is no registered game: refused, no file read
    text = await _private(table, await fd.slash(host, "rules", {"game": "../../.."}, unchecked=True))
    assert text.startswith("There is no game called `../../..`") and "thunder_road" in text
    assert table.sql("SELECT COUNT(*) FROM games")[0][0] == 0

    # /game log page 50 on a 3-page log
    gid, _ = await table.open_table(host, "thunder_road", [bob])
    await table.play_ai(gid, steps=33)
    total = table.sql("SELECT COUNT(*) FROM actions WHERE game_id=?", gid)[0][0]
    pages = -(-total // 15)
    assert pages == 3, total
    text = await _private(table, await fd.slash(host, "game log", {"page": 50}, unchecked=True))
    assert text == t("discord.forged.page", "en", pages=3)
    text = await _private(table, await fd.slash(host, "game log", {"page": 3}))
    assert "log page 3/3" in text

    # a /play value for this table but an index never offered, and a stale one
    version = table.row(gid)["version"]
    seat = get_game("thunder_road").to_act(table.state(gid))[0]
    player = fd.users[table.seat_user(gid)[seat]]
    text = await _private(table, await fd.slash(player, "play", {"action": f"{gid}:{version}:999"}))
    assert text == t("discord.forged.not_offered", player.locale)
    text = await _private(table, await fd.slash(player, "play", {"action": f"{gid}:{version - 1}:0"}))
    assert text == t("discord.forged.play_stale", player.locale)
    assert table.row(gid)["version"] == version
    assert not fd.violations


# ------------------------------------------------------------ the parsers alone
def test_option_parsing_is_bounded_and_never_recurses():
    from cogs.kit.inputs import MAX_DEPTH, parse_options
    from cogs.kit.options_text import options_help
    from engine import GameError

    assert parse_options('hero=brawler vehicles=["kv2","t34_85"] big_rig=true') == {
        "hero": "brawler",
        "vehicles": ["kv2", "t34_85"],
        "big_rig": True,
    }
    assert parse_options('name="[[[[[[[["') == {"name": "[[[[[[[["}, "brackets inside a JSON string are text"
    assert parse_options('name="a\\" b, c" x=1,y=2') == {"name": 'a" b, c', "x": 1, "y": 2}
    assert parse_options("x=" + "[" * MAX_DEPTH + "]" * MAX_DEPTH) == {"x": [[[[]]]]}
    for text, key in [
        ("x=" + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "discord.options.too_deep"),
        ("x=" + "[" * 900, "discord.options.too_deep"),
        ("a=" + "x" * 1000, "discord.options.too_long"),
        ("hero", "discord.options.syntax"),
        ("=3", "discord.options.syntax"),
        (" ".join(f"k{i}=1" for i in range(21)), "discord.options.too_many"),
    ]:
        with pytest.raises(GameError) as err:
            parse_options(text)
        assert err.value.key == key, text[:40]
        for lang in CODES:
            assert not PLACEHOLDER.search(_outside_backticks(err.value.message(lang)))
    assert "`hero` = `vigilante` | `brawler`" in options_help(get_game("city_of_fury"), "en")
    assert "`boss_speed_pct` = `150`…`200`" in options_help(get_game("armor_clash"), "en")


def test_chain_values_are_bounded():
    from cogs.kit.inputs import MAX_CHAIN, MAX_ID, parse_chain

    assert parse_chain("3:7:0.2.1 dice") == (3, 7, [0, 2, 1], "dice")
    assert parse_chain(f"{MAX_ID + 1}:1:0") is None, "no row can have that id"
    assert parse_chain("1:1:" + ".".join(["0"] * (MAX_CHAIN + 1))) is None
    assert parse_chain("1:1:10000000") is None
    assert parse_chain("9" * 5000 + ":1:0") is None
    assert parse_chain("1:2:") == (1, 2, [], "")


def test_quoted_values_cannot_pose_as_catalog_keys_or_break_messages():
    from cogs.kit.inputs import echo

    assert echo("@core.ui.internal") == "`@core.ui.internal`"
    assert t("discord.forged.game", "en", value=echo("@core.ui.internal"), games="x").startswith(
        "There is no game called `@core.ui.internal`"
    )
    assert echo("\ud800x") == "`?x`"
    assert echo("a`b\nc") == "`a'b c`"
    assert len(echo("x" * 500)) <= 62


async def test_a_click_on_an_ordinary_view_of_the_bot_is_left_to_that_view(table):
    """The answer to components that are none of ours never answers a component
    some live discord.ui.View of this process handles (no double response)."""
    import discord

    user = table.fd.add_user(101, "host")
    bot = await table.start()
    view = discord.ui.View(timeout=60)
    button = discord.ui.Button(label="x", custom_id="plain:1")

    async def answer(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("plain ok", ephemeral=True)

    button.callback = answer
    view.add_item(button)
    # an ordinary (non-dynamic) view the bot sends is kept in its click routes (public API
    # only: discord.py lists no live views); today every component the bot sends is a DynamicItem
    routes_of(bot).views.add(view)
    sent = await bot.get_channel(table.fd.channel_id).send("a view", view=view)
    ex = await table.fd.click(user, sent.id, "plain:1")
    assert (await table.wait_ephemeral(ex)).content == "plain ok"
    await ex.wait_idle(quiet=0.2)
    assert [m.content for m in ex.messages] == ["plain ok"] and not ex.errors
    ex = await table.fd.click(user, sent.id, "plain:1", force=True)  # the same message, still fine
    assert (await table.wait_ephemeral(ex)).content == "plain ok"
    # while a custom_id nobody handles on that same message is answered privately
    snap = copy.deepcopy(table.fd.message(sent.id).data)
    snap["components"] = [{"type": 1, "components": [_button("plain:2")]}]
    ex = await table.fd.click(user, snap, "plain:2", force=True)
    assert (await table.wait_ephemeral(ex)).content == t("discord.forged.component", "en")

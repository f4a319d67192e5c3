"""A local stand-in for Discord that a real discord.py 2.x client can log into.

FakeDiscord serves the REST API (``/api/v10/...``) and the gateway websocket on
127.0.0.1 (random port), plays one guild with channels, members and roles, lets a
test act as users (slash commands, autocomplete, button clicks, selects, modals),
records everything the bot sends, and checks every request body against
Discord's OpenAPI description (``../shared/discord-api-spec/openapi.json``
relative to the repository root; validation is skipped with a clear message in
``fd.spec_status`` when that file is absent).

Example::

    from fakediscord import FakeDiscord

    async def test_new_game(tmp_path):
        async with FakeDiscord(strict=True) as fd:     # strict: spec violations fail the test
            alice = fd.add_user(1001, "alice", locale="zh-CN")
            boss = fd.add_user(1002, "boss", manage_guild=True)
            bot = make_bot()                            # your commands.Bot / discord.Client
            await fd.start(bot, sync=True)              # sync=True: bot.tree.sync() once ready

            ex = await fd.slash(alice, "game new", {"game": "city_of_fury"})
            await ex.wait_ack()                         # initial callback (type 4/5/6/7/8/9)
            assert ex.ack_seconds < 3 and ex.callback.type == 5
            msg = await ex.wait_response()              # first real message (original or followup)
            assert msg.embeds and msg.png().startswith(b"\x89PNG")

            click = await fd.click(alice, msg, "game:1:join")   # MESSAGE_COMPONENT
            await click.wait_ack()
            err = await (await fd.click(boss, msg, "game:1:start")).wait_response()
            assert err.ephemeral

            await fd.stop(bot)                          # clean shutdown; start a new bot to
            bot2 = make_bot(); await fd.start(bot2)     # test persistence (old buttons still work)

Import it as ``from fakediscord import ...`` (pytest puts ``tests/`` on ``sys.path``); it
imports nothing from the project. A ready-made strict fixture: ``from fakediscord import
fake_discord`` in a ``conftest.py``.

Driving API. Waits take ``timeout`` and raise ``FakeTimeout`` (an AssertionError) that
lists what *was* received: the interaction's log, the last requests, unserved requests,
spec violations and errors the bot logged (e.g. the traceback text of a failing command).

* ``FakeDiscord(strict=False, ack_deadline=3.0, locale="en-US", validate=True,
  spec_file=None, fail_on_bot_errors=False)``. ``strict=True`` makes the ``async with`` exit fail on spec
  violations, on requests FakeDiscord does not serve and on FakeDiscord's own errors;
  ``fail_on_bot_errors=True`` also on ERROR records the bot logged (exceptions in commands).
  Attributes: ``guild_id``, ``channel_id`` (default text channel "general"), ``bot_user_id``
  = ``application_id``, ``owner`` (a user with Manage Server), ``guild_locale`` (settable),
  ``bot_permissions`` (settable int or ``discord.Permissions``: the interactions'
  ``app_permissions`` and what REST allows; sending without Send Messages, files without
  Attach Files or a thread without Create Threads get 403 Missing Permissions (50013)),
  ``base_url``, ``spec_status`` (what is validated, or why validation is skipped).
* ``fd.add_user(id, name, locale="en-US", manage_guild=False, bot=False) -> FakeUser``
  (``manage_guild`` gives a "Managers" role with that permission, visible in
  ``interaction.permissions`` and ``member.guild_permissions``);
  ``fd.add_channel(name, type=0, parent_id=None) -> id``; ``fd.add_forum(name, tags=("Waiting", ...))
  -> id`` (a forum channel, type 15, with those tags: a post is a thread whose first message
  is the post's; ``applied_tags`` are kept and editable). ``fd.roles`` lists roles the bot
  created (``POST /guilds/{id}/roles``, needs Manage Roles), ``fd.member_roles(user)`` what
  it gave a member (``PUT .../members/{uid}/roles/{rid}``). Anywhere a user is expected, a
  ``FakeUser`` or its id will do.
* ``await fd.start(bot, sync=False, timeout=10)`` runs ``bot.start()`` in a task until the
  bot is ready (it lowers ``guild_ready_timeout`` to 0.02 s if it was larger);
  ``sync=True`` then calls ``bot.tree.sync()``. ``await fd.stop(bot)`` closes it and waits
  for ``start()`` to return. Start another bot on the same ``fd`` to test a restart: synced
  commands and sent messages persist, like on Discord. Bots still running at exit are
  stopped for you.
* ``await fd.slash(user, "game new", {"game": "x"}, locale=None, channel=None,
  unchecked=False, origin=None, install=None) -> Exchange`` (``install``: "guild" or "user", who installed
  the command, checked against its synced integration_types and contexts; ``origin``: ``"dm"`` or another guild's id, a
  forged or misrouted command; ``click``/``select`` take ``origin`` and ``channel`` too). The command is looked up in what the bot *synced* (guild
  commands of ``fd.guild_id`` first, then global); names may be given in any synced
  localisation ("游戏 new"). Discord's own checks raise before anything is sent: unknown or
  missing options, wrong types, choices, min/max value and length (``ValueError``), and
  ``default_member_permissions`` the user lacks (``PermissionError``); ``unchecked=True``
  skips them, to test the bot's own validation (discord.py does not enforce ``Range``).
  Option values: str/int/float/bool, a ``FakeUser``/user id, a role id, a channel id,
  or ``(filename, bytes)`` for attachment options (served at a URL, so ``read()`` works).
* ``await fd.autocomplete(user, "rules", {"game": "ci"}, focused="game") -> [choices]``.
* ``await fd.click(user, message, custom_id)`` and ``await fd.select(user, message,
  custom_id, ["value", ...]) -> Exchange``. ``message`` is a ``FakeMessage``, its id, or an
  earlier state ``message.versions[i]`` (a client that had not refreshed). The component must
  be on that message and enabled, select values among the options and within min/max,
  unless ``force=True``. Old messages keep their components unless the bot edited them, so
  a click on a stale board is a click on the older ``FakeMessage``. (A forced click on a
  custom_id that is not on the message gets no answer from discord.py: its DynamicItem
  dispatch rebuilds the item from the message's components and drops unknown ones.)
  ``asyncio.gather(fd.click(...), fd.click(...))`` gives two clicks at once.
* ``await fd.submit_modal(user, exchange, {"field_custom_id": "text"}) -> Exchange`` answers
  the modal that ``exchange`` opened (callback type 9).
* ``fd.messages(channel_id=None, ephemeral=False)``: non-deleted messages of a channel
  (default channel if omitted; a thread id works), oldest first, ephemeral ones only if
  asked; ``await fd.wait_message(channel_id, predicate, after=None)``; ``fd.message(id)``;
  ``fd.attachment(attachment object, id or URL) -> bytes``; ``fd.dm_channel(user)`` (the DM
  channel the bot opened with ``user.send``, or None);
  ``fd.all_messages``; ``fd.threads`` (thread payloads the bot created) and
  ``fd.thread_members``; ``fd.commands`` (synced: ``{guild id or None: {id: command}}``).
* ``fd.fail_requests(method, path_regex, status=404, code=10008, message="Unknown Message",
  times=1, until=None, lost=False)``: the next ``times`` requests whose path (below /api/v10)
  matches answer that error instead of being served (a board deleted under the bot, Discord
  failing); ``until``: every match while ``fd.clock()`` is before it; ``lost=True``: the
  request *is* served and only the reply is lost (the error answers instead; ``"drop"``: the
  connection closes unanswered). The matched requests are still recorded and validated.
  ``fd.injected`` lists what was failed. ``fd.outage(seconds, method="POST",
  path_regex=channel messages, status=502) -> end``: Discord down for a while of ``fd.clock``.
* ``fd.use_clock(clock, advance)``: Discord's time (nonce windows, outages) is the test's
  ``clock``, and discord.py's waits between retries of a 5xx pass on it (``advance(seconds)``,
  recorded in ``fd.slept``) instead of in real time.
* ``await fd.say(user, "text", channel=None)`` posts a user message (MESSAGE_CREATE);
  ``await fd.reconnect(resume=True)`` makes the bot reconnect (op 7, RESUME) or re-identify
  (``resume=False``, op 9); ``await fd.dispatch(event, data)`` sends any gateway event.
* Records: ``fd.requests`` (``Request``: method, path below /api/v10, route template,
  query, json or parsed ``payload_json``, ``files`` as ``UploadedFile`` with bytes,
  ``at`` = monotonic time, status), ``fd.violations`` (OpenAPI problems, "METHOD template:
  message at $.json.path [rule] (value ...)"; bodies are validated when this is read or at
  exit, never on the request path, and identical bodies are validated once per process),
  ``fd.unhandled`` (answered 404), ``fd.server_errors``, ``fd.bot_errors`` (WARNING+
  records of the ``discord`` loggers), ``fd.int_snowflakes`` (where an integer id was
  accepted for a snowflake string: besides the attachment placeholder ids normalised
  silently, discord.py sends integer ids e.g. in ``recipient_id`` and
  ``allowed_mentions.users``; Discord accepts them, so they are not violations),
  ``fd.identifies`` / ``fd.resumes``; ``fd.message_requests``: the requests that created or
  edited a message, each with ``message_body`` and ``allowed_mentions`` (None when the request
  carried none: Discord then notifies everyone the text mentions).

``Exchange`` (one interaction): ``payload`` (the INTERACTION_CREATE data sent),
``callback`` (``Callback``: ``type``, ``data``, ``files``, ``at``, ``ephemeral``),
``ack_seconds`` (dispatch to callback), ``ephemeral`` (of the initial response),
``original`` (the response message created by type 4/5, or the clicked message for 6/7),
``followups``, ``posted`` (channel messages the bot created since this interaction was sent), ``edits`` (``(message id, body)``), ``deleted``, ``messages`` (original it
created + followups), ``choices`` (type 8), ``modal`` (type 9 data), ``errors`` (HTTP errors
returned for it, e.g. already acknowledged), ``log``, ``expire()`` (the token's 15 minutes
are over: later followups/edits get 401). Waits: ``wait_ack()``,
``wait_response()`` (first real message: type 4/7 message, a defer filled in by an edit or
the first followup, an edit after type 6, else the first followup), ``wait_followups(n)``,
``wait_message(predicate)`` (latest non-loading message of this interaction matching, e.g.
``lambda m: m.ephemeral``), ``wait_idle(quiet=0.05)`` (acknowledged and nothing new
anywhere for ``quiet`` s), ``wait(predicate, timeout, what)``.

``FakeMessage`` (live: edits update it): ``id``, ``channel_id``, ``content``, ``embeds``,
``embed``, ``components``, ``custom_ids``, ``component(custom_id)``, ``buttons``, ``flags``,
``ephemeral``, ``loading``, ``attachments``, ``file(index or filename) -> bytes``,
``png() -> bytes``, ``mentions`` (ids in ``<@id>``), ``pinged`` (who was notified: mentions
at creation honouring allowed_mentions; edits, the followup that fills in a defer and
ephemeral messages notify nobody), ``text`` (content + embed + text-display text),
``versions`` (earlier states, oldest first), ``deleted``, ``data`` (the raw message object).

Behaviour modelled on Discord, worth knowing:

* a second initial callback gets 400 (code 40060); a callback later than ``ack_deadline``
  seconds gets 404 Unknown interaction (10062); a followup before the callback gets 404;
* after a type-5 defer the first followup *replaces* the loading message and keeps the
  defer's ephemeral flag (the followup's own ephemeral flag is ignored); later followups
  are new messages with their own flags (Discord's docs, "Create Followup Message");
* Create Message honours ``nonce`` with ``enforce_nonce``: a repeat by the same author within
  ``fd.nonce_window`` (300 s of ``fd.clock``) answers the first message and creates none
  (``fd.nonce_repeats`` counts them; discord.py sends a random nonce with every ``send``, so its
  own retries after a lost reply are safe); a repeat of a deleted message's nonce is 404;
* the callback answers 204, or the InteractionCallbackResponse with ``?with_response=1``
  (``resource.message`` for types 4 and 7 only);
* after type 6/7 on a component, ``@original`` is the clicked message;
* embed ``attachment://name`` URLs become the served attachment URLs; attachments keep
  their bytes (``FakeMessage.file``) and are served under ``fd.base_url``;
* REST responses carry ``Content-Type: application/json`` exactly; an empty message is
  refused (400, 50006); requests are *accepted* even when they violate the spec (the
  violation is recorded; ``strict`` fails the test at exit); besides the spec, two limits
  Discord enforces are checked: content at most 2000 characters (the spec says 4000) and
  at most 6000 characters of embed text per message;
* Components V2 (``IS_COMPONENTS_V2`` = ``1 << 15``, discord.py's ``ui.LayoutView``): with the
  flag a message may carry no ``content``, ``embeds``, ``poll`` or stickers, at most 40
  components in all and 4000 characters of text displays, and the flag cannot be removed by an
  edit; without it only action rows may sit at the top level (each a 400, 50035); mentions in
  text displays notify like content (``pinged``, ``mentions``); ``attachment://name`` in a media
  gallery, thumbnail or file component becomes the served attachment URL (an unknown name is
  recorded as a FakeDiscord error);
* gateway: HELLO, heartbeat ACK, IDENTIFY -> READY + GUILD_CREATE (channels, roles,
  active threads; other members only with the members intent), RESUME -> RESUMED,
  REQUEST_GUILD_MEMBERS -> GUILD_MEMBERS_CHUNK, sharded READY (one shard); a new thread is
  announced with THREAD_CREATE. Messages the bot sends are not echoed as MESSAGE_CREATE.

Not modelled: rate limits, several shards, token expiry by the clock (use
``Exchange.expire()``), interactions in DMs (except forged ones: ``origin="dm"``), reactions beyond accepting them, permission
overwrites (the bot's cached role permissions do not follow ``bot_permissions``; the
interactions' ``app_permissions`` do), voice.
"""

from __future__ import annotations

import asyncio
import copy
import itertools
import json
import logging
import os
import re
import struct
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import aiohttp
import discord
import discord.gateway
import discord.http
import discord.webhook.async_
import yarl
from aiohttp import web

__all__ = [
    "FakeDiscord",
    "FakeUser",
    "FakeMessage",
    "Exchange",
    "Callback",
    "Request",
    "UploadedFile",
    "FakeTimeout",
    "spec_path",
    "load_spec",
    "walk_components",
]

EPHEMERAL = 1 << 6
LOADING = 1 << 7
COMPONENTS_V2 = 1 << 15
DISCORD_EPOCH_MS = 1420070400000
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024

# Permission bits used in the fake guild.
P_VIEW = 1 << 10
P_SEND = 1 << 11
P_EMBED = 1 << 14
P_ATTACH = 1 << 15
P_HISTORY = 1 << 16
P_MENTION_EVERYONE = 1 << 17
P_EXT_EMOJI = 1 << 18
P_MANAGE_GUILD = 1 << 5
P_MANAGE_ROLES = 1 << 28
P_ADD_REACTIONS = 1 << 6
P_USE_APP_COMMANDS = 1 << 31
P_CREATE_PUBLIC_THREADS = 1 << 35
P_SEND_IN_THREADS = 1 << 38
P_MANAGE_THREADS = 1 << 34
P_CREATE_PRIVATE_THREADS = 1 << 36
EVERYONE_PERMS = (
    P_VIEW
    | P_SEND
    | P_EMBED
    | P_ATTACH
    | P_HISTORY
    | P_ADD_REACTIONS
    | P_EXT_EMOJI
    | P_USE_APP_COMMANDS
    | P_CREATE_PUBLIC_THREADS
    | P_SEND_IN_THREADS
)
BOT_PERMS = EVERYONE_PERMS | P_MANAGE_THREADS | P_MENTION_EVERYONE | (1 << 36)  # + create private threads

INTENT_GUILDS = 1 << 0
INTENT_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_MESSAGE_CONTENT = 1 << 15

_log = logging.getLogger("fakediscord")


class FakeTimeout(AssertionError):
    """A wait ran out; the message says what was expected and what was received."""


def _now_iso() -> str:
    t = time.time()
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + f".{int((t % 1) * 1e6):06d}+00:00"


def _json_response(data: Any, status: int = 200) -> web.Response:
    # Exactly "application/json": aiohttp's json_response appends "; charset=utf-8".
    return web.Response(body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"})


def _error(status: int, code: int, message: str) -> web.Response:
    return _json_response({"code": code, "message": message}, status=status)


def _png_size(data: bytes) -> tuple[int, int] | None:
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        return struct.unpack(">II", data[16:24])
    return None


def _content_type(filename: str, given: str | None) -> str:
    low = filename.lower()
    for ext, ct in (
        (".png", "image/png"),
        (".jpg", "image/jpeg"),
        (".jpeg", "image/jpeg"),
        (".gif", "image/gif"),
        (".webp", "image/webp"),
        (".txt", "text/plain; charset=utf-8"),
        (".json", "application/json"),
    ):
        if low.endswith(ext):
            return ct
    return given or "application/octet-stream"


def walk_components(components: Iterable[dict]) -> Iterable[dict]:
    """Yield every component in a (possibly nested, components v2) component tree."""
    for comp in components or ():
        if not isinstance(comp, dict):
            continue
        yield comp
        yield from walk_components(comp.get("components") or ())
        for key in ("component", "accessory"):
            if isinstance(comp.get(key), dict):
                yield from walk_components([comp[key]])


# --------------------------------------------------------------------------- OpenAPI


def spec_path() -> Path:
    """Where the OpenAPI description is read from (env FAKEDISCORD_OPENAPI overrides)."""
    env = os.environ.get("FAKEDISCORD_OPENAPI")
    if env:
        return Path(env)
    repo = Path(__file__).resolve().parent.parent
    return repo / ".." / "shared" / "discord-api-spec" / "openapi.json"


class _OpenAPI:
    URI = "urn:discord-openapi"
    METHODS = ("get", "put", "post", "patch", "delete")

    def __init__(self, path: Path) -> None:
        import jsonschema
        from referencing import Registry, Resource
        from referencing.jsonschema import DRAFT202012

        self._jsonschema = jsonschema
        self.doc = json.loads(path.read_text(encoding="utf-8"))
        self.registry = Registry().with_resource(self.URI, Resource(contents=self.doc, specification=DRAFT202012))
        self.routes: list[tuple[re.Pattern, str, int]] = []
        for template in self.doc["paths"]:
            regex = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$"
            literal = len([s for s in template.split("/") if s and not s.startswith("{")])
            self.routes.append((re.compile(regex), template, literal))
        self._validators: dict[tuple[str, str], Any] = {}
        self._results: dict[tuple, tuple[list[str], list[str]]] = {}

    def match(self, path: str) -> str | None:
        best = None
        for regex, template, literal in self.routes:
            if regex.match(path) and (best is None or literal > best[1]):
                best = (template, literal)
        return best[0] if best else None

    def operation(self, template: str, method: str) -> dict | None:
        return self.doc["paths"].get(template, {}).get(method.lower())

    def _validator(self, template: str, method: str, content_type: str):
        key = (template, method, content_type)
        if key not in self._validators:

            def esc(part: str) -> str:
                return part.replace("~", "~0").replace("/", "~1")

            pointer = "/" + "/".join(
                esc(p) for p in ("paths", template, method.lower(), "requestBody", "content", content_type, "schema")
            )
            schema = {"$ref": self.URI + "#" + quote(pointer, safe="/~")}
            self._validators[key] = self._jsonschema.Draft202012Validator(schema, registry=self.registry)
        return self._validators[key]

    def check(
        self, method: str, path: str, body: Any, multipart: bool, accepted: list | None = None
    ) -> tuple[str | None, list[str]]:
        """(matched path template, problems). Integer snowflakes the spec wants as strings are
        accepted (Discord stores ids as integers and takes them; discord.py sends some, e.g.
        ``recipient_id``, ``allowed_mentions.users``) and noted in ``accepted``."""
        template = self.match(path)
        if template is None:
            return None, [f"{method} {path}: no such path in the OpenAPI description"]
        op = self.operation(template, method)
        if op is None:
            return template, [f"{method} {template}: method not allowed by the OpenAPI description"]
        rb = op.get("requestBody")
        if rb is None:
            if body not in (None, b"", {}) and method != "GET":
                return template, [f"{method} {template}: the operation takes no request body, got {str(body)[:120]}"]
            return template, []
        if body is None:
            if rb.get("required"):
                return template, [f"{method} {template}: request body required but none sent"]
            return template, []
        content = rb.get("content", {})
        ctype = "multipart/form-data" if multipart and "multipart/form-data" in content else "application/json"
        if ctype not in content:
            ctype = next(iter(content))
        key = (template, method, ctype, json.dumps(body, sort_keys=True, default=str))
        cached = self._results.get(key)
        if cached is None:  # identical bodies (e.g. the command sync of every test) are checked once
            cached = self._results[key] = self._validate(template, method, ctype, body)
            if len(self._results) > 4096:
                self._results.pop(next(iter(self._results)))
        problems, fixed = cached
        if accepted is not None:
            accepted.extend(fixed)
        return template, list(problems)

    def _validate(self, template: str, method: str, ctype: str, body: Any) -> tuple[list[str], list[str]]:
        validator = self._validator(template, method, ctype)
        fixed: list[str] = []
        body = _normalise_for_spec(body)
        errors = list(validator.iter_errors(body))
        for _ in range(10):  # integer snowflakes: discord.py sends them in several places
            fixes = {tuple(e.absolute_path): e.instance for e in _all_errors(errors) if _int_for_snowflake(e)}
            if not errors or not fixes:
                break
            for where, value in fixes.items():
                _set_at(body, where, str(value))
                fixed.append(f"{method} {template}: $.{'.'.join(map(str, where))} = {value}")
            errors = list(validator.iter_errors(body))
        return [f"{method} {template}: {_describe_error(e)}" for e in errors[:3]], fixed


def _all_errors(errors: Iterable[Any]) -> Iterable[Any]:
    for e in errors:
        yield e
        yield from _all_errors(e.context or ())


def _int_for_snowflake(error: Any) -> bool:
    schema = error.schema if isinstance(error.schema, dict) else {}
    snowflake = schema.get("format") == "snowflake" or schema.get("pattern") == "^(0|[1-9][0-9]*)$"
    return (
        snowflake
        and error.validator == "type"
        and isinstance(error.instance, int)
        and not isinstance(error.instance, bool)
        and error.instance >= 0
    )


def _set_at(node: Any, path: tuple, value: Any) -> None:
    for key in path[:-1]:
        node = node[key]
    if path:
        node[path[-1]] = value


def _message_limits(method: str, route: str, body: Any) -> list[str]:
    """Limits Discord enforces that the OpenAPI description does not express."""
    if not isinstance(body, dict) or method not in ("POST", "PATCH"):
        return []
    if route.endswith("/callback"):
        body = body.get("data") if body.get("type") in (4, 7) else None
    elif not (route.startswith("/webhooks/") or route.startswith("/channels/{channel_id}/messages")):
        return []
    if not isinstance(body, dict):
        return []
    problems = []
    content = body.get("content")
    if isinstance(content, str) and len(content) > 2000:
        problems.append(
            f"{method} {route}: content has {len(content)} characters; Discord refuses more than 2000 from a bot"
        )
    total = 0
    for emb in body.get("embeds") or []:
        if isinstance(emb, dict):
            total += sum(len(emb.get(k) or "") for k in ("title", "description"))
            total += sum(len(f.get("name") or "") + len(f.get("value") or "") for f in emb.get("fields") or [])
            total += len((emb.get("footer") or {}).get("text") or "") + len((emb.get("author") or {}).get("name") or "")
    if total > 6000:
        problems.append(f"{method} {route}: embeds have {total} characters in total; Discord refuses more than 6000")
    return problems


def _normalise_for_spec(body: Any) -> Any:
    """The known gap: discord.py sends integer attachment placeholder ids; the spec wants strings.
    (More generally an integer where the spec wants a snowflake string is accepted, as Discord
    does; see ``_OpenAPI.check``.)"""
    body = copy.deepcopy(body)

    def fix(node: Any) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if k == "attachments" and isinstance(v, list):
                    for a in v:
                        if isinstance(a, dict) and isinstance(a.get("id"), int):
                            a["id"] = str(a["id"])
                fix(v)
        elif isinstance(node, list):
            for v in node:
                fix(v)

    fix(body)
    return body


def _error_depth(error: Any) -> int:
    own = len(error.absolute_path)
    return max([own] + [_error_depth(e) for e in error.context or ()])


def _is_discriminator(error: Any) -> bool:
    path = list(error.absolute_path)
    if error.validator == "type" and error.validator_value == "null":
        return True  # the "or null" branch of a nullable field says nothing useful
    return bool(path) and path[-1] == "type" and error.validator in ("enum", "const")


def _describe_error(error: Any) -> str:
    """Descend into anyOf/oneOf to the branch that got furthest, for a readable message."""
    while error.context:
        by_branch: dict[Any, list] = {}
        for sub in error.context:
            by_branch.setdefault(sub.schema_path[0] if sub.schema_path else None, []).append(sub)

        def score(errs: list) -> tuple:
            # a branch refused on its "type" discriminator is the wrong branch, whatever its depth
            return (not any(_is_discriminator(e) for e in errs), max(_error_depth(e) for e in errs), -len(errs))

        branch = max(by_branch.values(), key=score)
        error = max(branch, key=_error_depth)
    where = error.json_path
    inst = json.dumps(error.instance, default=str)
    if len(inst) > 120:
        inst = inst[:117] + "..."
    rule = f"{error.validator}={json.dumps(error.validator_value, default=str)}"
    if len(rule) > 100:
        rule = rule[:97] + "..."
    message = error.message if len(error.message) <= 160 else f"value fails {rule}"
    return f"{message} at {where} [{rule}] (value {inst})"


_SPECS: dict[str, tuple[_OpenAPI | None, str]] = {}


def load_spec(path: Path | None = None) -> tuple[_OpenAPI | None, str]:
    """The compiled OpenAPI description and a status line; compiled once per process and path
    (module-level cache, validators are built lazily per operation)."""
    path = Path(path) if path is not None else spec_path()
    key = str(path)
    if key not in _SPECS:
        if not path.is_file():
            status = f"OpenAPI validation skipped: {path} not found"
            _log.warning(status)
            _SPECS[key] = (None, status)
        else:
            try:
                _SPECS[key] = (_OpenAPI(path), f"validating against {path.resolve()}")
            except ImportError as exc:  # pragma: no cover - jsonschema is in the test extra
                _SPECS[key] = (None, f"OpenAPI validation skipped: {exc}")
    return _SPECS[key]


# --------------------------------------------------------------------------- records


@dataclass
class UploadedFile:
    field: str
    filename: str
    content_type: str | None
    data: bytes


@dataclass
class Request:
    method: str
    path: str  # below /api/v10, e.g. "/channels/1/messages"
    query: dict
    json: Any  # the JSON body, or the parsed payload_json of a multipart body
    files: list[UploadedFile]
    at: float  # time.monotonic()
    route: str | None = None  # the OpenAPI path template it matched
    status: int = 0

    def __repr__(self) -> str:
        return f"<Request {self.method} {self.path} -> {self.status}>"

    @property
    def message_body(self) -> dict | None:
        """The message this request creates or edits (a channel message, an interaction
        response of type 4/7, a followup, an edit), else None."""
        if self.method not in ("POST", "PATCH") or not _MESSAGE_PATH.match(self.path):
            return None
        body = self.json if isinstance(self.json, dict) else {}
        if self.path.endswith("/callback"):
            return (body.get("data") or {}) if int(body.get("type") or 0) in (4, 7) else None
        return body

    @property
    def allowed_mentions(self) -> dict | None:
        """The message body's ``allowed_mentions`` as sent (None: the request had none)."""
        body = self.message_body
        return body.get("allowed_mentions") if body is not None else None


_MESSAGE_PATH = re.compile(
    r"^(?:/channels/\d+/messages(?:/\d+)?|/webhooks/\d+/[^/]+(?:/messages/(?:@original|\d+))?"
    r"|/interactions/\d+/[^/]+/callback)$"
)


@dataclass
class FakeUser:
    id: int
    name: str
    locale: str = "en-US"
    manage_guild: bool = False
    bot: bool = False
    roles: list[int] = field(default_factory=list)
    nick: str | None = None  # the member's server nickname (what discord.py's display_name shows first)
    global_name: str | None = None  # the account's display name (default: ``name.title()``)

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def user_payload(self) -> dict:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.global_name if self.global_name is not None else self.name.title(),
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
            "primary_guild": None,
            "collectibles": None,
        }


class FakeMessage:
    """A message as FakeDiscord stores it (live: edits update it, older states in ``versions``)."""

    def __init__(self, fd: FakeDiscord, data: dict, files: dict[str, bytes]) -> None:
        self._fd = fd
        self.data = data
        self.files = files  # attachment id -> bytes
        self.versions: list[dict] = []
        self.deleted = False
        self.created_at = time.monotonic()

    def __repr__(self) -> str:
        flags = " ephemeral" if self.ephemeral else ""
        return f"<FakeMessage {self.id} ch={self.channel_id}{flags} {self.text[:60]!r} ids={self.custom_ids}>"

    id = property(lambda self: int(self.data["id"]))
    channel_id = property(lambda self: int(self.data["channel_id"]))
    content = property(lambda self: self.data.get("content") or "")
    embeds = property(lambda self: self.data.get("embeds") or [])
    components = property(lambda self: self.data.get("components") or [])
    attachments = property(lambda self: self.data.get("attachments") or [])
    flags = property(lambda self: int(self.data.get("flags") or 0))
    ephemeral = property(lambda self: bool(self.flags & EPHEMERAL))
    loading = property(lambda self: bool(self.flags & LOADING))

    @property
    def embed(self) -> dict | None:
        return self.embeds[0] if self.embeds else None

    @property
    def text(self) -> str:
        """Content plus the visible text of embeds and text-display components (for assertions)."""
        parts = [self.content]
        for e in self.embeds:
            parts += [e.get("title") or "", e.get("description") or ""]
            parts += [f"{f.get('name', '')} {f.get('value', '')}" for f in e.get("fields") or []]
            parts += [(e.get("footer") or {}).get("text") or "", (e.get("author") or {}).get("name") or ""]
        for c in walk_components(self.components):
            if c.get("type") == 10:
                parts.append(c.get("content") or "")
        return "\n".join(p for p in parts if p)

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in walk_components(self.components) if c.get("custom_id")]

    def component(self, custom_id: str) -> dict | None:
        for c in walk_components(self.components):
            if c.get("custom_id") == custom_id:
                return c
        return None

    @property
    def buttons(self) -> list[dict]:
        return [c for c in walk_components(self.components) if c.get("type") == 2]

    @property
    def mentions(self) -> list[int]:
        """User ids mentioned in the content (``<@id>``), in order; in a
        Components V2 message, in its text displays (they notify like content)."""
        text = self.content
        if self.flags & COMPONENTS_V2:
            text = "\n".join(c.get("content") or "" for c in walk_components(self.components) if c.get("type") == 10)
        return [int(m) for m in re.findall(r"<@!?(\d+)>", text)]

    @property
    def pinged(self) -> list[int]:
        """Users notified when the message was *created*: mentions in its content then,
        filtered by allowed_mentions. Edits notify nobody, so neither does the first followup
        that fills in a deferred response, and ephemeral messages notify nobody."""
        return list(self.data.get("_pinged", []))

    def _mentions_allowed(self) -> list[int]:
        am = self.data.get("_allowed_mentions")
        ids = self.mentions
        if am is None or "users" in (am.get("parse") or []):
            return ids
        allowed = {int(u) for u in am.get("users") or []}
        return [i for i in ids if i in allowed]

    def file(self, which: int | str = 0) -> bytes:
        """Bytes of an attachment, by index or filename."""
        atts = self.attachments
        if isinstance(which, str):
            match = [a for a in atts if a["filename"] == which]
            if not match:
                raise KeyError(f"no attachment {which!r}; have {[a['filename'] for a in atts]}")
            att = match[0]
        else:
            att = atts[which]
        return self.files[str(att["id"])]

    def png(self) -> bytes:
        """The bytes of the first PNG attachment (AssertionError if none)."""
        for a in self.attachments:
            data = self.files.get(str(a["id"]), b"")
            if data.startswith(b"\x89PNG\r\n\x1a\n"):
                return data
        raise AssertionError(f"message {self.id} has no PNG attachment: {[a['filename'] for a in self.attachments]}")

    def public_data(self) -> dict:
        return {k: v for k, v in self.data.items() if not k.startswith("_")}


@dataclass
class Callback:
    type: int
    data: dict
    files: list[UploadedFile]
    at: float

    @property
    def ephemeral(self) -> bool:
        return bool(int((self.data or {}).get("flags") or 0) & EPHEMERAL)


class _Notifier:
    def __init__(self) -> None:
        self._event = asyncio.Event()

    def notify(self) -> None:
        self._event.set()
        self._event = asyncio.Event()

    async def wait_until(
        self, predicate: Callable[[], Any], timeout: float, describe: Callable[[], str], what: str
    ) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            ev = self._event
            result = predicate()
            if result:
                return result
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise FakeTimeout(f"timed out after {timeout:.1f}s waiting for {what}\n{describe()}")
            try:  # woken by any FakeDiscord activity; re-checked every 50 ms anyway, so
                # predicates may also look at outside state (e.g. the bot's database)
                await asyncio.wait_for(ev.wait(), min(remaining, 0.05))
            except TimeoutError:
                pass


class Exchange:
    """Everything the bot did in answer to one interaction."""

    def __init__(self, fd: FakeDiscord, kind: str, user: FakeUser, payload: dict) -> None:
        self.fd = fd
        self.kind = kind  # "command", "autocomplete", "component", "modal"
        self.user = user
        self.payload = payload
        self.interaction_id = int(payload["id"])
        self.token = payload["token"]
        self.dispatched_at = time.monotonic()
        self.callback: Callback | None = None
        self.original: FakeMessage | None = None
        self.followups: list[FakeMessage] = []
        self.edits: list[tuple[int, dict]] = []  # (message id, body) for PATCHes through the token
        self.deleted: list[int] = []
        self.errors: list[tuple[int, str]] = []  # (status, message) answered with an error
        self.log: list[str] = []
        self.last_activity = self.dispatched_at
        self._created_original = False
        self._deferred_loading = False
        self.expired = False  # set by expire(): the 15-minute token lifetime is over
        assert fd._notifier is not None, "use FakeDiscord inside `async with`"
        self._notifier = fd._notifier  # one notifier: any activity wakes every waiter

    def __repr__(self) -> str:
        cb = self.callback.type if self.callback else None
        return f"<Exchange {self.kind} {self.interaction_id} callback={cb} followups={len(self.followups)}>"

    def _touch(self, line: str) -> None:
        self.last_activity = time.monotonic()
        self.log.append(f"+{self.last_activity - self.dispatched_at:.3f}s {line}")
        self.fd._touch()

    def expire(self) -> None:
        """End the interaction token's life (Discord: 15 minutes): followups, edits and
        deletes through it now get 401 Invalid Webhook Token (50027)."""
        self.expired = True

    # -- views
    @property
    def ack_seconds(self) -> float | None:
        return None if self.callback is None else self.callback.at - self.dispatched_at

    @property
    def ephemeral(self) -> bool:
        """Whether the initial response (message or deferral) is ephemeral."""
        if self.original is not None and self._created_original:
            return self.original.ephemeral
        return bool(self.callback and self.callback.ephemeral)

    @property
    def messages(self) -> list[FakeMessage]:
        """The response messages: the original (if this interaction created it) then the followups."""
        out = [self.original] if (self.original is not None and self._created_original) else []
        return out + [m for m in self.followups if m not in out]

    @property
    def posted(self) -> list[FakeMessage]:
        """Channel messages the bot created (not through this interaction's token) since this
        interaction was sent, in any channel, oldest first: what it posted in reply to it."""
        bot = str(self.fd.bot_user.id)
        return [
            m
            for m in self.fd.all_messages
            if m.id > self.interaction_id
            and not m.deleted
            and not m.ephemeral
            and m.data["author"]["id"] == bot
            and "interaction_metadata" not in m.data
        ]

    @property
    def choices(self) -> list[dict] | None:
        if self.callback and self.callback.type == 8:
            return self.callback.data.get("choices", [])
        return None

    @property
    def modal(self) -> dict | None:
        if self.callback and self.callback.type == 9:
            return self.callback.data
        return None

    def describe(self) -> str:
        lines = [f"  interaction {self.kind} id={self.interaction_id} by {self.user.name} ({self.user.id})"]
        if self.callback is None:
            lines.append("  no callback received")
        lines += ["  " + line for line in self.log] or []
        for m in self.messages:
            lines.append(f"  message {m!r}")
        lines += [f"  error answered: {s} {msg}" for s, msg in self.errors]
        lines.append(self.fd._describe_tail())
        return "\n".join(lines)

    # -- waits
    async def wait(self, predicate: Callable[[Exchange], Any], timeout: float = 5.0, what: str = "a condition") -> Any:
        return await self._notifier.wait_until(lambda: predicate(self), timeout, self.describe, what)

    async def wait_ack(self, timeout: float = 3.5) -> Callback:
        return await self.wait(lambda ex: ex.callback, timeout, "the initial interaction callback")

    def _response(self) -> FakeMessage | None:
        cb = self.callback
        if cb is None:
            return None
        if cb.type in (4, 7) and self.original is not None and not self.original.loading:
            return self.original
        if cb.type == 5 and self.original is not None and not self.original.loading:
            return self.original
        if cb.type == 6 and self.edits and self.original is not None:
            return self.original
        return self.followups[0] if self.followups else None

    async def wait_response(self, timeout: float = 5.0) -> FakeMessage:
        """The first real message: a type 4/7 response, a deferral filled in (edit or first
        followup), an edit after a type-6 ack, or else the first followup."""
        return await self.wait(lambda ex: ex._response(), timeout, "a response message")

    async def wait_message(
        self,
        predicate: Callable[[FakeMessage], Any] | None = None,
        timeout: float = 5.0,
        what: str = "a matching message",
    ) -> FakeMessage:
        """The latest of this interaction's messages (original it created or edited after
        type 6/7, and followups; not while still loading) that matches ``predicate``."""

        def find() -> FakeMessage | None:
            candidates = self.messages
            if (
                self.original is not None
                and not self._created_original
                and self.edits
                or (self.callback and self.callback.type == 7)
            ):
                candidates = [self.original] + candidates
            for m in reversed(candidates):
                if m is not None and not m.loading and not m.deleted and (predicate is None or predicate(m)):
                    return m
            return None

        return await self.wait(lambda ex: find(), timeout, what)

    async def wait_followups(self, count: int = 1, timeout: float = 5.0) -> list[FakeMessage]:
        return await self.wait(
            lambda ex: ex.followups[:count] if len(ex.followups) >= count else None, timeout, f"{count} followup(s)"
        )

    async def wait_idle(self, quiet: float = 0.05, timeout: float = 5.0) -> Exchange:
        """Wait until acknowledged and nothing has happened for ``quiet`` seconds (bot and
        FakeDiscord-wide: channel messages count too)."""
        await self.wait_ack(timeout)
        deadline = time.monotonic() + timeout
        while True:
            last = max(self.last_activity, self.fd._last_activity)
            idle = time.monotonic() - last
            if idle >= quiet:
                return self
            if time.monotonic() > deadline:
                raise FakeTimeout(f"bot never went quiet within {timeout}s\n{self.describe()}")
            await asyncio.sleep(min(quiet - idle, 0.02) + 0.001)


# --------------------------------------------------------------------------- the server


class _GatewayConn:
    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.session_id: str | None = None
        self.shard: list[int] = [0, 1]
        self.intents = 0
        self.seq = 0
        self.identified = asyncio.Event()
        self.closed = False

    async def send(self, op: int, d: Any = None, t: str | None = None) -> None:
        msg: dict = {"op": op, "d": d}
        if op == 0:
            self.seq += 1
            msg["s"] = self.seq
            msg["t"] = t
        else:
            msg["s"] = None
            msg["t"] = None
        if not self.ws.closed:
            await self.ws.send_str(json.dumps(msg))


class _LogCatcher(logging.Handler):
    def __init__(self, sink: list) -> None:
        super().__init__(logging.WARNING)
        self.sink = sink

    def emit(self, record: logging.LogRecord) -> None:
        if "voice will NOT be supported" not in record.getMessage():
            self.sink.append(record)


#: the discord.py modules that retry a 5xx after ``asyncio.sleep`` (REST, and webhooks: interaction
#: responses and followups)
_RETRYING = (discord.http, discord.webhook.async_)


class _VirtualAsyncio:
    """``asyncio`` as ``discord.http`` sees it under ``FakeDiscord.use_clock``: its sleeps
    (the waits between retries of a 5xx) pass on the test's clock, not in real time."""

    def __init__(self, fd: FakeDiscord) -> None:
        self._fd = fd

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)

    async def sleep(self, delay: float, result: Any = None) -> Any:
        self._fd.slept.append(float(delay))
        if self._fd._advance is not None:
            self._fd._advance(float(delay))
        await asyncio.sleep(0)
        return result


class FakeDiscord:
    """See the module docstring."""

    def __init__(
        self,
        *,
        strict: bool = False,
        ack_deadline: float = 3.0,
        locale: str = "en-US",
        validate: bool = True,
        spec_file: Path | None = None,
        fail_on_bot_errors: bool = False,
    ) -> None:
        self.strict = strict
        self.fail_on_bot_errors = fail_on_bot_errors
        self.spec_file = spec_file
        self._spec: _OpenAPI | None = None
        self.ack_deadline = ack_deadline
        self.validate = validate
        self._ids = itertools.count(1)
        self.bot_user = FakeUser(id=self._snowflake(), name="tabletop-gm", bot=True)
        self.application_id = self.bot_user.id
        self.guild_id = self._snowflake()
        self.guild_locale = locale
        self.manager_role_id = self._snowflake()
        self.bot_role_id = self._snowflake()
        self.owner = FakeUser(id=self._snowflake(), name="owner", manage_guild=True)
        # what the bot may do: interaction app_permissions, its role, and the REST checks for
        # sending messages, attaching files and creating threads (set it to test refusals)
        self.bot_permissions: int | discord.Permissions = BOT_PERMS
        self.users: dict[int, FakeUser] = {}
        self.channels: dict[int, dict] = {}
        self.threads: list[dict] = []  # threads the bot created (channel payloads, live)
        self.roles: list[dict] = []  # roles the bot created (role payloads)
        self.thread_members: dict[int, set[int]] = {}  # thread id -> user ids added through the API
        self.requests: list[Request] = []
        self._violations: list[str] = []
        self._unchecked: list[tuple[str, str, Any, bool]] = []  # validated lazily, off the request path
        self.unhandled: list[Request] = []
        self.server_errors: list[str] = []
        # [method, compiled regex, status, code, message, times left (None: any), until (clock), lost]
        self._faults: list[list] = []
        #: Discord's time for nonces and outages (``use_clock``); monotonic by default
        self.clock: Callable[[], float] = time.monotonic
        self._advance: Callable[[float], Any] | None = None
        self.slept: list[float] = []  # discord.py's retry waits taken on the virtual clock (``use_clock``)
        self._http_asyncio: Any = None
        #: (author id, nonce) -> (message, when): ``enforce_nonce`` answers a repeat with the first message
        self._nonces: dict[tuple[int, str], tuple[FakeMessage, float]] = {}
        self.nonce_window = 300.0  # seconds a nonce is remembered ("the past few minutes")
        self.nonce_repeats = 0  # message creates answered with an earlier message (same nonce)
        self.injected: list[str] = []  # "METHOD path -> status" of every request failed on purpose
        self._int_snowflakes: list[str] = []  # integer ids accepted where the spec says string
        self.identifies = 0  # gateway IDENTIFYs answered (one per bot start)
        self.resumes = 0  # gateway RESUMEs answered
        self.bot_errors: list[logging.LogRecord] = []
        self.commands: dict[int | None, dict[int, dict]] = {}  # guild id (None = global) -> id -> command
        self.spec_status = "OpenAPI validation disabled"
        self._messages: dict[int, FakeMessage] = {}
        self._channel_messages: dict[int, list[FakeMessage]] = {}
        self._exchanges: dict[str, Exchange] = {}
        self._blobs: dict[str, bytes] = {}
        self._conns: list[_GatewayConn] = []
        self._sessions: set[str] = set()
        self._bots: dict[int, tuple[discord.Client, asyncio.Task]] = {}
        self._tasks: set[asyncio.Task] = set()
        self._notifier: _Notifier | None = None
        self._last_activity = time.monotonic()
        self._runner: web.AppRunner | None = None
        self._saved: tuple | None = None
        self._log_catcher = _LogCatcher(self.bot_errors)
        self.add_user(self.owner.id, self.owner.name, manage_guild=True, _user=self.owner)
        self.channel_id = self.add_channel("general")

    def fail_requests(
        self,
        method: str,
        path_regex: str,
        status: int = 404,
        code: int = 10008,
        message: str = "Unknown Message",
        times: int | None = 1,
        *,
        until: float | None = None,
        lost: bool | str = False,
    ) -> None:
        """Answer the next ``times`` matching requests with an error (see the module docstring);
        ``until``: every matching request while ``fd.clock()`` is before it (``times=None``: no
        count); ``lost=True``: Discord *serves* the request and only its reply is lost (the error
        answers instead; "drop": the connection closes with no answer)."""
        self._faults.append([method.upper(), re.compile(path_regex), status, code, message, times, until, lost])

    def outage(
        self,
        seconds: float,
        method: str = "POST",
        path_regex: str = r"^/channels/\d+/messages$",
        status: int = 502,
    ) -> float:
        """Discord fails every matching request with ``status`` for ``seconds`` of ``fd.clock``
        (default: posting channel messages, 502 Bad Gateway); returns when it ends."""
        end = self.clock() + seconds
        self.fail_requests(method, path_regex, status, 0, f"{status}: Bad Gateway", None, until=end)
        return end

    def use_clock(self, clock: Callable[[], float], advance: Callable[[float], Any]) -> None:
        """Discord's time is ``clock`` (nonce windows, outages), and discord.py's own waits
        between retries of a 5xx (``await asyncio.sleep(1 + tries * 2)`` in ``discord.http`` and
        ``discord.webhook.async_``) pass on it through ``advance(seconds)`` instead of in real
        time (``fd.slept``)."""
        self.clock, self._advance = clock, advance
        if self._http_asyncio is None:
            self._http_asyncio = asyncio
            for module in _RETRYING:
                module.asyncio = _VirtualAsyncio(self)  # type: ignore[attr-defined]

    def _fault_for(self, rec: Request) -> list | None:
        now = self.clock()
        for fault in self._faults:
            method, regex, status, code, message, left, until, lost = fault
            if left is not None and left <= 0:
                continue
            if until is not None and now >= until:
                continue
            if method == rec.method and regex.search(rec.path):
                if left is not None:
                    fault[5] -= 1
                self.injected.append(f"{rec.method} {rec.path} -> {status}{' (served, reply lost)' if lost else ''}")
                return fault
        return None

    def _bot_perms(self) -> int:
        perms = self.bot_permissions
        return perms.value if isinstance(perms, discord.Permissions) else int(perms)

    def _require(self, perm: int, what: str) -> None:
        if not self._bot_perms() & perm:
            raise _HTTPError(403, 50013, f"Missing Permissions ({what})")

    def _check_pending(self) -> None:
        while self._unchecked:
            method, path, body, multipart = self._unchecked.pop(0)
            if self._spec is None:
                continue
            route, problems = self._spec.check(method, path, body, multipart, self._int_snowflakes)
            self._violations.extend(problems)
            if route:
                self._violations.extend(_message_limits(method, route, body))

    @property
    def violations(self) -> list[str]:
        """OpenAPI problems of every request so far (validated lazily when read, so the
        validation never slows the bot down)."""
        self._check_pending()
        return self._violations

    @property
    def int_snowflakes(self) -> list[str]:
        self._check_pending()
        return self._int_snowflakes

    @property
    def bot_user_id(self) -> int:
        return self.bot_user.id

    # -- ids and world
    def _snowflake(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        return (ms << 22) | (next(self._ids) & 0x3FFFFF)

    def add_user(
        self,
        id: int,
        name: str,
        locale: str = "en-US",
        *,
        manage_guild: bool = False,
        bot: bool = False,
        nick: str | None = None,
        global_name: str | None = None,
        _user: FakeUser | None = None,
    ) -> FakeUser:
        """A guild member. ``manage_guild=True`` gives them a role with the Manage Server permission;
        ``nick``: their server nickname, ``global_name``: their account's display name."""
        user = _user or FakeUser(
            id=int(id), name=name, locale=locale, manage_guild=manage_guild, bot=bot, nick=nick, global_name=global_name
        )
        if manage_guild and self.manager_role_id not in user.roles:
            user.roles.append(self.manager_role_id)
        self.users[user.id] = user
        if self._conns:
            self._spawn_dispatch(
                "GUILD_MEMBER_ADD", dict(self.member_payload(user), guild_id=str(self.guild_id)), INTENT_MEMBERS
            )
        return user

    def user(self, who: FakeUser | int) -> FakeUser:
        if isinstance(who, FakeUser):
            return who
        if int(who) == self.bot_user.id:
            return self.bot_user
        try:
            return self.users[int(who)]
        except KeyError:
            raise KeyError(f"unknown user {who}; add it with fd.add_user(id, name)") from None

    def add_channel(self, name: str, type: int = 0, parent_id: int | None = None) -> int:
        cid = self._snowflake()
        ch = {
            "id": str(cid),
            "type": type,
            "guild_id": str(self.guild_id),
            "name": name,
            "position": len(self.channels),
            "permission_overwrites": [],
            "parent_id": str(parent_id) if parent_id else None,
            "topic": None,
            "nsfw": False,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        self.channels[cid] = ch
        if self._conns:
            self._spawn_dispatch("CHANNEL_CREATE", ch)
        return cid

    def add_forum(self, name: str, tags: Sequence[str] = ("Waiting", "Active", "Finished")) -> int:
        """A forum channel (type 15) with these tags available."""
        cid = self.add_channel(name, type=15)
        ch = self.channels[cid]
        ch["available_tags"] = [
            {"id": str(self._snowflake()), "name": tag, "moderated": False, "emoji_id": None, "emoji_name": None}
            for tag in tags
        ]
        ch["default_reaction_emoji"] = None
        ch["default_sort_order"] = None
        ch["default_forum_layout"] = 0
        ch["default_thread_rate_limit_per_user"] = 0
        return cid

    def member_roles(self, who: FakeUser | int) -> list[int]:
        return list(self.user(who).roles)

    def _spawn_dispatch(self, event: str, data: dict, intent: int = 0) -> None:
        """Dispatch from synchronous code; silently skipped when no bot is connected or the
        bot did not ask for ``intent``."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        task = loop.create_task(self._dispatch_if_connected(event, data, intent))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _dispatch_if_connected(self, event: str, data: dict, intent: int = 0) -> bool:
        live = [c for c in self._conns if not c.closed and c.identified.is_set()]
        if not live or (intent and not live[-1].intents & intent):
            return False
        await live[-1].send(0, data, event)
        return True

    # -- payload factory
    def roles_payload(self) -> list[dict]:
        def role(rid: int, name: str, perms: int, position: int, managed: bool = False) -> dict:
            return {
                "id": str(rid),
                "name": name,
                "color": 0,
                "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
                "hoist": False,
                "icon": None,
                "unicode_emoji": None,
                "position": position,
                "permissions": str(perms),
                "managed": managed,
                "mentionable": False,
                "flags": 0,
                "tags": {"bot_id": str(self.bot_user.id)} if managed else {},
            }

        return [
            role(self.guild_id, "@everyone", EVERYONE_PERMS, 0),
            role(self.manager_role_id, "Managers", EVERYONE_PERMS | P_MANAGE_GUILD, 1),
            role(self.bot_role_id, "tabletop-gm", self._bot_perms(), 2, managed=True),
            *self.roles,
        ]

    def permissions_of(self, user: FakeUser) -> int:
        if user.id == self.bot_user.id:
            return self._bot_perms()
        perms = EVERYONE_PERMS
        if self.manager_role_id in user.roles or user.manage_guild:
            perms |= P_MANAGE_GUILD
        return perms

    def member_payload(self, user: FakeUser, *, with_user: bool = True, permissions: bool = False) -> dict:
        roles = list(user.roles)
        if user.id == self.bot_user.id:
            roles = [self.bot_role_id]
        m = {
            "roles": [str(r) for r in roles],
            "nick": user.nick,
            "avatar": None,
            "banner": None,
            "joined_at": "2024-01-01T00:00:00.000000+00:00",
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
            "avatar_decoration_data": None,
        }
        if with_user:
            m["user"] = user.user_payload()
        if permissions:
            m["permissions"] = str(self.permissions_of(user))
        return m

    def channel_payload(self, channel_id: int) -> dict:
        ch = self.channels.get(int(channel_id))
        if ch is None:
            raise KeyError(f"unknown channel {channel_id}; known: {list(self.channels)}")
        return ch

    def guild_payload(self, intents: int = INTENT_MEMBERS) -> dict:
        # without the members intent Discord sends only the bot's own member
        members = [self.bot_user] + (list(self.users.values()) if intents & INTENT_MEMBERS else [])
        return {
            "id": str(self.guild_id),
            "name": "Tabletop Test Guild",
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner.id),
            "region": None,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "roles": self.roles_payload(),
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": str(self.channel_id),
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "max_members": 500000,
            "max_presences": None,
            "vanity_url_code": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.guild_locale,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "joined_at": "2024-01-01T00:00:00.000000+00:00",
            "large": False,
            "unavailable": False,
            "member_count": 1 + len(self.users),
            "voice_states": [],
            "presences": [],
            "members": [self.member_payload(u) for u in members],
            "channels": [
                {k: v for k, v in ch.items() if k != "guild_id"}
                for ch in self.channels.values()
                if ch["type"] not in (10, 11, 12)
            ],
            "threads": [t for t in self.threads if not t["thread_metadata"]["archived"]],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "lazy": True,
            "hub_type": None,
            "incidents_data": None,
            "latest_onboarding_question_id": None,
            "home_header": None,
            "version": 1,
            "embedded_activities": [],
            "activity_instances": [],
        }

    def app_payload(self) -> dict:
        return {
            "id": str(self.application_id),
            "name": "Tabletop GM",
            "icon": None,
            "description": "test application",
            "summary": "",
            "type": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "flags": 0,
            "owner": self.owner.user_payload(),
            "team": None,
            "bot": self.bot_user.user_payload(),
            "rpc_origins": [],
            "interactions_endpoint_url": None,
            "install_params": None,
            "integration_types_config": {"0": {}},
            "approximate_guild_count": 1,
            "redirect_uris": [],
            "tags": [],
            "custom_install_url": None,
            "role_connections_verification_url": None,
        }

    def interaction_payload(
        self,
        *,
        type: int,
        user: FakeUser,
        data: dict | None,
        channel_id: int | None = None,
        locale: str | None = None,
        message: dict | None = None,
    ) -> dict:
        """One complete INTERACTION_CREATE payload (everything discord.py 2.7 reads)."""
        iid = self._snowflake()
        cid = int(channel_id or self.channel_id)
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": type,
            "token": f"itoken-{iid}-{os.urandom(6).hex()}",
            "version": 1,
            "guild_id": str(self.guild_id),
            "guild": {"id": str(self.guild_id), "locale": self.guild_locale, "features": []},
            "channel_id": str(cid),
            "channel": dict(self.channel_payload(cid), permissions=str(self.permissions_of(user))),
            "member": self.member_payload(user, permissions=True),
            "locale": locale or user.locale,
            "guild_locale": self.guild_locale,
            "app_permissions": str(self._bot_perms()),
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": {"0": str(self.guild_id)},
            "context": 0,
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        }
        if data is not None:
            payload["data"] = data
        if message is not None:
            payload["message"] = message
        return payload

    def _relocate(self, payload: dict, user: FakeUser, origin: str | int, keep_channel: bool = False) -> None:
        """Make ``payload`` come from elsewhere (a forged or misrouted interaction):
        ``"dm"`` the user's direct messages with the bot (context 1, no guild,
        ``user`` instead of ``member``); an int: another guild of that id, in a
        channel the bot has never seen (``keep_channel``: in the channel given,
        although it is this guild's)."""
        if origin == "dm":
            dm = next(
                (c for c in self.channels.values() if c["type"] == 1 and c["recipients"][0]["id"] == str(user.id)),
                None,
            )
            if dm is None:
                cid = self._snowflake()
                dm = {"id": str(cid), "type": 1, "last_message_id": None, "flags": 0}
                dm["recipients"] = [user.user_payload()]
                self.channels[cid] = dm
            for key in ("guild_id", "guild", "member", "guild_locale"):
                payload.pop(key, None)
            payload["user"] = user.user_payload()
            payload["channel_id"] = dm["id"]
            payload["channel"] = dict(dm, permissions=str(EVERYONE_PERMS))
            payload["context"] = 1
            payload["authorizing_integration_owners"] = {"0": str(self.guild_id)}
            return
        gid = str(int(origin))
        payload["guild_id"] = gid
        payload["guild"] = {"id": gid, "locale": self.guild_locale, "features": []}
        if not keep_channel:
            cid = str(self._snowflake())
            payload["channel_id"] = cid
            payload["channel"] = {
                "id": cid,
                "type": 0,
                "guild_id": gid,
                "name": "elsewhere",
                "position": 0,
                "permission_overwrites": [],
                "nsfw": False,
                "parent_id": None,
                "permissions": payload["channel"].get("permissions", str(EVERYONE_PERMS)),
            }
        payload["authorizing_integration_owners"] = {"0": gid}

    # -- lifecycle
    async def __aenter__(self) -> FakeDiscord:
        self._notifier = _Notifier()
        if self.validate:
            self._spec, self.spec_status = load_spec(self.spec_file)
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/attachments/{aid}/{filename}", self._cdn)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.base_url = f"http://127.0.0.1:{port}"
        self._saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
        discord.http.Route.BASE = f"{self.base_url}/api/v10"
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{port}/gateway")
        logging.getLogger("discord").addHandler(self._log_catcher)
        return self

    async def __aexit__(self, exc_type, exc, tb) -> None:
        try:
            if self._tasks:
                await asyncio.gather(*self._tasks, return_exceptions=True)
            for bot, _task in list(self._bots.values()):
                await self.stop(bot)
            for conn in list(self._conns):
                await conn.ws.close()
            if self._runner is not None:
                await self._runner.cleanup()
        finally:
            if self._saved is not None:
                discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self._saved
            if self._http_asyncio is not None:
                for module in _RETRYING:
                    module.asyncio = self._http_asyncio  # type: ignore[attr-defined]
                self._http_asyncio = None
            logging.getLogger("discord").removeHandler(self._log_catcher)
        problems = []
        if self.strict and exc_type is None:
            if self.violations:
                problems.append(
                    "requests violating the Discord OpenAPI description:\n  " + "\n  ".join(self.violations)
                )
            if self.unhandled:
                problems.append(
                    "requests FakeDiscord does not serve (answered 404):\n  "
                    + "\n  ".join(f"{r.method} {r.path}" for r in self.unhandled)
                )
            if self.server_errors:
                problems.append("FakeDiscord failed on:\n  " + "\n  ".join(self.server_errors))
        if self.fail_on_bot_errors and exc_type is None:
            errors = [r for r in self.bot_errors if r.levelno >= logging.ERROR]
            if errors:
                problems.append("the bot logged errors:\n  " + "\n  ".join(_format_record(r) for r in errors))
        if problems:
            raise AssertionError("\n".join(problems))

    async def start(self, bot: discord.Client, *, sync: bool = False, timeout: float = 10.0) -> discord.Client:
        """Run ``bot.start()`` in a task and wait until it is ready. ``sync=True`` then calls
        ``await bot.tree.sync()`` (global commands)."""
        state = bot._connection
        if state.guild_ready_timeout > 0.1:
            state.guild_ready_timeout = 0.02  # otherwise every start waits 2 s for more guilds
        task = asyncio.create_task(bot.start("fake-token"), name=f"fakediscord-bot-{id(bot)}")
        deadline = time.monotonic() + timeout
        while not bot.is_ready():
            if task.done():
                exc = task.exception()
                await bot.close()
                raise RuntimeError(
                    f"bot.start() ended before the bot was ready: {exc!r}\n{self._describe_tail()}"
                ) from exc
            if time.monotonic() > deadline:
                await bot.close()
                task.cancel()
                raise FakeTimeout(f"bot not ready after {timeout}s\n{self._describe_tail()}")
            await asyncio.sleep(0.005)
        self._bots[id(bot)] = (bot, task)
        if sync:
            await bot.tree.sync()  # type: ignore[attr-defined]
        return bot

    async def stop(self, bot: discord.Client, timeout: float = 5.0) -> None:
        """Close the bot and wait for ``bot.start()`` to return."""
        entry = self._bots.pop(id(bot), None)
        await bot.close()
        if entry is not None:
            try:
                await asyncio.wait_for(entry[1], timeout)
            except asyncio.CancelledError:
                pass
        # let the server side notice the closed websocket
        for _ in range(100):
            if not any(not c.closed for c in self._conns):
                break
            await asyncio.sleep(0.005)

    # -- gateway
    def _live_conn(self) -> _GatewayConn:
        live = [c for c in self._conns if not c.closed and c.identified.is_set()]
        if not live:
            raise RuntimeError(
                f"no bot is connected to the gateway; did you `await fd.start(bot)`?\n{self._describe_tail()}"
            )
        return live[-1]

    async def dispatch(self, event: str, data: dict) -> None:
        """Send a raw gateway dispatch (op 0) to the connected bot."""
        await self._live_conn().send(0, data, event)

    async def reconnect(self, *, resume: bool = True, timeout: float = 5.0) -> None:
        """Ask the bot to reconnect (op 7 RECONNECT, or op 9 INVALID_SESSION when
        ``resume=False``) and wait until the new connection is resumed/identified.
        Note: discord.py waits 5 s in ``Client.before_identify_hook`` before a re-IDENTIFY;
        override that hook in the test bot to keep ``resume=False`` fast."""
        conn = self._live_conn()
        before = (self.resumes, self.identifies)
        if resume:
            await conn.send(7)
        else:
            self._sessions.discard(conn.session_id or "")
            await conn.send(9, False)
        assert self._notifier is not None
        await self._notifier.wait_until(
            lambda: (
                (self.resumes, self.identifies) != before
                and any(c is not conn and not c.closed and c.identified.is_set() for c in self._conns)
            ),
            timeout,
            self._describe_tail,
            "the bot to reconnect",
        )

    async def say(self, user: FakeUser | int, content: str, *, channel: int | None = None) -> FakeMessage:
        """A user posts a message: stored, and dispatched as MESSAGE_CREATE if the bot has the
        guild messages intent (content blanked without the message content intent, as Discord does)."""
        user = self.user(user)
        cid = int(channel or self.channel_id)
        msg = self._make_message(cid, {"content": content}, [], author=user)
        data = dict(msg.public_data(), guild_id=str(self.guild_id), member=self.member_payload(user, with_user=False))
        conn = self._live_conn()
        if conn.intents & INTENT_GUILD_MESSAGES:
            if not conn.intents & INTENT_MESSAGE_CONTENT and self.bot_user.id not in msg.mentions:
                data.update(content="", embeds=[], attachments=[], components=[])  # privileged intent missing
            await conn.send(0, data, "MESSAGE_CREATE")
        return msg

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        conn = _GatewayConn(ws)
        self._conns.append(conn)
        try:
            await conn.send(10, {"heartbeat_interval": 41250})
            async for msg in ws:
                if msg.type != aiohttp.WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op, d = frame.get("op"), frame.get("d")
                if op == 1:
                    await conn.send(11)
                elif op == 2:
                    conn.session_id = os.urandom(16).hex()
                    conn.shard = (d or {}).get("shard") or [0, 1]
                    conn.intents = int((d or {}).get("intents") or 0)
                    self._sessions.add(conn.session_id)
                    self.identifies += 1
                    await conn.send(0, self._ready_payload(conn), "READY")
                    await conn.send(0, self.guild_payload(conn.intents), "GUILD_CREATE")
                    conn.identified.set()
                    self._touch()
                elif op == 6:
                    if d and d.get("session_id") in self._sessions:
                        conn.session_id = d["session_id"]
                        conn.seq = int(d.get("seq") or 0)
                        self.resumes += 1
                        await conn.send(0, {}, "RESUMED")
                        conn.identified.set()
                        self._touch()
                    else:
                        await conn.send(9, False)
                elif op == 8:
                    await conn.send(
                        0,
                        {
                            "guild_id": str(self.guild_id),
                            "members": [self.member_payload(u) for u in [self.bot_user, *self.users.values()]],
                            "chunk_index": 0,
                            "chunk_count": 1,
                            "not_found": [],
                            "nonce": (d or {}).get("nonce"),
                        },
                        "GUILD_MEMBERS_CHUNK",
                    )
        finally:
            conn.closed = True
            self._touch()
        return ws

    def _ready_payload(self, conn: _GatewayConn) -> dict:
        return {
            "v": 10,
            "user": dict(self.bot_user.user_payload(), verified=True, mfa_enabled=False, email=None),
            "guilds": [{"id": str(self.guild_id), "unavailable": True}],
            "session_id": conn.session_id,
            "resume_gateway_url": str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY),
            "application": {"id": str(self.application_id), "flags": 0},
            "shard": conn.shard,
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "session_type": "normal",
            "auth": {},
            "user_settings": {},
            "_trace": ["fakediscord"],
        }

    # -- interactions
    def _find_command(self, name: str) -> tuple[dict, int | None]:
        for scope in (self.guild_id, None):
            for cmd in self.commands.get(scope, {}).values():
                if cmd.get("type", 1) == 1 and _names(cmd, name):
                    return cmd, scope
        have = sorted({c["name"] for cmds in self.commands.values() for c in cmds.values()})
        raise KeyError(
            f"no synced slash command {name!r}; synced: {have or 'none'} "
            "(did the bot sync? `await fd.start(bot, sync=True)`)"
        )

    def _build_options(
        self, declared: list[dict], given: dict, resolved: dict, *, unchecked: bool, focused: str | None
    ) -> list[dict]:
        by_name: dict[str, dict] = {}
        for opt in declared:
            if opt["type"] in (1, 2):
                continue
            by_name[opt["name"]] = opt
            for loc in (opt.get("name_localizations") or {}).values():
                by_name.setdefault(loc, opt)
        out = []
        for key, value in given.items():
            opt = by_name.get(key)
            if opt is None:
                if unchecked:
                    out.append({"name": key, "type": 3, "value": value})
                    continue
                raise ValueError(f"option {key!r} is not declared; options: {[o['name'] for o in declared]}")
            item: dict[str, Any] = {"name": opt["name"], "type": opt["type"]}
            if focused is not None and opt["name"] == by_name.get(focused, {}).get("name"):
                item["value"] = "" if value is None else str(value)
                item["focused"] = True
            else:
                item["value"] = self._option_value(opt, value, resolved, unchecked)
            out.append(item)
        if not unchecked and focused is None:
            present = {o["name"] for o in out}
            missing = [
                o["name"]
                for o in declared
                if o.get("required") and o["name"] not in present and o["type"] not in (1, 2)
            ]
            if missing:
                raise ValueError(f"required option(s) missing: {missing}")
        return out

    def _option_value(self, opt: dict, value: Any, resolved: dict, unchecked: bool) -> Any:
        t = opt["type"]
        name = opt["name"]
        if t in (6, 7, 8, 9) and isinstance(value, str) and value.isdigit():
            value = int(value)
        if t in (6, 9) and (
            isinstance(value, FakeUser)
            or (isinstance(value, int) and (value in self.users or value == self.bot_user.id))
        ):
            user = self.user(value)
            resolved.setdefault("users", {})[str(user.id)] = user.user_payload()
            resolved.setdefault("members", {})[str(user.id)] = self.member_payload(
                user, with_user=False, permissions=True
            )
            return str(user.id)
        if t in (8, 9):
            for role in self.roles_payload():
                if int(role["id"]) == int(value):
                    resolved.setdefault("roles", {})[role["id"]] = role
                    return role["id"]
            raise ValueError(f"option {name!r}: unknown role/user {value}")
        if t == 7:
            ch = self.channel_payload(int(value))
            resolved.setdefault("channels", {})[ch["id"]] = dict(ch, permissions=str(EVERYONE_PERMS))
            return ch["id"]
        if t == 11:
            filename, data = value if isinstance(value, tuple) else ("file.bin", value)
            aid = str(self._snowflake())
            self._blobs[aid] = data
            size = _png_size(data)
            resolved.setdefault("attachments", {})[aid] = {
                "id": aid,
                "filename": filename,
                "size": len(data),
                "url": f"{self.base_url}/attachments/{aid}/{filename}",
                "proxy_url": f"{self.base_url}/attachments/{aid}/{filename}",
                "content_type": _content_type(filename, None),
                "width": size[0] if size else None,
                "height": size[1] if size else None,
                "ephemeral": True,
            }
            return aid
        if t == 6:
            raise ValueError(f"option {name!r}: unknown user {value}; add it with fd.add_user")
        if unchecked:
            return value
        if t == 3:
            if not isinstance(value, str):
                raise ValueError(f"option {name!r} is a string option, got {value!r}")
            if (
                "min_length" in opt
                and len(value) < opt["min_length"]
                or "max_length" in opt
                and len(value) > opt["max_length"]
            ):
                raise ValueError(
                    f"option {name!r}: length of {value!r} outside {opt.get('min_length')}..{opt.get('max_length')}"
                )
        elif t == 4:
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"option {name!r} is an integer option, got {value!r}")
        elif t == 10:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ValueError(f"option {name!r} is a number option, got {value!r}")
        elif t == 5:
            if not isinstance(value, bool):
                raise ValueError(f"option {name!r} is a boolean option, got {value!r}")
        if t in (4, 10) and (
            ("min_value" in opt and value < opt["min_value"]) or ("max_value" in opt and value > opt["max_value"])
        ):
            raise ValueError(
                f"option {name!r}: {value} outside {opt.get('min_value')}..{opt.get('max_value')} (Discord refuses it; pass unchecked=True to send anyway)"
            )
        if opt.get("choices") and value not in [c["value"] for c in opt["choices"]]:
            raise ValueError(
                f"option {name!r}: {value!r} is not one of the choices {[c['value'] for c in opt['choices']]}"
            )
        return value

    def _command_data(
        self,
        command: str,
        options: dict | None,
        *,
        unchecked: bool,
        focused: str | None,
        user: FakeUser | None = None,
    ) -> dict:
        parts = command.strip().lstrip("/").split()
        if not parts:
            raise ValueError("empty command")
        cmd, scope = self._find_command(parts[0])
        if user is not None and not unchecked and cmd.get("default_member_permissions") not in (None, ""):
            need = int(cmd["default_member_permissions"])
            if need & ~self.permissions_of(user):
                raise PermissionError(
                    f"{user.name} cannot see /{cmd['name']}: it needs permissions {need:#x} "
                    f"(default_member_permissions); pass unchecked=True to send it anyway"
                )
        node = cmd
        chain = []
        for sub in parts[1:]:
            found = next((o for o in node.get("options") or [] if o["type"] in (1, 2) and _names(o, sub)), None)
            if found is None:
                subs = [o["name"] for o in node.get("options") or [] if o["type"] in (1, 2)]
                raise KeyError(f"{node['name']!r} has no subcommand {sub!r}; has: {subs}")
            chain.append(found)
            node = found
        if any(o["type"] in (1, 2) for o in node.get("options") or []):
            subs = [o["name"] for o in node["options"] if o["type"] in (1, 2)]
            raise KeyError(f"{command!r} needs a subcommand: {subs}")
        resolved: dict = {}
        opts = self._build_options(
            node.get("options") or [], dict(options or {}), resolved, unchecked=unchecked, focused=focused
        )
        for sub in reversed(chain):
            opts = [{"name": sub["name"], "type": sub["type"], "options": opts}]
        data: dict[str, Any] = {"id": str(cmd["id"]), "name": cmd["name"], "type": 1}
        if opts:
            data["options"] = opts
        if resolved:
            data["resolved"] = resolved
        if scope is not None:
            data["guild_id"] = str(scope)
        return data

    async def _send_interaction(self, kind: str, user: FakeUser, payload: dict) -> Exchange:
        ex = Exchange(self, kind, user, payload)
        self._exchanges[ex.token] = ex
        ex.dispatched_at = time.monotonic()
        await self.dispatch("INTERACTION_CREATE", payload)
        return ex

    async def slash(
        self,
        user: FakeUser | int,
        command: str,
        options: dict | None = None,
        *,
        locale: str | None = None,
        channel: int | None = None,
        unchecked: bool = False,
        origin: str | int | None = None,
        install: str | None = None,
    ) -> Exchange:
        """Run ``/command sub ...`` as ``user``; returns the Exchange (not yet awaited).
        ``origin``: ``"dm"`` or another guild's id, for a forged or misrouted command
        (Discord itself would not deliver a guild-only command from a DM).
        ``install``: ``"guild"`` (the bot installed to the server) or ``"user"`` (installed to
        ``user``'s own account: with ``origin`` another guild's id, a server the bot is not
        in); then Discord's own checks apply: the synced command must list that
        installation in ``integration_types`` and the place in ``contexts`` (else
        ``PermissionError``), and ``authorizing_integration_owners`` says who installed it."""
        user = self.user(user)
        data = self._command_data(command, options, unchecked=unchecked, focused=None, user=user)
        payload = self.interaction_payload(type=2, user=user, data=data, channel_id=channel, locale=locale)
        if origin is not None:
            self._relocate(payload, user, origin, keep_channel=channel is not None)
        if install is not None:
            self._installed(payload, user, command, install, unchecked=unchecked)
        return await self._send_interaction("command", user, payload)

    def _installed(self, payload: dict, user: FakeUser, command: str, install: str, *, unchecked: bool) -> None:
        """Who installed the command being used, as Discord says it (``authorizing_integration_owners``:
        0 GUILD_INSTALL -> the guild's id, "0" in the bot's DM; 1 USER_INSTALL -> the user's id),
        after Discord's checks of the synced command's ``integration_types`` and ``contexts``."""
        kind = {"guild": 0, "user": 1}[install]
        context = payload["context"]
        cmd, _scope = self._find_command(command.strip().lstrip("/").split()[0])
        types = cmd.get("integration_types") or [0]
        contexts = cmd.get("contexts")
        if not unchecked and (kind not in types or (contexts is not None and context not in contexts)):
            raise PermissionError(
                f"Discord does not offer /{cmd['name']} here: integration_types {types}, contexts {contexts}; "
                f"asked for installation {kind} in context {context}"
            )
        if kind == 0:
            payload["authorizing_integration_owners"] = {"0": payload.get("guild_id", "0")}
        else:
            payload["authorizing_integration_owners"] = {"1": str(user.id)}
            if "guild_id" in payload and int(payload["guild_id"]) != self.guild_id:
                payload["app_permissions"] = str(EVERYONE_PERMS)  # what a user-installed app may do there

    async def autocomplete(
        self,
        user: FakeUser | int,
        command: str,
        options: dict | None = None,
        *,
        focused: str,
        locale: str | None = None,
        channel: int | None = None,
        timeout: float = 3.5,
    ) -> list[dict]:
        """Ask for autocomplete choices while ``focused`` is being typed; returns the choices."""
        user = self.user(user)
        options = dict(options or {})
        options.setdefault(focused, "")
        data = self._command_data(command, options, unchecked=False, focused=focused, user=user)
        payload = self.interaction_payload(type=4, user=user, data=data, channel_id=channel, locale=locale)
        ex = await self._send_interaction("autocomplete", user, payload)
        cb = await ex.wait_ack(timeout)
        if cb.type != 8:
            raise AssertionError(f"autocomplete answered with callback type {cb.type}, expected 8\n{ex.describe()}")
        return cb.data.get("choices", [])

    def message(self, message: FakeMessage | int) -> FakeMessage:
        if isinstance(message, FakeMessage):
            return message
        try:
            return self._messages[int(message)]
        except KeyError:
            raise KeyError(f"unknown message {message}") from None

    async def _component(
        self,
        user: FakeUser | int,
        message: FakeMessage | int | dict,
        custom_id: str,
        values: list | None,
        force: bool,
        locale: str | None,
        origin: str | int | None = None,
        channel: int | None = None,
    ) -> Exchange:
        user = self.user(user)
        snapshot: dict | None = None
        if isinstance(message, dict):  # an earlier state, e.g. board.versions[0]: a client that had not refreshed
            snapshot = message
            msg = self.message(int(message["id"]))
            comp = FakeMessage(self, snapshot, {}).component(custom_id)
        else:
            msg = self.message(message)
            comp = msg.component(custom_id)
        if msg.deleted and not force:
            raise KeyError(f"message {msg.id} was deleted; nobody can click on it")
        if comp is None and not force:
            raise KeyError(f"message {msg.id} has no component {custom_id!r}; it has {msg.custom_ids}")
        if comp is not None and comp.get("disabled") and not force:
            raise ValueError(f"component {custom_id!r} on message {msg.id} is disabled")
        ctype = comp["type"] if comp else (2 if values is None else 3)
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": ctype}
        if comp is not None and "id" in comp:
            data["id"] = comp["id"]
        if values is not None:
            if ctype == 2:
                raise ValueError(f"{custom_id!r} is a button; use fd.click")
            values = [str(v) if not isinstance(v, FakeUser) else str(v.id) for v in values]
            if comp is not None and not force:
                lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
                if not lo <= len(values) <= hi:
                    raise ValueError(f"select {custom_id!r} takes {lo}..{hi} values, got {values}")
                if ctype == 3:
                    allowed = [o["value"] for o in comp.get("options", [])]
                    bad = [v for v in values if v not in allowed]
                    if bad:
                        raise ValueError(f"select {custom_id!r}: {bad} not among options {allowed}")
            data["values"] = values
            if ctype in (5, 6, 7, 8):  # user / role / mentionable / channel selects carry resolved data
                resolved: dict = {}
                option_type = {5: 6, 6: 8, 7: 9, 8: 7}[ctype]
                for v in values:
                    self._option_value({"type": option_type, "name": custom_id}, int(v), resolved, True)
                data["resolved"] = resolved
        elif ctype != 2:
            raise ValueError(f"{custom_id!r} is a select (type {ctype}); use fd.select")
        shown = (
            {k: v for k, v in snapshot.items() if not k.startswith("_")} if snapshot is not None else msg.public_data()
        )
        payload = self.interaction_payload(
            type=3,
            user=user,
            data=data,
            channel_id=channel or (msg.channel_id if msg.channel_id in self.channels else None),
            locale=locale,
            message=shown,
        )
        if origin is not None:
            self._relocate(payload, user, origin, keep_channel=channel is not None)
        ex = await self._send_interaction("component", user, payload)
        ex.original = msg
        return ex

    async def click(
        self,
        user: FakeUser | int,
        message: FakeMessage | int | dict,
        custom_id: str,
        *,
        force: bool = False,
        locale: str | None = None,
        origin: str | int | None = None,
        channel: int | None = None,
    ) -> Exchange:
        """Click button ``custom_id`` on ``message`` as ``user``.  ``origin`` (``"dm"`` or
        another guild's id) and ``channel`` (another channel of this guild) forge where
        the click comes from: a replayed or forged payload."""
        return await self._component(user, message, custom_id, None, force, locale, origin, channel)

    async def select(
        self,
        user: FakeUser | int,
        message: FakeMessage | int | dict,
        custom_id: str,
        values: list,
        *,
        force: bool = False,
        locale: str | None = None,
        origin: str | int | None = None,
        channel: int | None = None,
    ) -> Exchange:
        """Choose ``values`` in select menu ``custom_id`` on ``message`` as ``user`` (``origin``,
        ``channel``: as for :meth:`click`)."""
        return await self._component(user, message, custom_id, list(values), force, locale, origin, channel)

    async def submit_modal(
        self, user: FakeUser | int, exchange: Exchange, values: dict[str, Any], *, locale: str | None = None
    ) -> Exchange:
        """Submit the modal that ``exchange`` answered with (callback type 9)."""
        user = self.user(user)
        modal = exchange.modal
        if modal is None:
            raise AssertionError(f"that interaction did not open a modal\n{exchange.describe()}")

        def answer(comp: dict) -> dict:
            out = {"type": comp["type"], "custom_id": comp.get("custom_id")}
            if "id" in comp:
                out["id"] = comp["id"]
            v = values.get(comp.get("custom_id"), comp.get("value", ""))
            if comp["type"] == 4:
                out["value"] = "" if v is None else str(v)
            else:
                out["values"] = [str(x) for x in (v if isinstance(v, list) else [v])]
            return out

        comps = []
        for top in modal.get("components", []):
            if top.get("type") == 1:
                comps.append({"type": 1, "components": [answer(c) for c in top.get("components", [])]})
            elif top.get("type") == 18 and isinstance(top.get("component"), dict):
                comps.append({"type": 18, "component": answer(top["component"])})
        unknown = set(values) - {c.get("custom_id") for c in walk_components(modal.get("components", []))}
        if unknown:
            raise KeyError(f"modal has no fields {sorted(unknown)}")
        data = {"custom_id": modal["custom_id"], "components": comps}
        cid = int(exchange.payload["channel_id"])
        msg = exchange.payload.get("message")
        payload = self.interaction_payload(type=5, user=user, data=data, channel_id=cid, locale=locale, message=msg)
        ex = await self._send_interaction("modal", user, payload)
        if msg is not None:
            ex.original = self._messages.get(int(msg["id"]))
        return ex

    # -- messages
    def messages(self, channel_id: int | None = None, *, ephemeral: bool = False) -> list[FakeMessage]:
        """Messages in a channel (default: fd.channel_id), oldest first. Ephemeral ones only if asked."""
        cid = int(channel_id or self.channel_id)
        return [m for m in self._channel_messages.get(cid, []) if not m.deleted and (ephemeral or not m.ephemeral)]

    def dm_channel(self, user: FakeUser | int) -> int | None:
        """The id of the DM channel the bot opened with ``user`` (``fd.messages(id)`` lists it)."""
        uid = str(self.user(user).id)
        for cid, ch in self.channels.items():
            if ch["type"] == 1 and ch["recipients"][0]["id"] == uid:
                return cid
        return None

    def attachment(self, attachment: dict | int | str) -> bytes:
        """Bytes of any attachment FakeDiscord stored: an attachment object, its id, or its URL."""
        if isinstance(attachment, dict):
            attachment = attachment["id"]
        key = str(attachment)
        if key.startswith("http"):
            key = yarl.URL(key).parts[-2]
        try:
            return self._blobs[key]
        except KeyError:
            raise KeyError(f"no stored attachment {attachment!r}") from None

    @property
    def all_messages(self) -> list[FakeMessage]:
        return list(self._messages.values())

    @property
    def message_requests(self) -> list[Request]:
        """Every request that created or edited a message (``Request.message_body``,
        ``Request.allowed_mentions``), in order."""
        return [r for r in self.requests if r.message_body is not None]

    @property
    def posted_images(self) -> list[dict]:
        """Every image the bot uploaded in a message (created or edited), in order, as its
        attachment's metadata in the payload: ``filename``, ``description`` (None: none sent),
        ``path`` (the request's).  What a screen reader gets of each image (issue 33)."""
        out = []
        for r in self.message_requests:
            body = r.message_body or {}
            meta = {str(a.get("id")): a for a in body.get("attachments") or [] if isinstance(a, dict)}
            for f in r.files:
                kind = _content_type(f.filename, f.content_type) or ""
                if not kind.startswith("image/"):
                    continue
                a = meta.get(f.field.removeprefix("files[").removesuffix("]"), {})
                out.append(
                    {"filename": a.get("filename") or f.filename, "description": a.get("description"), "path": r.path}
                )
        return out

    def images_described(self) -> tuple[int, int]:
        """(images posted, images posted with a description): a benchmark's count."""
        images = self.posted_images
        return len(images), sum(1 for a in images if isinstance(a["description"], str) and a["description"].strip())

    async def wait_message(
        self,
        channel_id: int | None = None,
        predicate: Callable[[FakeMessage], Any] | None = None,
        *,
        after: float | None = None,
        timeout: float = 5.0,
    ) -> FakeMessage:
        """Wait for a (non-ephemeral) message in a channel matching ``predicate``, created after
        monotonic time ``after`` (default: any)."""

        def find() -> FakeMessage | None:
            for m in self.messages(channel_id):
                if (after is None or m.created_at >= after) and (predicate is None or predicate(m)):
                    return m
            return None

        assert self._notifier is not None
        return await self._notifier.wait_until(
            find, timeout, self._describe_tail, f"a message in channel {channel_id or self.channel_id}"
        )

    def _touch(self) -> None:
        self._last_activity = time.monotonic()
        if self._notifier is not None:
            self._notifier.notify()

    def _describe_tail(self) -> str:
        lines = [f"  last requests: {[f'{r.method} {r.path} -> {r.status}' for r in self.requests[-8:]]}"]
        if self.unhandled:
            lines.append(f"  unhandled: {[f'{r.method} {r.path}' for r in self.unhandled[-5:]]}")
        if self.violations:
            lines.append(f"  spec violations: {self.violations[-3:]}")
        if self.server_errors:
            lines.append(f"  FakeDiscord errors: {self.server_errors[-3:]}")
        for rec in self.bot_errors[-3:]:
            lines.append(f"  bot logged {_format_record(rec)}")
        return "\n".join(lines)

    def _make_message(
        self,
        channel_id: int,
        body: dict,
        files: list[UploadedFile],
        *,
        author: FakeUser | None = None,
        interaction: Exchange | None = None,
        flags: int | None = None,
        mtype: int = 0,
    ) -> FakeMessage:
        mid = self._snowflake()
        author = author or self.bot_user
        data: dict[str, Any] = {
            "id": str(mid),
            "channel_id": str(channel_id),
            "type": mtype,
            "author": author.user_payload(),
            "content": "",
            "timestamp": _now_iso(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "mention_channels": [],
            "attachments": [],
            "embeds": [],
            "components": [],
            "pinned": False,
            "flags": 0,
            "reactions": [],
        }
        if interaction is not None:
            data["webhook_id"] = str(self.application_id)
            data["application_id"] = str(self.application_id)
            data["interaction_metadata"] = {
                "id": str(interaction.interaction_id),
                "type": interaction.payload["type"],
                "user": interaction.user.user_payload(),
                "authorizing_integration_owners": {"0": str(self.guild_id)},
            }
        msg = FakeMessage(self, data, {})
        self._apply_body(msg, body, files, new=True)
        if flags is not None:
            data["flags"] = flags
        data["_pinged"] = [] if msg.ephemeral else msg._mentions_allowed()
        self._messages[mid] = msg
        self._channel_messages.setdefault(int(channel_id), []).append(msg)
        ch = self.channels.get(int(channel_id))
        if ch is not None:
            ch["last_message_id"] = str(mid)
            if "message_count" in ch:
                ch["message_count"] += 1
                ch["total_message_sent"] = ch.get("total_message_sent", 0) + 1
        return msg

    def _apply_body(self, msg: FakeMessage, body: dict, files: list[UploadedFile], *, new: bool = False) -> None:
        data = msg.data
        if not new:
            msg.versions.append(copy.deepcopy(data))
            data["edited_timestamp"] = _now_iso()
        body = body or {}
        for key in ("content", "embeds", "components", "tts", "poll"):
            if key in body and body[key] is not None:
                data[key] = str(body[key]) if key == "content" else copy.deepcopy(body[key])
            elif key in body and body[key] is None and key != "tts":
                data[key] = "" if key == "content" else []
        if "flags" in body and body["flags"] is not None:
            data["flags"] = (int(body["flags"]) & ~LOADING) | (data.get("flags", 0) & EPHEMERAL)
        if "allowed_mentions" in body:
            data["_allowed_mentions"] = body["allowed_mentions"]
        if "message_reference" in body and body["message_reference"]:
            data["message_reference"] = dict(body["message_reference"], channel_id=str(data["channel_id"]))
            data["type"] = 19
        data["mentions"] = [self.users[i].user_payload() for i in msg.mentions if i in self.users]
        if "attachments" in body or files:
            by_field = {f.field: f for f in files}
            kept = []
            existing = {str(a["id"]): a for a in data.get("attachments", [])}
            meta = body.get("attachments")
            if meta is None:
                meta = [] if new else [dict(id=a["id"]) for a in data.get("attachments", [])]
                meta += [{"id": i, "filename": f.filename} for i, f in enumerate(files)]
            for a in meta:
                aid = str(a.get("id"))
                if aid in existing and f"files[{aid}]" not in by_field:
                    kept.append(existing[aid])
                    continue
                upload = by_field.get(f"files[{aid}]")
                if upload is None:
                    continue
                new_id = str(self._snowflake())
                filename = a.get("filename") or upload.filename
                size = _png_size(upload.data)
                url = f"{self.base_url}/attachments/{new_id}/{quote(filename)}"
                att = {
                    "id": new_id,
                    "filename": filename,
                    "size": len(upload.data),
                    "url": url,
                    "proxy_url": url,
                    "content_type": _content_type(filename, upload.content_type),
                }
                if size:
                    att["width"], att["height"] = size
                if a.get("description"):
                    att["description"] = a["description"]
                self._blobs[new_id] = upload.data
                msg.files[new_id] = upload.data
                kept.append(att)
            data["attachments"] = kept
        by_name = {a["filename"]: a["url"] for a in data.get("attachments", [])}
        for emb in data.get("embeds") or []:
            emb.setdefault("type", "rich")
            for key in ("image", "thumbnail"):
                url = (emb.get(key) or {}).get("url", "")
                if url.startswith("attachment://") and url[13:] in by_name:
                    emb[key] = dict(emb[key], url=by_name[url[13:]], proxy_url=by_name[url[13:]])
        comp_id = itertools.count(1)
        for c in walk_components(data.get("components") or []):
            c.setdefault("id", next(comp_id))
            medias = [item.get("media") for item in c.get("items") or []] if c.get("type") == 12 else []
            if c.get("type") in (11, 13):  # thumbnail, file
                medias.append(c.get("media") if c.get("type") == 11 else c.get("file"))
            for media in medias:
                url = (media or {}).get("url", "")
                if url.startswith("attachment://"):
                    if url[13:] not in by_name:
                        self.server_errors.append(f"components: {url} names no attachment of the message")
                        continue
                    media.update(url=by_name[url[13:]], proxy_url=by_name[url[13:]])

    # -- REST
    async def _cdn(self, request: web.Request) -> web.Response:
        data = self._blobs.get(request.match_info["aid"])
        if data is None:
            return web.Response(status=404)
        return web.Response(body=data, headers={"Content-Type": _content_type(request.match_info["filename"], None)})

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        method = request.method
        body: Any = None
        files: list[UploadedFile] = []
        multipart = False
        if request.content_type.startswith("multipart/"):
            multipart = True
            reader = await request.multipart()
            async for part in reader:
                if part.name == "payload_json":
                    body = json.loads(await part.text())
                else:
                    files.append(
                        UploadedFile(
                            part.name or "",
                            part.filename or "",
                            part.headers.get("Content-Type"),
                            bytes(await part.read()),
                        )
                    )
        elif request.can_read_body:
            raw = await request.read()
            if raw:
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = raw.decode("utf-8", "replace")
                    self._violations.append(f"{method} {path}: body is not JSON: {body[:100]!r}")
        rec = Request(method, path, dict(request.query), body, files, time.monotonic())
        self.requests.append(rec)
        if self._spec is not None:
            rec.route = self._spec.match(path)
            self._unchecked.append((rec.method, rec.path, copy.deepcopy(body), multipart))
        fault = self._fault_for(rec)
        try:
            if fault is not None and not fault[7]:
                response = _error(fault[2], fault[3], fault[4])
            else:
                response = await self._route(rec)
                if fault is not None:  # served, but the reply is lost on the way back
                    if fault[7] == "drop":
                        rec.status = 0
                        self._touch()
                        if request.transport is not None:
                            request.transport.close()
                        return web.Response(status=204)
                    response = _error(fault[2], fault[3], fault[4])
        except _HTTPError as err:
            response = _error(err.status, err.code, err.message)
            if err.exchange is not None:
                err.exchange.errors.append((err.status, err.message))
                err.exchange._touch(f"answered {err.status} {err.message}")
        except Exception as exc:  # a bug or a gap in FakeDiscord: answer 500, keep the evidence
            _log.exception("FakeDiscord failed on %s %s", method, path)
            self.server_errors.append(f"{method} {path}: {type(exc).__name__}: {exc}")
            response = _error(500, 0, f"FakeDiscord error: {type(exc).__name__}: {exc}")
        if response is None:
            self.unhandled.append(rec)
            response = _error(404, 0, f"404: Not Found (FakeDiscord does not serve {method} {path})")
        rec.status = response.status
        self._touch()
        return response

    async def _route(self, rec: Request) -> web.Response | None:
        for method, regex, handler in _ROUTES:
            if method == rec.method:
                m = regex.match(rec.path)
                if m:
                    return await handler(self, rec, **m.groupdict())
        return None

    def _exchange(self, token: str) -> Exchange:
        ex = self._exchanges.get(token)
        if ex is None:
            raise _HTTPError(404, 10015, "Unknown Webhook")
        if ex.expired:
            raise _HTTPError(401, 50027, "Invalid Webhook Token", ex)
        return ex


def _format_record(rec: logging.LogRecord) -> str:
    text = f"{rec.levelname} ({rec.name}): {rec.getMessage()}"
    exc = rec.exc_info[1] if rec.exc_info else None
    while exc is not None:  # CommandInvokeError -> the original exception
        text += f" <- {type(exc).__name__}: {exc}"
        exc = exc.__cause__
    return text


class _HTTPError(Exception):
    def __init__(self, status: int, code: int, message: str, exchange: Exchange | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.exchange = status, code, message, exchange


#: component types allowed at the top level of a message with IS_COMPONENTS_V2
#: (action row, section, text display, media gallery, file, separator, container)
V2_TOP_LEVEL = {1, 9, 10, 12, 13, 14, 17}
V2_MAX_COMPONENTS = 40
V2_MAX_TEXT = 4000


def _v2_check(body: dict, old_flags: int | None, ex: Exchange | None = None) -> None:
    """Discord's rules for Components V2 (Discord's docs, "Using Message
    Components": IS_COMPONENTS_V2): with the flag, no ``content``, ``embeds``,
    ``poll`` or ``stickers``; at most 40 components in all and 4000 characters
    of text displays; the flag, once set, cannot be removed by an edit.  Without
    it, only action rows at the top level.  Raises the 400 Discord answers."""
    if not isinstance(body, dict):
        return
    flags = body.get("flags")
    v2 = bool(int(flags or 0) & COMPONENTS_V2) if flags is not None else bool((old_flags or 0) & COMPONENTS_V2)
    if old_flags is not None and old_flags & COMPONENTS_V2 and flags is not None and not int(flags) & COMPONENTS_V2:
        raise _HTTPError(400, 50035, "Invalid Form Body: flags: the IS_COMPONENTS_V2 flag cannot be removed", ex)
    comps = body.get("components")
    if v2:
        for key in ("content", "embeds", "poll", "sticker_ids"):
            if body.get(key):
                raise _HTTPError(
                    400, 50035, f"Invalid Form Body: {key}: cannot be used with the IS_COMPONENTS_V2 flag", ex
                )
        if comps:
            for c in comps:
                if c.get("type") not in V2_TOP_LEVEL:
                    raise _HTTPError(
                        400, 50035, f"Invalid Form Body: components: type {c.get('type')} at top level", ex
                    )
            every = list(walk_components(comps))
            if len(every) > V2_MAX_COMPONENTS:
                raise _HTTPError(
                    400, 50035, f"Invalid Form Body: components: {len(every)} > {V2_MAX_COMPONENTS} components", ex
                )
            text = sum(len(c.get("content") or "") for c in every if c.get("type") == 10)
            if text > V2_MAX_TEXT:
                raise _HTTPError(
                    400, 50035, f"Invalid Form Body: components: {text} > {V2_MAX_TEXT} characters of text", ex
                )
    elif comps:
        for c in comps:
            if c.get("type") != 1:
                raise _HTTPError(
                    400,
                    50035,
                    f"Invalid Form Body: components: type {c.get('type')} needs the IS_COMPONENTS_V2 flag",
                    ex,
                )


def _is_empty(body: dict, files: list) -> bool:
    return not (
        body.get("content")
        or body.get("embeds")
        or body.get("components")
        or files
        or body.get("sticker_ids")
        or body.get("poll")
    )


def _names(obj: dict, name: str) -> bool:
    return name == obj.get("name") or name in (obj.get("name_localizations") or {}).values()


# REST handlers: (method, path regex, coroutine(fd, rec, **groups) -> Response)
_ROUTES: list[tuple[str, re.Pattern, Callable]] = []


def _handles(method: str, pattern: str) -> Callable:
    def deco(fn: Callable) -> Callable:
        _ROUTES.append((method, re.compile("^" + pattern + "$"), fn))
        return fn

    return deco


_ID = r"(?P<{}>\d+)"
_TOKEN = r"(?P<token>[^/]+)"


@_handles("GET", "/users/@me")
async def _users_me(fd: FakeDiscord, rec: Request) -> web.Response:
    return _json_response(
        dict(fd.bot_user.user_payload(), verified=True, mfa_enabled=False, email=None, locale="en-US")
    )


@_handles("GET", r"/users/(?P<uid>\d+)")
async def _get_user(fd: FakeDiscord, rec: Request, uid: str) -> web.Response:
    if int(uid) == fd.bot_user.id:
        return _json_response(fd.bot_user.user_payload())
    if int(uid) not in fd.users:
        return _error(404, 10013, "Unknown User")
    return _json_response(fd.users[int(uid)].user_payload())


@_handles("GET", "/oauth2/applications/@me")
@_handles("GET", "/applications/@me")
async def _app_me(fd: FakeDiscord, rec: Request) -> web.Response:
    return _json_response(fd.app_payload())


@_handles("GET", "/gateway")
async def _gateway_url(fd: FakeDiscord, rec: Request) -> web.Response:
    return _json_response({"url": str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)})


@_handles("GET", "/gateway/bot")
async def _gateway_bot(fd: FakeDiscord, rec: Request) -> web.Response:
    return _json_response(
        {
            "url": str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY),
            "shards": 1,
            "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1},
        }
    )


def _store_command(fd: FakeDiscord, scope: int | None, body: dict, existing: dict | None = None) -> dict:
    cmds = fd.commands.setdefault(scope, {})
    if existing is None:
        existing = next(
            (c for c in cmds.values() if c["name"] == body["name"] and c.get("type", 1) == body.get("type", 1)), None
        )
    cid = int(existing["id"]) if existing else fd._snowflake()
    cmd = {
        "id": str(cid),
        "application_id": str(fd.application_id),
        "version": str(fd._snowflake()),
        "type": body.get("type", 1),
        "name": body["name"],
        "description": body.get("description", ""),
        "name_localizations": body.get("name_localizations"),
        "description_localizations": body.get("description_localizations"),
        "options": copy.deepcopy(body.get("options") or []),
        "default_member_permissions": body.get("default_member_permissions"),
        "dm_permission": body.get("dm_permission", True),
        "nsfw": body.get("nsfw", False),
        "contexts": body.get("contexts"),
        "integration_types": body.get("integration_types") or [0],
    }
    if scope is not None:
        cmd["guild_id"] = str(scope)
    cmds[cid] = cmd
    return cmd


def _scope(guild_id: str | None) -> int | None:
    return int(guild_id) if guild_id else None


@_handles("PUT", r"/applications/\d+(?:/guilds/(?P<guild_id>\d+))?/commands")
async def _put_commands(fd: FakeDiscord, rec: Request, guild_id: str | None) -> web.Response:
    scope = _scope(guild_id)
    old = fd.commands.get(scope, {})
    fd.commands[scope] = {}
    out = []
    for body in rec.json or []:
        prev = next(
            (c for c in old.values() if c["name"] == body["name"] and c.get("type", 1) == body.get("type", 1)), None
        )
        if prev is not None:
            fd.commands[scope][int(prev["id"])] = prev
        out.append(_store_command(fd, scope, body, prev))
    return _json_response(out)


@_handles("GET", r"/applications/\d+(?:/guilds/(?P<guild_id>\d+))?/commands")
async def _get_commands(fd: FakeDiscord, rec: Request, guild_id: str | None) -> web.Response:
    return _json_response(list(fd.commands.get(_scope(guild_id), {}).values()))


@_handles("POST", r"/applications/\d+(?:/guilds/(?P<guild_id>\d+))?/commands")
async def _post_command(fd: FakeDiscord, rec: Request, guild_id: str | None) -> web.Response:
    return _json_response(_store_command(fd, _scope(guild_id), rec.json or {}), 201)


@_handles("GET", r"/applications/\d+(?:/guilds/(?P<guild_id>\d+))?/commands/(?P<cid>\d+)")
async def _get_command(fd: FakeDiscord, rec: Request, guild_id: str | None, cid: str) -> web.Response:
    cmd = fd.commands.get(_scope(guild_id), {}).get(int(cid))
    return _json_response(cmd) if cmd else _error(404, 10063, "Unknown application command")


@_handles("PATCH", r"/applications/\d+(?:/guilds/(?P<guild_id>\d+))?/commands/(?P<cid>\d+)")
async def _patch_command(fd: FakeDiscord, rec: Request, guild_id: str | None, cid: str) -> web.Response:
    cmd = fd.commands.get(_scope(guild_id), {}).get(int(cid))
    if not cmd:
        return _error(404, 10063, "Unknown application command")
    return _json_response(_store_command(fd, _scope(guild_id), dict(cmd, **(rec.json or {})), cmd))


@_handles("DELETE", r"/applications/\d+(?:/guilds/(?P<guild_id>\d+))?/commands/(?P<cid>\d+)")
async def _delete_command(fd: FakeDiscord, rec: Request, guild_id: str | None, cid: str) -> web.Response:
    fd.commands.get(_scope(guild_id), {}).pop(int(cid), None)
    return web.Response(status=204)


def _channel_or_404(fd: FakeDiscord, cid: str) -> dict:
    ch = fd.channels.get(int(cid))
    if ch is None:
        raise _HTTPError(404, 10003, "Unknown Channel")
    return ch


@_handles("GET", r"/channels/(?P<cid>\d+)")
async def _get_channel(fd: FakeDiscord, rec: Request, cid: str) -> web.Response:
    return _json_response(_channel_or_404(fd, cid))


@_handles("PATCH", r"/channels/(?P<cid>\d+)")
async def _patch_channel(fd: FakeDiscord, rec: Request, cid: str) -> web.Response:
    ch = _channel_or_404(fd, cid)
    body = rec.json or {}
    for key in ("name", "topic", "rate_limit_per_user", "nsfw"):
        if key in body:
            ch[key] = body[key]
    if "applied_tags" in body and "thread_metadata" in ch:
        parent = fd.channels.get(int(ch["parent_id"])) or {}
        known = {t["id"] for t in parent.get("available_tags", [])}
        tags = [str(t) for t in body["applied_tags"] or []]
        if not set(tags) <= known or len(tags) > 5:
            return _error(400, 50035, "Invalid Form Body (applied_tags)")
        ch["applied_tags"] = tags
    if "thread_metadata" in ch:
        for key in ("archived", "locked", "auto_archive_duration"):
            if key in body:
                ch["thread_metadata"][key] = body[key]
    return _json_response(ch)


@_handles("DELETE", r"/channels/(?P<cid>\d+)")
async def _delete_channel(fd: FakeDiscord, rec: Request, cid: str) -> web.Response:
    ch = _channel_or_404(fd, cid)
    del fd.channels[int(cid)]
    return _json_response(ch)


@_handles("POST", r"/channels/(?P<cid>\d+)/typing")
async def _typing(fd: FakeDiscord, rec: Request, cid: str) -> web.Response:
    _channel_or_404(fd, cid)
    return web.Response(status=204)


@_handles("POST", r"/channels/(?P<cid>\d+)/messages")
async def _post_message(fd: FakeDiscord, rec: Request, cid: str) -> web.Response:
    _channel_or_404(fd, cid)
    body = rec.json or {}
    ch = fd.channels[int(cid)]
    if ch["type"] != 1:
        fd._require(P_SEND_IN_THREADS if ch["type"] in (10, 11, 12) else P_SEND, "send messages")
        if rec.files:
            fd._require(P_ATTACH, "attach files")
    if _is_empty(body, rec.files):
        return _error(400, 50006, "Cannot send an empty message")
    _v2_check(body, None)
    nonce = body.get("nonce")
    key = (fd.bot_user.id, str(nonce))
    if nonce is not None and body.get("enforce_nonce"):
        # "checked for uniqueness in the past few minutes. If another message was created by the
        # same author with the same nonce, that message will be returned" (Create Message)
        hit = fd._nonces.get(key)
        if hit is not None and fd.clock() - hit[1] < fd.nonce_window:
            if hit[0].deleted:
                return _error(404, 10008, "Unknown Message")
            fd.nonce_repeats += 1
            return _json_response(hit[0].public_data())
    msg = fd._make_message(int(cid), body, rec.files)
    if nonce is not None:
        msg.data["nonce"] = str(nonce)
        fd._nonces[key] = (msg, fd.clock())
    return _json_response(msg.public_data())


@_handles("GET", r"/channels/(?P<cid>\d+)/messages")
async def _list_messages(fd: FakeDiscord, rec: Request, cid: str) -> web.Response:
    _channel_or_404(fd, cid)
    msgs = list(reversed(fd.messages(int(cid))))  # newest first
    if "before" in rec.query:
        msgs = [m for m in msgs if m.id < int(rec.query["before"])]
    if "after" in rec.query:
        msgs = [m for m in msgs if m.id > int(rec.query["after"])]
    limit = int(rec.query.get("limit", 50))
    return _json_response([m.public_data() for m in msgs[:limit]])


def _message_or_404(fd: FakeDiscord, cid: str, mid: str) -> FakeMessage:
    msg = fd._messages.get(int(mid))
    if msg is None or msg.deleted or msg.channel_id != int(cid) or msg.ephemeral:
        raise _HTTPError(404, 10008, "Unknown Message")  # ephemeral ones exist only for their token
    return msg


@_handles("GET", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)")
async def _get_message(fd: FakeDiscord, rec: Request, cid: str, mid: str) -> web.Response:
    return _json_response(_message_or_404(fd, cid, mid).public_data())


@_handles("PATCH", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)")
async def _patch_message(fd: FakeDiscord, rec: Request, cid: str, mid: str) -> web.Response:
    msg = _message_or_404(fd, cid, mid)
    if int(msg.data["author"]["id"]) != fd.bot_user.id:
        return _error(403, 50005, "Cannot edit a message authored by another user")
    _v2_check(rec.json or {}, msg.flags)
    fd._apply_body(msg, rec.json or {}, rec.files)
    return _json_response(msg.public_data())


@_handles("DELETE", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)")
async def _delete_message(fd: FakeDiscord, rec: Request, cid: str, mid: str) -> web.Response:
    _message_or_404(fd, cid, mid).deleted = True
    return web.Response(status=204)


@_handles("PUT", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)/reactions/(?P<emoji>[^/]+)/@me")
async def _react(fd: FakeDiscord, rec: Request, cid: str, mid: str, emoji: str) -> web.Response:
    _message_or_404(fd, cid, mid)
    return web.Response(status=204)


def _new_thread(fd: FakeDiscord, parent: dict, body: dict, message_id: int | None = None) -> dict:
    tid = message_id or fd._snowflake()
    ttype = 11 if message_id else int(body.get("type") or 12)
    thread = {
        "id": str(tid),
        "type": ttype,
        "guild_id": str(fd.guild_id),
        "parent_id": parent["id"],
        "owner_id": str(fd.bot_user.id),
        "name": body.get("name", "thread"),
        "last_message_id": None,
        "rate_limit_per_user": body.get("rate_limit_per_user") or 0,
        "message_count": 0,
        "member_count": 1,
        "total_message_sent": 0,
        "flags": 0,
        "applied_tags": [],
        "thread_metadata": {
            "archived": False,
            "auto_archive_duration": body.get("auto_archive_duration") or 4320,
            "archive_timestamp": _now_iso(),
            "locked": False,
            "create_timestamp": _now_iso(),
            **({"invitable": body.get("invitable", True)} if ttype == 12 else {}),
        },
        "member": {"id": str(tid), "user_id": str(fd.bot_user.id), "join_timestamp": _now_iso(), "flags": 0},
    }
    fd.channels[tid] = thread
    fd.threads.append(thread)
    return thread


@_handles("POST", r"/channels/(?P<cid>\d+)/threads")
async def _create_thread(fd: FakeDiscord, rec: Request, cid: str) -> web.Response:
    parent = _channel_or_404(fd, cid)
    if parent["type"] in (15, 16):  # a forum post: a public thread opened by its first message
        fd._require(P_SEND, "create forum posts")
        body = dict(rec.json or {})
        first = body.get("message") or {}
        if _is_empty(first, rec.files):
            return _error(400, 50006, "Cannot send an empty message")
        known = {t["id"] for t in parent.get("available_tags", [])}
        tags = [str(t) for t in body.get("applied_tags") or []]
        if not set(tags) <= known or len(tags) > 5:
            return _error(400, 50035, "Invalid Form Body (applied_tags)")
        thread = _new_thread(fd, parent, {**body, "type": 11})
        thread["applied_tags"] = tags
        msg = fd._make_message(int(thread["id"]), first, rec.files)
        thread["last_message_id"] = str(msg.id)
        await fd._dispatch_if_connected("THREAD_CREATE", dict(thread, newly_created=True), INTENT_GUILDS)
        return _json_response({**thread, "message": msg.public_data()}, 201)
    private = int((rec.json or {}).get("type") or 12) == 12
    fd._require(P_CREATE_PRIVATE_THREADS if private else P_CREATE_PUBLIC_THREADS, "create threads")
    thread = _new_thread(fd, parent, rec.json or {})
    await fd._dispatch_if_connected("THREAD_CREATE", dict(thread, newly_created=True), INTENT_GUILDS)
    return _json_response(thread, 201)


@_handles("POST", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)/threads")
async def _create_thread_from_message(fd: FakeDiscord, rec: Request, cid: str, mid: str) -> web.Response:
    parent = _channel_or_404(fd, cid)
    msg = _message_or_404(fd, cid, mid)
    fd._require(P_CREATE_PUBLIC_THREADS, "create threads")
    thread = _new_thread(fd, parent, rec.json or {}, message_id=msg.id)
    msg.data["thread"] = thread
    await fd._dispatch_if_connected("THREAD_CREATE", dict(thread, newly_created=True), INTENT_GUILDS)
    return _json_response(thread, 201)


@_handles("PUT", r"/channels/(?P<cid>\d+)/thread-members/(?P<uid>@me|\d+)")
async def _join_thread(fd: FakeDiscord, rec: Request, cid: str, uid: str) -> web.Response:
    ch = _channel_or_404(fd, cid)
    members = fd.thread_members.setdefault(int(cid), {fd.bot_user.id})
    members.add(fd.bot_user.id if uid == "@me" else int(uid))
    if "member_count" in ch:
        ch["member_count"] = len(members)
    return web.Response(status=204)


@_handles("GET", r"/guilds/(?P<gid>\d+)")
async def _get_guild(fd: FakeDiscord, rec: Request, gid: str) -> web.Response:
    g = fd.guild_payload()
    for key in ("members", "channels", "threads", "presences", "voice_states"):
        g.pop(key, None)
    return _json_response(g)


@_handles("POST", r"/guilds/(?P<gid>\d+)/roles")
async def _create_role(fd: FakeDiscord, rec: Request, gid: str) -> web.Response:
    fd._require(P_MANAGE_ROLES, "manage roles")
    body = rec.json or {}
    role = {
        "id": str(fd._snowflake()),
        "name": str(body.get("name") or "new role")[:100],
        "color": int(body.get("color") or 0),
        "colors": {"primary_color": int(body.get("color") or 0), "secondary_color": None, "tertiary_color": None},
        "hoist": bool(body.get("hoist")),
        "icon": None,
        "unicode_emoji": None,
        "position": 1,
        "permissions": str(body.get("permissions") or 0),
        "managed": False,
        "mentionable": bool(body.get("mentionable")),
        "flags": 0,
        "tags": {},
    }
    fd.roles.append(role)
    await fd._dispatch_if_connected("GUILD_ROLE_CREATE", {"guild_id": str(fd.guild_id), "role": role}, INTENT_GUILDS)
    return _json_response(role)


@_handles("PUT", r"/guilds/(?P<gid>\d+)/members/(?P<uid>\d+)/roles/(?P<rid>\d+)")
async def _add_member_role(fd: FakeDiscord, rec: Request, gid: str, uid: str, rid: str) -> web.Response:
    fd._require(P_MANAGE_ROLES, "manage roles")
    if not any(r["id"] == rid for r in fd.roles_payload()):
        return _error(404, 10011, "Unknown Role")
    user = fd.users.get(int(uid))
    if user is None:
        return _error(404, 10007, "Unknown Member")
    if int(rid) not in user.roles:
        user.roles.append(int(rid))
    return web.Response(status=204)


@_handles("GET", r"/guilds/(?P<gid>\d+)/channels")
async def _get_guild_channels(fd: FakeDiscord, rec: Request, gid: str) -> web.Response:
    return _json_response([c for c in fd.channels.values() if c["type"] not in (10, 11, 12)])


@_handles("GET", r"/guilds/(?P<gid>\d+)/members/(?P<uid>\d+)")
async def _get_member(fd: FakeDiscord, rec: Request, gid: str, uid: str) -> web.Response:
    user = fd.bot_user if int(uid) == fd.bot_user.id else fd.users.get(int(uid))
    if user is None:
        return _error(404, 10007, "Unknown Member")
    return _json_response(fd.member_payload(user))


@_handles("POST", "/users/@me/channels")
async def _open_dm(fd: FakeDiscord, rec: Request) -> web.Response:
    uid = int((rec.json or {}).get("recipient_id", 0))
    if uid not in fd.users:
        return _error(400, 50007, "Cannot send messages to this user")
    for ch in fd.channels.values():
        if ch["type"] == 1 and ch["recipients"][0]["id"] == str(uid):
            return _json_response(ch)
    cid = fd._snowflake()
    ch = {"id": str(cid), "type": 1, "last_message_id": None, "flags": 0, "recipients": [fd.users[uid].user_payload()]}
    fd.channels[cid] = ch
    return _json_response(ch)


# -- interactions and their webhooks


@_handles("POST", r"/interactions/(?P<iid>\d+)/(?P<token>[^/]+)/callback")
async def _callback(fd: FakeDiscord, rec: Request, iid: str, token: str) -> web.Response:
    ex = fd._exchanges.get(token)
    if ex is None or ex.interaction_id != int(iid):
        return _error(404, 10062, "Unknown interaction")
    body = rec.json or {}
    ctype = int(body.get("type", 0))
    data = body.get("data") or {}
    if ex.callback is not None:
        raise _HTTPError(400, 40060, "Interaction has already been acknowledged.", ex)
    late = rec.at - ex.dispatched_at
    if late > fd.ack_deadline:
        raise _HTTPError(404, 10062, f"Unknown interaction (acknowledged after {late:.2f}s > {fd.ack_deadline}s)", ex)
    allowed = {"command": {4, 5, 9}, "autocomplete": {8}, "component": {4, 5, 6, 7, 9}, "modal": {4, 5, 6, 7}}[ex.kind]
    if ctype not in allowed:
        raise _HTTPError(
            400, 50035, f"Invalid Form Body: callback type {ctype} not allowed for a {ex.kind} interaction", ex
        )
    if ctype == 7 and ex.original is None:
        raise _HTTPError(
            400, 50035, "Invalid Form Body: UPDATE_MESSAGE needs a message (component interactions only)", ex
        )
    if ctype == 4 and _is_empty(data, rec.files):
        raise _HTTPError(400, 50006, "Cannot send an empty message", ex)
    if ctype in (4, 7):
        _v2_check(data, ex.original.flags if ctype == 7 and ex.original is not None else None, ex)
    ex.callback = Callback(ctype, data, rec.files, rec.at)
    cid = int(ex.payload["channel_id"])
    resource: dict[str, Any] = {"type": ctype}
    if ctype == 4:
        ex.original = fd._make_message(cid, data, rec.files, interaction=ex, mtype=20 if ex.kind == "command" else 0)
        ex._created_original = True
        resource["message"] = ex.original.public_data()
    elif ctype == 5:
        flags = (int(data.get("flags") or 0) & EPHEMERAL) | LOADING
        ex.original = fd._make_message(
            cid, {}, [], interaction=ex, flags=flags, mtype=20 if ex.kind == "command" else 0
        )
        ex._created_original = True
        ex._deferred_loading = True  # resource.message is only given for types 4 and 7
    elif ctype == 7:
        fd._apply_body(ex.original, data, rec.files)
        resource["message"] = ex.original.public_data()
    ex._touch(f"callback type {ctype}{' ephemeral' if ex.callback.ephemeral else ''}")
    interaction = {
        "id": str(ex.interaction_id),
        "type": ex.payload["type"],
        "response_message_loading": ctype == 5,
        "response_message_ephemeral": bool(ex.original and ex.original.ephemeral and ctype in (4, 5)),
    }
    if ex.original is not None and ctype in (4, 5, 7):
        interaction["response_message_id"] = str(ex.original.id)
    if rec.query.get("with_response", "").lower() not in ("1", "true"):
        return web.Response(status=204)
    return _json_response(
        {"interaction": interaction, "resource": resource} if ctype in (4, 5, 7) else {"interaction": interaction}
    )


def _target(fd: FakeDiscord, ex: Exchange, mid: str) -> FakeMessage:
    if mid == "@original":
        if ex.original is None:
            raise _HTTPError(404, 10008, "Unknown Message (no original response)", ex)
        return ex.original
    msg = fd._messages.get(int(mid))
    if msg is None or (msg is not ex.original and msg not in ex.followups):
        raise _HTTPError(404, 10008, "Unknown Message", ex)
    return msg


@_handles("POST", rf"/webhooks/\d+/{_TOKEN}")
async def _followup(fd: FakeDiscord, rec: Request, token: str) -> web.Response:
    ex = fd._exchange(token)
    if ex.callback is None:
        raise _HTTPError(404, 10015, "Unknown Webhook (followup before the interaction was acknowledged)", ex)
    body = rec.json or {}
    if _is_empty(body, rec.files):
        raise _HTTPError(400, 50006, "Cannot send an empty message", ex)
    _v2_check(body, None, ex)
    if ex._deferred_loading and ex.original is not None and ex.original.loading:
        # The first followup after a type-5 defer replaces the loading message; it keeps the
        # defer's ephemeral flag whatever the followup asks for.
        msg = ex.original
        keep = (msg.flags & EPHEMERAL) | (int(body.get("flags") or 0) & ~(EPHEMERAL | LOADING))
        fd._apply_body(msg, dict(body, flags=None), rec.files)
        msg.data["flags"] = keep
        ex._deferred_loading = False
    else:
        flags = int(body.get("flags") or 0)
        msg = fd._make_message(int(ex.payload["channel_id"]), body, rec.files, interaction=ex, flags=flags & ~LOADING)
    ex.followups.append(msg)
    ex._touch(f"followup {msg!r}")
    return _json_response(msg.public_data())


@_handles("GET", rf"/webhooks/\d+/{_TOKEN}/messages/(?P<mid>@original|\d+)")
async def _get_webhook_message(fd: FakeDiscord, rec: Request, token: str, mid: str) -> web.Response:
    ex = fd._exchange(token)
    return _json_response(_target(fd, ex, mid).public_data())


@_handles("PATCH", rf"/webhooks/\d+/{_TOKEN}/messages/(?P<mid>@original|\d+)")
async def _edit_webhook_message(fd: FakeDiscord, rec: Request, token: str, mid: str) -> web.Response:
    ex = fd._exchange(token)
    msg = _target(fd, ex, mid)
    _v2_check(rec.json or {}, None if msg.loading else msg.flags, ex)
    fd._apply_body(msg, rec.json or {}, rec.files)
    if msg is ex.original:
        msg.data["flags"] = msg.flags & ~LOADING
        ex._deferred_loading = False
    ex.edits.append((msg.id, rec.json or {}))
    ex._touch(f"edit {mid} {msg!r}")
    return _json_response(msg.public_data())


@_handles("DELETE", rf"/webhooks/\d+/{_TOKEN}/messages/(?P<mid>@original|\d+)")
async def _delete_webhook_message(fd: FakeDiscord, rec: Request, token: str, mid: str) -> web.Response:
    ex = fd._exchange(token)
    msg = _target(fd, ex, mid)
    msg.deleted = True
    ex.deleted.append(msg.id)
    ex._touch(f"delete {mid}")
    return web.Response(status=204)


try:  # optional pytest fixture: `from fakediscord import fake_discord` in a conftest.py
    import pytest_asyncio

    @pytest_asyncio.fixture
    async def fake_discord():
        """A strict FakeDiscord for one test (spec violations and unserved requests fail it)."""
        async with FakeDiscord(strict=True) as fd:
            yield fd
except ImportError:  # pragma: no cover
    pass

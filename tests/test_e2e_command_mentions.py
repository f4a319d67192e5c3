"""Every message that names a command, a sub-command or an option names it as a
member reading that language sees it in Discord (issue 33 item 4): a Chinese
member's client shows ``/游戏 新建 … 战役:`` and cannot type ``/game new …
campaign:``, so a Chinese message that says ``/game new`` tells them a command
they cannot find.

The names come from the commands as the bot synced them to the stand-in (the
default language's names and each locale's ``name_localizations``), the texts
from every catalog of the language (the platform's, each game's, and each game's
rules), so a new message or a renamed command is checked without a list here.

A mention is ``/name`` (then `` sub`` for a group's sub-command) where the slash
starts a word: after a space, the start, or punctuation such as ``(`` or a
backtick; after a letter of a script without spaces (``用/游戏``) only when the
word is a command's name in some language, so ``装填/射击`` (load/shoot) and
``easy/medium`` are prose, and ``/{max}`` a fraction.  After a group, a word that
is none of its sub-commands in any language is prose (``/notify and /mygames``).
An option is ``name:value`` (``campaign:{name}``, ``replace:True``) after a
command in the same message, and must be one of that command's options; a label
(``Orders:``, ``**Language:** …``) has a space, an end or markup after its colon.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from engine import available, get_game
from engine.i18n import catalog_path, namespaces
from engine.locales import DEFAULT, LANGUAGES, Language

SUB = (1, 2)  # a sub-command, a sub-command group
_SLASH = re.compile(r"/([\w-]+)")
_NEXT = re.compile(r" ([\w-]+)")
_OPTION = re.compile(r"(?<![\w:/<-])([\w-]+):(?=[^\s*/:])")
_CODE = re.compile(r"`[^`\n]+`")
_CODE_OPTION = re.compile(r"(?<![\w:/<-])([\w-]+): ")


@dataclass
class Node:
    """A command, group or sub-command under its name in one language; ``others``:
    its names in every language; ``options``: its options' names in this one."""

    name: str
    others: set[str]
    subs: dict[str, Node] = field(default_factory=dict)
    options: set[str] = field(default_factory=set)
    every_sub: set[str] = field(default_factory=set)


def name_in(node: dict, lang: Language) -> str:
    """Discord shows the default name where a locale has none (test_e2e_commands_localised.py
    wants one everywhere)."""
    names = {(node.get("name_localizations") or {}).get(loc, node["name"]) for loc in lang.discord}
    assert len(names) == 1, (node["name"], lang.code, names)  # one language, one name
    return node["name"] if lang.code == DEFAULT else names.pop()


def every_name(node: dict) -> set[str]:
    return {node["name"], *(node.get("name_localizations") or {}).values()}


def every_option(node: dict) -> set[str]:
    """Every name of every option at and under ``node``, in every language."""
    out: set[str] = set()
    for child in node.get("options") or []:
        out |= every_option(child) if child.get("type") in SUB else every_name(child)
    return out


def tree(commands: list[dict], lang: Language) -> dict[str, Node]:
    """The commands as a member reading ``lang`` sees them: name -> node."""

    def build(raw: dict) -> Node:
        node = Node(name_in(raw, lang), every_name(raw))
        for child in raw.get("options") or []:
            if child.get("type") in SUB:
                sub = build(child)
                node.subs[sub.name] = sub
                node.every_sub |= sub.others
            else:
                node.options.add(name_in(child, lang))
        return node

    return {n.name: n for n in map(build, commands)}


def walk(nodes) -> list[Node]:
    """Every node of ``nodes`` and below."""
    return [d for n in nodes for d in (n, *walk(n.subs.values()))]


def starts_a_word(text: str, at: int) -> bool:
    """The slash at ``at`` begins a word (not ``a/b``, ``{n}/{m}``, ``3/7``, ``https://``)."""
    before = text[at - 1] if at else " "
    return not (before.isalnum() or before in "_-}/:.<>]")


def options_in(text: str) -> list[re.Match[str]]:
    """``name:value``, and in code (between backticks) also ``name: value``."""
    found = list(_OPTION.finditer(text))
    for code in _CODE.finditer(text):
        found += _CODE_OPTION.finditer(text, code.start(), code.end())
    return sorted(found, key=lambda m: m.start())


def mentions(text: str, lang: Language, commands: dict[str, Node], known: set[str], options: set[str]) -> list[str]:
    """What ``text`` names that a member reading ``lang`` cannot type (empty: all of it fits).
    ``known``: every command's name in every language; ``options``: every option's."""
    bad: list[str] = []
    spans: list[tuple[int, Node | None]] = []  # where each command mention ends, and its node
    for m in _SLASH.finditer(text):
        word, at = m.group(1), m.start()
        if not word[0].isalpha() or word[0] != word[0].lower():  # /{n}, /7, /Active: no command name
            continue
        if not starts_a_word(text, at):
            prev = text[at - 1]
            if prev.isascii() or word not in known:  # easy/medium, 装填/射击
                continue
        node = commands.get(word)
        if node is None:
            bad.append(f"/{word}: no command is called so in {lang.code}")
            spans.append((m.end(), None))
            continue
        end, said = m.end(), f"/{word}"
        while node.subs:
            nxt = _NEXT.match(text, end)
            if nxt is None:
                break
            sub = node.subs.get(nxt.group(1))
            if sub is None:
                if nxt.group(1) in node.every_sub:
                    names = ", ".join(sorted(node.subs))
                    bad.append(f"{said} {nxt.group(1)}: {said} has no such sub-command in {lang.code} ({names})")
                break
            node, end, said = sub, nxt.end(), f"{said} {sub.name}"
        spans.append((end, node))
    for m in options_in(text):
        before = [node for end, node in spans if end <= m.start()]
        if not before:  # no command named before it: an option's name, as no other language says it
            mine = set().union(*(n.options for n in walk(commands.values())))
            if m.group(1) in options - mine:
                bad.append(f"{m.group(1)}: is no option's name in {lang.code}")
            continue
        if before[-1] is None:
            continue
        if m.group(1) not in before[-1].options:
            names = ", ".join(sorted(before[-1].options)) or "none"
            bad.append(f"{m.group(1)}: is no option of that command in {lang.code} (its options: {names})")
    return bad


def texts(lang: str) -> dict[str, str]:
    """Every message of ``lang`` (key -> text), and each game's rules (``rules:<game>``)."""
    out: dict[str, str] = {}
    for ns in namespaces():
        path = catalog_path(lang, ns)
        if path.exists():
            out |= json.loads(path.read_text(encoding="utf-8"))
    for gid in available():
        rules = get_game(gid).data_path("rules", f"{lang}.md")
        if rules.exists():
            out[f"rules:{gid}"] = rules.read_text(encoding="utf-8")
    return out


def problems(commands: list[dict], catalogs: dict[str, dict[str, str]]) -> list[str]:
    known = set().union(*(every_name(c) for c in commands))
    options = set().union(*(every_option(c) for c in commands))
    bad = []
    for lang in LANGUAGES:
        seen = tree(commands, lang)
        for key, text in catalogs[lang.code].items():
            bad += [f"{lang.code} {key}: {b}" for b in mentions(text, lang, seen, known, options)]
    return bad


async def test_every_message_names_commands_as_its_reader_sees_them(table):
    await table.start()
    commands = [c for cmds in table.fd.commands.values() for c in cmds.values() if c.get("type", 1) == 1]
    catalogs = {lang.code: texts(lang.code) for lang in LANGUAGES}
    assert problems(commands, catalogs) == []
    # the check reads real mentions: each language names /game new (zh: /游戏 新建) somewhere
    for lang in LANGUAGES:
        game = tree(commands, lang)[name_in(next(c for c in commands if c["name"] == "game"), lang)]
        new = next(n for n in game.subs.values() if "new" in n.others)
        said = f"/{game.name} {new.name}"
        assert any(said in text for text in catalogs[lang.code].values()), (lang.code, said)


def _cmd(name: str, names: dict[str, str], *options: dict, kind: int = 1) -> dict:
    locs = {loc: names[lang.code] for lang in LANGUAGES if lang.code != DEFAULT for loc in lang.discord}
    return {"name": name, "type": kind, "name_localizations": locs, "options": list(options)}


def _names(en: str, zh: str) -> dict[str, str]:
    """A name in every language: English, Chinese, and the English one for any other."""
    return {lang.code: {"en": en, "zh": zh}.get(lang.code, en) for lang in LANGUAGES}


def test_the_check_catches_a_command_its_reader_cannot_type():
    campaign = _cmd("campaign", _names("campaign", "战役"), kind=3)
    new = _cmd("new", _names("new", "新建"), campaign)
    game = _cmd("game", _names("game", "游戏"), new)
    notify = _cmd("notify", _names("notify", "通知"), _cmd("calendar", _names("calendar", "日历")))
    commands = [game, notify]

    def check(zh: str, en: str = "") -> list[str]:
        catalogs = {lang.code: {} for lang in LANGUAGES}
        catalogs["en"]["k"], catalogs["zh"]["k"] = en, zh
        return problems(commands, catalogs)

    assert check("用 /游戏 新建 … 战役:{name} 开桌。", "Open one with /game new … campaign:{name}.") == []
    assert check("`/通知 日历` 和 /通知 和 /游戏。装填/射击，{n}/{max}，2/7，https://x/y，**语言:** 中文") == []
    assert len(check("用 /game new … campaign:{name} 开桌。")) == 1  # /game is none of zh's commands
    assert len(check("用 /游戏 new 开桌。")) == 1  # a sub-command in English
    assert len(check("用/游戏 new 开桌。")) == 1  # after a Chinese letter, still a command
    assert len(check("用 /游戏 新建 … campaign:{name} 开桌。")) == 1  # an option in English
    assert len(check("", "Open one with /spiel neu or /game new … kampagne:{name}.")) == 2
    assert check("示例：`战役: x`") == [] and len(check("示例：`campaign: x`")) == 1  # no command before it

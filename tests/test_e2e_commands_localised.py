"""Every app command, sub-command and option has its name and description in every
language of engine/locales.py, for every Discord locale of that language, and each
name is one Discord accepts (issue 33 item 4): 1-32 letters, digits, - or _, lowercase
where the letter has a case, and no two siblings with the same name.  Checked on the
commands as the bot synced them to the stand-in."""

from __future__ import annotations

from engine.locales import DEFAULT, LANGUAGES


def valid_name(name: str) -> bool:
    """Discord's ``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, lowercase."""
    return 1 <= len(name) <= 32 and all(c.isalnum() or c in "-_" for c in name) and name == name.lower()


def walk(node: dict, path: str, out: list[tuple[str, dict, list[dict]]]) -> None:
    """(path, the node, its siblings) for every command, group, sub-command and option."""
    children = node.get("options") or []
    for child in children:
        out.append((f"{path} {child['name']}", child, children))
        if child.get("type") in (1, 2):
            walk(child, f"{path} {child['name']}", out)


def problems(commands: list[dict]) -> list[str]:
    nodes: list[tuple[str, dict, list[dict]]] = [(c["name"], c, commands) for c in commands]
    for cmd in commands:
        walk(cmd, cmd["name"], nodes)
    bad = []
    for lang in LANGUAGES:
        if lang.code == DEFAULT:
            continue
        for loc in lang.discord:
            for path, node, siblings in nodes:
                name = (node.get("name_localizations") or {}).get(loc)
                desc = (node.get("description_localizations") or {}).get(loc)
                if name is None or desc is None:
                    bad.append(f"{loc}: /{path} has no {'name' if name is None else 'description'}")
                    continue
                if not valid_name(name):
                    bad.append(f"{loc}: /{path} is named {name!r}, which Discord refuses")
                same = [s["name"] for s in siblings if (s.get("name_localizations") or {}).get(loc) == name]
                if len(same) > 1:
                    bad.append(f"{loc}: /{path}: {same} share the name {name!r}")
    return sorted(set(bad))


async def test_every_command_and_option_is_named_in_every_language(table):
    await table.start()
    commands = [c for cmds in table.fd.commands.values() for c in cmds.values() if c.get("type", 1) == 1]
    assert len(commands) >= 10, [c["name"] for c in commands]
    assert problems(commands) == []


def test_the_check_catches_what_discord_refuses():
    good = {"name_localizations": {}, "description_localizations": {}}
    for lang in LANGUAGES:
        for loc in lang.discord:
            good["name_localizations"][loc] = "spiel"
            good["description_localizations"][loc] = "x"
    assert problems([{"name": "game", **good}]) == []
    upper = {**good, "name_localizations": {**good["name_localizations"], LANGUAGES[-1].discord[0]: "Spiel neu"}}
    assert len(problems([{"name": "game", **upper}])) == 1
    twins = [{"name": "a", **good}, {"name": "b", **good}]
    assert len(problems(twins)) == 2 * sum(len(lang.discord) for lang in LANGUAGES if lang.code != DEFAULT)
    assert problems([{"name": "game"}]) and valid_name("zurücknehmen") and valid_name("计时")

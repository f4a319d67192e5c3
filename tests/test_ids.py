"""The one custom_id codec (cogs/kit/ids.py): every component's custom_id is written
and read by it, and the ids already on messages in Discord keep decoding."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cogs.kit import ids
from cogs.kit.components import DYNAMIC_ITEMS

ROOT = Path(__file__).resolve().parent.parent

#: custom_ids exactly as the bot wrote them before the codec (messages already in Discord)
OLD = {
    "tg:a:12:7:3": ids.Action(12, 7, 3),
    "tg:a:12:7:3:998877665544332211": ids.Action(12, 7, 3, 998877665544332211),
    "tg:s:5:40:0": ids.ActionMenu(5, 40, 0),
    "tg:s:5:40:1:42": ids.ActionMenu(5, 40, 1, 42),
    "tg:l:9:join": ids.Lobby(9, "join"),
    "tg:l:9:cancel": ids.Lobby(9, "cancel"),
    "tg:la:9": ids.LobbyAI(9),
    "tg:p:3:11": ids.Panel(3, 11),
    "tg:v:3": ids.PrivateView(3),
    "tg:c:3": ids.Catchup(3),
    "tg:vote:77:yes": ids.Vote(77, True),
    "tg:vote:77:no": ids.Vote(77, False),
    "tg:lg:1:join": ids.LeagueSignup(1, "join"),
    "tg:lg:1:leave": ids.LeagueSignup(1, "leave"),
}


@pytest.mark.parametrize("cid", sorted(OLD))
def test_old_custom_ids_decode_and_encode_back_the_same(cid):
    decoded = ids.decode(cid)
    assert decoded == OLD[cid]
    assert decoded is not None and decoded.encode() == cid


@pytest.mark.parametrize(
    "cid",
    [
        "",
        "tg:",
        "tg:a:1:2",
        "tg:a:x:2:3",
        "tg:l:1:explode",
        "tg:vote:1:maybe",
        "tg:lg:1234567890123456789:join",
        "tg:a:1:2:3:4:5",
        " tg:v:1",
        "xx:v:1",
        None,
        12,
        ["tg:v:1"],
    ],
)
def test_anything_else_is_not_ours(cid):
    assert ids.decode(cid) is None


def test_every_dynamic_item_uses_the_codec_template_and_writes_what_it_reads():
    templates = {item.__name__: item.__discord_ui_compiled_template__.pattern for item in DYNAMIC_ITEMS}
    assert sorted(templates.values()) == sorted(kind.TEMPLATE for kind in ids.KINDS)
    samples = [
        DYNAMIC_ITEMS[0](12, 7, 3, board=5),
        DYNAMIC_ITEMS[1](5, 40, 1),
        DYNAMIC_ITEMS[2](9, "start"),
        DYNAMIC_ITEMS[3](9),
        DYNAMIC_ITEMS[4](3, 11),
        DYNAMIC_ITEMS[5](3),
        DYNAMIC_ITEMS[6](3),
        DYNAMIC_ITEMS[7](77, "no"),
        DYNAMIC_ITEMS[8](1, "join"),
        DYNAMIC_ITEMS[9](3),  # "Text board" (issue 33)
        DYNAMIC_ITEMS[10](3),
        DYNAMIC_ITEMS[11](3, "arm"),
        DYNAMIC_ITEMS[11](3, "off"),
    ]
    for item in samples:
        cid = item.item.custom_id
        assert ids.decode(cid) == item.key and re.fullmatch(item.__discord_ui_compiled_template__, cid)


def test_standing_orders_ids_name_their_table():
    assert ids.decode("tg:o:12") == ids.Orders(12) and ids.table_of("tg:o:12") == 12
    assert ids.decode("tg:oa:12") == ids.OrderMenu(12, "arm") and ids.decode("tg:od:12") == ids.OrderMenu(12, "off")
    assert ids.decode("tg:ox:12") is None and ids.decode("tg:o:12:3") is None


def test_table_of_and_panel_board():
    assert ids.table_of("tg:a:12:7:3:55") == 12 and ids.panel_board("tg:a:12:7:3:55") == 55
    assert ids.table_of("tg:l:9:join") == 9 and ids.panel_board("tg:l:9:join") is None
    assert ids.table_of("tg:vote:12:yes") is None and ids.table_of("tg:lg:12:join") is None


def test_cogs_read_no_custom_id_by_hand_and_touch_no_private_discord_attribute():
    """One codec: no cog splits a custom_id itself; public discord.py API only."""
    for path in sorted((ROOT / "cogs").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        if path.name != "ids.py":
            assert not re.search(r"""f?["']tg:[a-z]+:""", text), f"{path.name} builds or parses a custom_id by hand"
        for private in ("__discord_ui_", "._connection", "._view_store", "._views", "._children", "._params"):
            assert private not in text, f"{path.name} uses discord.py's private {private}"
        assert 'get_cog("' not in text, f"{path.name} finds a cog by name"

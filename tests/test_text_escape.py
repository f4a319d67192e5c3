"""The one escape for text a member supplied (tables/rules/text.py): whatever a name
holds, shown escaped it formats nothing, links nowhere, mentions nobody, is
never taken for a catalog key and stays within its bound."""

from __future__ import annotations

import re
import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from engine.i18n import t
from tables.rules.text import MARKDOWN, NAME_CHARS, escape, plain, quote

HOSTILE = st.one_of(
    st.text(max_size=200),
    st.text(st.sampled_from(list("*_~`|>#-[]()<>@:/\\ \n\u202e\u200b\u2066abc1")), max_size=80),
    st.sampled_from(
        [
            "<@123>",
            "<@!123>",
            "<@&5>",
            "@everyone",
            "@here",
            "[gift](https://evil.example/x)",
            "**bold**",
            "`x`",
            "||s||",
            "# head",
            "-# small",
            "> quote",
            "@core.ui.internal",
            "<t:1:R>",
            "https://evil.example",
            "\u202eevil",
            "a" + "\u0301" * 50,
        ]
    ),
)


def unescaped(text: str) -> list[str]:
    """Markdown characters in ``text`` not preceded by an escaping backslash."""
    out, i = [], 0
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] in MARKDOWN:
            out.append(text[i])
        i += 1
    return out


@given(HOSTILE)
def test_an_escaped_name_is_inert(name):
    shown = escape(name)
    assert not unescaped(shown), shown
    assert not re.search(r"<@[!&]?\d", shown) and "@everyone" not in shown and "@here" not in shown
    assert not re.search(r"https?://", shown), "no address is a live link"
    assert not shown.startswith("@"), "never read as a catalog key"
    assert shown in t("core.ui.your_view", "en", seat=shown), "filled in as it is, never translated"
    assert len(plain(name)) <= NAME_CHARS


@given(HOSTILE)
def test_a_plain_name_is_one_visible_line(name):
    shown = plain(name)
    assert len(shown) <= NAME_CHARS and "\n" not in shown and shown == shown.strip()
    for ch in shown:
        cat = unicodedata.category(ch)
        assert cat not in ("Cc", "Cs", "Cn") and (cat != "Cf" or ch == "\u200d"), repr(ch)
    assert not re.search("[\u0300-\u036f]{3}", shown), "no stacked marks"


def test_names_read_as_written():
    assert escape("Jean-Luc") == "Jean\\-Luc"
    assert escape("AI 1 (hard)") == "AI 1 (hard)"
    assert escape("[gift](https://evil.example/x)") == "\\[gift\\](https\\:\u200b//evil.example/x)"
    assert escape("@everyone") == "\\@\u200beveryone"
    assert escape("x" * 100).endswith("…") and len(escape("x" * 100)) == NAME_CHARS
    assert plain("\u202eevil\u200b  name\n") == "evil name"
    assert quote("a`b\nc") == "`a'b c`" and quote("@core.ui.internal") == "`@core.ui.internal`"

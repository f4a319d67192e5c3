"""Text a member supplied (a display name, a campaign's name, an echoed option),
made safe to show: the one place every such text passes before it reaches a
message.

* :func:`plain`: for surfaces that show text as it is (an image, a button or
  select label, an autocomplete choice): control, bidirectional and zero-width
  characters removed (a right-to-left override would turn the rest of the
  line around), whitespace collapsed, stacked combining marks capped, length
  bounded.
* :func:`escape`: for markdown surfaces (message text, embeds): :func:`plain`,
  then every markdown character escaped (bold, code, spoilers, quotes, headings,
  lists, masked links), ``://`` broken so no address becomes a live link, and
  ``@`` escaped and followed by a zero-width space so no ``@everyone``, ``@here``,
  ``<@id>`` or ``<@&id>`` is ever a mention (and a name is never taken for a
  catalog key: :func:`engine.i18n.t` translates a parameter starting with ``@``).  A backslash before punctuation shows as the
  punctuation itself, so the name reads as the member wrote it.
* :func:`quote`: an echoed value in a code span (option values, ids a client
  sent): nothing inside is markdown, a mention or a link.

Discord-free string work (no imports beyond the standard library), so the table
service can quote what a member typed in its own refusals.
"""

from __future__ import annotations

import unicodedata

#: the longest name shown (seat labels, campaign names in titles)
NAME_CHARS = 32
QUOTE_CHARS = 60
#: characters with a markdown meaning (inline, or at the start of a line: a name may begin
#: one); escaped everywhere.  ``[`` and ``]`` suffice to break a masked link, ``<`` a
#: mention, timestamp or custom emoji, ``:`` an address (``https\://``)
MARKDOWN = frozenset("\\*_~`|>#-[]<:")
KEEP_FORMAT = frozenset("\u200d")  # zero-width joiner: holds emoji sequences together
MAX_MARKS = 2  # combining marks kept on one character (no "zalgo" text over other lines)
ZWSP = "\u200b"


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: max(0, limit - 1)] + "…"


def plain(value: object, limit: int = NAME_CHARS) -> str:
    """``value`` as a single line of visible text, at most ``limit`` characters."""
    text = str(value).encode("utf-8", "replace").decode("utf-8")  # lone surrogates
    out: list[str] = []
    marks = 0
    for ch in text:
        cat = unicodedata.category(ch)
        if cat in ("Zl", "Zp") or ch in "\n\r\t\v\f":
            ch, cat = " ", "Zs"
        if cat in ("Cc", "Cs", "Cn") or (cat == "Cf" and ch not in KEEP_FORMAT):
            continue
        if cat.startswith("M"):
            marks += 1
            if marks > MAX_MARKS:
                continue
        else:
            marks = 0
        out.append(ch)
    return clip(" ".join("".join(out).split()), limit)


def escape(value: object, limit: int = NAME_CHARS) -> str:
    """``value`` for a markdown surface: shown as written, never formatting,
    a link or a mention."""
    out: list[str] = []
    for ch in plain(value, limit):
        if ch in MARKDOWN:
            out.append("\\" + ch)
        elif ch == "@":  # never a mention; and never read as a catalog key ("@core...", engine.i18n)
            out.append("\\@" + ZWSP)
        else:
            out.append(ch)
    return "".join(out).replace("\\:/", "\\:" + ZWSP + "/")  # no scheme://: never a link


def quote(value: object, limit: int = QUOTE_CHARS) -> str:
    """An echoed value in a code span (backticks inside become quotes)."""
    text = plain(value, limit).replace("`", "'")
    return f"`{text or ' '}`"


__all__ = ["NAME_CHARS", "clip", "escape", "plain", "quote"]

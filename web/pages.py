"""Server-rendered HTML of the web companion (every value escaped here)."""

from __future__ import annotations

import html
import time
from collections.abc import Iterable, Sequence
from urllib.parse import quote

from tables import Board, Choice, Frame, locales, symbol_svg_points
from tables import board_text as t

LANGS = locales.CODES


def e(value: object) -> str:
    return html.escape(str(value), quote=True)


def head(
    title: str,
    locale: str,
    *,
    og: dict[str, str] | None = None,
    live: str | None = None,
    version: str | None = None,
    robots: str = "noindex",
) -> str:
    metas = "".join(f'<meta property="{e(k)}" content="{e(v)}">' for k, v in (og or {}).items())
    if og and "og:image" in og:
        metas += '<meta name="twitter:card" content="summary_large_image">'
    attrs = f' data-live="{e(live)}"' if live else ""
    if version is not None:
        attrs += f' data-version="{e(version)}"'
    return (
        f'<!doctype html><html lang="{e(locales.language(locales.normalise(locale)).tag)}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta name="robots" content="{e(robots)}"><title>{e(title)}</title>{metas}'
        '<link rel="stylesheet" href="/static/app.css"><link rel="icon" href="data:,">'
        f"</head><body{attrs}>"
    )


def top(title: str, locale: str, here: str, *, signed_in: bool = False) -> str:
    joint = "&" if "?" in here else "?"
    lang_link = "".join(
        f'<a href="{e(here)}{joint}lang={other}" hreflang="{e(locales.language(other).tag)}" lang="{e(locales.language(other).tag)}">'
        f"{e(locales.language(other).name)}</a>"
        for other in locales.others(locales.normalise(locale))
    )
    mine = f'<a href="/me">{e(t("web.nav.mine", locale))}</a>'
    out = ""
    if signed_in:
        out = (
            '<form method="post" action="/signout" class="inline">'
            f'<button type="submit">{e(t("web.nav.signout", locale))}</button></form>'
        )
    return f'<header class="top"><h1>{e(title)}</h1><nav>{mine}{lang_link}{out}</nav></header>'


def foot() -> str:
    return '<script src="/static/app.js" defer></script></body></html>'


def page(title: str, locale: str, here: str, body: str, **kw) -> str:
    signed_in = bool(kw.pop("signed_in", False))
    return head(title, locale, **kw) + top(title, locale, here, signed_in=signed_in) + f"<main>{body}</main>" + foot()


def message(title: str, text: str, locale: str, here: str = "/") -> str:
    return page(title, locale, here, f'<div class="card"><p>{e(text)}</p></div>')


def _when(ts: float, locale: str) -> str:
    left = ts - time.time()
    if left <= 0:
        return t("web.bank.now", locale)
    return duration(left, locale)


def duration(seconds: float, locale: str) -> str:
    seconds = max(0, int(seconds))
    d, rest = divmod(seconds, 86400)
    h, rest = divmod(rest, 3600)
    m = rest // 60
    if d:
        return t("web.time.dh", locale, d=d, h=h)
    if h:
        return t("web.time.hm", locale, h=h, m=m)
    return t("web.time.m", locale, m=max(1, m))


def seat_mark(symbol: str, colour: str) -> str:
    """A seat's symbol in its colour, as its pieces carry it on the board (an SVG: the
    colour is an attribute, which the page's style policy allows; hidden from screen
    readers, the name beside it says who it is)."""
    return (
        f'<svg class="dot" viewBox="-1 -1 12 12" aria-hidden="true" focusable="false" data-symbol="{e(symbol)}">'
        f'<polygon points="{symbol_svg_points(symbol)}" fill="{e(colour)}" stroke="currentColor" stroke-width=".8"/></svg>'
    )


def players(b: Board) -> str:
    items = []
    for p in b.players:
        flags = ""
        if p.you:
            flags += f' <span class="you">{e(t("web.you", b.locale))}</span>'
        if p.ai:
            flags += f' <span class="pill">{e(t("web.ai", b.locale))}</span>'
        prompt = f'<div class="muted">{e(p.prompt)}</div>' if p.prompt else ""
        cls = ' class="turn"' if p.waiting else ""
        arrow = "▶ " if p.waiting else ""
        items.append(
            f'<li{cls} data-seat="{e(p.seat)}">{seat_mark(p.symbol, p.colour)}'
            f"<div>{arrow}{e(p.name)}{flags}{prompt}</div></li>"
        )
    return f'<ul class="players">{"".join(items)}</ul>'


def choice_item(c: Choice) -> str:
    """One offered choice: its number on the image in bold, then its label (whose own
    leading "N · " the bold number replaces, so the number is not shown twice)."""
    if c.number is None:
        return e(c.label)
    label = c.label.removeprefix(f"{c.number} · ")
    return f"<b>{c.number}</b> {e(label)}"


def dynamic(b: Board) -> str:
    """The part of a table page that changes with each move (swapped in live)."""
    loc = b.locale
    parts = []
    if b.outcome is not None:
        winners = ", ".join(b.winners) or t("core.ui.nobody", loc)
        parts.append(
            f'<div class="card"><h2>{e(t("core.ui.game_over", loc))}</h2><p>{e(b.outcome)}</p>'
            f"<p>{e(t('core.ui.winners', loc))}: {e(winners)}</p></div>"
        )
    elif b.status == "abandoned":
        parts.append(f'<div class="card"><p>{e(t("web.abandoned", loc))}</p></div>')
    elif b.status == "lobby":
        parts.append(f'<div class="card"><p>{e(t("web.lobby", loc))}</p></div>')
    turn = t("web.turn_of", loc, who=", ".join(b.label(s) for s in b.to_act)) if b.to_act else ""
    parts.append(
        f'<div class="card" id="players"><h2>{e(t("web.players", loc))}</h2>'
        + (f'<p class="turn" id="turn">{e(turn)}</p>' if turn else "")
        + players(b)
        + (f'<p class="muted">{e(b.summary)}</p>' if b.summary else "")
        + "</div>"
    )
    if b.private is not None or b.choices or b.orders_locked:
        inner = ""
        if b.private is not None:
            inner += f'<p id="hand">{e(b.private)}</p>'
        if b.orders_locked:
            inner += f'<p id="orders">{e(t("web.your_orders", loc))}</p>'
        if b.choices:
            items = "".join(f"<li>{choice_item(c)}</li>" for c in b.choices[:60])
            more = len(b.choices) - 60
            inner += f'<p class="muted">{e(t("web.your_choices", loc))}</p><ul id="choices">{items}</ul>'
            if more > 0:
                inner += f'<p class="muted">{e(t("web.more", loc, n=more))}</p>'
        parts.append(
            f'<div class="card private" id="private"><h2>{e(t("web.your_view", loc))}</h2>{inner}'
            f'<p class="muted">{e(t("web.act_in_discord", loc))}</p></div>'
        )
    if b.banks:
        rows = []
        for bank in b.banks:
            value = _when(bank.value, loc) if bank.waiting else duration(bank.value, loc)
            key = "web.bank.runs_out" if bank.waiting else "web.bank.holds"
            away = f" · {e(t('web.bank.away', loc))}" if bank.away_until else ""
            rows.append(f"<li>{e(b.label(bank.seat))}: {e(t(key, loc, time=value))}{away}</li>")
        parts.append(f'<div class="card"><h2>{e(t("web.banks", loc))}</h2><ul>{"".join(rows)}</ul></div>')
    if b.log:
        last = {x.position for x in b.last}
        new = ' class="new"'
        items = "".join(
            f'<li value="{x.position}"{new if x.position in last else ""}><b>{e(x.seat)}</b>: {"🔒 " if x.private else ""}{e(x.text)}</li>'
            for x in b.log
        )
        parts.append(
            f'<div class="card"><h2>{e(t("web.log", loc))}</h2><ol class="log" id="log">{items}</ol>'
            f'<p><a href="/t/{b.id}/history?at={max(0, b.positions - 1)}">{e(t("web.history_link", loc))}</a></p></div>'
        )
    parts.append(text_board(b))
    # a secret-orders game shows no version: it counts every crew's private steps (tables/seeing/secrecy.py)
    shown = "" if b.secret_orders else f" · v{b.version}"
    parts.append(f'<p class="muted" id="version">#{b.id}{shown}</p>')
    return "".join(parts)


def text_board(b: Board) -> str:
    """The board in words (the same builder as the image's description, in full: its latest
    moves and choices too), one line each: what a screen reader reads instead of the image."""
    if b.describe is None or b.status == "lobby":
        return ""
    lines = "".join(f"<li>{e(x)}</li>" for x in b.describe(full=True, limit=None).split("\n") if x.strip())
    return (
        f'<div class="card" id="textboard"><h2>{e(t("describe.text_board", b.locale))}</h2>'
        f'<ul class="textboard">{lines}</ul></div>'
    )


def stage(img_id: str, src: str | None, alt: str, locale: str, text_px: int) -> str:
    """A board image to zoom and pan; ``text_px``: its smallest text in image pixels (the
    page starts it at a scale where that reads: web/static/app.js)."""
    if src is None:
        return ""
    return (
        f'<div class="stage"><img id="{img_id}" src="{e(src)}" alt="{e(alt)}" draggable="false" '
        f'data-text-px="{int(text_px)}"></div>'
        '<div class="zoom">'
        f'<button type="button" data-zoom="in" aria-label="{e(t("web.zoom_in", locale))}">+</button>'
        f'<button type="button" data-zoom="out" aria-label="{e(t("web.zoom_out", locale))}">−</button>'
        f'<button type="button" data-zoom="reset">{e(t("web.zoom_reset", locale))}</button>'
        f'<span class="muted">{e(t("web.zoom_help", locale))}</span></div>'
    )


def table_page(
    b: Board,
    image: str | None,
    base_url: str,
    og_image: str | None,
    *,
    live: str,
    here: str,
    signed_in: bool,
    part: str | None = None,
) -> str:
    """The table page (``part``: :func:`dynamic` of the board, when already made)."""
    loc = b.locale
    who = ", ".join(b.label(s) for s in b.to_act)
    desc = (t("web.og.turn", loc, who=who) + " · " if who else "") + b.summary
    og = {"og:type": "website", "og:title": b.title, "og:description": desc[:300], "og:site_name": "Tabletop GM"}
    if base_url:
        og["og:url"] = f"{base_url}/t/{b.id}"
    if og_image:
        og["og:image"] = og_image
        og["og:image:alt"] = b.title
    alt = b.describe() if b.describe is not None else b.title  # the image in words, as Discord's description
    text_link = f' · <a href="#textboard">{e(t("describe.text_board", loc))}</a>' if image else ""
    body = (
        '<div class="layout"><section>'
        + stage("board", image, alt, loc, b.text_px)
        + f'<p class="muted"><span id="live" class="live">{e(t("web.live", loc))}</span> · '
        f'<a href="/t/{b.id}/history">{e(t("web.history_link", loc))}</a>{text_link}</p>'
        + f'</section><aside id="dynamic">{dynamic(b) if part is None else part}</aside></div>'
    )
    return page(b.title, loc, here, body, og=og, live=live, version=b.seen, signed_in=signed_in, robots="noindex")


def history_page(b: Board, f: Frame, frame_src: str, caption: str, here: str, alt: str | None = None) -> str:
    loc = b.locale
    title = t("web.history_title", loc, title=b.title)
    body = (
        f'<p><a href="/t/{b.id}">{e(t("web.back_to_table", loc))}</a></p>'
        + stage("frame", frame_src, alt or title, loc, b.text_px)
        + '<div class="slider">'
        f'<button type="button" id="prev" aria-label="{e(t("web.prev", loc))}">◀</button>'
        f'<input type="range" id="slider" min="0" max="{f.total}" value="{f.position}" step="1" '
        f'aria-label="{e(t("web.position", loc))}" data-frames="/t/{b.id}/frames/">'
        f'<button type="button" id="next" aria-label="{e(t("web.next", loc))}">▶</button>'
        f'<span class="pill"><span id="pos">{f.position}</span> / {f.total}</span></div>'
        f'<div class="card"><p id="caption">{e(caption)}</p></div>'
        f'<p class="muted">{e(t("web.history_help", loc))}</p>'
    )
    return page(title, loc, here, body)


def frame_caption(f: Frame, locale: str) -> str:
    if f.line is None:
        return t("web.start", locale) + " · " + f.summary
    return f"{f.position}. {f.line.seat}: {f.line.text} · {f.summary}"


def mine_page(rows: Sequence[tuple[str, str, str, str | None]], locale: str) -> str:
    """rows: (link, title, state, deadline text)."""
    if not rows:
        body = f'<div class="card"><p>{e(t("web.mine.none", locale))}</p></div>'
    else:
        items = "".join(
            f'<li><a href="{e(link)}">{e(title)}</a> — <span class="pill{" urgent" if deadline else ""}">{e(state)}</span>'
            + (f" {e(deadline)}" if deadline else "")
            + "</li>"
            for link, title, state, deadline in rows
        )
        body = f'<div class="card"><ul id="mine">{items}</ul></div>'
    return page(t("web.mine.title", locale), locale, "/me", body, signed_in=True)


def ranking_page(
    title: str,
    headers: Sequence[str],
    rows: Iterable[Sequence[object]],
    locale: str,
    here: str,
    note: str = "",
    tabs: Sequence[tuple[str, str, bool]] = (),
) -> str:
    head_cells = "".join(f"<th>{e(h)}</th>" for h in headers)
    body_rows = "".join("<tr>" + "".join(f"<td>{e(c)}</td>" for c in r) + "</tr>" for r in rows)
    table = (
        f'<table class="rank"><thead><tr>{head_cells}</tr></thead><tbody>{body_rows}</tbody></table>'
        if body_rows
        else f"<p>{e(t('web.none_yet', locale))}</p>"
    )
    extra = f'<p class="muted">{e(note)}</p>' if note else ""
    nav = " · ".join(
        f"<b>{e(label)}</b>" if current else f'<a href="{e(href)}">{e(label)}</a>' for href, label, current in tabs
    )
    nav_html = f'<p class="tabs">{nav}</p>' if nav else ""
    return page(title, locale, here, f'{nav_html}<div class="card">{table}{extra}</div>')


def league_card(title: str, rounds: str, headers: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """One league season's standings (web/routes/people.py's leagues page)."""
    cells = "".join("<tr>" + "".join(f"<td>{e(c)}</td>" for c in r) + "</tr>" for r in rows)
    head = "".join(f"<th>{e(h)}</th>" for h in headers)
    return (
        f'<div class="card"><h2>{e(title)}</h2><p class="muted">{e(rounds)}</p>'
        f'<table class="rank"><thead><tr>{head}</tr></thead><tbody>{cells}</tbody></table></div>'
    )


def leagues_page(cards: Sequence[str], locale: str, here: str) -> str:
    """A server's leagues: each season's card, or a note that there are none yet."""
    body = "".join(cards) or f'<div class="card"><p>{e(t("web.none_yet", locale))}</p></div>'
    return page(t("web.leagues", locale), locale, here, body)


def signin_page(token: str, locale: str, form: str = "") -> str:
    body = (
        f'<div class="card"><p>{e(t("web.signin.text", locale))}</p>'
        '<form method="post" action="/signin">'
        f'<input type="hidden" name="token" value="{e(token)}">'
        f'<input type="hidden" name="form" value="{e(form)}">'
        f'<button type="submit" class="primary" id="signin">{e(t("web.signin.button", locale))}</button></form></div>'
    )
    return page(t("web.signin.title", locale), locale, "/", body)


def lang_href(locale: str) -> str:
    return quote(locale)

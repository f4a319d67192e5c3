"""What keeps the web companion from costing the bot its game, and from answering odd
input oddly (issue 28 items 1, 3, 4).

* :func:`ascii_id`: ids in URLs are ASCII digits only (``str.isdigit`` and ``int``
  take ``²``, ``①``, ``٣``, ``１``).
* :func:`secure` / :func:`on_prepare`: the same security headers on every answer,
  error pages (400, 404, 429, 500, 503) included.
* :func:`same_site` and the form cookie: the sign-in form is posted from this site
  only (a cross-site POST must not sign a browser in as someone else).
* :class:`Budget` and :class:`Gate`: the companion runs inside the bot's process and
  shares its open-files limit with Discord's connections and the database.  At start
  the soft limit is raised toward the hard one where allowed; the companion may hold
  the limit less the files already open and a reserve; beyond that, and beyond a cap
  per address and per network prefix (/24 for IPv4, /64 for IPv6), a new connection
  is answered 503 with ``Retry-After`` and closed at once.  :class:`Pressure` logs
  such an episode once (and its end), not once per refused socket.
"""

from __future__ import annotations

import hmac
import logging
import secrets
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web

log = logging.getLogger("tabletop.web")

CSP = (
    "default-src 'none'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; "
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}
HSTS = "max-age=31536000"

#: the sign-in page's referrer policy: its form's POST carries its true Origin (under
#: "no-referrer" a browser sends "Origin: null"), and nothing leaves for another site
SIGNIN_REFERRER = "same-origin"
#: the sign-in form's cookie (a random value, also in the form: a cross-site page can post
#: the form but can neither read this cookie nor make the browser send it)
FORM_COOKIE = "tg_form"


def ascii_id(value: str | None, maximum: int) -> int | None:
    """A non-negative id written in ASCII digits (at most 19 of them), else None."""
    if value is None or not value.isascii() or not value.isdigit() or len(value) > 19:
        return None
    n = int(value)
    return n if n <= maximum else None


def secure(headers: Any, https: bool) -> None:
    for k, v in HEADERS.items():
        headers.setdefault(k, v)
    if https:
        headers.setdefault("Strict-Transport-Security", HSTS)


def on_prepare(https: bool) -> Callable[[web.Request, web.StreamResponse], Any]:
    """An ``on_response_prepare`` hook: every answer of the app gets the headers, those the
    middleware never sees included (an exception escaping it, a 405)."""

    async def hook(request: web.Request, response: web.StreamResponse) -> None:
        secure(response.headers, https)

    return hook


# ------------------------------------------------------------------ sign-in form (login CSRF)
def origin_of(url: str) -> str | None:
    parts = urlsplit(url)
    if not parts.scheme or not parts.netloc:
        return None
    return f"{parts.scheme}://{parts.netloc}".lower()


def same_site(request: web.Request, base_url: str) -> bool:
    """Whether a POST came from one of this site's own pages: its ``Origin`` (every
    current browser sends one with a form POST) is the public URL's or the one the
    request was made to; without one, ``Sec-Fetch-Site`` must not say cross-site."""
    origin = request.headers.get("Origin")
    fetch_site = request.headers.get("Sec-Fetch-Site")
    if origin is not None and origin != "null":
        ours = {origin_of(base_url), f"{request.scheme}://{request.host}".lower()}
        return origin.lower() in ours - {None}
    if origin == "null":  # (a page under "no-referrer" posts "null" even to its own site)
        return fetch_site == "same-origin"
    return fetch_site is None or fetch_site in ("same-origin", "none")


def form_value() -> str:
    return secrets.token_urlsafe(24)


def form_matches(request: web.Request, posted: str) -> bool:
    cookie = request.cookies.get(FORM_COOKIE, "")
    return bool(cookie) and len(posted) < 100 and hmac.compare_digest(cookie.encode(), posted.encode())

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

import asyncio
import contextlib
import hmac
import ipaddress
import logging
import os
import secrets
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web
from aiohttp.web_protocol import RequestHandler

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


# ------------------------------------------------------------------ what the process can afford
def open_files() -> int:
    """How many files (sockets included) this process has open now."""
    for folder in ("/proc/self/fd", "/dev/fd"):
        try:
            return len(os.listdir(folder))
        except OSError:
            continue
    return 0


def raise_open_files(ceiling: int) -> tuple[int, int]:
    """Raise the soft open-files limit toward the hard one (at most ``ceiling``) where the
    platform allows; returns (soft, hard) as they are then."""
    try:
        import resource
    except ImportError:  # (not a Unix)
        return (0, 0)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = ceiling if hard == resource.RLIM_INFINITY else min(hard, ceiling)
    if soft != resource.RLIM_INFINITY and soft < want:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
            soft = want
        except (ValueError, OSError) as exc:
            log.warning("web: cannot raise the open-files limit from %d to %d: %s", soft, want, exc)
    return soft, hard


#: connections accepted in one pass of the event loop (and the listen queue's length):
#: each holds a file until the gate has looked at it
BACKLOG = 64
#: refused connections kept open (at most ``LINGER`` seconds) after their 503, reading and
#: dropping their request, so that closing cannot reset the answer away; beyond that many
#: a refused connection is closed right after its 503
LINGERING = 64
LINGER = 2.0


@dataclass(frozen=True)
class Budget:
    """How many connections the companion may hold: the soft limit less the files open
    when it started, a reserve (Discord's connections, the database, renders, logs) and
    the files the gate itself may hold for a moment (``BACKLOG`` + ``LINGERING``), at most
    ``ceiling``."""

    soft: int
    hard: int
    open_at_start: int
    reserve: int
    connections: int

    @classmethod
    def of_process(cls, *, raise_to: int, reserve: int, ceiling: int) -> Budget:
        soft, hard = raise_open_files(raise_to) if raise_to else _limits()
        held = open_files()
        if soft <= 0:  # no limit known (not a Unix): the ceiling alone
            return cls(soft, hard, held, reserve, ceiling)
        return cls(soft, hard, held, reserve, max(0, min(ceiling, soft - held - reserve - BACKLOG - LINGERING)))


def _limits() -> tuple[int, int]:
    try:
        import resource
    except ImportError:
        return (0, 0)
    return resource.getrlimit(resource.RLIMIT_NOFILE)


def prefix(address: str) -> str:
    """The network an address belongs to for the caps: its /24 (IPv4) or /64 (IPv6)."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    bits = 24 if ip.version == 4 else 64
    return str(ipaddress.ip_network(f"{ip}/{bits}", strict=False))


class Pressure:
    """Refusals logged once per episode: a warning when the first one comes, and a line
    with the count when none came for ``quiet`` seconds; never one line per socket."""

    def __init__(self, quiet: float = 60.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.quiet = quiet
        self.clock = clock
        self.active = False
        self.refused = 0
        self.reasons: Counter[str] = Counter()
        self.since = 0.0
        self.last = 0.0
        self.episodes = 0

    def note(self, why: str, held: int, budget: int) -> None:
        self.last = self.clock()
        self.refused += 1
        self.reasons[why] += 1
        if self.active:
            return
        self.active = True
        self.episodes += 1
        self.since = self.last
        log.warning(
            "web companion under pressure: %s (%d connections held, budget %d); refusing more with 503 "
            "and Retry-After; logged once until it eases",
            why,
            held,
            budget,
        )
        with contextlib.suppress(RuntimeError):  # (no running loop: a test calling it directly)
            asyncio.get_running_loop().call_later(self.quiet, self._check)

    def _check(self) -> None:
        idle = self.clock() - self.last
        if idle < self.quiet:
            asyncio.get_running_loop().call_later(self.quiet - idle, self._check)
            return
        log.warning(
            "web companion pressure eased: %d refused in %.0f s (%s)",
            self.refused,
            self.last - self.since,
            ", ".join(f"{k}: {n}" for k, n in self.reasons.most_common()),
        )
        self.active = False
        self.refused = 0
        self.reasons.clear()


class _Once(logging.Filter):
    """asyncio logs each accept() that failed for want of files (EMFILE): keep one a minute."""

    def __init__(self) -> None:
        super().__init__()
        self.last = -1e9
        self.dropped = 0

    def filter(self, record: logging.LogRecord) -> bool:
        if "out of system resource" not in str(record.msg):
            return True
        now = time.monotonic()
        if now - self.last < 60:
            self.dropped += 1
            return False
        self.last = now
        return True


def quiet_accept_errors() -> None:
    logger = logging.getLogger("asyncio")
    if not any(isinstance(f, _Once) for f in logger.filters):
        logger.addFilter(_Once())


def busy_response(retry_after: int, body: str, https: bool) -> bytes:
    """The whole 503 answer a refused connection gets before it is closed."""
    data = body.encode()
    headers = {
        "Retry-After": str(retry_after),
        "Content-Type": "text/plain; charset=utf-8",
        "Content-Length": str(len(data)),
        "Cache-Control": "no-store",
        "Connection": "close",
    }
    secure(headers, https)
    head = "HTTP/1.1 503 Service Unavailable\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers.items())
    return (head + "\r\n").encode() + data


class Gate:
    """Counts the companion's open connections (in all, per address, per prefix) and turns
    away those beyond the caps at once: a short 503 with Retry-After, then closed."""

    def __init__(
        self,
        budget: int,
        *,
        per_address: int,
        per_prefix: int,
        by_address: bool,
        pressure: Pressure,
        busy: bytes,
        https: bool = False,
        linger: float = LINGER,
    ) -> None:
        self.https = https
        self.budget = budget
        self.per_address = per_address
        self.per_prefix = per_prefix
        self.by_address = by_address  # False behind a trusted proxy: every connection is the proxy's
        self.pressure = pressure
        self.busy = busy
        self.linger = linger
        self.max_lingering = LINGERING
        self.server: Any = None  # aiohttp's web.Server (a handler factory)
        self.open = 0
        self.lingering = 0
        self.addresses: Counter[str] = Counter()
        self.prefixes: Counter[str] = Counter()
        self.refused = 0

    def why_not(self, address: str, net: str) -> str | None:
        if self.open >= self.budget:
            return "connection budget reached"
        if self.by_address and self.addresses[address] >= self.per_address:
            return "connections per address reached"
        if self.by_address and self.prefixes[net] >= self.per_prefix:
            return "connections per network prefix reached"
        return None

    def door(self) -> asyncio.Protocol:
        return _Door(self)


class _Handler(RequestHandler):
    """aiohttp's connection handler, whose own error answers (a request it cannot parse: 400)
    carry the security headers too; the app's answers get them from :func:`on_prepare`."""

    __slots__ = ("https",)
    https: bool

    def handle_error(
        self, request: Any, status: int = 500, exc: BaseException | None = None, message: str | None = None
    ):
        resp = super().handle_error(request, status, exc, message)
        secure(resp.headers, self.https)
        return resp


def _handler(server: Any, https: bool) -> Any:
    try:
        handler = _Handler(server, loop=server._loop, **server._kwargs)
    except (AttributeError, TypeError):  # (another aiohttp: its own handler, without the headers on a 400)
        return server()
    handler.https = https
    return handler


class _Door(asyncio.Protocol):
    """A connection's first protocol: admits it (handing every event to aiohttp's handler)
    or answers 503 and closes it."""

    def __init__(self, gate: Gate) -> None:
        self.gate = gate
        self.inner: Any = None
        self.address = ""
        self.net = ""
        self.lingering = False
        self.timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        gate = self.gate
        peer = transport.get_extra_info("peername")
        self.address = str(peer[0]) if peer else "?"
        self.net = prefix(self.address) if gate.by_address else ""
        why = gate.why_not(self.address, self.net)
        if why is not None:
            self.refuse(transport, why)
            return
        gate.open += 1
        if gate.by_address:
            gate.addresses[self.address] += 1
            gate.prefixes[self.net] += 1
        assert gate.server is not None
        self.inner = _handler(gate.server, gate.https)
        self.inner.connection_made(transport)

    def refuse(self, transport: Any, why: str) -> None:
        gate = self.gate
        gate.refused += 1
        gate.pressure.note(why, gate.open, gate.budget)
        transport.write(gate.busy)
        if gate.lingering >= gate.max_lingering:  # (closed at once: an unread request may make it a reset)
            transport.close()
            return
        self.lingering = True
        gate.lingering += 1
        with contextlib.suppress(Exception):
            transport.write_eof()  # the answer, then EOF; the request is read and dropped until the client closes
        self.timer = asyncio.get_running_loop().call_later(gate.linger, transport.abort)

    def data_received(self, data: bytes) -> None:
        if self.inner is not None:
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        if self.inner is not None:
            return self.inner.eof_received()
        return None

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        gate = self.gate
        if self.inner is not None:
            gate.open -= 1
            if gate.by_address:
                for counter, key in ((gate.addresses, self.address), (gate.prefixes, self.net)):
                    counter[key] -= 1
                    if counter[key] <= 0:
                        del counter[key]
            self.inner.connection_lost(exc)
        elif self.lingering:
            gate.lingering -= 1
            if self.timer is not None:
                self.timer.cancel()


class GuardedSite(web.BaseSite):
    """A TCP site whose connections pass the :class:`Gate` first."""

    def __init__(self, runner: web.BaseRunner, host: str, port: int, gate: Gate, backlog: int = BACKLOG) -> None:
        super().__init__(runner, backlog=backlog)
        self.host, self.port, self.gate = host, port, gate

    @property
    def name(self) -> str:
        return f"http://{self.host}:{self.port}"

    async def start(self) -> None:
        await super().start()
        self.gate.server = self._runner.server
        self._server = await asyncio.get_running_loop().create_server(
            self.gate.door, self.host, self.port, backlog=self._backlog, reuse_address=True
        )


class Streams:
    """Open live pages counted per client, per network prefix and in all."""

    def __init__(self, per_client: int, per_prefix: int, total: int) -> None:
        self.per_client = per_client
        self.per_prefix = per_prefix
        self.total = total
        self.open = 0
        self.clients: Counter[str] = Counter()
        self.prefixes: Counter[str] = Counter()

    def take(self, client: str) -> str | None:
        """Why a new live page of ``client`` is refused, or None (then it is counted)."""
        net = prefix(client)
        if self.open >= self.total:
            return "live pages at their budget"
        if self.clients[client] >= self.per_client:
            return "live pages per address reached"
        if self.prefixes[net] >= self.per_prefix:
            return "live pages per network prefix reached"
        self.open += 1
        self.clients[client] += 1
        self.prefixes[net] += 1
        return None

    def give(self, client: str) -> None:
        self.open -= 1
        for counter, key in ((self.clients, client), (self.prefixes, prefix(client))):
            counter[key] -= 1
            if counter[key] <= 0:
                del counter[key]

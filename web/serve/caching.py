"""How long browsers and proxies may keep what the companion serves (issue 28 item 6).

Board and frame images show members' names, and ``/privacy forget`` must reach them:
a name-bearing image is never kept as fresh (no ``max-age`` of a day, never
``immutable``).  It is served ``public, no-cache`` with a strong ETag made of what the
image is drawn from (the table's version or the frame's position, the language, and
the digest of its members and their names: :func:`web.serve.names.token`): a browser or
proxy asks again each time and gets ``304 Not Modified`` (no body, nothing drawn) while
nothing changed, and the new image once a name changed or a member was forgotten.
"""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable

from aiohttp import web

#: public images: kept, but checked with the server before each use
PUBLIC_IMAGE = "public, no-cache"
#: a seat's own view
PRIVATE_IMAGE = "private, no-store"


def etag(*parts: object) -> str:
    """A strong ETag for what ``parts`` name."""
    return '"' + hashlib.blake2s(repr(parts).encode(), digest_size=12).hexdigest() + '"'


def matches(request: web.Request, tag: str) -> bool:
    """Whether the request's ``If-None-Match`` names ``tag`` (or ``*``)."""
    header = request.headers.get("If-None-Match", "")[:2000]
    return any(t.strip() in (tag, "*", "W/" + tag) for t in header.split(","))


async def png(request: web.Request, tag: str, body: Callable[[], Awaitable[bytes]]) -> web.Response:
    """A public name-bearing image: 304 when the browser holds this very one, else the
    image (drawn or taken from a cache by ``body``), both revalidated on every use."""
    headers = {"Cache-Control": PUBLIC_IMAGE, "ETag": tag}
    if matches(request, tag):
        return web.Response(status=304, headers=headers)
    return web.Response(body=await body(), content_type="image/png", headers=headers)

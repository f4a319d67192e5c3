"""Sign-in for the web companion (Discord-free): a short-lived, signed, single-use
link the bot gives a member privately, exchanged for a session.

No Discord token and no OAuth secret is involved: the bot already knows who
asked (the interaction), so it mints a link naming that member.  The link is
``<payload>.<HMAC-SHA256>`` (payload: member, table, expiry, nonce); a forged or
expired link is refused before the database is asked; a genuine one is taken
from the database once (its nonce's hash is stored when it is minted), so it
cannot be used twice, not even by two processes at the same moment.  The
session is a random id sent as an HttpOnly cookie; only its SHA-256 is stored,
so a copy of the database signs nobody in.  :func:`end_sessions` (``/privacy
forget``) removes a member's links and sessions.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

from store.ports import PrivacyStore, WebSessionStore

#: a sign-in link is good for this long (seconds), and once
LINK_SECONDS = 600
#: a session lasts this long (seconds)
SESSION_SECONDS = 7 * 86400
SECRET_META = "web_secret"
MAX_TOKEN = 300


@dataclass(frozen=True)
class Signed:
    user_id: int
    game_id: int | None
    expires_at: float
    nonce: str


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def sign(key: bytes, user_id: int, game_id: int | None, expires_at: float, nonce: str) -> str:
    payload = _b64(f"{user_id}:{game_id or 0}:{int(expires_at)}:{nonce}".encode())
    mac = _b64(hmac.new(key, payload.encode(), hashlib.sha256).digest())
    return f"{payload}.{mac}"


def verify(key: bytes, token: str, now: float) -> Signed | None:
    """The link's contents when its signature is right and it has not expired; else None."""
    if not token or len(token) > MAX_TOKEN or not token.isascii() or token.count(".") != 1:
        return None
    payload, mac = token.split(".")
    want = _b64(hmac.new(key, payload.encode(), hashlib.sha256).digest())
    if not hmac.compare_digest(want, mac):
        return None
    try:
        user, game, exp, nonce = _unb64(payload).decode().split(":")
        signed = Signed(int(user), int(game) or None, float(exp), nonce)
    except (ValueError, UnicodeDecodeError):
        return None
    return signed if signed.expires_at > now else None


class WebSessions:
    """Links and sessions of the web companion, kept in the store (so every process
    honours them)."""

    def __init__(
        self, store: WebSessionStore, clock: Callable[[], float] = time.time, secret: str | None = None
    ) -> None:
        self.store = store
        self.clock = clock
        self._secret = secret if secret is not None else os.environ.get("TG_WEB_SECRET") or None
        self._key: bytes | None = None

    async def key(self) -> bytes:
        """The signing key: ``TG_WEB_SECRET``, else one generated once and kept in the database."""
        if self._key is None:
            secret = self._secret or await self.store.meta_default(SECRET_META, secrets.token_hex(32))
            self._key = hashlib.sha256(b"tabletop-web:" + secret.encode()).digest()
        return self._key

    async def link_token(self, user_id: int, game_id: int | None = None, seconds: float = LINK_SECONDS) -> str:
        """A new single-use sign-in token for ``user_id`` (``game_id``: the page it opens)."""
        nonce = secrets.token_urlsafe(16)
        expires = self.clock() + seconds
        await self.store.web_token_put(_hash(nonce), "link", user_id, game_id, expires)
        return sign(await self.key(), user_id, game_id, expires, nonce)

    async def redeem_link(self, token: str) -> tuple[str, int, int | None] | None:
        """Exchange a link for a new session: (session id for the cookie, member, table), or
        None for a forged, expired or already used link."""
        now = self.clock()
        signed = verify(await self.key(), token, now)
        if signed is None:
            return None
        taken = await self.store.web_token_take(_hash(signed.nonce), "link", now)
        if taken is None or taken[0] != signed.user_id:
            return None
        sid = secrets.token_urlsafe(32)
        await self.store.web_token_put(_hash(sid), "session", signed.user_id, None, now + SESSION_SECONDS)
        return sid, signed.user_id, signed.game_id

    async def session_member(self, sid: str | None) -> int | None:
        """The member a session cookie belongs to (None: no session, or it ended)."""
        if not sid or len(sid) > MAX_TOKEN:
            return None
        found = await self.store.web_token_get(_hash(sid), "session", self.clock())
        return found[0] if found else None

    async def sign_out(self, sid: str) -> None:
        if sid and len(sid) <= MAX_TOKEN:
            await self.store.web_token_take(_hash(sid), "session", self.clock())

    async def purge(self) -> int:
        return await self.store.web_tokens_purge(self.clock())


async def end_sessions(store: PrivacyStore, user_id: int) -> int:
    """End every web session and unused sign-in link of a member (``/privacy forget``)."""
    return await store.web_tokens_end(user_id)

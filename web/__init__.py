"""The web companion: read-only pages of every table, built from tables/ (never cogs/).

Started inside the bot when ``TG_WEB_PORT`` is set (``TG_WEB_URL``: the public base URL),
or on its own with ``python -m web`` (same database; several bot processes behind it).
"""

from web.app import make_app, start
from web.serve.companion import Limits

__all__ = ["Limits", "make_app", "start", "link"]


def link(base_url: str | None, game_id: int) -> str | None:
    """The public page of a table, when the companion has a public URL."""
    return f"{base_url.rstrip('/')}/t/{game_id}" if base_url else None

"""The one error type an illegal action (or bad request) raises."""

from __future__ import annotations

from typing import Any

from .locales import DEFAULT


class GameError(Exception):
    """An action or request the rules do not allow.

    ``code`` is stable (tests and clients match on it), ``key`` names a message
    in the locale catalogs and ``params`` fill it.  Raising it never leaves a
    state half-changed: games work on a copy.
    """

    def __init__(self, code: str, key: str | None = None, seat: str | None = None, **params: Any):
        self.code = code
        self.key = key or f"error.{code}"
        self.seat = seat
        self.params = params
        super().__init__(f"{code}: {self.key} {params}" if params else f"{code}: {self.key}")

    def message(self, locale: str = DEFAULT) -> str:
        from .i18n import t

        params = dict(self.params)
        if self.seat is not None:
            params.setdefault("seat", self.seat)
        return t(self.key, locale, **params)

    def to_json(self, locale: str = DEFAULT) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message(locale)}
        if self.seat is not None:
            out["seat"] = self.seat
        return out

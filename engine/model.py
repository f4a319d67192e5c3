"""The two models every engine module shares: :class:`Model` (the base of states,
actions, events and views) and :class:`Msg` (a catalog key and its parameters).

They live apart from engine/base.py so that the modules base.py itself uses
(engine/orders.py) can build on them without importing base.py back; base.py
re-exports both, so ``from engine.base import Model, Msg`` keeps working."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from .i18n import t


class Model(BaseModel):
    """Base of all states, actions, events and views: strict about unknown fields."""

    model_config = ConfigDict(extra="forbid")


class Msg(Model):
    """A message key with its parameters, translated at the edge."""

    key: str
    params: dict[str, Any] = Field(default_factory=dict)

    def text(self, locale: str | None = None) -> str:
        return t(self.key, locale, **self.params)

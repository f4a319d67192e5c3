"""Colour differences as colour-blind players see them, measured with colorspacious
(a well-kept colour-science library; no hand-written matrices): CAM02-UCS ΔE between
two sRGB colours in normal vision and under simulated protanopia, deuteranopia and
tritanopia (Machado et al. 2009 at full severity, as colorspacious models them; the
simulated colours clipped to what a screen shows).  Used by tests/test_seat_colours.py
and bench/access.py."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import cache

import numpy as np
from colorspacious import cspace_convert

#: the kinds of vision a seat's colour is checked in (None: normal vision)
VISIONS: tuple[str | None, ...] = (None, "protanomaly", "deuteranomaly", "tritanomaly")


def _srgb1(colour: str) -> np.ndarray:
    h = colour.lstrip("#")
    return np.array([int(h[i : i + 2], 16) / 255 for i in (0, 2, 4)])


@cache
def seen(colour: str, vision: str | None) -> tuple[float, float, float]:
    """``colour`` (#rrggbb) as ``vision`` sees it, in CAM02-UCS (J', a', b')."""
    rgb = _srgb1(colour)
    if vision is not None:
        cvd = {"name": "sRGB1+CVD", "cvd_type": vision, "severity": 100}
        rgb = np.clip(cspace_convert(rgb, cvd, "sRGB1"), 0, 1)
    j, a, b = cspace_convert(rgb, "sRGB1", "CAM02-UCS")
    return float(j), float(a), float(b)


def delta(a: str, b: str, vision: str | None = None) -> float:
    """CAM02-UCS ΔE of two colours as ``vision`` sees them."""
    return float(np.linalg.norm(np.subtract(seen(a, vision), seen(b, vision))))


def closest(colours: Sequence[str], others: Sequence[str] = ()) -> tuple[float, str | None, str, str] | None:
    """The least ΔE, in any of :data:`VISIONS`, between two of ``colours`` (``others``
    empty) or between one of ``colours`` and one of ``others``: (ΔE, vision, a, b);
    None when there is no pair."""
    pairs = list(itertools.product(colours, others)) if others else list(itertools.combinations(colours, 2))
    found = [(delta(a, b, v), v, a, b) for a, b in pairs for v in VISIONS]
    return min(found, key=lambda f: f[0]) if found else None

"""Shared drawing helpers: CJK-capable fonts, PNG encoding, small widgets.

Font source: WenQuanYi Micro Hei (Apache-2.0 / GPLv3 with font exception),
installed from PyPI by the package ``paperang-p2-fonts-cjk`` (a dependency in
pyproject.toml), so the default set-up and the Docker image draw Chinese
glyphs without system packages.  ``TG_FONT`` overrides it with any TTF/TTC/OTF
path.  Falls back to system Noto CJK or DejaVu.
"""

from __future__ import annotations

import io
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont


def _candidates() -> list[Path]:
    out: list[Path] = []
    env = os.environ.get("TG_FONT")
    if env:
        out.append(Path(env))
    try:
        import paperang_p2_fonts_cjk

        out.append(Path(paperang_p2_fonts_cjk.__file__).parent / "fonts" / "wqy-microhei.ttc")
    except ImportError:
        pass
    out += [
        Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"),
        Path("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"),
        Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
    ]
    return out


@lru_cache(maxsize=1)
def font_path() -> str | None:
    for p in _candidates():
        if p.exists():
            return str(p)
    return None


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    path = font_path()
    if path is None:
        return ImageFont.load_default(size)
    return ImageFont.truetype(path, size)


# ----------------------------------------------------------------- legibility
#: The box Discord's desktop client fits an inline board image into (CSS
#: pixels; a click opens it full size).  A larger image is scaled down to fit.
DISPLAY_BOX = (550, 400)
#: The smallest text, in CSS pixels once the image is scaled into
#: :data:`DISPLAY_BOX`, that still reads at a glance.
MIN_DISPLAY_PX = 8.0
#: An image's longer side is at least this many pixels, so the scaled-down
#: inline image stays sharp on a 2x (HiDPI) screen.
MIN_LONG_SIDE = 1000

_recording = threading.local()


def display_scale(width: int, height: int) -> float:
    """How much Discord shrinks a ``width`` x ``height`` image inline."""
    return min(1.0, DISPLAY_BOX[0] / width, DISPLAY_BOX[1] / height)


def note_text(size: int, s: str = "") -> None:
    """Tell :func:`recorded_text` that a text run of ``size`` px was drawn (the
    shared :func:`text` does it; a renderer drawing text its own way calls it)."""
    runs = getattr(_recording, "runs", None)
    if runs is not None and s.strip():
        runs.append((size, s))


@contextmanager
def recorded_text() -> Iterator[list[tuple[int, str]]]:
    """Collect (font size, text) of every run drawn in this thread (tests)."""
    runs: list[tuple[int, str]] = []
    _recording.runs = runs
    try:
        yield runs
    finally:
        _recording.runs = None


def has_cjk_font() -> bool:
    path = font_path() or ""
    return any(tag in path.lower() for tag in ("wqy", "cjk", "noto", "han"))


def fit(s: str, size: int, width: float) -> str:
    """``s`` cut, with an ellipsis, to at most ``width`` pixels at ``size``."""
    f = font(size)
    if f.getlength(s) <= width:
        return s
    while s and f.getlength(s + "…") > width:
        s = s[:-1]
    return s + "…"


def to_png(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    # compress_level 1: images are small and we care about latency more than bytes
    img.save(buf, format="PNG", compress_level=1)
    return buf.getvalue()


@lru_cache(maxsize=8192)
def _glyphs(s: str, size: int, fill: str | tuple, anchor: str) -> tuple[Image.Image, int, int]:
    """A text run drawn once onto a transparent tile (text is most of a board's cost)."""
    f = font(size)
    left, top, right, bottom = (int(v) for v in f.getbbox(s, anchor=anchor))
    tile = Image.new("RGBA", (max(1, right - left), max(1, bottom - top)), (0, 0, 0, 0))
    ImageDraw.Draw(tile).text((-left, -top), s, font=f, fill=fill, anchor=anchor)
    return tile, left, top


def text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    s: str,
    size: int = 16,
    fill: str | tuple = "#ffffff",
    anchor: str = "la",
) -> None:
    """Draw ``s`` at ``xy`` (Pillow anchor semantics), from a cache of rendered runs."""
    note_text(size, s)
    target = getattr(draw, "_image", None)
    if not s or target is None or target.mode not in ("RGB", "RGBA"):
        draw.text(xy, s, font=font(size), fill=fill, anchor=anchor)
        return
    tile, left, top = _glyphs(s, size, fill if isinstance(fill, (str, int)) else tuple(fill), anchor)
    target.paste(tile, (int(round(xy[0])) + left, int(round(xy[1])) + top), tile)


def bar(
    draw: ImageDraw.ImageDraw,
    x: int,
    y: int,
    w: int,
    h: int,
    value: float,
    maximum: float,
    fg: str = "#e8c547",
    bg: str = "#3a3a3a",
    outline: str = "#111111",
) -> None:
    """A horizontal gauge (HP bars and the like)."""
    draw.rectangle((x, y, x + w, y + h), fill=bg, outline=outline)
    if maximum > 0 and value > 0:
        frac = max(0.0, min(1.0, value / maximum))
        draw.rectangle((x + 1, y + 1, x + 1 + int((w - 2) * frac), y + h - 1), fill=fg)


def canvas(w: int, h: int, bg: str = "#1d1f24") -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGB", (w, h), bg)
    return img, ImageDraw.Draw(img)

"""Shared drawing helpers: CJK-capable fonts, PNG encoding, small widgets.

Font source: WenQuanYi Micro Hei (Apache-2.0 / GPLv3 with font exception),
installed from PyPI by the package ``paperang-p2-fonts-cjk`` (a dependency in
pyproject.toml), so the default set-up and the Docker image draw Chinese
glyphs without system packages.  ``TG_FONT`` overrides it with any TTF/TTC/OTF
path.  Falls back to system Noto CJK or DejaVu.

Fallback fonts: a character the main font lacks (an emoji or a symbol in a
display name, a script it does not cover) is drawn with the first of Noto
Emoji, Noto Sans Symbols and Noto Sans <script> that has it (SIL OFL 1.1, from
PyPI: the package ``manimgx-fonts``); which font has which character is read
from the fonts' own character maps (fontTools).  A character no font has is
replaced by "?" (an invisible one is dropped): a board never shows an empty box.
"""

from __future__ import annotations

import io
import math
import os
import threading
import unicodedata
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from functools import cache, lru_cache
from pathlib import Path

from fontTools.ttLib import TTFont
from PIL import Image, ImageColor, ImageDraw, ImageFont


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


# ------------------------------------------------------------------ fallback
def _fallback_candidates() -> list[Path]:
    try:
        import manimgx_fonts
    except ImportError:
        return []
    folder = Path(manimgx_fonts.__file__).parent
    first = [folder / "NotoEmoji[wght].ttf", folder / "NotoSansSymbols[wght].ttf", folder / "NotoSans[wght].ttf"]
    scripts = sorted(p for p in folder.glob("NotoSans*.ttf") if p not in first and "Italic" not in p.name)
    return first + scripts


@lru_cache(maxsize=1)
def font_paths() -> tuple[str, ...]:
    """The main font, then the fallbacks, in the order a character is looked up."""
    main = font_path()
    return tuple(([main] if main else []) + [str(p) for p in _fallback_candidates() if p.exists()])


@cache
def _cmap(path: str) -> frozenset[int]:
    try:
        with TTFont(path, fontNumber=0, lazy=True) as tt:
            return frozenset(tt.getBestCmap() or {})
    except Exception:  # an unreadable font file: it has no characters
        return frozenset()


@lru_cache(maxsize=1)
def _cmaps() -> tuple[frozenset[int], ...]:
    return tuple(_cmap(p) for p in font_paths())


@lru_cache(maxsize=256)
def _font_at(index: int, size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    if index == 0:
        return font(size)
    return ImageFont.truetype(font_paths()[index], size)


def _joins(ch: str) -> bool:
    """A character that belongs to the one before it: a joiner, a variation
    selector, a skin tone, a combining mark, an emoji tag."""
    cp = ord(ch)
    return (
        cp in (0x200D, 0x20E3)
        or 0xFE00 <= cp <= 0xFE0F
        or 0x1F3FB <= cp <= 0x1F3FF
        or 0xE0020 <= cp <= 0xE007F
        or unicodedata.category(ch) in ("Mn", "Me")
    )


@lru_cache(maxsize=8192)
def segments(s: str) -> tuple[tuple[str, int], ...]:
    """``s`` as runs of (text, font index into :func:`font_paths`) so that every
    character is drawn by a font that has it; unrenderable characters replaced
    ("?") or, when invisible, dropped."""
    paths = font_paths()
    main = _cmap(paths[0]) if paths else frozenset()
    if not paths or all(ord(ch) in main for ch in s):
        return ((s, 0),) if s else ()
    maps = _cmaps()  # the fallbacks' maps, read the first time a character needs them
    out: list[list] = []
    chars = list(s)
    for k, ch in enumerate(chars):
        cp = ord(ch)
        if _joins(ch):
            if out and cp in maps[out[-1][1]]:
                out[-1][0] += ch
            continue  # a selector or joiner the run's font cannot draw: nothing to show
        # an emoji presentation selector after it: the emoji font first
        emoji_next = k + 1 < len(chars) and chars[k + 1] == "\ufe0f" and len(maps) > 1
        order = ([1] if emoji_next else []) + list(range(len(maps)))
        idx = next((i for i in order if cp in maps[i]), None)
        if idx is None:
            if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp"):
                continue
            ch, idx = "?", 0
        if out and out[-1][1] == idx:
            out[-1][0] += ch
        else:
            out.append([ch, idx])
    return tuple((run, idx) for run, idx in out)


@lru_cache(maxsize=8192)
def length(s: str, size: int) -> float:
    """The advance width of ``s`` at ``size``, fallback fonts included."""
    return float(sum(_font_at(i, size).getlength(run) for run, i in segments(s)))


@lru_cache(maxsize=8192)
def glyph_mask(s: str, size: int, anchor: str = "la") -> tuple[Image.Image, int, int]:
    """``s`` drawn as an "L" mask, and the mask's offset from the anchor point
    (Pillow anchor semantics), each character by a font that has it."""
    segs = segments(s)
    if len(segs) <= 1 and (not segs or segs[0][1] == 0):
        text_ = segs[0][0] if segs else ""
        f = font(size)
        left, top, right, bottom = (int(v) for v in f.getbbox(text_, anchor=anchor))
        mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
        ImageDraw.Draw(mask).text((-left, -top), text_, font=f, fill=255, anchor=anchor)
        return mask, left, top
    main = font(size)
    ascent, descent = main.getmetrics() if isinstance(main, ImageFont.FreeTypeFont) else (size, 0)
    total = length(s, size)
    hx = {"l": 0.0, "m": total / 2, "r": total}.get(anchor[0], 0.0)
    by = {"a": ascent, "t": ascent, "m": (ascent - descent) / 2, "s": 0, "d": -descent, "b": -descent}.get(
        anchor[1] if len(anchor) > 1 else "a", ascent
    )
    placed, x = [], 0.0
    boxes = []
    for run, i in segs:
        f = _font_at(i, size)
        l_, t_, r_, b_ = f.getbbox(run, anchor="ls")
        placed.append((run, f, x))
        boxes.append((x + l_, t_, x + r_, b_))
        x += f.getlength(run)
    left = int(min(b[0] for b in boxes) - hx)
    top = int(min(b[1] for b in boxes) + by)
    right = int(max(b[2] for b in boxes) - hx) + 1
    bottom = int(max(b[3] for b in boxes) + by) + 1
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    draw = ImageDraw.Draw(mask)
    for run, f, x0 in placed:
        draw.text((x0 - hx - left, by - top), run, font=f, fill=255, anchor="ls")
    return mask, left, top


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
#: No renderer draws text smaller than this (image pixels): the web companion starts a
#: board at a scale where this reads on a phone (web/static/app.js, ``data-text-px``).
MIN_TEXT_PX = 15

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
    """Collect (font size, text) of every run drawn in this thread (tests; a renderer
    caching a layer with its texts).  Nested: the outer collection resumes after."""
    runs: list[tuple[int, str]] = []
    outer = getattr(_recording, "runs", None)
    _recording.runs = runs
    try:
        yield runs
    finally:
        _recording.runs = outer


@contextmanager
def recorded_symbols() -> Iterator[list[tuple[str, str]]]:
    """Collect (symbol, fill colour) of every seat symbol drawn in this thread (tests)."""
    drawn: list[tuple[str, str]] = []
    outer = getattr(_recording, "symbols", None)
    _recording.symbols = drawn
    try:
        yield drawn
    finally:
        _recording.symbols = outer


def has_cjk_font() -> bool:
    path = font_path() or ""
    return any(tag in path.lower() for tag in ("wqy", "cjk", "noto", "han"))


def fit(s: str, size: int, width: float) -> str:
    """``s`` cut, with an ellipsis, to at most ``width`` pixels at ``size``."""
    if length(s, size) <= width:
        return s
    while s and length(s + "…", size) > width:
        s = s[:-1]
        while s and _joins(s[-1]):  # never leave half an emoji
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
    mask, left, top = glyph_mask(s, size, anchor)
    tile = Image.new("RGBA", mask.size, fill)
    alpha = tile.getchannel("A").getextrema()[1]
    tile.putalpha(mask if alpha == 255 else mask.point(lambda v: v * alpha // 255))
    return tile, left, top


#: colours between a text's ground and its own on a palette image (its anti-aliased edges)
TEXT_SHADES = 10


@lru_cache(maxsize=1024)
def rgb(colour: str) -> tuple[int, int, int]:
    """``colour`` (any Pillow colour name) as an (r, g, b) tuple."""
    r, g, b = ImageColor.getrgb(colour)[:3]
    return r, g, b


@lru_cache(maxsize=256)
def shades(fill: str, ground: str, n: int = TEXT_SHADES) -> tuple[tuple[int, int, int], ...]:
    """``ground``, ``n`` evenly spaced colours towards ``fill``, then ``fill``: what an
    anti-aliased letter edge of ``fill`` on ``ground`` looks like, in ``n + 2`` steps."""
    f, g = rgb(fill), rgb(ground)
    return tuple(
        (
            round(g[0] + (f[0] - g[0]) * k / (n + 1)),
            round(g[1] + (f[1] - g[1]) * k / (n + 1)),
            round(g[2] + (f[2] - g[2]) * k / (n + 1)),
        )
        for k in range(n + 2)
    )


@lru_cache(maxsize=8192)
def _shaded(s: str, size: int, anchor: str, indices: tuple[int, ...]) -> tuple[Image.Image, Image.Image, int, int]:
    """A text run as a palette tile (each edge pixel the nearest of ``indices``: the
    ground's palette index, the shades', the fill's) and the mask of where it is drawn."""
    mask, left, top = glyph_mask(s, size, anchor)
    steps = len(indices) - 1
    level = [(v * steps + 127) // 255 for v in range(256)]
    tile = Image.frombytes("P", mask.size, mask.point([indices[k] for k in level]).tobytes())
    where = mask.point([255 if k else 0 for k in level])
    return tile, where, left, top


def text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    s: str,
    size: int = 16,
    fill: str | tuple = "#ffffff",
    anchor: str = "la",
    ground: str | None = None,
) -> None:
    """Draw ``s`` at ``xy`` (Pillow anchor semantics), from a cache of rendered runs.
    On a palette image with its ``ground`` colour given, the letters' edges take the
    palette's :func:`shades` between ``ground`` and ``fill`` (the renderer keeps them in
    its palette; a missing one is added); without ``ground`` they are cut sharp."""
    note_text(size, s)
    target = getattr(draw, "_image", None)
    if s and ground is not None and target is not None and target.mode == "P" and isinstance(fill, str):
        pal = target.palette
        assert pal is not None
        known = pal.colors
        found = [known.get(c) for c in shades(fill, ground)]
        indices = tuple(i if i is not None else pal.getcolor(c, target) for i, c in zip(found, shades(fill, ground)))
        tile, where, left, top = _shaded(s, size, anchor, indices)
        target.paste(tile, (int(round(xy[0])) + left, int(round(xy[1])) + top), where)
        return
    if not s or target is None or target.mode not in ("RGB", "RGBA"):
        if target is not None and s:  # a palette or grey image: the mask, in the fill colour
            mask, left, top = glyph_mask(s, size, anchor)
            sharp = mask.point(lambda v: 255 if v >= 128 else 0, "1")  # no blending into a palette
            draw.bitmap((int(round(xy[0])) + left, int(round(xy[1])) + top), sharp, fill=fill)
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


# ---------------------------------------------------------------- seat colours
#: the seat colours of a game whose renderer names none (its ``SEATS``), each with the
#: square shown beside a name in texts (Discord has squares of a few colours only)
SEAT_PALETTE: tuple[tuple[str, str], ...] = (
    ("#5a5ad2", "🟦"),
    ("#b4ffff", "⬜"),
    ("#f0ffb4", "🟨"),
    ("#c3b4a5", "🟫"),
    ("#9696ff", "🟪"),
)
#: the least CAM02-UCS colour difference (ΔE) between two seats of a table, in normal vision
#: and under simulated protanopia, deuteranopia and tritanopia (docs/rulings.md; checked
#: with colorspacious by tests/test_seat_colours.py)
MIN_SEAT_DELTA = 20.0
#: the least CAM02-UCS ΔE between a seat's colour and a colour with a meaning on its
#: game's board (the renderer's ``MEANINGFUL``: highlights, enemies, the ground), in
#: the same four kinds of vision
MIN_MEANING_DELTA = 12.0


def seat_colours(palette: Iterable[tuple[str, str]], n: int) -> list[tuple[str, str]]:
    """The colours (and squares) of seats 1..``n``: the first ``n`` of ``palette``
    (chosen so that every first few keep the minimum differences above; past its
    end, from its start again)."""
    ordered = list(palette) or list(SEAT_PALETTE)
    return [ordered[i % len(ordered)] for i in range(n)]


# ---------------------------------------------------------------- seat symbols
def _star(points: int, inner: float) -> tuple[tuple[float, float], ...]:
    return tuple(
        (
            (1.0 if k % 2 == 0 else inner) * math.sin(math.pi * k / points),
            -(1.0 if k % 2 == 0 else inner) * math.cos(math.pi * k / points),
        )
        for k in range(2 * points)
    )


def _plus(w: float, turn: float = 0.0) -> tuple[tuple[float, float], ...]:
    arm = ((-w, -1), (w, -1), (w, -w), (1, -w), (1, w), (w, w), (w, 1), (-w, 1), (-w, w), (-1, w), (-1, -w), (-w, -w))
    c, s = math.cos(turn), math.sin(turn)
    return tuple((x * c - y * s, x * s + y * c) for x, y in arm)


#: each seat symbol (engine.base.SEAT_SYMBOLS) as a polygon in a circle of radius 1 round
#: (0, 0), y down: boards draw it on a seat's pieces, pages as an SVG beside a name
SYMBOL_SHAPES: dict[str, tuple[tuple[float, float], ...]] = {
    "●": tuple((math.sin(math.pi * k / 12), -math.cos(math.pi * k / 12)) for k in range(24)),
    "▲": ((0.0, -1.0), (0.95, 0.75), (-0.95, 0.75)),
    "■": ((-0.78, -0.78), (0.78, -0.78), (0.78, 0.78), (-0.78, 0.78)),
    "◆": ((0.0, -1.0), (0.85, 0.0), (0.0, 1.0), (-0.85, 0.0)),
    "★": _star(5, 0.45),
    "✚": _plus(0.34),
    "⬢": tuple((math.sin(math.pi * k / 3), -math.cos(math.pi * k / 3)) for k in range(6)),
    "✖": _plus(0.3, math.pi / 4),
}


def symbol_points(symbol: str, cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """The polygon of a seat ``symbol`` of radius ``r`` round (cx, cy) (a circle: none known)."""
    shape = SYMBOL_SHAPES.get(symbol, SYMBOL_SHAPES["●"])
    return [(cx + x * r, cy + y * r) for x, y in shape]


def draw_symbol(
    d: ImageDraw.ImageDraw, symbol: str, cx: float, cy: float, r: float, fill: str, outline: str | None = None
) -> None:
    """A seat's symbol on a board: its shape in ``fill`` (ringed in ``outline``); noted for
    :func:`recorded_symbols`."""
    drawn = getattr(_recording, "symbols", None)
    if drawn is not None:
        drawn.append((symbol, fill))
    d.polygon(symbol_points(symbol, cx, cy, r), fill=fill, outline=outline)


def ink_on(colour: str) -> str:
    """Near-black or white, whichever reads better on ``colour`` (a symbol on a piece)."""
    r, g, b = (v / 255 for v in rgb(colour))
    lum = sum(
        k * (v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4)
        for k, v in zip((0.2126, 0.7152, 0.0722), (r, g, b))
    )
    return "#111111" if lum > 0.18 else "#ffffff"

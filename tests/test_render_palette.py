"""Thunder Road's board is drawn straight onto a palette image (issue 20 item 9: its render
cost): every colour it draws is exact, letters keep anti-aliased edges through the
palette's shades, and the cached layers (terrain, legend) give the same image as a
freshly drawn one."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

import render.thunder_road as R
from engine import get_game
from engine.base import SeatLabel
from engine.i18n import t
from render.common import TEXT_SHADES, recorded_text, rgb, text

GAME = get_game("thunder_road")
COLOURS = ["#e0533d", "#4a90d9", "#3fbf62", "#e8c547", "#a461d8"]


def _views(seats: int, seed: int, opts: dict | None = None, every: int = 7):
    names = [f"p{i + 1}" for i in range(seats)]
    st = GAME.new(names, opts or {}, seed)
    labels = {s: SeatLabel(name=f"Crew {i}", colour=COLOURS[i]) for i, s in enumerate(names)}
    out = []
    while GAME.outcome(st) is None and st.step < 3000:
        st, _ = GAME.ai_step(st)
        if st.step % every == 0:
            view = GAME.view(st, None, labels)
            if view.choices and st.step % 2 == 0:  # numbered destinations on some boards
                view = view.model_copy(
                    update={"marks": {f"{c.pos[0]},{c.pos[1]}": i + 1 for i, c in enumerate(view.choices)}}
                )
            out.append(view)
    out.append(GAME.view(st, None, labels))  # the final board
    return out


def _dim(c: str, k: float) -> tuple[int, int, int]:
    return tuple(int(v * k) for v in rgb(c))  # type: ignore[return-value]


def test_every_colour_is_exact_and_only_seat_colours_join_the_palette():
    base = R.palette()
    assert len(base) // 3 <= 226, "room left for five seats' colours and their shades"
    for seats, opts in ((2, {}), (5, {"big_rig": True})):
        allowed = {rgb(c) for c in COLOURS[:seats]} | {_dim(c, k) for c in COLOURS[:seats] for k in (0.45, 0.8)}
        for view in _views(seats, seed=4, opts=opts):
            im = Image.open(io.BytesIO(R.draw(view, "en")))
            assert im.mode == "P"
            pal = im.getpalette() or []
            assert tuple(pal[: len(base)]) == base  # the base palette, in place
            extra = {tuple(pal[i : i + 3]) for i in range(len(base), len(pal), 3)}
            assert extra <= allowed, extra - allowed
            used = {i for i, n in enumerate(im.histogram()) if n}
            assert max(used) < len(pal) // 3


def test_a_drawn_colour_missing_from_the_palette_is_refused_for_a_cached_layer():
    strip = R._canvas(40, 20)
    ImageDraw.Draw(strip).rectangle((0, 0, 5, 5), fill="#123456")  # not in DRAWN
    try:
        R._same_palette(strip, "legend")
    except RuntimeError as exc:
        assert "#123456" not in str(exc) and "DRAWN" in str(exc)
    else:
        raise AssertionError("a layer with a colour outside the base palette was accepted")


def test_letters_keep_their_anti_aliased_edges_within_one_shade():
    """The same text on an RGB image (true blending) and on the palette image: every
    pixel within half a shade step (plus rounding), and the edges are not cut sharp."""
    for fill, ground in R.TEXT_ON:
        ref = Image.new("RGB", (240, 40), ground)
        text(ImageDraw.Draw(ref), (4, 20), "Round 3 · 第3轮", 20, fill, "lm")
        pal = R._canvas(240, 40)
        ImageDraw.Draw(pal).rectangle((0, 0, 240, 40), fill=ground)
        text(ImageDraw.Draw(pal), (4, 20), "Round 3 · 第3轮", 20, fill, "lm", ground=ground)
        got = pal.convert("RGB")
        step = max(abs(a - b) for a, b in zip(rgb(fill), rgb(ground))) / (TEXT_SHADES + 1)
        worst = max(
            max(abs(a - b) for a, b in zip(p, q))
            for p, q in zip(ref.get_flattened_data(), got.get_flattened_data())  # type: ignore[arg-type]
        )
        assert worst <= step / 2 + 2, (fill, ground, worst, step)
        middle = {c for c in got.get_flattened_data() if c not in (rgb(fill), rgb(ground))}  # type: ignore[arg-type]
        assert len(middle) >= TEXT_SHADES // 2, (fill, ground, len(middle))


def test_cached_layers_draw_the_same_board_and_record_the_same_texts():
    views = _views(3, seed=11, every=23)
    assert len(views) >= 4
    first = []
    for view in views:
        R._legend.cache_clear()
        R._terrain_cached.cache_clear()
        R._blank.cache_clear()
        with recorded_text() as runs:
            png = R.draw(view, "zh")
        first.append((png, list(runs)))
    for view, (png, runs) in zip(views, first):  # now from the caches
        with recorded_text() as again:
            assert R.draw(view, "zh") == png
        assert again == runs
        assert t("thunder_road.render.legend.sizes", "zh") in [s for _, s in again]  # the legend's words


def test_recorded_text_nests():
    with recorded_text() as outer:
        text(ImageDraw.Draw(Image.new("RGB", (50, 20))), (0, 0), "a", 12)
        with recorded_text() as inner:
            text(ImageDraw.Draw(Image.new("RGB", (50, 20))), (0, 0), "b", 12)
        text(ImageDraw.Draw(Image.new("RGB", (50, 20))), (0, 0), "c", 12)
    assert [s for _, s in inner] == ["b"]
    assert [s for _, s in outer] == ["a", "c"]

"""Board images read at the size Discord shows them (issue 12, item 7).

Discord fits an inline image into about :data:`render.common.DISPLAY_BOX`
(CSS pixels) and a click opens it full size.  For every game, positions from
seeded AI games at the fewest and the most seats, the public image and each
seat's own, in English and Chinese, with real display names:

* the longer side is at least :data:`render.common.MIN_LONG_SIDE` pixels (sharp
  when scaled down on a HiDPI screen);
* every text run, scaled the way Discord scales the image, is at least
  :data:`render.common.MIN_DISPLAY_PX` CSS pixels tall.
"""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine import available, get_game
from engine.base import SeatLabel
from engine.locales import CODES
from render import render
from render.common import MIN_DISPLAY_PX, MIN_LONG_SIDE, MIN_TEXT_PX, display_scale, recorded_text

GAMES = available()  # every registered game

NAMES = ["Bartholomew", "小明同学", "Zoë", "Maximilian", "阿强"]
COLOURS = ["#e0533d", "#4a90d9", "#3fbf62", "#e8c547", "#a461d8"]


def positions(game_id: str, seats: int, seed: int, samples: int = 4):
    """States of one seeded AI game at ``samples`` evenly spread steps (and the end)."""
    game = get_game(game_id)
    names = [f"p{i + 1}" for i in range(seats)]
    state = game.new(names, {}, seed)
    states = [state]
    while game.outcome(state) is None and state.step < 5000:
        state, _ = game.ai_step(state, None)
        states.append(state)
    picks = [states[len(states) * k // samples] for k in range(samples)] + [states[-1]]
    labels = {s: SeatLabel(name=NAMES[i], colour=COLOURS[i]) for i, s in enumerate(names)}
    return game, names, picks, labels


def seat_counts(game_id: str) -> list[int]:
    game = get_game(game_id)
    lo, hi = game.seat_range()  # with the default options (more seats may need an option)
    low = max(lo, min(2, hi))
    return sorted({low, hi})


@pytest.mark.parametrize("game_id", GAMES)
def test_board_images_read_at_discord_display_size(game_id):
    worst: list[tuple[float, str, str]] = []
    for seats in seat_counts(game_id):
        game, names, picks, labels = positions(game_id, seats, seed=7)
        for state in picks:
            for seat in [None, *names]:
                view = game.view(state, seat, labels)
                for locale in CODES:
                    with recorded_text() as runs:
                        png = render(game_id, view, locale)
                    w, h = Image.open(io.BytesIO(png)).size
                    assert max(w, h) >= MIN_LONG_SIDE, f"{game_id} {locale} image {w}x{h} is too small"
                    assert runs, "the renderer draws its text through render.common (text or note_text)"
                    scale = display_scale(w, h)
                    for size, s in runs:
                        # the web companion's phone scale counts on it (tests/test_web_phone.py)
                        assert size >= MIN_TEXT_PX, f"{game_id}: {s!r} drawn at {size} px < MIN_TEXT_PX"
                        shown = size * scale
                        if shown < MIN_DISPLAY_PX:
                            worst.append((shown, locale, s))
    worst.sort()
    assert not worst, (
        f"{len(worst)} text runs of {game_id} read smaller than {MIN_DISPLAY_PX} px inline, e.g. "
        + "; ".join(f"{s!r} ({locale}) {shown:.1f} px" for shown, locale, s in worst[:8])
    )

"""The Automobile board image (issue 12, item 7): every text it draws is in the
table's language, seats are named by their labels, and every code is explained
(the loss points by a legend, the pieces by icons with words)."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from engine import get_game
from engine.base import SeatLabel
from engine.i18n import t
from engine.locales import CODES
from render import render
from render.common import recorded_text

GAME = get_game("automobile")
NAMES = ["Bartholomew", "小明同学", "Zoë", "Maximilian", "阿强"]
COLOURS = ["#e0533d", "#4a90d9", "#3fbf62", "#e8c547", "#a461d8"]
LATIN = re.compile(r"[A-Za-z]")
CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")


def _positions(seats: int, seed: int = 4):
    names = [f"p{i + 1}" for i in range(seats)]
    st = GAME.new(names, {}, seed)
    out = [st]
    while GAME.outcome(st) is None:
        st, _ = GAME.ai_step(st)
        out.append(st)
    labels = {s: SeatLabel(name=NAMES[i], colour=COLOURS[i]) for i, s in enumerate(names)}
    return names, out[:: max(1, len(out) // 12)] + [out[-1]], labels


def _runs(view, locale):
    with recorded_text() as runs:
        png = render("automobile", view, locale)
    assert Image.open(io.BytesIO(png)).size == (1100, 800)
    return [s for _, s in runs]


#: model names keep their designations ("福特T" is the Model T); players keep their names
KEEP = sorted(NAMES + [t(f"automobile.short.{i}", "zh") for i in range(36)], key=len, reverse=True)


def _without_names(s: str) -> str:
    for name in KEEP:
        s = s.replace(name, "")
    return s


@pytest.mark.parametrize("seats", [3, 5])
def test_every_text_on_the_board_is_in_the_tables_language_with_real_names(seats):
    names, states, labels = _positions(seats)
    for st in states:
        for viewer in (None, names[1]):
            view = GAME.view(st, viewer, labels)
            zh = _runs(view, "zh")
            en = _runs(view, "en")
            assert len(zh) == len(en) > 60
            foreign = [s for s in zh if LATIN.search(_without_names(s))]
            assert not foreign, f"English in the Chinese board: {foreign[:5]}"
            foreign = [s for s in en if CJK.search(_without_names(s))]
            assert not foreign, f"Chinese in the English board: {foreign[:5]}"
            ids = [s for s in en + zh if re.search(r"\bp[1-5]\b", s)]
            assert not ids, f"seat ids drawn although labels were given: {ids[:5]}"
            drawn = " ".join(en)
            for seat in names:
                assert labels[seat].name in drawn, "every player's display name is on the board"


def test_model_names_are_the_short_names_of_the_tables_language():
    _, states, labels = _positions(3)
    view = GAME.view(states[-1], None, labels)
    for locale in CODES:
        runs = set(_runs(view, locale))
        for sp in view.spaces:
            short = t(f"automobile.short.{sp.id}", locale)
            assert short in runs, (locale, sp.id, short)
    assert t("automobile.short.12", "zh") != t("automobile.short.12", "en")


def test_loss_points_and_icons_are_explained_not_coded():
    _, states, labels = _positions(3)
    mid = next(st for st in states if st.round >= 2 and any(p.losses for p in st.players.values()))
    view = GAME.view(mid, None, labels)
    for locale in CODES:
        runs = _runs(view, locale)
        assert not [s for s in runs if "●" in s or "■" in s], "no unexplained loss tokens"
        assert t("automobile.ui.loss_points", locale) in runs
        fee = t("automobile.ui.legend.loss", locale, fee=view.loss_fee)
        assert view.loss_fee > 0 and fee in runs, "the legend says what a loss point costs"
        for key in ("factory", "parts", "cars", "bonus", "discount", "dist"):
            assert t(f"automobile.ui.legend.{key}", locale) in runs, key


@pytest.mark.parametrize("locale", list(CODES))
def test_last_rounds_demand_is_said_to_be_last_rounds(locale):
    """Issue 29 item 11: from phase 1 of a round until its cards are turned up in phase 7,
    the board shows the previous round's demand and cards: it says which round they are
    of, as last round's, and this round's once they are turned up."""
    names, _, labels = _positions(3)
    st = GAME.new(names, {}, 4)
    past = current = 0
    while GAME.outcome(st) is None:
        st, _ = GAME.ai_step(st)
        view = GAME.view(st, None, labels)
        if not view.demand:
            continue
        drawn = " ".join(_runs(view, locale))
        last = t("automobile.ui.demand_past", locale, round=view.revealed_round)
        now = t("automobile.ui.demand_round", locale, round=view.revealed_round)
        cards = t("automobile.ui.revealed_past", locale, round=view.revealed_round, cards="").strip()
        if view.revealed_round < view.round:
            past += 1
            assert last in drawn and cards in drawn, drawn
        else:
            current += 1
            assert now in drawn and last not in drawn and cards not in drawn, drawn
    assert past and current

"""Every mark on a board is explained by its legend (issue 20 item 9): Armor Clash's
dashed arc edges (the boss's firing arc running on to the board's edge) are in its
legend, drawn in the colour of the line they explain."""

from __future__ import annotations

from engine import get_game
from engine.i18n import t
from render import render
from render.common import recorded_text


def _boss_board(seat: str | None):
    game = get_game("armor_clash")
    state = game.new(["p1", "p2"], {"scenario": "boss", "mode": "normal"}, 3)
    for _ in range(4):
        state, _ = game.ai_step(state, None)
    return game.view(state, seat)


def test_armor_clash_legend_explains_the_dashed_arc_edges():
    for locale in ("en", "zh"):
        with recorded_text() as runs:
            render("armor_clash", _boss_board(None), locale)
        drawn = {s for _, s in runs}
        assert t("armor_clash.render.legend.arc_edge", locale) in drawn
        assert t("armor_clash.render.legend.arc", locale) in drawn


def test_simple_mode_draws_no_arc_edges_and_does_not_explain_them():
    game = get_game("armor_clash")
    state = game.new(["p1", "p2"], {"scenario": "boss", "mode": "simple"}, 3)
    with recorded_text() as runs:
        render("armor_clash", game.view(state, None), "en")
    assert t("armor_clash.render.legend.arc_edge", "en") not in {s for _, s in runs}

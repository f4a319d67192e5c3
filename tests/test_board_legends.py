"""Every mark on a board is explained by its legend (issue 20 item 9): Armor Clash's
dashed arc edges (the boss's firing arc running on to the board's edge) are in its
legend, drawn in the colour of the line they explain."""

from __future__ import annotations

from engine import get_game
from engine.i18n import t
from engine.locales import CODES
from render import render
from render.common import recorded_text


def _boss_board(seat: str | None):
    game = get_game("armor_clash")
    state = game.new(["p1", "p2"], {"scenario": "boss", "mode": "normal"}, 3)
    for _ in range(4):
        state, _ = game.ai_step(state, None)
    return game.view(state, seat)


def test_armor_clash_legend_explains_the_dashed_arc_edges():
    for locale in CODES:
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


def test_automobile_final_frame_shows_every_result_whole():
    """The selfplay demo's last frame: each player's final money and the winner mark are
    drawn in full (issue 20 item 8: it used to end "final $3440 winner demand …")."""
    game = get_game("automobile")
    state = game.new(["p1", "p2", "p3", "p4"], {}, 1)
    while game.outcome(state) is None:
        state, _ = game.ai_step(state, None)
    view = game.view(state, None)
    with recorded_text() as runs:
        render("automobile", view, "en")
    finals = [s for _, s in runs if s.startswith(t("automobile.ui.score", "en", money="").split("$")[0].strip())]
    assert len(finals) == 4, finals
    assert not any(s.endswith("…") for s in finals), finals
    assert sum(t("automobile.ui.winner", "en") in s for s in finals) >= 1

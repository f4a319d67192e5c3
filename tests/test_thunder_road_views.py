"""Thunder Road: Vendetta -- the typed views are all the renderer reads."""

from __future__ import annotations

import ast
from pathlib import Path

from engine.base import SeatLabel
from engine.thunder_road import GAME
from engine.thunder_road import content as C
from engine.thunder_road.models import TRSeatView, TRView
from render.thunder_road import draw

ROOT = Path(__file__).resolve().parent.parent


def played(n=3, opts=None, seed=2, steps=80):
    st = GAME.new([f"s{i}" for i in range(n)], opts or {}, seed)
    for _ in range(steps):
        if GAME.outcome(st) is not None:
            break
        st, _ = GAME.ai_step(st)
    return st


def test_renderer_imports_only_the_view_models_of_the_engine():
    tree = ast.parse((ROOT / "render" / "thunder_road.py").read_text(encoding="utf-8"))
    engine_imports = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("engine"):
            engine_imports.add(node.module)
        elif isinstance(node, ast.Import):
            engine_imports |= {a.name for a in node.names if a.name.startswith("engine")}
    # the view models, the catalogs and the one language list (engine/locales.py, which every layer
    # reads); never the rules
    assert engine_imports <= {"engine.i18n", "engine.locales", "engine.thunder_road.models"}, engine_imports


def test_public_and_seat_views_are_typed_models():
    st = played()
    pub = GAME.view(st, None)
    assert type(pub) is TRView and pub.viewer is None
    seat = GAME.to_act(st)[0]
    mine = GAME.view(st, seat)
    assert isinstance(mine, TRSeatView) and mine.viewer == seat and mine.your_turn
    other = next(s for s in st.seats if s != seat)
    assert not GAME.view(st, other).your_turn
    # the JSON data of the view validates back to it (what the driver sends)
    assert TRSeatView.model_validate(mine.model_dump(mode="json")) == mine
    assert "rng" not in mine.model_dump() and "seed" not in mine.model_dump()


def test_board_view_carries_the_terrain_geometry_and_names_the_renderer_draws():
    st = played()
    b = GAME.view(st, None).board
    assert (b.columns, b.rows, b.tile_rows) == (C.W, C.H // 2, C.TH // 2)
    assert b.tile_names == [C.faces()[f]["name"] for f in st.tiles]
    for r in range(b.rows):
        for c in range(b.columns):
            ch = C.base_char(st.tiles, C.hex_of(r, c))
            assert b.terrain[r][c] == ("H" if C.is_hazard_char(ch) else ch)
    colours = C.board()["colours"]
    assert [c.colour_hex for c in GAME.view(st, None).crews] == [colours[c.colour] for c in st.crews]


def test_seat_labels_name_the_crews_in_the_view_and_the_image():
    st = played()
    v = GAME.view(st, None, {"s0": SeatLabel(name="Alice", colour="#ff0000")})
    assert [v.label(c.seat) for c in v.crews] == ["Alice", "s1", "s2"]
    assert draw(v, "en") != draw(GAME.view(st, None), "en")  # the dashboard names the crew by its label


def test_draw_takes_the_model_or_its_json_data_alike():
    st = played(5, {"big_rig": True, "final_five": True}, seed=4, steps=150)
    st.final = True
    v = GAME.view(st, None)
    png = draw(v, "en")
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and png == draw(v.model_dump(mode="json"), "en")

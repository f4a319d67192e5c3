"""Playing whole games with standing orders armed, for the per-game order tests (issue 31).

Every seat plays the game's AI; before each of its own decisions it arms what
``typical_orders`` offers (as a typical player would when looking in), and an armed
order that fires takes the step instead, as the platform's autopilot does.  The log
records every step taken, so a replay from the seed and the log must end equal.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any

from engine.base import Game, canonical
from engine.orders import ArmedOrder


@dataclass
class Played:
    state: Any
    log: list[tuple[str, Any]] = field(default_factory=list)
    fired: dict[str, int] = field(default_factory=dict)  # order kind -> steps it took
    lapsed: dict[str, int] = field(default_factory=dict)  # lapse reason key -> count
    #: (state before, seat, action, order kind) of every step an order took
    steps: list[tuple[Any, str, Any, str]] = field(default_factory=list)


def typical(game: Game[Any]) -> Any:
    return importlib.import_module(f"engine.{game.id}.orders").typical_orders


def play(game: Game[Any], seats: list[str], seed: int, options: Any = None, limit: int = 5000, keep: int = 0) -> Played:
    """One whole game (at most ``limit`` steps); the first ``keep`` steps of each order kind are
    kept with their state."""
    state = game.new(seats, options, seed=seed)
    armed: dict[str, dict[str, ArmedOrder]] = {s: {} for s in seats}
    out = Played(state)
    arm = typical(game)
    for _ in range(limit):
        if game.outcome(state) is not None:
            break
        seat = game.to_act(state)[0]
        action, by = None, None
        for kind, order in list(armed[seat].items()):
            step = game.order_step(state, seat, order)
            if step.kind == "fire":
                action, by = step.action, kind
                break
            if step.kind == "lapse":
                del armed[seat][kind]
                out.lapsed[step.reason.key] = out.lapsed.get(step.reason.key, 0) + 1
        if action is None:
            for k in arm(state, seat):
                if k.kind not in armed[seat]:
                    armed[seat][k.kind] = game.arm(state, seat, k.kind, k.params)
            action = game.ai_action(state, seat)
        else:
            out.fired[by or ""] = out.fired.get(by or "", 0) + 1
            if sum(1 for x in out.steps if x[3] == by) < keep:
                out.steps.append((state, seat, action, by or ""))
        out.log.append((seat, action.model_dump(mode="json")))
        state, _ = game.apply(state, seat, action)
    out.state = state
    return out


def replays_equal(game: Game[Any], seats: list[str], seed: int, options: Any, played: Played) -> bool:
    again = game.replay(seats, options, seed, played.log)
    return canonical(game.dump(again)) == canonical(game.dump(played.state))


def same_as_clicked(game: Game[Any], state: Any, seat: str, action: Any) -> None:
    """The step an order took shows every other seat, and the public, exactly what the same
    action clicked by the player (sent as JSON, parsed afresh) shows them."""
    by_order, ev_order = game.apply(state, seat, action)
    clicked = game.parse_action(action.model_dump(mode="json"))
    by_click, ev_click = game.apply(game.copy_state(state), seat, clicked)
    assert canonical(game.dump(by_order)) == canonical(game.dump(by_click))
    for viewer in [None, *[s for s in state.seats if s != seat]]:
        assert canonical(game.view(by_order, viewer)) == canonical(game.view(by_click, viewer))
        seen_o = game.dump_events(game.visible_events(ev_order, viewer))
        seen_c = game.dump_events(game.visible_events(ev_click, viewer))
        assert canonical(seen_o) == canonical(seen_c)


def no_order_in_views(game: Game[Any], state: Any, owner: str, armed: list[ArmedOrder]) -> None:
    """No armed order's kind, label key or params shows in any other seat's view or the public
    one (the orders live beside the state, never in it)."""
    texts = [canonical(game.view(state, v)) for v in [None, *[s for s in state.seats if s != owner]]]
    for order in armed:
        kinds = {k.kind: k for k in game.order_kinds(state, owner)}
        label = kinds[order.kind].label.key if order.kind in kinds else f"{game.id}.order.{order.kind}"
        for text in texts:
            assert label not in text
            assert f'"{order.kind}"' not in text
            if order.params:
                assert canonical(order.params) not in text

"""Story mode: a campaign of scenarios as pure data + functions.

The platform stores :class:`Progress` as JSON between scenarios.  A scenario is
started with :func:`engine.armor_clash.start_scenario` (which also lets new players
join; it lives beside the game, so this module imports no game) and its
end recorded with :func:`record_result` (crews gain experience and rise from
recruit to veteran to legend; losses carry over).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..base import Model
from ..errors import GameError
from . import content
from .models import Options, State


class Crew(Model):
    seat: str
    level: Literal["recruit", "veteran", "legend"] = "recruit"
    xp: int = 0
    vehicle: str = "t34_85"
    link: bool = True  # wants the body-turret link once veteran
    battles: int = 0
    kills: int = 0
    track_knockouts: int = 0  # rules 10.1: the second one writes the vehicle off
    generation: int = 1  # 2 = the first replacement crew after a loss


class HistoryEntry(Model):
    scenario: str
    won: bool
    turns: int
    seats: list[str]
    losses: list[str] = Field(default_factory=list)
    promotions: list[str] = Field(default_factory=list)


class Progress(Model):
    schema_version: int = 1
    mode: Literal["simple", "normal"] = "normal"
    repeated_hits: bool = False
    ammo_rack: bool = False
    ricochet_stun: bool = False
    index: int = 0
    crews: dict[str, Crew] = Field(default_factory=dict)
    reserve: int = 6
    losses: int = 0
    finished: bool = False
    won: bool = False
    history: list[HistoryEntry] = Field(default_factory=list)


class UnitResult(Model):
    seat: str
    status: Literal["active", "out", "destroyed"]
    kills: int = 0
    track_knockouts: int = 0


class ScenarioResult(Model):
    scenario: str
    won: bool
    turns: int
    units: list[UnitResult]


def _err(code: str, **params) -> GameError:
    return GameError(code, f"armor_clash.error.{code}", **params)


def new_campaign(
    mode: str = "normal", repeated_hits: bool = False, ammo_rack: bool = False, ricochet_stun: bool = False
) -> Progress:
    if mode not in ("simple", "normal"):
        row = content.tables()["modes"].get(mode, {})
        raise GameError("mode_unavailable", row.get("refuse", "armor_clash.error.mode_unavailable"), mode=mode)
    return Progress(
        mode=mode,
        repeated_hits=repeated_hits,
        ammo_rack=ammo_rack,
        ricochet_stun=ricochet_stun,
        reserve=content.campaign()["reserve_vehicles"],
    )


def scenario_list() -> list[dict]:
    return list(content.campaign()["scenarios"])


def current_scenario(progress: Progress) -> dict | None:
    sc = scenario_list()
    return sc[progress.index] if progress.index < len(sc) else None


def join(progress: Progress, seat: str, vehicle: str | None = None) -> Progress:
    """A player joins between scenarios with a fresh recruit crew."""
    camp = content.campaign()
    new = progress.model_copy(deep=True)
    if seat in new.crews:
        if vehicle:
            _check_vehicle(vehicle)
            new.crews[seat].vehicle = vehicle
        return new
    if len(new.crews) >= camp["max_players"]:
        raise _err("campaign_full")
    if vehicle:
        _check_vehicle(vehicle)
    new.crews[seat] = Crew(seat=seat, level=camp["start_crew"], vehicle=vehicle or camp["start_vehicle"])
    return new


def _check_vehicle(vehicle: str) -> None:
    if vehicle not in content.campaign()["vehicle_choices"]:
        raise GameError("bad_options", "core.error.bad_options", detail=f"vehicle {vehicle}")


def scenario_options(progress: Progress, seats: list[str]) -> Options:
    sc = current_scenario(progress)
    if sc is None or progress.finished:
        raise _err("campaign_over")
    crews = [progress.crews[s] for s in seats]
    return Options(
        mode=progress.mode,
        scenario=sc["id"],
        vehicles=[c.vehicle for c in crews],
        crews=[c.level for c in crews],
        links=[c.link for c in crews],
        repeated_hits=progress.repeated_hits,
        ammo_rack=progress.ammo_rack,
        ricochet_stun=progress.ricochet_stun,
        max_turns=int(sc["max_turns"][progress.mode]),
    )


def prepare_scenario(progress: Progress, seats: list[str]) -> tuple[Progress, Options]:
    """Join any new seats; the progress and the options of the current scenario (the game
    builds its state from them: :func:`engine.armor_clash.start_scenario`)."""
    if not 1 <= len(seats) <= content.campaign()["max_players"]:
        raise _err("campaign_no_seats")
    if progress.finished:
        raise _err("campaign_over")
    for s in seats:
        if s not in progress.crews:
            progress = join(progress, s)
    return progress, scenario_options(progress, list(seats))


def result_of(state: State) -> ScenarioResult:
    """The campaign-relevant facts of a finished scenario."""
    won = state.result is not None and state.result.side == "players"
    units = [
        UnitResult(seat=u.seat, status=u.status, kills=u.kills, track_knockouts=u.track_knockouts)
        for u in state.units
        if u.seat is not None
    ]
    return ScenarioResult(scenario=state.options.scenario, won=won, turns=state.turn - 1, units=units)


def record_result(progress: Progress, outcome: ScenarioResult | State) -> Progress:
    """Fold a finished scenario into the campaign: experience, promotions, losses, next scenario."""
    if isinstance(outcome, State):
        outcome = result_of(outcome)
    sc = current_scenario(progress)
    if progress.finished or sc is None:
        raise _err("campaign_over")
    if outcome.scenario != sc["id"]:
        raise _err("campaign_wrong_scenario", scenario=outcome.scenario)
    camp = content.campaign()
    xp = camp["xp"]
    new = progress.model_copy(deep=True)
    entry = HistoryEntry(
        scenario=outcome.scenario, won=outcome.won, turns=outcome.turns, seats=[u.seat for u in outcome.units]
    )
    for r in outcome.units:
        crew = new.crews.get(r.seat) or Crew(seat=r.seat, level=camp["start_crew"], vehicle=camp["start_vehicle"])
        crew.battles += 1
        crew.kills += r.kills
        if r.status == "destroyed":
            # the vehicle and its crew are lost; a recruit crew takes a reserve vehicle
            new.losses += 1
            new.reserve -= 1
            entry.losses.append(r.seat)
            crew = Crew(
                seat=r.seat,
                level=camp["start_crew"],
                vehicle=crew.vehicle,
                link=crew.link,
                generation=crew.generation + 1,
            )
            new.crews[r.seat] = crew
            continue
        crew.xp += xp["survived"] + xp["per_kill"] * r.kills + (xp["victory"] if outcome.won else 0)
        crew.track_knockouts += r.track_knockouts
        if new.repeated_hits and crew.track_knockouts >= 2:
            # rules 10.1: tracks knocked out twice cannot be repaired: the vehicle is written off, the crew bails out
            new.losses += 1
            new.reserve -= 1
            entry.losses.append(r.seat)
            crew.track_knockouts = 0
        old = crew.level
        for level in ("veteran", "legend"):
            if crew.xp >= camp["promote"][level] and content.crew_rank(level) > content.crew_rank(crew.level):
                crew.level = level
        if crew.level != old:
            entry.promotions.append(f"{r.seat}:{crew.level}")
        new.crews[r.seat] = crew
    new.history.append(entry)
    if new.reserve < 0:
        new.reserve = 0
        new.finished, new.won = True, False
    elif outcome.won:
        new.index += 1
        if new.index >= len(scenario_list()):
            new.finished, new.won = True, True
    return new

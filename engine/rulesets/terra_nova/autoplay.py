"""An automatic power: a plain colonial plan, written as ordinary order lines with the reason after `#`.

The plan, window by window: buy the ships that carry this turn's settlers and a mission (B.5); sail them
with a leader to the best coast for a colony (C.1); settle, found missions and raise towns where its units
stand (D.3); bring ships, gold and goods home (F.1); vote to play on (G.7). In a battle it charges when it
has twice the enemy's strength, withdraws at under half of it, and fights plainly otherwise. It reads only
what its seat may see: its own forces and treasury, and the public map (holdings, natives, claims, forces
outside Europe). Every line goes through the same checker as a player's, and refused lines are dropped.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.phases import Window
from engine.rulesets.terra_nova import combat
from engine.rulesets.terra_nova.checking import check_lines
from engine.rulesets.terra_nova.end_of_turn import upkeep
from engine.rulesets.terra_nova.geography import DIRECT, EUROPE, geography
from engine.rulesets.terra_nova.naval import capacity_halves, cargo_halves
from engine.rulesets.terra_nova.reference import development, ships, units
from engine.rulesets.terra_nova.sequence import current, phase_of
from engine.rulesets.terra_nova.state import Force, TNState

RESERVE = 20            # florins kept back beyond a turn's upkeep, so maintenance never disbands anything


@dataclass(frozen=True)
class Line:
    order: str
    reason: str

    def text(self) -> str:
        return f"{self.order}  # {self.reason}"


def orders(state: TNState, seat: str) -> str | None:
    """The automatic power's orders for the open window (checked; refused lines dropped), or None."""
    phase = phase_of(state)
    if state.ended or seat not in phase.waiting:
        return None
    if phase.window is Window.TURN:
        return tactic(state, seat)
    if phase.window is not Window.ORDERS:
        return None
    plan = PLANS.get(current(state).name)
    lines = plan(state, seat) if plan else []
    if not lines:
        return None
    checks = check_lines(state, seat, "\n".join(line.text() for line in lines))
    kept = [line.text() for line, check in zip(lines, checks, strict=True) if check.accepted]
    return "\n".join(kept) or None


def tactic(state: TNState, seat: str) -> str:
    """A battle round: charge at 2:1 or better, withdraw at under 1:2, otherwise no tactic."""
    battle = state.battles[0]
    mine = combat.strength(state, battle, seat)
    other = battle.defender if seat == battle.attacker else battle.attacker
    theirs = combat.strength(state, battle, other)
    legal = combat.legal_tactics(battle, seat)
    if theirs and mine * 2 < theirs and "withdrawal" in legal:
        return "tactic withdrawal"
    if mine >= 2 * theirs and "charge" in legal:
        return "tactic charge"
    return "tactic none"


# -- helpers ----------------------------------------------------------------------------------------------------


def _spare(state: TNState, seat: str) -> int:
    return state.powers[seat].treasury - upkeep(state, seat) - RESERVE


def _europe(state: TNState, seat: str) -> Force:
    return state.peek(EUROPE, seat) or Force()


def _fleet_text(fleet: dict[str, int]) -> str:
    return ", ".join(f"{n} {k}" for k, n in sorted(fleet.items()))


def _colonists(force: Force) -> dict[str, int]:
    return {u: force.count(u) for u in ("settler", "depleted", "mission", "soldier") if force.count(u)}


def _bounds(dest: str) -> int:
    place = geography().places[dest]
    return geography().ocean_bounds(EUROPE, dest, DIRECT, place.coasts[0]) or 99


def coast_for_colony(state: TNState, seat: str) -> str | None:
    """The best coast to settle: rich (R2), near, few natives, not already another power's, friendly natives."""
    best: tuple[float, str] | None = None
    for place in geography().in_play(bool(state.options.get("east_indies"))):
        if place.kind != "land" or not place.bounds or place.extreme or place.civilisation:
            continue
        area = state.areas[place.name]
        if seat in area.hostile:
            continue
        others = sum(h.colonies for p, h in area.holdings.items() if p != seat)
        own = area.holdings.get(seat)
        score = (4.0 if place.r2 else 0.0) - 0.8 * _bounds(place.name) - 0.6 * area.natives - 3.0 * others
        score += 1.5 if own and own.colonies else 0.0
        score += 1.0 if area.claimed in (None, seat) else 0.0
        score += (sum(map(ord, seat + place.name)) % 5) * 0.2       # each power's own taste, fixed
        if best is None or score > best[0]:
            best = (score, place.name)
    return best[1] if best else None


def _coast(dest: str) -> str:
    coasts = geography().places[dest].coasts
    return dest if coasts == ("",) else f"{dest}/{coasts[0]}"


# -- the windows ----------------------------------------------------------------------------------------------


def _buy(state: TNState, seat: str) -> list[Line]:
    europe = _europe(state, seat)
    spare = _spare(state, seat)
    lines: list[Line] = []
    settlers = europe.count("settler")
    need = cargo_halves({"settler": settlers, "soldier": europe.count("soldier")}, 0, 0)
    have = capacity_halves(europe.ships)
    late = state.turn >= int(state.options.get("late_ships_turn", 13))
    hull = "fluyt" if late else "carrack"
    while settlers and have < need and spare >= (ships()[hull].cost or 0):
        lines.append(Line(f"buy 1 {hull}", f"room for this turn's {settlers} settler(s)"))
        spare -= ships()[hull].cost or 0
        have += capacity_halves({hull: 1})
    fleet_anywhere = any(f.ships for forces in state.forces.values() for p, f in forces.items() if p == seat)
    if not settlers and not fleet_anywhere and spare >= (ships()[hull].cost or 0):
        lines.append(Line(f"buy 1 {hull}", "a ship ready for the next colonists"))
        spare -= ships()[hull].cost or 0
        have += capacity_halves({hull: 1})
    mission_cost = units()["mission"].cost or 0
    if spare >= mission_cost + 10 and (settlers or have):
        lines.append(Line("buy 1 mission", "a mission sails with the colonists: 1 VP once founded"))
        spare -= mission_cost
    if development(state.turn).towns and settlers and spare >= 40 and not europe.count("soldier"):
        lines.append(Line("buy 1 soldier", "a guard for the new colony"))
    return lines


def _sail_out(state: TNState, seat: str) -> list[Line]:
    europe = _europe(state, seat)
    if not europe.ships:
        return []
    cargo = _colonists(europe)
    if not cargo.get("settler") and not cargo.get("mission") and not cargo.get("depleted"):
        return []
    dest = coast_for_colony(state, seat)
    if dest is None:
        return []
    room = capacity_halves(europe.ships)
    taken: dict[str, int] = {}
    for unit in ("settler", "depleted", "mission", "soldier"):
        for _ in range(cargo.get(unit, 0)):
            trial = {**taken, unit: taken.get(unit, 0) + 1}
            if cargo_halves(trial, 0, 0) <= room:
                taken = trial
    if not taken:
        return []
    leaders = [ld.name for ld in state.leaders_of(seat, EUROPE)]
    leader = f" leaders {leaders[0]}" if leaders else ""
    what = ", ".join(f"{n} {'depleted settler' if u == 'depleted' else u}" for u, n in taken.items())
    order = f"sail {_fleet_text(europe.ships)} from Europe to {_coast(dest)} carrying {what}{leader}"
    place = geography().places[dest]
    why = f"{dest}: {'rich (R2), ' if place.r2 else ''}{_bounds(dest)} bounds, natives {state.areas[dest].natives}"
    return [Line(order, why)]


def _land(state: TNState, seat: str) -> list[Line]:
    lines: list[Line] = []
    towns = development(state.turn).towns
    spare = _spare(state, seat)
    for name in sorted(state.areas):
        force = state.peek(name, seat)
        if not geography().places[name].is_land:
            continue
        if force:
            for _ in range(force.count("settler")):
                lines.append(Line(f"settle {name}", "a settler ashore founds a settlement (1 VP, income)"))
            for _ in range(force.count("depleted")):
                lines.append(Line(f"settle {name} with depleted settler", "even a depleted settler may settle"))
            if force.count("mission") and state.areas[name].natives:
                lines.append(Line(f"mission {name}", "a mission among the natives: 1 VP"))
        holding = state.areas[name].holdings.get(seat)
        town_cost = units()["town"].cost or 0
        if towns and holding and holding.settlements and spare >= town_cost:
            lines.append(Line(f"town {name}", "a settlement grows into a town (3 VP)"))
            spare -= town_cost
        if holding and holding.colonies:
            lines.append(Line(f"tactic {name} defend", "hold the colony if attacked"))
    return lines


def _sail_home(state: TNState, seat: str) -> list[Line]:
    lines: list[Line] = []
    for name, forces in sorted(state.forces.items()):
        force = forces.get(seat)
        place = geography().places.get(name)
        if not force or not force.ships or name == EUROPE or place is None or place.kind not in ("land", "indies"):
            continue
        if any(ships()[k].hemispheric_only for k in force.ships):
            continue
        carrying = []
        if force.gold:
            carrying.append(f"{force.gold} gold")
        for code in sorted({g.code for g in force.goods}):
            carrying.append(f"{sum(1 for g in force.goods if g.code == code)} {code}")
        order = f"sail {_fleet_text(force.ships)} from {name} to Europe"
        if carrying:
            order += " carrying " + ", ".join(carrying)
        lines.append(Line(order, "home to carry next turn's colonists" + (" and the gold" if force.gold else "")))
    return lines


def _vote(state: TNState, seat: str) -> list[Line]:
    return [Line("vote continue", "the colonies are still growing")]


PLANS = {"B5": _buy, "C1": _sail_out, "D3": _land, "F1": _sail_home, "G7": _vote}

"""The factors of a Merchant House action that the sheets and the map can tell (LotE 7.4): the target's religion
against the House's, the leader's distance in AP, the House's nearest site, and the House statuses in a nation.
Only language is left to the GM: neither the sheets nor the map record it.

These are put before the GM with the ruling at processing, never in the House's own answer (other nations'
capitals, cities and statuses are theirs).
"""

from __future__ import annotations

from engine.rulesets.lote_modern import reach, statuses
from engine.rulesets.lote_modern.rules import merchant_actions
from engine.rulesets.lote_modern.sheet import Leader, Nation
from engine.rulesets.lote_modern.state import GameState
from engine.rulesets.lote_modern.text import number

JUDGE = "for the GM to judge"


def _places(state: GameState, code: str, target: str) -> list[str]:
    """Where the action takes place: the city or region, a nation's capital, or a mercenary pool's regions."""
    if code in ("amn", "gpt", "dcm"):
        other = state.find_nation(target)
        return [other.capital] if other is not None and other.capital else []
    if code == "emb":
        pool = state.world.pool(target)
        return list(pool.regions) if pool is not None else []
    return [target] if state.world.canonical(target) is not None else []


def religion(state: GameState, n: Nation, places: list[str]) -> tuple[bool, str]:
    """Whether the religion at the target is hostile to the House's, and the factor as the GM reads it."""
    world = state.world
    faiths = sorted({world.region_of(p).religion for p in places if world.region_of(p).religion})
    if not faiths or not n.religion:
        return False, f"no religion recorded at the target: {JUDGE}"
    relations = {faith: world.religion_relation(n.religion, faith) for faith in faiths}
    hostile = [f for f, r in relations.items() if r == "hostile"]
    unknown = [f for f, r in relations.items() if r is None]
    if hostile:
        return True, f"yes: {', '.join(hostile)} against the House's {n.religion} (another family on the map)"
    if unknown:
        return False, f"{', '.join(unknown)} against the House's {n.religion}: the map gives no family: {JUDGE}"
    kinds = ", ".join(f"{f} {'(same)' if r == 'same' else '(tolerant, one family)'}" for f, r in relations.items())
    return False, f"no: {kinds}"


def distance(state: GameState, n: Nation, leader: Leader, places: list[str]) -> tuple[float, str]:
    """AP along the map from the leader's location to the nearest of the target places."""
    if not leader.location or state.world.canonical(leader.location) is None:
        return 0.0, f"{leader.name}'s location is not on the sheet: {JUDGE}"
    best = min((d for p in places if (d := reach.ap_between(state, n, leader.location, p)) is not None), default=None)
    if best is None:
        return 0.0, f"no way on the map from {leader.location}: {JUDGE}"
    return best, f"{number(best)} from {leader.name} at {leader.location}"


def nearest_site(state: GameState, n: Nation, places: list[str]) -> str:
    """The House's nearest other location to the target, in AP (7.4.1: distance from other controlled locations)."""
    sites = [h.city if hasattr(h, "city") else h.region for h in n.holdings()]
    sites = [s for s in sites if s not in places]
    found = min(((site, d) for p in places if (hit := reach.nearest(state, n, sites, p)) is not None
                 for site, d in [hit]), key=lambda pair: pair[1], default=None)
    return f"{number(found[1])} AP from {found[0]}" if found else "none on the map"


def house_locations(state: GameState, nation_name: str, house: str) -> tuple[int, int, str]:
    """The nation's cities, how many hold any House's status, and how many this House's (7.4.6-7.4.7)."""
    nation = state.find_nation(nation_name)
    if nation is None:
        return 0, 0, JUDGE
    cities = [c.city for c in nation.cities if statuses.get(c.status).ladder == "nation"]
    houses = [m for m in state.nations.values() if m.is_house]
    held = [c for c in cities if any((h := m.city(c)) is not None and statuses.is_merchant(h.status) for m in houses)]
    own = sum(1 for c in cities if (h := state.nation(house).city(c)) is not None and statuses.is_merchant(h.status))
    return len(held), len(cities), f"{len(held)} of {len(cities)} cities hold a House status ({own} of them {house}'s)"


def attempt(state: GameState, n: Nation, leader: Leader, code: str, target: str, *, stat: int, support_gold: float,
            in_region: bool) -> tuple[merchant_actions.Attempt, dict[str, object]]:
    """The attempt with what the data can tell filled in, and the factors as the GM reads them."""
    places = _places(state, code, target)
    hostile, faith = religion(state, n, places)
    ap, far = distance(state, n, leader, places)
    shown: dict[str, object] = {"hostile religion": faith, "different language": f"{JUDGE} (no languages on the "
                                                                                  "sheets or the map)",
                                "distance (AP)": far, "nearest House location": nearest_site(state, n, places)}
    held = total = 0
    if code in ("amn", "gpt"):
        held, total, shown["House locations in the nation"] = house_locations(state, target, n.name)
    return merchant_actions.Attempt(leader.name, stat, support_gold=support_gold, hostile_religion=hostile,
                                    distance_ap=ap, in_region=in_region, house_locations_in_nation=held,
                                    nation_locations=total), shown

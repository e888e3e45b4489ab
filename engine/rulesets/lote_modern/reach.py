"""Distances on the campaign map in action points, for the orders and rulings that measure them.

A region or sea zone entered costs one AP (the basic rulebook's terrain costs are not in the supplement,
so this is the same starting point the CCR and the control web use); a step along the nation's own
railroad costs a quarter and along a Royal Road a half (Table 6-1, LotE 3.4.3). Cities stand for their
region. Decided: see docs/rulesets/lote-modern.md ("Distances").
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from engine.rulesets.lote_modern import oversight
from engine.rulesets.lote_modern.rules import command
from engine.rulesets.lote_modern.sheet import Nation
from engine.rulesets.lote_modern.state import GameState
from engine.rulesets.lote_modern.world import CampaignMap


def node(world: CampaignMap, place: str) -> str:
    """The map node a place stands on: its region (a city's region), or the sea zone itself."""
    return oversight.region_node(world, place)


def road_links(world: CampaignMap) -> list[command.Link]:
    """The map's Royal Roads as crossings at half cost (Table 6-1)."""
    return [link for a, b in world.roads for link in command.links_both_ways(a, b, 1.0, "road")]


def ap_costs(state: GameState, n: Nation, origin: str, *, limit: float = math.inf) -> dict[str, float]:
    """AP from `origin` to every region and sea zone within `limit`."""
    links = [*oversight.links(state, n), *road_links(state.world)]
    return command.shortest_costs(node(state.world, origin), links, command.ccr_costs(), limit=limit)


def ap_between(state: GameState, n: Nation, origin: str, target: str, *, limit: float = math.inf) -> float | None:
    """AP from one place to another along the map, or None beyond `limit` (or unreachable)."""
    return ap_costs(state, n, origin, limit=limit).get(node(state.world, target))


def nearest(state: GameState, n: Nation, origins: Iterable[str], target: str, *,
            limit: float = math.inf) -> tuple[str, float] | None:
    """The origin closest to `target` in AP, with the distance; None when none is within `limit`."""
    best: tuple[str, float] | None = None
    for origin in origins:
        d = ap_between(state, n, origin, target, limit=limit)
        if d is not None and (best is None or d < best[1]):
            best = (origin, d)
    return best


def land_ap(state: GameState, n: Nation, origin: str, target: str, *, limit: float = math.inf) -> float | None:
    """AP overland only (land borders, the nation's railroads, Royal Roads), or None beyond `limit`."""
    links = [link for link in oversight.links(state, n) if link.kind in ("land", "rail")] + road_links(state.world)
    costs = command.shortest_costs(node(state.world, origin), links, command.ccr_costs(), limit=limit)
    return costs.get(node(state.world, target))

"""Distances on the campaign map in action points, for the orders and rulings that measure them.

A region or sea zone entered costs one AP (the basic rulebook's terrain costs are not in the supplement,
so this is the same starting point the CCR and the control web use); a step along the nation's own
railroad costs a quarter and along a Royal Road a half (Table 6-1, LotE 3.4.3). Cities stand for their
region. Decided: see docs/rulesets/lote-modern.md ("Distances").
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from engine.rulesets.lote_modern.rules import command
from engine.rulesets.lote_modern.sheet import Nation
from engine.rulesets.lote_modern.state import GameState
from engine.rulesets.lote_modern.world import CampaignMap


def node(world: CampaignMap, place: str) -> str:
    """The map node a place stands on: its region (a city's region), or the sea zone itself."""
    key = world.canonical(place)
    if key is None:
        return place
    return key if key in world.zones else world.region_of(key).name


def links(state: GameState, n: Nation) -> list[command.Link]:
    """The map as a messenger or merchant leader crosses it: a point a region or zone; the nation's own
    railroads are extra crossings at a quarter (the tracer takes the cheaper)."""
    rails = [link for s in n.railroads if s.levels > 0 for link in command.links_both_ways(s.a, s.b, 1.0, "rail")]
    return [*map_links(state.world), *rails]


def map_links(world: CampaignMap) -> list[command.Link]:
    """Every land border and sea crossing of the map, one point each."""
    key = id(world)
    cached = _LINKS.get(key)
    if cached is not None and cached[0] is world:
        return cached[1]
    out: list[command.Link] = []
    for region in world.regions.values():
        for nb in region.neighbours:
            out.append(command.Link(region.name, nb, 1.0, "land"))
        for zone in region.coasts:
            out += command.links_both_ways(region.name, zone, 1.0, "sea")
    for link in world.links:
        out += command.links_both_ways(link.a, link.b, 1.0, "sea")
    _LINKS.clear()
    _LINKS[key] = (world, out)
    return out


# One map's crossings, kept while the same map object is in use (a turn traces every nation on it).
_LINKS: dict[int, tuple[CampaignMap, list[command.Link]]] = {}


def road_links(world: CampaignMap) -> list[command.Link]:
    """The map's Royal Roads as crossings at half cost (Table 6-1)."""
    return [link for a, b in world.roads for link in command.links_both_ways(a, b, 1.0, "road")]


def ap_costs(state: GameState, n: Nation, origin: str, *, limit: float = math.inf) -> dict[str, float]:
    """AP from `origin` to every region and sea zone within `limit`."""
    crossings = [*links(state, n), *road_links(state.world)]
    return command.shortest_costs(node(state.world, origin), crossings, command.ccr_costs(), limit=limit)


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
    overland = [link for link in links(state, n) if link.kind in ("land", "rail")] + road_links(state.world)
    costs = command.shortest_costs(node(state.world, origin), overland, command.ccr_costs(), limit=limit)
    return costs.get(node(state.world, target))


def sea_ap(world: CampaignMap, zone: str, ports: Iterable[str]) -> dict[str, float]:
    """AP by sea from a sea zone to each of these port cities: one a zone entered and one into the port."""
    ports = list(ports)
    sea = [link for k in world.links for link in command.links_both_ways(k.a, k.b, 1.0, "sea")]
    sea += [link for port in ports for z in world.cities[port].zones
            for link in command.links_both_ways(z, port, 1.0, "sea")]
    costs = command.shortest_costs(zone, sea)
    return {port: costs[port] for port in ports if port in costs}


def air_steps(world: CampaignMap, a: str, b: str) -> int | None:
    """An aerial hop between two places: the regions and sea zones crossed, whatever the terrain (LotE 2.8.5)."""
    costs = command.shortest_costs(node(world, a), map_links(world))
    found = costs.get(node(world, b))
    return None if found is None else round(found)

"""Railroads: building segments, moving by rail, rail communications (LotE Modern Era 3.4).

Offers: `rail_connected` (2.8.4), `RailroadCost`/`railroad_segment_cost`, `railroad_site_problems`,
`river_crossing_problems` (3.4.1), `rail_capacity`, `rail_move_ap` (3.4.2), `rail_trace_cost`,
`rail_reach` (3.4.3), `third_party_railroad_problems`, `host_nfp_for_railroad` (3.4.4).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.core.errors import RulesError
from engine.rulesets.lote_modern.rules.tech import Culture, Number, Terrain, chart, exact


def rail_connected(start: str, end: str, rail_links: Iterable[tuple[str, str]]) -> bool:
    """Whether railroad segments (province to province) join two provinces (LotE 2.8.4, 3.4.1)."""
    neighbours: dict[str, set[str]] = {}
    for a, b in rail_links:
        neighbours.setdefault(a, set()).add(b)
        neighbours.setdefault(b, set()).add(a)
    seen, frontier = {start}, [start]
    while frontier:
        here = frontier.pop()
        if here == end:
            return True
        for nxt in neighbours.get(here, ()):
            if nxt not in seen:
                seen.add(nxt)
                frontier.append(nxt)
    return False


@dataclass(frozen=True, slots=True)
class RailroadCost:
    """The base cost of railroad segment levels: GP, NFP and City (generic) yard points (LotE 3.4.1)."""

    gp: float
    nfp: float
    yard: int
    project_level: int


def railroad_segment_cost(levels: int = 1, *, terrain: Terrain | None = None) -> RailroadCost:
    """Railroad levels into a province: each a Level One project, 50 GP, 25 NFP, 10 yard (LotE 3.4.1).

    Desert and Steppe provinces cost half as much again in GP and NFP, lumber being imported;
    the yard points are not raised.
    """
    rules = chart("s3_rules")["railroad"]
    factor = exact(1)
    if terrain in (Terrain.DESERT, Terrain.STEPPE):
        factor += exact(rules["desert_steppe_surcharge"])
    return RailroadCost(float(levels * rules["gp"] * factor), float(levels * rules["nfp"] * factor),
                        levels * int(rules["yard"]), int(rules["project_level"]))


def railroad_site_problems(*, culture: Culture, tech_level: int, friendly_city_in_hbz: bool,
                           joined_to_rail_from_such_city: bool = False) -> list[str]:
    """Why a railroad segment cannot start from this province; empty when it can (LotE 3.4.1)."""
    problems = []
    if not culture.industrial or tech_level < int(chart("s3_rules")["railroad"]["tech"]):
        problems.append("railroads are built by Industrial nations of Tech Level 12 or more")
    if not (friendly_city_in_hbz or joined_to_rail_from_such_city):
        problems.append("a railroad starts from a province with a Friendly city in the HBZ, or from rail "
                        "already joined to one")
    return problems


def river_crossing_problems(*, river: bool, ferry_point: bool = False, railroad_bridge: bool = False) -> list[str]:
    """A railroad crosses a river only on its own Bridge (one per crossing), never at a Ferry Point (3.4.1)."""
    if ferry_point:
        return ["a railroad cannot cross a Ferry Point"]
    if river and not railroad_bridge:
        return ["a new Bridge must be built to carry the railroad over the river"]
    return []


def rail_capacity(levels: int, *, both_directions: bool = False) -> int:
    """Cargo per AP a rail line carries: 10 per level one way, or half that each way (LotE 3.4.2)."""
    per_level = int(chart("s3_rules")["railroad"]["cargo_per_level"])
    capacity = levels * per_level
    return capacity // 2 if both_directions else capacity


def rail_move_ap(cargo: int, segment_levels: Sequence[int], *, both_directions: bool = False) -> int:
    """AP to move an army along a rail line (LotE 3.4.2).

    A stretch of equal capacity carries the army in 1 AP if it fits, else it shuttles, 1 AP per load; where
    the line narrows everyone unloads and the narrower stretch is shuttled on its own.
    """
    if not segment_levels or min(segment_levels) < 1:
        raise RulesError("a rail line is one or more segments of at least one level")
    stretches: list[int] = []
    for levels in segment_levels:
        if not stretches or stretches[-1] != levels:
            stretches.append(levels)
    return sum(max(1, math.ceil(cargo / rail_capacity(levels, both_directions=both_directions)))
               for levels in stretches)


def rail_trace_cost(ap_cost: Number) -> float:
    """The HBZ/CCR cost of entering a province along a railroad, terrain included, is quartered (3.4.3)."""
    return float(exact(ap_cost) * exact(chart("s3_rules")["railroad"]["trace_multiple"]))


def rail_reach(range_ap: Number) -> float:
    """How far an HBZ or CCR range stretches along a railroad: four times as far (LotE 3.4.3)."""
    return float(exact(range_ap) / exact(chart("s3_rules")["railroad"]["trace_multiple"]))


def third_party_railroad_problems(*, tech_level: int, start_city_makes_generic_yard: bool) -> list[str]:
    """Why a Merchant House cannot start a host's railroad here; empty when it can (LotE 3.4.4).

    The house needs Tech Level 12, and the project starts in a region whose city gives the house generic
    yard capacity (a Cartel City with Mercantile Industry points, 7.6).
    """
    problems = []
    if tech_level < int(chart("s3_rules")["railroad"]["tech"]):
        problems.append("a Merchant House builds railroads from Tech Level 12")
    if not start_city_makes_generic_yard:
        problems.append("the railroad must start where the house has a city making generic yard capacity")
    return problems


def host_nfp_for_railroad(nfp: int) -> int:
    """National NFP a host gives a Merchant House's railroad count in full, not halved (LotE 3.4.4)."""
    return nfp

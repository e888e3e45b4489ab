"""Yard capacity, factories and yards (LotE Modern Era 3.6, chart 8.6).

Offers: `YardSource`, `intrinsic_yard_capacity` (Table 3-9), `FactoryKind`, `max_factory_points` (Table 3-10),
`FactoryCost`/`factory_cost` (Table 3-4), `factory_defence` (Table 3-12), `YardPool`/`yard_pool`,
`RenaissanceYards`, `unit_yard_cost` (8.6), `FactoryEntry`/`parse_factory_line` (3.6.2), `FACTORY_PROJECTS`,
`factory_build_problems` (3.6.3), `hidden_allowed` (3.6.7), `FactoryMove`/`factory_move`,
`factory_move_problems` (3.6.4), `factory_points_after_capture`, `captured_capacity_usable` (3.6.5).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from enum import StrEnum

from engine.core.errors import RulesError
from engine.rulesets.lote_modern.rules.military import build_chart, unit
from engine.rulesets.lote_modern.rules.research import factory_tech_level, research_project
from engine.rulesets.lote_modern.rules.tech import Culture, Terrain, chart


class YardSource(StrEnum):
    """The places with intrinsic ("generic") yard capacity."""

    TRADE_CENTER = "trade_center"
    CITY = "city"
    PORT_CITY = "port_city"


def intrinsic_yard_capacity(source: YardSource, *, gpv: int = 0, culture: Culture | None = None) -> int:
    """Generic yard capacity of a trade center (5, Nomads and Barbarians only) or a city (GPv x 5) (Table 3-9)."""
    entry = chart("s3_factories")["intrinsic"][source.value]
    if source is YardSource.TRADE_CENTER:
        if culture is None or culture.value not in entry["cultures"]:
            return 0
        return int(entry["capacity"])
    per_gpv = int(str(entry["capacity"]).split("x")[1])
    return gpv * per_gpv


class FactoryKind(StrEnum):
    """The four factories and yards of 3.6.3."""

    AIRSHIP = "airship"
    STEAMSHIP = "steamship"
    SUBMARINE = "submarine"
    MERCANTILE = "mercantile"


def max_factory_points(gpv: int, *, city: bool = False, terrain: Terrain | None = None) -> int:
    """Factory and yard points a city (GPv x 2) or region may hold in all (LotE 3.6.3, Table 3-10).

    Cultivated regions hold their GPv, Wilderness, Island and Jungle half of it rounded down, others none.
    """
    table = chart("s3_factories")["maximum"]
    if city:
        entry = table["city"]
    elif terrain is None:
        raise RulesError("a region's factory limit depends on its terrain")
    else:
        entry = table.get(terrain.value)
        if entry is None:
            return 0
    return gpv * int(entry["per_gpv"]) // int(entry["divisor"])


@dataclass(frozen=True, slots=True)
class FactoryCost:
    """GP, NFP and time to build one point of a factory or yard."""

    gp: float
    nfp: int
    time: int


def factory_cost(kind: FactoryKind, *, city: bool, hidden: bool = False) -> FactoryCost:
    """The cost of one factory or yard point at a city or in a region (LotE 3.6.3, Table 3-4; 3.6.7).

    A hidden or underground facility costs twice the regional cost (a Mercantile Industry Site, which has
    only a city cost, twice that); steamship yards cannot be hidden.
    """
    costs = chart("s3_factories")["costs"]
    places = costs[kind.value]
    if hidden:
        if kind is FactoryKind.STEAMSHIP:
            raise RulesError("steamship yards cannot be hidden or underground")
        base = places.get("region", places.get("coastal_region", places.get("city")))
        gp_x, nfp_x, time_x = costs["hidden_multiple"]
        return FactoryCost(float(base[0] * gp_x), int(base[1] * nfp_x), int(base[2] * time_x))
    if kind is FactoryKind.MERCANTILE:
        if not city:
            raise RulesError("Mercantile Industry Sites are built only in cities")
        key = "city"
    elif kind is FactoryKind.AIRSHIP:
        key = "city" if city else "region"
    else:
        key = "port_city" if city else "coastal_region"
    gp, nfp, time = places[key]
    return FactoryCost(float(gp), int(nfp), int(time))


def factory_defence(kind: FactoryKind | None) -> int:
    """The passive Siege strength of a factory or yard; None for a city's generic yard (Table 3-12)."""
    table = chart("s3_factories")["defence"]
    return int(table["city_generic"] if kind is None else table[kind.value])


class YardPool(StrEnum):
    """The capacity a unit's yard cost draws on (chart 8.6, yard cost types)."""

    AIRSHIP = "airship"
    STEAMSHIP = "steamship"
    SUBMARINE = "submarine"
    PORT = "port"   # a Port City's generic yard (ships; its capacity serves land units too)
    CITY = "city"   # a Friendly City's generic yard (heavy units, artillery, railroads)


_POOL_BY_SITE = {"Airship Yard": YardPool.AIRSHIP, "Steamship Yard": YardPool.STEAMSHIP,
                 "Submarine Yard": YardPool.SUBMARINE, "Shipyard": YardPool.PORT, "Pc": YardPool.PORT,
                 "Pa": YardPool.PORT}


class RenaissanceYards(StrEnum):
    """How Renaissance units, whose chart has no yard column, pay yard capacity (a campaign option).

    HEAVY_AND_ARTILLERY: Heavy-prefix and Artillery units pay the Industrial chart's cost (3.6; default).
    INDUSTRIAL_CHART: every unit pays what its Industrial counterpart pays. NONE: no yard costs.
    """

    HEAVY_AND_ARTILLERY = "heavy-and-artillery"
    INDUSTRIAL_CHART = "industrial-chart"
    NONE = "none"


def yard_pool(code: str, culture: Culture) -> YardPool:
    """Which capacity a unit is built with: its factory or yard, else a port or city generic yard (8.6)."""
    built = unit(code, culture)
    for site in built.build_at:
        if site in _POOL_BY_SITE:
            return _POOL_BY_SITE[site]
    return YardPool.CITY


def _industrial_counterpart(code: str) -> str:
    """A Renaissance code on the Industrial chart: light units are L-prefixed there, X-prefixed here."""
    return "X" + code[1:] if code.startswith("L") else code


def unit_yard_cost(code: str, culture: Culture, *,
                   renaissance: RenaissanceYards = RenaissanceYards.HEAVY_AND_ARTILLERY) -> int:
    """Yard capacity points one unit costs to build (LotE 3.6, Tables 8-2 and 8-3)."""
    built = unit(code, culture)
    if culture.industrial:
        return built.yard or 0
    if renaissance is RenaissanceYards.NONE:
        return 0
    if renaissance is RenaissanceYards.HEAVY_AND_ARTILLERY and not (built.heavy or built.artillery):
        return 0
    counterpart = build_chart(Culture.INDUSTRIAL_ONE).get(_industrial_counterpart(built.code))
    return (counterpart.yard or 0) if counterpart is not None else 0


@dataclass(frozen=True, slots=True)
class FactoryEntry:
    """A factory or yard as the stat sheet lists it (LotE 3.6.2)."""

    kind: FactoryKind
    city: bool
    capacity: float
    project: str
    place: str | None = None
    finished: bool = True


_KIND_NAMES = {"airship factory": FactoryKind.AIRSHIP, "airship yard": FactoryKind.AIRSHIP,
               "steamship yard": FactoryKind.STEAMSHIP, "submarine yard": FactoryKind.SUBMARINE,
               "mercantile industry": FactoryKind.MERCANTILE, "mercantile industry site": FactoryKind.MERCANTILE}
_UNDER_PLACE = re.compile(
    r"^\s*(?P<kind>[A-Za-z ]+?)\s*\((?P<where>City|Region)\)\s*\((?P<cap>\d+(?:\.\d+)?)\)\s*,\s*"
    r"(?P<state>Finished|Building|In Progress)?\s*:?\s*Project No\.\s*(?P<project>\d+)\s*$", re.IGNORECASE)
_IN_PROJECTS = re.compile(
    r"^\s*(?P<project>\d+)\s+\w+\s+(?P<kind>[A-Za-z ]+?)\s*\((?P<where>City|Region)\)\s+(?P<cap>\d+(?:\.\d+)?)\s+"
    r"(?P<place>.+?)\s+(?P<state>Finished|Building|In Progress)\s*$", re.IGNORECASE)


def parse_factory_line(text: str) -> FactoryEntry:
    """Read a factory line of the stat sheet, under its city or in the Projects section (LotE 3.6.2).

    ``Airship Factory (City) (5.0), Finished: Project No. 00138`` or
    ``00138 NAT Airship Factory (City) 5.0 Tenochtitlán Finished``.
    """
    match = _UNDER_PLACE.match(text) or _IN_PROJECTS.match(text)
    if match is None:
        raise RulesError(f"`{text.strip()}` is not a factory or yard line of the stat sheet")
    kind = _KIND_NAMES.get(match["kind"].strip().lower())
    if kind is None:
        raise RulesError(f"`{match['kind'].strip()}` is not a factory or yard (Airship Factory, Steamship Yard, "
                         "Submarine Yard, Mercantile Industry)")
    groups = match.groupdict()
    return FactoryEntry(kind, match["where"].lower() == "city", float(match["cap"]), match["project"],
                        groups.get("place"), (match["state"] or "Finished").lower() == "finished")


# Which research project allows each kind of facility (3.6.3); submarine yards come with Submersibles
# (4.2.11), since the Submarines project itself needs four of them (see sections-2-4.md).
FACTORY_PROJECTS: dict[FactoryKind, str | None] = {
    FactoryKind.AIRSHIP: "airships", FactoryKind.STEAMSHIP: "steamships", FactoryKind.SUBMARINE: "submersibles",
    FactoryKind.MERCANTILE: None,
}


def factory_build_problems(kind: FactoryKind, *, city: bool, gpv: int, tech_level: int,
                           completed: Collection[str], terrain: Terrain | None = None, coastal: bool = True,
                           existing_points: int = 0, adding: int = 1, hidden: bool = False,
                           merchant_house: bool = False, cartel_city_or_better: bool = False) -> list[str]:
    """Why a factory or yard cannot be built here; empty when it can (LotE 3.6.3, 3.6.7, 4.2.1)."""
    problems = []
    if tech_level < factory_tech_level():
        problems.append(f"factories and yards need Tech Level {factory_tech_level()}")
    project = FACTORY_PROJECTS[kind]
    if project is not None and project not in completed:
        problems.append(f"a {kind.value} facility needs the R&D: {research_project(project).name} project")
    if kind is FactoryKind.STEAMSHIP and tech_level < int(chart("s3_rules")["steamship"]["tech"]):
        problems.append("steamship yards need Tech Level 12")
    if kind is FactoryKind.MERCANTILE:
        if not merchant_house:
            problems.append("only a Merchant House builds Mercantile Industry Sites")
        if not city or not cartel_city_or_better:
            problems.append("Mercantile Industry Sites go only in cities held at Cartel City or better")
    if kind in (FactoryKind.STEAMSHIP, FactoryKind.SUBMARINE) and not coastal:
        problems.append(f"{kind.value} yards must be on the coast")
    if hidden and kind is FactoryKind.STEAMSHIP:
        problems.append("steamship yards cannot be hidden or underground")
    if hidden and city and kind is not FactoryKind.MERCANTILE:
        problems.append("hidden or underground facilities are built in a region, not a city")
    if not city and terrain is None:
        problems.append("a region's factory limit depends on its terrain")
    else:
        limit = max_factory_points(gpv, city=city, terrain=terrain)
        if existing_points + adding > limit:
            problems.append(f"this {'city' if city else 'region'} holds at most {limit} factory and yard points")
    return problems


def hidden_allowed(kind: FactoryKind) -> bool:
    """Mercantile Industry, Airship and Submarine facilities may be hidden; steamship yards not (3.6.7)."""
    return kind is not FactoryKind.STEAMSHIP


@dataclass(frozen=True, slots=True)
class FactoryMove:
    """The price of moving factory points, and the cargo they fill by rail or sea (LotE 3.6.4)."""

    gp: int
    nfp: int
    cargo: int


def factory_move(points: int, *, pay_in_nfp: bool = False) -> FactoryMove:
    """Moving factory points: 10 GP (or 2 NFP) each, 10 cargo each by rail or sea (LotE 3.6.4)."""
    rules = chart("s3_rules")["factory_move"]
    if pay_in_nfp:
        return FactoryMove(0, points * int(rules["nfp"]), points * int(rules["cargo"]))
    return FactoryMove(points * int(rules["gp"]), 0, points * int(rules["cargo"]))


def factory_move_problems(kind: FactoryKind, *, to_city: bool, controlled: bool, land_ap: int = 0,
                          hbz_range: int = 0, by_sea_with_leader: bool = False) -> list[str]:
    """Why factory points cannot move this way; empty when they can (LotE 3.6.4).

    Only Airship Factories and Mercantile Industry Sites move, only to a controlled city, by land up to the
    HBZ range in AP a turn unless a Leader carries them by sea. (To produce afterwards they must still be
    within the HBZ: see `captured_capacity_usable` for the same test after capture.)
    """
    problems = []
    if kind not in (FactoryKind.AIRSHIP, FactoryKind.MERCANTILE):
        problems.append("only Airship Factories and Mercantile Industry Sites can be moved")
    if not (to_city and controlled):
        problems.append("a factory moves only to a controlled city")
    if not by_sea_with_leader and land_ap > hbz_range:
        problems.append(f"by land a factory moves at most {hbz_range} AP (the HBZ range) a turn")
    return problems


def factory_points_after_capture(points: int, *, surprise: bool = False) -> int:
    """Factory or yard points left when a location is captured: half are destroyed unless by surprise (3.6.5)."""
    return points if surprise else points - points // 2


def captured_capacity_usable(*, within_hbz: bool, friendly: bool, slave_economy: bool = False) -> bool:
    """Captured capacity serves the captor within its HBZ, in a friendly location (slave economies: any) (3.6.5)."""
    return within_hbz and (friendly or slave_economy)

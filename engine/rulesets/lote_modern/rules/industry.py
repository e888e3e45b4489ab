"""Yard capacity, factories and yards (LotE Modern Era 3.6, chart 8.6).

Offers: `YardSource`, `intrinsic_yard_capacity` (Table 3-9), `FactoryKind`, `max_factory_points` (Table 3-10),
`FactoryCost`/`factory_cost` (Table 3-4), `factory_defence` (Table 3-12).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.core.errors import RulesError
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

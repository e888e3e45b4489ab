"""The campaign map: land regions, cities and ports, sea zones and the links between them.

The map is geography the whole table shares (LotE 1.3): terrain, GPv, religion, which sea zones
a region or port touches, and sea-zone borders with their current arrows (LotE 2.8.2.1). Who
controls what lives on each nation's sheet, not here.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core.errors import RulesError
from engine.core.names import Names, suggestion
from engine.core.names import fold as fold_name

TERRAINS = ("c2", "c", "w", "m", "s", "d", "t", "i", "j", "o")
TERRAIN_NAMES = {"c2": "intensely cultivated", "c": "cultivated", "w": "wilderness", "m": "mountain",
                 "s": "steppe", "d": "desert", "t": "tundra", "i": "island", "j": "jungle", "o": "oasis"}
ZONE_KINDS = ("zone", "inter-island", "open-ocean", "river")
CITY_KINDS = ("city", "trade-center", "port-fortress")
FEATURES = ("silk-road", "fur-line", "tsetse")
PEOPLES = ("", "P", "N", "B", "C", "S", "R", "I1", "I2", "I3")


@dataclass(slots=True)
class Region:
    """A land region. `people` is the culture of its inhabitants ('' when unsettled)."""

    name: str
    terrain: str
    gpv: int
    religion: str = ""
    resistance: int = 0
    people: str = ""
    base_gpv: int = 0
    coasts: tuple[str, ...] = ()
    neighbours: tuple[str, ...] = ()
    features: tuple[str, ...] = ()
    pre_columbian: bool = False

    @property
    def coastal(self) -> bool:
        return bool(self.coasts)

    def dump(self) -> dict[str, Any]:
        return {"name": self.name, "terrain": self.terrain, "gpv": self.gpv, "religion": self.religion,
                "resistance": self.resistance, "people": self.people, "base_gpv": self.base_gpv,
                "coasts": list(self.coasts), "neighbours": list(self.neighbours),
                "features": list(self.features), "pre_columbian": self.pre_columbian}

    @classmethod
    def load(cls, raw: dict[str, Any]) -> Region:
        return cls(raw["name"], raw["terrain"], raw["gpv"], raw.get("religion", ""), raw.get("resistance", 0),
                   raw.get("people", ""), raw.get("base_gpv", raw["gpv"]), tuple(raw.get("coasts", ())),
                   tuple(raw.get("neighbours", ())), tuple(raw.get("features", ())),
                   raw.get("pre_columbian", False))


@dataclass(slots=True)
class City:
    """A city in a region; a port touches the sea zones in `zones`."""

    name: str
    region: str
    gpv: int
    port: bool = False
    zones: tuple[str, ...] = ()
    kind: str = "city"

    def dump(self) -> dict[str, Any]:
        return {"name": self.name, "region": self.region, "gpv": self.gpv, "port": self.port,
                "zones": list(self.zones), "kind": self.kind}

    @classmethod
    def load(cls, raw: dict[str, Any]) -> City:
        return cls(raw["name"], raw["region"], raw["gpv"], raw.get("port", False), tuple(raw.get("zones", ())),
                   raw.get("kind", "city"))


@dataclass(slots=True)
class SeaZone:
    """A sea zone or arrow. `mapping` > 0: unknown until a nation maps it (LotE 5.2.2)."""

    name: str
    kind: str = "zone"
    hostile: bool = False
    mapping: int = 0

    def dump(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "hostile": self.hostile, "mapping": self.mapping}

    @classmethod
    def load(cls, raw: dict[str, Any]) -> SeaZone:
        return cls(raw["name"], raw.get("kind", "zone"), raw.get("hostile", False), raw.get("mapping", 0))


@dataclass(slots=True)
class SeaLink:
    """A border between two sea zones; entering against a current arrow costs 2 (LotE 2.8.2.1)."""

    a: str
    b: str
    a_to_b: int = 1
    b_to_a: int = 1

    def dump(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "a_to_b": self.a_to_b, "b_to_a": self.b_to_a}

    @classmethod
    def load(cls, raw: dict[str, Any]) -> SeaLink:
        return cls(raw["a"], raw["b"], raw.get("a_to_b", 1), raw.get("b_to_a", 1))


@dataclass(slots=True)
class MercPool:
    """A geographic area's mercenary pool (LotE 7.1.4): the regions where it is hired, its units, and the
    price a unit the broker asks (0: no terms set). `location` is where the pool ended last turn, if it left."""

    name: str
    regions: tuple[str, ...] = ()
    units: dict[str, int] = field(default_factory=dict)
    price: float = 0.0
    location: str = ""

    def dump(self) -> dict[str, Any]:
        return {"name": self.name, "regions": list(self.regions), "units": dict(self.units), "price": self.price,
                "location": self.location}

    @classmethod
    def load(cls, raw: dict[str, Any]) -> MercPool:
        return cls(raw["name"], tuple(raw.get("regions", ())), dict(raw.get("units", {})),
                   float(raw.get("price", 0.0)), raw.get("location", ""))


@dataclass(slots=True)
class CampaignMap:
    """Everything geographic; look-ups by name ignore case.

    `roads` are Royal Roads between neighbouring regions (Table 6-1, LotE 7.1.5); `religions` gives each
    religion's family (same family: tolerant, another: hostile); `pools` the mercenary pools (7.1.4);
    `layout` each region's and sea zone's spot on the picture, laid out once when the map was uploaded."""

    title: str = ""
    regions: dict[str, Region] = field(default_factory=dict)
    cities: dict[str, City] = field(default_factory=dict)
    zones: dict[str, SeaZone] = field(default_factory=dict)
    links: list[SeaLink] = field(default_factory=list)
    roads: list[tuple[str, str]] = field(default_factory=list)
    religions: dict[str, str] = field(default_factory=dict)
    pools: dict[str, MercPool] = field(default_factory=dict)
    layout: dict[str, tuple[float, float]] = field(default_factory=dict)   # where each place is drawn (layout.py)
    _folded: dict[str, str] = field(default_factory=dict, repr=False, compare=False)
    _sea: dict[str, dict[str, int]] = field(default_factory=dict, repr=False, compare=False)
    _names: dict[tuple[str, ...], Names] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.reindex()

    def reindex(self) -> None:
        """Rebuild the case-folded name index and the sea graph after a change."""
        self._folded = {}
        self._names = {}
        for names in (self.regions, self.cities, self.zones):
            for name in names:
                self._folded.setdefault(fold_name(name), name)  # any case, with or without accents
        self._sea = {z: {} for z in self.zones}
        for link in self.links:
            self._sea.setdefault(link.a, {})[link.b] = link.a_to_b
            self._sea.setdefault(link.b, {})[link.a] = link.b_to_a

    # -- look-ups ------------------------------------------------------------------------
    def canonical(self, name: str) -> str | None:
        """The map's own spelling of a region, city or sea-zone name."""
        return self._folded.get(fold_name(name))

    def names(self, kinds: tuple[str, ...]) -> Names:
        """The forgiving matcher over the map's regions, cities and/or zones (`kinds`), built once per map."""
        found = self._names.get(kinds)
        if found is None:
            tables: dict[str, Mapping[str, Any]] = {"region": self.regions, "city": self.cities, "zone": self.zones}
            found = self._names[kinds] = Names(name for kind in kinds for name in tables[kind])
        return found

    def region(self, name: str) -> Region:
        key = self.canonical(name)
        if key is None or key not in self.regions:
            raise RulesError(f"no region `{name}` on the map{suggestion(name, self.regions)}")
        return self.regions[key]

    def city(self, name: str) -> City:
        key = self.canonical(name)
        if key is None or key not in self.cities:
            raise RulesError(f"no city `{name}` on the map{suggestion(name, self.cities)}")
        return self.cities[key]

    def zone(self, name: str) -> SeaZone:
        key = self.canonical(name)
        if key is None or key not in self.zones:
            raise RulesError(f"no sea zone `{name}` on the map{suggestion(name, self.zones)}")
        return self.zones[key]

    def is_region(self, name: str) -> bool:
        return self.canonical(name) in self.regions

    def is_city(self, name: str) -> bool:
        return self.canonical(name) in self.cities

    def region_of(self, place: str) -> Region:
        """The region a place is in: the region itself, or a city's region."""
        key = self.canonical(place)
        if key in self.cities:
            return self.regions[self.cities[key].region]
        return self.region(place)

    def cities_in(self, region: str) -> list[City]:
        return [c for c in self.cities.values() if c.region == region]

    def pool(self, name: str) -> MercPool | None:
        return next((p for key, p in self.pools.items() if key.casefold() == name.strip().casefold()), None)

    def road(self, a: str, b: str) -> bool:
        """Whether a Royal Road joins two neighbouring regions."""
        return (a, b) in self.roads or (b, a) in self.roads

    def religion_relation(self, ours: str, theirs: str) -> str | None:
        """`same`, `tolerant` (one family) or `hostile` (another family); None when the map cannot say."""
        if not ours or not theirs:
            return None
        if ours.casefold() == theirs.casefold():
            return "same"
        families = {k.casefold(): v.casefold() for k, v in self.religions.items()}
        a, b = families.get(ours.casefold()), families.get(theirs.casefold())
        if a is None or b is None:
            return None
        return "tolerant" if a == b else "hostile"

    def adjacent(self, a: str, b: str) -> bool:
        """Whether two land regions share a border."""
        return b in self.regions[a].neighbours

    def zone_neighbours(self, zone: str) -> Iterator[tuple[str, int]]:
        """Sea zones bordering `zone`, with the cost of entering each from it."""
        yield from self._sea.get(zone, {}).items()

    def entry_cost(self, frm: str, to: str) -> int:
        """Trade-range points to trace from one sea zone into the next (2 against an arrow)."""
        cost = self._sea.get(frm, {}).get(to)
        if cost is None:
            raise RulesError(f"{frm} and {to} do not share a border")
        return cost

    def path_length(self, zones: Iterable[str]) -> int:
        """Trade-range length of a traced run of sea zones: 1 for the first, then each entry cost."""
        path = list(zones)
        if not path:
            return 0
        return 1 + sum(self.entry_cost(a, b) for a, b in itertools.pairwise(path))

    def shortest_sea(self, starts: Iterable[str], goals: Iterable[str], *,
                     passable: set[str] | None = None) -> list[str] | None:
        """The cheapest run of sea zones from any of `starts` to any of `goals` (Dijkstra)."""
        goal_set = set(goals)
        frontier: list[tuple[int, int, str]] = []
        best: dict[str, int] = {}
        back: dict[str, str | None] = {}
        for n, zone in enumerate(starts):
            if passable is not None and zone not in passable:
                continue
            if best.get(zone, 10**9) > 1:
                best[zone], back[zone] = 1, None
                heapq.heappush(frontier, (1, n, zone))
        tie = 10**6
        while frontier:
            cost, _, zone = heapq.heappop(frontier)
            if cost > best.get(zone, 10**9):
                continue
            if zone in goal_set:
                path = [zone]
                while (prev := back[path[-1]]) is not None:
                    path.append(prev)
                return path[::-1]
            for nxt, step in self.zone_neighbours(zone):
                if passable is not None and nxt not in passable:
                    continue
                if cost + step < best.get(nxt, 10**9):
                    best[nxt], back[nxt] = cost + step, zone
                    tie += 1
                    heapq.heappush(frontier, (cost + step, tie, nxt))
        return None

    # -- persistence -------------------------------------------------------------------------
    def dump(self) -> dict[str, Any]:
        return {"title": self.title, "regions": [r.dump() for r in self.regions.values()],
                "cities": [c.dump() for c in self.cities.values()],
                "zones": [z.dump() for z in self.zones.values()], "links": [k.dump() for k in self.links],
                "roads": [list(r) for r in self.roads], "religions": dict(self.religions),
                "pools": [p.dump() for p in self.pools.values()],
                "layout": {name: list(spot) for name, spot in self.layout.items()}}

    @classmethod
    def load(cls, raw: dict[str, Any]) -> CampaignMap:
        regions = {r["name"]: Region.load(r) for r in raw.get("regions", [])}
        cities = {c["name"]: City.load(c) for c in raw.get("cities", [])}
        zones = {z["name"]: SeaZone.load(z) for z in raw.get("zones", [])}
        pools = {p["name"]: MercPool.load(p) for p in raw.get("pools", [])}
        return cls(raw.get("title", ""), regions, cities, zones, [SeaLink.load(k) for k in raw.get("links", [])],
                   [(a, b) for a, b in raw.get("roads", [])], dict(raw.get("religions", {})), pools,
                   {name: (float(x), float(y)) for name, (x, y) in raw.get("layout", {}).items()})

"""The map: the Areas table (bounds, native levels, markers) joined with our geography data.

Places are Europe, the New World land areas (the three minor isles each their own), the sea boxes
at the foot of the Areas table, and, with the East Indies expansion, our Indies areas and the Indies
command-of-the-seas box. Trans-oceanic bounds come from the Areas table; hemispheric distances are
shortest paths over our sea lanes (geography.toml).
"""

from __future__ import annotations

import functools
import heapq
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field

from engine.rulesets.terra_nova.reference import data, number

EUROPE = "Europe"
CSB = "Command of the Seas"
INDIES_CSB = "Indies Command of the Seas"
DIRECT, GUINEA = "direct", "guinea"


@dataclass(frozen=True, slots=True)
class Place:
    """One place on the maps."""

    name: str
    kind: str                                   # "europe", "land", "sea", "box", "indies"
    number: tuple[int, int] | None = None       # the Areas table "#" (two coloured dice), if printed
    bounds: dict[tuple[str, str], int] = field(default_factory=dict)   # (route, coast) -> bounds fm Europe
    native: int = 0
    treasure: bool = False
    land_modifier: int = 0
    markers: frozenset[str] = frozenset()
    no_control: bool = False
    coasts: tuple[str, ...] = ("",)
    lakeside: bool = False
    extreme: bool = False
    enter_cost: int = 0
    lon: float = 0.0
    lat: float = 0.0
    group: str = ""

    @property
    def is_land(self) -> bool:
        """A New World land area: holdings, natives, settlement."""
        return self.kind == "land"

    @property
    def is_indies(self) -> bool:
        return self.kind == "indies" or self.name == INDIES_CSB

    @property
    def coastal(self) -> bool:
        """Coastal for the Settlement Table: reachable by sea, or lakeside/riverside."""
        return bool(self.bounds) or self.lakeside

    @property
    def seaborne(self) -> bool:
        """Ships can be here."""
        return self.kind != "land" or bool(self.bounds)

    @property
    def r2(self) -> bool:
        return "R2" in self.markers

    @property
    def civilisation(self) -> bool:
        return "N" in self.markers


def _bounds(cell: str, coasts: tuple[str, ...]) -> dict[str, int]:
    """``4e/12w`` -> {e: 4, w: 12}; ``6/12`` with coasts (e, w) -> {e: 6, w: 12}; ``-`` -> {}."""
    cell = cell.strip()
    if cell == "-":
        return {}
    parts = cell.split("/")
    if len(parts) == 1:
        return {"": int(parts[0])}
    out = {}
    for i, part in enumerate(parts):
        m = re.match(r"^(\d+)([a-z]?)$", part)
        if not m:
            raise ValueError(f"bounds cell {cell!r}")
        out[m.group(2) or coasts[i]] = int(m.group(1))
    return out


def _number_cell(cell: str) -> tuple[int, int] | None:
    """The "#" cell, e.g. ``1,3``: the two coloured dice naming the area for Native Revival."""
    if not cell:
        return None
    first, second = (int(x) for x in cell.split(","))
    return first, second


def normal(text: str) -> str:
    """A name as typed: lower case, no accents, apostrophes or extra spaces."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c))
    return " ".join(text.lower().replace("’", "").replace("'", "").split())


class Geography:
    """All places and the distances between them."""

    def __init__(self) -> None:
        geo = data("geography")
        areas = data("areas")
        pos = {k: (float(v[0]), float(v[1])) for k, v in geo["positions"].items()}
        coasts_of = {k: tuple(v) for k, v in geo["coasts"].items()}
        lakeside = set(geo["coasts"].get("lakeside", ()))
        extreme = set(geo["coasts"].get("extreme", ()))
        self.places: dict[str, Place] = {EUROPE: Place(EUROPE, "europe", lon=pos[EUROPE][0], lat=pos[EUROPE][1])}
        for row in areas["area"]:
            b_cell, g_cell, native_cell, land_cell = row["cells"]
            names = row.get("isles") or [row["name"]]
            coasts = coasts_of.get(row["name"], ("",))
            direct, guinea = _bounds(b_cell, coasts), _bounds(g_cell, coasts)
            bounds = {(DIRECT, c): v for c, v in direct.items()} | {(GUINEA, c): v for c, v in guinea.items()}
            num = _number_cell(row["number"])
            for name in names:
                self.places[name] = Place(
                    name, "sea" if native_cell == "special" else "land",
                    num if len(names) == 1 else None, bounds, number(native_cell) or 0, "T" in native_cell,
                    number(land_cell) or 0, frozenset(row["markers"]), "•" in row["printed"], coasts,
                    name in lakeside, name in extreme, 0, *pos[name],
                    group=row["name"] if len(names) > 1 else "")
        for row in areas["sea"]:
            name = row["name"]
            if name in ("East Indies", "East Indies to New World", INDIES_CSB):
                continue
            cells = row["cells"]
            bounds = {}
            if len(cells) >= 2 and number(cells[0]) is not None:
                bounds = {(DIRECT, ""): number(cells[0]) or 0, (GUINEA, ""): number(cells[1]) or 0}
            kind = "box" if name == CSB else "sea"
            self.places[name] = Place(name, kind, bounds=bounds, extreme=name in extreme,
                                      enter_cost=int(row.get("enter_cost", 0)), lon=pos[name][0], lat=pos[name][1])
        sea = {r["name"]: r for r in areas["sea"]}
        indies = sea["East Indies"]["cells"]
        self.indies_bounds = {DIRECT: number(indies[0]) or 0, GUINEA: number(indies[1]) or 0}
        to_nw = sea["East Indies to New World"]["cells"]
        self.indies_new_world = {DIRECT: number(to_nw[0]) or 0, GUINEA: number(to_nw[1]) or 0}
        self.indies_areas: tuple[str, ...] = tuple(geo["east_indies"]["areas"])
        for name in self.indies_areas:
            self.places[name] = Place(name, "indies", lon=pos[name][0], lat=pos[name][1],
                                      bounds={(r, ""): v for r, v in self.indies_bounds.items()})
        self.places[INDIES_CSB] = Place(INDIES_CSB, "box", enter_cost=int(sea[INDIES_CSB].get("enter_cost", 2)),
                                        lon=pos[INDIES_CSB][0], lat=pos[INDIES_CSB][1])
        self.lanes: dict[str, dict[str, int]] = {}
        for a, b, n in [*geo["lanes"]["new_world"], *geo["lanes"]["east_indies"]]:
            self.lanes.setdefault(a, {})[b] = n
            self.lanes.setdefault(b, {})[a] = n
        for name in self.indies_areas:   # the Indies box is next to every Indies area (expansion 6.1)
            self.lanes.setdefault(name, {})[INDIES_CSB] = 0
            self.lanes.setdefault(INDIES_CSB, {})[name] = 0
        self.borders: dict[str, set[str]] = {}
        for a, b in geo["borders"]["land"]:
            self.borders.setdefault(a, set()).add(b)
            self.borders.setdefault(b, set()).add(a)
        self.mine_sites: dict[str, list[str]] = {k: list(v) for k, v in geo["mines"].items()}
        self.city_areas: dict[str, str] = dict(geo["cities"])
        self._names = {normal(n): n for n in self.places}

    # -- names ------------------------------------------------------------------------------------------------
    def find(self, text: str) -> str | None:
        """The place a player named, by its name in any case, without accents."""
        return self._names.get(normal(text))

    def land_areas(self) -> list[str]:
        return [p.name for p in self.places.values() if p.is_land]

    def by_number(self, first: int, second: int) -> str | None:
        """The area whose "#" is these two coloured dice (Native Revival)."""
        for p in self.places.values():
            if p.number == (first, second):
                return p.name
        return None

    # -- distances ----------------------------------------------------------------------------------------------
    def _nodes(self, name: str, coast: str = "") -> list[str]:
        place = self.places[name]
        if coast:
            return [f"{name}/{coast}"]
        if place.coasts != ("",):
            return [f"{name}/{c}" for c in place.coasts]
        return [name]

    def sea_distance(self, origin: str, dest: str, coast: str = "", origin_coast: str = "") -> int | None:
        """Bounds along our sea lanes within one hemisphere, or None when there is no way by sea."""
        starts = self._nodes(origin, origin_coast)
        goals = set(self._nodes(dest, coast))
        best: dict[str, int] = {}
        queue = [(0, s) for s in starts]
        while queue:
            dist, node = heapq.heappop(queue)
            if node in best:
                continue
            best[node] = dist
            if node in goals:
                return dist
            if node not in starts and self.places[node.split("/")[0]].kind == "box":
                continue    # a command-of-the-seas box is a place to be, not a short cut
            for nxt, n in self.lanes.get(node, {}).items():
                if nxt not in best:
                    heapq.heappush(queue, (dist + n, nxt))
        return None

    def passes_extreme(self, origin: str, dest: str) -> bool:
        return self.places[origin].extreme or self.places[dest].extreme

    def ocean_bounds(self, origin: str, dest: str, route: str, coast: str = "") -> int | None:
        """Trans-oceanic bounds (Areas table) between Europe, a New World place and the Indies."""
        a, b = self.places[origin], self.places[dest]
        if a.kind == "europe" or b.kind == "europe":
            other = b if a.kind == "europe" else a
            if other.name == CSB:
                return 0
            if other.kind == "indies":
                return self.indies_bounds[route]
            if other.kind == "box":
                return None
            if coast:
                return other.bounds.get((route, coast))
            options = [v for (r, _c), v in other.bounds.items() if r == route]
            return min(options) if options else None
        if a.is_indies != b.is_indies and a.kind != "box" and b.kind != "box":
            new_world = b if a.is_indies else a
            return self.indies_new_world[route] if new_world.bounds else None
        return None

    def neighbours(self, name: str) -> set[str]:
        return set(self.borders.get(name, ()))

    def in_play(self, east_indies: bool) -> Iterable[Place]:
        for p in self.places.values():
            if east_indies or not p.is_indies:
                yield p


@functools.cache
def geography() -> Geography:
    return Geography()

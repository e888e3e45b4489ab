"""The `map` upload: regions, cities, sea zones and sea links, as CSV blocks or [[tables]] in TOML.

The format is documented with a complete example in docs/rulesets/lote-modern.md ("The map file").
"""

from __future__ import annotations

from engine.core.errors import RulesError, UploadError
from engine.rulesets.lote_modern.files import Fields, Source, Where, load_toml, rows
from engine.rulesets.lote_modern.sheet import parse_units
from engine.rulesets.lote_modern.world import (
    CITY_KINDS,
    FEATURES,
    PEOPLES,
    TERRAINS,
    ZONE_KINDS,
    CampaignMap,
    City,
    MercPool,
    Region,
    SeaLink,
    SeaZone,
)

REGION_COLUMNS = ("name", "terrain", "gpv", "religion", "resistance", "people", "base_gpv", "coasts",
                  "neighbours", "features", "pre_columbian")
CITY_COLUMNS = ("name", "region", "gpv", "port", "zones", "kind")
ZONE_COLUMNS = ("name", "kind", "hostile", "mapping")
LINK_COLUMNS = ("a", "b", "a_to_b", "b_to_a")
ROAD_COLUMNS = ("a", "b")
RELIGION_COLUMNS = ("name", "family")
POOL_COLUMNS = ("name", "regions", "units", "price")
MAX_GPV = 50


def parse_map(text: str, name: str = "map") -> CampaignMap:
    """Read and validate a map file; every error names its line and field."""
    raw = load_toml(name, text)
    source = Source(name, text)
    top = Fields(raw, Where(name, None, "top level"))
    title = top.text("title", "", limit=100)
    region_rows = rows(source, raw, "regions", what="map", columns=REGION_COLUMNS)
    city_rows = rows(source, raw, "cities", what="map", columns=CITY_COLUMNS)
    zone_rows = rows(source, raw, "zones", what="map", columns=ZONE_COLUMNS)
    link_rows = rows(source, raw, "links", what="map", columns=LINK_COLUMNS)
    road_rows = rows(source, raw, "roads", what="map", columns=ROAD_COLUMNS)
    religion_rows = rows(source, raw, "religions", what="map", columns=RELIGION_COLUMNS)
    pool_rows = rows(source, raw, "pools", what="map", columns=POOL_COLUMNS)
    top.read.update(("regions", "cities", "zones", "links", "roads", "religions", "pools"))
    top.done()
    if not region_rows:
        raise UploadError(f"{name}: no regions: write a `regions` CSV block or [[regions]] tables")

    seen: dict[str, str] = {}

    def claim(f: Fields, key: str, value: str, kind: str) -> None:
        folded = value.casefold()
        if folded in seen:
            raise f.error(key, f"`{value}` is already the name of a {seen[folded]}; names must be unique")
        seen[folded] = kind

    zones: dict[str, SeaZone] = {}
    for f in zone_rows:
        zone = SeaZone(f.name("name"), f.choice("kind", ZONE_KINDS, "zone"), f.flag("hostile"),
                       f.integer("mapping", 0, minimum=0, maximum=15))
        claim(f, "name", zone.name, "sea zone")
        f.done()
        zones[zone.name] = zone

    def zone_names(f: Fields, key: str) -> tuple[str, ...]:
        out = []
        for z in f.names(key):
            match = next((k for k in zones if k.casefold() == z.casefold()), None)
            if match is None:
                raise f.error(key, f"no sea zone `{z}` in `zones`")
            out.append(match)
        return tuple(out)

    regions: dict[str, Region] = {}
    pending_neighbours: dict[str, tuple[Fields, list[str]]] = {}
    for f in region_rows:
        gpv = f.integer("gpv", minimum=0, maximum=MAX_GPV)
        people = f.text("people", "")
        if people.upper() not in PEOPLES:
            raise f.error("people", f"`{people}` is not a culture ({', '.join(p for p in PEOPLES if p)}) or blank")
        features = _features(f)
        region = Region(f.name("name"), f.choice("terrain", TERRAINS), gpv, f.text("religion", ""),
                        f.integer("resistance", 0, minimum=0, maximum=100), people.upper(),
                        f.integer("base_gpv", gpv, minimum=0, maximum=MAX_GPV), zone_names(f, "coasts"),
                        (), features, f.flag("pre_columbian"))
        claim(f, "name", region.name, "region")
        pending_neighbours[region.name] = (f, f.names("neighbours"))
        f.done()
        regions[region.name] = region

    folded_regions = {k.casefold(): k for k in regions}
    links: dict[str, set[str]] = {k: set() for k in regions}
    for region_name, (f, names) in pending_neighbours.items():
        for n in names:
            other = folded_regions.get(n.casefold())
            if other is None:
                raise f.error("neighbours", f"no region `{n}` in `regions`")
            if other == region_name:
                raise f.error("neighbours", f"`{n}` cannot border itself")
            links[region_name].add(other)
            links[other].add(region_name)
    for region_name, region in regions.items():
        region.neighbours = tuple(sorted(links[region_name]))

    cities: dict[str, City] = {}
    for f in city_rows:
        city_name = f.name("name")
        region_text = f.text("region", required=True)
        region_key = folded_regions.get(region_text.casefold())
        if region_key is None:
            raise f.error("region", f"no region `{region_text}` in `regions`")
        port = f.flag("port")
        city_zones = zone_names(f, "zones")
        coasts = regions[region_key].coasts
        if port and not city_zones:
            city_zones = coasts
        if port and not city_zones:
            raise f.error("port", f"a port needs a sea zone, and {region_key} has no coasts")
        if not port and city_zones:
            raise f.error("zones", "only a port touches sea zones; set port = yes")
        for z in city_zones:
            if z not in coasts:
                raise f.error("zones", f"{z} is not one of {region_key}'s coasts ({', '.join(coasts) or 'none'})")
        city = City(city_name, region_key, f.integer("gpv", minimum=0, maximum=MAX_GPV), port, city_zones,
                    f.choice("kind", CITY_KINDS, "city"))
        claim(f, "name", city.name, "city")
        f.done()
        cities[city.name] = city

    sea_links: list[SeaLink] = []
    pairs: set[frozenset[str]] = set()
    for f in link_rows:
        a, b = zone_names(f, "a"), zone_names(f, "b")
        if len(a) != 1 or len(b) != 1:
            raise f.error("a", "each link joins exactly two sea zones, `a` and `b`")
        if a[0] == b[0]:
            raise f.error("b", "a sea zone cannot border itself")
        pair = frozenset((a[0], b[0]))
        if pair in pairs:
            raise f.error("b", f"{a[0]} and {b[0]} are already linked")
        pairs.add(pair)
        sea_links.append(SeaLink(a[0], b[0], f.integer("a_to_b", 1, minimum=1, maximum=3),
                                 f.integer("b_to_a", 1, minimum=1, maximum=3)))
        f.done()
    roads: list[tuple[str, str]] = []
    for f in road_rows:
        ends = []
        for key in ("a", "b"):
            text = f.text(key, required=True)
            found = folded_regions.get(text.casefold())
            if found is None:
                raise f.error(key, f"no region `{text}` in `regions`")
            ends.append(found)
        if ends[1] not in links[ends[0]]:
            raise f.error("b", f"{ends[0]} and {ends[1]} do not border each other: a Royal Road joins neighbours")
        if (ends[0], ends[1]) in roads or (ends[1], ends[0]) in roads:
            raise f.error("b", f"the road {ends[0]}-{ends[1]} is listed twice")
        roads.append((ends[0], ends[1]))
        f.done()
    religions: dict[str, str] = {}
    for f in religion_rows:
        religions[f.name("name")] = f.text("family", required=True)
        f.done()
    pools: dict[str, MercPool] = {}
    for f in pool_rows:
        pool_name = f.name("name")
        area = []
        for text in f.names("regions"):
            found = folded_regions.get(text.casefold())
            if found is None:
                raise f.error("regions", f"no region `{text}` in `regions`")
            area.append(found)
        if not area:
            raise f.error("regions", "a mercenary pool covers at least one region (LotE 7.1.4.2)")
        try:
            units = parse_units(f.text("units", "", limit=500))
        except RulesError as exc:
            raise f.error("units", str(exc)) from None
        claim(f, "name", pool_name, "mercenary pool")
        pools[pool_name] = MercPool(pool_name, tuple(area), units, f.number("price", 0.0, minimum=0))
        f.done()
    return CampaignMap(title, regions, cities, zones, sea_links, roads, religions, pools)


def _features(f: Fields) -> tuple[str, ...]:
    out = []
    for item in f.names("features"):
        if item.lower() not in FEATURES:
            raise f.error("features", f"`{item}` is not one of {', '.join(FEATURES)}")
        out.append(item.lower())
    return tuple(out)

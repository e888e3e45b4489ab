# ruff: noqa: E501  (the printed tables keep one row per line, exactly as the document prints them)
"""Chart 8.2 and section 3's tables (3-1 to 3-12): every printed cell, read through the rules that use it.

The expected values are the document's own table text, parsed here.
"""

import pytest

from engine.core.errors import RulesError
from engine.rulesets.lote_modern.rules import cities, industry, military, reserves
from engine.rulesets.lote_modern.rules.cities import CoBuilder
from engine.rulesets.lote_modern.rules.industry import FactoryKind, YardSource
from engine.rulesets.lote_modern.rules.tech import Culture, Terrain
from tests.engine.lote_modern.economy.printed import rows

TABLE_3_1 = {
    "C": r"""
| Tech | Cavalry | Infantry | Warship | Siege | Artillery |
|---|---|---|---|---|---|
| 3 | 5 | 5 | 4 | 5 | 0 |
| 4 | 7 | 6 | 5 | 7 | 0 |
| 5 | 8 | 7 | 6 | 8 | 0 |
| 6 | 9 | 8 | 7 | 10 | 0 |
| 7 | 10 | 10 | 10 | 12 | 4 |
""",
    "S": r"""
| Tech Level | Cavalry | Infantry | Warship | Siege |
|---|---|---|---|---|
| 1 | 0 | 3 | 4 | 2 |
| 2 | 1 | 4 | 6 | 4 |
| 3 | 3 | 5 | 6 | 5 |
| 4 | 5 | 6 | 7 | 7 |
| 5 | 6 | 7 | 8 | 8 |
| 6 | 7 | 8 | 9 | 10 |
| 7 | 8 | 10 | 12 | 12 |
""",
    "B": r"""
| Tech Level | Cavalry | Infantry | Warship | Siege |
|---|---|---|---|---|
| 2 | 3 | 4 | 4 | 4 |
| 3 | 5 | 5 | 4 | 5 |
| 4 | 7 | 6 | 5 | 7 |
""",
    "N": r"""
| Tech Level | Cavalry | Infantry | Warship | Siege |
|---|---|---|---|---|
| 2 | 5 | 3 | 2 | 2 |
| 3 | 7 | 4 | 3 | 3 |
| 4 | 9 | 5 | 4 | 5 |
""",
    "P": r"""
| Tech Level | Cavalry | Infantry | Warship | Siege |
|---|---|---|---|---|
| 1 | 0 (1) | 3 | 2 | 2 |
| 2 | 0 (2) | 4 | 4 | 4 |
| 3 | 0 (3) | 5 | 4 | 5 |
""",
    "R": r"""
| Tech | Cavalry | Infantry | Warship | Siege | Artillery |
|---|---|---|---|---|---|
| 8 | 11 | 12 | 12 | 15 | 6 |
| 9 | 11 | 14 | 15 | 17 | 9 |
| 10 | 12 | 15 | 17 | 20 | 11 |
| 11 | 13 | 16 | 20 | 23 | 13 |
""",
    "I1": r"""
| Tech | Cavalry | Infantry | Warship | Siege | Artillery |
|---|---|---|---|---|---|
| 12 | 14 | 18 | 27 | 26 | 20 |
| 13 | 14 | 20 | 30 | 29 | 22 |
| 14 | 14 | 22 | 34 | 32 | 24 |
| 15 | 15 | 24 | 37 | 35 | 26 |
""",
    "I2": r"""
| Tech | Cavalry | Infantry | Warship | Siege | Artillery |
|---|---|---|---|---|---|
| 16 | 15 | 26 | 40 | 38 | 30 |
| 17 | 15 | 28 | 42 | 41 | 32 |
| 18 | 15 | 30 | 46 | 44 | 35 |
| 19 | 15 | 32 | 48 | 47 | 40 |
""",
    "I3": r"""
| Tech | Cavalry | Infantry | Warship | Siege | Artillery |
|---|---|---|---|---|---|
| 20 | 15 | 34 | 50 | 50 | 42 |
| 21 | 15 | 40 | 54 | 53 | 45 |
| 22 | 15 | 50 | 57 | 57 | 50 |
""",
}

TABLE_3_2 = r"""
| Unit | GP (R / I1) | NFP |
|---|---|---|
| Cavalry | 2.5 / 4.0 | 1 |
| Inexperienced Cavalry | 1.25 / NA | 1 |
| Light Cavalry | 2.0 / 3.5 | 1 |
| Light Inexperienced Cav. | 0.75 / NA | 1 |
| Heavy Cavalry | 3.0 / 4.5 | 1 |
| Infantry | 1.5 | 1 |
| Inexperienced Infantry | 0.75 | 1 |
| Light Infantry | 1.0 | 1 |
| Light Inexperienced Inf. | 0.25 | 1 |
| Heavy Infantry | 2.0 | 1 |
| Artillery | 2.5 | 1 |
| Light Artillery | 2.0 | 1 |
| Heavy Artillery | 3.0 | 1 |
| Siege Engineer | 2.0 | 1 |
| Warships | 2.0 | 1 |
| Light Warship | 1.5 | 1 |
| Heavy Warship | 2.5 | 1 |
| Transport | 1.5 | 1 |
| Light Transport | 1.0 | 1 |
| Heavy Transport | 2.0 | 1 |
| Steam Transport | NA / 5.0 | 1 |
| Steam Cruiser | NA / 7.5 | 2 |
| Steam Battleship | NA / 12.5 | 5 |
| Steam Dreadnought | NA / 25.0 | 10 |
| Steam Aircraft Carrier | NA / 15.0 | 8 |
| Scout Airship | NA / 4.0 | 1 |
| Regular Airship | NA / 7.5 | 2 |
| Heavy Airship | NA / 10.0 | 3 |
| Transport Airship | NA / 5.0 | 2 |
| Submarine | NA / 5.0 | 1 |
| Advanced Submarine | NA / 12.5 | 3 |
| One value under GP column applies to both<br>Renaissance and Industrial nations<br>NA: Not allowed for that nation. | | |
"""

TABLE_3_3 = r"""
| Unit | GP (R / I1) | NFP |
|---|---|---|
| Cavalry | 3.5 / 5.0 | 0 |
| Inexperienced Cavalry | 2.25 / NA | 0 |
| Light Cavalry | 3.0 / 4.5 | 0 |
| Light Inexperienced Cav. | 1.75 / NA | 0 |
| Heavy Cavalry | 4.0 / 5.5 | 0 |
| Infantry | 2.5 | 0 |
| Inexperienced Infantry | 1.75 | 0 |
| Light Infantry | 2.0 | 0 |
| Light Inexperienced Inf. | 1.25 | 0 |
| Heavy Infantry | 3.0 | 0 |
| Artillery | 3.5 | 0 |
| Light Artillery | 3.0 | 0 |
| Heavy Artillery | 4.0 | 0 |
| Siege Engineer | 3.0 | 0 |
| Warships | 3.0 | 0 |
| Light Warship | 2.5 | 0 |
| Heavy Warship | 3.5 | 0 |
| Transport | 2.5 | 0 |
| Light Transport | 2.0 | 0 |
| Heavy Transport | 3.0 | 0 |
| Steam Transport | NA / 6.0 | 0 |
| Steam Cruiser | NA / 8.5 | 0 |
| Steam Battleship | NA / 13.5 | 0 |
| Steam Dreadnought | NA / 26.0 | 0 |
| Steam Aircraft Carrier | NA / 16.0 | 0 |
| Scout Airship | NA / 5.0 | 0 |
| Regular Airship | NA / 8.5 | 0 |
| Heavy Airship | NA / 11.0 | 0 |
| Transport Airship | NA / 6.0 | 0 |
| Submarine | NA / 6.0 | 0 |
| Advanced Submarine | NA / 13.5 | 0 |
| One value under GP column applies to both<br>Renaissance and Industrial nations<br>NA: Not allowed for that nation. | | |
"""

TABLE_3_5 = r"""
| Region Terrain | Maximum GPv |
|---|---|
| C2 | 20 |
| C / I | 15 |
| W | 10 |
| M / J | 8 |
| S / D | 6 |
| T | 5 |
"""

TABLE_3_6 = r"""
| Region Terrain | Maximum PWB |
|---|---|
| C2 | GPv $\times$ 30 |
| C | GPv $\times$ 20 |
| Other Terrains | No Change |
| Cities | GPv $\times$ 15 |
"""

TABLE_3_7 = r"""
| Starting GPv | Status Increase |
|---|---|
| 1 | +4 |
| 2 | +3 |
| 3 | +2 |
| 4 or more | +1 |
"""

TABLE_3_8 = r"""
| Status Level | MH | PRA | RO |
|---|---|---|---|
| 0 | None | None | None |
| 1 | MA | CH | OH |
| 2 | MF | AB | OO |
| 3 | BO | MN | OP |
| 4 | CI | CA | OE |
"""

TABLE_3_9 = r"""
| Source | Capacity | Notes |
|---|---|--|
| Trade Center | 5 | Usable only by Nomads or Barbarians for the construction of Heavy units (including ships, if in a coastal region). |
| City | GPv x 5 | Usable for the construction of Heavy land units and projects. |
| Port City | GPv x 5 | Usable for the construction of Heavy ships, units and projects. |
"""

TABLE_3_10 = r"""
| Location | Max YC | Notes |
|---|---|---|
| City | GPv × 2 | This total includes all Factories and Yards located at the city. |
| C/C2 region | GPv | This total includes all Factories and Yards located in the province. Steamship and Submarine Yards may only be built in coastal provinces. |
| W/I/J region | GPv / 2 | This total includes all Factories and Yards located in the province. Steamship and Submarine Yards may only be built in a coastal province. |
| Other terrains | None | |
"""

TABLE_3_4 = r"""
| Type | Location | GPc | NFPc | Time |
|---|---|---|---|---|
| Airship Factory | City | 25.0 | 5 | 2 |
| | Region | 50.0 | 8 | 4 |
| Steamship Yard | Port City | 50.0 | 5 | 2 |
| | Coastal Region | 100.0 | 10 | 4 |
| Submarine Yard | Port City | 30.0 | 5 | 2 |
| | Coastal Region | 50.0 | 8 | 4 |
| Mercantile Industry | City | 5 | 1 | 2 |
| Hidden or Underground | Appropriate Region (only) | ×2 | ×2 | ×2 |
"""

TABLE_3_12 = r"""
| Factory or Yard Type | Siege Strength |
|---|---|
| Airship Factory, Mercantile Industry | 10 |
| Steamship or Submarine Yard | 20 |
| City "generic" Yard | 15 |
"""

# The printed reserve rows by their unit codes on the Renaissance and Industrial build charts (8-2, 8-3).
RESERVE_CODES = {
    "Cavalry": ("C", "C"), "Inexperienced Cavalry": ("IC", None), "Light Cavalry": ("LC", "XC"),
    "Light Inexperienced Cav.": ("LIC", None), "Heavy Cavalry": ("HC", "HC"), "Infantry": ("I", "I"),
    "Inexperienced Infantry": ("II", "II"), "Light Infantry": ("LI", "XI"), "Light Inexperienced Inf.": ("LII", "XII"),
    "Heavy Infantry": ("HI", "HI"), "Artillery": ("A", "A"), "Light Artillery": ("LA", "XA"),
    "Heavy Artillery": ("HA", "HA"), "Siege Engineer": ("S", "S"), "Warships": ("W", "W"),
    "Light Warship": ("LW", "XW"), "Heavy Warship": ("HW", "HW"), "Transport": ("T", "T"),
    "Light Transport": ("LT", "XT"), "Heavy Transport": ("HT", "HT"), "Steam Transport": (None, "ST"),
    "Steam Cruiser": (None, "CA"), "Steam Battleship": (None, "BB"), "Steam Dreadnought": (None, "DN"),
    "Steam Aircraft Carrier": (None, "CV"), "Scout Airship": (None, "ZS"), "Regular Airship": (None, "Z"),
    "Heavy Airship": (None, "ZH"), "Transport Airship": (None, "ZT"), "Submarine": (None, "SM"),
    "Advanced Submarine": (None, "SS"),
}


def test_table_3_1_max_quality_ratings_per_culture_and_tech_level():
    for code, text in TABLE_3_1.items():
        culture = Culture(code)
        printed = rows(text)
        assert printed
        for tech, cavalry, infantry, warship, siege, *artillery in printed:
            caps = military.max_quality_ratings(culture, int(tech))
            cavalry_now, _, after_count = cavalry.partition(" (")
            assert caps.cavalry == int(cavalry_now), (code, tech)
            assert (caps.infantry, caps.warship, caps.siege) == (int(infantry), int(warship), int(siege)), (code, tech)
            assert caps.artillery == (int(artillery[0]) if artillery else 0), (code, tech)
            if after_count:
                expired = military.max_quality_ratings(culture, int(tech), cavalry_count_expired=True)
                assert expired.cavalry == int(after_count.rstrip(")")), (code, tech)
    with pytest.raises(RulesError):
        military.max_quality_ratings(Culture.BARBARIAN, 5)


def test_table_3_1_civilized_artillery_only_once_bought():
    assert not military.can_build_artillery(Culture.CIVILIZED, 7)
    assert military.can_build_artillery(Culture.CIVILIZED, 7, bought_artillery=True)
    assert not military.can_build_artillery(Culture.CIVILIZED, 6, bought_artillery=True)
    assert military.can_build_artillery(Culture.RENAISSANCE, 8)


def _reserve_table(text, lookup):
    printed = [row for row in rows(text) if row[0] in RESERVE_CODES]
    assert len(printed) == len(RESERVE_CODES) == 31
    for name, gp, nfp in printed:
        r_code, i_code = RESERVE_CODES[name]
        r_gp, _, i_gp = gp.partition(" / ")
        i_gp = i_gp or r_gp
        for culture, code, cell in ((Culture.RENAISSANCE, r_code, r_gp), (Culture.INDUSTRIAL_ONE, i_code, i_gp),
                                    (Culture.INDUSTRIAL_THREE, i_code, i_gp)):
            if cell == "NA":
                assert code is None
                continue
            cost = lookup(code, culture)
            assert (cost.gp, cost.nfp) == (float(cell), int(nfp)), (name, culture)


def test_table_3_2_costs_to_build_as_reserves():
    _reserve_table(TABLE_3_2, reserves.reserve_build_cost)
    # NA cells: Industrial nations have no inexperienced cavalry, Renaissance ones no steamships.
    with pytest.raises(RulesError):
        reserves.reserve_build_cost("IC", Culture.INDUSTRIAL_ONE)
    with pytest.raises(RulesError, match="Steam Transport"):
        reserves.reserve_build_cost("ST", Culture.RENAISSANCE)


def test_table_3_3_activate_from_reserve():
    _reserve_table(TABLE_3_3, reserves.reserve_activation_cost)


def test_tables_3_2_and_3_3_refuse_elite_and_static_units():
    for code in ("EC", "HEI", "F", "WP"):
        with pytest.raises(RulesError):
            reserves.reserve_build_cost(code, Culture.RENAISSANCE)
    with pytest.raises(RulesError):
        reserves.reserve_activation_cost("I", Culture.CIVILIZED)


def test_table_3_5_maximum_city_size_by_terrain():
    printed = rows(TABLE_3_5)
    assert len(printed) == 6
    for terrains, size in printed:
        for terrain in terrains.split(" / "):
            assert cities.max_city_size(Terrain.parse(terrain), 12) == int(size)
    assert cities.max_city_size(Terrain.CULTIVATED, 11) is None


def test_table_3_6_maximum_public_works_for_tl_12():
    printed = dict(rows(TABLE_3_6))
    assert printed == {"C2": "GPv $\\times$ 30", "C": "GPv $\\times$ 20", "Other Terrains": "No Change",
                       "Cities": "GPv $\\times$ 15"}
    assert cities.max_public_works(3, 12, terrain=Terrain.INTENSELY_CULTIVATED) == 90
    assert cities.max_public_works(3, 12, terrain=Terrain.CULTIVATED) == 60
    assert cities.max_public_works(10, 12, city=True) == 150
    for other in (Terrain.WILDERNESS, Terrain.MOUNTAIN, Terrain.ISLAND, Terrain.OASIS):
        assert cities.max_public_works(3, 12, terrain=other) is None
    assert cities.max_public_works(3, 11, terrain=Terrain.CULTIVATED) is None


def test_table_3_7_city_build_status_increase():
    printed = rows(TABLE_3_7)
    assert len(printed) == 4
    for gpv, increase in printed:
        sizes = [4, 5, 9, 20] if gpv == "4 or more" else [int(gpv)]
        for size in sizes:
            assert cities.cobuild_status_increase(size) == int(increase.lstrip("+"))


def test_table_3_8_pre_existing_status_levels():
    printed = rows(TABLE_3_8)
    assert len(printed) == 5
    builders = [CoBuilder.MERCHANT_HOUSE, CoBuilder.PRIMACY, CoBuilder.ORDER]
    for level, *codes in printed:
        for builder, code in zip(builders, codes, strict=True):
            assert cities.status_code(int(level), builder) == (None if code == "None" else code)
            assert cities.status_level(None if code == "None" else code, builder) == int(level)


def test_table_3_9_intrinsic_yard_capacity():
    printed = {row[0]: row[1] for row in rows(TABLE_3_9)}
    assert printed == {"Trade Center": "5", "City": "GPv x 5", "Port City": "GPv x 5"}
    assert industry.intrinsic_yard_capacity(YardSource.TRADE_CENTER, culture=Culture.NOMADIC) == 5
    assert industry.intrinsic_yard_capacity(YardSource.TRADE_CENTER, culture=Culture.BARBARIAN) == 5
    assert industry.intrinsic_yard_capacity(YardSource.TRADE_CENTER, culture=Culture.RENAISSANCE) == 0
    assert industry.intrinsic_yard_capacity(YardSource.CITY, gpv=4) == 20
    assert industry.intrinsic_yard_capacity(YardSource.PORT_CITY, gpv=7) == 35


def test_table_3_10_maximum_factory_construction():
    printed = {row[0]: row[1] for row in rows(TABLE_3_10)}
    assert printed == {"City": "GPv × 2", "C/C2 region": "GPv", "W/I/J region": "GPv / 2", "Other terrains": "None"}
    assert industry.max_factory_points(10, city=True) == 20
    for terrain in (Terrain.CULTIVATED, Terrain.INTENSELY_CULTIVATED):
        assert industry.max_factory_points(3, terrain=terrain) == 3
    for terrain in (Terrain.WILDERNESS, Terrain.ISLAND, Terrain.JUNGLE):
        assert industry.max_factory_points(3, terrain=terrain) == 1
        assert industry.max_factory_points(1, terrain=terrain) == 0
    for terrain in (Terrain.MOUNTAIN, Terrain.STEPPE, Terrain.DESERT, Terrain.TUNDRA, Terrain.OASIS):
        assert industry.max_factory_points(4, terrain=terrain) == 0


def test_table_3_4_factory_yard_construction_costs():
    kinds = {"Airship Factory": FactoryKind.AIRSHIP, "Steamship Yard": FactoryKind.STEAMSHIP,
             "Submarine Yard": FactoryKind.SUBMARINE, "Mercantile Industry": FactoryKind.MERCANTILE}
    kind = None
    seen = 0
    for name, location, gp, nfp, time in rows(TABLE_3_4):
        if name == "Hidden or Underground":
            assert (gp, nfp, time) == ("×2", "×2", "×2")
            continue
        kind = kinds.get(name, kind)
        in_city = location in ("City", "Port City")
        cost = industry.factory_cost(kind, city=in_city)
        assert (cost.gp, cost.nfp, cost.time) == (float(gp), int(nfp), int(time)), (kind, location)
        seen += 1
    assert seen == 7
    hidden = industry.factory_cost(FactoryKind.AIRSHIP, city=False, hidden=True)
    assert (hidden.gp, hidden.nfp, hidden.time) == (100.0, 16, 8)
    with pytest.raises(RulesError):
        industry.factory_cost(FactoryKind.STEAMSHIP, city=False, hidden=True)


def test_table_3_12_factory_yard_defense_strengths():
    printed = {row[0]: int(row[1]) for row in rows(TABLE_3_12)}
    assert printed == {"Airship Factory, Mercantile Industry": 10, "Steamship or Submarine Yard": 20,
                       'City "generic" Yard': 15}
    assert industry.factory_defence(FactoryKind.AIRSHIP) == industry.factory_defence(FactoryKind.MERCANTILE) == 10
    assert industry.factory_defence(FactoryKind.STEAMSHIP) == industry.factory_defence(FactoryKind.SUBMARINE) == 20
    assert industry.factory_defence(None) == 15

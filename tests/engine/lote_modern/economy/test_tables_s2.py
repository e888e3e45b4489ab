"""Chart 8.1 (Tables 2-1 to 2-12): every printed cell, read through the rules that use it.

The expected values are the document's own table text (chart 8.1), parsed here, so a wrong number in the
data files or a wrong column in a lookup fails.
"""

import pytest

from engine.core.errors import RulesError
from engine.rulesets.lote_modern.rules import economy, military, regions, trade
from engine.rulesets.lote_modern.rules.regions import Relation
from engine.rulesets.lote_modern.rules.tech import Culture, Terrain, cultures_at_tech_level, industrial_stage
from engine.rulesets.lote_modern.rules.trade import SeaRating
from tests.engine.lote_modern.economy.printed import rows

NAMES = {"Pre-Columbian": "P", "PreColumbian": "P", "Seafaring": "S", "Barbarian": "B", "Nomadic": "N",
         "Civilized": "C", "Renaissance": "R", "The Renaissance": "R", "Industrial One": "I1",
         "Industrial Two": "I2", "Industrial Three": "I3", "Industrial Stage One": "I1",
         "Industrial Stage Two": "I2", "Industrial Stage Three": "I3", "Rena./Indust1": "R"}

TABLE_2_1 = r"""
| TechLevel | Culture Types |
|---|---|
| 001 | Pre-Columbian / Seafaring |
| 002 | Pre-Columbian / Barbarian / Nomadic / Seafaring |
| 003 | Civilized / Pre-Columbian / Barbarian / Nomadic / Seafaring |
| 004 | Civilized / Barbarian / Nomadic / Seafaring |
| 005 – 007 | Civilized / Seafaring |
| 008 – 011 | The Renaissance |
| 012 – 015 | Industrial Stage One |
| 016 – 019 | Industrial Stage Two |
| 020 – 022 | Industrial Stage Three |
"""

TABLE_2_2 = r"""
| Cultural Type | Modifier |
|---|---|
| Industrial Three | 3.0 |
| Industrial Two | 2.0 |
| Industrial One | 1.5 |
| Renaissance | 1.0 |
| Seafaring | 0.9 |
| Civilized | 0.8 |
| Barbarian | 0.7 |
| Nomadic | 0.6 |
| Pre-Columbian | 0.5 |
"""

TABLE_2_3 = r"""
| Terrain | Culture | | | | | | |
|---|---|---|---|---|---|---|---|
| | I1 | R | C | B | N | S | P |
| c2 | 1.0 | 1.0 | 1.0 | 1.5 | 2.0 | 1.0 | 1.0 |
| C | 1.0 | 1.0 | 1.0 | 1.0 | 1.5 | 1.0 | 1.0 |
| w | 0.5 | 0.5 | 0.5 | 1.0 | 0.3 | 0.5 | 1.0 |
| m | 0.5 | 0.3 | 0.3 | 0.5 | 0.2 | 0.2 | 0.5 |
| s | 0.5 | 0.3 | 0.3 | 0.2 | 1.0 | 0.0 | 0.2 |
| d | 0.2 | 0.2 | 0.2 | 0.2 | 0.5 | 0.0 | 0.2 |
| t | 0.2 | 0.2 | 0.2 | 0.3 | 0.0 | 0.0 | 0.2 |
| i | 0.5 | 1.0 | 1.0 | 1.0 | 1.0 | 1.5 | 1.0 |
| j | 0.2 | 0.3 | 0.3 | 0.5 | 0.2 | 1.0 | 1.0 |
| o | 0.0 | 0.0 | 0.0 | 0.0 | 0.0 | 0.0 | 0.0 |
"""

TABLE_2_4 = r"""
| Status | Description | Modifier |
|---|---|---|
| A | Administering | 1.0 |
| B | Being Besieged | 2.0 |
| C | On Campaign | 2.0 |
| E | Sneaking Around... | 1.0 |
| G | In Garrison | 1.0 |
| M | Mutinous! | 1.0 |
| N | Normal | 1.0 |
| P | Prisoner | 0.0 |
| R | Ruling | 1.0 |
| S | Besieging A City | 2.0 |
"""

TABLE_2_5 = r"""
| Terr. | I1 | R | C | B | N | S | P |
|---|---|---|---|---|---|---|---|
| M | 1.5 | 1.75 | 2.0 | 1.0 | 2.0 | 2.0 | 1.5 |
| S | 2.0 | 1.5 | 2.0 | 1.5 | 0.0 | 2.0 | 1.5 |
| T | 2.0 | 2.0 | 2.0 | 1.5 | 2.0 | 2.0 | 1.0 |
| D | 2.0 | 1.75 | 1.5 | 1.5 | 1.0 | 1.5 | 1.5 |
| J | 1.5 | 1.5 | 1.5 | 1.0 | 1.5 | 1.0 | 1.0 |
| W | 1.25 | 1.0 | 1.5 | 1.0 | 1.5 | 1.5 | 1.0 |
| C | 1.0 | 1.0 | 1.0 | 1.0 | 0.1 | 1.0 | 1.0 |
| C2 | 1.0 | 1.0 | 1.0 | 0.5 | 0.1 | 1.0 | 1.0 |
| I | 1.0 | 1.0 | 1.0 | 1.0 | 1.0 | 0.5 | 1.0 |
"""

TABLE_2_6 = r"""
| Culture | c | c2 | w | s | j | i | d | m | t | o |
|---|---|---|---|---|---|---|---|---|---|---|
| PreColumbian | 1 | 1 | 1 | 2 <sup>c</sup> | 1 | 1 | 2 <sup>c</sup> | 1 | 2 | 1 |
| Seafaring | 1 | 1 | 2 | 2 <sup>c</sup> | 2 | 1 | 2 <sup>c</sup> | 2 | 2 | 1 |
| Civilized | 1 | 1 | 2 | 2 <sup>c</sup> | 2 | 1 | 2 <sup>c</sup> | 2 | 2 | 1 |
| Barbarian | 2 | 2 | 1 | 2 <sup>c</sup> | 1 | 1 | 2 <sup>c</sup> | 1 | 2 | 2 |
| Nomadic | 1 | 2 | 2 | 1 <sup>c</sup> | 2 | 1 | 1 <sup>c</sup> | 2 | 2 | 1 |
| Rena./Indust1 | 1 | 1 | 2 | 2 <sup>c</sup> | 1 | 1 | 1.5 <sup>c</sup> | 1 | 2 | 1 |
"""

TABLE_2_7 = r"""
| National RS | Regional Religion. | | |
|---|---|---|---|
| | Same | Tolerant | Hostile |
| 1 | F | F | A |
| 2-3 | F | F | EA |
| 4-5 | F | A | EA |
| 6-7 | F | EA | T |
| 8-9 | F | EA | NT |
| 10 | F | T | P/PT |
"""

TABLE_2_8 = r"""
| Regional Terrain | Controlling Culture. | | | | | |
|---|---|---|---|---|---|---|
| | R/I1 | C | B | N | S | P |
| C2 (Intns Cult.) | Hm | Hm | Hm | Hm | F | Hm |
| C (Cultivated) | Hm | Hm | Hm | Hm | F | Hm |
| W (Wilderness) | F | F | Hm | EA | FA | Hm |
| M (Mountain) | EA | FA | F | T | EA | FA |
| S (Steppe) | EA | FA | T | F | NT | FA |
| D (Desert) | EA | FA | T | F | NT | EA |
| T (Tundra) | F | F | F | NT | T | F |
| I (Island) | Hm | F | F | T | Hm | F |
| J (Jungle) | F | F | EA | NT | EA | F |
| O (Oasis) | EA | T | NT | A | NT | NT |
"""

TABLE_2_9 = r"""
| Year Range | Years per Turn | Base Tax Rate |
|---|---|---|
| 1000-1399 | 5 | 100% |
| 1400-1499 | 4 | 80% |
| 1500-1599 | 3 | 60% |
| 1600-1800 | 2 | 40% |
| 1801-1850 | 1 | 20% |
| 1851-1900 | 6 months | 10% |
| 1901-1950 | 3 months | 6% |
| 1951+ | 1 month | 2% |
"""

TABLE_2_10 = r"""
| Rating | Maximum Value |
|---|---|
| Navigation | Tech Level / 2 |
| Trade Range | Tech Level - 2 |
| Conduit Limit | Tech Level / 2 |
"""

TABLE_2_11 = r"""
| Original Culture Type | New Trade Range |
|---|---|
| Civilized | 4 |
| Seafaring | 5 |
"""

TABLE_2_12 = r"""
| Nation Type | Minimum Status for Conduit City |
|---|---|
| Open Nation | Tributary |
| Religious Primacy | Holy City or Tributary |
| Merchant Combine | Branch Office or Tributary |
| Religious Order | Order Fortress or Tributary |
"""


def _culture(name: str) -> Culture:
    return Culture(NAMES[name.strip()])


def test_table_2_1_technology_levels():
    for level, cultures in rows(TABLE_2_1):
        low, _, high = level.replace("–", "-").partition("-")
        expected = tuple(_culture(name) for name in cultures.split(" / "))
        for tech in range(int(low), int(high or low) + 1):
            assert cultures_at_tech_level(tech) == expected, tech
    assert industrial_stage(9) is Culture.RENAISSANCE and industrial_stage(17) is Culture.INDUSTRIAL_TWO
    assert industrial_stage(7) is None
    with pytest.raises(RulesError):
        cultures_at_tech_level(23)


def test_table_2_2_national_culture_modifiers():
    printed = rows(TABLE_2_2)
    assert len(printed) == len(Culture)
    for name, modifier in printed:
        assert economy.culture_modifier(_culture(name)) == float(modifier)


def test_table_2_3_terrain_type_tax_multiples():
    header, *body = rows(TABLE_2_3)
    cultures = [Culture(code) for code in header[1:]]
    assert len(body) == 10
    for terrain, *cells in body:
        for culture, cell in zip(cultures, cells, strict=True):
            assert economy.terrain_tax_multiple(culture, Terrain.parse(terrain)) == float(cell), (terrain, culture)
    # The chart prints Industrial One only: the later stages read its column.
    assert economy.terrain_tax_multiple(Culture.INDUSTRIAL_THREE, Terrain.ISLAND) == 0.5


def test_table_2_4_army_status_troop_support_modifiers():
    printed = rows(TABLE_2_4)
    assert len(printed) == 10
    for code, _description, modifier in printed:
        assert economy.army_status_modifier(code) == float(modifier)
        assert economy.army_status_modifier(code.lower()) == float(modifier)
    with pytest.raises(RulesError):
        economy.army_status_modifier("X")


def test_table_2_5_terrain_troop_support_modifiers():
    header = ["I1", "R", "C", "B", "N", "S", "P"]
    printed = rows(TABLE_2_5)
    assert len(printed) == 9
    for terrain, *cells in printed:
        for code, cell in zip(header, cells, strict=True):
            got = economy.terrain_support_modifier(Culture(code), Terrain.parse(terrain))
            assert got == float(cell), (terrain, code)
    # No Oasis row is printed: the campaign's choice applies (1.0 unless set).
    assert economy.terrain_support_modifier(Culture.RENAISSANCE, Terrain.OASIS) == 1.0
    assert economy.terrain_support_modifier(Culture.RENAISSANCE, Terrain.OASIS, oasis=1.5) == 1.5


def test_table_2_6_garrison_terrain_modifiers():
    terrains = ["c", "c2", "w", "s", "j", "i", "d", "m", "t", "o"]
    printed = rows(TABLE_2_6)
    assert len(printed) == 6
    for name, *cells in printed:
        culture = _culture(name)
        for terrain, cell in zip(terrains, cells, strict=True):
            value, marked = cell.replace("<sup>c</sup>", "").strip(), "<sup>c</sup>" in cell
            assert regions.garrison_terrain_modifier(culture, Terrain(terrain)) == float(value), (name, terrain)
            need = regions.garrison_requirement(1, culture=culture, terrain=Terrain(terrain), religion_modifier=1)
            assert need.cavalry is marked, (name, terrain)
    for industrial in (Culture.INDUSTRIAL_ONE, Culture.INDUSTRIAL_THREE):
        assert regions.garrison_terrain_modifier(industrial, Terrain.DESERT) == 1.5


def test_table_2_7_maximum_region_status_by_religion():
    _columns, *body = rows(TABLE_2_7)
    assert len(body) == 6
    for rs_range, same, tolerant, hostile in body:
        low, _, high = rs_range.partition("-")
        for rs in range(int(low), int(high or low) + 1):
            assert regions.max_status_by_religion(rs, Relation.SAME) == same
            assert regions.max_status_by_religion(rs, Relation.TOLERANT) == tolerant
            assert regions.max_status_by_religion(rs, Relation.HOSTILE) == hostile


def test_table_2_8_maximum_region_status_by_terrain():
    header, *body = rows(TABLE_2_8)
    assert header[1] == "R/I1"
    columns = [[Culture.RENAISSANCE, Culture.INDUSTRIAL_ONE, Culture.INDUSTRIAL_TWO, Culture.INDUSTRIAL_THREE]]
    columns += [[Culture(code)] for code in header[2:]]
    assert len(body) == 10
    for terrain, *cells in body:
        for cultures, cell in zip(columns, cells, strict=True):
            for culture in cultures:
                got = regions.max_status_by_terrain(Terrain.parse(terrain.split()[0]), culture)
                assert got == cell, (terrain, culture)


def test_table_2_8_note_port_city_homelands():
    allowed = {c for c in Culture if regions.may_have_port_city_homeland(c)}
    assert allowed == {Culture.SEAFARING, Culture.RENAISSANCE, Culture.INDUSTRIAL_ONE, Culture.INDUSTRIAL_TWO,
                       Culture.INDUSTRIAL_THREE}


def test_table_2_9_years_per_turn():
    printed = rows(TABLE_2_9)
    assert len(printed) == 8
    for years, length, rate in printed:
        low, _, high = years.rstrip("+").partition("-")
        for year in (int(low), int(high or low)) if high else (int(low), int(low) + 500):
            got = economy.year_length(year)
            assert str(got) in (f"{length} years", f"{length} year", length), year
            assert got.base_tax_rate * 100 == int(rate.rstrip("%")), year
    assert economy.year_length(1851).years * 12 == 6


def test_table_2_10_sea_ratings_maximum_values():
    printed = dict(rows(TABLE_2_10))
    assert printed == {"Navigation": "Tech Level / 2", "Trade Range": "Tech Level - 2",
                       "Conduit Limit": "Tech Level / 2"}
    for tech in range(1, 23):
        assert trade.sea_rating_maximum(SeaRating.NAVIGATION, tech) == tech // 2
        assert trade.sea_rating_maximum(SeaRating.TRADE_RANGE, tech) == max(0, tech - 2)
        assert trade.sea_rating_maximum(SeaRating.CONDUIT_LIMIT, tech) == tech // 2


def test_table_2_11_new_trade_ranges():
    for name, new_range in rows(TABLE_2_11):
        assert trade.initial_trade_range(_culture(name)) == int(new_range)
    # Other cultures keep the medieval base of three (2.8.2.2).
    assert trade.initial_trade_range(Culture.BARBARIAN) == 3


def test_table_2_12_conduit_city_minimum_status():
    nation_types = {"Open Nation": trade.NationType.OPEN_NATION,
                    "Religious Primacy": trade.NationType.RELIGIOUS_PRIMACY,
                    "Merchant Combine": trade.NationType.MERCHANT_HOUSE,
                    "Religious Order": trade.NationType.RELIGIOUS_ORDER}
    own = {"Holy City": "HC", "Branch Office": "BO", "Order Fortress": "OF"}
    for name, minimum in rows(TABLE_2_12):
        nation = nation_types[name]
        assert trade.anchor_qualifies(nation, national_status="T")
        assert not trade.anchor_qualifies(nation, national_status="NT")
        assert not trade.anchor_qualifies(nation, national_status="P")
        if " or " in minimum:
            assert trade.anchor_qualifies(nation, own_status=own[minimum.split(" or ")[0]])
        for other in ("BO", "HC", "OF"):
            if other not in minimum and other != own.get(minimum.split(" or ")[0]):
                assert not trade.anchor_qualifies(nation, own_status=other), (name, other)


def test_ship_actions_per_year_by_navigation():
    # 2.8.1.1: Renaissance 7 + Nav, Industrial One 8 + Nav, steamships one fewer.
    assert military.ship_actions_per_year(Culture.RENAISSANCE, 3) == 10
    assert military.ship_actions_per_year(Culture.INDUSTRIAL_ONE, 3) == 11
    assert military.ship_actions_per_year(Culture.INDUSTRIAL_ONE, 3, steam=True) == 10
    assert military.ship_actions_per_year(Culture.RENAISSANCE, 3, other=-1) == 9
    with pytest.raises(RulesError):
        military.ship_actions_per_year(Culture.CIVILIZED, 3)

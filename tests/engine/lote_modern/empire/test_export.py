"""LotE 7.5 munitions export and 7.6 mercantile construction."""

import pytest

from engine.core.errors import RulesError
from engine.rulesets.lote_modern.rules import export as e
from engine.rulesets.lote_modern.rules.actions import Cost
from engine.rulesets.lote_modern.rules.mercantile import check_house_build


def test_7_5_munitions_export_example():
    # The Pacific Mercenary and Trust company lists ten Heavy Artillery built for export as 10(ha).
    assert e.export_label(10, "HA") == "10(ha)"
    assert e.parse_export("10(ha)") == (10, "ha")
    assert e.export_build_cost(60) == Cost(gp=60, nfp=0)


@pytest.mark.parametrize(("export", "national", "becomes"), [
    ("hi", "i", "hi"), ("hi", "ei", "hei"), ("hc", "c", "hc"), ("hc", "ec", "hec"), ("hw", "w", "hw"),
    ("ht", "t", "ht"), ("xa", "xi", "xa"), ("xa", "xei", "xea"), ("xa", "xc", "xa"), ("xa", "xec", "xea"),
    ("a", "i", "a"), ("a", "c", "a"), ("a", "ei", "ea"), ("a", "ec", "ea"), ("ha", "c", "ha"), ("ha", "ei", "hea"),
    ("st", "t", "st"), ("ca", "w", "ca"), ("bb", "w", "bb"), ("dn", "w", "dn"), ("cv", "w", "cv"),
    ("zs", "c", "zs"), ("z", "c", "z"), ("zh", "c", "zh"), ("zt", "c", "zt"), ("ss", "w", "ss"), ("m", "w", "m")])
def test_7_5_table_7_3_upgrades(export, national, becomes):
    assert e.upgrade(export, national) == becomes


def test_7_5_export_units_fit_only_the_units_table_7_3_names():
    with pytest.raises(RulesError, match=r"\(hi\) turns i or ei, not c"):
        e.upgrade("hi", "c")
    assert not e.exportable("i")
    with pytest.raises(RulesError):
        e.parse_export("10(i)")


def test_7_5_upgrades_take_6_ap_and_ships_need_a_port():
    assert e.upgrade_cost() == Cost(ap=6)
    assert e.check_upgrade("hw", "w", ship=True, at_port=True) == []
    assert e.check_upgrade("hw", "w", ship=True, at_port=False) == [
        "ship units are upgraded at a Port City or Port Area"]


def test_7_5_export_cargo_is_half_and_steamships_are_crewed_by_their_nfp_in_warships():
    assert e.export_cargo(3) == 1.5
    assert e.crew_warships(5) == 5          # a Steam Battleship costs 5 NFP
    assert e.crew_warships(2) == 2          # a Steam Cruiser costs 2 NFP


def test_7_6_the_home_office_and_friendly_hbz_cities_build_anything():
    assert check_house_build("unit", at_home_office=True) == []
    assert check_house_build("export", friendly_city_in_hbz=True) == []
    assert check_house_build("yard-unit", at_home_office=True) != []
    assert check_house_build("yard-unit", at_home_office=True, yard_builds_this=True) == []


def test_7_6_cartel_cities_build_yard_units_exports_and_railroads_with_an_industry_site():
    assert check_house_build("export", cartel_city=True, industry_site=True) == []
    assert check_house_build("railroad", cartel_city=True, industry_site=True) == []
    assert check_house_build("yard-unit", cartel_city=True, industry_site=True, yard_builds_this=True) == []
    assert check_house_build("export", cartel_city=True) != []
    assert "Homeland Build Zone" in check_house_build("unit", cartel_city=True, industry_site=True)[0]
    assert check_house_build("export") != []

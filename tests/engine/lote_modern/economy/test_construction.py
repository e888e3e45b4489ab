"""New unit types and what building them takes (LotE Modern Era 2.5, 3.2.1, 3.5, 3.6)."""

import pytest

from engine.core.errors import RulesError
from engine.rulesets.lote_modern.rules import construction, military
from engine.rulesets.lote_modern.rules.industry import FactoryKind, RenaissanceYards, YardPool
from engine.rulesets.lote_modern.rules.tech import Culture

R, I1 = Culture.RENAISSANCE, Culture.INDUSTRIAL_ONE
STEAM_YARD = {FactoryKind.STEAMSHIP: 1}


def test_2_5_artillery_qr_runs_from_one_to_fifty():
    assert military.artillery_qr_bounds() == (1, 50)


def test_3_2_1_1_artillery_beyond_a_third_of_the_army_is_no_use():
    assert military.useful_artillery(10, 20) == 10
    assert military.useful_artillery(15, 15) == 10
    assert military.useful_artillery(4, 20) == 4
    # Artillery cannot win a battle by itself.
    assert military.useful_artillery(5, 0) == 0


def test_3_2_1_2_2_steamship_range_example():
    # Denmark, TL 12: 12 - 10 = 2 AP from its coaling port at Krak-de-Chevaliers: the Nile (1 AP) and the
    # Red Sea (2 AP) are within range; a squadron going on past the Red Sea suffers attrition.
    reach = military.steamship_operating_range(12)
    assert reach == 2
    nile, red_sea, beyond = 1, 2, 3
    assert nile <= reach and red_sea <= reach and beyond > reach
    assert military.steamship_attrition_losses(8, red_sea - reach) == 0
    assert military.steamship_attrition_losses(8, beyond - reach) == 2
    assert military.steamship_attrition_losses(8, 2) == 4
    assert military.steamship_attrition_losses(1, 1) == 1
    assert military.steamship_operating_range(9) == 1 and military.steamship_operating_range(15) == 5


def test_3_2_1_2_3_steam_transports_on_trade_routes():
    assert military.steam_transports_fit_route([2, 1, 2], 12)
    assert not military.steam_transports_fit_route([2, 3], 12)
    assert military.steam_transports_fit_route([3], 13)


def test_3_2_1_2_steamships_need_their_project_tech_and_a_yard():
    assert construction.unit_build_problems("ST", I1, tech_level=12, completed={"steamships"},
                                            facility_points=STEAM_YARD) == []
    assert any("R&D: Steamships" in p for p in construction.unit_build_problems(
        "ST", I1, tech_level=12, completed=set(), facility_points=STEAM_YARD))
    assert any("steamship yard" in p for p in construction.unit_build_problems(
        "ST", I1, tech_level=12, completed={"steamships"}))
    # Each further type takes its own project.
    assert any("Steam Cruiser" in p for p in construction.unit_build_problems(
        "CA", I1, tech_level=12, completed={"steamships"}, facility_points=STEAM_YARD))
    assert construction.unit_build_problems("DN", I1, tech_level=14, completed={"steam_dreadnought"},
                                            facility_points={FactoryKind.STEAMSHIP: 6}) == []


def test_3_2_1_3_airships_after_the_prototype_need_an_airship_yard():
    # R&D: Airships gives one hand-built Scout Airship; more need an Airship Yard.
    assert construction.unit_build_problems("ZS", I1, tech_level=12, completed={"airships"}) != []
    assert construction.unit_build_problems("ZS", I1, tech_level=12, completed={"airships"},
                                            facility_points={FactoryKind.AIRSHIP: 1}) == []
    assert construction.unit_build_problems("Z", I1, tech_level=12, completed={"airships"},
                                            facility_points={FactoryKind.AIRSHIP: 2}) != []


def test_3_2_1_4_submersibles_and_submarines():
    yard = {FactoryKind.SUBMARINE: 1}
    assert construction.unit_build_problems("SM", I1, tech_level=11, completed={"submersibles"},
                                            facility_points=yard) == []
    assert construction.unit_build_problems("SS", I1, tech_level=12, completed={"submersibles"},
                                            facility_points=yard) != []
    assert construction.unit_project("SS") == "submarines"
    assert construction.unit_project("I") is None


def test_ordinary_units_need_no_research():
    assert construction.unit_build_problems("HI", R, tech_level=9) == []
    assert construction.unit_build_problems("TBL", I1, tech_level=12) == ["Refugees (Tribal) Point cannot be built"]


def test_4_2_6_carrier_takes_two_scouts_or_one_airship():
    assert military.carrier_can_carry(2, 0) and military.carrier_can_carry(0, 1)
    assert not military.carrier_can_carry(1, 1) and not military.carrier_can_carry(3, 0)
    assert military.carrier_can_carry(2, 1, carriers=2)


def test_3_6_build_costs_and_yard_pools():
    dreadnoughts = construction.unit_build_cost("DN", I1, 2)
    assert (dreadnoughts.gp, dreadnoughts.nfp, dreadnoughts.yard, dreadnoughts.pool) == (100.0, 20, 12,
                                                                                       YardPool.STEAMSHIP)
    assert construction.unit_build_cost("Z", I1).pool is YardPool.AIRSHIP
    assert construction.unit_build_cost("SS", I1).pool is YardPool.SUBMARINE
    assert construction.unit_build_cost("W", I1).pool is YardPool.PORT
    assert construction.unit_build_cost("HI", I1).pool is YardPool.CITY
    assert construction.unit_build_cost("I", I1).yard == 0
    with pytest.raises(RulesError):
        construction.unit_build_cost("NFP", I1)


def test_3_6_renaissance_heavy_and_artillery_units_pay_yard_capacity():
    # Table 8-2 prints no yard column; 3.6 charges Heavy-prefix and Artillery units for every nation.
    assert construction.unit_build_cost("HA", R).yard == 2
    assert construction.unit_build_cost("HC", R, 3).yard == 3
    assert construction.unit_build_cost("LA", R).yard == 1
    assert construction.unit_build_cost("W", R).yard == 0
    assert construction.unit_build_cost("W", R).pool is YardPool.PORT
    assert construction.unit_build_cost("T", R).pool is YardPool.PORT
    assert construction.unit_build_cost("W", R, renaissance=RenaissanceYards.INDUSTRIAL_CHART).yard == 1
    assert construction.unit_build_cost("LW", R, renaissance=RenaissanceYards.INDUSTRIAL_CHART).yard == 1
    assert construction.unit_build_cost("HA", R, renaissance=RenaissanceYards.NONE).yard == 0


def test_3_5_universal_weights_and_measures_example():
    # Ming China, Imperial Size 13: 1,300 GP, 130 NFP and at least 26 years.
    cost = construction.uwm_cost(13, culture=I1)
    assert (cost.gp, cost.nfp, cost.years) == (1300, 130, 26)
    with pytest.raises(RulesError):
        construction.uwm_cost(13, culture=R)


def test_2_8_1_navigation_helps_mapping_except_renaissance_at_magellan():
    assert military.navigation_counts_for_mapping(R, straits_of_magellan=False)
    assert not military.navigation_counts_for_mapping(R, straits_of_magellan=True)
    assert military.navigation_counts_for_mapping(I1, straits_of_magellan=True)
    assert not military.navigation_counts_for_mapping(Culture.SEAFARING, straits_of_magellan=False)


def test_3_1_quality_ratings_rise_only_to_their_cap():
    assert military.may_raise_quality_rating(R, 9, "artillery", 8)
    assert not military.may_raise_quality_rating(R, 9, "artillery", 9)
    assert military.may_raise_quality_rating(I1, 12, "warship", 26)
    assert not military.may_raise_quality_rating(Culture.CIVILIZED, 7, "artillery", 1)
    assert military.may_raise_quality_rating(Culture.CIVILIZED, 7, "artillery", 1, bought_artillery=True)
    assert not military.may_raise_quality_rating(Culture.PRE_COLUMBIAN, 2, "cavalry", 0)
    assert military.may_raise_quality_rating(Culture.PRE_COLUMBIAN, 2, "cavalry", 0, cavalry_count_expired=True)
    with pytest.raises(RulesError):
        military.may_raise_quality_rating(R, 9, "navigation", 1)


def test_3_2_1_3_2_airships_with_siege_bombard():
    assert military.can_bombard("Z", I1) and military.can_bombard("ZS", I1) and military.can_bombard("ZH", I1)
    assert not military.can_bombard("ZT", I1)
    assert not military.can_bombard("HA", I1)

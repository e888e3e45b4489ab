"""Income, trade value, troop support and turn length (LotE Modern Era 2.2.1, 2.3, 2.6, 3.5)."""

import pytest

from engine.core.errors import RulesError
from engine.rulesets.lote_modern.rules import economy
from engine.rulesets.lote_modern.rules.economy import Rounding
from engine.rulesets.lote_modern.rules.tech import Culture, Terrain, tax_rate, tech_level_tax_multiplier

R, I1 = Culture.RENAISSANCE, Culture.INDUSTRIAL_ONE


def test_2_3_1_city_trade_value_example():
    # Marseilles: an 8 GPv port city in an allied, cultivated province of the Renaissance Frankish
    # Commonwealth: 8/3 x 1.5 x 1.0 x 1.0 x 1.0, "3.9, rounded up to 4".
    ctv = economy.city_trade_value(8, city_type_modifier=1.5, city_status_modifier=1.0,
                                   terrain=Terrain.CULTIVATED, culture=R)
    assert ctv == 4


def test_city_trade_value_uses_the_culture_and_terrain_tables():
    # 9 GPv, Industrial One (1.5) in Wilderness (0.5): 3 x 1 x 1 x 0.5 x 1.5 = 2.25 -> 3 rounded up.
    assert economy.city_trade_value(9, city_type_modifier=1, city_status_modifier=1, terrain=Terrain.WILDERNESS,
                                    culture=I1) == 3
    assert economy.city_trade_value(9, city_type_modifier=1, city_status_modifier=1, terrain=Terrain.WILDERNESS,
                                    culture=I1, rounding=Rounding.NONE) == 2.25
    assert economy.city_trade_value(9, city_type_modifier=1, city_status_modifier=1, terrain=Terrain.WILDERNESS,
                                    culture=I1, rounding=Rounding.NEAREST) == 2
    assert economy.city_trade_value(9, city_type_modifier=1, city_status_modifier=1, terrain=Terrain.WILDERNESS,
                                    culture=I1, terrain_modifier=1.0) == 5


def test_international_trade_value_totals_the_cities():
    assert economy.international_trade_value([4, 3, 2.5]) == 9.5
    assert economy.international_trade_value([]) == 0


def test_2_3_2_regional_income_adds_silk_road_and_fur_line():
    # A 3 GPv mountain region of a Renaissance nation at a 1.0 status multiple: 3 x 0.3 = 0.9.
    assert economy.regional_value(3, status_multiple=1, terrain=Terrain.MOUNTAIN, culture=R) == pytest.approx(0.9)
    assert economy.regional_value(3, status_multiple=1, terrain=Terrain.MOUNTAIN, culture=I1) == 1.5
    income = economy.regional_income([0.9, 4, 2], silk_road_regions=2, fur_line_regions=1)
    assert income == pytest.approx(6.9 + 2 + 2)


def test_2_3_3_troop_support_is_cost_times_terrain_times_status():
    # Ten Renaissance infantry (TSC 0.3) on campaign (2.0) in the mountains (1.75): 10 x 0.3 x 1.75 x 2.
    assert economy.unit_troop_support("I", 10, culture=R, terrain=Terrain.MOUNTAIN,
                                      army_status="C") == pytest.approx(10.5)
    # The same army at home in garrison on cultivated land pays the bare cost.
    assert economy.unit_troop_support("I", 10, culture=R, terrain=Terrain.CULTIVATED,
                                      army_status="G") == pytest.approx(3.0)
    # Prisoners cost nothing; Industrial airships pay the chart's 3.0, not a tenth of their price.
    assert economy.unit_troop_support("Z", 2, culture=I1, terrain=Terrain.CULTIVATED, army_status="P") == 0
    assert economy.unit_troop_support("Z", 2, culture=I1, terrain=Terrain.CULTIVATED, army_status="N") == 6
    with pytest.raises(RulesError):
        economy.unit_troop_support("F", 1, culture=I1, terrain=Terrain.CULTIVATED, army_status="X")


def test_troop_support_scales_with_turn_length():
    # 1450: four-year turns, support at 80%.
    scale = economy.support_scale(1450)
    assert economy.troop_support(1.0, culture=R, terrain=Terrain.DESERT, army_status="S",
                                 year_scale=scale) == pytest.approx(1.75 * 2 * 0.8)


def test_2_6_year_length_support_example():
    # 100 GP of support when the turn becomes four years long: 100 x 0.80 = 80 GP.
    assert str(economy.year_length(1400)) == "4 years"
    assert economy.scaled_support(100, 1400) == 80
    assert economy.scaled_support(100, 1399) == 100
    assert str(economy.year_length(1860)) == "6 months"
    assert str(economy.year_length(1960)) == "1 month"
    assert economy.year_length(900) == economy.year_length(1000)


def test_2_2_1_tech_level_tax_bonus_example():
    # "for a nation with a TL of 11 the base rate will be multiplied by 1.11".
    assert tech_level_tax_multiplier(11) == pytest.approx(1.11)
    assert tax_rate(0.8, tech_level=11) == pytest.approx(0.888)
    assert tax_rate(0.8) == pytest.approx(0.8)


def test_3_5_uwm_raises_the_base_tax_rate_ten_percent():
    assert tax_rate(0.4, 1.0, 1.0, 1.0, uwm=True) == pytest.approx(0.44)
    assert tax_rate(0.4, 1.2, 0.9, 1.1, uwm=True, tech_level=12) == pytest.approx(0.4 * 1.2 * 0.9 * 1.1 * 1.1 * 1.12)


def test_culture_names_and_codes_parse():
    assert Culture.parse("Industrial One") is I1
    assert Culture.parse("pre-columbian") is Culture.PRE_COLUMBIAN
    assert Culture.parse("i3") is Culture.INDUSTRIAL_THREE
    assert Terrain.parse("C2") is Terrain.INTENSELY_CULTIVATED and Terrain.parse("Mountain") is Terrain.MOUNTAIN
    with pytest.raises(RulesError):
        Culture.parse("Martian")
    with pytest.raises(RulesError):
        Terrain.parse("swamp")

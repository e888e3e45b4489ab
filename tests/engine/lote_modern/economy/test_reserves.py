"""Reserve units (LotE Modern Era 3.2.2, optional rule)."""

from engine.rulesets.lote_modern.rules import reserves
from engine.rulesets.lote_modern.rules.tech import Culture

R, I1 = Culture.RENAISSANCE, Culture.INDUSTRIAL_ONE


def test_3_2_2_4_division_of_reserves_in_civil_war_example():
    # The Maori Imperium's 15 friendly cities split 8 / 3 / 4 among Austral, Java and the Seahold: 53%, 20%,
    # 27% of 56 infantry, 20 artillery and 115 warships, rounded down.
    held = {"I": 56, "A": 20, "W": 115}
    shares = reserves.divide_reserves(held, {"Austral": 8, "Java": 3, "Seahold": 4})
    assert shares["Austral"] == {"I": 29, "A": 10, "W": 60}
    assert shares["Java"] == {"I": 11, "A": 4, "W": 23}
    assert shares["Seahold"] == {"I": 15, "A": 5, "W": 31}


def test_3_2_2_4_exact_shares_are_a_campaign_option():
    shares = reserves.divide_reserves({"W": 115}, {"Austral": 8, "Java": 3, "Seahold": 4}, whole_percent=False)
    assert shares == {"Austral": {"W": 61}, "Java": {"W": 23}, "Seahold": {"W": 30}}


def test_3_2_2_4_rounded_shares_never_create_units():
    shares = reserves.divide_reserves({"I": 100}, dict.fromkeys("ABCDEF", 1))
    assert sum(s["I"] for s in shares.values()) == 100


def test_3_2_2_1_building_reserves():
    assert reserves.reserve_build_problems("I", R, friendly_city_in_hbz=True) == []
    assert reserves.reserve_build_problems("EI", R, friendly_city_in_hbz=True) != []
    assert reserves.reserve_build_problems("I", R, friendly_city_in_hbz=False) != []
    assert reserves.reserve_troop_support() == 0


def test_3_2_2_2_placing_units_into_reserve():
    assert reserves.placement_problems("XI", I1, began_turn_at_controlled_city=True) == []
    assert reserves.placement_problems("XI", I1, began_turn_at_controlled_city=False) != []
    assert reserves.placement_problems("XI", I1, began_turn_at_controlled_city=True, activated_this_turn=True) != []
    assert reserves.placement_problems("XEI", I1, began_turn_at_controlled_city=True) != []


def test_3_2_2_3_activating_reserves():
    ok = {"city_or_fortress": True, "controlled": True, "friendly": True, "besieged": False, "within_hbz": True}
    assert reserves.activation_problems(**ok) == []
    assert reserves.activation_problems(**{**ok, "besieged": True}) != []
    assert reserves.activation_problems(**{**ok, "within_hbz": False}) != []
    assert reserves.activation_problems(**ok, placed_this_turn=True) != []
    assert reserves.reserve_activation_cost("ZT", I1).gp == 6.0

"""LotE 7.4 merchant actions: costs, what each needs before it may be tried, rulings and outcomes."""

import pytest

from engine.core.errors import RulesError
from engine.rulesets.lote_modern.rules import merchant_actions as ma
from engine.rulesets.lote_modern.rules.actions import Cost, ruled_success
from engine.rulesets.lote_modern.rules.merchant import Holding, MerchantOptions
from engine.rulesets.lote_modern.rules.merchant_actions import Attempt, Place

from .fixed_dice import FixedDice


def city(*holdings, name="Gozer", nation="Ethiopia"):
    return Place(name, True, nation, tuple(Holding(h, c) for h, c in holdings))


def region(*holdings, name="Transkei"):
    return Place(name, False, None, tuple(Holding(h, c) for h, c in holdings))


@pytest.mark.parametrize(("code", "ap", "gp"), [
    ("aa", 2, 3), ("emf", 3, 5), ("obo", 6, 10), ("amn", 8, 25), ("fct", 8, 25), ("gpt", 3, 25), ("dcm", 6, 25),
    ("zl", 5, 10), ("emb", 12, 25), ("dl", 3, 5)])
def test_7_4_costs_from_table_7_2(code, ap, gp):
    assert ma.merchant_action_cost(code) == Cost(ap=ap, gp=gp)


def test_7_4_support_gold_and_extra_ap_on_open_ended_actions():
    assert ma.merchant_action_cost("OBO", support_gold=20, extra_ap=2) == Cost(ap=8, gp=30)
    with pytest.raises(RulesError, match="fixed cost"):
        ma.merchant_action_cost("ecl", extra_ap=1)


def test_7_4_5_a_colony_costs_25_gp_per_year():
    assert ma.merchant_action_cost("ecl", years=3) == Cost(ap=8, gp=75)


def test_7_4_1_acquire_agent_ap_follows_table_7_2_or_the_section_as_the_campaign_chooses():
    assert ma.merchant_action_cost("aa").ap == 2
    assert ma.merchant_action_cost("aa", options=MerchantOptions(acquire_agent_ap=3)).ap == 3


def test_7_4_1_acquire_agent_needs_reach_and_no_status_of_ours():
    assert ma.check_acquire_agent("KEAC", region(), within_reach=True) == []
    assert ma.check_acquire_agent("KEAC", region(), within_reach=False) != []
    assert ma.check_acquire_agent("KEAC", region(("KEAC", "ma")), within_reach=True) != []
    crowded = region(*[(f"H{i}", "ma") for i in range(11)])
    assert any("other Agents" in p for p in ma.check_acquire_agent("KEAC", crowded, within_reach=True))


def test_7_4_2_and_7_4_3_factories_need_an_agent_and_branch_offices_a_factory_in_a_city():
    assert ma.check_establish_factory("KEAC", region(("KEAC", "ma"))) == []
    assert ma.check_establish_factory("KEAC", region()) != []
    assert ma.check_open_branch_office("KEAC", city(("KEAC", "mf"))) == []
    assert any("city" in p for p in ma.check_open_branch_office("KEAC", region(("KEAC", "mf"))))
    assert any("one level" in p for p in ma.check_open_branch_office("KEAC", city(("KEAC", "mf")),
                                                                      raised_this_turn=True))


def test_7_4_4_a_cartel_city_needs_our_branch_office_and_no_other_house():
    assert ma.check_found_cartel_city("AEIC", city(("AEIC", "bo"))) == []
    problems = ma.check_found_cartel_city("AEIC", city(("AEIC", "bo"), ("KEAC", "mf")))
    assert problems == ["other Houses' statuses must be withdrawn or destroyed before a Cartel City is founded"]


def test_7_4_5_establishing_a_colony():
    ok = {"leader_present": True, "adjacent_to_house_bo": False, "within_trade_range_of_anchor": True,
          "native_or_unsettled": True, "years_per_turn": 3, "payments": 2, "spent_own_nfp": True}
    assert ma.check_establish_colony("KEAC", region(), **ok) == []
    too_many = ma.check_establish_colony("KEAC", region(), **{**ok, "payments": 3})
    assert too_many == ["this turn allows 2 settler payment(s)"]
    assert ma.check_establish_colony("KEAC", region(), **{**ok, "adjacent_to_house_bo": True}) != []
    assert ma.check_establish_colony("KEAC", region(("AEIC", "ma")), **ok) != []


def test_7_4_6_acquire_monopoly_needs_a_branch_office_in_the_capital_or_a_homeland_city():
    capital = city(("KEAC", "bo"), name="Aksum", nation="Judah")
    assert ma.check_acquire_monopoly("KEAC", capital=capital, monopolies_available=2) == []
    assert ma.check_acquire_monopoly("KEAC", capital=capital, monopolies_available=0) != []
    homeland = city(("KEAC", "ci"), name="Gondar", nation="Judah")
    assert ma.check_acquire_monopoly("KEAC", capital=None, homeland_city=homeland, monopolies_available=1) == []
    assert "no monopoly" in ma.check_acquire_monopoly("KEAC", capital=None, monopolies_available=1)[0]


def test_7_4_7_and_7_4_8_treatment_and_discredit_need_a_branch_office_in_the_nation():
    nation = [city(("KEAC", "mf")), city(("KEAC", "bo"), name="Adulis")]
    assert ma.check_gain_preferential_treatment("KEAC", nation_places=nation) == []
    assert ma.check_gain_preferential_treatment("KEAC", nation_places=nation[:1]) != []
    assert ma.check_discredit_competitor("KEAC", "monopoly", nation_places=nation) == []
    assert ma.check_discredit_competitor("KEAC", "harbour", nation_places=nation) != []


def test_7_4_8_treatment_and_discredit_cancel_one_for_one():
    assert ma.net_treatment(2, 3) == (0, 1)
    assert ma.net_treatment(2, 1) == (1, 0)


def test_7_4_9_and_7_4_10_seizing_or_destroying_a_rivals_status():
    place = city(("AEIC", "bo"), ("KEAC", "mf"))
    assert ma.check_seize_location("KEAC", place, "AEIC") == []
    assert ma.apply_status_action("zl", "KEAC", place, target_house="AEIC").holdings == (Holding("KEAC", "bo"),)
    assert ma.apply_status_action("dl", "KEAC", place, target_house="AEIC").holdings == (Holding("KEAC", "mf"),)
    assert ma.check_destroy_location("KEAC", place, "Nobody") != []
    with pytest.raises(RulesError):
        ma.apply_status_action("dl", "KEAC", place)


def test_7_4_11_brokerage_of_an_existing_pool():
    assert ma.check_establish_brokerage("KEAC", pool="Italy", pool_exists=True, current_broker="AEIC") == []
    assert ma.check_establish_brokerage("KEAC", pool="Italy", pool_exists=True, current_broker="KEAC") != []


def test_7_4_status_actions_raise_the_house_one_level():
    place = region(("KEAC", "ma"), ("AEIC", "ma"))
    assert ma.apply_status_action("emf", "KEAC", place).of("KEAC") == "mf"
    assert ma.apply_status_action("aa", "VOC", place).of("VOC") == "ma"


def test_7_4_the_gm_sets_the_chance_and_the_d100_rolled_with_the_ruling_decides():
    attempt = Attempt("Lord Prahvarata", stat=7, support_gold=20, intel_actions=1, hostile_religion=True)
    ruling = ma.action_ruling("amn", "KEAC", "Judah", attempt, dice=FixedDice(35))
    assert ruling.rule == "LotE 7.4.6 Acquire Monopoly"
    factors = dict(ruling.factors)
    assert factors["Lord Prahvarata's Diplomacy"] == "7"
    assert factors["hostile religion"] == "yes"
    assert "House locations in the nation" in factors
    assert ruled_success(ruling, 35) and not ruled_success(ruling, 34)
    assert ruling.roll.visibility.label() == "gm"


def test_places_round_trip_through_json_data():
    import json

    place = city(("AEIC", "bo"), ("KEAC", "mf"))
    assert Place.load(json.loads(json.dumps(place.dump()))) == place

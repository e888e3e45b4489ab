"""LotE 7.1.2-7.1.5 the Merchant House's ventures: colonies, cartel trade, brokerage, overland routes."""

import pytest

from engine.core.errors import RulesError
from engine.rulesets.lote_modern.rules import mercantile as v
from engine.rulesets.lote_modern.rules.merchant import MerchantOptions

from .fixed_dice import FixedDice

# --- 7.1.2 colonies ----------------------------------------------------------------------------------------


def test_7_1_2_establishing_colonies_example():
    # Three-year turn; Prahvarata brought 15 NFP and 15 GP, which uses up one year of payments.
    colony = v.advance_colony(v.ColonyProgress(), gp=15, nfp=15, max_levels=2)
    assert colony.levels == 1
    payments = v.colony_payments_allowed(3, spent_own_nfp=True)
    assert payments == 2
    assert payments * v.colony_payment_gp(3) == 50
    dice = FixedDice(2, 3)                                  # 1 + 2 settlers: "a mighty three NFP"
    settlers = v.roll_colony_settlers(dice, payments=payments, years_per_turn=3, purpose="colony/KEAC/Transkei")
    assert settlers == 3
    assert len(dice.rolls) == 2
    assert dice.rolls[0].purpose == "colony/KEAC/Transkei/payment1"
    colony = v.advance_colony(colony, nfp=settlers, max_levels=2)
    assert colony == v.ColonyProgress(levels=1, gp=0, nfp=3)


def test_7_1_2_payments_follow_turn_length_and_shrink_below_a_year():
    assert v.colony_payments_allowed(2) == 2
    assert v.colony_payments_allowed(0.5) == 1
    assert v.colony_payment_gp(0.5) == 13                   # 12.5 rounds up
    assert v.colony_payment_gp(0.25) == 6                   # 6.25 rounds down
    dice = FixedDice(6, 4)                                  # 5 and 3 settlers, halved: 2.5 -> 3 and 1.5 -> 2
    assert v.roll_colony_settlers(dice, payments=2, years_per_turn=0.5, purpose="c") == 5


def test_7_1_2_settler_rolls_run_0_to_5():
    assert v.roll_colony_settlers(FixedDice(1), payments=1, years_per_turn=1, purpose="c") == 0
    assert v.roll_colony_settlers(FixedDice(6), payments=1, years_per_turn=1, purpose="c") == 5


def test_7_1_2_a_level_needs_both_15_gp_and_15_nfp_and_stops_at_the_region():
    assert v.advance_colony(v.ColonyProgress(), gp=30, nfp=14, max_levels=3) == v.ColonyProgress(0, 30, 14)
    assert v.advance_colony(v.ColonyProgress(), gp=45, nfp=45, max_levels=2) == v.ColonyProgress(2, 15, 15)


# --- 7.1.3 cartel trade ------------------------------------------------------------------------------------


def cartel(**changes):
    route = {"house_status_in_cartel_port": "bo", "house_status_in_target_port": "bo", "base_port_status": "bo",
             "base_port_free_msp": 10, "msp": 5}
    return v.check_cartel_route(**{**route, **changes})


def test_7_1_3_cartel_trade_example():
    # AEIC carries Arnor's trade from Schwarzkastel to Ethiopia's Gozer: a Branch Office or better in both.
    assert cartel() == []
    assert cartel(house_status_in_target_port="ci") == []
    assert cartel(house_status_in_target_port="mf") != []
    assert cartel(house_status_in_cartel_port=None) != []


@pytest.mark.parametrize(("change", "message"), [
    ({"target_is_house": True}, "second House"), ({"other_side_carried_by_house": True}, "only one nation's side"),
    ({"land_trade": True}, "land trade"), ({"aerial": True}, "aerial"), ({"msp": 11}, "room for only 10"),
    ({"revoked_from_another_house_this_turn": True}, "following turn"), ({"base_port_status": None}, "based at")])
def test_7_1_3_cartel_restrictions(change, message):
    assert any(message in p for p in cartel(**change))


def test_7_1_3_the_cartel_nation_is_paid_a_turn_late():
    assert v.cartel_share_turn(12) == 13


# --- 7.1.4 brokerage ---------------------------------------------------------------------------------------


def test_7_1_4_1_adjusting_pool_composition_example():
    cost = v.pool_conversion_cost({"i": 20}, {"c": 10, "i": 10}, {"c": 5.0, "i": 3.0})
    assert cost == pytest.approx(50)                    # the cost to build 10c
    with pytest.raises(RulesError, match="unit for unit"):
        v.pool_conversion_cost({"i": 20}, {"c": 10}, {"c": 5.0})


def test_7_1_4_brokers_pay_half_a_gp_per_unit_or_lose_the_pool():
    assert v.brokerage_upkeep(20) == pytest.approx(10)
    assert v.brokerage_upkeep(20, turn_factor=0.4) == pytest.approx(4)
    assert v.brokerage_upkeep(20, turn_factor=0.4, options=MerchantOptions(scale_brokerage_upkeep=False)) == 10
    assert v.brokerage_kept(paid=10, units=20, orders_submitted=True)
    assert not v.brokerage_kept(paid=9.5, units=20, orders_submitted=True)
    assert not v.brokerage_kept(paid=50, units=20, orders_submitted=False)


def test_7_1_4_2_mercenaries_are_hired_at_a_city_of_their_zone_through_the_contact():
    assert v.check_hire(at_city=True, in_pool_zone=True) == []
    assert v.check_hire(at_city=False, in_pool_zone=True) != []
    assert v.check_hire(at_city=True, in_pool_zone=False, ended_last_turn_here=True) == []
    assert v.check_hire(at_city=True, in_pool_zone=True, has_hiring_contact=True, bid_through_contact=False) != []


# --- 7.1.5 overland trade ----------------------------------------------------------------------------------


def overland(**changes):
    route = {"land_ap": 3, "sea_zones": 4, "contiguous": True, "reaches_home_office_by_land": False,
             "sea_route_to_home_office": True, "status_in_capital": "bo", "statuses_along_road": ("mf", "bo"),
             "permissions": (True, True)}
    return v.OverlandRoute(**{**route, **changes})


def test_7_1_5_the_four_conditions_of_an_overland_route():
    assert v.check_overland_route(overland(), trade_range=6) == []
    assert v.overland_route_length(overland()) == 7
    assert any("contiguous" in p for p in v.check_overland_route(overland(contiguous=False), trade_range=6))
    assert any("Branch Office" in p for p in v.check_overland_route(overland(status_in_capital="mf"), trade_range=6))
    assert any("every city" in p for p in v.check_overland_route(overland(statuses_along_road=("ma",)), trade_range=6))
    assert any("permission" in p for p in v.check_overland_route(overland(permissions=(True, False)), trade_range=6))
    assert any("at most 2.5 AP" in p for p in v.check_overland_route(overland(), trade_range=5))
    assert v.check_overland_route(overland(sea_route_to_home_office=False, reaches_home_office_by_land=True,
                                           sea_zones=0), trade_range=6) == []

"""LotE 7.1-7.3 the Merchant House: worked examples first, then one scenario per rule."""

import pytest

from engine.core.errors import RulesError
from engine.rulesets.lote_modern.rules import merchant as m
from engine.rulesets.lote_modern.rules.merchant import Holding, MerchantOptions, MonopolyBalance, Site

from .fixed_dice import FixedDice

# --- 7.1.1 monopolies ---------------------------------------------------------------------------------------


def test_7_1_1_controlling_monopolies_example():
    assert m.monopoly_limit(16) == 4
    keac = m.establish_monopoly(MonopolyBalance(nation_trade_value=16, house_trade_value=10, house_nmv=1.0), count=2)
    assert keac == MonopolyBalance(nation_trade_value=14, house_trade_value=12, house_nmv=1.02)


def test_7_1_1_a_trade_value_of_eight_is_worth_three_monopolies():
    assert m.monopoly_limit(8) == 3
    assert [m.monopoly_limit(tv) for tv in (0, 1, 2, 4, 5, 9, 10)] == [0, 1, 2, 2, 3, 3, 4]


def test_7_1_1_the_cap_counts_monopolies_already_out_of_the_nation():
    assert m.monopolies_available(14, monopolies_out=2) == 2
    assert m.monopolies_available(14, 2, MerchantOptions(monopoly_cap_counts_monopolies_out=False)) == 2
    assert m.monopolies_available(12, monopolies_out=4) == 0
    with pytest.raises(RulesError, match="no more monopolies"):
        m.establish_monopoly(MonopolyBalance(12, 0, 1.0), monopolies_out=4)


def test_7_1_1_a_revoked_monopoly_returns_its_point_a_nationalized_one_destroys_it():
    held = MonopolyBalance(14, 12, 1.02)
    assert m.revoke_monopoly(held) == MonopolyBalance(15, 11, 1.01)
    assert m.nationalize_monopoly(held) == MonopolyBalance(14, 11, 1.01)


def test_7_4_6_a_monopoly_lasts_while_a_branch_office_stands_in_the_capital():
    assert m.monopoly_kept("bo") and m.monopoly_kept("ci")
    assert not m.monopoly_kept("mf")
    assert not m.monopoly_kept(None)


# --- 7.1.2 colonies ----------------------------------------------------------------------------------------


def test_7_1_2_establishing_colonies_example():
    # Three-year turn; Prahvarata brought 15 NFP and 15 GP, which uses up one year of payments.
    colony = m.advance_colony(m.ColonyProgress(), gp=15, nfp=15, max_levels=2)
    assert colony.levels == 1
    payments = m.colony_payments_allowed(3, spent_own_nfp=True)
    assert payments == 2
    assert payments * m.colony_payment_gp(3) == 50
    dice = FixedDice(2, 3)                                  # 1 + 2 settlers: "a mighty three NFP"
    settlers = m.roll_colony_settlers(dice, payments=payments, years_per_turn=3, purpose="colony/KEAC/Transkei")
    assert settlers == 3
    assert len(dice.rolls) == 2
    assert dice.rolls[0].purpose == "colony/KEAC/Transkei/payment1"
    colony = m.advance_colony(colony, nfp=settlers, max_levels=2)
    assert colony == m.ColonyProgress(levels=1, gp=0, nfp=3)


def test_7_1_2_payments_follow_turn_length_and_shrink_below_a_year():
    assert m.colony_payments_allowed(2) == 2
    assert m.colony_payments_allowed(0.5) == 1
    assert m.colony_payment_gp(0.5) == 13                   # 12.5 rounds up
    assert m.colony_payment_gp(0.25) == 6                   # 6.25 rounds down
    dice = FixedDice(6, 4)                                  # 5 and 3 settlers, halved: 2.5 -> 3 and 1.5 -> 2
    assert m.roll_colony_settlers(dice, payments=2, years_per_turn=0.5, purpose="c") == 5


def test_7_1_2_settler_rolls_run_0_to_5():
    assert m.roll_colony_settlers(FixedDice(1), payments=1, years_per_turn=1, purpose="c") == 0
    assert m.roll_colony_settlers(FixedDice(6), payments=1, years_per_turn=1, purpose="c") == 5


def test_7_1_2_a_level_needs_both_15_gp_and_15_nfp_and_stops_at_the_region():
    assert m.advance_colony(m.ColonyProgress(), gp=30, nfp=14, max_levels=3) == m.ColonyProgress(0, 30, 14)
    assert m.advance_colony(m.ColonyProgress(), gp=45, nfp=45, max_levels=2) == m.ColonyProgress(2, 15, 15)


# --- 7.1.3 cartel trade ------------------------------------------------------------------------------------


def cartel(**changes):
    route = {"house_status_in_cartel_port": "bo", "house_status_in_target_port": "bo", "base_port_status": "bo",
             "base_port_free_msp": 10, "msp": 5}
    return m.check_cartel_route(**{**route, **changes})


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
    assert m.cartel_share_turn(12) == 13


# --- 7.1.4 brokerage ---------------------------------------------------------------------------------------


def test_7_1_4_1_adjusting_pool_composition_example():
    cost = m.pool_conversion_cost({"i": 20}, {"c": 10, "i": 10}, {"c": 5.0, "i": 3.0})
    assert cost == pytest.approx(50)                    # the cost to build 10c
    with pytest.raises(RulesError, match="unit for unit"):
        m.pool_conversion_cost({"i": 20}, {"c": 10}, {"c": 5.0})


def test_7_1_4_brokers_pay_half_a_gp_per_unit_or_lose_the_pool():
    assert m.brokerage_upkeep(20) == pytest.approx(10)
    assert m.brokerage_upkeep(20, turn_factor=0.4) == pytest.approx(4)
    assert m.brokerage_upkeep(20, turn_factor=0.4, options=MerchantOptions(scale_brokerage_upkeep=False)) == 10
    assert m.brokerage_kept(paid=10, units=20, orders_submitted=True)
    assert not m.brokerage_kept(paid=9.5, units=20, orders_submitted=True)
    assert not m.brokerage_kept(paid=50, units=20, orders_submitted=False)


def test_7_1_4_2_mercenaries_are_hired_at_a_city_of_their_zone_through_the_contact():
    assert m.check_hire(at_city=True, in_pool_zone=True) == []
    assert m.check_hire(at_city=False, in_pool_zone=True) != []
    assert m.check_hire(at_city=True, in_pool_zone=False, ended_last_turn_here=True) == []
    assert m.check_hire(at_city=True, in_pool_zone=True, has_hiring_contact=True, bid_through_contact=False) != []


# --- 7.1.5 overland trade ----------------------------------------------------------------------------------


def overland(**changes):
    route = {"land_ap": 3, "sea_zones": 4, "contiguous": True, "reaches_home_office_by_land": False,
             "sea_route_to_home_office": True, "status_in_capital": "bo", "statuses_along_road": ("mf", "bo"),
             "permissions": (True, True)}
    return m.OverlandRoute(**{**route, **changes})


def test_7_1_5_the_four_conditions_of_an_overland_route():
    assert m.check_overland_route(overland(), trade_range=6) == []
    assert m.overland_route_length(overland()) == 7
    assert any("contiguous" in p for p in m.check_overland_route(overland(contiguous=False), trade_range=6))
    assert any("Branch Office" in p for p in m.check_overland_route(overland(status_in_capital="mf"), trade_range=6))
    assert any("every city" in p for p in m.check_overland_route(overland(statuses_along_road=("ma",)), trade_range=6))
    assert any("permission" in p for p in m.check_overland_route(overland(permissions=(True, False)), trade_range=6))
    assert any("at most 2.5 AP" in p for p in m.check_overland_route(overland(), trade_range=5))
    assert m.check_overland_route(overland(sea_route_to_home_office=False, reaches_home_office_by_land=True,
                                           sea_zones=0), trade_range=6) == []


# --- 7.2 control levels ------------------------------------------------------------------------------------


def test_7_2_statuses_share_taxes_nfp_and_trade_as_the_campaign_reads_them():
    assert [m.tax_share(c) for c in m.CODES] == [0.10, 0.20, 0.30, 0.40, 0.50, 1.00]
    assert m.tax_share("ho", MerchantOptions(home_office_tax_percent=100)) == 1.0
    assert [m.nfp_share(c) for c in m.CODES] == [0, 0, 0, 0.40, 1.0, 1.0]
    assert [m.adds_trade_value(c) for c in m.CODES] == [False, False, True, True, True, True]
    assert m.adds_trade_value("ma", MerchantOptions(agents_factories_add_trade=True))


def test_7_2_only_a_branch_office_or_better_anchors_a_conduit_but_any_status_bases_shipping():
    assert [m.can_anchor_conduit(c) for c in m.CODES] == [False, False, True, True, True, True]
    assert all(m.can_base_msp(c) for c in m.CODES)
    assert [m.hires_mercenaries(c) for c in m.CODES] == [False, False, True, True, True, False]


def test_7_2_branch_offices_cartel_cities_and_the_home_office_are_for_cities_only():
    assert [c for c in m.CODES if not m.allowed_in(c, is_city=False)] == ["bo", "ci", "ho"]
    assert all(m.allowed_in(c, is_city=True) for c in m.CODES)


def test_7_2_a_status_rises_one_level_at_a_time():
    assert [m.next_level(c) for c in (None, "ma", "mf", "bo", "ci")] == ["ma", "mf", "bo", "ci", None]


def agents(n, code="ma"):
    return [Holding(f"H{i}", code) for i in range(n)]


def test_7_2_1_an_agent_coexists_with_up_to_ten_other_agents():
    assert m.coexistence_problems(agents(11)) == []
    assert m.coexistence_problems(agents(12)) != []


def test_7_2_2_a_factory_coexists_with_up_to_three_other_factories():
    assert m.coexistence_problems(agents(4, "mf")) == []
    assert m.coexistence_problems(agents(5, "mf")) != []


def test_7_2_3_a_branch_office_shares_with_two_factories_or_one_branch_office():
    bo = Holding("Us", "bo")
    assert m.coexistence_problems([bo, *agents(2, "mf")]) == []
    assert m.coexistence_problems([bo, *agents(3, "mf")]) != []
    assert m.coexistence_problems([bo, Holding("Them", "bo")]) == []
    assert m.coexistence_problems([bo, Holding("Them", "bo"), Holding("Other", "mf")]) != []
    assert m.coexistence_problems([bo, *agents(5)]) == []


@pytest.mark.parametrize("code", ["ci", "ho", "cl"])
def test_7_2_4_to_7_2_6_cartel_cities_home_offices_and_colonies_share_with_no_other_house(code):
    assert m.coexistence_problems([Holding("Us", code)]) == []
    assert m.coexistence_problems([Holding("Us", code), Holding("Them", "ma")]) != []


def test_7_2_a_house_holds_one_status_per_location():
    assert m.coexistence_problems([Holding("Us", "ma"), Holding("Us", "mf")]) != []
    assert m.check_new_status([Holding("Us", "ma")], "Us", "mf", is_city=False) == []
    assert m.check_new_status([], "Us", "bo", is_city=False) == ["a Branch Office must be in a city"]


def test_7_2_5_a_colony_shares_only_with_natives_and_only_while_gpv_remain():
    assert m.check_colony_neighbours(["Nomadic"], unconverted_gpv=1) == []
    assert m.check_colony_neighbours(["Nomadic"], unconverted_gpv=0) != []
    assert m.check_colony_neighbours(["Civilized"], unconverted_gpv=2) != []
    assert m.colony_complete(2, 2) and not m.colony_complete(1, 2)


def test_7_2_6_the_home_office_moves_to_a_cartel_city():
    assert m.check_home_office_move("ci", is_city=True) == []
    assert m.check_home_office_move("bo", is_city=True) != []


# --- 7.3 restrictions --------------------------------------------------------------------------------------


def test_7_3_1_to_7_3_3_house_constitutions():
    assert m.check_constitution(society="Clan", economy="Guild", government="Oligarchy") == []
    assert len(m.check_constitution(society="Feudal", economy="Manorial", government="Monarchy")) == 3


def test_7_3_5_agro_from_regular_statuses_and_colonies_only():
    assert not m.produces_agro("ci") and not m.consumes_agro("ho", is_city=True)
    assert m.produces_agro("Allied") and m.consumes_agro("Friendly", is_city=False)
    assert m.produces_agro("cl") and m.consumes_agro("cl", is_city=True) and not m.consumes_agro("cl", is_city=False)


def test_7_3_6_each_msp_costs_a_tenth_of_a_gp_adjusted_for_turn_length():
    assert m.msp_support(50) == pytest.approx(5)
    assert m.msp_support(50, turn_factor=0.6) == pytest.approx(3)


def test_7_3_7_action_range_is_half_the_tech_level_rounded_up():
    assert [m.action_range(tl) for tl in (8, 9, 11)] == [4, 5, 6]


def line_map(*chain):
    """Locations on a line, each 2 AP from the next."""
    index = {name: i for i, name in enumerate(chain)}
    return lambda here: {there: 2.0 * abs(index[here] - j) for there, j in index.items()}


def test_7_3_7_sites_hold_through_a_chain_of_supporting_sites_within_range():
    reach = line_map("Home", "A", "B", "C", "D")
    sites = [Site("Home", "ho"), Site("A", "ci"), Site("B", "bo"), Site("C", "mf"), Site("D", "ma")]
    web = {"tributary_or_better": (), "reach": reach, "action_range_ap": 2}
    assert m.control_web(sites, **web) == {"Home", "A", "B", "C", "D"}
    # A factory cannot hold up a branch office: with the cartel city gone, B and what hangs on it fall away.
    broken = [Site("Home", "ho"), Site("A", "mf"), Site("B", "bo"), Site("C", "mf")]
    assert [s.location for s in m.isolated_sites(broken, **web)] == ["B", "C"]


def test_7_3_7_tributary_regions_support_every_site_and_links_may_be_limited():
    reach = line_map("Home", "Trib", "A", "B")
    sites = [Site("Home", "ho"), Site("A", "bo"), Site("B", "mf")]
    assert m.control_web(sites, tributary_or_better=["Trib"], reach=reach, action_range_ap=2) == {
        "Home", "Trib", "A", "B"}
    limited = m.control_web(sites, tributary_or_better=["Trib"], reach=reach, action_range_ap=2,
                            options=MerchantOptions(control_web_max_links=1))
    assert "B" not in limited


def test_7_3_7_isolated_sites_degrade_one_level_a_turn():
    assert m.degrade(Site("X", "ci")) == Site("X", "bo")
    assert m.degrade(Site("X", "ma")) is None
    assert m.degrade(Site("X", "cl", levels=2)) == Site("X", "cl", levels=1)
    assert m.degrade(Site("X", "cl", levels=1)) is None


def test_7_3_7_a_status_made_outside_range_asks_for_a_revolt_check():
    ruling = m.outside_range_ruling(leader="Lord Prahvarata", location="Transkei", dice=FixedDice(40))
    assert ruling.roll.total == 40
    assert "revolts" in ruling.options[1]


def test_7_3_8_merchant_leaders_skip_the_uncontrolled_surcharge_unless_discredited():
    assert m.uncontrolled_entry_extra_ap(house_status_present=True, same_language=False, discredited=False) == 0
    assert m.uncontrolled_entry_extra_ap(house_status_present=False, same_language=True, discredited=False) == 0
    assert m.uncontrolled_entry_extra_ap(house_status_present=False, same_language=False, discredited=False) == 1
    assert m.uncontrolled_entry_extra_ap(house_status_present=True, same_language=True, discredited=True) == 1

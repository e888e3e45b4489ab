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

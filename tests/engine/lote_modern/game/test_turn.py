"""Turn processing: what the bot does for every nation when the GM closes the orders (LotE 2.3, 2.6, 3, 4, 6.2)."""

from __future__ import annotations

import pytest

from engine.core import Verdict, Viewer
from tests.engine.lote_modern.game.conftest import FixedDice, accepted

GM = Viewer.gm()


def edit(lm, state, nation, *edits):
    for e in edits:
        state = lm.act(state, GM, f'edit {nation} {e} "scene"', FixedDice()).state
    return state


def resolve(lm, state, orders=None, faces=None):
    submitted = {seat: accepted(lm, state, seat, text) for seat, text in (orders or {}).items()}
    return lm.resolve(state, submitted, FixedDice(faces)).state


def publish(lm, state):
    for item in state.report.rulings:
        state = lm.act(state, GM, f"rule {item.id} Noted.", FixedDice()).state
    return lm.act(state, GM, "publish", FixedDice()).state


def turn(lm, state, orders=None, faces=None):
    return publish(lm, resolve(lm, state, orders, faces))


def lines(state, nation):
    return "\n".join(state.report.lines[nation])


# -- upkeep and income (LotE 2.3, 2.6, 7.3.6) ------------------------------------------------------------------
def test_troop_support_is_tsc_times_terrain_and_status_scaled_by_turn_length(lm, state):
    # Home Army 6.6 (Sussex, c2) + Channel Fleet 10 (at sea) + Gibraltar Garrison 1.8+0.75 (mountain, x1.5)
    # = 19.15 GP of support at full length; 1845 turns of a year pay 20% of it (Table 2-9).
    state = resolve(lm, state)
    assert "Upkeep: troop support 3.83 GP." in lines(state, "England")


def test_support_halves_when_turns_shorten_to_six_months(lm, state):
    state.year = 1851
    state = resolve(lm, state)
    assert "Upkeep: troop support 1.92 GP." in lines(state, "England")
    state = publish(lm, state)
    assert (state.year, state.month) == (1851, 7)


def test_a_house_pays_a_tenth_of_a_gp_per_msp(lm, state):
    state = resolve(lm, state)
    assert "Upkeep: merchant shipping support 1.6 GP." in lines(state, "Hansa")   # 80 MSP x 0.1 x 20%


def test_regional_income_at_the_tax_rate(lm, state):
    # Regions: Sussex (3 GPv + 40 PWB) 7, Kent 3, Wessex 3, Mercia 5, Wales and Northumbria 0.5 each (I1 x0.5),
    # Scotland and Ireland 0.375 each (Allied 0.75 x 0.5) = 19.75 (LotE 2.3.2, Table 2-3).
    state = resolve(lm, state)
    assert ("Income: (regions 19.75, cities 32.75, trade routes 36) = 88.5 x tax rate 20.0% = 17.7 GP; +12 NFP."
            in lines(state, "England"))


def test_tech_level_tax_bonus_is_an_option(lm, start):
    state = resolve(lm, start(**{"tech-tax-bonus": "yes"}))
    assert "x tax rate 22.6% = 20 GP" in lines(state, "England")       # 20% x 1.13 (LotE 2.2.1)


def test_a_support_shortfall_goes_to_the_gm(lm, state):
    state = edit(lm, state, "England", "treasury.gp =1")
    state = resolve(lm, state)
    assert "Upkeep short by 2.83 GP" in lines(state, "England")
    assert any(r.kind == "upkeep" and "2.83 GP short" in r.text for r in state.report.rulings)


# -- loans (LotE 6.2) ---------------------------------------------------------------------------------------------
def test_a_loan_is_repaid_at_the_start_of_its_third_turn(lm, state):
    state = turn(lm, state)
    assert state.turn == 2 and state.loans[0].id == "L1"
    gp = state.nations["Spain"].gp
    state = resolve(lm, state)
    assert "Loan L1 repaid to England: 140 GP." in lines(state, "Spain")
    assert state.nations["England"].bank.investment == pytest.approx(21)          # 20 + the 10 GP spread / 10
    assert state.nations["Spain"].gp == pytest.approx(gp - 140 - 2.8 + 10.6)     # loan, upkeep, income


def test_a_default_cuts_the_lenders_tax_rate_and_bars_the_borrower(lm, state):
    state = turn(lm, state)
    state = resolve(lm, state, {"Spain": "default L1"})
    assert "defaulted: you refused" in lines(state, "Spain")
    assert "your tax rate falls by 31%" in lines(state, "England")               # 100 of 320 capacity
    state = publish(lm, state)
    state = resolve(lm, state)
    assert "tax rate 13.8%" in lines(state, "England")                          # 20% less 31.25%
    state = publish(lm, state)
    (check,) = lm.check(state, "Spain", "borrow 10gp from Spain")
    assert check.verdict is Verdict.REJECTED and "penalty payment" in check.message
    (check,) = lm.check(state, "Spain", "pay-penalty 200gp")
    assert check.verdict is Verdict.ACCEPTED
    state = resolve(lm, state, {"Spain": "pay-penalty 200gp"})
    assert not state.defaults


def test_a_bank_that_loses_everything_collapses(lm, state):
    state = edit(lm, state, "England", "bank.base_capacity =50", "bank.investment =0")
    state = turn(lm, state)
    state = resolve(lm, state, {"Spain": "default L1"})
    assert "the bank has COLLAPSED" in lines(state, "England")
    bank = state.nations["England"].bank
    assert bank.collapsed and bank.pre_collapse_capacity == 50
    state = publish(lm, state)
    checks = lm.check(state, "England", "rebuild-bank 500gp\nborrow 10gp from England")
    assert checks[0].verdict is Verdict.ACCEPTED and "200 GP toward rebuilding" in checks[0].message
    assert checks[1].verdict is Verdict.REJECTED and "collapsed" in checks[1].message


def test_a_bank_closed_to_a_nation_refuses_it_at_processing(lm, state):
    state = resolve(lm, state, {"England": "bank close-to France", "France": "borrow 100gp from England"})
    assert "England's bank refused a loan of 100 GP." in lines(state, "France")
    assert "Your bank refused France a loan of 100 GP" in lines(state, "England")
    assert not [x for x in state.loans if x.borrower == "France"]


# -- research and construction (LotE 3.3-3.6, 4) --------------------------------------------------------------
def test_research_gains_an_advance_within_its_chance_and_zeroes_the_gold(lm, state):
    # Airships: 100 GP + 2 NFP x 5 + 0 years = 110 / (2 Advances + 1) = 36% (LotE 4.1).
    state = resolve(lm, state, {"France": "research airships 100gp 1nfp"}, {"France/research/P001": [36]})
    project = state.nations["France"].project("P001")
    assert "d100 36 against 36%: 1 Advance; 1/2" in lines(state, "France")
    assert (project.advances, project.gp, project.years) == (1, 0.0, 1.0)


def test_research_above_its_chance_makes_no_progress_and_100_sets_it_back(lm, state):
    state = resolve(lm, state, {"England": "research steam_cruiser 10gp"}, {"England/research/P001": [100]})
    assert "a setback of one Advance; 0/2" in lines(state, "England")


def test_advances_never_outrun_the_nfp_invested(lm, state):
    state = edit(lm, state, "France", "project[P001].advances =1")
    state = resolve(lm, state, {"France": "research airships 100gp"}, {"France/research/P001": [1]})
    assert "no roll: the next Advance needs more NFP (1 invested for 1); 1/2" in lines(state, "France")


def test_a_completed_project_gives_its_prototype_and_unlocks_its_units(lm, state):
    state = resolve(lm, state, {"England": "research steam_cruiser 10gp"}, {"England/research/P001": [1]})
    england = state.nations["England"]
    assert "R&D Steam Cruiser COMPLETE: a prototype CA stands at London (LotE 4.2)." in lines(state, "England")
    assert england.has_completed("steam_cruiser") and england.units_at("London")["ca"] == 1
    assert england.project("P001").nfp == 0
    state = publish(lm, state)
    (check,) = lm.check(state, "England", "build 1 ca at London")
    assert check.verdict is Verdict.ACCEPTED


def test_recruitment_rolls_1d6_minus_1_nfp_per_block(lm, state):
    state = resolve(lm, state, {"France": "recruit 2 for P001"}, {"France/recruit": [4, 6]})
    assert "Recruited 8 NFP for P001 with 50 GP" in lines(state, "France")
    assert state.nations["France"].project("P001").nfp == 9


def test_engineers_add_nfp_and_gold_to_construction(lm, state):
    state = edit(lm, state, "England", "army[Home Army].units +2s", "project[P050].kind =railroad",
                 "project[P050].name =Sussex-Wessex", "project[P050].location =Sussex", "project[P050].gp_cost =50",
                 "project[P050].nfp_cost =25")
    state = resolve(lm, state, {"England": 'engineers 2 from "Home Army" for P050'},
                    {"England/engineers/P050/nfp": [6, 1], "England/engineers/P050/gp": [10, 1]})
    project = state.nations["England"].project("P050")
    # d10 GP and d6 NFP (1-2 none, 3-4 one, 5-6 two) each, +1 to both for Siege QR 18 (rules/research.py)
    assert (project.nfp, project.gp) == (2, 12)
    assert state.nations["England"].army("Home Army").units["s"] == 2


def test_a_yard_takes_its_table_3_4_time(lm, state):
    state = turn(lm, state, {"England": "construct steamship-yard 2 at Portsmouth"})
    assert not state.nations["England"].city("Portsmouth").factories
    state = resolve(lm, state)
    assert "2 steamship points ready at Portsmouth" in lines(state, "England")
    assert state.nations["England"].city("Portsmouth").factories == {"steamship": 2}


def test_a_railroad_extends_the_homeland_build_zone(lm, state):
    state = edit(lm, state, "England", "nation.hbz_range =1")
    assert "Mercia" in accounts_hbz(state) and "Wales" not in accounts_hbz(state)     # Wales is 1.25 away
    state = turn(lm, state, {"England": "construct railroad Mercia to Wales"})
    assert state.nations["England"].railroads[-1].a == "Mercia"
    assert "Wales" in accounts_hbz(state)   # Sussex-Mercia-Wales by rail: two quarters (LotE 3.4.3)


def accounts_hbz(state):
    from engine.rulesets.lote_modern.accounts import hbz
    return hbz(state, state.nations["England"])


def test_colonists_settle_a_gpv_for_each_15_gp_and_15_nfp(lm, state):
    state = lm.act(state, GM, 'edit map region[Portugal].people =B "natives"', FixedDice()).state
    state = edit(lm, state, "Spain", "treasury.nfp =40")
    state = resolve(lm, state, {"Spain": "colonize Portugal 30gp 30nfp"})
    spain = state.nations["Spain"]
    assert "2 GPv of Portugal settled (2/2)" in lines(state, "Spain")
    assert spain.region("Portugal").status == "F" and state.world.regions["Portugal"].people == ""
    assert any(r.kind == "colony" for r in state.report.rulings)


def test_improving_a_region_raises_its_gpv(lm, state):
    state = resolve(lm, state, {"England": "improve Kent"})
    assert state.world.regions["Kent"].gpv == 3


def test_uwm_raises_the_tax_rate_by_a_tenth(lm, state):
    state = edit(lm, state, "England", "rd.completed +uwm")
    state = resolve(lm, state)
    assert "x tax rate 22.0%" in lines(state, "England")


# -- builds, reserves, trade, monopolies -----------------------------------------------------------------------------
def test_builds_join_the_army_at_their_city(lm, state):
    state = resolve(lm, state, {"Spain": "build 5 i at Madrid\nbuild 1 w at Cadiz"})
    spain = state.nations["Spain"]
    assert spain.units_at("Madrid") == {"i": 5} and spain.units_at("Cadiz") == {"w": 1}
    assert spain.gp == pytest.approx(180 - 2.8 - 15 - 4 + 10.6)


def test_reserves_pay_no_support_and_come_back_for_a_fee(lm, state):
    state = turn(lm, state, {"England": 'reserve 4 i from "Gibraltar Garrison"'})
    england = state.nations["England"]
    assert england.reserves == {"i": 4} and england.units_at("Gibraltar") == {"a": 1}
    state = resolve(lm, state, {"England": "activate 4 i at London"})
    assert state.nations["England"].units_at("London")["i"] == 4
    assert "Called up 4i at London (10 GP)." in lines(state, "England")


def test_opening_a_route_allocates_shipping_and_asks_for_its_income(lm, state):
    state = resolve(lm, state, {"England": "route Holland open from London to Amsterdam 5msp"})
    route = state.nations["England"].route("Holland")
    assert (route.base_port, route.target_port, route.msp, route.length) == ("London", "Amsterdam", 5, 1)
    assert any(r.kind == "trade" and "route[Holland].income" in r.text for r in state.report.rulings)


def test_a_revoked_monopoly_is_told_to_the_house(lm, state):
    state = resolve(lm, state, {"Spain": "revoke Hansa wool"})
    assert not state.monopolies
    assert "Spain revoked your granted wool monopoly" in lines(state, "Hansa")


def test_forces_of_two_nations_in_one_place_go_to_the_gm(lm, state):
    state = edit(lm, state, "France", "army[Armee du Nord].location =Sussex")
    state = resolve(lm, state)
    battle = next(r for r in state.report.rulings if r.kind == "battle")
    assert battle.parties == ["England", "France"] and "meet at Sussex" in battle.text


def test_the_rules_modules_campaign_options_take_effect(lm, start):
    state = start(**{"banking-profit-basis": "interest", "merchant-acquire-agent-ap": "3"})
    (check,) = lm.check(state, "Hansa", "action Hanssen AA Antwerp")
    assert "3 AP and 3 GP" in check.message                        # 7.4.1's 3 AP, not Table 7-2's 2
    state = turn(lm, state)
    state = resolve(lm, state)
    assert state.nations["England"].bank.investment == pytest.approx(24)    # all 40 GP of interest / 10


# -- end-of-turn oversight (LotE 6.1.1, 7.3.7) ------------------------------------------------------------------
def test_regions_beyond_the_command_control_radius_go_to_the_gm(lm, state):
    state = edit(lm, state, "England", "nation.bureaucratic_level =1")
    state = resolve(lm, state)
    (ccr,) = [r for r in state.report.rulings if r.kind == "ccr"]
    assert "England's CCR is 1 (BL 1) from Sussex" in ccr.text and "Ireland (3)" in ccr.text
    assert "Granada" not in ccr.text      # one point by the complete London-Gibraltar conduit (6.1.1)


def test_a_ruling_king_adds_his_administration(lm, state):
    state = edit(lm, state, "England", "nation.bureaucratic_level =1")
    state = resolve(lm, state, {"England": "action Victoria RULE London 3ap"})
    assert not [r for r in state.report.rulings if r.kind == "ccr"]        # 1 + Administration 6 reaches all


def test_house_sites_cut_off_from_the_control_web_degrade(lm, state):
    state = edit(lm, state, "Hansa", "nation.tech_level =2")               # Action Range 1 AP (7.3.7)
    state = resolve(lm, state)
    (web,) = [r for r in state.report.rulings if r.kind == "control web"]
    assert "Bergen mf → ma" in web.text and "London ma → gone" in web.text and "Hamburg" not in web.text

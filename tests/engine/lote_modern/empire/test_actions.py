"""LotE section 5: action capacities, the 24-impulse chart and the new action codes."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core.errors import RulesError
from engine.rulesets.lote_modern.rules import actions as a
from engine.rulesets.lote_modern.rules import actions_codes as x
from engine.rulesets.lote_modern.rules import export
from engine.rulesets.lote_modern.rules.actions import ActionOptions, NeedsRuling
from engine.rulesets.lote_modern.rules.actions_codes import MappingProgress

from .fixed_dice import FixedDice

# --- 5.1 capacities ----------------------------------------------------------------------------------------


def test_5_1_revised_action_capacities_example():
    # Drake (Combat 9) commands twelve elite heavy warships of a Renaissance nation with Navigation 2.
    fleet = a.unit_action_capacity("R", a.unit_profile("hew"), navigation=2, leader_combat=9)
    assert fleet == 10
    drake = a.leader_in_tandem(a.leader_action_capacity("R"), fleet)
    assert drake == 10


@pytest.mark.parametrize(("culture", "ship", "nav", "months"), [
    ("C", False, 3, 6), ("S", False, 0, 7), ("B", False, 0, 8), ("N", False, 0, 8), ("P", False, 0, 5),
    ("R", False, 3, 8), ("R", True, 3, 10), ("I1", True, 3, 11), ("I2", True, 1, 9)])
def test_5_1_table_5_1_months(culture, ship, nav, months):
    assert a.months_per_year(culture, ship=ship, navigation=nav) == months


def test_5_1_industrial_land_units_follow_the_campaign_option():
    assert a.months_per_year("I1") == 9
    assert a.months_per_year("I1", options=ActionOptions(industrial_land_months=8)) == 8


@pytest.mark.parametrize(("code", "capacity"), [
    ("i", 8), ("c", 9), ("hc", 8), ("lec", 11), ("ii", 7), ("a", 7), ("ha", 6), ("s", 8), ("tbl", 7), ("lii", 8)])
def test_5_1_renaissance_land_units(code, capacity):
    assert a.unit_action_capacity("R", a.unit_profile(code)) == capacity


def test_5_1_commanders_combat_rating_moves_the_units_not_himself():
    assert a.unit_action_capacity("R", a.unit_profile("i"), leader_combat=3) == 7
    assert a.unit_action_capacity("R", a.unit_profile("i"), leader_combat=11) == 9
    assert a.leader_action_capacity("R") == 10
    assert a.leader_action_capacity("C") == 8


def test_2_8_1_1_steamships_take_one_action_less():
    assert a.unit_action_capacity("I1", a.unit_profile("st"), navigation=2) == 9
    assert a.unit_action_capacity("I1", a.unit_profile("t"), navigation=2) == 10


def test_5_1_a_force_moves_at_its_slowest_unit():
    assert a.force_action_capacity([9, 7, 8]) == 7
    with pytest.raises(RulesError):
        a.force_action_capacity([])


def test_5_1_capacity_never_falls_below_one():
    profile = a.UnitProfile("x", "tribe", "heavy", "inexperienced")
    assert a.unit_action_capacity("P", profile, leader_combat=1) == 1


def test_unit_codes_from_the_build_charts():
    assert a.unit_profile("HEC") == a.UnitProfile("hec", "cavalry", "heavy", "elite")
    assert a.unit_profile("xii") == a.UnitProfile("xii", "infantry", "light", "inexperienced")
    assert a.unit_profile("dn").steam
    with pytest.raises(RulesError):
        a.unit_profile("qq")
    with pytest.raises(RulesError):
        a.unit_action_capacity("R", a.unit_profile("zs"))


# --- Table 8-4 ---------------------------------------------------------------------------------------------


def test_table_8_4_the_chart_gives_one_action_in_each_marked_month():
    chart = a.action_chart()
    for ap in range(1, 24):
        counts = a.actions_by_month(ap)
        assert tuple(n > 0 for n in counts) == chart[ap - 1], ap
        assert sum(counts) == ap


def test_table_8_4_past_twelve_ap_months_take_a_second_action_in_the_charts_order():
    assert a.MONTHS[a.month_order()[0]] == "July"
    assert a.actions_by_month(13) == (1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1)
    assert a.actions_by_month(24) == (2,) * 12
    assert a.acts_in_month(1, 7) == 1 and a.acts_in_month(1, 1) == 0


# --- 5.2 the new action codes ------------------------------------------------------------------------------


def test_5_2_the_new_codes_are_for_renaissance_nations_and_beyond():
    assert a.may_use_new_codes("R") and a.may_use_new_codes("I2")
    assert not a.may_use_new_codes("C")
    assert x.action_code("cir").cost.ap == 8


def test_5_2_1_retraining_units_example():
    done = x.retrain("ii", 10)
    assert (done.to_code, done.count_out, done.left_over) == ("i", 5, 0)
    assert x.check_retraining(culture="R", leader="national", code="ii", count=10, at_controlled_city=True,
                              city_besieged=False, in_homeland_build_zone=True) == []
    assert x.retraining_attacked(done) == ("ii", 10)


def test_5_2_1_retraining_rules():
    assert x.retrain("i", 11) == x.Retraining("i", "ei", 10, 5, 1)
    assert x.retraining_target("lic") == "lc"
    base = {"culture": "R", "code": "i", "count": 4, "at_controlled_city": True, "city_besieged": False}
    assert x.check_retraining(leader="mercenary", in_homeland_build_zone=True, **base) != []
    assert x.check_retraining(leader="national", in_homeland_build_zone=False, **base) != []
    assert x.check_retraining(leader="allied", in_allied_region=True, **base) == []
    assert x.check_retraining(leader="national", in_homeland_build_zone=True, **{**base, "city_besieged": True})
    assert x.check_retraining(leader="national", in_homeland_build_zone=True, **{**base, "code": "ei"})


def test_5_2_2_explore_gains_a_point_per_success_until_the_requirement():
    zone = MappingProgress("Gambian Sea", "Sea Zone", requirement=2)
    assert x.check_explore(culture="R", kind="Sea Zone", requirement=2) == []
    assert x.check_explore(culture="R", kind="Desert", requirement=16) != []
    zone = x.record_explore(x.record_explore(zone, True), False)
    assert (zone.points, zone.known) == (1, False)
    zone = x.record_explore(zone, True)
    assert zone.known
    ruling = x.explore_ruling(zone, leader="Drake", charisma=7, navigation=2, hostile=True, ships=6,
                              dice=FixedDice(64))
    assert ruling.roll.total == 64 and ruling.roll.purpose == "explore/Drake/Gambian Sea"


def test_5_2_2_the_leader_counts_as_a_ship_and_is_lost_last():
    assert x.explore_losses(["w1", "w2"], 2) == (("w1", "w2"), False)
    assert x.explore_losses(["w1", "w2"], 3) == (("w1", "w2"), True)
    assert x.explore_losses([], 1) == ((), True)


def test_5_2_3_nationalize_needs_the_king_and_an_acquired_monopoly():
    assert x.check_nationalize(culture="R", actor_is_king=True, monopoly_acquired=True) == []
    assert len(x.check_nationalize(culture="C", actor_is_king=False, monopoly_acquired=False)) == 3
    ruling = x.nationalize_ruling(nation="Judah", house="KEAC", diplomacy=5)
    assert "N%" in ruling.options[0]
    fixed = x.nationalize_ruling(nation="Judah", house="KEAC", diplomacy=5,
                                 options=ActionOptions(nationalize_tax_penalty_percent=10))
    assert fixed.options == ("success", "failure")


def test_5_2_4_colonize_inhabited_region():
    ok = {"culture": "R", "leader_title": "Prince", "region_culture": "Nomadic", "adjacent_to_controlled_land": False,
          "gp_carried": 30, "nfp_carried": 30}
    assert x.check_colonize_inhabited(**ok) == []
    assert x.check_colonize_inhabited(**{**ok, "leader_title": "Mercenary"}) != []
    assert x.check_colonize_inhabited(**{**ok, "region_culture": "Civilized"}) != []
    assert x.check_colonize_inhabited(**{**ok, "adjacent_to_controlled_land": True}) != []
    assert x.settle_inhabited(40, 30, unconverted_gpv=3) == (2, 10, 0)
    assert x.settle_inhabited(100, 100, unconverted_gpv=1) == (1, 85, 85)


def test_5_2_5_destroy_combine_location():
    assert x.check_destroy_combine_location(culture="R", leader="mercenary", troop_points=1) == []
    assert x.check_destroy_combine_location(culture="R", leader="national", troop_points=0) != []
    assert x.destroy_combine_location(location="Gozer", defended=False) is True
    fight = x.destroy_combine_location(location="Gozer", defended=True)
    assert isinstance(fight, NeedsRuling) and fight.roll is None


def test_rulings_round_trip_and_need_a_die_to_be_decided_by_chance():
    import json

    ruling = a.ask("LotE 7.4.1 Acquire Agent", "Does it work?", factors={"gold": 10.0, "hostile": False},
                   dice=FixedDice(50))
    assert NeedsRuling.load(json.loads(json.dumps(ruling.dump()))) == ruling
    assert dict(ruling.factors) == {"gold": "10", "hostile": "no"}
    with pytest.raises(RulesError, match="decides it directly"):
        a.ruled_success(a.ask("r", "q"), 50)


# --- any input works or fails with a message a player can read ----------------------------------------------

@given(st.text(max_size=6))
def test_any_unit_code_reads_or_fails_as_a_rules_error(text):
    try:
        profile = a.unit_profile(text)
    except RulesError:
        return
    assert profile.kind in ("cavalry", "infantry", "siege", "artillery", "tribe", "ship", "static", "other")


@given(st.text(max_size=10))
def test_any_export_entry_reads_or_fails_as_a_rules_error(text):
    try:
        count, code = export.parse_export(text)
    except RulesError:
        return
    assert count >= 0 and export.exportable(code)


@given(st.integers(min_value=0, max_value=60))
def test_the_chart_spreads_every_ap_across_the_year(ap):
    counts = a.actions_by_month(ap)
    assert sum(counts) == ap and max(counts) - min(counts) <= 1

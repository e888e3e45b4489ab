"""Colonies, improvements, city growth and co-builds (LotE Modern Era 3.3)."""

import pytest

from engine.core.errors import RulesError
from engine.rulesets.lote_modern.rules import cities
from engine.rulesets.lote_modern.rules.cities import CoBuilder
from engine.rulesets.lote_modern.rules.tech import Culture, Terrain

R, I1 = Culture.RENAISSANCE, Culture.INDUSTRIAL_ONE


def test_3_3_5_city_cobuilds_example():
    # Adding a GPv to a 1 GPv city with no prior status gives CI / CA / OE.
    assert cities.cobuild_status(1, CoBuilder.MERCHANT_HOUSE) == "CI"
    assert cities.cobuild_status(1, CoBuilder.PRIMACY) == "CA"
    assert cities.cobuild_status(1, CoBuilder.ORDER) == "OE"
    # Adding 1 GPv to a 9 GPv city holding a Church: level 1 + 1 = 2, an Abbey.
    assert cities.cobuild_status(9, CoBuilder.PRIMACY, "CH") == "AB"


def test_3_3_5_cobuild_status_stops_at_the_top_level():
    assert cities.cobuild_status(2, CoBuilder.MERCHANT_HOUSE, "MF") == "CI"
    assert cities.cobuild_status(3, CoBuilder.ORDER, "OH") == "OP"


def test_3_3_5_cobuild_caveats():
    ok = {"permission": True, "same_religion": True, "funds_delivered": True, "status_in_control_web": False,
          "host_building_this_turn": False, "within_action_range": True, "new_gpv": 10, "max_gpv": 15}
    assert cities.cobuild_problems(**ok) == []
    assert cities.cobuild_problems(**{**ok, "funds_delivered": False, "status_in_control_web": True}) == []
    assert len(cities.cobuild_problems(**{**ok, "funds_delivered": False})) == 1
    for key in ("permission", "same_religion", "within_action_range"):
        assert len(cities.cobuild_problems(**{**ok, key: False})) == 1
    assert len(cities.cobuild_problems(**{**ok, "host_building_this_turn": True})) == 1
    assert len(cities.cobuild_problems(**{**ok, "new_gpv": 16})) == 1


def test_3_3_1_colonising_inhabited_regions():
    assert cities.may_colonise_inhabited(R, Culture.NOMADIC)
    assert not cities.may_colonise_inhabited(R, Culture.CIVILIZED)
    assert not cities.may_colonise_inhabited(Culture.CIVILIZED, Culture.BARBARIAN)
    done = cities.colonise(45, 30, original_gpv=3)
    assert (done.converted, done.gp_left, done.nfp_left) == (2, 15, 0)
    assert cities.colonise(45, 45, original_gpv=3, converted_already=2).converted == 1
    assert cities.colonise(100, 100, original_gpv=3, converted_already=3).converted == 0
    assert cities.colonising_needs_leader(adjacent_to_controlled_land=False)
    assert not cities.colonising_needs_leader(adjacent_to_controlled_land=True)


def test_3_3_2_improving_conquered_pre_columbian_regions():
    step = cities.improve_pre_columbian_region(improver=R, gpv=2, original_gpv=2, cultivated=True)
    assert (step.gp, step.nfp, step.new_gpv) == (15, 15, 3)
    for bad in ({"gpv": 3, "original_gpv": 3}, {"gpv": 2, "original_gpv": 1}):
        with pytest.raises(RulesError):
            cities.improve_pre_columbian_region(improver=R, cultivated=True, **bad)
    with pytest.raises(RulesError):
        cities.improve_pre_columbian_region(improver=R, gpv=1, original_gpv=1, cultivated=True, formerly_jungle=True)
    with pytest.raises(RulesError):
        cities.improve_pre_columbian_region(improver=Culture.CIVILIZED, gpv=1, original_gpv=1, cultivated=True)
    assert cities.improve_pre_columbian_region(improver=R, gpv=2, original_gpv=1, cultivated=True,
                                               once=False).new_gpv == 3


def test_3_3_3_improving_cultivated_regions():
    one = cities.improve_cultivated_region(improver=I1, tech_level=12, terrain=Terrain.CULTIVATED,
                                           base_map_gpv=1, gpv=1)
    two = cities.improve_cultivated_region(improver=I1, tech_level=12, terrain=Terrain.CULTIVATED,
                                           base_map_gpv=2, gpv=2)
    assert (one.gp, one.nfp, one.new_gpv) == (15, 15, 2)
    assert (two.gp, two.nfp, two.new_gpv) == (20, 20, 3)
    bad = [{"base_map_gpv": 3, "gpv": 3}, {"base_map_gpv": 1, "gpv": 2}, {"terrain": Terrain.INTENSELY_CULTIVATED},
           {"tech_level": 11}, {"improver": R}]
    for change in bad:
        args = {"improver": I1, "tech_level": 12, "terrain": Terrain.CULTIVATED, "base_map_gpv": 1, "gpv": 1,
                **change}
        with pytest.raises(RulesError):
            cities.improve_cultivated_region(**args)
    assert cities.improve_cultivated_region(improver=I1, tech_level=12, terrain=Terrain.CULTIVATED,
                                            base_map_gpv=1, gpv=2, once=False).gp == 20


def test_3_3_4_urban_populations_oasis_reads_desert():
    assert cities.max_city_size(Terrain.OASIS, 12) == 6
    assert cities.max_city_size(Terrain.OASIS, 12, oasis_as=Terrain.WILDERNESS) == 10

"""Railroads (LotE Modern Era 3.4)."""

import pytest

from engine.core.errors import RulesError
from engine.rulesets.lote_modern.rules import railroads
from engine.rulesets.lote_modern.rules.tech import Culture, Terrain

I1 = Culture.INDUSTRIAL_ONE


def test_3_4_1_railroad_segment_cost():
    cost = railroads.railroad_segment_cost()
    assert (cost.gp, cost.nfp, cost.yard, cost.project_level) == (50, 25, 10, 1)
    double = railroads.railroad_segment_cost(2)
    assert (double.gp, double.nfp, double.yard) == (100, 50, 20)
    desert = railroads.railroad_segment_cost(terrain=Terrain.DESERT)
    assert (desert.gp, desert.nfp, desert.yard) == (75, 37.5, 10)
    assert railroads.railroad_segment_cost(terrain=Terrain.STEPPE).gp == 75
    assert railroads.railroad_segment_cost(terrain=Terrain.MOUNTAIN).gp == 50


def test_3_4_1_where_railroads_may_be_built():
    assert railroads.railroad_site_problems(culture=I1, tech_level=12, friendly_city_in_hbz=True) == []
    assert railroads.railroad_site_problems(culture=I1, tech_level=12, friendly_city_in_hbz=False,
                                            joined_to_rail_from_such_city=True) == []
    assert railroads.railroad_site_problems(culture=I1, tech_level=12, friendly_city_in_hbz=False) != []
    assert railroads.railroad_site_problems(culture=Culture.RENAISSANCE, tech_level=11,
                                            friendly_city_in_hbz=True) != []
    assert railroads.river_crossing_problems(river=True) != []
    assert railroads.river_crossing_problems(river=True, railroad_bridge=True) == []
    assert railroads.river_crossing_problems(river=False, ferry_point=True) != []


def test_3_4_2_rail_capacity_example():
    # Two levels carry 2 x 10 = 20 cargo one way in 1 AP, or 10 each way.
    assert railroads.rail_capacity(2) == 20
    assert railroads.rail_capacity(2, both_directions=True) == 10


def test_3_4_2_moving_units_by_rail_example():
    # The RSA Second Army, 160 cargo, on the double-track line: 160 / 20 = 8 AP.
    line = [2, 2, 2]
    assert railroads.rail_move_ap(160, line) == 8
    assert railroads.rail_move_ap(20, line) == 1
    assert railroads.rail_move_ap(21, line) == 2
    # A single-track stretch in the middle: unload, shuttle it, load up again.
    assert railroads.rail_move_ap(15, [2, 1, 2]) == 1 + 2 + 1
    with pytest.raises(RulesError):
        railroads.rail_move_ap(10, [])


def test_3_4_3_rail_communications_example():
    # A Danish HBZ of 4 reaches 4 x 4 = 16 AP along the railroad through Venice.
    assert railroads.rail_reach(4) == 16
    assert railroads.rail_trace_cost(2) == 0.5


def test_3_4_4_third_party_railroad_projects_example():
    # Norskrad must hold Cartel City status in Tehran or Ormuz and run a factory there before it may begin.
    assert railroads.third_party_railroad_problems(tech_level=12, start_city_makes_generic_yard=False) != []
    assert railroads.third_party_railroad_problems(tech_level=12, start_city_makes_generic_yard=True) == []
    assert railroads.third_party_railroad_problems(tech_level=11, start_city_makes_generic_yard=True) != []
    assert railroads.host_nfp_for_railroad(6) == 6


def test_rail_lines_join_provinces():
    assert railroads.rail_connected("A", "C", [("A", "B"), ("B", "C")])
    assert not railroads.rail_connected("A", "D", [("A", "B"), ("C", "D")])

"""Factories and yards (LotE Modern Era 3.6)."""

import pytest

from engine.core.errors import RulesError
from engine.rulesets.lote_modern.rules import industry
from engine.rulesets.lote_modern.rules.industry import FactoryKind
from engine.rulesets.lote_modern.rules.tech import Terrain


def test_3_6_3_maximum_factory_construction_example():
    # Sussex, a 3 GPv C province holding London (10 GPv): 3 factories in the country, 20 in the city.
    assert industry.max_factory_points(3, terrain=Terrain.CULTIVATED) == 3
    assert industry.max_factory_points(10, city=True) == 20


def test_3_6_2_finding_yard_capacities_on_the_stat_sheet():
    under_city = industry.parse_factory_line("Airship Factory (City) (5.0), Finished: Project No. 00138")
    in_projects = industry.parse_factory_line("00138 NAT Airship Factory (City) 5.0 Tenochtitlán Finished")
    assert (under_city.kind, under_city.city, under_city.capacity, under_city.project) == (
        FactoryKind.AIRSHIP, True, 5.0, "00138")
    assert (in_projects.kind, in_projects.capacity, in_projects.place, in_projects.finished) == (
        FactoryKind.AIRSHIP, 5.0, "Tenochtitlán", True)
    yard = industry.parse_factory_line("00141 NAT Steamship Yard (Region) 2.0 Sussex Building")
    assert (yard.kind, yard.city, yard.finished) == (FactoryKind.STEAMSHIP, False, False)
    with pytest.raises(RulesError):
        industry.parse_factory_line("Coal Mine (City) (5.0), Finished: Project No. 1")
    with pytest.raises(RulesError):
        industry.parse_factory_line("nonsense")


def test_3_6_3_building_factories_and_yards():
    def problems(kind, **kw):
        args = {"city": True, "gpv": 5, "tech_level": 12, "completed": {"airships", "steamships", "submersibles"}}
        return industry.factory_build_problems(kind, **{**args, **kw})

    assert problems(FactoryKind.AIRSHIP) == []
    assert problems(FactoryKind.AIRSHIP, completed=set()) != []
    assert problems(FactoryKind.STEAMSHIP, tech_level=11) != []
    assert problems(FactoryKind.SUBMARINE, coastal=False) != []
    assert problems(FactoryKind.AIRSHIP, existing_points=9, adding=2) != []
    assert problems(FactoryKind.AIRSHIP, city=False, terrain=Terrain.MOUNTAIN) != []
    assert problems(FactoryKind.AIRSHIP, city=False, terrain=Terrain.CULTIVATED, gpv=2, adding=2) == []
    assert problems(FactoryKind.MERCANTILE) != []
    assert problems(FactoryKind.MERCANTILE, merchant_house=True, cartel_city_or_better=True) == []
    assert problems(FactoryKind.STEAMSHIP, hidden=True, city=False, terrain=Terrain.CULTIVATED) != []
    assert problems(FactoryKind.AIRSHIP, tech_level=10) != []
    assert industry.FACTORY_PROJECTS[FactoryKind.SUBMARINE] == "submersibles"


def test_3_6_7_hidden_factories_cost_double_the_regional_price():
    assert industry.hidden_allowed(FactoryKind.SUBMARINE) and not industry.hidden_allowed(FactoryKind.STEAMSHIP)
    sub = industry.factory_cost(FactoryKind.SUBMARINE, city=False, hidden=True)
    assert (sub.gp, sub.nfp, sub.time) == (100.0, 16, 8)
    site = industry.factory_cost(FactoryKind.MERCANTILE, city=True, hidden=True)
    assert (site.gp, site.nfp, site.time) == (10.0, 2, 4)
    with pytest.raises(RulesError):
        industry.factory_cost(FactoryKind.MERCANTILE, city=False)


def test_3_6_4_moving_factories():
    move = industry.factory_move(3)
    assert (move.gp, move.nfp, move.cargo) == (30, 0, 30)
    assert industry.factory_move(3, pay_in_nfp=True).nfp == 6
    assert industry.factory_move_problems(FactoryKind.AIRSHIP, to_city=True, controlled=True, land_ap=4,
                                          hbz_range=4) == []
    assert industry.factory_move_problems(FactoryKind.STEAMSHIP, to_city=True, controlled=True) != []
    assert industry.factory_move_problems(FactoryKind.AIRSHIP, to_city=False, controlled=True) != []
    assert industry.factory_move_problems(FactoryKind.MERCANTILE, to_city=True, controlled=True, land_ap=9,
                                          hbz_range=4) != []
    assert industry.factory_move_problems(FactoryKind.MERCANTILE, to_city=True, controlled=True, land_ap=9,
                                          hbz_range=4, by_sea_with_leader=True) == []


def test_3_6_5_capturing_a_factory_or_yard():
    assert industry.factory_points_after_capture(5) == 3
    assert industry.factory_points_after_capture(4) == 2
    assert industry.factory_points_after_capture(5, surprise=True) == 5
    assert industry.captured_capacity_usable(within_hbz=True, friendly=True)
    assert not industry.captured_capacity_usable(within_hbz=True, friendly=False)
    assert industry.captured_capacity_usable(within_hbz=True, friendly=False, slave_economy=True)
    assert not industry.captured_capacity_usable(within_hbz=False, friendly=True, slave_economy=True)

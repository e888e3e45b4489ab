"""Garrisons, maximum status and public works (LotE Modern Era 2.4)."""

import pytest

from engine.core.errors import RulesError
from engine.rulesets.lote_modern.rules import regions
from engine.rulesets.lote_modern.rules.regions import Relation
from engine.rulesets.lote_modern.rules.tech import Culture, Terrain

R, I2 = Culture.RENAISSANCE, Culture.INDUSTRIAL_TWO


def test_2_4_1_modified_resistance_is_resistance_times_terrain_times_religion():
    # A Renaissance garrison in the desert: resistance 4 x 1.5 x religion 1.5 = 9.
    assert regions.modified_resistance(4, culture=R, terrain=Terrain.DESERT, religion_modifier=1.5) == 9
    assert regions.modified_resistance(4, culture=Culture.BARBARIAN, terrain=Terrain.CULTIVATED,
                                       religion_modifier=1) == 8


def test_2_4_1_cavalry_regions_take_infantry_at_twice_the_amount():
    need = regions.garrison_requirement(3, culture=R, terrain=Terrain.STEPPE, religion_modifier=1)
    assert need.cavalry and need.strength == 6
    assert regions.garrison_sufficient(need, cavalry=6, other=0)
    assert regions.garrison_sufficient(need, cavalry=2, other=8)
    assert not regions.garrison_sufficient(need, cavalry=0, other=11)
    assert regions.garrison_sufficient(need, cavalry=0, other=12)
    # Where no cavalry is in use yet, infantry counts in full.
    assert regions.garrison_sufficient(need, cavalry=0, other=6, cavalry_in_use=False)
    plain = regions.garrison_requirement(3, culture=R, terrain=Terrain.WILDERNESS, religion_modifier=1)
    assert not plain.cavalry and regions.garrison_sufficient(plain, cavalry=0, other=6)


def test_2_4_2_maximum_status_is_the_lower_of_religion_and_terrain():
    # RS 6, tolerant religion (EA) on cultivated land (Hm) for a Renaissance nation: EA.
    assert regions.maximum_status(6, Relation.TOLERANT, Terrain.CULTIVATED, R) == "EA"
    # Same religion (F) in the mountains (EA): EA.
    assert regions.maximum_status(1, Relation.SAME, Terrain.MOUNTAIN, I2) == "EA"
    # Same religion (F) on an island (Hm): F.
    assert regions.maximum_status(1, Relation.SAME, Terrain.ISLAND, R) == "F"
    # RS 10 hostile (P/PT) anywhere: P/PT.
    assert regions.maximum_status(10, Relation.HOSTILE, Terrain.CULTIVATED, R) == "P/PT"
    assert regions.max_status_by_religion(14, Relation.HOSTILE) == "P/PT"
    assert regions.max_status_by_religion(0, Relation.HOSTILE) == "A"


def test_status_ladder_orders_and_can_be_replaced():
    assert regions.status_at_least("F", "T") and not regions.status_at_least("NT", "T")
    assert regions.lower_status("FA", "A") == "A"
    custom = ("Hm", "F", "A", "FA", "EA", "T", "NT", "PT", "P")
    assert regions.lower_status("FA", "A", custom) == "FA"
    with pytest.raises(RulesError):
        regions.status_rank("Q")


def test_2_4_3_public_works_need_a_taxed_status_or_a_leader_with_the_funds():
    assert regions.may_build_public_works(status_yields_tax=True)
    assert not regions.may_build_public_works(status_yields_tax=False)
    assert regions.may_build_public_works(status_yields_tax=False, funds_delivered_by_leader=True)

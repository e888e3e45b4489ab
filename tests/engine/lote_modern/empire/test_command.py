"""LotE 6.1 ruling wide domains: the Command Control Radius and its tracing."""

import itertools

import pytest

from engine.rulesets.lote_modern.rules import command as c
from engine.rulesets.lote_modern.rules.command import CommandOptions, Conduit, Link, links_both_ways


def nisei_map():
    """The 6.1.1 example: Gosiute to Chippewa by Imperial Highway, conduits to the Shetlands, then by sea."""
    road = ["Gosiute", "Bohogue", "Lemhi", "Shoshone", "Crow", "Teton", "Okoboji", "Minnewaska", "Yankotnai",
            "Chippewa"]
    mountains = {"Lemhi": 2, "Crow": 2, "Okoboji": 1}     # two Type-2 ranges and one Type-1 range on the way
    links = [link for a, b in itertools.pairwise(road)
             for link in links_both_ways(a, b, 1 + mountains.get(b, 0), "road")]
    sea = [("Shetlands", "Viking Bank"), ("Viking Bank", "Skaggerak"), ("Skaggerak", "Norway"),
           ("Viking Bank", "Hordaland"), ("Hordaland", "Norway")]
    links += [link for a, b in sea for link in links_both_ways(a, b, 1, "sea")]
    conduits = [Conduit("Chippewa", "Sokoki", True), Conduit("Sokoki", "Naskapi", True),
                Conduit("Naskapi", "Shetlands", True)]
    return links, conduits


def test_6_1_1_tracing_the_ccr_example():
    ccr = c.command_control_radius(8, 4, king_ruling=True)
    assert ccr == 12
    links, conduits = nisei_map()
    bergen = Conduit("Shetlands", "Hordaland", c.anchor_qualifies(port_city=True, tributary_or_better=True,
                                                                    besieged_or_blockaded=True))
    costs = c.trace_ccr("Gosiute", links, conduits=[*conduits, bergen])
    assert costs["Chippewa"] == 7                # fourteen, halved by the road
    assert costs["Shetlands"] == 10              # three anchored conduits, one point each
    assert costs["Norway"] == 13                 # Viking Bank, the Skaggerak and Norway one by one
    assert c.out_of_control(costs, ["Chippewa", "Shetlands", "Norway"], ccr) == ["Norway"]


def test_6_1_1_an_anchored_bergen_would_have_kept_norway_in_control():
    links, conduits = nisei_map()
    costs = c.trace_ccr("Gosiute", links, conduits=[*conduits, Conduit("Shetlands", "Hordaland", True)])
    assert costs["Norway"] == 12
    assert c.out_of_control(costs, ["Norway"], 12) == []


def test_6_1_the_kings_administration_counts_while_he_rules():
    assert c.command_control_radius(8, 4, king_ruling=False) == 8
    assert c.command_control_radius(8, 4, king_ruling=False, options=CommandOptions(admin_only_when_ruling=False)) == 12


def test_6_1_1_traced_from_the_capital_or_else_the_king():
    assert c.ccr_origin("Gosiute", "Crow") == "Gosiute"
    assert c.ccr_origin(None, "Crow") == "Crow"


def test_table_6_1_unsettled_and_tsetse_regions_cost_one_more_each():
    links = [Link("Home", "Bush", 1), Link("Bush", "Veldt", 1)]
    costs = c.trace_ccr("Home", links, unsettled=["Bush"], tsetse=["Bush", "Veldt"])
    assert costs == {"Home": 0, "Bush": 3, "Veldt": 5}


def test_table_6_1_the_road_halves_the_whole_crossing_and_3_4_3_the_railroad_quarters_it():
    cost = c.ccr_costs(unsettled=["Waste"])
    assert cost(Link("A", "Waste", 3, "road")) == 2            # (3 + 1) halved
    assert cost(Link("A", "B", 3, "rail")) == 0.75
    assert cost(Link("A", "B", 9, "conduit")) == 1


def test_6_1_1_an_unreachable_region_is_out_of_control():
    costs = c.trace_ccr("Home", [Link("Home", "Near", 1)])
    assert c.out_of_control(costs, ["Near", "Island"], 5) == ["Island"]


def test_shortest_costs_respects_a_limit_and_takes_the_cheapest_way():
    links = [Link("A", "B", 5), Link("A", "C", 1), Link("C", "B", 1), Link("B", "D", 3)]
    assert c.shortest_costs("A", links) == {"A": 0, "B": 2, "C": 1, "D": 5}
    assert c.shortest_costs("A", links, limit=2) == {"A": 0, "B": 2, "C": 1}


@pytest.mark.parametrize(("port", "tributary", "besieged", "house_bo", "ok"), [
    (True, True, False, False, True), (False, True, False, False, False), (True, False, False, False, False),
    (True, True, True, False, False), (True, False, False, True, True)])
def test_6_1_1_conduit_anchors(port, tributary, besieged, house_bo, ok):
    assert c.anchor_qualifies(port_city=port, tributary_or_better=tributary, besieged_or_blockaded=besieged,
                              house_branch_office_or_better=house_bo) is ok

"""Sea ratings, merchant shipping and trade routes (LotE Modern Era 2.7-2.9), with the supplement's examples."""

import itertools

import pytest

from engine.core.errors import RulesError
from engine.rulesets.lote_modern.rules import trade
from engine.rulesets.lote_modern.rules.tech import Culture
from engine.rulesets.lote_modern.rules.trade import NationType, PortKind, SeaAccess, SeaMap

# The Atlantic of the examples in 2.8.2.1 and 2.8.3.1: a chain of zones from the Skaggerak to the
# Nambian Sea. Border arrows point north (from the southern zone into the northern one).
ATLANTIC_CHAIN = ["Skaggerak", "Viking Bank", "North Sea", "English Channel", "Bay of Biscay", "Sea of Portugal",
                  "Gates of Hercules", "Sea of Dogs", "Ifrigan Coast", "Gambian Sea", "Grand Bassam",
                  "Bight of Benin", "Kongo Sea", "Cape Fria", "Nambian Sea"]
ATLANTIC = SeaMap.build(
    itertools.pairwise(ATLANTIC_CHAIN),
    {"Oslo": ["Skaggerak"], "London": ["English Channel"], "Bordeaux": ["Bay of Biscay"],
     "Brest": ["Bay of Biscay"], "Gibraltar": ["Gates of Hercules"], "Sunderholm": ["Ifrigan Coast", "Gambian Sea"],
     "Teke": ["Bight of Benin"], "Ovambo": ["Cape Fria", "Nambian Sea"], "Walvis": ["Nambian Sea"]},
    arrows=[("Bight of Benin", "Grand Bassam"), ("Kongo Sea", "Bight of Benin"), ("Nambian Sea", "Cape Fria")],
    hostile=["Gambian Sea", "Nambian Sea"],
)
SWEDEN = SeaAccess(mapped=frozenset({"Gambian Sea"}))


def test_2_7_shared_port_basing_example():
    # A port shared by two nations (Tributary to each) splits its basing capacity 50/50.
    assert trade.msp_basing_limit(10) == 200
    assert trade.msp_basing_limit(10, share=0.5) == 100
    assert trade.may_base_msp("T") and trade.may_base_msp("F") and not trade.may_base_msp("NT")


def test_2_8_3_2_sharing_trade_conduit_cities_example():
    # Mandalam holds half of Akaba (3 GPv) as a Tributary: 1.5 x 20 = 30 MSP.
    assert trade.msp_basing_limit(3, share=0.5) == 30
    # Akaba, Tributary to both Syria and Mandalam, anchors conduits for each of them.
    assert trade.anchor_qualifies(NationType.OPEN_NATION, national_status="T")


def test_2_8_2_1_tracing_trade_ranges_example():
    south = ["Gambian Sea", "Grand Bassam", "Bight of Benin", "Kongo Sea", "Cape Fria"]
    # Until its pilots map the Gambian Sea, a nation cannot trace trade through it.
    assert trade.leg_cost(ATLANTIC, south) is None
    # Mapped, each arrowed border crossed southward counts as two sea zones: 1 + 1 + 2 + 2 + 1.
    assert trade.leg_cost(ATLANTIC, south, SWEDEN) == 7
    # Northward, with the arrows, every zone counts one, unless the campaign charges arrows both ways.
    north = list(reversed(south))
    assert trade.leg_cost(ATLANTIC, north, SWEDEN) == 5
    assert trade.leg_cost(ATLANTIC, north, SeaAccess(mapped=frozenset({"Gambian Sea"}), arrows_both_ways=True)) == 7


def test_2_8_2_1_blockades_and_sieges_stop_tracing():
    assert trade.trace_leg(ATLANTIC, "London", "Gibraltar", 4) is not None
    assert trade.trace_leg(ATLANTIC, "London", "Gibraltar", 4,
                           SeaAccess(blockaded=frozenset({"Sea of Portugal"}))) is None
    assert trade.trace_leg(ATLANTIC, "London", "Gibraltar", 4,
                           SeaAccess(closed_ports=frozenset({"Gibraltar"}))) is None
    assert trade.leg_cost(ATLANTIC, ["English Channel", "Sea of Portugal"]) is None  # not adjacent


def test_2_8_2_2_effective_msp_on_a_route():
    # eMSP = M x (R / L): 10 MSP, Trade Range 5, a 10-zone route.
    assert trade.effective_msp(10, 5, 10) == 5
    assert trade.effective_msp(12, 4, 3) == 16
    with pytest.raises(RulesError):
        trade.effective_msp(10, 5, 0)


def test_2_8_3_trade_conduit_example():
    # London to Gibraltar through the Channel, Biscay, Portugal and the Gates: 4 zones, one conduit at range 4.
    leg = trade.trace_leg(ATLANTIC, "London", "Gibraltar", 4)
    assert leg is not None and leg.cost == 4
    assert leg.zones == ("English Channel", "Bay of Biscay", "Sea of Portugal", "Gates of Hercules")
    assert trade.trace_leg(ATLANTIC, "London", "Gibraltar", 3) is None
    route = trade.trace_sea_route(ATLANTIC, origins=["London"], anchors=["Gibraltar"], target="Sunderholm",
                                  trade_range=4, conduit_limit=1)
    assert route is not None and route.anchors == ("London", "Gibraltar") and route.conduits == 1


def test_2_8_3_1_swedish_conduit_chain_example():
    # Range 5, Conduit Limit 3: Oslo -> Bordeaux -> Sunderholm -> Teke, then normal trade two zones on.
    route = trade.trace_sea_route(ATLANTIC, origins=["Oslo"], anchors=["Bordeaux", "Sunderholm", "Teke"],
                                  target="Ovambo", trade_range=5, conduit_limit=3, access=SWEDEN)
    assert route is not None
    assert route.anchors == ("Oslo", "Bordeaux", "Sunderholm", "Teke") and route.conduits == 3
    first, second, third, last = route.legs
    assert first.zones == ("Skaggerak", "Viking Bank", "North Sea", "English Channel", "Bay of Biscay")
    # Bordeaux borders the Bay of Biscay only: it starts the second conduit too.
    assert second.zones == ("Bay of Biscay", "Sea of Portugal", "Gates of Hercules", "Sea of Dogs", "Ifrigan Coast")
    # Sunderholm straddles two zones: the third conduit starts in the Gambian Sea; the Bight costs two.
    assert third.zones == ("Gambian Sea", "Grand Bassam", "Bight of Benin") and third.cost == 4
    assert last.zones == ("Bight of Benin", "Kongo Sea", "Cape Fria") and last.cost == 4
    # The Nambian Sea lies beyond another arrow: out of reach from Teke.
    assert trade.trace_sea_route(ATLANTIC, origins=["Oslo"], anchors=["Bordeaux", "Sunderholm", "Teke"],
                                 target="Walvis", trade_range=5, conduit_limit=3, access=SWEDEN) is None
    # With a Conduit Limit of 2 the chain stops short of Ovambo.
    assert trade.trace_sea_route(ATLANTIC, origins=["Oslo"], anchors=["Bordeaux", "Sunderholm", "Teke"],
                                 target="Ovambo", trade_range=5, conduit_limit=2, access=SWEDEN) is None


def test_2_8_3_1_single_sea_zone_anchor_example():
    # Ming China's Kadaram borders only the Mallaca Strait, which counts again as the next conduit's first zone.
    zones = ["Pearl Sea", "Champa Coast", "Gulf of Siam", "Mallaca Strait", "Andaman Sea", "Bay of Bengal",
             "Ceylon Sea", "Malabar Coast"]
    sea = SeaMap.build(itertools.pairwise(zones),
                       {"Canton": ["Pearl Sea"], "Kadaram": ["Mallaca Strait"], "Galle": ["Ceylon Sea"],
                        "Calicut": ["Malabar Coast"]})
    assert trade.trace_leg(sea, "Canton", "Kadaram", 4) is not None
    assert trade.trace_leg(sea, "Kadaram", "Galle", 4).zones == ("Mallaca Strait", "Andaman Sea", "Bay of Bengal",
                                                                  "Ceylon Sea")
    assert "Calicut" not in trade.reachable_ports(sea, "Kadaram", 4)
    assert trade.reachable_ports(sea, "Kadaram", 5)["Calicut"] == 5


NORTH_ATLANTIC = SeaMap.build(
    [("Lake Superior", "Lake Huron"), ("Lake Huron", "St Lawrence"), ("St Lawrence", "Grand Banks"),
     ("Grand Banks", "Labrador Sea"), ("Labrador Sea", "Denmark Strait"), ("Denmark Strait", "Iceland Sea"),
     ("Iceland Sea", "Faeroe Gap"), ("Faeroe Gap", "North Sea")],
    {"Thunder Bay": ["Lake Superior"], "Avalon": ["Grand Banks"], "Godthab": ["Labrador Sea", "Denmark Strait"],
     "Ukiuo-ye": ["Faeroe Gap"], "Hull": ["North Sea"]},
)


def test_2_8_3_3_opening_a_sea_trade_route_via_conduits_example():
    # The Nisei chain of anchors reaches England; England, with no conduits of its own, cannot reach back.
    nisei = trade.trace_sea_route(NORTH_ATLANTIC, origins=["Thunder Bay"], anchors=["Avalon", "Godthab", "Ukiuo-ye"],
                                  target="Hull", trade_range=4, conduit_limit=3)
    england = trade.trace_sea_route(NORTH_ATLANTIC, origins=["Hull"], anchors=[], target="Thunder Bay",
                                    trade_range=4, conduit_limit=3)
    assert nisei is not None and england is None
    share = trade.route_share(nisei is not None, england is not None)
    assert share.open and share.first_may_allocate and not share.second_may_allocate
    assert trade.may_open_route(can_trace=True, msp_allocated=1)
    assert not trade.may_open_route(can_trace=True, msp_allocated=0)
    assert not trade.may_open_route(can_trace=False, msp_allocated=5)


def test_2_8_3_4_closing_trade_conduits():
    anchors = ["Bordeaux", "Sunderholm", "Teke"]
    route = trade.trace_sea_route(ATLANTIC, origins=["Oslo"], anchors=anchors, target="Ovambo", trade_range=5,
                                  conduit_limit=3, access=SWEDEN)
    assert trade.lost_anchor_closes(route, {"Bordeaux"})
    assert not trade.lost_anchor_closes(route, {"Gibraltar"})
    # Bordeaux rebels: the route shuts unless another anchor carries it (Brest, also on the Bay of Biscay).
    assert trade.trace_sea_route(ATLANTIC, origins=["Oslo"], anchors=["Sunderholm", "Teke"], target="Ovambo",
                                 trade_range=5, conduit_limit=3, access=SWEDEN) is None
    again = trade.trace_sea_route(ATLANTIC, origins=["Oslo"], anchors=["Brest", "Sunderholm", "Teke"],
                                  target="Ovambo", trade_range=5, conduit_limit=3, access=SWEDEN)
    assert again is not None and again.anchors[1] == "Brest"
    # A blockaded anchor closes too.
    assert trade.trace_sea_route(ATLANTIC, origins=["Oslo"], anchors=anchors, target="Ovambo", trade_range=5,
                                 conduit_limit=3, access=SeaAccess(mapped=frozenset({"Gambian Sea"}),
                                                                   closed_ports=frozenset({"Teke"}))) is None
    # The partner keeps the route open with its own chain, but the nation that lost it may not allocate.
    share = trade.route_share(False, True)
    assert share.open and not share.first_may_allocate and share.second_may_allocate


def test_2_8_3_1_conduit_anchor_requirements():
    assert not trade.anchor_qualifies(NationType.OPEN_NATION, national_status="F", kind=PortKind.PORT_FORTRESS)
    assert not trade.anchor_qualifies(NationType.OPEN_NATION, national_status="F", kind=PortKind.PORT_AREA)
    assert not trade.anchor_qualifies(NationType.OPEN_NATION, national_status="F", besieged_or_blockaded=True)
    assert trade.anchor_qualifies(NationType.MERCHANT_HOUSE, own_status="ci")
    assert not trade.anchor_qualifies(NationType.MERCHANT_HOUSE, own_status="MF")
    assert trade.origin_qualifies(NationType.OPEN_NATION, linked_to_capital=True, national_status="Hm")
    assert not trade.origin_qualifies(NationType.OPEN_NATION, linked_to_capital=False, national_status="Hm")


def test_sea_maps_refuse_arrows_between_zones_that_do_not_touch():
    with pytest.raises(RulesError):
        SeaMap.build([("A", "B")], {"P": ["A"]}, arrows=[("A", "C")])
    with pytest.raises(RulesError):
        SeaMap.build([("A", "B")], {"P": []})
    with pytest.raises(RulesError):
        trade.trace_leg(ATLANTIC, "Atlantis", "London", 4)


def test_2_8_4_rail_trade_joins_capitals_by_railroad():
    links = [("Paris", "Lorraine"), ("Lorraine", "Rhineland"), ("Rhineland", "Berlin"), ("Vienna", "Bohemia")]
    assert trade.rail_trade_possible("Paris", "Berlin", links)
    assert not trade.rail_trade_possible("Paris", "Vienna", links)


def test_2_8_5_aerial_trade_range_conduits_and_msp():
    assert trade.aerial_trade_range(12, industrial=True) == 7
    assert trade.aerial_trade_range(11, industrial=False) == 5
    assert trade.aerial_trade_range(1, industrial=False) == 1
    assert trade.aerial_conduit_limit(5) == 2 and trade.aerial_conduit_limit(1) == 1
    assert trade.aerial_msp(4) == 4
    assert trade.aerial_trade_allowed(merchant_house=True, transport_airships_built=True, land_border_trade=False)
    assert not trade.aerial_trade_allowed(merchant_house=True, transport_airships_built=True, land_border_trade=True)
    assert not trade.aerial_trade_allowed(merchant_house=True, transport_airships_built=True,
                                          land_border_trade=False, cartel_trade=True)
    assert not trade.aerial_trade_allowed(merchant_house=False, transport_airships_built=True,
                                          land_border_trade=False)
    assert trade.aerial_anchor_qualifies("BO") and not trade.aerial_anchor_qualifies("MA")


def test_2_8_5_aerial_route_hops_through_branch_offices():
    places = {"Home": 0, "A": 6, "B": 12, "C": 18, "Capital": 24}

    def distance(a, b):
        return abs(places[a] - places[b])

    # Range 7 (TL 12, Industrial); Conduit Limit 5 gives 2 aerial conduits: Home -> A -> B, then the Capital is 12 off.
    assert trade.trace_aerial_route(home_office="Home", capital="Capital", anchors=["A", "B", "C"], distance=distance,
                                    tech_level=12, conduit_limit=5, industrial=True) is None
    # Conduit Limit 6 gives 3: Home -> A -> B -> C, the Capital 6 beyond.
    assert trade.trace_aerial_route(home_office="Home", capital="Capital", anchors=["A", "B", "C"], distance=distance,
                                    tech_level=12, conduit_limit=6, industrial=True) == ("Home", "A", "B", "C")


def test_2_9_hands_off_trade():
    assert trade.hands_off_trade_applies(NationType.OPEN_NATION)
    assert not trade.hands_off_trade_applies(NationType.MERCHANT_HOUSE)
    assert trade.hands_off_initial_msp(0.5, 30, 40) == 15
    assert trade.hands_off_initial_msp(0.5, 30, 10) == 10
    # Under capacity, with room at the port: NMV x FreeCap.
    assert trade.hands_off_msp_change(nmv=0.5, free_cap=10, port_free_capacity=20, can_provide=True) == 5
    assert trade.hands_off_msp_change(nmv=0.5, free_cap=10, port_free_capacity=3, can_provide=True) == 3
    assert trade.hands_off_msp_change(nmv=0.5, free_cap=10, port_free_capacity=20, can_provide=False) == 0
    # Over capacity on the route or at the port: the excess goes.
    assert trade.hands_off_msp_change(nmv=0.5, free_cap=-4, port_free_capacity=20, can_provide=True) == -4
    assert trade.hands_off_msp_change(nmv=0.5, free_cap=5, port_free_capacity=-2.5, can_provide=True) == -3
    removal = trade.hands_off_removal(10)
    assert (removal.heavy_transports, removal.gp, removal.msp_removed) == (2, 8, 8)
    assert trade.intervention_ap() == 6


def test_culture_without_table_2_11_row_keeps_medieval_range():
    assert trade.initial_trade_range(Culture.NOMADIC) == 3

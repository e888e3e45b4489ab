"""Property checks of sea-route tracing on random seas (LotE 2.8.2.1, 2.8.3): whatever is traced is legal."""

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.rulesets.lote_modern.rules import trade
from engine.rulesets.lote_modern.rules.trade import SeaAccess, SeaMap

ZONES = [f"z{i}" for i in range(8)]


@st.composite
def seas(draw):
    links = draw(st.sets(st.tuples(st.sampled_from(ZONES), st.sampled_from(ZONES)).filter(lambda p: p[0] < p[1]),
                         min_size=1, max_size=14))
    zones = sorted({z for link in links for z in link})
    ports = {f"p{i}": draw(st.sets(st.sampled_from(zones), min_size=1, max_size=2)) for i in range(5)}
    arrows = draw(st.sets(st.sampled_from(sorted(links)), max_size=4))
    arrows = {(b, a) if draw(st.booleans()) else (a, b) for a, b in arrows}
    hostile = draw(st.sets(st.sampled_from(zones), max_size=2))
    return SeaMap.build(links, ports, arrows=arrows, hostile=hostile)


@settings(max_examples=150, deadline=None)
@given(sea=seas(), trade_range=st.integers(0, 6), conduit_limit=st.integers(0, 3), data=st.data())
def test_traced_routes_respect_range_limit_and_access(sea, trade_range, conduit_limit, data):
    ports = sorted(sea.ports)
    origin = data.draw(st.sampled_from(ports))
    target = data.draw(st.sampled_from(ports))
    anchors = data.draw(st.sets(st.sampled_from(ports)))
    access = SeaAccess(mapped=frozenset(data.draw(st.sets(st.sampled_from(sorted(sea.neighbours))))),
                       arrows_both_ways=data.draw(st.booleans()))
    route = trade.trace_sea_route(sea, origins=[origin], anchors=anchors, target=target, trade_range=trade_range,
                                  conduit_limit=conduit_limit, access=access)
    if route is None:
        return
    assert route.anchors[0] == origin and route.conduits <= conduit_limit
    assert set(route.anchors[1:]) <= set(anchors)
    stops = [*route.anchors, target] if route.anchors[-1] != target else list(route.anchors)
    assert [leg.start for leg in route.legs] == stops[:-1] and [leg.end for leg in route.legs] == stops[1:]
    for leg in route.legs:
        assert leg.cost <= trade_range
        assert trade.leg_cost(sea, leg.zones, access) == leg.cost
        assert leg.zones[0] in sea.ports[leg.start] and leg.zones[-1] in sea.ports[leg.end]

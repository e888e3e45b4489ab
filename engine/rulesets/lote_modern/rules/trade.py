"""Sea ratings, merchant shipping and sea trade through conduits (LotE Modern Era 2.7, 2.8.1-2.8.3).

Offers: `SeaRating`/`sea_rating_maximum` (Table 2-10), `initial_trade_range` (Table 2-11), `NationType`,
`PortKind`, `anchor_qualifies`/`origin_qualifies` (Table 2-12), `msp_basing_limit`, `may_base_msp`,
`effective_msp`, `SeaMap`, `SeaAccess`, `Leg`, `leg_cost`, `trace_leg`, `reachable_ports`, `SeaRoute`,
`trace_sea_route`, `RouteShare`/`route_share`, `may_open_route`, `lost_anchor_closes`; rail trade
(`rail_trade_possible`, 2.8.4); aerial trade (`aerial_trade_range`, `aerial_conduit_limit`, `aerial_msp`,
`aerial_trade_allowed`, `aerial_anchor_qualifies`, `trace_aerial_route`, 2.8.5); hands-off trade
(`hands_off_trade_applies`, `hands_off_initial_msp`, `hands_off_msp_change`, `hands_off_removal`,
`intervention_ap`, 2.9).

Distances are counted in sea zones and Open Ocean / Inter-Island arrows (both are "zones" here): every zone
entered costs 1 point of Trade Range, or 2 when entered against a sea-zone border arrow.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from engine.core.errors import RulesError
from engine.rulesets.lote_modern.rules.military import unit
from engine.rulesets.lote_modern.rules.railroads import rail_connected
from engine.rulesets.lote_modern.rules.regions import STATUS_LADDER, status_at_least
from engine.rulesets.lote_modern.rules.tech import Culture, Number, chart, exact


class SeaRating(StrEnum):
    """The three sea ratings of 2.8."""

    NAVIGATION = "navigation"
    TRADE_RANGE = "trade_range"
    CONDUIT_LIMIT = "conduit_limit"


def sea_rating_maximum(rating: SeaRating, tech_level: int) -> int:
    """The cap a Tech Level puts on a sea rating, halves rounded down (LotE 2.8, Table 2-10)."""
    printed = str(chart("s2_sea_ratings")["maximum"][rating.value]).replace(" ", "")
    if printed.startswith("TechLevel/"):
        return max(0, tech_level // int(printed.split("/")[1]))
    if printed.startswith("TechLevel-"):
        return max(0, tech_level - int(printed.split("-")[1]))
    raise RulesError(f"Table 2-10: cannot read `{printed}`")  # pragma: no cover - the chart is fixed


def initial_trade_range(previous_culture: Culture) -> int:
    """The Trade Range on becoming Renaissance: by the culture left behind, else the medieval 3 (LotE 2.8.2)."""
    table = chart("s2_sea_ratings")["initial_trade_range"]
    return int(table.get(previous_culture.value, chart("s2_rules")["trade_range"]["medieval_base"]))


class NationType(StrEnum):
    """The kinds of nation whose anchors Table 2-12 distinguishes."""

    OPEN_NATION = "open_nation"
    RELIGIOUS_PRIMACY = "religious_primacy"
    MERCHANT_HOUSE = "merchant_combine"
    RELIGIOUS_ORDER = "religious_order"
    SECRET_EMPIRE = "secret_empire"


class PortKind(StrEnum):
    PORT_CITY = "port_city"
    PORT_FORTRESS = "port_fortress"
    PORT_AREA = "port_area"


# The nation type's own statuses that Table 2-12 accepts besides Tributary: Holy City (HC), Order Fortress
# (OF), and for a Merchant House a Branch Office or better (7.2 adds Cartel City, Home Office and Colony).
OWN_ANCHOR_STATUSES: Mapping[NationType, frozenset[str]] = {
    NationType.OPEN_NATION: frozenset(),
    NationType.SECRET_EMPIRE: frozenset(),
    NationType.RELIGIOUS_PRIMACY: frozenset({"HC"}),
    NationType.MERCHANT_HOUSE: frozenset({"BO", "CI", "HO", "CL"}),
    NationType.RELIGIOUS_ORDER: frozenset({"OF"}),
}


def anchor_qualifies(nation_type: NationType, *, national_status: str | None = None, own_status: str | None = None,
                     kind: PortKind = PortKind.PORT_CITY, besieged_or_blockaded: bool = False,
                     ladder: Sequence[str] = STATUS_LADDER) -> bool:
    """Whether a port city can anchor a conduit for this nation (LotE 2.8.3.1, Table 2-12, 2.8.2.1).

    `national_status` is a control status (Tributary or better qualifies); `own_status` a Holy City, Order
    Fortress or Merchant House status. Port Fortresses, Port Areas and besieged or blockaded cities never do.
    """
    if kind is not PortKind.PORT_CITY or besieged_or_blockaded:
        return False
    if own_status is not None and own_status.upper() in OWN_ANCHOR_STATUSES[nation_type]:
        return True
    minimum = chart("s2_rules")["msp_basing"]["minimum_status"]
    return national_status is not None and status_at_least(national_status, minimum, ladder)


def origin_qualifies(nation_type: NationType, *, linked_to_capital: bool, national_status: str | None = None,
                     own_status: str | None = None, kind: PortKind = PortKind.PORT_CITY,
                     besieged_or_blockaded: bool = False, ladder: Sequence[str] = STATUS_LADDER) -> bool:
    """An origination port: a qualifying anchor joined to the Capital or Homeland by controlled land (2.8.3.1)."""
    return linked_to_capital and anchor_qualifies(nation_type, national_status=national_status, own_status=own_status,
                                                  kind=kind, besieged_or_blockaded=besieged_or_blockaded,
                                                  ladder=ladder)


def msp_basing_limit(city_gpv: Number, *, share: Number = 1, status_multiple: Number = 1) -> float:
    """MSP a nation may base at a port: 20 x city GPv x its tax share (LotE 2.7, 2.8.3.2).

    `share` is the nation's part of the city (0.5 when two nations hold it as Tributary); `status_multiple` is
    any further tax multiple the campaign applies (the supplement's example uses none).
    """
    per_gpv = chart("s2_rules")["msp_basing"]["per_gpv"]
    return float(per_gpv * exact(city_gpv) * exact(share) * exact(status_multiple))


def may_base_msp(status: str, ladder: Sequence[str] = STATUS_LADDER) -> bool:
    """Only port cities held at Tributary or better base merchant shipping (LotE 2.7)."""
    return status_at_least(status, chart("s2_rules")["msp_basing"]["minimum_status"], ladder)


def effective_msp(msp: Number, trade_range: int, route_length: int) -> float:
    """Effective MSP on a sea route: M x (R / L), L in sea zones (LotE 2.8.2.2)."""
    if route_length < 1:
        raise RulesError("a sea trade route is at least one sea zone long")
    return float(exact(msp) * trade_range / route_length)


@dataclass(frozen=True, slots=True)
class SeaMap:
    """The sea: zones (sea zones and ocean arrows) and their links, border arrows, hostile zones, ports.

    An arrow ``(a, b)`` is a border arrow pointing from zone a into zone b: tracing from b into a goes
    against it. `ports` maps each port city to the zones it borders (two when it straddles them).
    """

    neighbours: Mapping[str, frozenset[str]]
    ports: Mapping[str, frozenset[str]]
    arrows: frozenset[tuple[str, str]] = frozenset()
    hostile: frozenset[str] = frozenset()

    @classmethod
    def build(cls, links: Iterable[tuple[str, str]], ports: Mapping[str, Iterable[str]], *,
              arrows: Iterable[tuple[str, str]] = (), hostile: Iterable[str] = ()) -> SeaMap:
        """A map from undirected zone links and the zones each port borders."""
        neighbours: dict[str, set[str]] = {}
        for a, b in links:
            neighbours.setdefault(a, set()).add(b)
            neighbours.setdefault(b, set()).add(a)
        port_zones = {port: frozenset(zones) for port, zones in ports.items()}
        for port, zones in port_zones.items():
            for zone in zones:
                neighbours.setdefault(zone, set())
            if not zones:
                raise RulesError(f"port `{port}` borders no sea zone")
        arrow_set = frozenset(arrows)
        for a, b in arrow_set:
            if b not in neighbours.get(a, ()):
                raise RulesError(f"border arrow {a} -> {b}: the zones do not touch")
        return cls({z: frozenset(n) for z, n in neighbours.items()}, port_zones, arrow_set, frozenset(hostile))


@dataclass(frozen=True, slots=True)
class SeaAccess:
    """What one nation may trace through (LotE 2.8.2.1).

    Hostile zones need mapping; unknown zones and blockaded zones are closed; so are ports under siege or
    blockade. `arrows_both_ways` charges the arrow cost in either direction (a campaign option).
    """

    mapped: frozenset[str] = frozenset()
    unknown: frozenset[str] = frozenset()
    blockaded: frozenset[str] = frozenset()
    closed_ports: frozenset[str] = frozenset()
    arrows_both_ways: bool = False

    def passable(self, sea: SeaMap, zone: str) -> bool:
        if zone in self.unknown or zone in self.blockaded:
            return False
        return zone not in sea.hostile or zone in self.mapped

    def entry_cost(self, sea: SeaMap, came_from: str, zone: str) -> int:
        against = (zone, came_from) in sea.arrows or (self.arrows_both_ways and (came_from, zone) in sea.arrows)
        return int(chart("s2_rules")["trade_range"]["arrow_cost"]) if against else 1


OPEN_SEA = SeaAccess()


@dataclass(frozen=True, slots=True)
class Leg:
    """One stretch of a route between two ports, and the Trade Range it uses."""

    start: str
    end: str
    zones: tuple[str, ...]
    cost: int


def _ports_zones(sea: SeaMap, port: str) -> frozenset[str]:
    zones = sea.ports.get(port)
    if zones is None:
        raise RulesError(f"`{port}` is not a port on this map")
    return zones


def leg_cost(sea: SeaMap, zones: Sequence[str], access: SeaAccess = OPEN_SEA) -> int | None:
    """The Trade Range a given path of zones uses, or None if it cannot be traced (LotE 2.8.2.1)."""
    if not zones:
        return None
    cost = 0
    previous: str | None = None
    for zone in zones:
        if zone not in sea.neighbours or not access.passable(sea, zone):
            return None
        if previous is None:
            cost += 1
        elif zone not in sea.neighbours[previous]:
            return None
        else:
            cost += access.entry_cost(sea, previous, zone)
        previous = zone
    return cost


def _distances(sea: SeaMap, port: str, limit: int, access: SeaAccess) -> dict[str, tuple[int, str | None]]:
    """Cheapest cost to enter each zone from a port (and the zone before it), up to `limit`."""
    best: dict[str, tuple[int, str | None]] = {}
    queue: list[tuple[int, str, str | None]] = []
    if port in access.closed_ports:
        return best
    for zone in sorted(_ports_zones(sea, port)):
        if access.passable(sea, zone):
            heapq.heappush(queue, (1, zone, None))
    while queue:
        cost, zone, previous = heapq.heappop(queue)
        if cost > limit or zone in best:
            continue
        best[zone] = (cost, previous)
        for nxt in sorted(sea.neighbours[zone]):
            if nxt not in best and access.passable(sea, nxt):
                heapq.heappush(queue, (cost + access.entry_cost(sea, zone, nxt), nxt, zone))
    return best


def _path(best: Mapping[str, tuple[int, str | None]], zone: str) -> tuple[str, ...]:
    path = [zone]
    while (previous := best[path[-1]][1]) is not None:
        path.append(previous)
    return tuple(reversed(path))


def _best_leg(sea: SeaMap, start: str, end: str, best: Mapping[str, tuple[int, str | None]],
              access: SeaAccess) -> Leg | None:
    if end in access.closed_ports:
        return None
    reached = [(best[z][0], z) for z in _ports_zones(sea, end) if z in best]
    if not reached:
        return None
    cost, zone = min(reached)
    return Leg(start, end, _path(best, zone), cost)


def trace_leg(sea: SeaMap, start: str, end: str, trade_range: int, access: SeaAccess = OPEN_SEA) -> Leg | None:
    """The cheapest traceable leg between two ports within a Trade Range, or None (LotE 2.8.2.1, 2.8.3)."""
    return _best_leg(sea, start, end, _distances(sea, start, trade_range, access), access)


def reachable_ports(sea: SeaMap, start: str, trade_range: int, access: SeaAccess = OPEN_SEA) -> dict[str, int]:
    """Every other port within a Trade Range of a port, with the range it takes (LotE 2.8.2.1)."""
    best = _distances(sea, start, trade_range, access)
    out: dict[str, int] = {}
    for port in sea.ports:
        if port != start and (leg := _best_leg(sea, start, port, best, access)) is not None:
            out[port] = leg.cost
    return out


@dataclass(frozen=True, slots=True)
class SeaRoute:
    """A traced Sea Trade Route: its anchors from the origination port, and its legs (conduits, then the last)."""

    anchors: tuple[str, ...]
    legs: tuple[Leg, ...] = field(default=())

    @property
    def conduits(self) -> int:
        return len(self.anchors) - 1

    @property
    def conduit_legs(self) -> tuple[Leg, ...]:
        return self.legs[: self.conduits]


def trace_sea_route(sea: SeaMap, *, origins: Collection[str], anchors: Collection[str], target: str,
                    trade_range: int, conduit_limit: int, access: SeaAccess = OPEN_SEA) -> SeaRoute | None:
    """A Sea Trade Route from an origination port to a target port through own conduits (LotE 2.8.3).

    Each conduit joins two of the nation's anchors within its Trade Range; at most `conduit_limit` of them,
    then one last leg within the Trade Range to the target's port (2.8.3.1). Fewest conduits win.
    """
    if trade_range < 1:
        return None
    usable = {a for a in anchors if a not in access.closed_ports}
    frontier = sorted(o for o in origins if o not in access.closed_ports)
    came_from: dict[str, tuple[str, Leg] | None] = dict.fromkeys(frontier)
    for depth in range(conduit_limit + 1):
        following: list[str] = []
        for anchor in frontier:
            best = _distances(sea, anchor, trade_range, access)
            last = Leg(anchor, anchor, (), 0) if anchor == target else _best_leg(sea, anchor, target, best, access)
            if last is not None:
                return _route(came_from, anchor, last)
            if depth == conduit_limit:
                continue
            for nxt in sorted(usable - came_from.keys()):
                leg = _best_leg(sea, anchor, nxt, best, access)
                if leg is not None:
                    came_from[nxt] = (anchor, leg)
                    following.append(nxt)
        frontier = following
    return None


def _route(came_from: Mapping[str, tuple[str, Leg] | None], anchor: str, last: Leg) -> SeaRoute:
    chain = [anchor]
    legs = [last] if last.zones else []
    while (step := came_from[chain[-1]]) is not None:
        previous, leg = step
        legs.append(leg)
        chain.append(previous)
    return SeaRoute(tuple(reversed(chain)), tuple(reversed(legs)))


@dataclass(frozen=True, slots=True)
class RouteShare:
    """Whether a route between two nations stays open, and which of them may put shipping on it."""

    open: bool
    first_may_allocate: bool
    second_may_allocate: bool


def route_share(first_can_trace: bool, second_can_trace: bool) -> RouteShare:
    """Only a nation that can trace the route through its own conduits allocates MSP to it (2.8.3.3, 2.8.3.4)."""
    return RouteShare(first_can_trace or second_can_trace, first_can_trace, second_can_trace)


def may_open_route(*, can_trace: bool, msp_allocated: int) -> bool:
    """Opening a route takes at least one MSP that can sail the opener's own conduits (LotE 2.8.3.3)."""
    return can_trace and msp_allocated >= 1


def lost_anchor_closes(route: SeaRoute, lost: Collection[str]) -> bool:
    """Whether losing these anchor cities closes a conduit of the route (LotE 2.8.3.4).

    The route itself shuts only if `trace_sea_route` finds no other way without those anchors.
    """
    return any(anchor in lost for anchor in route.anchors)


def rail_trade_possible(capital: str, partner_capital: str, rail_links: Iterable[tuple[str, str]]) -> bool:
    """Two nations trade by rail when a railroad joins their Capitals (LotE 2.8.4)."""
    return rail_connected(capital, partner_capital, rail_links)


def aerial_trade_range(tech_level: int, *, industrial: bool) -> int:
    """Aerial Trade Range: Tech Level / 2 rounded down, at least 1, +1 for Industrial houses (LotE 2.8.5)."""
    rules = chart("s2_rules")["aerial_trade"]
    reach = max(int(rules["range_minimum"]), tech_level // int(rules["range_divisor"]))
    return reach + (int(rules["industrial_bonus"]) if industrial else 0)


def aerial_conduit_limit(conduit_limit: int) -> int:
    """Conduits on an aerial route: half the house's Conduit Limit rounded down, at least 1 (LotE 2.8.5)."""
    rules = chart("s2_rules")["aerial_trade"]
    return max(int(rules["conduit_minimum"]), conduit_limit // int(rules["conduit_divisor"]))


def aerial_msp(transport_airships: int) -> int:
    """Aerial MSP from converting Transport Airships (ZT), one per cargo point (LotE 2.8.5)."""
    carries = unit("ZT", Culture.INDUSTRIAL_ONE).carries or 0
    return transport_airships * carries * int(chart("s2_rules")["aerial_trade"]["msp_per_cargo"])


def aerial_trade_allowed(*, merchant_house: bool, transport_airships_built: bool, land_border_trade: bool,
                         cartel_trade: bool = False) -> bool:
    """Aerial trade: Merchant Houses with Transport Airships, not beside land trade nor as cartel trade (2.8.5)."""
    return merchant_house and transport_airships_built and not land_border_trade and not cartel_trade


def aerial_anchor_qualifies(own_status: str) -> bool:
    """An aerial conduit anchor needs a Branch Office or better (LotE 2.8.5)."""
    return own_status.upper() in OWN_ANCHOR_STATUSES[NationType.MERCHANT_HOUSE]


def trace_aerial_route(*, home_office: str, capital: str, anchors: Collection[str],
                       distance: Callable[[str, str], int | None], tech_level: int, conduit_limit: int,
                       industrial: bool) -> tuple[str, ...] | None:
    """An aerial route from the Home Office to a partner's Capital: its anchor cities (LotE 2.8.5).

    Each hop, anchor to anchor and the last to the Capital, is within the Aerial Trade Range; at most the
    aerial conduit limit of hops between anchors. `distance` is the map's measure (None: no way).
    """
    reach = aerial_trade_range(tech_level, industrial=industrial)
    limit = aerial_conduit_limit(conduit_limit)

    def near(a: str, b: str) -> bool:
        d = distance(a, b)
        return d is not None and d <= reach

    came_from: dict[str, str | None] = {home_office: None}
    frontier = [home_office]
    for depth in range(limit + 1):
        following: list[str] = []
        for anchor in frontier:
            if near(anchor, capital):
                chain = [anchor]
                while (previous := came_from[chain[-1]]) is not None:
                    chain.append(previous)
                return tuple(reversed(chain))
            if depth == limit:
                continue
            for nxt in sorted(set(anchors) - came_from.keys()):
                if near(anchor, nxt):
                    came_from[nxt] = anchor
                    following.append(nxt)
        frontier = following
    return None


def hands_off_trade_applies(nation_type: NationType) -> bool:
    """Hands-off trade (optional) runs every nation's shipping but a Merchant House's (LotE 2.9)."""
    return nation_type is not NationType.MERCHANT_HOUSE


def hands_off_initial_msp(nmv: Number, route_trade_value: Number, port_free_capacity: Number) -> int:
    """MSP a new hands-off route starts with: NMV x its trade value, within the port's room (LotE 2.9).

    The text names the inputs but not the formula; this is the GM reading recorded in sections-2-4.md.
    """
    wanted = exact(nmv) * exact(route_trade_value)
    return max(0, int(min(wanted, exact(port_free_capacity))))


def hands_off_msp_change(*, nmv: Number, free_cap: Number, port_free_capacity: Number, can_provide: bool) -> int:
    """This turn's change of a nation's MSP on a hands-off route (LotE 2.9).

    Routes it can open, under capacity and based at a port with room, gain NMV x FreeCap (never more than
    the room there is); over capacity, on the route or at the port, the excess is removed (the caller keeps
    the result within the MSP the nation has on the route).
    """
    free, room = exact(free_cap), exact(port_free_capacity)
    if free < 0 or room < 0:
        return math.floor(min(free, room))
    if not can_provide or room == 0:
        return 0
    return int(min(exact(nmv) * free, free, room))


@dataclass(frozen=True, slots=True)
class MspRemoval:
    """MSP taken off a hands-off route: Heavy Transports made and the GP it costs."""

    heavy_transports: int
    gp: int
    msp_removed: int


def hands_off_removal(msp: int) -> MspRemoval:
    """Removing MSP from a hands-off route: 4 GP per 4 MSP, each making one HT unit (LotE 2.9)."""
    rules = chart("s2_rules")["hands_off_trade"]
    units = msp // int(rules["removal_msp"])
    return MspRemoval(units, units * int(rules["removal_gp"]), units * int(rules["removal_msp"]))


def intervention_ap() -> int:
    """AP the ruler spends to "Intervene in Mercantile Affairs" and move hands-off MSP by hand (LotE 2.9)."""
    return int(chart("s2_rules")["hands_off_trade"]["intervene_ap"])

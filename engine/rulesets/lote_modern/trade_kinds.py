"""A Merchant House's other trade routes: aerial trade from its Home Office (LotE 2.8.5) and overland trade along
Royal Roads and railroads to a landlocked capital (7.1.5). Sea routes are trade_orders.py's.

Roads are on the map and railroads on their builders' sheets; both are public works anyone can see, so a
House's check may follow another nation's railroad. Along a road a region costs half an AP, along a
railroad a quarter (Table 6-1, 3.4.3); an aerial hop counts the regions and sea zones crossed.
"""

from __future__ import annotations

import itertools
import math

from engine.core.orders import Verdict
from engine.rulesets.lote_modern import reach, statuses
from engine.rulesets.lote_modern.context import Ctx, Outcome, Refused, refuse_if
from engine.rulesets.lote_modern.orders import RouteOrder
from engine.rulesets.lote_modern.rules import command, mercantile, trade
from engine.rulesets.lote_modern.sheet import Nation, TradeRoute
from engine.rulesets.lote_modern.shipping import check_basing, port, take_msp, trace_route
from engine.rulesets.lote_modern.state import GameState
from engine.rulesets.lote_modern.text import number


def open_route(ctx: Ctx, o: RouteOrder, existing: TradeRoute | None) -> Outcome:
    n = ctx.n
    if not n.is_house:
        raise Refused(f"{o.kind} trade is a Merchant House's (LotE {'2.8.5' if o.kind == 'aerial' else '7.1.5'}); a "
                      "nation trades by sea or with its land neighbours")
    partner = ctx.state.find_nation(o.partner)
    if partner is None or partner is n:
        raise Refused(f"`{o.partner}` is not another nation of this campaign")
    if not partner.capital or partner.capital not in ctx.world.cities:
        raise Refused(f"{partner.name} has no capital city to trade with")
    office = next((c.city for c in n.cities if c.status == "ho"), None)
    if office is None:
        raise Refused("a House trades from its Home Office, and yours is not on your sheet")
    if o.msp < 1:
        raise Refused("opening a route takes at least 1 MSP (LotE 2.8.3.3)")
    if o.kind == "aerial":
        return _aerial(ctx, o, partner, office, existing)
    return _overland(ctx, o, partner, office, existing)


def _house_status(n: Nation, city: str) -> str | None:
    holding = n.city(city)
    return holding.status if holding is not None and statuses.is_merchant(holding.status) else None


def _add(ctx: Ctx, existing: TradeRoute | None, route: TradeRoute) -> None:
    if existing is not None:
        ctx.n.routes.remove(existing)
    ctx.n.routes.append(route)


# -- aerial trade (2.8.5) --------------------------------------------------------------------------------------
def _aerial(ctx: Ctx, o: RouteOrder, partner: Nation, office: str, existing: TradeRoute | None) -> Outcome:
    n, world = ctx.n, ctx.world
    land = n.route(partner.name, kind="land")
    if not trade.aerial_trade_allowed(merchant_house=True, transport_airships_built=n.aerial_msp > 0,
                                      land_border_trade=land is not None and land.open):
        raise Refused("you carry land trade with them: no aerial trade besides (LotE 2.8.5)" if land and land.open
                      else "aerial MSP come only from Transport Airships (`msp 1 zt from <army>`) (LotE 2.8.5)")
    capital = partner.capital
    anchors = [c.city for c in n.cities if statuses.is_merchant(c.status) and trade.aerial_anchor_qualifies(c.status)]
    chain = trade.trace_aerial_route(home_office=office, capital=capital, anchors=anchors,
                                     distance=lambda a, b: reach.air_steps(world, a, b), tech_level=n.tech_level,
                                     conduit_limit=n.conduit_limit, industrial=n.industrial)
    span = trade.aerial_trade_range(n.tech_level, industrial=n.industrial)
    if chain is None:
        raise Refused(f"{capital} is beyond your aerial reach: hops of at most {span} from {office} through Branch "
                      f"Offices or better, at most {trade.aerial_conduit_limit(n.conduit_limit)} of them (LotE 2.8.5)")
    stops = [*chain, capital]
    length = sum(reach.air_steps(world, a, b) or 0 for a, b in itertools.pairwise(stops))
    take_msp(ctx, o.msp, steam=False, aerial=True)
    if ctx.apply:
        _add(ctx, existing, TradeRoute(partner.name, "aerial", office, capital, o.msp, max(1, length), list(chain)))
        ctx.report(f"Aerial trade with {partner.name} opened: {' - '.join(stops)}, {o.msp} aerial MSP.")
        ctx.ruling("trade", f"{n.name} opened aerial trade with {partner.name} ({' - '.join(stops)}, {o.msp} aMSP, "
                            f"{length} hops): assess its income (`edit {n.name} route[{partner.name}:aerial].income "
                            "=<GP>`) (LotE 2.8.5).")
    return Outcome(Verdict.ACCEPTED, f"aerial trade with {partner.name}: {' - '.join(stops)} (range {span}), "
                                     f"{o.msp} aerial MSP; the GM assesses its income (LotE 2.8.5)")


# -- overland trade (7.1.5) ------------------------------------------------------------------------------------
def road_and_rail(state: GameState) -> list[command.Link]:
    """Every Royal Road (half an AP) and railroad (a quarter) of the map and of any nation."""
    links = reach.road_links(state.world)
    links += [link for m in state.nations.values() for seg in m.railroads if seg.levels > 0
              for link in command.links_both_ways(seg.a, seg.b, 1.0, "rail")]
    return links


def _step(links: list[command.Link], a: str, b: str) -> float | None:
    costs = [command.ccr_costs()(link) for link in links if (link.a, link.b) == (a, b)]
    return min(costs) if costs else None


def _overland(ctx: Ctx, o: RouteOrder, partner: Nation, office: str, existing: TradeRoute | None) -> Outcome:
    n, world, state = ctx.n, ctx.world, ctx.state
    start = port(ctx, o.port)
    home = world.cities[start].region
    target = world.cities[partner.capital].region
    links = road_and_rail(state)
    if o.via:
        path = []
        for name in o.via:
            key = world.canonical(name)
            if key is None or key not in world.regions:
                raise Refused(f"`{name}` is not a region on the map")
            path.append(key)
        if path[0] != home:
            path.insert(0, home)
    else:
        path = _shortest(links, home, target)
    steps = [_step(links, a, b) for a, b in itertools.pairwise(path)]
    contiguous = bool(path) and path[-1] == target and all(s is not None for s in steps)
    land_ap = sum(s for s in steps if s is not None)
    sea_zones, sea_ok = 0, start == office
    if start != office:
        traced = trace_route(ctx, office, start)
        sea_ok = traced is not None
        sea_zones = sum(len(leg.zones) for leg in traced.legs) if traced is not None else 0
    along = [c.name for r in path for c in world.cities_in(r) if c.name != partner.capital]
    route = mercantile.OverlandRoute(land_ap, sea_zones, contiguous, start == office, sea_ok,
                                     _house_status(n, partner.capital), tuple(_house_status(n, c) for c in along),
                                     (True,))
    refuse_if(mercantile.check_overland_route(route, trade_range=n.trade_range), "LotE 7.1.5")
    take_msp(ctx, o.msp, steam=False)
    check_basing(ctx, start, o.msp)
    length = math.ceil(mercantile.overland_route_length(route))
    crossed = path[:-1]
    if ctx.apply:
        _add(ctx, existing, TradeRoute(partner.name, "overland", start, partner.capital, o.msp, length, list(path)))
        holders = sorted({m.name for m in state.nations.values() if m is not n and m is not partner
                          and any(h.region in crossed for h in m.regions)})
        ctx.report(f"Overland trade with {partner.name} opened: {start} by road and rail to {partner.capital}, "
                   f"{o.msp} MSP ({length} zones' length).")
        ctx.ruling("trade", f"{n.name} opened overland trade with {partner.name}: {start} by road and rail through "
                            f"{'; '.join(path)} to {partner.capital} ({number(land_ap)} AP by land, {sea_zones} sea "
                            f"zones to the Home Office; length {length}), {o.msp} MSP. Every nation the road crosses "
                            f"must permit it: {', '.join(holders) or 'none of the players; the natives'}. If one "
                            f"refused, `edit {n.name} route[{partner.name}:overland] =none`; else assess its income "
                            f"(`edit {n.name} route[{partner.name}:overland].income =<GP>`) (LotE 7.1.5).",
                   parties=[n.name, *holders])
    return Outcome(Verdict.FLAGGED, f"overland trade with {partner.name}: {start} through {'; '.join(path)} to "
                                    f"{partner.capital}, {number(land_ap)} of at most {number(n.trade_range / 2)} AP "
                                    f"by land and {sea_zones} sea zones to your Home Office (length {length}), "
                                    f"{o.msp} MSP; every nation the road crosses must permit it: the GM confirms "
                                    "(LotE 7.1.5)")


def _shortest(links: list[command.Link], start: str, target: str) -> list[str]:
    """The cheapest road-and-rail path from one region to another (empty when there is none)."""
    costs = command.shortest_costs(start, links, command.ccr_costs())
    if target not in costs:
        return [start]
    path = [target]
    while path[-1] != start:
        here = path[-1]
        back = min((link for link in links if link.b == here and link.a in costs
                    and abs(costs[link.a] + command.ccr_costs()(link) - costs[here]) < 1e-9),
                   key=lambda link: costs[link.a])
        path.append(back.a)
    return path[::-1]

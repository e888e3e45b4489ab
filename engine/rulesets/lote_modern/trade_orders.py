"""Order handlers for trade: conduits, routes, merchant shipping, monopolies (LotE 2.7-2.8, 7.1.1)."""

from __future__ import annotations

from engine.core.errors import RulesError
from engine.core.orders import Verdict
from engine.rulesets.lote_modern import accounts, statuses
from engine.rulesets.lote_modern.orderform import Ctx, Outcome, Refused, find_army, handles
from engine.rulesets.lote_modern.orders import (
    ConduitOrder,
    MonopolyOrder,
    RouteOrder,
    ShipsToMsp,
)
from engine.rulesets.lote_modern.rules import (
    merchant,
    military,
    trade,
)
from engine.rulesets.lote_modern.sheet import Conduit, TradeRoute, fold
from engine.rulesets.lote_modern.state import Monopoly
from engine.rulesets.lote_modern.text import number

OK = Verdict.ACCEPTED


# -- trade ----------------------------------------------------------------------------------------------
def _port(ctx: Ctx, name: str) -> str:
    key = ctx.world.canonical(name)
    if key is None or key not in ctx.world.cities or not ctx.world.cities[key].port:
        raise Refused(f"`{name}` is not a port city on the map")
    return str(key)


@handles(ConduitOrder)
def conduit(ctx: Ctx, o: ConduitOrder) -> Outcome:
    n, world = ctx.n, ctx.world
    a, b = _port(ctx, o.a), _port(ctx, o.b)
    existing = n.conduit(a, b)
    if o.drop:
        if existing is None:
            raise Refused(f"{n.name} has no conduit {a}-{b}")
        if ctx.apply:
            n.conduits.remove(existing)
            ctx.report(f"Conduit {a}-{b} given up.")
        return Outcome(OK, f"conduit {a}-{b} given up")
    if existing is not None:
        raise Refused(f"the conduit {a}-{b} is already yours")
    for city in (a, b):
        if not accounts.anchor_ok(ctx.state, n, city):
            raise Refused(f"{city} cannot anchor a conduit for you: a port city held at Tributary or better (a House: "
                          "Branch Office or better) (Table 2-12)")
    sea, access = accounts.sea_map(world), accounts.sea_access(ctx.state, n)
    if o.zones:
        zones = []
        for z in o.zones:
            key = world.canonical(z)
            if key is None or key not in world.zones:
                raise Refused(f"`{z}` is not a sea zone on the map")
            zones.append(key)
        if not set(world.cities[a].zones) & {zones[0]} or zones[-1] not in world.cities[b].zones:
            raise Refused(f"the zones must start at a zone {a} touches and end at one {b} touches")
        cost = trade.leg_cost(sea, zones, access)
        if cost is None:
            raise Refused("those zones do not join up, or cross unknown, unmapped hostile or blockaded waters "
                          "(LotE 2.8.2.1)")
        leg = trade.Leg(a, b, tuple(zones), cost)
    else:
        found = trade.trace_leg(sea, a, b, n.trade_range, access)
        if found is None:
            raise Refused(f"no known waters join {a} and {b} within your Trade Range of {n.trade_range} (LotE 2.8.3)")
        leg = found
    if leg.cost > n.trade_range:
        raise Refused(f"{a}-{b} takes {leg.cost} points of Trade Range; yours is {n.trade_range} (LotE 2.8.3)")
    if ctx.apply:
        n.conduits.append(Conduit(a, b, list(leg.zones)))
        ctx.report(f"Conduit {a}-{b} established via {'; '.join(leg.zones)} ({leg.cost}).")
    return Outcome(OK, f"conduit {a}-{b} via {'; '.join(leg.zones)}: {leg.cost} of your Trade Range {n.trade_range}")


def trace_route(ctx: Ctx, base: str, target: str) -> trade.SeaRoute | None:
    n = ctx.n
    anchors = {c for conduit in n.conduits for c in (conduit.a, conduit.b)} & accounts.anchors(ctx.state, n)
    return trade.trace_sea_route(accounts.sea_map(ctx.world), origins=[base], anchors=anchors | {base},
                                 target=target, trade_range=n.trade_range, conduit_limit=n.conduit_limit,
                                 access=accounts.sea_access(ctx.state, n))


def check_basing(ctx: Ctx, port: str, extra: int, *, leaving: str = "") -> None:
    n = ctx.n
    holding = n.city(port)
    if holding is None or not statuses.get(holding.status).base:
        raise Refused(f"{port} cannot base your merchant shipping (LotE 2.7, Table 7-1)")
    limit = accounts.basing_limit(ctx.state, n, port)
    based = accounts.msp_based(ctx.state, n, port, leaving=leaving)
    if based + extra > limit + 1e-9:
        raise Refused(f"{port} bases at most {number(limit)} of your MSP (20 x GPv x status, LotE 2.7); "
                      f"{based} are based there")


@handles(RouteOrder)
def route(ctx: Ctx, o: RouteOrder) -> Outcome:
    n = ctx.n
    existing = n.route(o.partner)
    if o.change == "open":
        if existing is not None and existing.open:
            raise Refused(f"a route with {existing.partner} is already open")
        base, target = _port(ctx, o.port), _port(ctx, o.target)
        if n.city(base) is None:
            raise Refused(f"{base} is not yours")
        if o.msp < 1:
            raise Refused("opening a route takes at least 1 MSP (LotE 2.8.3.3)")
        if o.msp > ctx.budget.msp:
            raise Refused(f"{ctx.budget.msp} MSP are free to allocate; this takes {o.msp}")
        check_basing(ctx, base, o.msp)
        traced = trace_route(ctx, base, target)
        if traced is None:
            raise Refused(f"you cannot trace {base} to {target} through your own conduits (at most "
                          f"{n.conduit_limit}) and a last stretch within your Trade Range {n.trade_range} "
                          "(LotE 2.8.3.3)")
        ctx.budget.msp -= o.msp
        partner = ctx.state.find_nation(o.partner)
        name = partner.name if partner else o.partner
        length = max(1, sum(len(leg.zones) for leg in traced.legs))
        if ctx.apply:
            if existing is not None:
                n.routes.remove(existing)
            n.routes.append(TradeRoute(name, "sea", base, target, o.msp, length,
                                       [f"{a}-{b}" for a, b in zip(traced.anchors, traced.anchors[1:], strict=False)]))
            ctx.report(f"Trade route to {name} opened from {base} to {target} with {o.msp} MSP ({length} zones).")
            ctx.ruling("trade", f"{n.name} opened a sea route to {name} ({base} to {target}, {o.msp} MSP, "
                                f"{length} zones, {traced.conduits} conduits): assess its income "
                                f"(`edit {n.name} route[{name}].income =<GP>`).")
        emsp = trade.effective_msp(o.msp, n.trade_range, length)
        return Outcome(OK, f"route to {name}: {base} to {target}, {traced.conduits} conduit(s), {length} zones, "
                           f"{o.msp} MSP ({number(emsp)} effective, LotE 2.8.2.2); the GM assesses its income")
    if existing is None or not existing.open:
        raise Refused(f"{n.name} has no open trade route with `{o.partner}`")
    if o.change == "close":
        ctx.budget.msp += existing.msp
        if ctx.apply:
            existing.open = False
            ctx.report(f"Trade route with {existing.partner} closed; {existing.msp} MSP return to port.")
            existing.msp = 0
        return Outcome(OK, f"the route with {existing.partner} closes; its {existing.msp} MSP return")
    if o.change == "msp":
        if existing.kind != "sea":
            raise Refused(f"the route with {existing.partner} is {existing.kind} trade, carried without MSP")
        if existing.msp + o.msp < 1:
            raise Refused("a route keeps at least 1 MSP; close it instead")
        if o.msp > ctx.budget.msp:
            raise Refused(f"{ctx.budget.msp} MSP are free to allocate")
        if o.msp > 0:
            check_basing(ctx, existing.base_port, o.msp)
        ctx.budget.msp -= o.msp
        if ctx.apply:
            existing.msp += o.msp
            ctx.report(f"Route with {existing.partner}: {o.msp:+d} MSP (now {existing.msp}).")
        return Outcome(OK, f"{o.msp:+d} MSP on the route with {existing.partner}")
    base = _port(ctx, o.port)
    if n.city(base) is None:
        raise Refused(f"{base} is not yours")
    check_basing(ctx, base, existing.msp, leaving=existing.partner)
    if trace_route(ctx, base, existing.target_port or base) is None and existing.target_port:
        raise Refused(f"you cannot trace the route from {base} through your own conduits (LotE 2.8.3.3)")
    if ctx.apply:
        existing.base_port = base
        ctx.report(f"Route with {existing.partner} now based at {base}.")
    return Outcome(OK, f"the route with {existing.partner} is based at {base}")


@handles(ShipsToMsp)
def ships_to_msp(ctx: Ctx, o: ShipsToMsp) -> Outcome:
    n = ctx.n
    try:
        unit = military.unit(o.code, accounts.culture(n))
    except RulesError as exc:
        raise Refused(str(exc)) from None
    if unit.carries is None or unit.combat is None or "Transport" not in unit.name:
        raise Refused(f"{unit.name} is not a transport: only transports become merchant shipping")
    if unit.code == "ZT":
        raise Refused("transport airships become aerial MSP, which the GM keeps (LotE 2.8.5)")
    name = find_army(n, o.army)
    army = n.army(name)
    assert army is not None
    holding = n.city(army.location) if ctx.world.is_city(army.location) else None
    if holding is None or not statuses.get(holding.status).base:
        raise Refused(f"{name} must be in a port that bases your shipping to convert transports")
    ctx.take_units(name, o.code, o.count)
    msp = unit.carries * o.count
    ctx.budget.msp += msp
    if ctx.apply:
        n.msp += msp
        ctx.report(f"{o.count}{o.code} of {name} became {msp} MSP.")
    return Outcome(OK, f"{o.count}{o.code} become {msp} MSP (one per cargo point)")


@handles(MonopolyOrder)
def monopoly(ctx: Ctx, o: MonopolyOrder) -> Outcome:
    n, state = ctx.n, ctx.state
    house = state.find_nation(o.house)
    if house is None or not house.is_house:
        raise Refused(f"`{o.house}` is not a Merchant House of this campaign")
    mine = [m for m in state.monopolies if m.house == house.name and m.nation == n.name]
    if o.verb == "revoke":
        match = next((m for m in mine if fold(m.good) == fold(o.good)), None)
        if match is None:
            raise Refused(f"{house.name} holds no `{o.good}` monopoly in {n.name}")
        if match.kind != "granted":
            raise Refused("an acquired monopoly is removed only by the King's Nationalize Monopoly (NM) action "
                          "(LotE 7.1.1, 5.2.3)")
        if ctx.apply:
            state.monopolies.remove(match)
            ctx.report(f"The {match.good} monopoly granted to {house.name} is revoked.")
            ctx.tell(house.name, f"{n.name} revoked your granted {match.good} monopoly (LotE 7.1.1).")
        return Outcome(OK, f"the {match.good} monopoly returns to {n.name}'s economy (LotE 7.1.1)")
    value = max(0, int(accounts.trade_value(state, n)))
    held = sum(1 for m in state.monopolies if m.nation == n.name)
    left = merchant.monopolies_available(value + held, held)
    if left <= 0:
        raise Refused(f"{n.name}'s economy holds {merchant.monopoly_limit(value + held)} monopolies at most, and "
                      f"{held} are held (square root of its Trade Value, LotE 7.1.1)")
    if any(fold(m.good) == fold(o.good) for m in mine):
        raise Refused(f"{house.name} already holds the {o.good} monopoly")
    if ctx.apply:
        state.monopolies.append(Monopoly(state.take_id(), house.name, n.name, o.good, "granted"))
        ctx.report(f"{house.name} granted the {o.good} monopoly: one Trade Value point passes to it.")
        ctx.tell(house.name, f"{n.name} granted you its {o.good} monopoly: +1 Trade Value, +0.01 NMV (LotE 7.1.1).")
    return Outcome(OK, f"{house.name} takes the {o.good} monopoly: one of {n.name}'s Trade Value points and +0.01 "
                       "to its NMV (LotE 7.1.1)")

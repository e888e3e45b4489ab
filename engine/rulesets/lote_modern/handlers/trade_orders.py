"""Order handlers for trade: conduits, routes, merchant shipping, monopolies (LotE 2.7-2.8, 7.1.1)."""

from __future__ import annotations

from engine.core.orders import Verdict
from engine.rulesets.lote_modern import accounts, hands_off, statuses, trade_kinds
from engine.rulesets.lote_modern.context import Ctx, Outcome, Refused, find_army, nation_named, place_named
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
from engine.rulesets.lote_modern.sheet import Conduit, Nation, TradeRoute, fold
from engine.rulesets.lote_modern.shipping import check_basing, port, take_msp, trace_route
from engine.rulesets.lote_modern.state import Monopoly
from engine.rulesets.lote_modern.text import number

OK = Verdict.ACCEPTED


# -- trade ----------------------------------------------------------------------------------------------
def conduit(ctx: Ctx, o: ConduitOrder) -> Outcome:
    n, world = ctx.n, ctx.world
    a, b = port(ctx, o.a), port(ctx, o.b)
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
            zones.append(place_named(ctx, z, ("zone",)))
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


def steam_gaps_problem(n: Nation, traced: trade.SeaRoute) -> str:
    """Why Steam Transport MSP cannot serve this route: an anchor-to-anchor stretch beyond the operating range
    (LotE 3.2.1.2.3; a sea zone entered is one AP)."""
    gaps = [len(leg.zones) for leg in traced.legs]
    if military.steam_transports_fit_route(gaps, n.tech_level):
        return ""
    reach = military.steamship_operating_range(n.tech_level)
    return (f"steam MSP need every stretch between anchors within your steamships' operating range of {reach} AP "
            f"(Tech Level - 10); this route's stretches are {', '.join(str(g) for g in gaps)} (LotE 3.2.1.2.3)")


def route(ctx: Ctx, o: RouteOrder) -> Outcome:
    n = ctx.n
    existing = n.route(o.partner, kind=o.kind)
    if o.change == "open":
        if existing is not None and existing.open:
            raise Refused(f"a route with {existing.label} is already open")
        if o.kind != "sea":
            return trade_kinds.open_route(ctx, o, existing)
        return _open_sea(ctx, o, existing)
    if existing is None or not existing.open:
        kind = f"{o.kind} " if o.kind != "sea" else ""
        raise Refused(f"{n.name} has no open {kind}trade route with `{o.partner}`")
    if o.change == "close":
        if existing.kind == "aerial":
            ctx.budget.aerial += existing.msp
        else:
            ctx.budget.msp += existing.msp
            ctx.budget.steam += existing.steam
        if ctx.apply:
            existing.open = False
            ctx.report(f"Trade route with {existing.label} closed; {existing.msp} MSP return to port.")
            existing.msp = existing.steam = 0
        return Outcome(OK, f"the route with {existing.label} closes; its {existing.msp} MSP return")
    if o.change == "msp":
        return _change_msp(ctx, o, existing)
    base = port(ctx, o.port)
    if n.city(base) is None:
        raise Refused(f"{base} is not yours")
    check_basing(ctx, base, existing.msp, leaving=existing.partner)
    traced = trace_route(ctx, base, existing.target_port or base) if existing.target_port else None
    if existing.target_port and traced is None:
        raise Refused(f"you cannot trace the route from {base} through your own conduits (LotE 2.8.3.3)")
    if existing.steam and traced is not None and (problem := steam_gaps_problem(n, traced)):
        raise Refused(problem)
    if ctx.apply:
        existing.base_port = base
        ctx.report(f"Route with {existing.partner} now based at {base}.")
    return Outcome(OK, f"the route with {existing.partner} is based at {base}")


def _open_sea(ctx: Ctx, o: RouteOrder, existing: TradeRoute | None) -> Outcome:
    n = ctx.n
    base, target = port(ctx, o.port), port(ctx, o.target)
    if n.city(base) is None:
        raise Refused(f"{base} is not yours")
    traced = trace_route(ctx, base, target)
    if traced is None:
        raise Refused(f"you cannot trace {base} to {target} through your own conduits (at most "
                      f"{n.conduit_limit}) and a last stretch within your Trade Range {n.trade_range} "
                      "(LotE 2.8.3.3)")
    length = max(1, sum(len(leg.zones) for leg in traced.legs))
    partner = ctx.state.find_nation(o.partner)
    name = partner.name if partner else o.partner
    msp = o.msp
    if hands_off.applies(ctx.state, n):
        msp = hands_off.opening_msp(ctx, o, base, partner, length)
    elif o.msp < 1:
        raise Refused("opening a route takes at least 1 MSP (LotE 2.8.3.3)")
    if o.steam and (problem := steam_gaps_problem(n, traced)):
        raise Refused(problem)
    if not hands_off.applies(ctx.state, n):   # hands-off MSP come from the market, not the nation's free MSP
        take_msp(ctx, msp, steam=o.steam)
    check_basing(ctx, base, msp)
    if ctx.apply:
        if existing is not None:
            n.routes.remove(existing)
        if hands_off.applies(ctx.state, n):
            n.msp += msp
        n.routes.append(TradeRoute(name, "sea", base, target, msp, length,
                                   [f"{a}-{b}" for a, b in zip(traced.anchors, traced.anchors[1:], strict=False)],
                                   steam=msp if o.steam else 0))
        ctx.report(f"Trade route to {name} opened from {base} to {target} with {msp} MSP ({length} zones).")
        ctx.ruling("trade", f"{n.name} opened a sea route to {name} ({base} to {target}, {msp} MSP, "
                            f"{length} zones, {traced.conduits} conduits): assess its income "
                            f"(`edit {n.name} route[{name}].income =<GP>`).")
    shown = "MSP by hands-off trade (LotE 2.9)" if hands_off.applies(ctx.state, n) else \
        f"{msp} {'steam ' if o.steam else ''}MSP ({number(trade.effective_msp(msp, n.trade_range, length))} " \
        "effective, LotE 2.8.2.2)"
    return Outcome(OK, f"route to {name}: {base} to {target}, {traced.conduits} conduit(s), {length} zones, "
                       f"{shown}; the GM assesses its income")


def _change_msp(ctx: Ctx, o: RouteOrder, existing: TradeRoute) -> Outcome:
    n = ctx.n
    if existing.kind in ("land", "rail"):
        raise Refused(f"the route with {existing.partner} is {existing.kind} trade, carried without MSP")
    hands_off.check_by_hand(ctx, o)
    if existing.msp + o.msp < 1 and not hands_off.applies(ctx.state, n):
        raise Refused("a route keeps at least 1 MSP; close it instead")
    aerial = existing.kind == "aerial"
    if o.msp > 0:
        if o.steam and existing.target_port:
            traced = trace_route(ctx, existing.base_port, existing.target_port)
            if traced is not None and (problem := steam_gaps_problem(n, traced)):
                raise Refused(problem)
        take_msp(ctx, o.msp, steam=o.steam, aerial=aerial)
        if not aerial:
            check_basing(ctx, existing.base_port, o.msp)
    else:
        part = existing.steam if o.steam else existing.msp - existing.steam
        if -o.msp > part:
            raise Refused(f"the route with {existing.label} has {part} {'steam ' if o.steam else ''}MSP")
        if aerial:
            ctx.budget.aerial -= o.msp
        else:
            ctx.budget.msp -= o.msp
            ctx.budget.steam -= o.msp if o.steam else 0
    removal = hands_off.removal(ctx, o) if o.msp < 0 else ""
    if ctx.apply:
        existing.msp += o.msp
        existing.steam += o.msp if o.steam else 0
        ctx.report(f"Route with {existing.label}: {o.msp:+d} {'steam ' if o.steam else ''}MSP (now {existing.msp}).")
    return Outcome(OK, f"{o.msp:+d} {'steam ' if o.steam else ''}MSP on the route with {existing.label}{removal}")


def ships_to_msp(ctx: Ctx, o: ShipsToMsp) -> Outcome:
    n = ctx.n
    unit = military.unit(o.code, accounts.culture(n))
    if unit.carries is None or "Transport" not in unit.name:
        raise Refused(f"{unit.name} is not a transport: only transports become merchant shipping")
    aerial = unit.code == "ZT"
    if aerial and not n.is_house:
        raise Refused("only a Merchant House turns Transport Airships into aerial MSP (LotE 2.8.5)")
    steam = "Steamship Yard" in unit.build_at
    name = find_army(ctx, o.army)
    army = n.army(name)
    assert army is not None
    holding = n.city(army.location) if ctx.world.is_city(army.location) else None
    if holding is None or not statuses.get(holding.status).base:
        raise Refused(f"{name} must be in a port that bases your shipping to convert transports")
    ctx.take_units(name, o.code, o.count)
    msp = trade.aerial_msp(o.count) if aerial else unit.carries * o.count
    kind = "aerial " if aerial else "steam " if steam else ""
    if aerial:
        ctx.budget.aerial += msp
    else:
        ctx.budget.msp += msp
        ctx.budget.steam += msp if steam else 0
    if ctx.apply:
        if aerial:
            n.aerial_msp += msp
        else:
            n.msp += msp
            n.steam_msp += msp if steam else 0
        ctx.report(f"{o.count}{o.code} of {name} became {msp} {kind}MSP.")
    note = {"aerial ": " for aerial trade only (LotE 2.8.5)",
            "steam ": "; steam MSP serve routes whose stretches between anchors are within your steamships' "
                      "operating range (LotE 3.2.1.2.3)"}.get(kind, "")
    return Outcome(OK, f"{o.count}{o.code} become {msp} {kind}MSP (one per cargo point){note}")


def monopoly(ctx: Ctx, o: MonopolyOrder) -> Outcome:
    n, state = ctx.n, ctx.state
    house = nation_named(ctx, o.house)
    if not house.is_house:
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

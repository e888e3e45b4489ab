"""Hands-off trade (LotE 2.9, the optional rule `hands-off-trade`): every nation but a Merchant House has its
merchant shipping follow demand, without building transports.

Decided (docs/rulesets/lote-modern.md, "Hands-off trade"): a route's capacity is its Total Trade Value, the
Trade Values of both partners; FreeCap is that capacity less the MSP both put on the route. A new route
starts with NMV x TTV, within the base port's free room (at least one, or it cannot open). At each turn's
processing, after the orders, a route the nation can still trace gains NMV x FreeCap (never more than the
FreeCap or the port's room); over capacity, on the route or at the port, it loses the excess. By hand, MSP
are shifted between routes only in a turn the ruler Intervenes in Mercantile Affairs (`action <King> IMA`,
6 AP); they are taken off a route in blocks of 4 for 4 GP, each block a Heavy Transport at the base port.
"""

from __future__ import annotations

import math

from engine.rulesets.lote_modern import accounts, shipping
from engine.rulesets.lote_modern.context import Ctx, Refused
from engine.rulesets.lote_modern.orders import RouteOrder
from engine.rulesets.lote_modern.rules import trade
from engine.rulesets.lote_modern.sheet import Army, Nation, TradeRoute, fold
from engine.rulesets.lote_modern.state import GameState
from engine.rulesets.lote_modern.text import number

RULE = "LotE 2.9 Hands-Off Trade"


def applies(state: GameState, n: Nation) -> bool:
    """Hands-off trade runs this nation's shipping: the campaign uses it and the nation is not a House."""
    return bool(state.options.get("hands-off-trade", False)) and trade.hands_off_trade_applies(
        accounts.NATION_TYPES[n.type])


def route_value(state: GameState, n: Nation, partner: Nation | None) -> float:
    """A route's Total Trade Value: both partners' Trade Values (decided)."""
    return max(0.0, accounts.trade_value(state, n)) + (max(0.0, accounts.trade_value(state, partner))
                                                       if partner is not None else 0.0)


def opening_msp(ctx: Ctx, o: RouteOrder, base: str, partner: Nation | None, length: int) -> int:
    """The MSP a new hands-off route starts with: NMV x its Total Trade Value, within the port's room (2.9)."""
    if o.msp or o.steam:
        raise Refused("under hands-off trade a new route's MSP are set by the market: leave them out (LotE 2.9)")
    room = shipping.room(ctx, base)
    msp = trade.hands_off_initial_msp(ctx.n.nmv, route_value(ctx.state, ctx.n, partner), max(0.0, room))
    if msp < 1:
        raise Refused(f"{base} has no free room to base a new route's shipping ({RULE})")
    return msp


def check_by_hand(ctx: Ctx, o: RouteOrder) -> None:
    """Under hands-off trade, MSP are added to a route by hand only in a turn of intervention (2.9)."""
    if not applies(ctx.state, ctx.n) or o.msp < 0:
        return
    if not ctx.budget.intervened:
        raise Refused("under hands-off trade MSP are moved onto a route only when your ruler Intervenes in "
                      f"Mercantile Affairs earlier in the orders (`action <King> IMA`, 6 AP) ({RULE})")


def removal(ctx: Ctx, o: RouteOrder) -> str:
    """Taking MSP off a hands-off route without intervention: 4 GP a block of 4, each a Heavy Transport (2.9)."""
    if not applies(ctx.state, ctx.n) or ctx.budget.intervened:
        return ""
    taken = trade.hands_off_removal(-o.msp)
    if taken.msp_removed != -o.msp:
        raise Refused(f"MSP come off a hands-off route in blocks of 4 (4 GP each, a Heavy Transport) ({RULE})")
    ctx.spend(taken.gp, what=f"taking {-o.msp} MSP off the route")
    ctx.budget.msp -= taken.msp_removed
    route = ctx.n.route(o.partner, kind=o.kind)
    if ctx.apply and route is not None:
        ctx.n.msp -= taken.msp_removed
        place = route.base_port
        army = next((a for a in ctx.n.armies if fold(a.location) == fold(place)), None)
        if army is None:
            army = Army(f"{place} Garrison", place, "G")
            ctx.n.armies.append(army)
        army.units["ht"] = army.units.get("ht", 0) + taken.heavy_transports
    units = f"{taken.heavy_transports} Heavy Transport{'s' if taken.heavy_transports != 1 else ''}"
    return f"; {units} at the base port for {taken.gp} GP ({RULE})"


def turn(state: GameState, lines: dict[str, list[str]]) -> None:
    """Each hands-off nation's routes fill toward demand or shed their excess (LotE 2.9)."""
    for n in state.nations.values():
        if not applies(state, n):
            continue
        for r in n.routes:
            if r.open and r.kind == "sea" and r.base_port:
                _adjust(state, n, r, lines[n.name])


def _adjust(state: GameState, n: Nation, r: TradeRoute, out: list[str]) -> None:
    partner = state.find_nation(r.partner)
    back = partner.route(n.name, kind="sea") if partner is not None else None
    theirs = back.msp if back is not None and back.open else 0
    capacity = route_value(state, n, partner)
    free_cap = capacity - r.msp - theirs
    room = accounts.basing_limit(state, n, r.base_port) - accounts.msp_based(state, n, r.base_port)
    anchors = {c for conduit in n.conduits for c in (conduit.a, conduit.b)} & accounts.anchors(state, n)
    traced = trade.trace_sea_route(accounts.sea_map(state.world), origins=[r.base_port],
                                   anchors=anchors | {r.base_port}, target=r.target_port or r.base_port,
                                   trade_range=n.trade_range, conduit_limit=n.conduit_limit,
                                   access=accounts.sea_access(state, n))
    change = trade.hands_off_msp_change(nmv=n.nmv, free_cap=free_cap, port_free_capacity=room,
                                        can_provide=traced is not None)
    change = max(change, -r.msp)
    if not change:
        return
    r.msp += change
    n.msp += change
    if change < 0:
        r.steam = max(0, min(r.steam, r.msp))
        n.steam_msp = min(n.steam_msp, n.msp)
    why = "demand" if change > 0 else "over capacity"
    out.append(f"Hands-off trade: the route with {r.partner} {change:+d} MSP ({why}: capacity {number(capacity)}, "
               f"FreeCap {number(free_cap)}, room at {r.base_port} {number(math.floor(room))}); now {r.msp} "
               "(LotE 2.9).")

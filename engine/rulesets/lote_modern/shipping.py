"""Shared checks of merchant shipping: ports, basing room, and tracing a route through one's own conduits
(LotE 2.7, 2.8.3.3), for the trade, cartel and hands-off handlers."""

from __future__ import annotations

from engine.rulesets.lote_modern import accounts, statuses
from engine.rulesets.lote_modern.context import Ctx, Refused
from engine.rulesets.lote_modern.rules import trade
from engine.rulesets.lote_modern.text import number


def port(ctx: Ctx, name: str) -> str:
    """A port city of the map by any spelling of its name."""
    key = ctx.world.canonical(name)
    if key is None or key not in ctx.world.cities or not ctx.world.cities[key].port:
        raise Refused(f"`{name}` is not a port city on the map")
    return str(key)


def trace_route(ctx: Ctx, base: str, target: str) -> trade.SeaRoute | None:
    """A sea route from `base` to `target` through the nation's own conduits (LotE 2.8.3.3)."""
    n = ctx.n
    anchors = {c for conduit in n.conduits for c in (conduit.a, conduit.b)} & accounts.anchors(ctx.state, n)
    return trade.trace_sea_route(accounts.sea_map(ctx.world), origins=[base], anchors=anchors | {base},
                                 target=target, trade_range=n.trade_range, conduit_limit=n.conduit_limit,
                                 access=accounts.sea_access(ctx.state, n))


def room(ctx: Ctx, city: str, *, leaving: str = "") -> float:
    """MSP the nation may still base at a port (LotE 2.7)."""
    return accounts.basing_limit(ctx.state, ctx.n, city) - accounts.msp_based(ctx.state, ctx.n, city, leaving=leaving)


def check_basing(ctx: Ctx, city: str, extra: int, *, leaving: str = "") -> None:
    """Refuse shipping beyond a port's basing limit: 20 x GPv x status (LotE 2.7, Table 7-1)."""
    holding = ctx.n.city(city)
    if holding is None or not statuses.get(holding.status).base:
        raise Refused(f"{city} cannot base your merchant shipping (LotE 2.7, Table 7-1)")
    limit = accounts.basing_limit(ctx.state, ctx.n, city)
    based = accounts.msp_based(ctx.state, ctx.n, city, leaving=leaving)
    if based + extra > limit + 1e-9:
        raise Refused(f"{city} bases at most {number(limit)} of your MSP (20 x GPv x status, LotE 2.7); "
                      f"{based} are based there")


def take_msp(ctx: Ctx, count: int, *, steam: bool, aerial: bool = False) -> None:
    """Allocate free MSP of the right kind: aerial, steam, or the rest (LotE 2.8.5, 3.2.1.2.3)."""
    b = ctx.budget
    if aerial:
        if count > b.aerial:
            raise Refused(f"{b.aerial} aerial MSP are free to allocate; this takes {count} (converted from Transport "
                          "Airships, LotE 2.8.5)")
        b.aerial -= count
        return
    if steam:
        if count > b.steam:
            raise Refused(f"{b.steam} steam MSP are free to allocate; this takes {count}")
        b.steam -= count
    elif count > b.msp - b.steam:
        hint = f" (and {b.steam} steam MSP: add `steam`)" if b.steam else ""
        raise Refused(f"{b.msp - b.steam} MSP are free to allocate{hint}; this takes {count}")
    b.msp -= count

"""The East Indies expansion: commodity prices, trading factories, spice income and goods (RME 1-6)."""

from __future__ import annotations

from engine.core.errors import OrderError
from engine.core.visibility import Visibility
from engine.rulesets.terra_nova.context import Ctx, order_rule, procedure
from engine.rulesets.terra_nova.execution import carry_out
from engine.rulesets.terra_nova.geography import geography
from engine.rulesets.terra_nova.orders import Factory
from engine.rulesets.terra_nova.reference import commodities, house, price_change, price_ranks, price_table
from engine.rulesets.terra_nova.state import Goods, TNState


def move_prices(ctx: Ctx) -> None:
    """RME 4.2.2: one die per commodity; a result moves its price that many ranks (24, 36, 48)."""
    ranks = price_ranks()
    moves = []
    for commodity in commodities():
        result = ctx.lookup(price_table(commodity), "price", commodity, label=f"price {commodity}")
        change = price_change(commodity, result.roll.total)
        old = ctx.state.prices[commodity]
        index = max(0, min(len(ranks) - 1, ranks.index(old) + change))
        ctx.state.prices[commodity] = ranks[index]
        moves.append(f"{commodity} {old}→{ranks[index]}" if ranks[index] != old else f"{commodity} {old}")
    ctx.say("East Indies commodity prices: " + ", ".join(moves) + ".", kind="economy")


def draw_commodity(ctx: Ctx, area: str) -> None:
    """RME 4.1.1: the first visitor draws the area's commodity from the cup (the marker goes back)."""
    state = ctx.state
    if state.areas[area].commodity is not None:
        return
    cup = list(house()["commodities"]["cup"])
    roll = ctx.roll(1, len(cup), "commodity", area, label=f"commodity {area}")
    state.areas[area].commodity = cup[roll.total - 1]
    ctx.annotate(roll, table=f"Commodity cup for {area}", result=cup[roll.total - 1])
    ctx.say(f"{area} trades in {cup[roll.total - 1]}.", kind="indies")


def factory_owner(state: TNState, power: str) -> bool:
    """Whether `power` has a factory anywhere in the Indies (halved attrition, the Indies CSB)."""
    return any(a.holdings.get(power) and a.holdings[power].factories
               for name, a in state.areas.items() if geography().places[name].is_indies)


def has_port(state: TNState, power: str, area: str) -> bool:
    holding = state.areas[area].holdings.get(power) if area in state.areas else None
    return bool(holding and (holding.factories or holding.colonies))


def goods_value(state: TNState, goods: Goods) -> int:
    """RME 5.2: a marker is worth its share of the commodity's current price, rounded down."""
    return state.prices[goods.commodity] // goods.share


def change_up(markers: list[Goods]) -> list[Goods]:
    """RME 5.1.2: markers of one commodity held together are exchanged for larger shares
    (three T3 for one T1; two T4 for one T2), never losing value."""
    out: list[Goods] = []
    for commodity in sorted({g.commodity for g in markers}):
        counts: dict[int, int] = {}
        for g in markers:
            if g.commodity == commodity:
                counts[g.share] = counts.get(g.share, 0) + 1
        changed = True
        while changed:
            changed = False
            for share in sorted(counts):
                n = counts[share]
                for m in range(min(n, share), 1, -1):
                    if share % m == 0:
                        counts[share] -= m
                        counts[share // m] = counts.get(share // m, 0) + 1
                        changed = True
                        break
                if changed:
                    break
            counts = {s: n for s, n in counts.items() if n}
        out += [Goods(commodity, s) for s in sorted(counts) for _ in range(counts[s])]
    return out


# -- C.3 factory segment --------------------------------------------------------------------------------------


def _validate_factory(state: TNState, seat: str, order: Factory, step: str) -> list[str]:
    if not state.options.get("east_indies"):
        raise OrderError("factories need the East Indies expansion (campaign option east_indies)")
    if not geography().places[order.area].kind == "indies":
        raise OrderError(f"factories are built in the East Indies; {order.area} is not there")
    force = state.peek(order.area, seat)
    if not force or not force.ships:
        raise OrderError(f"{seat} needs ships in {order.area} to attempt a factory")
    if not state.leaders_of(seat, order.area):
        raise OrderError(f"{seat} needs a leader in {order.area} to attempt a factory")
    if order.bribe > state.powers[seat].treasury:
        raise OrderError(f"a bribe of {order.bribe} florins is more than {seat}'s treasury")
    return []


def factory_succeeds(face: int, bribe: int) -> bool:
    """RME 3.2: a factory is established on 6; each florin of bribe adds 1; a natural 1 always fails."""
    return face != 1 and face + bribe >= 6


@order_rule("factory", _validate_factory)
def _apply_factory(state: TNState, seat: str, order: Factory, step: str, ctx: Ctx | None) -> None:
    """RME 3.2: succeeds on 6; each florin of bribe adds 1; a natural 1 always fails."""
    state.powers[seat].treasury -= order.bribe
    if ctx is None:
        return
    # the roll shows the bribe, which is the seat's secret: the roll is the seat's, the outcome is public
    roll = ctx.roll(1, 6, "factory", seat, order.area, label=f"factory {seat} {order.area}", modifier=order.bribe,
                    visibility=Visibility.to(seat))
    success = factory_succeeds(roll.total, order.bribe)
    ctx.annotate(roll, table="Factory attempt (6+)", result="established" if success else "fails")
    if success:
        state.holding(order.area, seat).factories += 1
        draw_commodity(ctx, order.area)
        ctx.say(f"{seat} establishes a trading factory in {order.area}.", kind="indies")
    else:
        ctx.say(f"{seat}'s factory attempt in {order.area} fails.", kind="indies")
    if order.bribe:
        ctx.say(f"{seat} paid {order.bribe} florins in bribes in {order.area}.", to=seat, kind="economy")


@procedure("factories")
def factories(ctx: Ctx) -> None:
    carry_out(ctx, ["factory"])


# -- D.2 spices ----------------------------------------------------------------------------------------------------


@procedure("spices")
def spices(ctx: Ctx) -> None:
    """RME 5.1: each area's output is shared among the powers with factories there, as goods markers."""
    state = ctx.state
    for name in geography().indies_areas:
        area = state.areas[name]
        owners = [p for p in ctx.seats_in_order if area.holdings.get(p) and area.holdings[p].factories]
        if not owners:
            continue
        draw_commodity(ctx, name)
        commodity = area.commodity or ""
        for owner in owners:
            force = state.force(name, owner)
            force.goods = change_up([*force.goods, Goods(commodity, len(owners))])
            value = state.prices[commodity] // len(owners)
            ctx.say(f"{owner} takes a {commodity} share (1/{len(owners)}, worth {value} now) in {name}.",
                    to=owner, kind="indies")
        ctx.say(f"{name}: {commodity} shared among {', '.join(owners)}.", kind="indies")


def goods_cargo_halves() -> int:
    return 2 * int(house()["commodities"]["cargo_points"])

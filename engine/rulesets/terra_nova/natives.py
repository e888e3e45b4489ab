"""E. Native actions: war and alliance, uprisings, and revival (TN Sequence E.1-E.3, NAT, Native Revival)."""

from __future__ import annotations

from engine.core.errors import OrderError
from engine.core.visibility import PUBLIC, Visibility
from engine.rulesets.terra_nova import combat
from engine.rulesets.terra_nova.context import Ctx, answer, order_rule, procedure
from engine.rulesets.terra_nova.execution import carry_out
from engine.rulesets.terra_nova.geography import geography
from engine.rulesets.terra_nova.orders import Ally
from engine.rulesets.terra_nova.reference import ALLIANCE_ROWS, alliance_table, bribe_modifier, city_kinds, number
from engine.rulesets.terra_nova.state import Question, TNState


def unallied(state: TNState, area: str) -> int:
    a = state.areas[area]
    return max(0, a.natives - sum(a.allies.values()))


def _validate_ally(state: TNState, seat: str, order: Ally, step: str) -> list[str]:
    if not geography().places[order.area].is_land:
        raise OrderError("alliances are made with the natives of the New World's land areas")
    leader = state.leader(order.leader)
    if leader is None or leader.place != order.area:
        raise OrderError(f"{order.leader} is not in {order.area}")
    if leader.kind not in ALLIANCE_ROWS:
        raise OrderError(f"{order.leader} is a {leader.kind}: alliances need a "
                         f"{', '.join(ALLIANCE_ROWS)} (Native Alliance Table)")
    if unallied(state, order.area) <= 0:
        raise OrderError(f"no unallied natives are left in {order.area}")
    if order.bribe > state.powers[seat].treasury:
        raise OrderError(f"{seat} has {state.powers[seat].treasury} florins for gifts, not {order.bribe}")
    warnings = []
    if order.bribe % 2:
        warnings.append("gifts count in pairs of florins: the odd florin buys nothing")
    return warnings


@order_rule("ally", _validate_ally)
def _apply_ally(state: TNState, seat: str, order: Ally, step: str, ctx: Ctx | None) -> None:
    """NAT: the leader's row, +1 for each 2 florins of gifts; • turns the natives hostile."""
    state.powers[seat].treasury -= order.bribe
    if ctx is None:
        return
    leader = state.leader(order.leader)
    assert leader is not None
    secret = Visibility.to(seat) if order.bribe else PUBLIC        # the modifier would show the gifts
    result = ctx.lookup(alliance_table(leader.kind), "alliance", seat, order.area,
                        label=f"alliance {seat} {order.area}", whose=f"for {seat} in {order.area}",
                        modifier=bribe_modifier(order.bribe), visibility=secret)
    area = state.areas[order.area]
    if order.bribe:
        ctx.say(f"{seat} gives {order.bribe} florins in gifts in {order.area}.", to=seat, kind="economy")
    if result.result == "•":
        if seat not in area.hostile:
            area.hostile.append(seat)
        ctx.say(f"The natives of {order.area} turn hostile to {seat} and make war!", kind="natives")
        combat.start(ctx, order.area, combat.NATIVES, seat)
        return
    n = min(number(result.result) or 0, unallied(state, order.area))
    if not n:
        ctx.say(f"The natives of {order.area} refuse {order.leader}'s offer of alliance with {seat}.", kind="natives")
        return
    area.allies[seat] = area.allies.get(seat, 0) + n
    if seat in area.hostile:
        area.hostile.remove(seat)
    ctx.say(f"{order.leader} makes alliance with {combat.count_of(n, 'natives')} of {order.area} for {seat}.",
            kind="natives")


@procedure("native_alliance")
def native_alliance(ctx: Ctx) -> None:
    carry_out(ctx, ["ally"])


@procedure("native_uprising")
def native_uprising(ctx: Ctx) -> None:
    """E.2: the uprisings table is not on the reference sheet: the GM rules area by area (option `uprisings`)."""
    state = ctx.state
    if state.options.get("uprisings") == "off":
        return
    for name in geography().land_areas():
        natives = unallied(state, name)
        if natives <= 0:
            continue
        exposed = [s for s in ctx.seats_in_order if _exposed(state, s, name)]
        if not exposed:
            continue
        area = state.areas[name]
        facts = [combat.count_of(natives, "unallied natives")
                 + (" (counting double after conversion)" if area.double else "")]
        if area.hostile:
            facts.append(f"hostile to {', '.join(area.hostile)}")
        facts.append(f"present: {', '.join(exposed)}")
        ctx.ask("uprising", f"Native uprising in {name}? {'; '.join(facts)}. Answer `calm`, or the power "
                "the natives rise against.", ["calm", *exposed], area=name)


def _exposed(state: TNState, seat: str, area: str) -> bool:
    force = state.peek(area, seat)
    holding = state.areas[area].holdings.get(seat)
    return bool((force and (force.landed or force.count("mission"))) or (holding and not holding.empty))


@answer("uprising")
def _uprising(ctx: Ctx, question: Question, choice: str) -> None:
    area = str(question.data["area"])
    if choice == "calm":
        ctx.say(f"The natives of {area} stay quiet.", kind="natives")
        return
    ctx.say(f"The natives of {area} rise against {choice}!", kind="natives")
    combat.start(ctx, area, combat.NATIVES, choice, uprising=True)


@procedure("native_revival")
def native_revival(ctx: Ctx) -> None:
    """E.3: two coloured dice name an area by its #; its natives recover one level (never above the
    printed level). Civilisations recover one level, and one in each unoccupied treasure city."""
    state = ctx.state
    geo = geography()
    roll = ctx.roll(2, 6, "revival", label="native revival")
    first, second = roll.faces
    name = geo.by_number(first, second)
    ctx.annotate(roll, table="Native Revival (two coloured dice)", result=name or "no area")
    if name and state.areas[name].natives < geo.places[name].native:
        state.areas[name].natives += 1
        ctx.say(f"Native revival ({first},{second}): the natives of {name} recover to {state.areas[name].natives}.",
                kind="natives")
    else:
        ctx.say(f"Native revival ({first},{second}): no recovery.", kind="natives")
    for area_name in geo.land_areas():
        place = geo.places[area_name]
        if not place.civilisation:
            continue
        area = state.areas[area_name]
        if area.natives < place.native:
            area.natives += 1
        for city_name, city_area in geo.city_areas.items():
            city = state.cities[city_name]
            if city_area == area_name and city.holder is None and city.level < city_kinds()[city_name].level:
                city.level += 1

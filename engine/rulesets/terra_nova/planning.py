"""B. Planning: domestic investment, settlers, initiative, diplomacy and purchases (TN Sequence B.1-B.5)."""

from __future__ import annotations

from engine.core.errors import OrderError
from engine.core.visibility import Visibility
from engine.rulesets.terra_nova.context import Ctx, order_rule, procedure
from engine.rulesets.terra_nova.execution import carry_out
from engine.rulesets.terra_nova.geography import EUROPE, geography
from engine.rulesets.terra_nova.orders import BUYABLE, Buy, Pay
from engine.rulesets.terra_nova.reference import (
    development,
    house,
    settlers_reroll,
    ships,
    units,
)
from engine.rulesets.terra_nova.reference import (
    domestic_investment as investment_table,
)
from engine.rulesets.terra_nova.reference import (
    settlers_available as settlers_table,
)
from engine.rulesets.terra_nova.state import Leader, TNState

INITIATIVE_REROLLS = 3


@procedure("domestic_investment")
def domestic_investment(ctx: Ctx) -> None:
    """B.1: d6 plus the Monarch Income Modifier on the Domestic Investment table (a private roll)."""
    for seat in ctx.seats_in_order:
        power = ctx.state.powers[seat]
        result = ctx.lookup(investment_table(), "investment", seat, label=f"domestic investment {seat}",
                            whose=f"for {seat}", modifier=power.monarch.income, visibility=Visibility.to(seat))
        florins = int(result.row.data["florins"])
        power.treasury += florins
        ctx.say(f"Domestic investment: {seat} receives {florins} florins (treasury {power.treasury}).",
                to=seat, kind="economy")


@procedure("settlers_available")
def settlers_available(ctx: Ctx) -> None:
    """B.2: settlers ready to sail from Europe this turn; a starred result rolls again (+1 on 5-6)."""
    faces, bonus = settlers_reroll()
    for seat in ctx.seats_in_order:
        result = ctx.lookup(settlers_table(), "settlers", seat, label=f"settlers {seat}", whose=f"for {seat}",
                            visibility=Visibility.to(seat))
        settlers = int(result.row.data["settlers"])
        if result.row.data["reroll"]:
            again = ctx.roll(1, 6, "settlers-again", seat, label=f"settlers again {seat}",
                             visibility=Visibility.to(seat))
            if again.total in faces:
                settlers += bonus
            ctx.annotate(again, table=f"Settlers Available (roll again) for {seat}",
                         result=f"+{bonus}" if again.total in faces else "no more")
        if settlers:
            ctx.state.force(EUROPE, seat).add("settler", settlers)
        ctx.say(f"{seat} has {settlers} settler(s) ready to sail this turn.", to=seat, kind="economy")


@procedure("initiative")
def initiative(ctx: Ctx) -> None:
    """B.3: each power rolls 1d6, highest first; ties roll again (house rule: see the notes)."""
    state = ctx.state
    scores: dict[str, list[int]] = {s: [] for s in state.seats}
    tied = list(state.seats)
    for attempt in range(INITIATIVE_REROLLS + 1):
        for seat in tied:
            tie = f" re-roll {attempt}" if attempt else ""
            scores[seat].append(ctx.roll(1, 6, "initiative", seat, label=f"initiative {seat}{tie}").total)
        groups: dict[tuple[int, ...], list[str]] = {}
        for seat in state.seats:
            groups.setdefault(tuple(scores[seat]), []).append(seat)
        tied = [s for members in groups.values() if len(members) > 1 for s in members]
        if not tied or attempt == INITIATIVE_REROLLS:
            break
        for seat in state.seats:
            if seat not in tied:
                scores[seat].append(0)
    state.initiative = sorted(state.seats, key=lambda s: ([-x for x in scores[s]], state.seats.index(s)))
    ctx.say("Initiative: " + ", ".join(f"{s} ({scores[s][0]})" for s in state.initiative) + ".", kind="initiative")


@procedure("planning")
def planning(ctx: Ctx) -> None:
    """B.4: diplomacy happens among the players; transfers are written as `pay` orders at B.5."""
    ctx.say("Planning & diplomacy: negotiate freely; payments between powers go with your purchases (B.5).",
            kind="planning")


@procedure("purchases")
def purchases(ctx: Ctx) -> None:
    carry_out(ctx, ["pay", "buy"])


def _cost(state: TNState, seat: str, order: Buy) -> int:
    if order.item in ships():
        return ships()[order.item].cost * order.count
    return (units()[order.item].cost or 0) * order.count


def _validate_buy(state: TNState, seat: str, order: Buy, step: str) -> list[str]:
    dev = development(state.turn)
    item = order.item
    if item in ("settler", "depleted"):
        raise OrderError("settlers are not bought: they come from Settlers Available (B.2)")
    if item == "slave":
        raise OrderError("slaves are bought on a C.1 voyage from Europe via Guinea (`carrying 3 slave`)")
    if item not in BUYABLE and item not in ships():
        raise OrderError(f"{item}s are not bought: they are founded with settlers, missions or factory attempts")
    if item in ships():
        late_turn = int(state.options.get("late_ships_turn", 13))
        if ships()[item].late and state.turn < late_turn:
            raise OrderError(f"the {item} is a late ship, available from turn {late_turn}")
        if order.at:
            if not dev.new_world_ships:
                raise OrderError("ships are built in the New World from turn 9 (1536)")
            place = geography().places[order.at]
            holding = state.areas[order.at].holdings.get(seat)
            if not place.bounds and place.kind != "indies":
                raise OrderError(f"{order.at} has no coast to build ships on")
            if not holding or not (holding.colonies or holding.factories):
                raise OrderError(f"{seat} needs a settlement, town or factory in {order.at} to build ships there")
    elif item == "captain":
        if not dev.captains:
            raise OrderError("captains may be employed from turn 13 (1556)")
        if order.at:
            raise OrderError("captains are hired in Europe")
    elif item == "fort":
        if not order.at:
            raise OrderError("say where the fort stands: `buy 1 fort at <area>`")
        holding = state.areas[order.at].holdings.get(seat) if order.at in state.areas else None
        if not holding or not (holding.colonies or holding.factories):
            raise OrderError(f"a fort guards a settlement, town or factory: {seat} has none in {order.at}")
        if holding.forts + order.count > 1:
            raise OrderError(f"{seat} may have one fort in {order.at}")
    elif order.at:
        raise OrderError(f"{item}s are bought in Europe")
    cost = _cost(state, seat, order)
    if cost > state.powers[seat].treasury:
        raise OrderError(f"{order.count} {item} cost {cost} florins; {seat} has {state.powers[seat].treasury}")
    return []


@order_rule("buy", _validate_buy)
def _apply_buy(state: TNState, seat: str, order: Buy, step: str, ctx: Ctx | None) -> None:
    cost = _cost(state, seat, order)
    state.powers[seat].treasury -= cost
    where = order.at or EUROPE
    if order.item in ships():
        state.force(where, seat).add_ships(order.item, order.count)
    elif order.item == "fort":
        state.holding(where, seat).forts += order.count
    elif order.item == "captain":
        for _ in range(order.count):
            state.powers[seat].captains += 1
            state.leaders.append(Leader(f"Captain {state.powers[seat].captains} of {seat}", seat, "Captain",
                                        int(house()["leaders"]["captain_rating"]),
                                        int(house()["leaders"]["entry_age"]), seat, EUROPE))
    else:
        state.force(where, seat).add(order.item, order.count)
    if ctx is not None:
        ctx.say(f"{seat} buys {order.count} {order.item}{' at ' + order.at if order.at else ''} for {cost} florins "
                f"(treasury {state.powers[seat].treasury}).", to=seat, kind="purchase")
        if order.item == "fort":
            ctx.say(f"{seat} builds a fort in {order.at}.", kind="purchase")


def _validate_pay(state: TNState, seat: str, order: Pay, step: str) -> list[str]:
    if order.to == seat:
        raise OrderError("a power cannot pay itself")
    if order.amount > state.powers[seat].treasury:
        raise OrderError(f"{seat} has {state.powers[seat].treasury} florins, not {order.amount}")
    return []


@order_rule("pay", _validate_pay)
def _apply_pay(state: TNState, seat: str, order: Pay, step: str, ctx: Ctx | None) -> None:
    state.powers[seat].treasury -= order.amount
    state.powers[order.to].treasury += order.amount
    if ctx is not None:
        ctx.say(f"{seat} pays {order.amount} florins to {order.to}.", to=(seat, order.to), kind="diplomacy")

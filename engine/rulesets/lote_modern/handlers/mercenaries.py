"""Mercenary pools and their brokers (LotE 7.1.4): the broker's upkeep, reshaping a pool, and hiring from it.

Pools are on the map (their area, units and price are public: buyers must know whom to deal with); the
broker is the House whose sheet lists the pool under `brokerages` (won with the EMB action, 7.4.11).
Hiring is a bid: its gold is set aside when the line is carried out, and once every nation's orders are
in, bids are served (the broker's own use first, then the highest gold a unit), paid to the broker, and
the units join the hirer at the city. An unserved bid is refunded.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.core.names import Names as Forgiving
from engine.core.names import UnknownName
from engine.core.orders import Verdict
from engine.rulesets.lote_modern import accounts, campaign
from engine.rulesets.lote_modern.context import Ctx, Outcome, Refused, citing, place_named, refuse_if
from engine.rulesets.lote_modern.orders import Hire, PoolOrder
from engine.rulesets.lote_modern.rules import construction, economy, industry, mercantile, military
from engine.rulesets.lote_modern.sheet import Army, Nation, fold, format_units
from engine.rulesets.lote_modern.state import GameState, Ruling
from engine.rulesets.lote_modern.text import number
from engine.rulesets.lote_modern.world import MercPool

RULE = "LotE 7.1.4 Mercenary Brokerage"


@dataclass(slots=True)
class Bid:
    """A hire line carried out: gold set aside, waiting for every nation's orders."""

    nation: str
    pool: str
    units: dict[str, int]
    city: str
    gp: float
    own: bool = False

    @property
    def per_unit(self) -> float:
        return self.gp / max(1, sum(self.units.values()))


def broker(state: GameState, pool: str) -> Nation | None:
    """The House brokering a pool, if any."""
    return next((n for n in state.nations.values() if n.is_house and fold(pool) in {fold(b) for b in n.brokerages}),
                None)


def _pool(ctx: Ctx, name: str) -> MercPool:
    pool = ctx.world.pool(name)
    if pool is None:
        known = ", ".join(ctx.world.pools) or "none on this map"
        try:
            pool = ctx.world.pools[Forgiving(ctx.world.pools).resolve(name, what="mercenary pool")]
        except UnknownName as exc:
            raise Refused(f"{exc} ({known})") from None
    ctx.read_as(name, pool.name)
    return pool


def _units_left(ctx: Ctx, pool: MercPool) -> dict[str, int]:
    """The pool's units as the lines so far have left them."""
    return ctx.budget.pools.setdefault(pool.name, dict(pool.units))


def _take(have: dict[str, int], units: Mapping[str, int], pool: str) -> None:
    short = [f"{n - have.get(code, 0)}{code}" for code, n in units.items() if n > have.get(code, 0)]
    if short:
        raise Refused(f"the {pool} pool has {format_units(have) if have else 'no units'}: {', '.join(short)} short")
    for code, n in units.items():
        have[code] -= n
        if not have[code]:
            del have[code]


# -- the broker's pool ------------------------------------------------------------------------------------------
def pool_order(ctx: Ctx, o: PoolOrder) -> Outcome:
    n = ctx.n
    pool = _pool(ctx, o.pool)
    if broker(ctx.state, pool.name) is not n:
        raise Refused(f"you are not the broker of the {pool.name} pool: win it with the EMB action (LotE 7.4.11)")
    if o.verb == "price":
        if ctx.apply:
            pool.price = o.price
            ctx.report(f"{pool.name} mercenaries now hire at {number(o.price)} GP a unit.")
        return Outcome(Verdict.ACCEPTED, f"a unit of the {pool.name} pool hires at {number(o.price)} GP, paid to you")
    old, new = dict(o.old), dict(o.new)
    cult = accounts.culture(n)
    costs: dict[str, float] = {}
    for code in new:
        unit = military.unit(code, cult)
        problems = construction.unit_build_problems(
            code, cult, tech_level=n.tech_level, completed=n.completed,
            facility_points={industry.FactoryKind(k): n.factory_points(k) for k in ("airship", "steamship",
                                                                                      "submarine")})
        refuse_if(problems, "LotE 7.1.4.1")
        costs[code] = unit.gp or 0.0
    with citing("LotE 7.1.4.1"):
        gp = mercantile.pool_conversion_cost(old, new, costs)
    have = _units_left(ctx, pool)
    _take(have, old, pool.name)
    ctx.spend(gp, what=f"rebuilding {format_units(new)}")
    for code, count in new.items():
        have[code] = have.get(code, 0) + count
    if ctx.apply:
        pool.units = dict(have)
        ctx.report(f"{pool.name} pool: {format_units(old)} rebuilt as {format_units(new)} ({number(gp)} GP); it now "
                   f"holds {format_units(pool.units)}.")
    return Outcome(Verdict.ACCEPTED, f"{format_units(old)} of the {pool.name} pool become {format_units(new)}: "
                                     f"{number(gp)} GP, the build cost of the units added (LotE 7.1.4.1)")


# -- hiring -------------------------------------------------------------------------------------------------------
def hire(ctx: Ctx, o: Hire) -> Outcome:
    n, world = ctx.n, ctx.world
    pool = _pool(ctx, o.pool)
    key = place_named(ctx, o.city, ("city",), why="mercenaries are hired at a city (LotE 7.1.4.2)")
    region = world.cities[key].region
    ended_here = bool(pool.location) and world.canonical(pool.location) in (key, region)
    refuse_if(mercantile.check_hire(at_city=True, in_pool_zone=region in pool.regions,
                                    ended_last_turn_here=ended_here), "LotE 7.1.4.2")
    units = dict(o.units)
    count = sum(units.values())
    agent = broker(ctx.state, pool.name)
    own = agent is n
    if agent is not None and not own:
        if pool.price <= 0:
            raise Refused(f"the {pool.name} pool is brokered by {agent.name}, who has set no terms: negotiate with "
                          "the House (LotE 7.1.4)")
        if o.gp + 1e-9 < pool.price * count:
            raise Refused(f"{agent.name} hires out the {pool.name} pool at {number(pool.price)} GP a unit: "
                          f"{number(pool.price * count)} GP for {count} (LotE 7.1.4)")
    elif agent is None and o.gp <= 0:
        raise Refused("bid gold for unbrokered mercenaries, like 40gp (Basic Rulebook mercenary bids)")
    _take(_units_left(ctx, pool), units, pool.name)
    ctx.spend(o.gp, what=f"the bid for {format_units(units)}")
    if ctx.apply:
        ctx.bids.append(Bid(n.name, pool.name, units, key, o.gp, own))
        ctx.report(f"Bid for {format_units(units)} of the {pool.name} pool at {key}: {number(o.gp)} GP set aside.")
    if own:
        return Outcome(Verdict.ACCEPTED, f"your own {pool.name} mercenaries, {format_units(units)}, join you at {key}")
    if agent is None:
        return Outcome(Verdict.FLAGGED, f"a bid of {number(o.gp)} GP for {format_units(units)} at {key}: with no "
                                        "broker, the highest bids a unit are served first and the GM may overrule "
                                        "(Basic Rulebook)")
    return Outcome(Verdict.ACCEPTED, f"{format_units(units)} of the {pool.name} pool at {key} for {number(o.gp)} GP, "
                                     f"paid to {agent.name}; served once every order is in, best offers first")


def serve(state: GameState, bids: list[Bid], lines: dict[str, list[str]], rulings: list[Ruling]) -> None:
    """Serve the turn's bids: the broker's own use first, then the most gold a unit (LotE 7.1.4.2)."""
    ordered = sorted(enumerate(bids), key=lambda pair: (not pair[1].own, -pair[1].per_unit, pair[0]))
    for _, bid in ordered:
        pool = state.world.pools[bid.pool]
        hirer = state.nations[bid.nation]
        if any(pool.units.get(code, 0) < count for code, count in bid.units.items()):
            hirer.gp = round(hirer.gp + bid.gp, 2)
            lines[hirer.name].append(f"Your bid for {format_units(bid.units)} of the {pool.name} pool was outbid: "
                                     f"{number(bid.gp)} GP return.")
            continue
        for code, count in bid.units.items():
            pool.units[code] -= count
            if not pool.units[code]:
                del pool.units[code]
        name = f"{pool.name} Mercenaries"
        army = hirer.army(name)
        if army is None or fold(army.location) != fold(bid.city):
            if army is not None:
                name = f"{pool.name} Mercenaries ({bid.city})"
            army = hirer.army(name) or Army(name, bid.city, "N")
            if army not in hirer.armies:
                hirer.armies.append(army)
        for code, count in bid.units.items():
            army.units[code] = army.units.get(code, 0) + count
        agent = broker(state, pool.name)
        paid_to = "the mercenaries"
        if agent is not None and agent is not hirer:
            agent.gp = round(agent.gp + bid.gp, 2)
            paid_to = agent.name
            lines[agent.name].append(f"{hirer.name} hired {format_units(bid.units)} of your {pool.name} pool for "
                                     f"{number(bid.gp)} GP.")
        lines[hirer.name].append(f"Hired {format_units(bid.units)} of the {pool.name} pool at {bid.city} "
                                 f"({number(bid.gp)} GP to {paid_to}); they are {name}.")
        rulings.append(Ruling(0, hirer.name, "mercenaries", f"{hirer.name} hired {format_units(bid.units)} of the "
                                                             f"{pool.name} pool at {bid.city} for {number(bid.gp)} GP "
                                                             f"({paid_to}): name their mercenary leader, if any; they "
                                                             "draw troop support from next turn.",
                              tables=[RULE, "Basic Rulebook mercenaries"],
                              parties=[hirer.name] + ([agent.name] if agent and agent is not hirer else [])))


# -- upkeep --------------------------------------------------------------------------------------------------------
def lose_brokerages(state: GameState, n: Nation, paid: float, due_before: float, *, orders_sent: bool,
                    lines: list[str], rulings: list[Ruling]) -> None:
    """A broker that did not pay its pool in full, or sent no orders, loses the brokerage (LotE 7.1.4).

    `due_before` is the upkeep owed ahead of the brokerages (troops and shipping are paid first)."""
    options = campaign.merchant_options(state.options)
    scale = float(economy.support_scale(state.year))
    spent = due_before
    for label, amount in accounts.brokerage_upkeep(state, n):
        name = label.removeprefix("brokerage ").rsplit(" (", 1)[0]
        pool = state.world.pool(name)
        units = sum(pool.units.values()) if pool else 0
        covered = max(0.0, min(amount, paid - spent))
        spent += amount
        if mercantile.brokerage_kept(paid=covered, units=units, orders_submitted=orders_sent, turn_factor=scale,
                                     options=options):
            continue
        n.brokerages = [b for b in n.brokerages if fold(b) != fold(name)]
        why = "sent no orders" if not orders_sent else f"paid {number(covered)} of {number(amount)} GP"
        lines.append(f"You lost the {name} brokerage: you {why} (LotE 7.1.4).")
        rulings.append(Ruling(0, n.name, "mercenaries", f"{n.name} lost the {name} brokerage ({why}): the pool's "
                                                        f"{units} units are angry; rule what they do (LotE 7.1.4).",
                              tables=[RULE]))


def view_line(state: GameState) -> str:
    """The mercenary pools of the map: area, units, broker and price (public)."""
    pools = []
    for pool in state.world.pools.values():
        agent = broker(state, pool.name)
        terms = (f"brokered by {agent.name}" + (f" at {number(pool.price)} GP a unit" if pool.price else
                                                 ", terms by negotiation")) if agent else "open to bids"
        pools.append(f"{pool.name} ({'; '.join(pool.regions)}): {format_units(pool.units)}, {terms}")
    return "**Mercenary pools** " + " · ".join(pools) if pools else ""

"""C/F. Naval actions: sailing (bounds and cargo), interception, sea fights and naval attrition.

Trans-oceanic voyages (C.1, F.1) use the Areas table's bounds; hemispheric moves (C.2) use our sea
lanes. Every bound costs 2 florins (per voyage, or per ship with option `bounds_charge`). Each voyage
rolls once on the Naval Attrition Table at C.4/F.2, in the column of the bounds it travelled.
"""

from __future__ import annotations

import math

from engine.core.errors import OrderError
from engine.rulesets.terra_nova import indies
from engine.rulesets.terra_nova.combat import Squadron, best_rating, count_of, sea_fight
from engine.rulesets.terra_nova.context import Ctx, order_rule, procedure
from engine.rulesets.terra_nova.execution import carry_out
from engine.rulesets.terra_nova.geography import CSB, DIRECT, EUROPE, GUINEA, INDIES_CSB, geography
from engine.rulesets.terra_nova.orders import Intercept, Sail, SeaAttack
from engine.rulesets.terra_nova.reference import (
    Attrition,
    attrition_column,
    attrition_columns,
    attrition_table,
    ships,
    units,
)
from engine.rulesets.terra_nova.state import Force, Goods, TNState, Voyage

OCEAN_STEPS = ("C1", "F1")
DROP_ORDER = ("slave", "depleted", "settler", "cannon", "soldier", "mission")
NO_INDIES = ("settler", "depleted", "slave", "cannon")     # RME 1.2, 2.2: no colonial expeditions


def cargo_halves(units_: dict[str, int], gold: int, goods: int) -> int:
    """Cargo in half points: units by the table, gold 1/2 a point per 25 florins, goods 2 points a marker."""
    table = units()
    return (sum(table["settler" if u == "depleted" else u].cargo_halves * n for u, n in units_.items())
            + math.ceil(gold / 25) * table["gold"].cargo_halves + goods * indies.goods_cargo_halves())


def capacity_halves(fleet: dict[str, int]) -> int:
    return sum(2 * ships()[k].capacity * n for k, n in fleet.items())


def crossed(state: TNState, seat: str, place: str) -> dict[str, int]:
    """Ships that arrived at `place` by a C.1 crossing this turn: they make no hemispheric move."""
    out: dict[str, int] = {}
    for v in state.voyages:
        if v.power == seat and v.step == "C1" and v.dest == place:
            for k, n in v.ships.items():
                out[k] = out.get(k, 0) + n
    return out


def voyage_bounds(state: TNState, seat: str, order: Sail, step: str) -> int:
    geo = geography()
    origin, dest = order.origin, order.dest
    if {origin, dest} == {EUROPE, CSB}:
        return 0
    if step in OCEAN_STEPS:
        start = EUROPE if origin == CSB else origin
        bounds = geo.ocean_bounds(start, dest, GUINEA if order.guinea else DIRECT, order.coast)
        if bounds is None:
            raise OrderError(f"{origin} to {dest} is not a trans-oceanic voyage"
                             + ("; sail it in C.2 Hemispheric Movement" if geo.sea_distance(origin, dest) else ""))
        return bounds
    if order.guinea:
        raise OrderError("the Guinea route is for trans-oceanic voyages")
    if EUROPE in (origin, dest):
        raise OrderError("voyages to and from Europe are trans-oceanic: sail them in C.1 or F.1")
    bounds = geo.sea_distance(origin, dest, order.coast)
    if bounds is None:
        raise OrderError(f"no sea lane joins {origin} and {dest} in one hemisphere")
    return bounds


def voyage_cost(state: TNState, order: Sail, bounds: int) -> int:
    per_ship = state.options.get("bounds_charge") == "ship"
    n = sum(order.ships.values()) if per_ship else 1
    slaves = order.cargo.units.get("slave", 0) if order.origin == EUROPE else 0
    return (bounds * (units()["bound"].cost or 0) * n + geography().places[order.dest].enter_cost
            + slaves * slave_price(state))


def slave_price(state: TNState) -> int:
    """The printed 4 is a minimum, raised by the slavery modifier."""
    return (units()["slave"].cost or 0) + max(0, state.modifiers.get("slavery", 0))


def _validate_sail(state: TNState, seat: str, order: Sail, step: str) -> list[str]:
    geo = geography()
    origin, dest = geo.places[order.origin], geo.places[order.dest]
    warnings: list[str] = []
    if order.origin == order.dest:
        raise OrderError("a voyage needs a different destination")
    if dest.coasts != ("",) and not order.coast:
        raise OrderError(f"{dest.name} has two coasts: write {dest.name}/{dest.coasts[0]} or "
                         f"{dest.name}/{dest.coasts[1]}")
    if dest.kind == "land" and not dest.bounds:
        raise OrderError(f"{dest.name} lies inland: ships cannot reach it")
    if INDIES_CSB in (order.origin, order.dest) and not indies.factory_owner(state, seat):
        raise OrderError("only powers with a factory (a port) in the Indies may use the Indies command of the seas")
    bounds = voyage_bounds(state, seat, order, step)
    force = state.peek(order.origin, seat) or Force()
    held = crossed(state, seat, order.origin) if step == "C2" else {}
    for key, n in order.ships.items():
        have = force.ships.get(key, 0) - held.get(key, 0)
        if have < n:
            raise OrderError(f"{seat} has {max(0, have)} {key} free to sail from {order.origin}, not {n}")
        if ships()[key].hemispheric_only and step in OCEAN_STEPS and bounds:
            raise OrderError("the urca (hulk) only makes hemispheric moves")
    for key, n in order.cargo.units.items():
        if key == "slave" and order.origin == EUROPE:
            if step != "C1" or not order.guinea:
                raise OrderError("slaves are bought on the way, sailing from Europe via Guinea in C.1")
            continue
        if force.count(key) < n:
            raise OrderError(f"{seat} has {force.count(key)} {key} in {order.origin}, not {n}")
    if (dest.is_indies and dest.kind != "box") and any(order.cargo.units.get(u) for u in NO_INDIES):
        raise OrderError("no colonial expeditions in the East Indies: only soldiers, missions and leaders land there")
    if order.cargo.gold > force.gold:
        raise OrderError(f"{seat} has {force.gold} florins of gold in {order.origin}")
    for code, n in order.cargo.goods.items():
        have = sum(1 for g in force.goods if g.code == code)
        if have < n:
            raise OrderError(f"{seat} has {have} {code} markers in {order.origin}")
    need = cargo_halves(dict(order.cargo.units), order.cargo.gold, sum(order.cargo.goods.values()))
    room = capacity_halves(dict(order.ships))
    if need > room:
        raise OrderError(f"the cargo needs {need / 2:g} cargo points; the ships carry {room / 2:g}")
    for name in order.leaders:
        leader = state.leader(name)
        if leader is None or leader.place != order.origin:
            raise OrderError(f"{name} is not in {order.origin}")
    explorer = any((ld := state.leader(n)) and ld.kind == "Explorer" for n in order.leaders)
    if dest.kind == "indies" and not indies.has_port(state, seat, dest.name) and not explorer:
        raise OrderError(f"to make landfall in {dest.name} without a factory there, carry an Explorer")
    cost = voyage_cost(state, order, bounds)
    if cost > state.powers[seat].treasury:
        raise OrderError(f"the voyage costs {cost} florins; {seat} has {state.powers[seat].treasury}")
    if dest.extreme or origin.extreme:
        warnings.append("an extreme voyage: attrition is rolled on the E column")
    if not order.leaders and bounds:
        warnings.append("no leader aboard")
    return warnings


def voyage_column(state: TNState, seat: str, order: Sail, bounds: int) -> int:
    geo = geography()
    halved = (state.options.get("east_indies") and indies.factory_owner(state, seat)
              and {geo.places[order.origin].kind, geo.places[order.dest].kind} == {"europe", "indies"})
    travelled = math.ceil(bounds / 2) if halved else bounds           # RME 5.3: halved attrition
    return attrition_column(travelled, geo.passes_extreme(order.origin, order.dest))


@order_rule("sail", _validate_sail)
def _apply_sail(state: TNState, seat: str, order: Sail, step: str, ctx: Ctx | None) -> None:
    bounds = voyage_bounds(state, seat, order, step)
    cost = voyage_cost(state, order, bounds)
    power = state.powers[seat]
    power.treasury -= cost
    origin, dest = state.force(order.origin, seat), state.force(order.dest, seat)
    fleet = dict(order.ships)
    for key, n in fleet.items():
        origin.add_ships(key, -n)
    cargo = dict(order.cargo.units)
    for key, n in cargo.items():
        if not (key == "slave" and order.origin == EUROPE):
            origin.add(key, -n)
    origin.gold -= order.cargo.gold
    goods = []
    for code, n in order.cargo.goods.items():
        for _ in range(n):
            marker = next(g for g in origin.goods if g.code == code)
            origin.goods.remove(marker)
            goods.append(marker)
    gold = order.cargo.gold
    leaders = list(order.leaders)
    if ctx is not None:
        ctx.say(f"{seat} sails {', '.join(f'{n} {k}' for k, n in fleet.items())} from {order.origin} to "
                f"{order.dest}{'/' + order.coast if order.coast else ''} ({bounds} bounds"
                f"{', via Guinea' if order.guinea else ''}).", kind="naval")
        detail = order.cargo.text() or "no cargo"
        ctx.say(f"{seat}'s voyage to {order.dest} carries {detail}; it cost {cost} florins.", to=seat, kind="naval")
        fleet, cargo, gold, goods, leaders = _run_gauntlet(ctx, seat, order, fleet, cargo, gold, goods, leaders)
    for key, n in fleet.items():
        dest.add_ships(key, n)
    for key, n in cargo.items():
        dest.add(key, n)
    dest.gold += gold
    dest.goods = indies.change_up([*dest.goods, *goods])
    for name in leaders:
        leader = state.leader(name)
        if leader:
            leader.place = order.dest
    if bounds and fleet:
        state.voyages.append(Voyage(state.new_id(), seat, step, order.origin, order.dest, bounds,
                                    voyage_column(state, seat, order, bounds), fleet, cargo, leaders, gold,
                                    len(goods), step in OCEAN_STEPS))
    if ctx is not None and geography().places[order.dest].kind == "indies":
        indies.draw_commodity(ctx, order.dest)


def _run_gauntlet(ctx: Ctx, seat: str, order: Sail, fleet: dict[str, int], cargo: dict[str, int], gold: int,
                  goods: list[Goods], leaders: list[str]
                  ) -> tuple[dict[str, int], dict[str, int], int, list[Goods], list[str]]:
    """Interceptors in a command-of-the-seas box fight the voyage (house rule, see the notes)."""
    geo = geography()
    for hunter in ctx.scratch.get("intercepts", {}).get(seat, []):
        box = None
        if EUROPE in (order.origin, order.dest):
            box = CSB
        elif geo.places[order.origin].kind == "indies" or geo.places[order.dest].kind == "indies":
            box = INDIES_CSB if indies.factory_owner(ctx.state, hunter) else None
        waiting = ctx.state.peek(box, hunter) if box else None
        if not waiting or not fleet or not any(ships()[k].combat for k in waiting.ships):
            continue
        ctx.say(f"{hunter} intercepts {seat}'s voyage from the {box}.", kind="naval")
        aboard = soldiers_aboard(ctx.state, box or "", hunter)
        theirs = Squadron(hunter, waiting.ships, aboard, best_rating(ctx.state, hunter, box or ""))
        ours = Squadron(seat, fleet, cargo.get("soldier", 0), _rating(ctx.state, leaders))
        sea_fight(ctx, box or "", theirs, ours)
        _soldiers_home(ctx, box or "", waiting, aboard, theirs)
        if cargo.get("soldier"):
            cargo["soldier"] = ours.soldiers
        if not fleet:
            for name in leaders:
                leader = ctx.state.leader(name)
                if leader:
                    ctx.state.leaders.remove(leader)
            ctx.say(f"{seat}'s voyage is lost with all aboard.", kind="naval")
            return {}, {}, 0, [], []
        cargo, gold, goods = _fit(ctx, seat, fleet, cargo, gold, goods)
    return fleet, {k: n for k, n in cargo.items() if n}, gold, goods, leaders


def _rating(state: TNState, leaders: list[str]) -> int | None:
    ratings = [ld.rating for n in leaders if (ld := state.leader(n))]
    return max(ratings) if ratings else None


def _fit(ctx: Ctx, seat: str, fleet: dict[str, int], cargo: dict[str, int], gold: int,
         goods: list[Goods]) -> tuple[dict[str, int], int, list[Goods]]:
    """Cargo beyond what the surviving ships carry is lost: the cheapest first."""
    lost: list[str] = []
    while cargo_halves(cargo, gold, len(goods)) > capacity_halves(fleet):
        unit = next((u for u in DROP_ORDER if cargo.get(u)), None)
        if unit:
            cargo[unit] -= 1
            lost.append(unit)
        elif goods:
            lost.append(goods.pop().code)
        else:
            lost.append(f"{min(gold, 25)} gold")
            gold = max(0, gold - 25)
    if lost:
        ctx.say(f"{seat} loses cargo with the ships: {', '.join(lost)}.", kind="naval")
    return {k: n for k, n in cargo.items() if n}, gold, goods


def soldier_room(state: TNState, fleet: dict[str, int]) -> int:
    """How many soldiers these ships carry (option `sea_soldiers=all`: as many as there are)."""
    if state.options.get("sea_soldiers", "aboard") == "all":
        return 10**6 if fleet else 0
    return capacity_halves(fleet) // units()["soldier"].cargo_halves


def soldiers_aboard(state: TNState, place: str, power: str) -> int:
    """Soldiers who fight at sea (1 each, TN Purchase table `5/1*`): those who sailed in this turn and are still
    with their ships, up to what the ships carry; with option `sea_soldiers=all`, every soldier in the place."""
    force = state.peek(place, power) or Force()
    if not force.ships:
        return 0
    present = force.count("soldier")
    at_sea = geography().places[place].kind in ("box", "sea")       # in a box at sea, everyone is aboard
    if state.options.get("sea_soldiers", "aboard") != "all" and not at_sea:
        present = min(present, sum(v.cargo.get("soldier", 0) for v in state.voyages
                                   if v.power == power and v.dest == place))
    return min(present, soldier_room(state, force.ships))


def _soldiers_home(ctx: Ctx, place: str, force: Force, aboard: int, squadron: Squadron) -> None:
    """Soldiers killed in the fight, and those on ships sunk under them, are gone from the force."""
    drowned = max(0, squadron.soldiers - soldier_room(ctx.state, force.ships))
    lost = aboard - squadron.soldiers + drowned
    if lost > 0:
        force.add("soldier", -lost)
    if drowned:
        ctx.say(f"{count_of(drowned, 'soldier')} of {squadron.power} went down with the ships at {place}.",
                kind="naval")


def _validate_intercept(state: TNState, seat: str, order: Intercept, step: str) -> list[str]:
    if order.target == seat:
        raise OrderError("a power cannot intercept itself")
    boxes = [b for b in (CSB, INDIES_CSB) if (f := state.peek(b, seat)) and any(ships()[k].combat for k in f.ships)]
    if not boxes:
        raise OrderError(f"{seat} has no fighting ships in a command-of-the-seas box")
    return []


@order_rule("intercept", _validate_intercept)
def _apply_intercept(state: TNState, seat: str, order: Intercept, step: str, ctx: Ctx | None) -> None:
    if ctx is not None:
        ctx.scratch.setdefault("intercepts", {}).setdefault(order.target, []).append(seat)
        ctx.say(f"{seat} lies in wait for {order.target}'s ships.", gm=True, kind="naval")


def _validate_sea_attack(state: TNState, seat: str, order: SeaAttack, step: str) -> list[str]:
    if order.target == seat:
        raise OrderError("a power cannot attack itself")
    mine = state.peek(order.area, seat)
    if not mine or not any(ships()[k].combat for k in mine.ships):
        raise OrderError(f"{seat} has no fighting ships in {order.area}")
    theirs = state.peek(order.area, order.target)
    if not theirs or not theirs.ships:
        return [f"{order.target} has no ships in {order.area} now"]
    return []


@order_rule("attack-at-sea", _validate_sea_attack)
def _apply_sea_attack(state: TNState, seat: str, order: SeaAttack, step: str, ctx: Ctx | None) -> None:
    if ctx is None:
        return
    theirs = state.peek(order.area, order.target)
    if not theirs or not theirs.ships:
        ctx.say(f"{seat} finds no {order.target} ships to attack in {order.area}.", kind="naval")
        return
    mine = state.force(order.area, seat)
    ctx.say(f"{seat} attacks {order.target}'s ships in {order.area}.", kind="naval")
    ours_aboard = soldiers_aboard(state, order.area, seat)
    theirs_aboard = soldiers_aboard(state, order.area, order.target)
    a = Squadron(seat, mine.ships, ours_aboard, best_rating(state, seat, order.area))
    b = Squadron(order.target, theirs.ships, theirs_aboard, best_rating(state, order.target, order.area))
    winner = sea_fight(ctx, order.area, a, b)
    _soldiers_home(ctx, order.area, mine, ours_aboard, a)
    _soldiers_home(ctx, order.area, theirs, theirs_aboard, b)
    ctx.say(f"The sea fight in {order.area} ends: {winner + ' wins' if winner else 'no victor'}.", kind="naval")


@procedure("trans_oceanic")
def trans_oceanic(ctx: Ctx) -> None:
    """C.1 / F.1: interceptors take station, then each power's voyages sail in initiative order."""
    carry_out(ctx, ["intercept"])
    carry_out(ctx, ["sail"])


@procedure("hemispheric")
def hemispheric(ctx: Ctx) -> None:
    """C.2: moves within one hemisphere, then attacks at sea (factory attempts wait for C.3)."""
    carry_out(ctx, ["sail"])
    carry_out(ctx, ["attack-at-sea"])


# -- attrition --------------------------------------------------------------------------------------------------


@procedure("attrition")
def attrition(ctx: Ctx) -> None:
    """C.4 / F.2: every voyage not yet rolled for rolls on the Naval Attrition Table."""
    for voyage in ctx.state.voyages:
        if not voyage.rolled:
            roll_attrition(ctx, voyage)


def roll_attrition(ctx: Ctx, voyage: Voyage) -> None:
    """One roll in the voyage's column; † adds its losses and rolls again in the same column."""
    voyage.rolled = True
    label = attrition_columns()[voyage.column]
    results: list[str] = []
    notes: list[str] = []
    while True:
        again = " again" if results else ""
        outcome = ctx.lookup(attrition_table(voyage.column), "attrition", voyage.power, f"v{voyage.id}",
                             label=f"attrition {voyage.power} voyage from {voyage.origin} to {voyage.dest}{again}",
                             whose=f"for {voyage.power}'s voyage from {voyage.origin} to {voyage.dest}")
        result = Attrition.read(outcome.result)
        results.append(result.cell)
        notes += apply_attrition(ctx, voyage, result)
        if not result.reroll:
            break
    outcome_text = f" — {', '.join(notes)}" if notes else ""
    ctx.say(f"Attrition on {voyage.power}'s voyage to {voyage.dest} ({label} bounds column): "
            f"{' then '.join(results)}{outcome_text}.", kind="attrition")


def apply_attrition(ctx: Ctx, voyage: Voyage, result: Attrition) -> list[str]:
    """Losses fall on what made the voyage and is still where it landed; what happened, in words."""
    state = ctx.state
    force = state.force(voyage.dest, voyage.power)
    notes = []
    for _ in range(result.depleted):
        if voyage.cargo.get("settler") and force.count("settler"):
            voyage.cargo["settler"] -= 1
            voyage.cargo["depleted"] = voyage.cargo.get("depleted", 0) + 1
            force.add("settler", -1)
            force.add("depleted", 1)
            notes.append("a settler depleted")
    for _ in range(result.soldiers):
        if voyage.cargo.get("soldier") and force.count("soldier"):
            voyage.cargo["soldier"] -= 1
            force.add("soldier", -1)
            notes.append("a soldier lost")
    for _ in range(result.ships):
        present = [k for k in voyage.ships if voyage.ships[k] and force.ships.get(k)]
        if not present:
            break
        key = min(present, key=lambda k: (ships()[k].cost, ships()[k].capacity))
        voyage.ships[key] -= 1
        force.add_ships(key, -1)
        notes.append(f"a {key} sunk")
    if result.ships:
        _drop_overflow(ctx, voyage, force)
    if result.leader:
        aboard = [ld for n in voyage.leaders if (ld := state.leader(n)) and ld.place == voyage.dest]
        if aboard:
            dead = min(aboard, key=lambda ld: (ld.rating, ld.name))
            state.leaders.remove(dead)
            voyage.leaders.remove(dead.name)
            notes.append(f"{dead.name} lost")
    return notes


def _drop_overflow(ctx: Ctx, voyage: Voyage, force: Force) -> None:
    fleet = {k: n for k, n in voyage.ships.items() if n}
    cargo = {k: n for k, n in voyage.cargo.items() if n}
    lost = []
    while cargo_halves(cargo, voyage.gold, voyage.goods) > capacity_halves(fleet):
        unit = next((u for u in DROP_ORDER if cargo.get(u) and force.count(u)), None)
        if unit:
            cargo[unit] -= 1
            force.add(unit, -1)
            lost.append(unit)
        elif voyage.goods and force.goods:
            voyage.goods -= 1
            lost.append(force.goods.pop().code)
        elif voyage.gold:
            take = min(25, voyage.gold)
            voyage.gold -= take
            force.gold = max(0, force.gold - take)
            lost.append(f"{take} gold")
        else:
            break
    voyage.cargo = cargo
    if lost:
        ctx.say(f"{voyage.power} loses cargo with the ship: {', '.join(lost)}.", kind="attrition")

"""D. Land actions: gold and treasure, missions and conversion, settlement and towns, movement and combat."""

from __future__ import annotations

from engine.core.errors import OrderError
from engine.rulesets.terra_nova import combat
from engine.rulesets.terra_nova.context import Ctx, order_rule, procedure
from engine.rulesets.terra_nova.execution import carry_out
from engine.rulesets.terra_nova.geography import geography
from engine.rulesets.terra_nova.orders import AreaOrder, Attack, Move, Settle, Tactic
from engine.rulesets.terra_nova.reference import (
    Conversion,
    city_kinds,
    conversion_reroll_faces,
    conversion_table,
    development,
    mine_kinds,
    mission_levels,
    settlement_faces,
    units,
)
from engine.rulesets.terra_nova.state import Mine, TNState

X_LOSSES = ("soldier", "settler", "depleted", "cannon")   # "X": the player's choice, taken cheapest first


def present(state: TNState, power: str, area: str) -> bool:
    """A power is present in an area with land units or a settlement or town there."""
    force = state.peek(area, power)
    holding = state.areas[area].holdings.get(power) if area in state.areas else None
    return bool((force and force.landed) or (holding and holding.colonies))


# -- D.1 gold and treasure -----------------------------------------------------------------------------------------


@procedure("gold_and_treasure")
def gold_and_treasure(ctx: Ctx) -> None:
    """D.1: look for mines (2d6 in the Discover range), work them, and roll for depletion; the same for
    occupied treasure cities (Mines & Pearls, Treasure Cities). A worked-out site is not found again."""
    state = ctx.state
    kinds = mine_kinds()
    for kind, areas in geography().mine_sites.items():
        for area in areas:
            if any(m.kind == kind and m.area == area for m in state.mines):
                continue
            for seat in ctx.seats_in_order:
                if not present(state, seat, area):
                    continue
                roll = ctx.roll(2, 6, "discover", kind, area, seat, label=f"mine search {area} {seat}")
                found = roll.total in kinds[kind].discover
                ctx.annotate(roll, table=f"Mines & Pearls: discover {kind} in {area} for {seat}",
                             result="found" if found else "none")
                if found:
                    state.mines.append(Mine(kind, area, seat))
                    ctx.say(f"{seat} discovers {kind} in {area}!", kind="gold")
                    break
    for mine in state.mines:
        if mine.worked_out:
            continue
        if not present(state, mine.holder, mine.area):
            taker = next((s for s in ctx.seats_in_order if present(state, s, mine.area)), None)
            if taker is None:
                continue
            mine.holder = taker
            ctx.say(f"{taker} takes over the {mine.kind} in {mine.area}.", kind="gold")
        mk = kinds[mine.kind]
        output = mk.output(state.r_level)
        if mine.kind == "Pearl Fisheries":
            output = max(0, output + state.modifiers.get("fisheries", 0))
        if state.options.get("r2_mines", "single") == "double" and geography().places[mine.area].r2:
            output *= 2          # option: R2's "all resources drawn here are doubled" read to cover mines
        state.force(mine.area, mine.holder).gold += output
        ctx.say(f"{mine.holder}'s {mine.kind} in {mine.area} yields {output} florins of gold, to be shipped home.",
                to=mine.holder, kind="gold")
        if mk.deplete:
            roll = ctx.roll(2, 6, "deplete", mine.kind, mine.area, label=f"mine depletion {mine.area}")
            gone = roll.total in mk.deplete
            ctx.annotate(roll, table=f"Mines & Pearls: deplete {mine.kind} in {mine.area}",
                         result="depleted" if gone else "holds")
            if gone:
                mine.worked_out = True
                ctx.say(f"The {mine.kind} in {mine.area} is worked out.", kind="gold")
    for city in state.cities.values():
        if city.holder is None or city.looted:
            continue
        if not present(state, city.holder, city.area):
            ctx.say(f"{city.holder} no longer occupies {city.name}.", kind="gold")
            city.holder = None
            continue
        ck = city_kinds()[city.name]
        state.force(city.area, city.holder).gold += ck.production
        ctx.say(f"{city.holder} takes {ck.production} florins of treasure from {city.name}.", to=city.holder,
                kind="gold")
        roll = ctx.roll(2, 6, "deplete", city.name, label=f"treasure depletion {city.name}")
        gone = roll.total in ck.deplete
        ctx.annotate(roll, table=f"Treasure Cities: deplete {city.name}", result="stripped" if gone else "holds")
        if gone:
            city.looted = True
            ctx.say(f"The treasure of {city.name} is exhausted.", kind="gold")


# -- D.3 missions --------------------------------------------------------------------------------------------------


def _validate_mission(state: TNState, seat: str, order: AreaOrder, step: str) -> list[str]:
    force = state.peek(order.area, seat)
    if not force or not force.count("mission"):
        raise OrderError(f"{seat} has no mission in {order.area} to establish")
    if geography().places[order.area].kind == "indies":
        return ["missions in the Indies convert no one (RME 2.4)"]
    return []


@order_rule("mission", _validate_mission)
def _apply_mission(state: TNState, seat: str, order: AreaOrder, step: str, ctx: Ctx | None) -> None:
    state.force(order.area, seat).add("mission", -1)
    if ctx is None:
        state.holding(order.area, seat).missions.append(0)
        return
    rating = int(ctx.lookup(mission_levels(), "mission", seat, order.area, label=f"mission level {seat} {order.area}",
                            whose=f"for {seat} in {order.area}").row.data["rating"])
    state.holding(order.area, seat).missions.append(rating)
    ctx.say(f"{seat} establishes a mission in {order.area} (rating {rating}).", kind="mission")


@procedure("missions")
def missions(ctx: Ctx) -> None:
    """D.3: new missions are founded, then every mission in the New World rolls on the RCT."""
    carry_out(ctx, ["mission"])
    state = ctx.state
    for name, area in state.areas.items():
        if not geography().places[name].is_land:
            continue
        for seat in ctx.seats_in_order:
            holding = area.holdings.get(seat)
            if not holding or not holding.missions:
                continue
            for index, rating in reversed(list(enumerate(holding.missions))):
                if area.natives <= 0:
                    break
                _convert(ctx, seat, name, index, rating)


def _convert(ctx: Ctx, seat: str, name: str, index: int, rating: int) -> None:
    state = ctx.state
    area = state.areas[name]
    result = ctx.lookup(conversion_table(rating), "conversion", seat, name, label=f"conversion {seat} {name}",
                        whose=f"for {seat} in {name}")
    outcome = Conversion.read(result.result)
    notes = []
    if outcome.converted:
        n = min(outcome.converted, area.natives)
        area.natives -= n
        state.powers[seat].converted += n
        _cap_allies(state, name)
        notes.append(f"{n} natives converted")
    if outcome.lose_unit:
        notes.append(_lose_one(state, seat, name))
    lost = outcome.mission_lost
    if outcome.reroll:
        again = ctx.roll(1, 6, "conversion-again", seat, name, label=f"conversion again {seat} {name}")
        lost = lost or again.total in conversion_reroll_faces()
        ctx.annotate(again, table=f"RCT re-roll for {seat} in {name}",
                     result="mission lost" if again.total in conversion_reroll_faces() else "mission stands")
    if lost:
        state.holding(name, seat).missions.pop(index)
        notes.append("the mission is destroyed")
    if outcome.double:
        area.double = True
        notes.append("the surviving natives count double for uprisings")
    ctx.say(f"{seat}'s mission in {name} ({outcome.cell}): {', '.join(n for n in notes if n) or 'no change'}.",
            kind="mission")


def _lose_one(state: TNState, seat: str, area: str) -> str:
    """RCT X: one settlement, soldier, settler or cannon is lost (the cheapest the player has)."""
    force = state.peek(area, seat)
    for unit in X_LOSSES:
        if force and force.count(unit):
            force.add(unit, -1)
            return f"a {unit} lost"
    holding = state.areas[area].holdings.get(seat)
    if holding and holding.settlements:
        holding.settlements -= 1
        return "a settlement lost"
    return ""


def _cap_allies(state: TNState, name: str) -> None:
    area = state.areas[name]
    while sum(area.allies.values()) > area.natives:
        biggest = max(area.allies, key=lambda p: area.allies[p])
        area.allies[biggest] -= 1
        if not area.allies[biggest]:
            del area.allies[biggest]


# -- D.4 settlement and towns ------------------------------------------------------------------------------------


def _new_world(state: TNState, area: str, what: str) -> None:
    if not geography().places[area].is_land:
        raise OrderError(f"{what} only in the New World's land areas (no settlement in the East Indies)")


def _validate_settle(state: TNState, seat: str, order: Settle, step: str) -> list[str]:
    _new_world(state, order.area, "settlements are made")
    force = state.peek(order.area, seat)
    unit = "depleted" if order.depleted else "settler"
    if not force or not force.count(unit):
        if not order.depleted and force and force.count("depleted"):
            raise OrderError(f"{seat}'s settlers in {order.area} are depleted: write "
                             f"`settle {order.area} with depleted settler`")
        raise OrderError(f"{seat} has no {'depleted ' if order.depleted else ''}settler in {order.area}")
    return []


def settle_faces(order: Settle) -> frozenset[int]:
    """Settlement Table: the faces on which this settler founds a settlement (by its kind and the hex's coast)."""
    row = "depleted_settler" if order.depleted else "settler"
    return settlement_faces(row, geography().places[order.area].coastal)


def town_faces(area: str) -> frozenset[int]:
    """Settlement Table: the faces on which a settlement here advances to a town."""
    return settlement_faces("advance_to_town", geography().places[area].coastal)


@order_rule("settle", _validate_settle)
def _apply_settle(state: TNState, seat: str, order: Settle, step: str, ctx: Ctx | None) -> None:
    """Settlement Table: the settler becomes a settlement on the faces for its kind of hex."""
    unit = "depleted" if order.depleted else "settler"
    force = state.force(order.area, seat)
    force.add(unit, -1)
    if ctx is None:
        return
    coastal = geography().places[order.area].coastal
    roll = ctx.roll(1, 6, "settle", seat, order.area, label=f"settlement {seat} {order.area}")
    ok = roll.total in settle_faces(order)
    ctx.annotate(roll, table=f"Settlement Table ({'depleted ' if order.depleted else ''}settler, "
                             f"{'coastal' if coastal else 'non-coastal'}) for {seat} in {order.area}",
                 result="settled" if ok else "fails")
    if ok:
        state.holding(order.area, seat).settlements += 1
        ctx.say(f"{seat} founds a settlement in {order.area}.", kind="settlement")
    else:
        force.add(unit, 1)
        ctx.say(f"{seat}'s settlers fail to take root in {order.area} this turn.", kind="settlement")


def _validate_town(state: TNState, seat: str, order: AreaOrder, step: str) -> list[str]:
    _new_world(state, order.area, "towns are built")
    if not development(state.turn).towns:
        raise OrderError("towns may be built from turn 9 (1536)")
    holding = state.areas[order.area].holdings.get(seat)
    if not holding or not holding.settlements:
        raise OrderError(f"{seat} has no settlement in {order.area} to advance to a town")
    cost = units()["town"].cost or 0
    if cost > state.powers[seat].treasury:
        raise OrderError(f"a town costs {cost} florins")
    return []


@order_rule("town", _validate_town)
def _apply_town(state: TNState, seat: str, order: AreaOrder, step: str, ctx: Ctx | None) -> None:
    state.powers[seat].treasury -= units()["town"].cost or 0
    holding = state.holding(order.area, seat)
    ok = True
    if ctx is not None:
        roll = ctx.roll(1, 6, "town", seat, order.area, label=f"town {seat} {order.area}")
        ok = roll.total in town_faces(order.area)
        ctx.annotate(roll, table=f"Settlement Table (advance to town) for {seat} in {order.area}",
                     result="town" if ok else "fails")
        ctx.say(f"{seat} {'raises a town' if ok else 'fails to raise a town'} in {order.area}.", kind="settlement")
    if ok:
        holding.settlements -= 1
        holding.towns += 1


def _validate_plantation(state: TNState, seat: str, order: AreaOrder, step: str) -> list[str]:
    _new_world(state, order.area, "plantations are laid")
    if not development(state.turn).plantations:
        raise OrderError("plantations may be laid from turn 9 (1536)")
    if "P" not in geography().places[order.area].markers:
        raise OrderError(f"plantations may not be laid in {order.area} (no P marker)")
    holding = state.areas[order.area].holdings.get(seat)
    if not holding or holding.plantations >= holding.colonies:
        raise OrderError(f"each plantation needs a settlement or town of {seat}'s in {order.area}")
    force = state.peek(order.area, seat)
    if not force or not force.count("slave"):
        raise OrderError(f"a plantation is worked by a slave: {seat} has none in {order.area}")
    return []


@order_rule("plantation", _validate_plantation)
def _apply_plantation(state: TNState, seat: str, order: AreaOrder, step: str, ctx: Ctx | None) -> None:
    state.force(order.area, seat).add("slave", -1)
    state.holding(order.area, seat).plantations += 1
    if ctx is not None:
        ctx.say(f"{seat} lays a plantation in {order.area}.", kind="settlement")


@procedure("settlement")
def settlement(ctx: Ctx) -> None:
    carry_out(ctx, ["settle", "town", "plantation"])


# -- D.5 land movement and combat ----------------------------------------------------------------------------------


def _validate_move(state: TNState, seat: str, order: Move, step: str) -> list[str]:
    for area in (order.origin, order.dest):
        _new_world(state, area, "land movement is made")
    if order.dest not in geography().neighbours(order.origin):
        raise OrderError(f"{order.dest} does not border {order.origin}")
    force = state.peek(order.origin, seat)
    for unit, n in order.cargo.units.items():
        if not force or force.count(unit) < n:
            raise OrderError(f"{seat} has {force.count(unit) if force else 0} {unit} in {order.origin}, not {n}")
    for name in order.leaders:
        leader = state.leader(name)
        if not leader or leader.place != order.origin:
            raise OrderError(f"{name} is not in {order.origin}")
    return []


@order_rule("move", _validate_move)
def _apply_move(state: TNState, seat: str, order: Move, step: str, ctx: Ctx | None) -> None:
    src, dst = state.force(order.origin, seat), state.force(order.dest, seat)
    for unit, n in order.cargo.units.items():
        src.add(unit, -n)
        dst.add(unit, n)
    for name in order.leaders:
        leader = state.leader(name)
        if leader:
            leader.place = order.dest
    if ctx is not None:
        ctx.say(f"{seat} marches from {order.origin} to {order.dest}.", kind="movement")


def _validate_tactic(state: TNState, seat: str, order: Tactic, step: str) -> list[str]:
    return []


@order_rule("tactic", _validate_tactic)
def _apply_tactic(state: TNState, seat: str, order: Tactic, step: str, ctx: Ctx | None) -> None:
    if ctx is not None:
        ctx.scratch.setdefault("tactics", {})[f"{seat}|{order.area}"] = order.tactic


def _validate_attack(state: TNState, seat: str, order: Attack, step: str) -> list[str]:
    place = geography().places[order.area]
    if combat.land_pieces(state, seat, order.area, False, holdings=False) == []:
        raise OrderError(f"{seat} has no fighting units in {order.area}")
    if order.target == "natives":
        if place.kind == "indies":
            raise OrderError("there is no combat against the natives in the East Indies (RME 2.3)")
        if order.city:
            if geography().city_areas[order.city] != order.area:
                raise OrderError(f"{order.city} is not in {order.area}")
            city = state.cities[order.city]
            if city.level <= 0 or city.holder:
                raise OrderError(f"{order.city} has no defenders left to fight")
        elif state.areas[order.area].natives - sum(state.areas[order.area].allies.values()) <= 0:
            raise OrderError(f"there are no unallied natives in {order.area}")
    else:
        if order.target == seat:
            raise OrderError("a power cannot attack itself")
        force = state.peek(order.area, order.target)
        holding = state.areas[order.area].holdings.get(order.target)
        if not (force and (force.landed or force.count("mission"))) and not (holding and not holding.empty):
            return [f"{order.target} has nothing in {order.area} now"]
    return []


@order_rule("attack", _validate_attack)
def _apply_attack(state: TNState, seat: str, order: Attack, step: str, ctx: Ctx | None) -> None:
    if ctx is None:
        return
    standing = {}
    if order.tactic:
        standing[seat] = order.tactic
    defender_tactic = ctx.scratch.get("tactics", {}).get(f"{order.target}|{order.area}")
    if defender_tactic:
        standing[order.target] = defender_tactic
    if order.target == "natives":
        area = state.areas[order.area]
        if seat not in area.hostile:
            area.hostile.append(seat)
    ctx.say(f"{seat} attacks {order.target} in {order.area}{' at ' + order.city if order.city else ''}.",
            kind="combat")
    combat.start(ctx, order.area, seat, order.target, city=order.city, standing=standing)


@procedure("land_combat")
def land_combat(ctx: Ctx) -> None:
    """D.5: marches first, then standing tactics, then attacks (fought one by one, round by round)."""
    carry_out(ctx, ["move"])
    carry_out(ctx, ["tactic"])
    carry_out(ctx, ["attack"])

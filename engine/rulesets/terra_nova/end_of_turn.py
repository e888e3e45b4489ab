"""G. End of turn: blight, resources, treasure home, maintenance, claims, victory points, the game's end."""

from __future__ import annotations

from engine.core.errors import OrderError
from engine.rulesets.terra_nova.combat import Piece, take_losses
from engine.rulesets.terra_nova.context import Ctx, order_rule, procedure
from engine.rulesets.terra_nova.execution import carry_out
from engine.rulesets.terra_nova.geography import CSB, EUROPE, INDIES_CSB, geography
from engine.rulesets.terra_nova.indies import goods_value
from engine.rulesets.terra_nova.orders import Vote
from engine.rulesets.terra_nova.reference import development, house, land_results, ships, units
from engine.rulesets.terra_nova.reference import resources as resource_value
from engine.rulesets.terra_nova.state import TNState

# What may be disbanded when the treasury runs dry, in order of preference among equal bills.
DISBAND_UNITS = ("soldier", "cannon", "slave", "mission", "settler", "depleted")
DISBAND_HOLDINGS = (("factories", "factory"), ("forts", "fort"), ("plantations", "plantation"),
                    ("towns", "town"), ("settlements", "settlement"))


@procedure("blight")
def blight(ctx: Ctx) -> None:
    """G.1: 2d6 plus the area's land modifier on the Land Results Table, in every area with colonies."""
    state = ctx.state
    for name in geography().land_areas():
        area = state.areas[name]
        if not any(h.colonies or h.plantations for h in area.holdings.values()):
            continue
        mod = geography().places[name].land_modifier
        result = ctx.lookup(land_results(), "land", name, label=f"blight {name}", whose=f"in {name}", modifier=mod)
        code, what = result.result, str(result.row.data.get("name", ""))
        before = area.blight
        if code == "*":
            area.blight = max(0, area.blight - 1)
        elif code == "A":
            area.blight = max(1, area.blight)
        else:
            area.blight += 1
        if area.blight != before:
            ctx.say(f"{name}: {what or 'good seasons'} — blight {before}→{area.blight}.", kind="blight")
        elif code != "*":
            ctx.say(f"{name}: {what} — blight stays at {area.blight}.", kind="blight")


def income(state: TNState, seat: str) -> dict[str, int]:
    """G.2 resources by area: the Resources table, times the R level (option), doubled in R2 areas."""
    out: dict[str, int] = {}
    scale = state.r_level if state.options.get("resource_scaling", "era") == "era" else 1
    for name, area in state.areas.items():
        place = geography().places[name]
        holding = area.holdings.get(seat)
        if not holding or not place.is_land:
            continue
        blighted = area.blight > 0
        base = (holding.plantations * resource_value("plantation", blighted)
                + holding.settlements * resource_value("settlement", blighted)
                + holding.towns * resource_value("town", blighted))
        value = base * scale * (2 if place.r2 else 1)
        if value:
            out[name] = value
    return out


@procedure("resources")
def resources(ctx: Ctx) -> None:
    for seat in ctx.seats_in_order:
        by_area = income(ctx.state, seat)
        if not by_area:
            continue
        total = sum(by_area.values())
        ctx.state.powers[seat].treasury += total
        detail = ", ".join(f"{a} {v}" for a, v in by_area.items())
        ctx.say(f"{seat} claims {total} florins of resources ({detail}).", to=seat, kind="economy")


@procedure("treasury")
def treasury(ctx: Ctx) -> None:
    """G.3: gold and goods landed in Europe go into the treasury; goods at today's price (RME 5.2)."""
    for seat in ctx.seats_in_order:
        force = ctx.state.peek(EUROPE, seat)
        if not force or not (force.gold or force.goods):
            continue
        goods = sum(goods_value(ctx.state, g) for g in force.goods)
        total = force.gold + goods
        ctx.state.powers[seat].treasury += total
        parts = [f"{force.gold} in gold"] if force.gold else []
        if force.goods:
            parts.append(f"{goods} for {', '.join(g.code for g in force.goods)}")
        ctx.say(f"{seat} banks {total} florins ({'; '.join(parts)}); treasury "
                f"{ctx.state.powers[seat].treasury}.", to=seat, kind="economy")
        ctx.say(f"{seat}'s treasure fleet unloads in Europe.", kind="economy")
        force.gold = 0
        force.goods = []


def upkeep(state: TNState, seat: str) -> int:
    """The power's maintenance bill (Purchase, Maintenance, Capacity, Combat; Ships)."""
    table = units()
    total = 0
    for place, forces in state.forces.items():
        force = forces.get(seat)
        if not force:
            continue
        total += sum(table["settler" if u == "depleted" else u].maintenance * n for u, n in force.units.items())
        total += sum(ships()[k].maintenance * n for k, n in force.ships.items())
        if place in (CSB, INDIES_CSB) and force.ships:
            total += geography().places[place].enter_cost        # "2 to enter / operate in"
    for area in state.areas.values():
        h = area.holdings.get(seat)
        if h:
            total += (h.settlements * table["settlement"].maintenance + h.towns * table["town"].maintenance
                      + h.plantations * table["plantation"].maintenance + h.forts * table["fort"].maintenance
                      + h.factories * table["factory"].maintenance + len(h.missions) * table["mission"].maintenance)
    total += sum(table["captain"].maintenance for ld in state.leaders_of(seat) if ld.kind == "Captain")
    return total


@procedure("maintenance")
def maintenance(ctx: Ctx) -> None:
    """G.4: settlers left in Europe lapse; the bill is paid; what cannot be paid is disbanded."""
    state = ctx.state
    for seat in ctx.seats_in_order:
        europe = state.peek(EUROPE, seat)
        if europe and europe.count("settler"):
            europe.units.pop("settler")
        bill = upkeep(state, seat)
        power = state.powers[seat]
        if bill <= power.treasury:
            power.treasury -= bill
            if bill:
                    ctx.say(f"{seat} pays {bill} florins maintenance (treasury {power.treasury}).", to=seat,
                        kind="economy")
            continue
        short = bill - power.treasury
        power.treasury = 0
        lost = _disband(state, seat, short)
        ctx.say(f"{seat} cannot pay {bill} florins of maintenance; short {short}. Disbanded: {', '.join(lost)}.",
                to=seat, kind="economy")
        ctx.say(f"{seat} cannot meet its maintenance and disbands {', '.join(lost)}.", kind="economy")


def _disband(state: TNState, seat: str, short: int) -> list[str]:
    """Disband as little upkeep as covers the shortfall (the player's best choice); among equal bills,
    factories go first (RME 3.4), then forts, units, ships and colonies."""
    table = units()
    pieces: list[Piece] = []
    for name, area in state.areas.items():
        h = area.holdings.get(seat)
        for attr, key in DISBAND_HOLDINGS[:2]:
            pieces += [Piece(f"{key}|{name}", table[key].maintenance)] * (getattr(h, attr) if h else 0)
    for place, forces in state.forces.items():
        force = forces.get(seat)
        if force:
            for unit in DISBAND_UNITS:
                cost = table["settler" if unit == "depleted" else unit].maintenance
                pieces += [Piece(f"{unit}|{place}", cost)] * force.count(unit)
            for key, n in force.ships.items():
                pieces += [Piece(f"{key}|{place}", ships()[key].maintenance)] * n
    for name, area in state.areas.items():
        h = area.holdings.get(seat)
        for attr, key in DISBAND_HOLDINGS[2:]:
            pieces += [Piece(f"{key}|{name}", table[key].maintenance)] * (getattr(h, attr) if h else 0)
    lost = []
    for piece in take_losses(pieces, short):
        key, place = piece.kind.split("|")
        attrs = {k: a for a, k in DISBAND_HOLDINGS}
        if key in attrs:
            holding = state.holding(place, seat)
            setattr(holding, attrs[key], getattr(holding, attrs[key]) - 1)
        elif key in ships():
            state.force(place, seat).add_ships(key, -1)
        else:
            state.force(place, seat).add(key, -1)
        lost.append(f"{key} ({place})")
    return lost


@procedure("discovery_claims")
def discovery_claims(ctx: Ctx) -> None:
    """G.5: the first power present in an unclaimed New World area claims its discovery (initiative breaks ties)."""
    state = ctx.state
    for name in geography().land_areas():
        area = state.areas[name]
        if area.claimed:
            continue
        for seat in ctx.seats_in_order:
            if state.peek(name, seat) or (area.holdings.get(seat) and not area.holdings[seat].empty):
                area.claimed = seat
                ctx.say(f"{seat} claims the discovery of {name}.", kind="claim")
                break


def controller(state: TNState, area: str) -> str | None:
    """Political control: strictly the most settlements and towns in the area (never where • is printed)."""
    place = geography().places[area]
    if not place.is_land or place.no_control:
        return None
    counts = {p: h.colonies for p, h in state.areas[area].holdings.items() if h.colonies}
    if not counts:
        return None
    best = max(counts.values())
    leaders = [p for p, n in counts.items() if n == best]
    return leaders[0] if len(leaders) == 1 else None


def victory_points(state: TNState, seat: str) -> dict[str, int]:
    vp = house()["victory"]
    out = {"discovery": 0, "settlement": 0, "town": 0, "plantation": 0, "mission": 0, "factory": 0, "control": 0}
    for name, area in state.areas.items():
        if area.claimed == seat:
            out["discovery"] += vp["discovery"]
        h = area.holdings.get(seat)
        if h:
            out["settlement"] += h.settlements * vp["settlement"]
            out["town"] += h.towns * vp["town"]
            out["plantation"] += h.plantations * vp["plantation"]
            out["mission"] += len(h.missions) * vp["mission"]
            out["factory"] += h.factories * vp["factory"]
        if controller(state, name) == seat:
            out["control"] += vp["control"]
    return out


@procedure("victory_points")
def victory_points_step(ctx: Ctx) -> None:
    """G.6: the standings (house scoring, without treasuries, which stay secret until the end)."""
    for seat in ctx.state.seats:
        ctx.state.powers[seat].vp = sum(victory_points(ctx.state, seat).values())
    ranked = sorted(ctx.state.seats, key=lambda s: -ctx.state.powers[s].vp)
    ctx.say("Victory points: " + ", ".join(f"{s} {ctx.state.powers[s].vp}" for s in ranked) + ".", kind="victory")


def _validate_vote(state: TNState, seat: str, order: Vote, step: str) -> list[str]:
    if not development(state.turn).endgame_votes:
        raise OrderError("endgame votes begin on turn 17 (1576)")
    return []


@order_rule("vote", _validate_vote)
def _apply_vote(state: TNState, seat: str, order: Vote, step: str, ctx: Ctx | None) -> None:
    state.powers[seat].vote_end = order.end


@procedure("endgame")
def endgame(ctx: Ctx) -> None:
    """G.7: a unanimous vote ends the game (option); from turn 21 a die ends it (option `game_end_on`)."""
    state = ctx.state
    carry_out(ctx, ["vote"])
    if ctx.orders and all(state.powers[s].vote_end for s in state.seats):
        ctx.say("Every power votes to end the game.", kind="end")
        finish(ctx)
        return
    if development(state.turn).end_roll:
        target = int(state.options.get("game_end_on", 6))
        roll = ctx.roll(1, 6, "game-end", label="game end")
        ends = roll.total >= target
        ctx.annotate(roll, table=f"Game end ({target}+ ends)", result="the game ends" if ends else "play on")
        if ends:
            finish(ctx)


def finish(ctx: Ctx) -> None:
    """Final scores: the standings plus treasury points (option `treasury_vp`); treasuries are revealed."""
    state = ctx.state
    per = int(state.options.get("treasury_vp", 100))
    final = {}
    for seat in state.seats:
        bonus = state.powers[seat].treasury // per if per else 0
        final[seat] = sum(victory_points(state, seat).values()) + bonus
        state.powers[seat].vp = final[seat]
    ranked = sorted(state.seats, key=lambda s: -final[s])
    top = [s for s in ranked if final[s] == final[ranked[0]]]
    state.result = (f"{' and '.join(top)} {'wins' if len(top) == 1 else 'share the victory'} with {final[ranked[0]]} "
                    "victory points.")
    ctx.say("**The game ends.** Final scores: " + ", ".join(
        f"{s} {final[s]} (treasury {state.powers[s].treasury})" for s in ranked) + ". " + state.result, kind="end")
    state.ended = True

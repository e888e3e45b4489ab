"""Order handlers for munitions and heavy machinery export (LotE 7.5): handing export units to the buyer, and
fitting them to national units (Table 7-3).

Export units are built with `build 2 (ha) at <place>` (builds.py: the usual GP and yard capacity, no NFP).
They travel at half the cargo of the regular unit (ships sail with a ferry crew). Handed over where the
seller's army stands in the buyer's land or beside one of its armies, they join the buyer's army there.
Fitting takes 6 AP of a leader; each export unit upgrades one national unit, except that an export
steam warship is crewed by as many warships as its NFP build cost (the 7.5 note).
"""

from __future__ import annotations

from engine.core.errors import RulesError
from engine.core.orders import Verdict
from engine.rulesets.lote_modern import accounts, reach
from engine.rulesets.lote_modern.context import (
    Ctx,
    Outcome,
    Refused,
    citing,
    find_army,
    find_leader,
    nation_named,
    refuse_if,
)
from engine.rulesets.lote_modern.orders import Export, Fit
from engine.rulesets.lote_modern.rules import export, military
from engine.rulesets.lote_modern.rules.tech import Culture
from engine.rulesets.lote_modern.sheet import Army, Nation, fold
from engine.rulesets.lote_modern.text import number
from engine.rulesets.lote_modern.world import CampaignMap

RULE = "LotE 7.5 Munitions and Heavy Machinery Export"
STEAM_WARSHIPS = ("ca", "bb", "dn", "cv")


def _export_unit(code: str) -> military.Unit:
    """The export unit's chart line: the Industrial chart, where every Table 7-3 unit is built."""
    return military.unit(code, Culture.INDUSTRIAL_ONE)


def cargo_text(code: str, count: int) -> str:
    unit = _export_unit(code)
    if unit.cargo is None:
        return "they sail with a ferry crew"
    return f"{number(export.export_cargo(unit.cargo) * count)} cargo to carry (half of {unit.code.lower()}'s " \
           f"{unit.cargo} each)"


def receives(world: CampaignMap, buyer: Nation, place: str) -> Army | None:
    """The buyer's army that takes delivery at a place: one there, else a new one where the buyer holds the place
    (None when the buyer has neither land nor an army there)."""
    here = [a for a in buyer.armies if fold(a.location) == fold(place)]
    if here:
        return here[0]
    if accounts.holding_of(buyer, world, place) is None:
        return None
    army = Army(f"{place} Arsenal", place, "G")
    buyer.armies.append(army)
    return army


def hand_over(ctx: Ctx, o: Export) -> Outcome:
    n = ctx.n
    if not export.exportable(o.code):
        raise Refused(f"({o.code}) is not an export unit (Table 7-3)")
    buyer = nation_named(ctx, o.nation, besides=n)
    name = find_army(ctx, o.army)
    army = n.army(name)
    assert army is not None
    label = f"({o.code})"
    # The buyer's lands and armies are its secret: they are looked at only when the turn is processed.
    if ctx.apply and not (accounts.holding_of(buyer, ctx.world, army.location) is not None
                          or any(fold(a.location) == fold(army.location) for a in buyer.armies)):
        raise Refused(f"{buyer.name} has neither land nor an army at {army.location} to take delivery")
    ctx.take_units(name, label, o.count)
    if ctx.apply:
        got = receives(ctx.world, buyer, army.location)
        assert got is not None
        got.units[label] = got.units.get(label, 0) + o.count
        ctx.report(f"{o.count}{label} of {name} handed to {buyer.name} at {army.location}.")
        ctx.tell(buyer.name, f"{n.name} delivered {o.count}{label} at {army.location}; they are in {got.name}. Fit "
                             f"them with `fit {o.count} {label} to <unit> in \"{got.name}\"` (Table 7-3, 6 AP).")
    row = next(r for r in export.conversions() if o.code in r.exports)
    return Outcome(Verdict.ACCEPTED, f"{o.count}{label} to {buyer.name} at {army.location}, if it holds land or an "
                                     f"army there; they upgrade its {row.printed_turns} into {row.printed_into} "
                                     f"(Table 7-3); {cargo_text(o.code, o.count)}")


def _at_port(world: CampaignMap, place: str) -> bool:
    """A Port City, or a Port Area: a coastal region containing a port city (LotE 7.5)."""
    key = world.canonical(place)
    if key is None or key in world.zones:
        return False
    if key in world.cities:
        return world.cities[key].port
    return world.regions[key].coastal and any(c.port for c in world.cities_in(key))


def fit(ctx: Ctx, o: Fit) -> Outcome:
    n = ctx.n
    with citing("Table 7-3"):
        new_code = export.upgrade(o.code, o.unit)
    name = find_army(ctx, o.army)
    army = n.army(name)
    assert army is not None
    leader = find_leader(ctx, o.leader) if o.leader else (n.leader(army.leader) if army.leader else None)
    if leader is None:
        raise Refused(f"name the leader who fits them (`by <leader>`): {name} has none")
    with_army = fold(army.leader) == fold(leader.name) or bool(
        leader.location and ctx.world.canonical(leader.location) is not None
        and reach.node(ctx.world, leader.location) == reach.node(ctx.world, army.location))
    if not with_army:
        where = leader.location or "an unknown place"
        raise Refused(f"{leader.name} is at {where}, not with {name} at {army.location}")
    ship = _ship(n, o.unit)
    refuse_if(export.check_upgrade(o.code, o.unit, ship=ship, at_port=_at_port(ctx.world, army.location)), RULE)
    crew = export.crew_warships(_export_unit(o.code).nfp or 1) if o.code in STEAM_WARSHIPS else 1
    national = o.count * crew
    label = f"({o.code})"
    sources = [a.name for a in n.armies if fold(a.location) == fold(army.location)]
    held = sum(ctx.budget.units.get(a, {}).get(label, 0) for a in sources)
    if held < o.count:
        raise Refused(f"your armies at {army.location} hold {held}{label}, not {o.count}")
    ap = export.upgrade_cost().ap
    ctx.use_ap(leader.name, ap)
    ctx.take_units(name, o.unit, national)
    left = o.count
    for source in sources:
        take = min(left, ctx.budget.units[source].get(label, 0))
        if take:
            ctx.take_units(source, label, take)
            left -= take
    if ctx.apply:
        army.units[new_code] = army.units.get(new_code, 0) + o.count
        ctx.report(f"{leader.name} fitted {o.count}{label} to {national}{o.unit} of {name}: now {o.count}{new_code} "
                   "(Table 7-3).")
    crewed = f", {crew} warships crewing each" if crew > 1 else ""
    return Outcome(Verdict.ACCEPTED, f"{national}{o.unit} of {name} become {o.count}{new_code}{crewed} (Table 7-3): "
                                     f"{ap} AP of {leader.name}; they fight with your own Quality Rating (LotE 7.5)")


def _ship(n: Nation, code: str) -> bool:
    try:
        return military.unit(code, accounts.culture(n)).ship
    except RulesError:
        return code in ("w", "t")

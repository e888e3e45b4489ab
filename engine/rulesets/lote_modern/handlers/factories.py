"""Factories and yards after they are built: moving them (LotE 3.6.4), bombarding them (3.6.6, an order whose
damage the GM rules) and capturing them (3.6.5, a GM action once the GM has ruled the place taken)."""

from __future__ import annotations

import re

from engine.core.errors import IllegalAction, RulesError
from engine.core.events import Event
from engine.core.orders import Verdict
from engine.core.visibility import GM_ONLY, Visibility
from engine.rulesets.lote_modern import accounts, reach, statuses
from engine.rulesets.lote_modern.context import (
    Ctx,
    Outcome,
    Refused,
    find_army,
    find_leader,
    holding_at,
    place_named,
    refuse_if,
)
from engine.rulesets.lote_modern.orders import FACTORY_ORDERS, Bombard, MoveFactory
from engine.rulesets.lote_modern.rules import industry, military, research
from engine.rulesets.lote_modern.sheet import CityHolding, Nation, RegionHolding
from engine.rulesets.lote_modern.state import AuditEntry, GameState
from engine.rulesets.lote_modern.text import number

KINDS = {"airship": industry.FactoryKind.AIRSHIP, "steamship": industry.FactoryKind.STEAMSHIP,
         "submarine": industry.FactoryKind.SUBMARINE, "industry": industry.FactoryKind.MERCANTILE}
NAMES = {"airship": "Airship Factory", "steamship": "Steamship Yard", "submarine": "Submarine Yard",
         "industry": "Mercantile Industry Site", "generic": "generic yard"}


# -- moving (3.6.4) ------------------------------------------------------------------------------------------
def move_factory(ctx: Ctx, o: MoveFactory) -> Outcome:
    n, world, state = ctx.n, ctx.world, ctx.state
    kind = FACTORY_ORDERS[o.kind]
    source, holding = holding_at(ctx, o.source)
    have = holding.factories.get(kind, 0)
    if o.points > have:
        hidden = " (hidden ones are dug in and stay)" if holding.hidden.get(kind) else ""
        raise Refused(f"{source} has {have} {NAMES[kind]} point{'s' if have != 1 else ''}, not {o.points}{hidden}")
    key = place_named(ctx, o.destination, ("city",), why="a factory moves to a controlled city (LotE 3.6.4)")
    target = n.city(key)
    controlled = target is not None and (statuses.is_merchant(target.status) or statuses.get(target.status).tax > 0)
    leader = None
    if o.leader:
        leader = find_leader(ctx, o.leader)
    land = reach.land_ap(state, n, source, key)
    problems = industry.factory_move_problems(KINDS[kind], to_city=True, controlled=controlled,
                                              land_ap=int(land) if land is not None and leader is None else 0,
                                              hbz_range=n.hbz_range, by_sea_with_leader=leader is not None)
    refuse_if(problems, "LotE 3.6.4")
    if leader is None and land is None:
        raise Refused(f"no land route joins {source} and {key}: a leader carries the factory by sea (`by <leader>`)")
    assert target is not None
    city = world.cities[key]
    cap = industry.max_factory_points(city.gpv, city=True)
    built = sum(target.factories.values()) + sum(target.hidden.values())
    building = sum(p.level for p in n.projects if p.kind == "factory" and not p.done and p.location == key)
    if built + building + o.points > cap:
        raise Refused(f"{key} holds at most {cap} factory and yard points (Table 3-10); it has {built} built and "
                      f"{building} under way")
    trip = ""
    if leader is not None:
        ap = reach.ap_between(state, n, leader.location or source, source) or 0.0
        ap += reach.ap_between(state, n, source, key) or 0.0
        ctx.use_ap(leader.name, max(1, round(ap)))
        trip = f"; {leader.name} carries it ({max(1, round(ap))} AP)"
    pool = accounts.GENERIC if kind == "industry" else kind
    if (source, pool) in ctx.budget.yard:
        ctx.use_yard(source, pool, o.points, f"moving {o.points} {NAMES[kind]} points (crated, they build nothing)")
    cost = industry.factory_move(o.points, pay_in_nfp=o.nfp)
    ctx.spend(cost.gp, cost.nfp, what=f"moving {o.points} {NAMES[kind]} points")
    if ctx.apply:
        holding.factories[kind] = have - o.points
        if not holding.factories[kind]:
            del holding.factories[kind]
        target.factories[kind] = target.factories.get(kind, 0) + o.points
        ctx.report(f"{o.points} {NAMES[kind]} points moved from {source} to {key} ({number(cost.gp)} GP, "
                   f"{cost.nfp} NFP).")
    usable = city.region in ctx.hbz or (n.is_house and statuses.is_merchant(target.status)
                                        and statuses.get(target.status).rank >= 4)
    verdict = Verdict.ACCEPTED if usable else Verdict.WARNING
    warn = "" if usable else f"; {key} is outside your Homeland Build Zone, where it gives no capacity (LotE 3.6.4)"
    return Outcome(verdict, f"{o.points} {NAMES[kind]} points from {source} to {key}: {number(cost.gp)} GP, "
                            f"{cost.nfp} NFP (LotE 3.6.4); {cost.cargo} cargo by rail or sea; they build nothing this "
                            f"turn{trip}{warn}")


# -- bombarding (3.6.6) --------------------------------------------------------------------------------------
def _bombarding(n: Nation, units: dict[str, int]) -> dict[str, tuple[int, float]]:
    """The army's units that attack a factory: airships, heavy artillery and ships offshore, with their Siege."""
    out = {}
    for code, count in units.items():
        if code.startswith("("):
            continue
        try:
            unit = military.unit(code, accounts.culture(n))
        except RulesError:
            continue
        if (unit.siege or 0) > 0 and ("Airship Yard" in unit.build_at or (unit.heavy and unit.artillery)
                                      or unit.ship):
            out[code] = (count, float(unit.siege or 0))
    return out


def bombard(ctx: Ctx, o: Bombard) -> Outcome:
    n, world, state = ctx.n, ctx.world, ctx.state
    key = place_named(ctx, o.place)
    if o.target in ("city-yard", "mercantile-industry") and key not in world.cities:
        raise Refused(f"a {o.target.replace('-', ' ')} stands in a city")
    name = find_army(ctx, o.army)
    army = n.army(name)
    assert army is not None
    here = reach.node(world, army.location)
    offshore = set(world.cities[key].zones if key in world.cities else world.regions[key].coasts)
    ashore = here == reach.node(world, key)
    units = {code: c for code, c in _bombarding(n, army.units).items()
             if ashore or (here in offshore and military.unit(code, accounts.culture(n)).ship)}
    if not units:
        raise Refused(f"{name} has no airships, heavy artillery or ships offshore at {key} to bombard it "
                      "(LotE 3.6.6)")
    strength = sum(count * siege for count, siege in units.values())
    kind = "generic" if o.target == "city-yard" else FACTORY_ORDERS[o.target]
    defence = industry.factory_defence(None if kind == "generic" else KINDS[kind])
    force = " ".join(f"{count}{code}" for code, (count, _) in units.items())
    if ctx.apply:
        targets = [(m.name, pts) for m in state.nations.values() if m is not n
                   and (h := accounts.holding_of(m, world, key)) is not None
                   and (pts := _points(world, h, key, kind))]
        found = "; ".join(f"{who} ({pts} point{'s' if pts != 1 else ''})" for who, pts in targets) or \
            f"no {NAMES[kind]} of another nation stands there: the bombardment finds nothing"
        roll = ctx.d100(f"{name}/bombard/{key}")
        edit_hint = "; ".join(f"`edit {who} {'city' if key in world.cities else 'region'}[{key}]."
                              f"{kind if kind != 'generic' else 'pwb'} -<points>`" for who, _ in targets
                              if kind != "generic")
        ctx.ruling("bombardment", f"{n.name}: {name} ({force}) bombards the {NAMES[kind]} at {key}: Siege strength "
                                  f"{number(strength)}, Siege QR {n.qr.get('siege', 0)}, against a passive Siege "
                                  f"strength of {defence} (Table 3-12). Target: {found}. Rule the damage (Basic "
                                  f"Rulebook siege combat){'; ' + edit_hint if edit_hint else ''}.",
                   rolls=[f"d100 for the GM: {roll}"] if roll is not None else [],
                   tables=["LotE 3.6.6 Attacking a Factory or Yard", "Table 3-12"],
                   parties=[n.name, *(who for who, _ in targets)], brief=f"{n.name}: {name} bombards {key}")
        ctx.report(f"{name} bombards the {NAMES[kind]} at {key} (Siege strength {number(strength)}).")
    return Outcome(Verdict.FLAGGED, f"{name} bombards the {NAMES[kind]} at {key} with {force}: Siege strength "
                                    f"{number(strength)} and your Siege QR {n.qr.get('siege', 0)} against its passive "
                                    f"{defence} (Table 3-12); the GM rules the damage (LotE 3.6.6)")


def _points(world: object, holding: RegionHolding | CityHolding, key: str, kind: str) -> int:
    if kind == "generic":
        return 1 if isinstance(holding, CityHolding) and statuses.get(holding.status).tax > 0 else 0
    return holding.factories.get(kind, 0) + holding.hidden.get(kind, 0)


# -- capturing (3.6.5): a GM action ------------------------------------------------------------------------------
CAPTURE = re.compile(r"^capture\s+(?P<place>.+?)\s+by\s+(?P<nation>.+?)(?P<surprise>\s+surprise)?$", re.IGNORECASE)
CAPTURE_HELP = "capture <place> by <nation> [surprise]"


def capture(state: GameState, text: str) -> list[Event]:
    """`capture Lyon by England [surprise]`: the factory and yard points of other nations at a place the captor now
    holds: half destroyed (rounded down) unless taken by surprise, the rest the captor's (LotE 3.6.5)."""
    m = CAPTURE.match(" ".join(text.split()))
    if not m:
        raise IllegalAction(f"write `{CAPTURE_HELP}`")
    world = state.world
    key = world.canonical(m["place"].strip('"'))
    if key is None or key in world.zones:
        raise IllegalAction(f"`{m['place']}` is not a region or city on the map")
    captor = state.nation(m["nation"].strip('"'))
    mine = accounts.holding_of(captor, world, key)
    if mine is None:
        entry = "city" if key in world.cities else "region"
        raise IllegalAction(f"{captor.name} does not hold {key}: set its status there first "
                            f"(`edit {captor.name} {entry}[{key}].status =<code>`)")
    surprise = bool(m["surprise"])
    taken: list[tuple[str, str, int, int]] = []
    for other in state.nations.values():
        holding = accounts.holding_of(other, world, key)
        if other is captor or holding is None:
            continue
        for table, mine_table in ((holding.factories, mine.factories), (holding.hidden, mine.hidden)):
            for kind, points in list(table.items()):
                left = industry.factory_points_after_capture(points, surprise=surprise)
                del table[kind]
                if left:
                    mine_table[kind] = mine_table.get(kind, 0) + left
                taken.append((other.name, kind, points, left))
    if not taken:
        raise IllegalAction(f"no other nation has factory or yard points at {key}")
    region = world.region_of(key).name
    usable = industry.captured_capacity_usable(within_hbz=region in accounts.hbz(state, captor),
                                               friendly=accounts.is_friendly(mine.status),
                                               slave_economy=captor.economy == "slave")
    parts = [f"{who}'s {points} {NAMES[kind]} point{'s' if points != 1 else ''}: {points - left} destroyed, {left} "
             f"taken" for who, kind, points, left in taken]
    assist = sum(research.assistance_from_captured_factories(left) for _, _, _, left in taken)
    note = (f"{'usable by ' + captor.name if usable else 'not usable until ' + key + ' is Friendly and in the HBZ'}"
            f"; airship factories and industry sites may be moved (LotE 3.6.4)"
            + (f"; worth {assist} NFP of Technical Assistance toward the matching R&D (LotE 4.4)" if assist else ""))
    line = f"Capture of {key} by {captor.name}{' by surprise' if surprise else ''}: {'; '.join(parts)} ({note})."
    state.audit.append(AuditEntry(state.turn, captor.name, f"{text.strip()} [{'; '.join(parts)}]"))
    losers = sorted({who for who, *_ in taken})
    return [Event(line + " (LotE 3.6.5)", GM_ONLY, "edit", {"nation": captor.name, "place": key}),
            Event(line, Visibility.to(captor.name, *losers), "edit", {"nation": captor.name, "place": key})]

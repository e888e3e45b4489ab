"""GM edits of a sheet's entries: holdings, armies, leaders, projects, routes, conduits, rails, the bank,
loans, monopolies and mapping (the paths of `edits.py`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from engine.core.errors import IllegalAction
from engine.rulesets.lote_modern import statuses
from engine.rulesets.lote_modern.edit_values import (
    ARMY_FIELDS,
    BANK_FIELDS,
    CARTEL_FIELDS,
    CONDUIT_FIELDS,
    HOLDING_FIELDS,
    INT,
    LEADER_FIELDS,
    LOAN_FIELDS,
    MAP_POOL_FIELDS,
    MONOPOLY_FIELDS,
    PROJECT_FIELDS,
    RAIL_FIELDS,
    ROUTE_FIELDS,
    Box,
    Change,
    Edit,
    combine,
    entry_field,
    is_removal,
    read_value,
    removed,
    set_field,
    show,
)
from engine.rulesets.lote_modern.rules.banking import new_bank
from engine.rulesets.lote_modern.sheet import (
    ROUTE_KINDS,
    Army,
    CityHolding,
    Conduit,
    Leader,
    Nation,
    Project,
    RailSegment,
    RegionHolding,
    TradeRoute,
    fold,
    format_units,
)
from engine.rulesets.lote_modern.state import GameState, Monopoly
from engine.rulesets.lote_modern.world import MercPool


def _region(state: GameState, n: Nation, key: str, field: str | None, edit: Edit) -> Change:
    name = state.world.region(key).name if state.world.is_region(key) else None
    if name is None:
        raise IllegalAction(f"no region `{key}` on the map")
    holding = n.region(name)
    if is_removal(edit, field):
        if holding is None:
            raise IllegalAction(f"{n.name} holds no region {name}")
        n.regions.remove(holding)
        return removed(edit, f"{name} ({holding.status})")
    if field == "status" and statuses.parse(edit.value) in statuses.CITY_ONLY:
        raise IllegalAction(f"`{edit.value}` exists only in a city (LotE 7.2)")
    if holding is None:
        if field != "status" or edit.op != "=":
            raise IllegalAction(f"{n.name} does not hold {name}: set its status first (region[{name}].status =F)")
        holding = RegionHolding(name, "")
        n.regions.append(holding)
    return entry_field(state, n, holding, field, HOLDING_FIELDS, edit)


def _city(state: GameState, n: Nation, key: str, field: str | None, edit: Edit) -> Change:
    if not state.world.is_city(key):
        raise IllegalAction(f"no city `{key}` on the map")
    name = state.world.city(key).name
    holding = n.city(name)
    if is_removal(edit, field):
        if holding is None:
            raise IllegalAction(f"{n.name} holds no city {name}")
        n.cities.remove(holding)
        return removed(edit, f"{name} ({holding.status})")
    if holding is None:
        if field != "status" or edit.op != "=":
            raise IllegalAction(f"{n.name} does not hold {name}: set its status first (city[{name}].status =T)")
        holding = CityHolding(name, "")
        n.cities.append(holding)
    return entry_field(state, n, holding, field, HOLDING_FIELDS, edit)


def _army(state: GameState, n: Nation, key: str, field: str | None, edit: Edit) -> Change:
    army = n.army(key)
    if is_removal(edit, field):
        if army is None:
            raise IllegalAction(f"{n.name} has no army `{key}`")
        n.armies.remove(army)
        return removed(edit, f"{army.name} ({format_units(army.units)})")
    if army is None:
        if field != "location" or edit.op != "=":
            raise IllegalAction(f"{n.name} has no army `{key}`: create it by setting its location "
                                f"(army[{key}].location =<place>)")
        army = Army(key, "")
        n.armies.append(army)
    if field == "leader" and edit.value.lower() != "none" and n.leader(edit.value) is None:
        raise IllegalAction(f"{n.name} has no leader `{edit.value}`")
    return entry_field(state, n, army, field, ARMY_FIELDS, edit)


def _leader(state: GameState, n: Nation, key: str, field: str | None, edit: Edit) -> Change:
    leader = n.leader(key)
    if is_removal(edit, field):
        if leader is None:
            raise IllegalAction(f"{n.name} has no leader `{key}`")
        n.leaders.remove(leader)
        for army in n.armies:
            if fold(army.leader) == fold(leader.name):
                army.leader = ""
        return removed(edit, leader.name)
    if leader is None:
        leader = Leader(key)
        n.leaders.append(leader)
    if field == "title" and edit.value.lower() == "king" and any(x.title == "king" and x is not leader
                                                                 for x in n.leaders):
        raise IllegalAction(f"{n.name} already has a king: give him another title first")
    return entry_field(state, n, leader, field, LEADER_FIELDS, edit)


def _project(state: GameState, n: Nation, key: str, field: str | None, edit: Edit) -> Change:
    project = next((p for p in n.projects if fold(p.id) == fold(key)), None)
    if is_removal(edit, field):
        if project is None:
            raise IllegalAction(f"{n.name} has no project `{key}`")
        n.projects.remove(project)
        return removed(edit, f"{project.id} {project.name}")
    if project is None:
        if field != "kind" or edit.op != "=":
            raise IllegalAction(f"{n.name} has no project `{key}`: create it by setting its kind "
                                f"(project[{key}].kind =rd)")
        project = Project(key, "other", key)
        n.projects.append(project)
    return entry_field(state, n, project, field, PROJECT_FIELDS, edit)


def _route(state: GameState, n: Nation, key: str, field: str | None, edit: Edit) -> Change:
    route = n.route(key)
    if is_removal(edit, field):
        if route is None:
            raise IllegalAction(f"{n.name} has no trade route with `{key}`")
        n.routes.remove(route)
        return removed(edit, f"route with {route.partner}")
    if route is None:
        partner, _, kind = key.partition(":")
        kind = kind.strip().lower() or "sea"
        if kind not in ROUTE_KINDS:
            raise IllegalAction(f"`{kind}` is not a kind of route ({', '.join(ROUTE_KINDS)})")
        route = TradeRoute(partner.strip(), kind)
        n.routes.append(route)
    return entry_field(state, n, route, field, ROUTE_FIELDS, edit)


def _pair(key: str) -> tuple[str, str]:
    a, sep, b = key.partition("-")
    if not sep or not a.strip() or not b.strip():
        raise IllegalAction(f"`{key}`: name both ends, like London-Gibraltar")
    return a.strip(), b.strip()


def _conduit(state: GameState, n: Nation, key: str, field: str | None, edit: Edit) -> Change:
    a, b = _pair(key)
    conduit = n.conduit(a, b)
    if is_removal(edit, field):
        if conduit is None:
            raise IllegalAction(f"{n.name} has no conduit {key}")
        n.conduits.remove(conduit)
        return removed(edit, f"conduit {conduit.key}")
    if conduit is None:
        conduit = Conduit(state.world.city(a).name, state.world.city(b).name)
        n.conduits.append(conduit)
    return entry_field(state, n, conduit, field, CONDUIT_FIELDS, edit)


def _rail(state: GameState, n: Nation, key: str, field: str | None, edit: Edit) -> Change:
    a, b = _pair(key)
    ra, rb = state.world.region(a).name, state.world.region(b).name
    seg = next((s for s in n.railroads if {s.a, s.b} == {ra, rb}), None)
    if is_removal(edit, field):
        if seg is None:
            raise IllegalAction(f"{n.name} has no railroad {ra}-{rb}")
        n.railroads.remove(seg)
        return removed(edit, f"railroad {ra}-{rb}")
    if seg is None:
        if not state.world.adjacent(ra, rb):
            raise IllegalAction(f"{ra} and {rb} do not border each other")
        seg = RailSegment(ra, rb, 0)
        n.railroads.append(seg)
    return entry_field(state, n, seg, field, RAIL_FIELDS, edit)


def edit_bank(state: GameState, n: Nation, key: str, edit: Edit) -> Change:
    """Bank fields; rates are edited in percent. Setting base_capacity on a nation without a bank opens one."""
    if key not in BANK_FIELDS:
        raise IllegalAction(f"bank fields: {', '.join(BANK_FIELDS)}")
    spec = BANK_FIELDS[key]
    bank = n.bank
    if bank is None:
        if key != "base_capacity" or edit.op != "=":
            raise IllegalAction(f"{n.name} has no bank: create it with bank.base_capacity =<GP>")
        bank = new_bank(n.name, 0.0, catholic="catholic" in n.religion.casefold())
    shown: dict[str, Any] = {
        "base_capacity": bank.base_capacity, "investment": bank.investment,
        "internal_rate": round(bank.internal_rate * 100), "external_rate": round(bank.external_rate * 100),
        "status": "open" if bank.open else "closed", "closed_to": sorted(bank.closed_to),
        "rebuild_paid": bank.rebuild_paid, "pre_collapse_capacity": bank.pre_collapse_capacity,
        "collapsed_turn": bank.collapsed_turn,
    }
    old = shown[key]
    new = combine(old, edit.op, read_value(state, n, spec, edit.value), spec)
    if key in ("internal_rate", "external_rate"):
        bank = replace(bank, **{key: new / 100})
    elif key == "status":
        bank = replace(bank, open=new == "open")
    elif key == "closed_to":
        bank = replace(bank, closed_to=frozenset(state.nation(x).name for x in new))
    else:
        bank = replace(bank, **{key: new})
    n.bank = bank
    return Change(edit, show(old, spec), show(new, spec))


def _loan(state: GameState, n: Nation, key: str, field: str | None, edit: Edit) -> Change:
    for group in (state.loans, state.defaults):
        for i, loan in enumerate(group):
            if fold(loan.id) != fold(key.strip().lstrip("#")) or n.name not in (loan.lender, loan.borrower):
                continue
            if is_removal(edit, field):
                del group[i]
                return removed(edit, f"loan {loan.id}")
            if field is None or field not in LOAN_FIELDS:
                raise IllegalAction(f"fields here: {', '.join(LOAN_FIELDS)}")
            spec = LOAN_FIELDS[field]
            old = round(loan.rate * 100) if field == "rate" else getattr(loan, field)
            new = combine(old, edit.op, read_value(state, n, spec, edit.value), spec)
            group[i] = replace(loan, **{field: new / 100 if field == "rate" else new})
            return Change(edit, show(old, spec), show(new, spec))
    raise IllegalAction(f"{n.name} is not a party to a loan `{key}`")


def _monopoly(state: GameState, n: Nation, key: str, field: str | None, edit: Edit) -> Change:
    mono = next((m for m in state.monopolies if str(m.id) == key.strip().lstrip("#")), None)
    if mono is None or n.name not in (mono.house, mono.nation):
        raise IllegalAction(f"{n.name} is not a party to a monopoly #{key}")
    if is_removal(edit, field):
        state.monopolies.remove(mono)
        return removed(edit, f"monopoly #{mono.id} ({mono.good or 'unnamed'} in {mono.nation})")
    return entry_field(state, n, mono, field, MONOPOLY_FIELDS, edit)


def _cartel(state: GameState, n: Nation, key: str, field: str | None, edit: Edit) -> Change:
    """A cartel arrangement (LotE 7.1.3), edited from either party's sheet; `cartel[3].income =12` assesses it."""
    found = next((c for c in state.cartels if str(c.id) == key.strip().lstrip("#")), None)
    if found is None or n.name not in (found.house, found.nation):
        raise IllegalAction(f"{n.name} is not a party to a cartel #{key}")
    if is_removal(edit, field):
        state.cartels.remove(found)
        return removed(edit, f"cartel #{found.id} ({found.nation}'s trade with {found.target})")
    return entry_field(state, n, found, field, CARTEL_FIELDS, edit)


def edit_pool(state: GameState, key: str, field: str, edit: Edit) -> Change:
    """A mercenary pool of the map (LotE 7.1.4): `map pool[Swiss].units =20i 5c`; setting a field of a pool the
    map does not have creates it."""
    pool = state.world.pool(key)
    if field not in MAP_POOL_FIELDS:
        raise IllegalAction(f"fields here: {', '.join(MAP_POOL_FIELDS)}")
    if pool is None:
        if edit.op != "=":
            raise IllegalAction(f"no mercenary pool `{key}`: create it by setting a field (pool[{key}].units =20i)")
        if state.world.canonical(key) is not None:
            raise IllegalAction(f"`{key}` is already a place on the map")
        pool = MercPool(" ".join(key.split()))
        state.world.pools[pool.name] = pool
    if field == "regions":
        names = [state.world.region(r).name for r in read_value(state, None, MAP_POOL_FIELDS[field], edit.value)]
        old = list(pool.regions)
        new = combine(old, edit.op, names, MAP_POOL_FIELDS[field])
        pool.regions = tuple(new)
        return Change(edit, show(old, MAP_POOL_FIELDS[field]), show(new, MAP_POOL_FIELDS[field]))
    if field == "location" and edit.value.lower() != "none":
        state.world.region_of(edit.value)
    return set_field(state, None, pool, field, MAP_POOL_FIELDS[field], edit)


def edit_monopolies(state: GameState, n: Nation, edit: Edit) -> Change:
    if not n.is_house:
        raise IllegalAction("monopolies are added on the Merchant House that holds them (LotE 7.1.1)")
    nation_name, _, good = edit.value.partition(":")
    nation = state.nation(nation_name)
    if edit.op == "+":
        mono = Monopoly(state.take_id(), n.name, nation.name, good.strip())
        state.monopolies.append(mono)
        return Change(edit, "none", f"monopoly #{mono.id} ({mono.good or 'unnamed'} in {nation.name})")
    if edit.op == "-":
        found = next((m for m in state.monopolies if m.house == n.name and m.nation == nation.name
                      and fold(m.good) == fold(good)), None)
        if found is None:
            raise IllegalAction(f"{n.name} holds no monopoly `{good.strip()}` in {nation.name}")
        state.monopolies.remove(found)
        return removed(edit, f"monopoly #{found.id}")
    raise IllegalAction("monopolies +<nation>:<good> adds one; -<nation>:<good> removes it")


def _mapping(state: GameState, n: Nation, key: str, field: str | None, edit: Edit) -> Change:
    """Mapping points toward a sea zone (LotE 5.2.2): at its requirement the zone joins the nation's charts."""
    zone = state.world.zone(key)
    if field is not None:
        raise IllegalAction(f"write mapping[{zone.name}] +1")
    holder = Box(n.mapping.get(zone.name, 0))
    change = set_field(state, n, holder, "value", INT, edit)
    n.mapping[zone.name] = holder.value
    if zone.mapping and holder.value >= zone.mapping and zone.name not in n.charts:
        n.charts.append(zone.name)
        return Change(edit, change.before, f"{change.after} (charted)")
    return change


ENTRIES: dict[str, Callable[[GameState, Nation, str, str | None, Edit], Change]] = {
    "region": _region, "city": _city, "army": _army, "leader": _leader, "project": _project, "route": _route,
    "conduit": _conduit, "rail": _rail, "loan": _loan, "monopoly": _monopoly, "mapping": _mapping,
    "cartel": _cartel,
}



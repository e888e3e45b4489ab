"""Audited GM edits of a sheet or the map, in one canonical text form.

    edit England treasury.gp +50 "Spanish silver"
    edit England region[Kent].status =F "pacified"
    edit England army[Home Army].units +5i 2c "levies raised"
    edit Hansa monopolies +Spain:wool "granted by treaty"
    edit map city[London].gpv +1 "the city grows"

`op` is ``+`` (add), ``-`` (take away) or ``=`` (set); ``=none`` removes an entry such as
``army[Home Army]``. Setting a field of an entry that does not exist creates it. The reason in
quotes is required: every edit is kept in the audit log and shown to the nation concerned.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from engine.core.errors import IllegalAction, RulesError
from engine.rulesets.lote_modern import statuses
from engine.rulesets.lote_modern.rules.banking import new_bank
from engine.rulesets.lote_modern.sheet import (
    ALLEGIANCES,
    ARMY_STATUSES,
    CULTURES,
    FACTORY_KINDS,
    LEADER_TITLES,
    NATION_TYPES,
    PROJECT_KINDS,
    QR_KINDS,
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
    parse_units,
)
from engine.rulesets.lote_modern.state import GameState, Monopoly
from engine.rulesets.lote_modern.text import number, quote, tokens
from engine.rulesets.lote_modern.world import CITY_KINDS, FEATURES, PEOPLES, TERRAINS, ZONE_KINDS

_EDIT = re.compile(r'^\s*edit\s+(?P<body>.+?)\s+"(?P<reason>[^"]*)"\s*$', re.IGNORECASE | re.DOTALL)
_ENTRY = re.compile(r"^(?P<kind>[a-z_]+)\[(?P<key>[^\]]+)\](?:\.(?P<field>[a-z_]+))?$")
MAX_REASON = 300

HELP = ('GM edits: `edit <nation|map> <path> <+|-|=><value> "<reason>"`, e.g. '
        '`edit England treasury.gp +50 "Spanish silver"` (see the notes for every path)')


@dataclass(frozen=True, slots=True)
class Spec:
    """How a field's value is read and written."""

    kind: str                       # int, float, text, bool, choice, status, units, names, place, opt_int
    choices: tuple[str, ...] = ()
    minimum: float | None = None
    maximum: float | None = None


INT = Spec("int", minimum=0)
SIGNED = Spec("int")
FLOAT = Spec("float", minimum=0)
MONEY = Spec("float")
TEXT = Spec("text")
BOOL = Spec("bool")
NAMES = Spec("names")
PLACE = Spec("place")


def choice(*options: str) -> Spec:
    return Spec("choice", options)


NATION_FIELDS: dict[str, tuple[str, Spec]] = {
    "treasury.gp": ("gp", MONEY), "treasury.nfp": ("nfp", INT), "treasury.nfp_income": ("nfp_income", INT),
    "treasury.msp": ("msp", INT),
    "nation.type": ("type", choice(*NATION_TYPES)), "nation.culture": ("culture", choice(*CULTURES)),
    "nation.tech_level": ("tech_level", Spec("int", minimum=1, maximum=25)), "nation.religion": ("religion", TEXT),
    "nation.religious_strength": ("religious_strength", Spec("int", minimum=0, maximum=10)),
    "nation.society": ("society", TEXT), "nation.economy": ("economy", TEXT), "nation.government": ("government", TEXT),
    "nation.capital": ("capital", TEXT), "nation.homeland": ("homeland", TEXT),
    "nation.bureaucratic_level": ("bureaucratic_level", INT), "nation.imperial_size": ("imperial_size", INT),
    "nation.hbz_range": ("hbz_range", INT), "nation.nmv": ("nmv", FLOAT),
    "nation.tax_adjustment": ("tax_adjustment", FLOAT), "nation.agro_modifier": ("agro_modifier", FLOAT),
    "nation.infra_modifier": ("infra_modifier", FLOAT), "nation.notes": ("notes", TEXT),
    "sea.navigation": ("navigation", INT), "sea.trade_range": ("trade_range", INT),
    "sea.conduit_limit": ("conduit_limit", INT),
    "rd.completed": ("completed", NAMES), "charts": ("charts", NAMES), "brokerages": ("brokerages", NAMES),
}
BANK_FIELDS: dict[str, Spec] = {
    "base_capacity": FLOAT, "investment": FLOAT, "internal_rate": Spec("int", minimum=0, maximum=200),
    "external_rate": Spec("int", minimum=0, maximum=200), "status": choice("open", "closed"), "closed_to": NAMES,
    "rebuild_paid": FLOAT, "pre_collapse_capacity": FLOAT, "collapsed_turn": Spec("opt_int", minimum=0),
}
DICT_FIELDS: dict[str, tuple[str, Spec]] = {
    "qr": ("qr", Spec("int", minimum=0, maximum=60)), "reserves": ("reserves", INT), "invested": ("invested", FLOAT),
}
HOLDING_FIELDS: dict[str, Spec] = {"status": Spec("status"), "pwb": FLOAT,
                                   **dict.fromkeys(FACTORY_KINDS, INT), **{f"hidden_{k}": INT for k in FACTORY_KINDS}}
ARMY_FIELDS: dict[str, Spec] = {"location": PLACE, "status": choice(*ARMY_STATUSES), "units": Spec("units"),
                                "leader": TEXT}
LEADER_FIELDS: dict[str, Spec] = {"title": choice(*LEADER_TITLES), "allegiance": choice(*ALLEGIANCES),
                                  "combat": INT, "admin": INT, "charisma": INT, "diplomacy": INT, "age": INT,
                                  "location": PLACE, "ap": Spec("opt_int", minimum=0)}
PROJECT_FIELDS: dict[str, Spec] = {"kind": choice(*PROJECT_KINDS), "name": TEXT, "location": TEXT, "gp": FLOAT,
                                   "nfp": INT, "years": FLOAT, "gp_cost": FLOAT, "nfp_cost": INT, "years_cost": FLOAT,
                                   "advances": SIGNED, "advances_needed": INT, "level": INT, "done": BOOL,
                                   "host": TEXT, "overreach": BOOL, "assisted": INT, "hidden": BOOL}
ROUTE_FIELDS: dict[str, Spec] = {"kind": choice(*ROUTE_KINDS), "base_port": TEXT, "target_port": TEXT, "msp": INT,
                                 "length": INT, "conduits": NAMES, "income": FLOAT, "cartel_for": TEXT, "open": BOOL}
CONDUIT_FIELDS: dict[str, Spec] = {"zones": NAMES, "kind": choice("sea", "aerial")}
RAIL_FIELDS: dict[str, Spec] = {"levels": Spec("int", minimum=1)}
LOAN_FIELDS: dict[str, Spec] = {"principal": FLOAT, "rate": Spec("int", minimum=0, maximum=200), "turn": SIGNED}
MONOPOLY_FIELDS: dict[str, Spec] = {"good": TEXT, "kind": choice("granted", "acquired")}
MAP_REGION_FIELDS: dict[str, Spec] = {"terrain": choice(*TERRAINS), "gpv": INT, "religion": TEXT, "resistance": INT,
                                      "people": choice(*PEOPLES), "base_gpv": INT, "features": NAMES,
                                      "pre_columbian": BOOL}
MAP_CITY_FIELDS: dict[str, Spec] = {"gpv": INT, "port": BOOL, "kind": choice(*CITY_KINDS)}
MAP_ZONE_FIELDS: dict[str, Spec] = {"hostile": BOOL, "mapping": INT, "kind": choice(*ZONE_KINDS)}


@dataclass(frozen=True, slots=True)
class Edit:
    """One GM edit, parsed."""

    target: str
    path: str
    op: str
    value: str
    reason: str

    def text(self) -> str:
        return f'edit {quote(self.target)} {self.path} {self.op}{self.value} "{self.reason}"'


@dataclass(frozen=True, slots=True)
class Change:
    """What an edit did: the entry's value before and after, as text."""

    edit: Edit
    before: str
    after: str

    def line(self) -> str:
        return f"{self.edit.path}: {self.before} → {self.after}"


def parse_edit(text: str) -> Edit:
    m = _EDIT.match(text)
    if not m:
        raise IllegalAction(HELP)
    reason = " ".join(m["reason"].split())
    if not reason:
        raise IllegalAction('an edit needs a reason in quotes, e.g. "tax windfall"')
    if len(reason) > MAX_REASON:
        raise IllegalAction(f"the reason is at most {MAX_REASON} characters")
    parts = tokens(m["body"])
    if len(parts) < 3:
        raise IllegalAction(HELP)
    target, path, rest = parts[0], parts[1], parts[2:]
    op = rest[0][0]
    if op not in "+-=":
        raise IllegalAction(f"`{rest[0]}`: the value starts with + (add), - (take away) or = (set)")
    value = " ".join([rest[0][1:], *rest[1:]]).strip()
    if not value:
        raise IllegalAction(f"`{path} {op}`: give a value after {op}")
    return Edit(target, _canonical_path(path), op, value, reason)


def _canonical_path(path: str) -> str:
    m = _ENTRY.match(path.strip())
    if m:
        key = " ".join(m["key"].split())
        return f"{m['kind'].lower()}[{key}]" + (f".{m['field'].lower()}" if m["field"] else "")
    return path.strip().lower()


def apply_edit(state: GameState, edit: Edit) -> Change:
    """Apply an edit; the returned change says what it was and what it became."""
    if fold(edit.target) == "map":
        change = _edit_map(state, edit)
        state.world.reindex()
        return change
    nation = state.nation(edit.target)
    edit = Edit(nation.name, edit.path, edit.op, edit.value, edit.reason)
    return _edit_nation(state, nation, edit)


# -- values ----------------------------------------------------------------------------------
def _show(value: Any, spec: Spec) -> str:
    if value is None or value == "":
        return "none"
    if spec.kind == "units":
        return format_units(value)
    if spec.kind == "names":
        return "; ".join(value) or "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        return number(value)
    return str(value)


def _read(state: GameState, nation: Nation | None, spec: Spec, text: str) -> Any:
    t = text.strip()
    try:
        if spec.kind in ("int", "opt_int"):
            if spec.kind == "opt_int" and t.lower() == "none":
                return None
            value: Any = int(t)
        elif spec.kind == "float":
            value = float(t)
        elif spec.kind == "bool":
            if t.lower() not in ("yes", "no", "true", "false"):
                raise IllegalAction(f"`{t}`: yes or no")
            return t.lower() in ("yes", "true")
        elif spec.kind == "choice":
            match = next((c for c in spec.choices if c.casefold() == t.casefold()), None)
            if match is None:
                raise IllegalAction(f"`{t}` is not one of {', '.join(c or '(blank)' for c in spec.choices)}")
            return match
        elif spec.kind == "status":
            code = statuses.parse(t)
            if code is None:
                raise IllegalAction(f"`{t}` is not a control status ({statuses.help_text()})")
            if nation is not None and not statuses.allowed_for(code, nation.type):
                raise IllegalAction(f"{nation.name} cannot hold `{code}` (a {statuses.get(code).ladder} status)")
            return code
        elif spec.kind == "units":
            return {} if t.lower() == "none" else parse_units(t)
        elif spec.kind == "names":
            return [] if t.lower() == "none" else [x.strip() for x in t.split(";") if x.strip()]
        elif spec.kind == "place":
            key = state.world.canonical(t)
            if key is None:
                raise IllegalAction(f"`{t}` is not a region, city or sea zone on the map")
            return key
        else:
            return "" if t.lower() == "none" else t
    except ValueError:
        raise IllegalAction(f"`{t}` is not a {'whole ' if 'int' in spec.kind else ''}number") from None
    except RulesError as exc:
        raise IllegalAction(str(exc)) from None
    if spec.minimum is not None and value is not None and value < spec.minimum:
        raise IllegalAction(f"`{t}` is below the minimum {number(spec.minimum)}")
    if spec.maximum is not None and value is not None and value > spec.maximum:
        raise IllegalAction(f"`{t}` is above the maximum {number(spec.maximum)}")
    return value


def _combine(old: Any, op: str, new: Any, spec: Spec) -> Any:
    if op == "=":
        return new
    sign = 1 if op == "+" else -1
    if spec.kind in ("int", "float", "opt_int"):
        result = (old or 0) + sign * new
        if spec.minimum is not None and result < spec.minimum:
            raise IllegalAction(f"that would leave {number(result)}, below {number(spec.minimum)}")
        return result
    if spec.kind == "units":
        out = dict(old)
        for code, n in new.items():
            have = out.get(code, 0) + sign * n
            if have < 0:
                raise IllegalAction(f"only {out.get(code, 0)}{code} to take away")
            out[code] = have
        return {c: n for c, n in out.items() if n}
    if spec.kind == "names":
        items = list(old)
        for name in new:
            present = [x for x in items if fold(x) == fold(name)]
            if op == "+" and not present:
                items.append(name)
            if op == "-":
                if not present:
                    raise IllegalAction(f"`{name}` is not in the list")
                items = [x for x in items if fold(x) != fold(name)]
        return items
    raise IllegalAction("this field is set with =, not added to or taken from")


def _set_field(state: GameState, nation: Nation | None, obj: Any, attr: str, spec: Spec, edit: Edit) -> Change:
    old = getattr(obj, attr)
    new = _combine(old, edit.op, _read(state, nation, spec, edit.value), spec)
    setattr(obj, attr, new)
    return Change(edit, _show(old, spec), _show(new, spec))


# -- nation sheets ---------------------------------------------------------------------------
def _edit_nation(state: GameState, n: Nation, edit: Edit) -> Change:
    path = edit.path
    if path in NATION_FIELDS:
        attr, spec = NATION_FIELDS[path]
        obj: Any = n
        if attr in ("capital", "homeland") and edit.value.lower() != "none":
            place = n.city(edit.value) if attr == "capital" else n.region(edit.value)
            if place is None:
                raise IllegalAction(f"{n.name} holds no {'city' if attr == 'capital' else 'region'} `{edit.value}`")
        return _set_field(state, n, obj, attr, spec, edit)
    head, _, key = path.partition(".")
    if head == "bank":
        return _edit_bank(state, n, key, edit)
    if head in DICT_FIELDS and key:
        attr, spec = DICT_FIELDS[head]
        table: dict[str, Any] = getattr(n, attr)
        if head == "qr" and key not in QR_KINDS:
            raise IllegalAction(f"`{key}` is not a quality rating ({', '.join(QR_KINDS)})")
        holder = _Box(table.get(key, 0))
        change = _set_field(state, n, holder, "value", spec, edit)
        if holder.value:
            table[key] = holder.value
        else:
            table.pop(key, None)
        return change
    if path == "monopolies":
        return _edit_monopolies(state, n, edit)
    m = _ENTRY.match(path)
    if not m:
        raise IllegalAction(f"`{path}` is not a sheet path; {HELP}")
    kind, key, field = m["kind"], m["key"], m["field"]
    handler = _ENTRIES.get(kind)
    if handler is None:
        raise IllegalAction(f"`{kind}[...]` is not a sheet entry ({', '.join(_ENTRIES)}[...])")
    return handler(state, n, key, field, edit)


@dataclass
class _Box:
    value: Any


def _entry_field(state: GameState, n: Nation, obj: Any, field: str | None, fields: dict[str, Spec],
                 edit: Edit) -> Change:
    if field is None or field not in fields:
        raise IllegalAction(f"fields here: {', '.join(fields)}")
    spec = fields[field]
    if field in FACTORY_KINDS or field.startswith("hidden_"):
        table = obj.hidden if field.startswith("hidden_") else obj.factories
        key = field.removeprefix("hidden_")
        holder = _Box(table.get(key, 0))
        change = _set_field(state, n, holder, "value", spec, edit)
        if holder.value:
            table[key] = holder.value
        else:
            table.pop(key, None)
        return change
    return _set_field(state, n, obj, field, spec, edit)


def _removal(edit: Edit, field: str | None) -> bool:
    return field is None and edit.op == "=" and edit.value.lower() == "none"


def _removed(edit: Edit, what: str) -> Change:
    return Change(edit, what, "removed")


def _region(state: GameState, n: Nation, key: str, field: str | None, edit: Edit) -> Change:
    name = state.world.region(key).name if state.world.is_region(key) else None
    if name is None:
        raise IllegalAction(f"no region `{key}` on the map")
    holding = n.region(name)
    if _removal(edit, field):
        if holding is None:
            raise IllegalAction(f"{n.name} holds no region {name}")
        n.regions.remove(holding)
        return _removed(edit, f"{name} ({holding.status})")
    if field == "status" and statuses.parse(edit.value) in statuses.CITY_ONLY:
        raise IllegalAction(f"`{edit.value}` exists only in a city (LotE 7.2)")
    if holding is None:
        if field != "status" or edit.op != "=":
            raise IllegalAction(f"{n.name} does not hold {name}: set its status first (region[{name}].status =F)")
        holding = RegionHolding(name, "")
        n.regions.append(holding)
    return _entry_field(state, n, holding, field, HOLDING_FIELDS, edit)


def _city(state: GameState, n: Nation, key: str, field: str | None, edit: Edit) -> Change:
    if not state.world.is_city(key):
        raise IllegalAction(f"no city `{key}` on the map")
    name = state.world.city(key).name
    holding = n.city(name)
    if _removal(edit, field):
        if holding is None:
            raise IllegalAction(f"{n.name} holds no city {name}")
        n.cities.remove(holding)
        return _removed(edit, f"{name} ({holding.status})")
    if holding is None:
        if field != "status" or edit.op != "=":
            raise IllegalAction(f"{n.name} does not hold {name}: set its status first (city[{name}].status =T)")
        holding = CityHolding(name, "")
        n.cities.append(holding)
    return _entry_field(state, n, holding, field, HOLDING_FIELDS, edit)


def _army(state: GameState, n: Nation, key: str, field: str | None, edit: Edit) -> Change:
    army = n.army(key)
    if _removal(edit, field):
        if army is None:
            raise IllegalAction(f"{n.name} has no army `{key}`")
        n.armies.remove(army)
        return _removed(edit, f"{army.name} ({format_units(army.units)})")
    if army is None:
        if field != "location" or edit.op != "=":
            raise IllegalAction(f"{n.name} has no army `{key}`: create it by setting its location "
                                f"(army[{key}].location =<place>)")
        army = Army(key, "")
        n.armies.append(army)
    if field == "leader" and edit.value.lower() != "none" and n.leader(edit.value) is None:
        raise IllegalAction(f"{n.name} has no leader `{edit.value}`")
    return _entry_field(state, n, army, field, ARMY_FIELDS, edit)


def _leader(state: GameState, n: Nation, key: str, field: str | None, edit: Edit) -> Change:
    leader = n.leader(key)
    if _removal(edit, field):
        if leader is None:
            raise IllegalAction(f"{n.name} has no leader `{key}`")
        n.leaders.remove(leader)
        for army in n.armies:
            if fold(army.leader) == fold(leader.name):
                army.leader = ""
        return _removed(edit, leader.name)
    if leader is None:
        leader = Leader(key)
        n.leaders.append(leader)
    if field == "title" and edit.value.lower() == "king" and any(x.title == "king" and x is not leader
                                                                 for x in n.leaders):
        raise IllegalAction(f"{n.name} already has a king: give him another title first")
    return _entry_field(state, n, leader, field, LEADER_FIELDS, edit)


def _project(state: GameState, n: Nation, key: str, field: str | None, edit: Edit) -> Change:
    project = next((p for p in n.projects if fold(p.id) == fold(key)), None)
    if _removal(edit, field):
        if project is None:
            raise IllegalAction(f"{n.name} has no project `{key}`")
        n.projects.remove(project)
        return _removed(edit, f"{project.id} {project.name}")
    if project is None:
        if field != "kind" or edit.op != "=":
            raise IllegalAction(f"{n.name} has no project `{key}`: create it by setting its kind "
                                f"(project[{key}].kind =rd)")
        project = Project(key, "other", key)
        n.projects.append(project)
    return _entry_field(state, n, project, field, PROJECT_FIELDS, edit)


def _route(state: GameState, n: Nation, key: str, field: str | None, edit: Edit) -> Change:
    route = n.route(key)
    if _removal(edit, field):
        if route is None:
            raise IllegalAction(f"{n.name} has no trade route with `{key}`")
        n.routes.remove(route)
        return _removed(edit, f"route with {route.partner}")
    if route is None:
        route = TradeRoute(key)
        n.routes.append(route)
    return _entry_field(state, n, route, field, ROUTE_FIELDS, edit)


def _pair(key: str) -> tuple[str, str]:
    a, sep, b = key.partition("-")
    if not sep or not a.strip() or not b.strip():
        raise IllegalAction(f"`{key}`: name both ends, like London-Gibraltar")
    return a.strip(), b.strip()


def _conduit(state: GameState, n: Nation, key: str, field: str | None, edit: Edit) -> Change:
    a, b = _pair(key)
    conduit = n.conduit(a, b)
    if _removal(edit, field):
        if conduit is None:
            raise IllegalAction(f"{n.name} has no conduit {key}")
        n.conduits.remove(conduit)
        return _removed(edit, f"conduit {conduit.key}")
    if conduit is None:
        conduit = Conduit(state.world.city(a).name, state.world.city(b).name)
        n.conduits.append(conduit)
    return _entry_field(state, n, conduit, field, CONDUIT_FIELDS, edit)


def _rail(state: GameState, n: Nation, key: str, field: str | None, edit: Edit) -> Change:
    a, b = _pair(key)
    ra, rb = state.world.region(a).name, state.world.region(b).name
    seg = next((s for s in n.railroads if {s.a, s.b} == {ra, rb}), None)
    if _removal(edit, field):
        if seg is None:
            raise IllegalAction(f"{n.name} has no railroad {ra}-{rb}")
        n.railroads.remove(seg)
        return _removed(edit, f"railroad {ra}-{rb}")
    if seg is None:
        if not state.world.adjacent(ra, rb):
            raise IllegalAction(f"{ra} and {rb} do not border each other")
        seg = RailSegment(ra, rb, 0)
        n.railroads.append(seg)
    return _entry_field(state, n, seg, field, RAIL_FIELDS, edit)


def _edit_bank(state: GameState, n: Nation, key: str, edit: Edit) -> Change:
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
    new = _combine(old, edit.op, _read(state, n, spec, edit.value), spec)
    if key in ("internal_rate", "external_rate"):
        bank = replace(bank, **{key: new / 100})
    elif key == "status":
        bank = replace(bank, open=new == "open")
    elif key == "closed_to":
        bank = replace(bank, closed_to=frozenset(state.nation(x).name for x in new))
    else:
        bank = replace(bank, **{key: new})
    n.bank = bank
    return Change(edit, _show(old, spec), _show(new, spec))


def _loan(state: GameState, n: Nation, key: str, field: str | None, edit: Edit) -> Change:
    for group in (state.loans, state.defaults):
        for i, loan in enumerate(group):
            if fold(loan.id) != fold(key.strip().lstrip("#")) or n.name not in (loan.lender, loan.borrower):
                continue
            if _removal(edit, field):
                del group[i]
                return _removed(edit, f"loan {loan.id}")
            if field is None or field not in LOAN_FIELDS:
                raise IllegalAction(f"fields here: {', '.join(LOAN_FIELDS)}")
            spec = LOAN_FIELDS[field]
            old = round(loan.rate * 100) if field == "rate" else getattr(loan, field)
            new = _combine(old, edit.op, _read(state, n, spec, edit.value), spec)
            group[i] = replace(loan, **{field: new / 100 if field == "rate" else new})
            return Change(edit, _show(old, spec), _show(new, spec))
    raise IllegalAction(f"{n.name} is not a party to a loan `{key}`")


def _monopoly(state: GameState, n: Nation, key: str, field: str | None, edit: Edit) -> Change:
    mono = next((m for m in state.monopolies if str(m.id) == key.strip().lstrip("#")), None)
    if mono is None or n.name not in (mono.house, mono.nation):
        raise IllegalAction(f"{n.name} is not a party to a monopoly #{key}")
    if _removal(edit, field):
        state.monopolies.remove(mono)
        return _removed(edit, f"monopoly #{mono.id} ({mono.good or 'unnamed'} in {mono.nation})")
    return _entry_field(state, n, mono, field, MONOPOLY_FIELDS, edit)


def _edit_monopolies(state: GameState, n: Nation, edit: Edit) -> Change:
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
        return _removed(edit, f"monopoly #{found.id}")
    raise IllegalAction("monopolies +<nation>:<good> adds one; -<nation>:<good> removes it")


def _mapping(state: GameState, n: Nation, key: str, field: str | None, edit: Edit) -> Change:
    """Mapping points toward a sea zone (LotE 5.2.2): at its requirement the zone joins the nation's charts."""
    zone = state.world.zone(key)
    if field is not None:
        raise IllegalAction(f"write mapping[{zone.name}] +1")
    holder = _Box(n.mapping.get(zone.name, 0))
    change = _set_field(state, n, holder, "value", INT, edit)
    n.mapping[zone.name] = holder.value
    if zone.mapping and holder.value >= zone.mapping and zone.name not in n.charts:
        n.charts.append(zone.name)
        return Change(edit, change.before, f"{change.after} (charted)")
    return change


_ENTRIES: dict[str, Callable[[GameState, Nation, str, str | None, Edit], Change]] = {
    "region": _region, "city": _city, "army": _army, "leader": _leader, "project": _project, "route": _route,
    "conduit": _conduit, "rail": _rail, "loan": _loan, "monopoly": _monopoly, "mapping": _mapping,
}


# -- the map --------------------------------------------------------------------------------
def _edit_map(state: GameState, edit: Edit) -> Change:
    m = _ENTRY.match(edit.path)
    if not m or m["field"] is None:
        raise IllegalAction("map paths are region[<name>].<field>, city[<name>].<field> or zone[<name>].<field>")
    kind, key, field = m["kind"], m["key"], m["field"]
    world = state.world
    obj: Any
    fields: dict[str, Spec]
    if kind == "region":
        obj, fields = world.region(key), MAP_REGION_FIELDS
    elif kind == "city":
        obj, fields = world.city(key), MAP_CITY_FIELDS
    elif kind == "zone":
        obj, fields = world.zone(key), MAP_ZONE_FIELDS
    else:
        raise IllegalAction("the map has region[...], city[...] and zone[...] entries")
    if field not in fields:
        raise IllegalAction(f"fields here: {', '.join(fields)}")
    if field == "features":
        bad = [x for x in _read(state, None, NAMES, edit.value) if x not in FEATURES]
        if bad:
            raise IllegalAction(f"`{bad[0]}` is not one of {', '.join(FEATURES)}")
    spec = fields[field]
    if field in ("features",):
        old = list(getattr(obj, field))
        new = _combine(old, edit.op, _read(state, None, spec, edit.value), spec)
        setattr(obj, field, tuple(new))
        return Change(edit, _show(old, spec), _show(new, spec))
    return _set_field(state, None, obj, field, spec, edit)

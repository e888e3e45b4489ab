"""The values GM edits read and write: field specifications, parsing, combining, and the change made."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from engine.core.errors import IllegalAction, RulesError
from engine.core.numbers import is_count
from engine.rulesets.lote_modern import statuses
from engine.rulesets.lote_modern.sheet import (
    ALLEGIANCES,
    ARMY_STATUSES,
    CULTURES,
    FACTORY_KINDS,
    LEADER_TITLES,
    NATION_TYPES,
    PROJECT_KINDS,
    ROUTE_KINDS,
    Nation,
    fold,
    format_units,
    parse_units,
)
from engine.rulesets.lote_modern.state import GameState
from engine.rulesets.lote_modern.text import number, quote
from engine.rulesets.lote_modern.world import CITY_KINDS, PEOPLES, TERRAINS, ZONE_KINDS


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
    "treasury.msp": ("msp", INT), "treasury.steam_msp": ("steam_msp", INT),
    "treasury.aerial_msp": ("aerial_msp", INT),
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
                                 "length": INT, "conduits": NAMES, "income": FLOAT, "cartel_for": TEXT, "open": BOOL,
                                 "steam": INT}
CONDUIT_FIELDS: dict[str, Spec] = {"zones": NAMES, "kind": choice("sea", "aerial")}
RAIL_FIELDS: dict[str, Spec] = {"levels": Spec("int", minimum=1)}
LOAN_FIELDS: dict[str, Spec] = {"principal": FLOAT, "rate": Spec("int", minimum=0, maximum=200), "turn": SIGNED}
MONOPOLY_FIELDS: dict[str, Spec] = {"good": TEXT, "kind": choice("granted", "acquired")}
CARTEL_FIELDS: dict[str, Spec] = {"status": choice("granted", "open", "revoked"), "nation_port": TEXT,
                                  "target_port": TEXT, "base_port": TEXT, "msp": INT, "length": INT, "income": FLOAT,
                                  "conduits": NAMES}
MAP_REGION_FIELDS: dict[str, Spec] = {"terrain": choice(*TERRAINS), "gpv": INT, "religion": TEXT, "resistance": INT,
                                      "people": choice(*PEOPLES), "base_gpv": INT, "features": NAMES,
                                      "pre_columbian": BOOL}
MAP_CITY_FIELDS: dict[str, Spec] = {"gpv": INT, "port": BOOL, "kind": choice(*CITY_KINDS)}
MAP_POOL_FIELDS: dict[str, Spec] = {"units": Spec("units"), "regions": NAMES, "price": FLOAT, "location": TEXT}
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


# -- values ----------------------------------------------------------------------------------
def show(value: Any, spec: Spec) -> str:
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


def read_value(state: GameState, nation: Nation | None, spec: Spec, text: str) -> Any:
    t = text.strip()
    try:
        if spec.kind in ("int", "opt_int"):
            if spec.kind == "opt_int" and t.lower() == "none":
                return None
            if not is_count(t.removeprefix("-")):  # ASCII digits only, and few of them
                raise ValueError(t)
            value: Any = int(t)
        elif spec.kind == "float":
            value = float(t)
            if not math.isfinite(value):  # "1e400" and "nan" are no sheet value
                raise ValueError(t)
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
        raise IllegalAction(f"`{t[:40]}` is not a {'whole ' if 'int' in spec.kind else ''}number") from None
    except RulesError as exc:
        raise IllegalAction(str(exc)) from None
    if spec.minimum is not None and value is not None and value < spec.minimum:
        raise IllegalAction(f"`{t}` is below the minimum {number(spec.minimum)}")
    if spec.maximum is not None and value is not None and value > spec.maximum:
        raise IllegalAction(f"`{t}` is above the maximum {number(spec.maximum)}")
    return value


def combine(old: Any, op: str, new: Any, spec: Spec) -> Any:
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


def set_field(state: GameState, nation: Nation | None, obj: Any, attr: str, spec: Spec, edit: Edit) -> Change:
    old = getattr(obj, attr)
    new = combine(old, edit.op, read_value(state, nation, spec, edit.value), spec)
    setattr(obj, attr, new)
    return Change(edit, show(old, spec), show(new, spec))


@dataclass
class Box:
    value: Any


def entry_field(state: GameState, n: Nation, obj: Any, field: str | None, fields: dict[str, Spec],
                 edit: Edit) -> Change:
    if field is None or field not in fields:
        raise IllegalAction(f"fields here: {', '.join(fields)}")
    spec = fields[field]
    if field in FACTORY_KINDS or field.startswith("hidden_"):
        table = obj.hidden if field.startswith("hidden_") else obj.factories
        key = field.removeprefix("hidden_")
        holder = Box(table.get(key, 0))
        change = set_field(state, n, holder, "value", spec, edit)
        if holder.value:
            table[key] = holder.value
        else:
            table.pop(key, None)
        return change
    return set_field(state, n, obj, field, spec, edit)


def is_removal(edit: Edit, field: str | None) -> bool:
    return field is None and edit.op == "=" and edit.value.lower() == "none"


def removed(edit: Edit, what: str) -> Change:
    return Change(edit, what, "removed")



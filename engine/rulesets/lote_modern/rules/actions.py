"""LotE Modern Era section 5.1 and chart 8.3: rulings, action capacities and the 24-impulse action chart.

Offers:
- `NeedsRuling`, `ask`, `ruled_success`: a decision the supplement leaves to the GM, with an optional
  percentile die rolled for it; `Cost`.
- Tables 5-1 to 5-5 and 8-4 as data: `months_table`, `unit_type_modifiers`, `equipment_modifiers`,
  `training_modifiers`, `leader_combat_modifier`, `action_chart`.
- Capacities (5.1): `months_per_year`, `unit_profile`, `unit_action_capacity`, `leader_action_capacity`,
  `leader_in_tandem`, `force_action_capacity`.
- The 24-impulse chart (8-4): `actions_by_month`, `acts_in_month`, `month_order`.
- `may_use_new_codes`; the new action codes themselves (5.2) are in `actions_codes`.
- `ActionOptions` and `campaign_options`: the campaign choices where section 5 is silent
  (docs/rulesets/lote-modern/sections-5-7.md); `option_list` and `options_of` turn any of this package's
  options dataclasses into campaign `Option`s and back.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Literal, Protocol, TypeVar

from engine.core.errors import RulesError
from engine.core.rng import Dice, Roll
from engine.core.ruleset import Option, OptionValue
from engine.core.tables import load_data
from engine.core.visibility import GM_ONLY, Visibility

PACKAGE = "engine.rulesets.lote_modern"
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December")

UnitKind = Literal["leader", "cavalry", "infantry", "siege", "artillery", "tribe", "ship", "static", "other"]
Equipment = Literal["heavy", "medium", "light"]
Training = Literal["elite", "regular", "inexperienced"]
LeaderKind = Literal["national", "allied", "mercenary"]


# --- rulings ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NeedsRuling:
    """A decision the supplement leaves to the GM: what to decide, the choices, and what bears on it."""

    rule: str
    question: str
    options: tuple[str, ...] = ("success", "failure")
    factors: tuple[tuple[str, str], ...] = ()
    applies: str = ""
    roll: Roll | None = None

    def dump(self) -> dict[str, Any]:
        return {"rule": self.rule, "question": self.question, "options": list(self.options),
                "factors": [list(f) for f in self.factors], "applies": self.applies,
                "roll": self.roll.dump() if self.roll else None}

    @classmethod
    def load(cls, raw: Mapping[str, Any]) -> NeedsRuling:
        return cls(raw["rule"], raw["question"], tuple(raw["options"]),
                   tuple((str(a), str(b)) for a, b in raw["factors"]), raw["applies"],
                   Roll.load(raw["roll"]) if raw.get("roll") else None)


def ask(rule: str, question: str, *, options: Sequence[str] = ("success", "failure"),
        factors: Mapping[str, object] | None = None, applies: str = "", dice: Dice | None = None,
        purpose: str | None = None, visibility: Visibility = GM_ONLY) -> NeedsRuling:
    """A ruling request; with `dice`, a d100 is rolled now so the GM only has to set the chance."""
    roll = None
    if dice is not None:
        roll = dice.roll(1, 100, purpose=purpose or f"ruling/{rule}", visibility=visibility, table=rule)
    pairs = tuple((name, _shown(value)) for name, value in (factors or {}).items())
    return NeedsRuling(rule, question, tuple(options), pairs, applies, roll)


def ruled_success(ruling: NeedsRuling, chance_percent: int) -> bool:
    """The GM's chance of success (0-100) applied to the d100 rolled with the ruling."""
    if ruling.roll is None:
        raise RulesError(f"{ruling.rule}: no die was rolled for this ruling; the GM decides it directly")
    return ruling.roll.total <= chance_percent


def _shown(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


@dataclass(frozen=True, slots=True)
class Cost:
    """What an action or purchase takes: leader AP, gold and force points."""

    ap: int = 0
    gp: float = 0.0
    nfp: int = 0


class _Options(Protocol):
    __dataclass_fields__: ClassVar[dict[str, Any]]


OptionsT = TypeVar("OptionsT", bound=_Options)


def option_name(prefix: str, field_name: str) -> str:
    """The campaign option name of an options field: `banking` + `profit_basis` → `banking-profit-basis`."""
    return f"{prefix}-{field_name.replace('_', '-')}"


def option_list(kind: type[_Options], prefix: str, helps: Mapping[str, str], *,
                choices: Mapping[str, tuple[str, ...]] | None = None,
                bounds: Mapping[str, tuple[int | None, int | None]] | None = None) -> tuple[Option, ...]:
    """Campaign `Option`s for every field of an options dataclass, with its default and help."""
    out = []
    for f in fields(kind):
        if not isinstance(f.default, bool | int | str):
            raise TypeError(f"{kind.__name__}.{f.name} needs a bool, int or str default to be a campaign option")
        low, high = (bounds or {}).get(f.name, (None, None))
        out.append(Option(option_name(prefix, f.name), f.default, helps[f.name], (choices or {}).get(f.name, ()),
                          low, high))
    return tuple(out)


def options_of(kind: type[OptionsT], prefix: str, values: Mapping[str, OptionValue]) -> OptionsT:
    """An options dataclass from a campaign's option values (fields not set keep their defaults)."""
    chosen = {f.name: values[option_name(prefix, f.name)] for f in fields(kind)
              if option_name(prefix, f.name) in values}
    return kind(**chosen)


@dataclass(frozen=True, slots=True)
class ActionOptions:
    """Campaign choices for section 5 where the supplement is silent (see the notes file)."""

    industrial_land_months: int = 9     # Table 5-1 has no Industrial land row; the build charts imply 9
    minimum_capacity: int = 1           # no unit falls below one action a year
    dcl_automatic_when_undefended: bool = True
    nationalize_tax_penalty_percent: int = -1   # -1: the GM rules the tax loss each time

    @classmethod
    def from_campaign(cls, values: Mapping[str, OptionValue]) -> ActionOptions:
        return options_of(cls, "actions", values)


def campaign_options() -> tuple[Option, ...]:
    """Section 5's campaign options (names `actions-...`)."""
    return option_list(ActionOptions, "actions", {
        "industrial_land_months": "Actions a year for Industrial land units (Table 5-1 gives none; default 9)",
        "minimum_capacity": "The fewest actions a year any unit keeps after modifiers",
        "dcl_automatic_when_undefended": "A Destroy Combine Location against an undefended site succeeds outright",
        "nationalize_tax_penalty_percent": "Tax rate lost after a Nationalize Monopoly (-1: the GM rules each time)",
    }, bounds={"industrial_land_months": (1, 24), "minimum_capacity": (0, 24),
               "nationalize_tax_penalty_percent": (-1, 100)})


# --- tables ------------------------------------------------------------------------------------------------


@functools.cache
def s5_data() -> dict[str, Any]:
    """Section 5's data file (s5_actions.toml)."""
    return load_data(PACKAGE, "data/s5_actions.toml")


@dataclass(frozen=True, slots=True)
class MonthsRow:
    key: str
    label: str
    months: int
    plus_nav: bool


def months_table() -> tuple[MonthsRow, ...]:
    """Table 5-1 (LotE 5.1), row by row."""
    return tuple(MonthsRow(r["key"], r["label"], r["months"], r["plus_nav"]) for r in s5_data()["table_5_1"]["rows"])


def _modifiers(table: str) -> dict[str, int]:
    return {r["key"]: int(r["modifier"]) for r in s5_data()[table]["rows"]}


def unit_type_modifiers() -> dict[str, int]:
    """Table 5-2 (LotE 5.1) by unit type."""
    return _modifiers("table_5_2")


def equipment_modifiers() -> dict[str, int]:
    """Table 5-3 (LotE 5.1) by equipment class."""
    return _modifiers("table_5_3")


def training_modifiers() -> dict[str, int]:
    """Table 5-4 (LotE 5.1) by training class."""
    return _modifiers("table_5_4")


def leader_combat_modifier(rating: int) -> int:
    """Table 5-5 (LotE 5.1): the modifier a leader's Combat rating gives the units he commands."""
    for row in s5_data()["table_5_5"]["rows"]:
        if row["low"] <= rating <= row["high"]:
            return int(row["modifier"])
    raise RulesError(f"a leader's Combat rating runs 1-11, not {rating}")


def action_chart() -> tuple[tuple[bool, ...], ...]:
    """Table 8-4 as printed: row n-1 marks the months in which a unit of n AP a year acts."""
    return tuple(tuple(c == "X" for c in row) for row in s5_data()["table_8_4"]["rows"])


# --- capacities (5.1) --------------------------------------------------------------------------------------

_CULTURES = {
    "c": "civilized", "civilized": "civilized", "s": "seafaring", "seafaring": "seafaring",
    "b": "barbarian", "barbarian": "barbarian", "n": "nomadic", "nomadic": "nomadic",
    "p": "pre-columbian", "pre-columbian": "pre-columbian", "r": "renaissance", "renaissance": "renaissance",
    "i1": "industrial", "industrial one": "industrial", "i2": "industrial", "industrial two": "industrial",
    "i3": "industrial", "industrial three": "industrial", "industrial": "industrial",
}


def culture_key(culture: str) -> str:
    """A culture as section 5 groups it: the pre-modern five, renaissance, or industrial (I1-I3)."""
    key = _CULTURES.get(culture.strip().lower())
    if key is None:
        raise RulesError(f"`{culture}` is not a culture (C, S, B, N, P, R, I1, I2, I3)")
    return key


def may_use_new_codes(culture: str) -> bool:
    """LotE 5.2: the new action codes are for Renaissance nations (and the Industrial ones beyond them)."""
    return culture_key(culture) in ("renaissance", "industrial")


def months_per_year(culture: str, *, ship: bool = False, navigation: int = 0,
                    options: ActionOptions = ActionOptions()) -> int:
    """Table 5-1 (LotE 5.1): base actions a year; modern warships and transports add the Navigation Rating."""
    key = culture_key(culture)
    rows = {r.key: r for r in months_table()}
    if key == "renaissance":
        row = rows["renaissance-ships" if ship else "renaissance-land"]
    elif key == "industrial":
        if not ship:
            return options.industrial_land_months
        row = rows["industrial-one-ships"]
    else:
        row = rows[key]
    return row.months + (navigation if row.plus_nav else 0)


@dataclass(frozen=True, slots=True)
class UnitProfile:
    """What a build-chart code says about a unit for action purposes."""

    code: str
    kind: UnitKind
    equipment: Equipment = "medium"
    training: Training = "regular"
    steam: bool = False


_LAND_OR_SAIL = re.compile(r"^(?P<eq>[hlx]?)(?P<tr>[ei]?)(?P<base>[ciastw])$")
_BASE_KIND: dict[str, UnitKind] = {"c": "cavalry", "i": "infantry", "a": "artillery", "s": "siege",
                                   "t": "ship", "w": "ship"}
_EQUIPMENT: dict[str, Equipment] = {"h": "heavy", "l": "light", "x": "light", "": "medium"}
_TRAINING: dict[str, Training] = {"e": "elite", "i": "inexperienced", "": "regular"}
_STEAM = frozenset({"st", "ca", "bb", "dn", "cv"})
_OTHER = frozenset({"z", "zh", "zs", "zt", "sm", "ss", "sn"})   # airships and submarines: the build chart's AP


def unit_profile(code: str) -> UnitProfile:
    """Read a Table 8-2/8-3 unit code (`hec`, `ii`, `xw`, `st`…) into kind, equipment and training."""
    c = code.strip().lower()
    if c in _STEAM:
        return UnitProfile(c, "ship", steam=True)
    if c == "m":
        return UnitProfile(c, "ship")
    if c in ("tbl", "tribe"):
        return UnitProfile(c, "tribe")
    if c in ("f", "wp"):
        return UnitProfile(c, "static")
    if c in _OTHER or c == "nfp":
        return UnitProfile(c, "other")
    m = _LAND_OR_SAIL.match(c)
    if not m or (m["base"] == "s" and (m["eq"] or m["tr"])):
        raise RulesError(f"`{code}` is not a unit code from the build charts")
    return UnitProfile(c, _BASE_KIND[m["base"]], _EQUIPMENT[m["eq"]], _TRAINING[m["tr"]])


def unit_action_capacity(culture: str, profile: UnitProfile, *, navigation: int = 0,
                         leader_combat: int | None = None, options: ActionOptions = ActionOptions()) -> int:
    """LotE 5.1: actions a year for a unit, with the leader commanding it (if any)."""
    if profile.kind in ("static", "other", "leader"):
        raise RulesError(f"`{profile.code}` takes its actions from the build chart or as a leader, not from 5.1")
    ship = profile.kind == "ship"
    total = months_per_year(culture, ship=ship, navigation=navigation, options=options)
    if not ship:
        total += unit_type_modifiers()[profile.kind]
    total += equipment_modifiers()[profile.equipment] + training_modifiers()[profile.training]
    if profile.steam:
        total += int(s5_data()["steamships"]["modifier"])
    if leader_combat is not None:
        total += leader_combat_modifier(leader_combat)
    return max(options.minimum_capacity, total)


def leader_action_capacity(culture: str, options: ActionOptions = ActionOptions()) -> int:
    """LotE 5.1: a leader moving alone (the land months plus the leader modifier; no training modifier)."""
    total = months_per_year(culture, options=options) + unit_type_modifiers()["leader"]
    return max(options.minimum_capacity, total)


def leader_in_tandem(leader_capacity: int, force_capacity: int) -> int:
    """LotE 5.1: a leader acting with a faster force takes its capacity while he stays with it."""
    return max(leader_capacity, force_capacity)


def force_action_capacity(capacities: Sequence[int]) -> int:
    """A force acts together, so at the pace of its slowest unit (notes: 5.1)."""
    if not capacities:
        raise RulesError("a force needs at least one unit")
    return min(capacities)


# --- the 24-impulse action chart (8-4) --------------------------------------------------------------------


@functools.cache
def month_order() -> tuple[int, ...]:
    """The order in which Table 8-4 opens months (0 = January) as a unit's AP grow from 1 to 12."""
    chart = action_chart()
    order: list[int] = []
    previous: tuple[bool, ...] = (False,) * 12
    for row in chart[:12]:
        added = [m for m in range(12) if row[m] and not previous[m]]
        if len(added) != 1:
            raise RulesError("Table 8-4 data: each of the first twelve rows must open exactly one month")
        order.append(added[0])
        previous = row
    return tuple(order)


def actions_by_month(ap: int) -> tuple[int, ...]:
    """Table 8-4 (LotE 5.1): how many actions a unit of `ap` AP a year takes in each month."""
    if ap < 0:
        raise RulesError("actions a year cannot be negative")
    rounds, extra = divmod(ap, 12)
    counts = [rounds] * 12
    for month in month_order()[:extra]:
        counts[month] += 1
    return tuple(counts)


def acts_in_month(ap: int, month: int) -> int:
    """Table 8-4: actions in one month (1 = January)."""
    if not 1 <= month <= 12:
        raise RulesError(f"months run 1-12, not {month}")
    return actions_by_month(ap)[month - 1]

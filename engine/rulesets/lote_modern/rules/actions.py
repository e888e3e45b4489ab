"""LotE Modern Era section 5 and chart 8.3: action capacities, the action chart, the new action codes.

Offers:
- `NeedsRuling`, `ask`, `ruled_success`: a decision the supplement leaves to the GM, with an optional
  percentile die rolled for it; `Cost`.
- Tables 5-1 to 5-5 and 8-4 as data: `months_table`, `unit_type_modifiers`, `equipment_modifiers`,
  `training_modifiers`, `leader_combat_modifier`, `action_chart`.
- Capacities (5.1): `months_per_year`, `unit_profile`, `unit_action_capacity`, `leader_action_capacity`,
  `leader_in_tandem`, `force_action_capacity`.
- The 24-impulse chart (8-4): `actions_by_month`, `acts_in_month`, `month_order`.
- New action codes (5.2): `action_code`, `action_codes`, `may_use_new_codes`; RU `retraining_target`,
  `check_retraining`, `retrain`, `retraining_attacked`; EX `MappingProgress`, `check_explore`,
  `explore_ruling`, `record_explore`, `explore_losses`; NM `check_nationalize`, `nationalize_ruling`;
  CIR `check_colonize_inhabited`, `colonize_inhabited_ruling`, `settle_inhabited`; DCL
  `check_destroy_combine_location`, `destroy_combine_location`.
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
def _data() -> dict[str, Any]:
    return load_data(PACKAGE, "data/s5_actions.toml")


@dataclass(frozen=True, slots=True)
class MonthsRow:
    key: str
    label: str
    months: int
    plus_nav: bool


def months_table() -> tuple[MonthsRow, ...]:
    """Table 5-1 (LotE 5.1), row by row."""
    return tuple(MonthsRow(r["key"], r["label"], r["months"], r["plus_nav"]) for r in _data()["table_5_1"]["rows"])


def _modifiers(table: str) -> dict[str, int]:
    return {r["key"]: int(r["modifier"]) for r in _data()[table]["rows"]}


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
    for row in _data()["table_5_5"]["rows"]:
        if row["low"] <= rating <= row["high"]:
            return int(row["modifier"])
    raise RulesError(f"a leader's Combat rating runs 1-11, not {rating}")


def action_chart() -> tuple[tuple[bool, ...], ...]:
    """Table 8-4 as printed: row n-1 marks the months in which a unit of n AP a year acts."""
    return tuple(tuple(c == "X" for c in row) for row in _data()["table_8_4"]["rows"])


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
        total += int(_data()["steamships"]["modifier"])
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


# --- the new action codes (5.2) ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ActionCode:
    code: str
    name: str
    section: str
    bac: int
    open_ended: bool
    stat: str
    king_only: bool = False

    @property
    def cost(self) -> Cost:
        return Cost(ap=self.bac)


def action_codes() -> tuple[ActionCode, ...]:
    """The action codes 5.2 adds."""
    return tuple(ActionCode(a["code"], a["name"], a["section"], a["bac"], a["open_ended"], a["stat"],
                            a.get("king_only", False)) for a in _data()["action"])


def action_code(code: str) -> ActionCode:
    """One 5.2 action code (RU, EX, NM, CIR, DCL)."""
    for action in action_codes():
        if action.code == code.strip().upper():
            return action
    raise RulesError(f"`{code}` is not one of the new action codes (RU, EX, NM, CIR, DCL)")


def _renaissance(culture: str, code: str) -> list[str]:
    if may_use_new_codes(culture):
        return []
    return [f"{code} is open only to Renaissance (and later) nations"]


# RU ---------------------------------------------------------------------------------------------------------

# One class up, from the build charts' own codes (Tables 8-2, 8-3).
_RETRAIN = {
    "ii": "i", "ic": "c", "lii": "li", "lic": "lc", "xii": "xi",
    "i": "ei", "c": "ec", "hi": "hei", "hc": "hec", "li": "lei", "lc": "lec", "xi": "xei", "xc": "xec",
    "a": "ea", "ha": "hea", "la": "lea", "xa": "xea", "w": "ew", "hw": "hew", "lw": "lew", "xw": "xew",
}


def retraining_target(code: str) -> str:
    """LotE 5.2.1: the code one training class up (`ii` → `i`, `i` → `ei`)."""
    target = _RETRAIN.get(code.strip().lower())
    if target is None:
        raise RulesError(f"`{code}` has no higher training class to retrain into")
    return target


@dataclass(frozen=True, slots=True)
class Retraining:
    """The outcome of an RU action: `count_in` old units became `count_out` new ones; `left_over` stayed."""

    from_code: str
    to_code: str
    count_in: int
    count_out: int
    left_over: int


def check_retraining(*, culture: str, leader: LeaderKind, code: str, count: int, at_controlled_city: bool,
                     city_besieged: bool, in_homeland_build_zone: bool = False,
                     in_allied_region: bool = False) -> list[str]:
    """LotE 5.2.1: why an RU action may not be taken here (empty when it may)."""
    problems = _renaissance(culture, "RU")
    if leader == "mercenary":
        problems.append("mercenary leaders may not retrain units")
    if code.strip().lower() not in _RETRAIN:
        problems.append(f"`{code}` has no higher training class to retrain into")
    if count < 2:
        problems.append("retraining takes at least two units (two for one)")
    if not at_controlled_city or city_besieged:
        problems.append("retraining happens at a controlled city that is not under siege")
    if leader == "national" and not in_homeland_build_zone:
        problems.append("national troops retrain within the Homeland Build Zone")
    if leader == "allied" and not in_allied_region:
        problems.append("allied troops retrain within the allied region")
    return problems


def retrain(code: str, count: int) -> Retraining:
    """LotE 5.2.1: two units of one class become one of the next (an odd unit keeps its class)."""
    per = int(_data()["retraining"]["old_per_new"])
    out, left = divmod(count, per)
    return Retraining(code.strip().lower(), retraining_target(code), count - left, out, left)


def retraining_attacked(retraining: Retraining) -> tuple[str, int]:
    """LotE 5.2.1: units attacked while retraining fight as before (code, count); the action is aborted."""
    return retraining.from_code, retraining.count_in + retraining.left_over


# EX ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MappingProgress:
    """A nation's mapping of one sea zone, arrow or river section (LotE 5.2.2)."""

    feature: str
    kind: str
    requirement: int
    points: int = 0

    @property
    def known(self) -> bool:
        return self.points >= self.requirement


def check_explore(*, culture: str, kind: str, requirement: int) -> list[str]:
    """LotE 5.2.2: why an EX action may not be aimed at this feature (empty when it may)."""
    data = _data()["explore"]
    problems = _renaissance(culture, "EX")
    if kind not in data["features"]:
        problems.append(f"only a {', '.join(data['features'])} can be explored, not a {kind}")
    if not data["min_requirement"] <= requirement <= data["max_requirement"]:
        problems.append(f"mapping requirements run {data['min_requirement']}-{data['max_requirement']}")
    return problems


def explore_ruling(progress: MappingProgress, *, leader: str, charisma: int, navigation: int,
                   hostile: bool, ships: int, culture: str = "R", straits_of_magellan: bool = False,
                   dice: Dice | None = None) -> NeedsRuling:
    """LotE 5.2.2 / 2.8.1: the GM judges whether the attempt maps a point and what storms and mutiny cost."""
    if straits_of_magellan and culture_key(culture) == "renaissance":
        navigation = 0          # 2.8.1: Renaissance navigators get no help from their rating there
    return ask("LotE 5.2.2 Explore", f"Does {leader}'s attempt gain a mapping point in {progress.feature}, "
               "and how many ship units are lost (the leader counts as one ship, taken last)?",
               options=("success", "failure"),
               factors={"Charisma": charisma, "Navigation Rating": navigation, "feature": progress.kind,
                        "hostile sea zone": hostile, "ship units": ships,
                        "mapping": f"{progress.points}/{progress.requirement}"},
               applies="Open Ocean Arrows are easy to map, Hostile Sea Zones hard; losses happen either way",
               dice=dice, purpose=f"explore/{leader}/{progress.feature}")


def record_explore(progress: MappingProgress, success: bool) -> MappingProgress:
    """LotE 5.2.2: a successful attempt adds a mapping point; the feature is known at its requirement."""
    if not success or progress.known:
        return progress
    gained = int(_data()["explore"]["points_per_success"])
    return MappingProgress(progress.feature, progress.kind, progress.requirement, progress.points + gained)


def explore_losses(ships: Sequence[str], losses: int) -> tuple[tuple[str, ...], bool]:
    """LotE 5.2.2: ship units lost (in the order given) and whether the leader, counted last, is lost too."""
    if losses < 0:
        raise RulesError("losses cannot be negative")
    return tuple(ships[:losses]), losses > len(ships)


# NM ---------------------------------------------------------------------------------------------------------


def check_nationalize(*, culture: str, actor_is_king: bool, monopoly_acquired: bool) -> list[str]:
    """LotE 5.2.3 / 7.1.1: why an NM action may not be taken (empty when it may)."""
    problems = _renaissance(culture, "NM")
    if not actor_is_king:
        problems.append("only the King can nationalize a monopoly")
    if not monopoly_acquired:
        problems.append("a granted monopoly is simply revoked; NM is for monopolies a House acquired")
    return problems


def nationalize_ruling(*, nation: str, house: str, diplomacy: int, options: ActionOptions = ActionOptions(),
                       dice: Dice | None = None) -> NeedsRuling:
    """LotE 5.2.3: the GM judges the King's success, and the tax loss if the campaign sets none."""
    tax = options.nationalize_tax_penalty_percent
    outcomes = ("success", "failure") if tax >= 0 else ("success with a tax rate loss of N%", "failure")
    return ask("LotE 5.2.3 Nationalize Monopoly", f"Does the King of {nation} expel {house}'s monopoly?",
               options=outcomes, factors={"King's Diplomacy": diplomacy,
                                          "tax rate loss": f"{tax}%" if tax >= 0 else "GM's ruling"},
               applies="success destroys the monopoly's trade value point (7.1.1) and depresses the tax rate",
               dice=dice, purpose=f"nationalize/{nation}/{house}")


# CIR --------------------------------------------------------------------------------------------------------


def check_colonize_inhabited(*, culture: str, leader_title: str, region_culture: str,
                             adjacent_to_controlled_land: bool, gp_carried: float, nfp_carried: int) -> list[str]:
    """LotE 5.2.4 / 3.3.1: why a CIR action may not be taken (empty when it may)."""
    data = _data()["colonize_inhabited_region"]
    problems = _renaissance(culture, "CIR")
    if leader_title not in data["leaders"]:
        problems.append("only a national leader (King, Heir, Prince or Lieutenant) can emplace a colony")
    if region_culture not in data["native_cultures"]:
        problems.append("only regions of Pre-Columbian, Nomadic or Barbarian peoples can be colonized this way")
    if adjacent_to_controlled_land:
        problems.append("the region borders your land: spend the GP and NFP directly (3.3.1), no CIR needed")
    if gp_carried <= 0 and nfp_carried <= 0:
        problems.append("the leader must bring the colonists (NFP) and their gold (GP)")
    return problems


def colonize_inhabited_ruling(*, leader: str, region: str, charisma: int, natives_friendly: bool,
                              escort_points: float, dice: Dice | None = None) -> NeedsRuling:
    """LotE 5.2.4: the GM judges the emplacement and how the natives take it."""
    return ask("LotE 5.2.4 Colonize Inhabited Region", f"Does {leader} emplace the colony in {region}, "
               "and do the natives rise?", options=("emplaced", "emplaced, natives rise", "failure"),
               factors={"Charisma": charisma, "natives Friendly or unsettled": natives_friendly,
                        "escorting army (points)": escort_points},
               applies="regions not already Friendly or unsettled are hostile to colonies",
               dice=dice, purpose=f"cir/{leader}/{region}")


def settle_inhabited(gp: float, nfp: int, unconverted_gpv: int) -> tuple[int, float, int]:
    """LotE 3.3.1: GPv converted by the deposit (15 GP and 15 NFP each), and the GP and NFP left over."""
    data = _data()["colonize_inhabited_region"]
    converted = min(int(gp // data["gp_per_gpv"]), nfp // data["nfp_per_gpv"], unconverted_gpv)
    return converted, gp - converted * data["gp_per_gpv"], nfp - converted * data["nfp_per_gpv"]


# DCL --------------------------------------------------------------------------------------------------------


def check_destroy_combine_location(*, culture: str, leader: LeaderKind, troop_points: float) -> list[str]:
    """LotE 5.2.5: why a DCL action may not be taken (empty when it may)."""
    problems = _renaissance(culture, "DCL")
    if leader == "allied":
        problems.append("a national or mercenary leader must lead a DCL action")
    if troop_points < _data()["destroy_combine_location"]["min_troops"]:
        problems.append("at least one point of infantry or cavalry must go with the leader")
    return problems


def destroy_combine_location(*, location: str, defended: bool, options: ActionOptions = ActionOptions(),
                             dice: Dice | None = None) -> bool | NeedsRuling:
    """LotE 5.2.5: an undefended location falls (True); a defended one is a fight for the GM."""
    if not defended and options.dcl_automatic_when_undefended:
        return True
    return ask("LotE 5.2.5 Destroy Combine Location", f"Is the Combine location at {location} destroyed?",
               factors={"defended by Combine troops or fortifications": defended},
               applies="a defended location must be fought for first", dice=dice, purpose=f"dcl/{location}")

"""LotE Modern Era 5.2: the new action codes RU, EX, NM, CIR and DCL (Renaissance nations and later).

Offers: `ActionCode`, `action_codes`, `action_code`; RU `retraining_target`, `Retraining`, `check_retraining`,
`retrain`, `retraining_attacked`; EX `MappingProgress`, `check_explore`, `explore_ruling`, `record_explore`,
`explore_losses`; NM `check_nationalize`, `nationalize_ruling`; CIR `check_colonize_inhabited`,
`colonize_inhabited_ruling`, `settle_inhabited`; DCL `check_destroy_combine_location`,
`destroy_combine_location`. Outcomes of NM on trade values are in `merchant.nationalize_monopoly`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.core.errors import RulesError
from engine.core.rng import Dice
from engine.rulesets.lote_modern.rules.actions import (
    ActionOptions,
    Cost,
    LeaderKind,
    NeedsRuling,
    ask,
    culture_key,
    may_use_new_codes,
    s5_data,
)


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
                            a.get("king_only", False)) for a in s5_data()["action"])


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
    per = int(s5_data()["retraining"]["old_per_new"])
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
    data = s5_data()["explore"]
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
    gained = int(s5_data()["explore"]["points_per_success"])
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
    data = s5_data()["colonize_inhabited_region"]
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
    data = s5_data()["colonize_inhabited_region"]
    converted = min(int(gp // data["gp_per_gpv"]), nfp // data["nfp_per_gpv"], unconverted_gpv)
    return converted, gp - converted * data["gp_per_gpv"], nfp - converted * data["nfp_per_gpv"]


# DCL --------------------------------------------------------------------------------------------------------


def check_destroy_combine_location(*, culture: str, leader: LeaderKind, troop_points: float) -> list[str]:
    """LotE 5.2.5: why a DCL action may not be taken (empty when it may)."""
    problems = _renaissance(culture, "DCL")
    if leader == "allied":
        problems.append("a national or mercenary leader must lead a DCL action")
    if troop_points < s5_data()["destroy_combine_location"]["min_troops"]:
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

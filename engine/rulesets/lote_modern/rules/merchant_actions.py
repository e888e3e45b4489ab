"""LotE Modern Era 7.4 and chart 8.5: the Merchant House's own actions.

Each action has a check (why it may not be attempted here: an empty list when it may), a ruling
(the supplement gives the factors but no odds, so the GM sets the chance; a d100 is rolled for it when
dice are given) and an outcome applied once the GM has ruled.

Offers: `MerchantAction`, `merchant_actions`, `merchant_action`, `merchant_action_cost`, `Place`,
`Attempt`, `action_ruling`; checks `check_acquire_agent` (7.4.1), `check_establish_factory` (7.4.2),
`check_open_branch_office` (7.4.3), `check_found_cartel_city` (7.4.4), `check_establish_colony`
(7.4.5), `check_acquire_monopoly` (7.4.6), `check_gain_preferential_treatment` (7.4.7),
`check_discredit_competitor` (7.4.8), `check_seize_location` (7.4.9), `check_destroy_location` (7.4.10),
`check_establish_brokerage` (7.4.11); outcomes `apply_status_action`, `net_treatment`.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from engine.core.errors import RulesError
from engine.core.rng import Dice
from engine.core.tables import load_data
from engine.rulesets.lote_modern.rules.actions import Cost, NeedsRuling, ask
from engine.rulesets.lote_modern.rules.mercantile import colony_payments_allowed
from engine.rulesets.lote_modern.rules.merchant import Holding, MerchantOptions, at_least, check_new_status, status

PACKAGE = "engine.rulesets.lote_modern"
DiscreditTarget = Literal["monopoly", "preferential_treatment", "movement"]


@functools.cache
def _data() -> dict[str, Any]:
    return load_data(PACKAGE, "data/s7_merchant.toml")


@dataclass(frozen=True, slots=True)
class MerchantAction:
    """A Merchant House action: Table 7-2's costs with its section's stat and open-endedness."""

    code: str
    name: str
    section: str
    ap: int
    gp: int
    per_year: bool
    open_ended: bool
    stat: str
    intel: str


def merchant_actions() -> tuple[MerchantAction, ...]:
    """Table 7-2 with 7.4.1-7.4.11 (LotE 7.4)."""
    entries = _data()["actions"]
    return tuple(
        MerchantAction(r["code"], r["action"], entries[r["code"]]["section"], int(r["ap"]), int(r["gp"]),
                       bool(r["per_year"]), bool(entries[r["code"]]["open_ended"]), entries[r["code"]]["stat"],
                       r["intel"])
        for r in _data()["table_7_2"]["rows"])


def merchant_action(code: str) -> MerchantAction:
    """One Merchant House action by its code (aa, emf, obo, amn, fct, ecl, gpt, dcm, zl, emb, dl)."""
    for action in merchant_actions():
        if action.code == code.strip().lower():
            return action
    raise RulesError(f"`{code}` is not a Merchant House action (aa, emf, obo, amn, fct, ecl, gpt, dcm, zl, emb, dl)")


def merchant_action_cost(code: str, *, years: int = 1, support_gold: float = 0.0, extra_ap: int = 0,
                         options: MerchantOptions = MerchantOptions()) -> Cost:
    """LotE 7.4 / Table 7-2: AP and GP of an attempt, with gold spent in support and any AP the GM adds."""
    action = merchant_action(code)
    if support_gold < 0 or extra_ap < 0 or years < 0:
        raise RulesError("support gold, extra AP and years cannot be negative")
    if extra_ap and not action.open_ended:
        raise RulesError(f"{action.name} has a fixed cost of {action.ap} AP")
    ap = options.acquire_agent_ap if action.code == "aa" else action.ap
    gp = action.gp * (years if action.per_year else 1)
    return Cost(ap=ap + extra_ap, gp=gp + support_gold)


@dataclass(frozen=True, slots=True)
class Place:
    """A city or region as a merchant action sees it: whose statuses stand there."""

    name: str
    is_city: bool
    nation: str | None = None
    holdings: tuple[Holding, ...] = ()

    def of(self, house: str) -> str | None:
        """The status `house` holds here, if any."""
        return next((h.code for h in self.holdings if h.house == house), None)

    def others(self, house: str) -> tuple[Holding, ...]:
        return tuple(h for h in self.holdings if h.house != house)

    def dump(self) -> dict[str, Any]:
        return {"name": self.name, "is_city": self.is_city, "nation": self.nation,
                "holdings": [h.dump() for h in self.holdings]}

    @classmethod
    def load(cls, raw: Mapping[str, Any]) -> Place:
        return cls(raw["name"], bool(raw["is_city"]), raw.get("nation"),
                   tuple(Holding.load(h) for h in raw.get("holdings", ())))


# --- checks ------------------------------------------------------------------------------------------------


def _rise(house: str, place: Place, code: str, needs: str | None, *, raised_this_turn: bool) -> list[str]:
    """A one-level rise from `needs` to `code` here (7.2), with 7.2's placement and sharing rules."""
    problems: list[str] = []
    held = place.of(house)
    if held != needs:
        have = status(held).name if held else "nothing"
        want = status(needs).name if needs else "no status"
        problems.append(f"{house} must hold {want} in {place.name} first (it holds {have})")
    if raised_this_turn:
        problems.append("a House status rises only one level a turn")
    return problems + check_new_status(place.holdings, house, code, is_city=place.is_city)


def check_acquire_agent(house: str, place: Place, *, within_reach: bool, raised_this_turn: bool = False) -> list[str]:
    """LotE 7.4.1: a region or city within Action Range of (or next to) a House location."""
    problems = [] if within_reach else [f"{place.name} is not within Action Range of, or next to, a House location"]
    return problems + _rise(house, place, "ma", None, raised_this_turn=raised_this_turn)


def check_establish_factory(house: str, place: Place, *, raised_this_turn: bool = False) -> list[str]:
    """LotE 7.4.2: a location already holding the House's Agent."""
    return _rise(house, place, "mf", "ma", raised_this_turn=raised_this_turn)


def check_open_branch_office(house: str, place: Place, *, raised_this_turn: bool = False) -> list[str]:
    """LotE 7.4.3: a city already holding the House's Factory."""
    return _rise(house, place, "bo", "mf", raised_this_turn=raised_this_turn)


def check_found_cartel_city(house: str, place: Place, *, raised_this_turn: bool = False) -> list[str]:
    """LotE 7.4.4: a city with the House's Branch Office and no other House's status."""
    problems = [p for p in _rise(house, place, "ci", "bo", raised_this_turn=raised_this_turn) if "share" not in p]
    if place.others(house):
        problems.append("other Houses' statuses must be withdrawn or destroyed before a Cartel City is founded")
    return problems


def check_establish_colony(house: str, region: Place, *, leader_present: bool, adjacent_to_house_bo: bool,
                           within_trade_range_of_anchor: bool, native_or_unsettled: bool, years_per_turn: float,
                           payments: int, spent_own_nfp: bool) -> list[str]:
    """LotE 7.4.5 / 7.1.2: a qualifying region, reached by a merchant leader, with payments the turn allows."""
    problems: list[str] = []
    if not leader_present:
        problems.append("a merchant leader must be in the province to establish a colony")
    if adjacent_to_house_bo:
        problems.append("the province borders a Branch Office (or Tributary) location: colonize it directly")
    if not within_trade_range_of_anchor:
        problems.append("the province must lie within Trade Range AP of a conduit anchor city the House holds")
    if not native_or_unsettled:
        problems.append("only unsettled regions or regions of Pre-Columbian, Nomadic or Barbarian peoples qualify")
    allowed = colony_payments_allowed(years_per_turn, spent_own_nfp=spent_own_nfp)
    if payments > allowed:
        problems.append(f"this turn allows {allowed} settler payment(s)")
    if payments <= 0 and not spent_own_nfp:
        problems.append("a colony needs settler payments or the House's own NFP")
    if region.others(house):
        problems.append("no other House's status may stand in a Colony's region")
    return problems


def check_acquire_monopoly(house: str, *, capital: Place | None, homeland_city: Place | None = None,
                           monopolies_available: int) -> list[str]:
    """LotE 7.4.6: a Branch Office or better in the capital (or a homeland city if there is none)."""
    seat = capital if capital is not None else homeland_city
    if seat is None:
        return ["the nation has neither a capital nor a homeland city: no monopoly can be acquired there"]
    problems = []
    if not at_least(seat.of(house), "bo"):
        problems.append(f"{house} needs a Branch Office or better in {seat.name}")
    if monopolies_available <= 0:
        problems.append("the nation has no monopolies left to acquire")
    return problems


def _branch_in(house: str, nation_places: Sequence[Place]) -> bool:
    return any(at_least(p.of(house), "bo") for p in nation_places)


def check_gain_preferential_treatment(house: str, *, nation_places: Sequence[Place]) -> list[str]:
    """LotE 7.4.7: a nation where the House has at least a Branch Office."""
    return [] if _branch_in(house, nation_places) else [f"{house} needs a Branch Office or better in the nation"]


def check_discredit_competitor(house: str, target: DiscreditTarget, *, nation_places: Sequence[Place]) -> list[str]:
    """LotE 7.4.8: at least a Branch Office in the nation granting the monopoly or the treatment."""
    problems = [] if target in _data()["discredit_targets"] else [f"`{target}` is not a target for DCM"]
    if not _branch_in(house, nation_places):
        problems.append(f"{house} needs a Branch Office or better in the nation")
    return problems


def check_seize_location(house: str, place: Place, target_house: str) -> list[str]:
    """LotE 7.4.9: another Combine's status to take over, which the House could then hold there."""
    held = place.of(target_house)
    if target_house == house or held is None:
        return [f"{target_house} holds no status in {place.name} to seize"]
    after = tuple(h for h in place.holdings if h.house != target_house)
    return check_new_status(after, house, held, is_city=place.is_city)


def check_destroy_location(house: str, place: Place, target_house: str) -> list[str]:
    """LotE 7.4.10: another Combine's status in a specific city or region."""
    if target_house == house or place.of(target_house) is None:
        return [f"{target_house} holds no status in {place.name} to destroy"]
    return []


def check_establish_brokerage(house: str, *, pool: str, pool_exists: bool, current_broker: str | None) -> list[str]:
    """LotE 7.4.11 / 7.1.4: a geographic area's mercenary pool (another broker's may be taken)."""
    problems = [] if pool_exists else [f"there is no mercenary pool in {pool}"]
    if current_broker == house:
        problems.append(f"{house} already brokers the {pool} pool")
    return problems


# --- rulings and outcomes ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Attempt:
    """What the supplement says bears on a merchant action's success (7.4)."""

    leader: str
    stat: int
    support_gold: float = 0.0
    intel_actions: int = 0
    hostile_religion: bool = False
    different_language: bool = False
    distance_ap: float = 0.0
    in_region: bool = False
    house_locations_in_nation: int = 0
    nation_locations: int = 0


_NOTES = {
    "aa": "hostile religion, a different language and distance count against",
    "emf": "hostile religion, a different language and distance count against",
    "obo": "the detriments of Establish Factory apply",
    "fct": "gold and Support Diplomacy help",
    "ecl": "Battle Assistance helps; see 7.1.2 for the settlers",
    "amn": "difficult; easier when most of the nation's cities hold House statuses; bribes help",
    "gpt": "easier with many House locations in the nation; may reverse a rival's Discredit Competitor",
    "dcm": "a monopoly is a difficult target, preferential treatment moderate, movement easy",
    "zl": "a fight: combat units backing the leader matter",
    "dl": "a fight: combat units backing the leader matter",
    "emb": "another House may hold the brokerage now",
}


def action_ruling(code: str, house: str, target: str, attempt: Attempt, *, dice: Dice | None = None,
                  extra: Mapping[str, object] | None = None) -> NeedsRuling:
    """LotE 7.4: the GM sets the chance of a merchant action from these factors (regions count against, 7.2)."""
    action = merchant_action(code)
    factors: dict[str, object] = {
        f"{attempt.leader}'s {action.stat}": attempt.stat, "gold spent in support": attempt.support_gold,
        f"{action.intel} actions": attempt.intel_actions, "hostile religion": attempt.hostile_religion,
        "different language": attempt.different_language, "distance (AP)": attempt.distance_ap,
        "in a region, not a city": attempt.in_region,
    }
    if code in ("amn", "gpt"):
        factors["House locations in the nation"] = f"{attempt.house_locations_in_nation}/{attempt.nation_locations}"
    factors.update(extra or {})
    return ask(f"LotE {action.section} {action.name}", f"Does {house}'s {action.name} at {target} succeed?",
               factors=factors, applies=_NOTES[action.code], dice=dice,
               purpose=f"merchant/{action.code}/{house}/{target}")


_RAISES = {"aa": "ma", "emf": "mf", "obo": "bo", "fct": "ci", "ecl": "cl"}


def apply_status_action(code: str, house: str, place: Place, *, target_house: str | None = None) -> Place:
    """LotE 7.4.1-7.4.5, 7.4.9, 7.4.10: the location after a successful status action."""
    code = code.strip().lower()
    if code in _RAISES:
        new = _RAISES[code]
        kept = tuple(h for h in place.holdings if h.house != house)
        return replace(place, holdings=(*kept, Holding(house, new)))
    if target_house is None or place.of(target_house) is None:
        raise RulesError(f"{code.upper()} needs the House whose status it takes or destroys")
    taken = place.of(target_house)
    kept = tuple(h for h in place.holdings if h.house != target_house)
    if code == "dl":
        return replace(place, holdings=kept)
    if code == "zl" and taken is not None:
        mine = place.of(house)
        best = taken if mine is None or at_least(taken, mine) else mine
        return replace(place, holdings=(*tuple(h for h in kept if h.house != house), Holding(house, best)))
    raise RulesError(f"`{code}` does not change statuses at a location")


def net_treatment(gain_preferential: int, discredit: int) -> tuple[int, int]:
    """LotE 7.4.8: GPT and DCM aimed at one nation cancel one for one; what remains of each takes effect."""
    cancelled = min(gain_preferential, discredit)
    return gain_preferential - cancelled, discredit - cancelled

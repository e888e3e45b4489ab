"""LotE Modern Era 7.1.1, 7.2 and 7.3: the Merchant House's monopolies, control levels and restrictions.

Offers:
- `MerchantOptions` and `campaign_options` (choices where section 7 is silent or contradicts itself).
- Control statuses (7.2, Table 7-1): `StatusInfo`, `statuses`, `status`, `Holding`, `tax_share`, `nfp_share`,
  `adds_trade_value`, `can_base_msp`, `can_anchor_conduit`, `intel_base`, `hires_mercenaries`,
  `allowed_in`, `next_level`, `at_least`, `coexistence_problems`, `check_new_status`,
  `check_colony_neighbours`, `colony_complete`, `check_home_office_move`.
- Monopolies (7.1.1): `monopoly_limit`, `monopolies_available`, `MonopolyBalance`, `establish_monopoly`,
  `revoke_monopoly`, `nationalize_monopoly`, `Monopoly`, `secure_monopoly`, `may_revoke`, `monopoly_kept`.
- The House's ventures (colonies, cartel trade, brokerage, overland trade) are in `mercantile`.
- Restrictions (7.3): `check_constitution`, `produces_agro`, `consumes_agro`, `msp_support`, `action_range`,
  `Site`, `control_web`, `isolated_sites`, `degrade`, `outside_range_ruling`, `uncontrolled_entry_extra_ap`.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.core.errors import RulesError
from engine.core.rng import Dice
from engine.core.ruleset import Option, OptionValue
from engine.core.tables import load_data
from engine.rulesets.lote_modern.rules.actions import NeedsRuling, ask, option_list, options_of

PACKAGE = "engine.rulesets.lote_modern"
CODES = ("ma", "mf", "bo", "ci", "ho", "cl")
# "Or better" (7.2): the ladder of 7.2, with the Home Office and a Colony above a Cartel City.
_RANK = {"ma": 1, "mf": 2, "bo": 3, "ci": 4, "ho": 5, "cl": 5}


@functools.cache
def _data() -> dict[str, Any]:
    return load_data(PACKAGE, "data/s7_merchant.toml")


@dataclass(frozen=True, slots=True)
class MerchantOptions:
    """Campaign choices for section 7 (each is explained in docs/rulesets/lote-modern/sections-5-7.md)."""

    agents_factories_add_trade: bool = False     # Table 7-1 says yes; 7.2.1 and 7.2.2 say no
    home_office_tax_percent: int = 50            # Table 7-1; 7.2.6 speaks of "full" revenue
    home_office_nfp_percent: int = 100           # 7.2.6: full NFP
    cartel_city_nfp_percent: int = 40            # "not as much as a Home Office": its tax share
    monopoly_cap_counts_monopolies_out: bool = True   # the cap uses the Trade Value before monopolies
    scale_brokerage_upkeep: bool = True          # mercenary upkeep follows turn length like other support
    action_range_divisor: int = 2                # Action Range = Tech Level / 2, rounded up (basic rules)
    control_web_max_links: int = 0               # 0: no limit; else the basic rules' BL + Admin links
    acquire_agent_ap: int = 2                    # Table 7-2 prints 2 AP; 7.4.1 prints 3+ AP

    @classmethod
    def from_campaign(cls, values: Mapping[str, OptionValue]) -> MerchantOptions:
        return options_of(cls, "merchant", values)


def campaign_options() -> tuple[Option, ...]:
    """Section 7's campaign options (names `merchant-...`)."""
    return option_list(MerchantOptions, "merchant", {
        "agents_factories_add_trade": "Agents and Factories add to the House's trade value (Table 7-1; 7.2.1 says no)",
        "home_office_tax_percent": "Share of the Home Office city's GPv the House taxes (Table 7-1: 50)",
        "home_office_nfp_percent": "Share of the Home Office city's NFP the House receives (7.2.6: all)",
        "cartel_city_nfp_percent": "Share of a Cartel City's NFP the House receives",
        "monopoly_cap_counts_monopolies_out": "A nation's monopoly cap uses its trade value before monopolies",
        "scale_brokerage_upkeep": "Mercenary brokerage upkeep shrinks with turn length like other support",
        "action_range_divisor": "Action Range is Tech Level divided by this, rounded up",
        "control_web_max_links": "Most links in a House's control web chain (0: no limit)",
        "acquire_agent_ap": "AP of an Acquire Agent action (Table 7-2: 2; section 7.4.1: 3)",
    }, bounds={"home_office_tax_percent": (0, 100), "home_office_nfp_percent": (0, 100),
               "cartel_city_nfp_percent": (0, 100), "action_range_divisor": (1, 10),
               "control_web_max_links": (0, 100), "acquire_agent_ap": (1, 12)})


# --- control statuses (7.2) --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StatusInfo:
    """A row of Table 7-1."""

    code: str
    name: str
    taxes: float
    nfp: bool
    trade: bool
    base: bool


def statuses() -> tuple[StatusInfo, ...]:
    """Table 7-1 (LotE 7.2)."""
    return tuple(StatusInfo(r["code"], r["status"], float(r["taxes"]), r["nfp"], r["trade"], r["base"])
                 for r in _data()["table_7_1"]["rows"])


def status(code: str) -> StatusInfo:
    """One Table 7-1 status by its code (ma, mf, bo, ci, ho, cl)."""
    for info in statuses():
        if info.code == code.strip().lower():
            return info
    raise RulesError(f"`{code}` is not a Merchant House status (ma, mf, bo, ci, ho, cl)")


def at_least(code: str | None, minimum: str) -> bool:
    """LotE 7.2: whether a status is `minimum` or better (a Colony ranks with the Home Office)."""
    return code is not None and _RANK[code] >= _RANK[minimum]


def tax_share(code: str, options: MerchantOptions = MerchantOptions()) -> float:
    """Table 7-1: the share of the location's GPv and Public Works the House collects."""
    if code == "ho":
        return options.home_office_tax_percent / 100
    return status(code).taxes


def nfp_share(code: str, options: MerchantOptions = MerchantOptions()) -> float:
    """Table 7-1 / 7.2.4-7.2.6: the share of the location's NFP the House receives."""
    if not status(code).nfp:
        return 0.0
    return {"ci": options.cartel_city_nfp_percent / 100, "ho": options.home_office_nfp_percent / 100}.get(code, 1.0)


def adds_trade_value(code: str, options: MerchantOptions = MerchantOptions()) -> bool:
    """Table 7-1 / 7.2.1-7.2.2: whether the location adds to the House's International Trade Value."""
    if code in ("ma", "mf"):
        return options.agents_factories_add_trade
    return status(code).trade


def can_base_msp(code: str) -> bool:
    """Table 7-1 "Base?": a port city holding this status can harbour the House's merchant shipping."""
    return status(code).base


def can_anchor_conduit(code: str) -> bool:
    """Table 7-1 note / Table 2-12: only a Branch Office or better anchors a trade conduit."""
    return at_least(code, "bo")


def intel_base(code: str) -> bool:
    """LotE 7.2.1-7.2.6: every House status can base Intel operations."""
    return code in CODES


def hires_mercenaries(code: str) -> bool:
    """LotE 7.2.3-7.2.6: Branch Offices, Cartel Cities and the Home Office are places to hire mercenaries."""
    return code in ("bo", "ci", "ho")


def allowed_in(code: str, *, is_city: bool) -> bool:
    """LotE 7.2: Branch Offices, Cartel Cities and the Home Office stand only in cities."""
    return is_city or code in _data()["placement"]["region_or_city"]


def next_level(code: str | None) -> str | None:
    """LotE 7.2: the one level a status may rise this turn (None: it cannot rise by this ladder)."""
    ladder: list[str] = _data()["placement"]["ladder"]
    if code is None:
        return ladder[0]
    if code in ladder[:-1]:
        return ladder[ladder.index(code) + 1]
    return None


@dataclass(frozen=True, slots=True)
class Holding:
    """One House's status at a location."""

    house: str
    code: str

    def dump(self) -> list[str]:
        return [self.house, self.code]

    @classmethod
    def load(cls, raw: Sequence[str]) -> Holding:
        return cls(str(raw[0]), str(raw[1]))


def coexistence_problems(holdings: Sequence[Holding]) -> list[str]:
    """LotE 7.2.1-7.2.6: what is wrong with these Houses' statuses sharing one location (empty if none)."""
    rules = _data()["coexistence"]
    problems: list[str] = []
    houses = [h.house for h in holdings]
    for house in sorted({h for h in houses if houses.count(h) > 1}):
        problems.append(f"{house} can hold only one status in a location")
    for mine in holdings:
        others = [h.code for h in holdings if h.house != mine.house]
        name = status(mine.code).name
        if mine.code in rules["exclusive"] and others:
            problems.append(f"a {name} cannot share its location with another House's status")
        elif mine.code == "ma" and others.count("ma") > rules["ma_other_agents"]:
            problems.append(f"a Merchant Agent shares a location with at most {rules['ma_other_agents']} other Agents")
        elif mine.code == "mf" and others.count("mf") > rules["mf_other_factories"]:
            problems.append(f"a Merchant Factory shares a location with at most {rules['mf_other_factories']} "
                            "other Factories")
        elif mine.code == "bo":
            factors, offices = others.count("mf"), others.count("bo")
            fits = ((factors <= rules["bo_other_factories"] and offices == 0)
                    or (offices <= rules["bo_other_branch_offices"] and factors == 0))
            if not fits:
                problems.append("a Branch Office shares a location with two other Factories or one other "
                                "Branch Office, not more")
    return list(dict.fromkeys(problems))


def check_new_status(holdings: Sequence[Holding], house: str, code: str, *, is_city: bool) -> list[str]:
    """LotE 7.2: why `house` may not hold `code` here, replacing its own status (empty when it may)."""
    problems = [] if allowed_in(code, is_city=is_city) else [f"a {status(code).name} must be in a city"]
    after = [h for h in holdings if h.house != house] + [Holding(house, code)]
    return problems + coexistence_problems(after)


def check_colony_neighbours(other_cultures: Iterable[str], *, unconverted_gpv: int) -> list[str]:
    """LotE 7.2.5: a Colony shares its region only with native cultures, and only while GPv remain."""
    allowed = set(_data()["coexistence"]["colony_shares_with"])
    others = list(other_cultures)
    problems = [f"a Colony cannot share its region with a {c} status" for c in others if c not in allowed]
    if others and unconverted_gpv <= 0 and not problems:
        problems.append("once every GPv is converted, the Colony no longer shares its region")
    return problems


def colony_complete(converted_gpv: int, target_gpv: int) -> bool:
    """LotE 7.2.5: a Colony whose GPv are all converted (or at their maximum) becomes Friendly."""
    return converted_gpv >= target_gpv


def check_home_office_move(code_at_target: str | None, *, is_city: bool) -> list[str]:
    """LotE 7.2.6: the Home Office moves only to a city where the House holds a Cartel City or better."""
    if is_city and code_at_target in ("ci", "cl"):
        return []
    return ["the Home Office moves only to a city of at least Cartel City status"]


# --- monopolies (7.1.1) ------------------------------------------------------------------------------------


def monopoly_limit(trade_value: int) -> int:
    """LotE 7.1.1: a nation is worth the square root of its Trade Value in monopolies, rounded up."""
    return math.ceil(math.sqrt(max(0, trade_value)) - 1e-12)


def monopolies_available(nation_trade_value: int, monopolies_out: int,
                         options: MerchantOptions = MerchantOptions()) -> int:
    """LotE 7.1.1: monopolies still to be had in a nation, given those already held by any House."""
    basis = nation_trade_value + (monopolies_out if options.monopoly_cap_counts_monopolies_out else 0)
    return max(0, monopoly_limit(basis) - monopolies_out)


@dataclass(frozen=True, slots=True)
class MonopolyBalance:
    """The trade values a monopoly moves: the nation's, and the House's with its NMV."""

    nation_trade_value: int
    house_trade_value: int
    house_nmv: float


def _nmv(value: float) -> float:
    return round(value, 4)


def establish_monopoly(balance: MonopolyBalance, *, count: int = 1, monopolies_out: int = 0,
                       options: MerchantOptions = MerchantOptions()) -> MonopolyBalance:
    """LotE 7.1.1: each monopoly moves one Trade Value point to the House and adds 0.01 to its NMV."""
    if count > monopolies_available(balance.nation_trade_value, monopolies_out, options):
        raise RulesError("the nation has no more monopolies to give (the square root of its Trade Value)")
    data = _data()["monopolies"]
    moved = count * int(data["trade_value_per_monopoly"])
    return MonopolyBalance(balance.nation_trade_value - moved, balance.house_trade_value + moved,
                           _nmv(balance.house_nmv + count * float(data["nmv_per_monopoly"])))


def revoke_monopoly(balance: MonopolyBalance, *, count: int = 1) -> MonopolyBalance:
    """LotE 7.1.1/7.4.6: a revoked or lost monopoly gives its Trade Value point back to the nation."""
    data = _data()["monopolies"]
    moved = count * int(data["trade_value_per_monopoly"])
    return MonopolyBalance(balance.nation_trade_value + moved, balance.house_trade_value - moved,
                           _nmv(balance.house_nmv - count * float(data["nmv_per_monopoly"])))


def nationalize_monopoly(balance: MonopolyBalance) -> MonopolyBalance:
    """LotE 7.1.1/5.2.3: a nationalized monopoly's Trade Value point is destroyed, not returned."""
    data = _data()["monopolies"]
    lost = int(data["trade_value_per_monopoly"])
    return MonopolyBalance(balance.nation_trade_value, balance.house_trade_value - lost,
                           _nmv(balance.house_nmv - float(data["nmv_per_monopoly"])))


@dataclass(frozen=True, slots=True)
class Monopoly:
    """A House's monopoly in a nation: granted (revocable at will) or acquired (only NM removes it)."""

    house: str
    nation: str
    acquired: bool = False

    def dump(self) -> dict[str, Any]:
        return {"house": self.house, "nation": self.nation, "acquired": self.acquired}

    @classmethod
    def load(cls, raw: Mapping[str, Any]) -> Monopoly:
        return cls(raw["house"], raw["nation"], bool(raw["acquired"]))


def secure_monopoly(monopoly: Monopoly) -> Monopoly:
    """LotE 7.4.6: a successful Acquire Monopoly turns a granted monopoly into an acquired one."""
    return replace(monopoly, acquired=True)


def may_revoke(monopoly: Monopoly) -> bool:
    """LotE 7.1.1: the granting nation may revoke a granted monopoly at any time, not an acquired one."""
    return not monopoly.acquired


def monopoly_kept(status_in_capital: str | None) -> bool:
    """LotE 7.4.6: a monopoly lasts while the House keeps a Branch Office or better in the capital."""
    return at_least(status_in_capital, "bo")


# --- restrictions (7.3) ------------------------------------------------------------------------------------


def check_constitution(*, society: str, economy: str, government: str) -> list[str]:
    """LotE 7.3.1-7.3.3: the societies, economies and governments open to a Merchant House."""
    rules = _data()["restrictions"]
    problems = []
    if society not in rules["societies"]:
        problems.append(f"a Merchant House is {', '.join(rules['societies'])} in society, not {society}")
    if economy not in rules["economies"]:
        problems.append(f"a Merchant House has a {' or '.join(rules['economies'])} economy, not {economy}")
    if government not in rules["governments"]:
        problems.append(f"a Merchant House is an {' or a '.join(rules['governments'])}, not {government}")
    return problems


def produces_agro(code: str) -> bool:
    """LotE 7.3.5: the special statuses produce no Agro; regular statuses and Colonies do."""
    return code not in ("ma", "mf", "bo", "ci", "ho")


def consumes_agro(code: str, *, is_city: bool) -> bool:
    """LotE 7.3.5: regular statuses consume Agro; a Colony only when it is a city."""
    if code == "cl":
        return is_city
    return produces_agro(code)


def msp_support(msp: float, *, turn_factor: float = 1.0) -> float:
    """LotE 7.3.6: 0.1 GP per MSP a turn, adjusted for turn length (shown as Troop Support)."""
    return float(_data()["support"]["gp_per_msp"]) * msp * turn_factor


def action_range(tech_level: int, options: MerchantOptions = MerchantOptions()) -> int:
    """LotE 7.3.7: the Action Range, from the basic rules: Tech Level / 2, rounded up."""
    return math.ceil(tech_level / options.action_range_divisor)


@dataclass(frozen=True, slots=True)
class Site:
    """A House status at a location; a Colony's `levels` are its converted GPv."""

    location: str
    code: str
    levels: int = 1


_SUPPORTED_BY = {
    "ci": ("ho", "ci", "cl"), "cl": ("ho", "ci", "cl"), "bo": ("ho", "ci", "cl"),
    "mf": ("bo", "ci", "cl", "ho"), "ma": ("mf", "bo", "ci", "cl", "ho"),
}


def control_web(sites: Sequence[Site], *, tributary_or_better: Iterable[str],
                reach: Callable[[str], Mapping[str, float]], action_range_ap: float,
                options: MerchantOptions = MerchantOptions()) -> set[str]:
    """LotE 7.3.7: the locations tied to the House by a chain of supporting sites, each within range.

    The chain starts at the Home Office and the House's Tributary-or-better regions and cities;
    `reach(location)` gives the AP a merchant leader needs from there to every other location.
    """
    connected: dict[str, str] = dict.fromkeys(tributary_or_better, "regular")
    connected.update({s.location: "ho" for s in sites if s.code == "ho"})
    pending = [s for s in sites if s.location not in connected]
    links = 0
    while pending:
        links += 1
        if options.control_web_max_links and links > options.control_web_max_links:
            break
        added: dict[str, str] = {}
        for site in pending:
            costs = reach(site.location)
            for location, kind in connected.items():
                supports = kind == "regular" or kind in _SUPPORTED_BY[site.code]
                if supports and costs.get(location, math.inf) <= action_range_ap:
                    added[site.location] = site.code
                    break
        if not added:
            break
        connected.update(added)
        pending = [s for s in pending if s.location not in added]
    return set(connected)


def isolated_sites(sites: Sequence[Site], **web: Any) -> list[Site]:
    """LotE 7.3.7: the sites outside the control web; each degrades one level this turn."""
    connected = control_web(sites, **web)
    return [s for s in sites if s.location not in connected]


def degrade(site: Site) -> Site | None:
    """LotE 7.3.7: an isolated site drops one level (a Colony loses one converted GPv); None when gone."""
    if site.code == "cl":
        return replace(site, levels=site.levels - 1) if site.levels > 1 else None
    if site.code == "ho":
        return site
    ladder: list[str] = _data()["placement"]["ladder"]
    index = ladder.index(site.code)
    return replace(site, code=ladder[index - 1]) if index > 0 else None


def outside_range_ruling(*, leader: str, location: str, dice: Dice | None = None) -> NeedsRuling:
    """LotE 7.3.7: a leader who creates a status outside the control range is checked for revolt."""
    return ask("LotE 7.3.7 Controlling the Domains", f"Does {leader} revolt after creating a status at {location}, "
               "outside the House's control range?", options=("stays loyal", "revolts and founds his own House"),
               applies="the base rulebook's revolt check", dice=dice, purpose=f"revolt/{leader}/{location}")


def uncontrolled_entry_extra_ap(*, house_status_present: bool, same_language: bool, discredited: bool) -> int:
    """LotE 7.3.8: the extra AP a merchant leader pays to enter an uncontrolled region or city."""
    extra = int(_data()["movement"]["uncontrolled_extra_ap"])
    if discredited:
        return extra
    return 0 if house_status_present or same_language else extra

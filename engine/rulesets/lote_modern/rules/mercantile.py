"""LotE Modern Era 7.1.2-7.1.5 and 7.6: the Merchant House's ventures and where it may build.

Offers:
- Colonies (7.1.2): `colony_payments_allowed`, `colony_payment_gp`, `roll_colony_settlers`, `ColonyProgress`,
  `advance_colony`.
- Cartel trade (7.1.3): `check_cartel_route`, `cartel_share_turn`.
- Mercenary brokerage (7.1.4): `brokerage_upkeep`, `brokerage_kept`, `pool_conversion_cost`, `check_hire`.
- Overland trade (7.1.5): `OverlandRoute`, `check_overland_route`, `overland_route_length`.
- Mercantile construction (7.6): `BuildKind`, `check_house_build`.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Literal

from engine.core.errors import RulesError
from engine.core.rng import Dice
from engine.core.tables import load_data
from engine.core.visibility import GM_ONLY, Visibility
from engine.rulesets.lote_modern.rules.merchant import MerchantOptions, at_least, can_base_msp

PACKAGE = "engine.rulesets.lote_modern"


@functools.cache
def _data() -> dict[str, Any]:
    return load_data(PACKAGE, "data/s7_merchant.toml")


# --- colonies (7.1.2) --------------------------------------------------------------------------------------


def _half_up(value: float) -> int:
    return int(Decimal(str(value)).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def colony_payments_allowed(years_per_turn: float, *, spent_own_nfp: bool = False) -> int:
    """LotE 7.1.2: one settler payment per year of the turn (one if shorter), less one if own NFP settled."""
    payments = max(1, int(years_per_turn))
    return max(0, payments - (1 if spent_own_nfp else 0))


def colony_payment_gp(years_per_turn: float) -> int:
    """LotE 7.1.2: 25 GP a payment, scaled down for turns under a year (.5 rounds up)."""
    gp = int(_data()["colonies"]["payment_gp"])
    return gp if years_per_turn >= 1 else _half_up(gp * years_per_turn)


def roll_colony_settlers(dice: Dice, *, payments: int, years_per_turn: float, purpose: str,
                         visibility: Visibility = GM_ONLY) -> int:
    """LotE 7.1.2: each payment draws 0-5 NFP (a d6 less one), scaled for turns under a year."""
    data = _data()["colonies"]
    low, high = int(data["settlers_min"]), int(data["settlers_max"])
    total = 0
    for n in range(payments):
        roll = dice.roll(1, high - low + 1, purpose=f"{purpose}/payment{n + 1}", visibility=visibility)
        settlers = roll.total - 1 + low
        total += settlers if years_per_turn >= 1 else _half_up(settlers * years_per_turn)
    return total


@dataclass(frozen=True, slots=True)
class ColonyProgress:
    """A mercantile colony: GPv converted so far and the GP and NFP put toward the next one."""

    levels: int = 0
    gp: float = 0.0
    nfp: int = 0


def advance_colony(progress: ColonyProgress, *, gp: float = 0.0, nfp: int = 0, max_levels: int) -> ColonyProgress:
    """LotE 7.1.2: a level (one GPv) completes each time 15 GP and 15 NFP have gone into it."""
    data = _data()["colonies"]
    need_gp, need_nfp = float(data["gp_per_level"]), int(data["nfp_per_level"])
    levels, have_gp, have_nfp = progress.levels, progress.gp + gp, progress.nfp + nfp
    while levels < max_levels and have_gp >= need_gp and have_nfp >= need_nfp:
        levels, have_gp, have_nfp = levels + 1, have_gp - need_gp, have_nfp - need_nfp
    return ColonyProgress(levels, have_gp, have_nfp)


# --- cartel trade (7.1.3) ----------------------------------------------------------------------------------


def check_cartel_route(*, house_status_in_cartel_port: str | None, house_status_in_target_port: str | None,
                       target_is_house: bool = False, other_side_carried_by_house: bool = False,
                       land_trade: bool = False, aerial: bool = False, base_port_status: str | None = None,
                       base_port_free_msp: float = 0.0, msp: float = 0.0,
                       revoked_from_another_house_this_turn: bool = False) -> list[str]:
    """LotE 7.1.3 (and 2.8.5): why a House may not carry this route for its Cartel nation (empty if it may)."""
    problems: list[str] = []
    if not (at_least(house_status_in_cartel_port, "bo") and at_least(house_status_in_target_port, "bo")):
        problems.append("the House needs a Branch Office or better in both nations' base port cities")
    if target_is_house:
        problems.append("trade between a nation and a Merchant House cannot be carried by a second House")
    if other_side_carried_by_house:
        problems.append("a House carries only one nation's side of a route, and no other House carries the other")
    if land_trade:
        problems.append("land trade between neighbours cannot be carried by a Merchant House")
    if aerial:
        problems.append("aerial trade routes cannot be cartel trade (2.8.5)")
    if base_port_status is None or not can_base_msp(base_port_status):
        problems.append("the route's MSP must be based at a port where the House may base shipping")
    if msp > base_port_free_msp + 1e-9:
        problems.append(f"the base port has room for only {base_port_free_msp:g} more MSP")
    if revoked_from_another_house_this_turn:
        problems.append("revoked cartel rights pass to a different House from the following turn")
    return problems


def cartel_share_turn(turn: int) -> int:
    """LotE 7.1.3: the House collects cartel gold at the end of `turn`; the Cartel nation gets its share next turn."""
    return turn + 1


# --- mercenary brokerage (7.1.4) ---------------------------------------------------------------------------


def brokerage_upkeep(units: float, *, turn_factor: float = 1.0, options: MerchantOptions = MerchantOptions()) -> float:
    """LotE 7.1.4: the least a broker pays its pool each turn (0.5 GP a unit, scaled like all support)."""
    factor = turn_factor if options.scale_brokerage_upkeep else 1.0
    return float(_data()["brokerage"]["min_upkeep_per_unit"]) * units * factor


def brokerage_kept(*, paid: float, units: float, orders_submitted: bool, turn_factor: float = 1.0,
                   options: MerchantOptions = MerchantOptions()) -> bool:
    """LotE 7.1.4: a broker who underpays the pool, or sends no orders, loses its rights (and angers the pool)."""
    return orders_submitted and paid + 1e-9 >= brokerage_upkeep(units, turn_factor=turn_factor, options=options)


def pool_conversion_cost(old: Mapping[str, int], new: Mapping[str, int], gp_cost: Mapping[str, float]) -> float:
    """LotE 7.1.4.1: rebuilding a pool unit for unit; the broker pays to build every unit it adds."""
    if sum(old.values()) != sum(new.values()):
        raise RulesError("a pool is rebuilt unit for unit: the number of units must stay the same")
    missing = [code for code in new if new[code] > old.get(code, 0) and code not in gp_cost]
    if missing:
        raise RulesError(f"no build cost for {', '.join(missing)}")
    return sum(gp_cost[code] * (count - old.get(code, 0)) for code, count in new.items() if count > old.get(code, 0))


def check_hire(*, at_city: bool, in_pool_zone: bool, has_hiring_contact: bool = False,
               bid_through_contact: bool = True, ended_last_turn_here: bool = False) -> list[str]:
    """LotE 7.1.4.2: mercenaries are hired at a city of their zone (or where they ended the last turn)."""
    problems: list[str] = []
    if not at_city or not (in_pool_zone or ended_last_turn_here):
        problems.append("mercenaries are hired at a city in their pool's zone, or where they ended the last turn")
    if has_hiring_contact and not bid_through_contact:
        problems.append("this pool has a Hiring Contact: bids go through that player or are ignored")
    return problems


# --- overland trade (7.1.5) --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OverlandRoute:
    """A Royal Road / Railroad trade route from a landlocked capital to the sea or the Home Office."""

    land_ap: float
    sea_zones: int
    contiguous: bool
    reaches_home_office_by_land: bool
    sea_route_to_home_office: bool
    status_in_capital: str | None
    statuses_along_road: tuple[str | None, ...]
    permissions: tuple[bool, ...]


def check_overland_route(route: OverlandRoute, *, trade_range: int) -> list[str]:
    """LotE 7.1.5: the four conditions for a House to open an overland trade route (empty when met)."""
    problems: list[str] = []
    if not route.contiguous:
        problems.append("a contiguous Royal Road or Railroad must link the capital to a port or the Home Office")
    if not route.reaches_home_office_by_land and not route.sea_route_to_home_office:
        problems.append("the road's port must reach the Home Office by a sea trade route")
    if not at_least(route.status_in_capital, "bo"):
        problems.append("the House needs a Branch Office or better in the landlocked capital")
    if not all(at_least(s, "mf") for s in route.statuses_along_road):
        problems.append("the House needs a Merchant Factory or better in every city along the road")
    if not all(route.permissions):
        problems.append("every nation the road crosses must give its permission")
    limit = trade_range / int(_data()["overland"]["range_divisor"])
    if route.land_ap > limit:
        problems.append(f"the land-bound part may be at most {limit:g} AP (Trade Range / 2)")
    return problems


def overland_route_length(route: OverlandRoute) -> float:
    """LotE 7.1.5: the route counts as a sea route of the land AP plus the sea zones to the Home Office."""
    return route.land_ap + route.sea_zones


# --- mercantile construction (7.6) ------------------------------------------------------------------------

BuildKind = Literal["unit", "yard-unit", "export", "railroad"]
_CARTEL = {"yard-unit": "the units its own yard or factory builds", "export": "export munitions",
           "railroad": "railroads"}


def check_house_build(kind: BuildKind, *, at_home_office: bool = False, friendly_city_in_hbz: bool = False,
                      cartel_city: bool = False, industry_site: bool = False,
                      yard_builds_this: bool = False) -> list[str]:
    """LotE 7.6: why a House may not build this here (empty when it may; capacity and costs are checked apart).

    `kind`: a regular unit for the House itself, an airship/steamship/submarine from a specific yard, an
    export unit, or a railroad. `industry_site`: a Mercantile Industry site (or other factory or yard) stands
    in the city; `yard_builds_this`: the city's specific yard builds this kind of unit.
    """
    if at_home_office or friendly_city_in_hbz:
        if kind == "yard-unit" and not yard_builds_this:
            return ["no yard here builds that kind of unit"]
        return []
    if not cartel_city:
        return ["a House builds at its Home Office, a Friendly city in its Homeland Build Zone, "
                "or a Cartel City with a Mercantile Industry site"]
    if kind == "unit":
        return ["units for the House's own use are built within its Homeland Build Zone"]
    if not industry_site:
        return [f"a Cartel City builds {_CARTEL[kind]} only with a Mercantile Industry site, factory or yard"]
    if kind == "yard-unit" and not yard_builds_this:
        return ["no yard here builds that kind of unit"]
    return []

"""Reserve units: building, placing, activating and dividing them (LotE Modern Era 3.2.2, optional rule).

Offers: `ReserveCost`, `reserve_build_cost` (Table 3-2), `reserve_activation_cost` (Table 3-3),
`reserve_build_problems` (3.2.2.1), `placement_problems` (3.2.2.2), `activation_problems` (3.2.2.3),
`reserve_troop_support`, `divide_reserves` (3.2.2.4).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine.core.errors import RulesError
from engine.rulesets.lote_modern.rules.tech import Culture, chart, column


@dataclass(frozen=True, slots=True)
class ReserveCost:
    """GP and NFP per unit."""

    gp: float
    nfp: int


def _gp_for(printed: str, culture: Culture) -> float | None:
    """Read a printed "R / I1" cell (or one value for both) for a culture; None where it prints NA."""
    parts = [part.strip() for part in printed.split("/")]
    cell = parts[0] if len(parts) == 1 or culture is Culture.RENAISSANCE else parts[1]
    return None if cell == "NA" else float(cell)


def _nation(culture: Culture) -> str:
    return "a Renaissance nation" if culture is Culture.RENAISSANCE else "an Industrial nation"


def _row(table: str, code: str, culture: Culture) -> Mapping[str, Any]:
    if not culture.modern:
        raise RulesError("only Renaissance and Industrial nations keep units in reserve")
    key = column(culture)
    wanted = code.strip().upper()
    units = chart("s3_reserves")[table]["unit"]
    for row in units:
        if row["codes"].get(key) == wanted:
            found: Mapping[str, Any] = row
            return found
    for row in units:
        if wanted in row["codes"].values():
            raise RulesError(f"{row['name']} is not allowed in reserve for {_nation(culture)}")
    raise RulesError(f"`{code}` cannot be held in reserve (only regular and inexperienced mobile units)")


def _cost(table: str, code: str, culture: Culture) -> ReserveCost:
    row = _row(table, code, culture)
    gp = _gp_for(row["gp"], culture)
    if gp is None:
        raise RulesError(f"{row['name']} is not allowed in reserve for {_nation(culture)}")
    return ReserveCost(gp, int(row["nfp"]))


def reserve_build_cost(code: str, culture: Culture) -> ReserveCost:
    """What one unit costs to build straight into reserve (LotE 3.2.2.1, Table 3-2)."""
    return _cost("build", code, culture)


def reserve_activation_cost(code: str, culture: Culture) -> ReserveCost:
    """The fee to call one reserve unit up (LotE 3.2.2.3, Table 3-3)."""
    return _cost("activate", code, culture)


def reserve_build_problems(code: str, culture: Culture, *, friendly_city_in_hbz: bool) -> list[str]:
    """Why a unit cannot be built as a reserve here; empty when it can (LotE 3.2.2.1).

    Only regular and inexperienced mobile units (those of Table 3-2), at a Friendly city in the HBZ; the
    unit's yard capacity is still needed (`industry.unit_yard_cost`).
    """
    problems = []
    try:
        reserve_build_cost(code, culture)
    except RulesError as exc:
        problems.append(str(exc))
    if not friendly_city_in_hbz:
        problems.append("reserves are built at a Friendly city within the Homeland Build Zone")
    return problems


def placement_problems(code: str, culture: Culture, *, began_turn_at_controlled_city: bool,
                       activated_this_turn: bool = False) -> list[str]:
    """Why existing units cannot go into reserve this turn; empty when they can (LotE 3.2.2.2)."""
    problems = []
    try:
        _row("build", code, culture)
    except RulesError as exc:
        problems.append(str(exc))
    if not began_turn_at_controlled_city:
        problems.append("units go into reserve from a controlled city where they began the turn")
    if activated_this_turn:
        problems.append("units called up this turn cannot go back into reserve the same turn")
    return problems


def activation_problems(*, city_or_fortress: bool, controlled: bool, friendly: bool, besieged: bool,
                        within_hbz: bool, placed_this_turn: bool = False) -> list[str]:
    """Why reserves cannot be called up here this turn; empty when they can (LotE 3.2.2.3)."""
    problems = []
    if not (city_or_fortress and controlled and friendly) or besieged:
        problems.append("reserves are called up in a controlled, unbesieged Friendly City or Fortress")
    if not within_hbz:
        problems.append("reserves are called up within the Homeland Build Zone of the nation that placed them")
    if placed_this_turn:
        problems.append("units placed in reserve this turn cannot be called up the same turn")
    return problems


def reserve_troop_support() -> int:
    """Reserves pay no troop support, nor do units the turn they are built as reserves (LotE 3.2.2)."""
    return 0


def divide_reserves(reserves: Mapping[str, int], cities: Mapping[str, int], *,
                    whole_percent: bool = True) -> dict[str, dict[str, int]]:
    """Reserves shared among successor states by their share of the old nation's friendly cities (3.2.2.4).

    Each share is rounded to a whole percent, as the worked example does (set `whole_percent=False` for exact
    shares), and units are rounded down. Whole-percent shares can add up to a little over 100%: any units so
    created are taken back from the successors with the largest shares.
    """
    total = sum(cities.values())
    if total <= 0:
        raise RulesError("the old nation's friendly cities must be counted to divide its reserves")
    shares: dict[str, Fraction] = {}
    for successor, count in cities.items():
        share = Fraction(count, total)
        shares[successor] = Fraction(math.floor(share * 100 + Fraction(1, 2)), 100) if whole_percent else share
    out: dict[str, dict[str, int]] = {successor: {} for successor in cities}
    for code, units in reserves.items():
        got = {successor: math.floor(units * share) for successor, share in shares.items()}
        for successor in sorted(shares, key=lambda s: -shares[s]):
            if sum(got.values()) <= units:
                break
            got[successor] -= 1
        for successor, count in got.items():
            out[successor][code] = count
    return out

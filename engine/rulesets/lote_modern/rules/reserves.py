"""Reserve units: building, placing, activating and dividing them (LotE Modern Era 3.2.2, optional rule).

Offers: `ReserveCost`, `reserve_build_cost` (Table 3-2), `reserve_activation_cost` (Table 3-3).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
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

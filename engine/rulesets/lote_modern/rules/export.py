"""LotE Modern Era 7.5 and chart 8.5: munitions and heavy machinery built for export.

Offers: `conversions` (Table 7-3), `exportable`, `upgrade`, `check_upgrade`, `upgrade_cost`,
`export_build_cost`, `export_cargo`, `crew_warships`, `export_label`, `parse_export`.
Unit codes are the build charts' (Tables 8-2, 8-3), in lower case; an export unit is written `10(ha)`.
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass
from typing import Any

from engine.core.errors import RulesError
from engine.core.tables import load_data
from engine.rulesets.lote_modern.rules.actions import Cost, unit_profile

PACKAGE = "engine.rulesets.lote_modern"
_EXPORT = re.compile(r"^\s*(\d+)\s*\(\s*([a-z]+)\s*\)\s*$", re.IGNORECASE)


@functools.cache
def _data() -> dict[str, Any]:
    return load_data(PACKAGE, "data/s7_export.toml")


@dataclass(frozen=True, slots=True)
class Conversion:
    """A row of Table 7-3: the export units, the national units they turn, and what those become."""

    exports: tuple[str, ...]
    turns: tuple[str, ...]
    into: tuple[str, ...]
    printed_turns: str
    printed_into: str


def _codes(cell: str) -> tuple[str, ...]:
    cell = re.sub(r"\(nfp equivalent\)", "", cell)
    return tuple(c for c in re.split(r"[\s,()]+|\bor\b", cell) if c and c != "or")


@functools.cache
def conversions() -> tuple[Conversion, ...]:
    """Table 7-3 (LotE 7.5)."""
    return tuple(Conversion(tuple(r["export"]), _codes(r["turns"]), _codes(r["into"]), r["turns"], r["into"])
                 for r in _data()["table_7_3"]["rows"])


def _conversion(export_code: str) -> Conversion:
    code = export_code.strip().lower().strip("()")
    for row in conversions():
        if code in row.exports:
            return row
    raise RulesError(f"`{export_code}` is not built for export (Table 7-3)")


def exportable(code: str) -> bool:
    """LotE 7.5: whether a unit code appears in Table 7-3 as an export unit."""
    return any(code.strip().lower().strip("()") in row.exports for row in conversions())


def upgrade(export_code: str, national_code: str) -> str:
    """Table 7-3: the unit a national unit becomes when fitted with an export unit (elite stays elite)."""
    row = _conversion(export_code)
    national = national_code.strip().lower()
    if national not in row.turns:
        code = export_code.strip().lower().strip("()")
        raise RulesError(f"({code}) turns {row.printed_turns}, not {national}")
    if len(row.exports) > 1:           # steamships and airships become the export unit itself
        return export_code.strip().lower().strip("()")
    regular, elite = row.into[0], row.into[-1]
    return elite if unit_profile(national).training == "elite" else regular


def check_upgrade(export_code: str, national_code: str, *, ship: bool, at_port: bool) -> list[str]:
    """LotE 7.5: why this upgrade may not be made here (empty when it may)."""
    problems: list[str] = []
    try:
        upgrade(export_code, national_code)
    except RulesError as exc:
        problems.append(str(exc))
    if ship and not at_port:
        problems.append("ship units are upgraded at a Port City or Port Area")
    return problems


def upgrade_cost() -> Cost:
    """LotE 7.5: fitting export arms to a unit or group of units takes 6 AP."""
    return Cost(ap=int(_data()["export"]["upgrade_ap"]))


def export_build_cost(gp: float) -> Cost:
    """LotE 7.5: an export unit costs the usual GP (and Yard Capacity) but no NFP."""
    return Cost(gp=gp, nfp=int(_data()["export"]["nfp"]))


def export_cargo(regular_cargo: float) -> float:
    """LotE 7.5: an export unit takes half the cargo of the regular unit."""
    return regular_cargo * float(_data()["export"]["cargo_factor"])


def crew_warships(steamship_nfp: int, warship_nfp: int = 1) -> int:
    """LotE 7.5 note: warship units converted to crew an export steamship (its NFP build cost in NFP)."""
    if steamship_nfp <= 0 or warship_nfp <= 0:
        raise RulesError("NFP costs must be positive")
    return math.ceil(steamship_nfp / warship_nfp)


def export_label(count: int, code: str) -> str:
    """LotE 7.5: export units are written with their code in parentheses, e.g. `10(ha)`."""
    return f"{count}({code.strip().lower()})"


def parse_export(text: str) -> tuple[int, str]:
    """`10(ha)` → (10, "ha"); RulesError unless it names an export unit."""
    m = _EXPORT.match(text)
    if not m:
        raise RulesError(f"`{text}` is not an export entry like 10(ha)")
    code = m.group(2).lower()
    if not exportable(code):
        raise RulesError(f"`{code}` is not built for export (Table 7-3)")
    return int(m.group(1)), code

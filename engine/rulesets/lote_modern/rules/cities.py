"""Colonies, regional improvements, city growth and co-builds (LotE Modern Era 3.3).

Offers: `max_city_size` (Table 3-5), `max_public_works` (Table 3-6), `CoBuilder`, `cobuild_status_increase`
(Table 3-7), `status_level`/`status_code` (Table 3-8), `cobuild_status`.
"""

from __future__ import annotations

from enum import StrEnum

from engine.core.errors import RulesError
from engine.rulesets.lote_modern.rules.tech import Number, Terrain, chart, exact


def _urban_tech() -> int:
    return int(chart("s3_rules")["urban"]["tech"])


def max_city_size(terrain: Terrain, tech_level: int, *, oasis_as: Terrain = Terrain.DESERT) -> int | None:
    """The largest city GPv a TL 12+ nation may build up to (LotE 3.3.4, Table 3-5); None below TL 12.

    Table 3-5 has no Oasis row: an oasis reads the row of `oasis_as` (Desert unless the campaign says).
    """
    if tech_level < _urban_tech():
        return None
    code = (oasis_as if terrain is Terrain.OASIS else terrain).value
    for row in chart("s3_cities")["max_city_size"]["rows"]:
        if code in row["terrain"]:
            return int(row["max_gpv"])
    raise RulesError(f"Table 3-5 has no row for terrain `{terrain.value}`")


def max_public_works(gpv: Number, tech_level: int, *, terrain: Terrain | None = None,
                     city: bool = False) -> float | None:
    """The public works limit of a TL 12+ nation's city or region (LotE 3.3.4, Table 3-6).

    None means no change: the basic rulebook's limit still applies (other terrains, or below TL 12).
    """
    if tech_level < _urban_tech():
        return None
    table = chart("s3_cities")["max_public_works"]
    if city:
        return float(exact(gpv) * table["city"])
    if terrain is None:
        raise RulesError("a region's public works limit depends on its terrain")
    multiple = table["region"].get(terrain.value)
    return None if multiple is None else float(exact(gpv) * multiple)


class CoBuilder(StrEnum):
    """Who may co-build a city GPv, by the column codes of Table 3-8."""

    MERCHANT_HOUSE = "MH"
    PRIMACY = "PRA"
    ORDER = "RO"


def cobuild_status_increase(starting_gpv: int) -> int:
    """Status levels a co-builder gains by adding a GPv to a city of this size (LotE 3.3.5, Table 3-7)."""
    for row in chart("s3_cities")["status_increase"]["rows"]:
        low, high = row["gpv"]
        if low <= starting_gpv <= high:
            return int(row["increase"])
    raise RulesError(f"a city of {starting_gpv} GPv cannot be co-built")


def status_level(code: str | None, builder: CoBuilder) -> int:
    """The level (0-4) of a co-builder's existing status in a city (LotE 3.3.5, Table 3-8)."""
    table = chart("s3_cities")["status_levels"]
    col = table["columns"].index(builder.value)
    wanted = "None" if code is None else code.strip().upper()
    for level, row in enumerate(table["levels"]):
        if row[col].upper() == wanted.upper():
            return level
    raise RulesError(f"`{code}` is not a {builder.value} status of Table 3-8")


def status_code(level: int, builder: CoBuilder) -> str | None:
    """The status a level stands for (None at level 0) (LotE 3.3.5, Table 3-8)."""
    table = chart("s3_cities")["status_levels"]
    if not 0 <= level < len(table["levels"]):
        raise RulesError(f"Table 3-8 has no level {level}")
    code = str(table["levels"][level][table["columns"].index(builder.value)])
    return None if code == "None" else code


def cobuild_status(starting_gpv: int, builder: CoBuilder, existing: str | None = None) -> str:
    """The co-builder's status after adding a GPv: its level plus Table 3-7's increase, at most level 4 (3.3.5)."""
    top = len(chart("s3_cities")["status_levels"]["levels"]) - 1
    level = min(top, status_level(existing, builder) + cobuild_status_increase(starting_gpv))
    code = status_code(level, builder)
    assert code is not None  # the increase is at least one level
    return code

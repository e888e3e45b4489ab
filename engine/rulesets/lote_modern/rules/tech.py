"""Cultures, terrains, tech levels and the chart files they are looked up in (LotE Modern Era 2.2).

Offers: `Culture`, `Terrain` (with `parse`), `chart` (a packaged data file), `exact` (decimal-exact numbers),
`column` (which printed column a culture reads), `cultures_at_tech_level`, `industrial_stage`,
`tech_level_tax_multiplier`, `tax_rate`.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from fractions import Fraction
from typing import Any

from engine.core.errors import RulesError
from engine.core.tables import load_data

PACKAGE = "engine.rulesets.lote_modern"

Number = int | float | Fraction


def chart(name: str) -> Mapping[str, Any]:
    """A packaged chart file, e.g. ``chart("s2_terrain_tax")`` (read once; never mutate it)."""
    return load_data(PACKAGE, f"data/{name}.toml")


def exact(value: Number | str) -> Fraction:
    """A number as an exact fraction, reading floats as the decimals they were written as (0.1 is 1/10)."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, float):
        return Fraction(repr(value))
    return Fraction(value)


class Culture(StrEnum):
    """A nation's culture type, by the codes the charts print."""

    PRE_COLUMBIAN = "P"
    NOMADIC = "N"
    BARBARIAN = "B"
    CIVILIZED = "C"
    SEAFARING = "S"
    RENAISSANCE = "R"
    INDUSTRIAL_ONE = "I1"
    INDUSTRIAL_TWO = "I2"
    INDUSTRIAL_THREE = "I3"

    @property
    def modern(self) -> bool:
        """Renaissance or Industrial: the cultures this supplement is about."""
        return self in MODERN

    @property
    def industrial(self) -> bool:
        return self in INDUSTRIAL

    @classmethod
    def parse(cls, text: str) -> Culture:
        """A culture from its code (``I1``) or its name (``Industrial One``, ``Pre-Columbian``)."""
        key = text.strip().upper().replace("-", " ").replace("_", " ")
        for culture in cls:
            if key in (culture.value, culture.name.replace("_", " ")):
                return culture
        aliases = {"PRECOLUMBIAN": cls.PRE_COLUMBIAN, "INDUSTRIAL STAGE ONE": cls.INDUSTRIAL_ONE,
                   "INDUSTRIAL STAGE TWO": cls.INDUSTRIAL_TWO, "INDUSTRIAL STAGE THREE": cls.INDUSTRIAL_THREE}
        if key in aliases:
            return aliases[key]
        raise RulesError(f"`{text}` is not a culture (P, N, B, C, S, R, I1, I2, I3)")


INDUSTRIAL = frozenset({Culture.INDUSTRIAL_ONE, Culture.INDUSTRIAL_TWO, Culture.INDUSTRIAL_THREE})
MODERN = INDUSTRIAL | {Culture.RENAISSANCE}


class Terrain(StrEnum):
    """A region's terrain, by the codes the charts print (lower case here; charts print either case)."""

    INTENSELY_CULTIVATED = "c2"
    CULTIVATED = "c"
    WILDERNESS = "w"
    MOUNTAIN = "m"
    STEPPE = "s"
    DESERT = "d"
    TUNDRA = "t"
    ISLAND = "i"
    JUNGLE = "j"
    OASIS = "o"

    @classmethod
    def parse(cls, text: str) -> Terrain:
        """A terrain from its code in either case (``C2``, ``w``) or its name (``Mountain``)."""
        key = text.strip().lower()
        for terrain in cls:
            if key in (terrain.value, terrain.name.lower().replace("_", " ")):
                return terrain
        raise RulesError(f"`{text}` is not a terrain (c2, c, w, m, s, d, t, i, j, o)")


def column(culture: Culture) -> str:
    """The column a culture reads in charts that print Industrial One only (I2 and I3 read I1)."""
    return Culture.INDUSTRIAL_ONE.value if culture.industrial else culture.value


def cultures_at_tech_level(tech_level: int) -> tuple[Culture, ...]:
    """The culture types a nation of this Tech Level may be (LotE 2.2, Table 2-1)."""
    for row in chart("s2_tech_levels")["row"]:
        low, high = row["tech"]
        if low <= tech_level <= high:
            return tuple(Culture(code) for code in row["cultures"])
    raise RulesError(f"Tech Level {tech_level} is outside Table 2-1 (1-22)")


def industrial_stage(tech_level: int) -> Culture | None:
    """The Renaissance or Industrial stage a Tech Level of 8 or more belongs to (LotE 2.2, Table 2-1)."""
    cultures = cultures_at_tech_level(tech_level)
    return cultures[0] if len(cultures) == 1 and cultures[0].modern else None


def tech_level_tax_multiplier(tech_level: int) -> Fraction:
    """The optional Tech Level bonus: 1 + TL/100 (LotE 2.2.1)."""
    return 1 + Fraction(tech_level, chart("s2_rules")["tech_tax_bonus"]["divisor"])


def tax_rate(years_per_turn_rate: Number, tax_rate_adjustment: Number = 1, agro_modifier: Number = 1,
             infra_modifier: Number = 1, uwm: bool = False, tech_level: int | None = None) -> float:
    """The nation's tax rate: the product of its factors, with UW&M and the optional TL bonus (LotE 2.2.1, 3.5).

    `years_per_turn_rate` is the Base Tax Rate of Table 2-9 as a fraction (0.8 for 80%); pass `tech_level` only
    when the campaign uses the optional Tech Level bonus.
    """
    rate = exact(years_per_turn_rate) * exact(tax_rate_adjustment) * exact(agro_modifier) * exact(infra_modifier)
    if uwm:
        rate *= 1 + exact(chart("s3_rules")["uwm"]["tax_bonus"])
    if tech_level is not None:
        rate *= tech_level_tax_multiplier(tech_level)
    return float(rate)

"""Income, trade value, troop support and the length of a turn (LotE Modern Era 2.3, 2.6).

Offers: `culture_modifier` (Table 2-2), `terrain_tax_multiple` (Table 2-3), `Rounding`, `city_trade_value`,
`international_trade_value`, `regional_value`, `regional_income`, `army_status_modifier` (Table 2-4),
`terrain_support_modifier` (Table 2-5), `troop_support`, `unit_troop_support`, `YearLength`/`year_length`
(Table 2-9), `support_scale`, `scaled_support`.

The basic rulebook's own multiples (city type, city status, region status) are not in the supplement: callers
pass them in from the campaign's data.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from engine.core.errors import RulesError
from engine.rulesets.lote_modern.rules.military import unit
from engine.rulesets.lote_modern.rules.tech import Culture, Number, Terrain, chart, column, exact


class Rounding(StrEnum):
    """How a computed value becomes a whole number."""

    UP = "up"
    NEAREST = "nearest"
    DOWN = "down"
    NONE = "none"

    def apply(self, value: Fraction) -> Fraction:
        if self is Rounding.UP:
            return Fraction(math.ceil(value))
        if self is Rounding.DOWN:
            return Fraction(math.floor(value))
        if self is Rounding.NEAREST:
            return Fraction(math.floor(value + Fraction(1, 2)))
        return value


def culture_modifier(culture: Culture) -> float:
    """The CTV cultural modifier (LotE 2.3.1, Table 2-2)."""
    return float(chart("s2_culture_modifiers")["modifier"][culture.value])


def _by_column(table: str, key: str, row: str, culture: Culture) -> float:
    data = chart(table)
    values = data[key].get(row)
    if values is None:
        raise RulesError(f"Table {data['table']} has no row for terrain `{row}`")
    return float(values[data["columns"].index(column(culture))])


def terrain_tax_multiple(culture: Culture, terrain: Terrain) -> float:
    """The regional tax multiple of a terrain for the controlling culture (LotE 2.3.2, Table 2-3)."""
    return _by_column("s2_terrain_tax", "multiple", terrain.value, culture)


def city_trade_value(gpv: Number, *, city_type_modifier: Number, city_status_modifier: Number, terrain: Terrain,
                     culture: Culture, terrain_modifier: Number | None = None,
                     rounding: Rounding = Rounding.UP) -> float:
    """A city's CTV: GPv/3 x type x status x terrain x culture (LotE 2.3.1).

    The terrain modifier defaults to Table 2-3 for the city's region; the worked example rounds up.
    """
    terrain_factor = exact(terrain_modifier) if terrain_modifier is not None else exact(
        terrain_tax_multiple(culture, terrain))
    value = (exact(gpv) / chart("s2_rules")["city_trade_value"]["gpv_divisor"] * exact(city_type_modifier)
             * exact(city_status_modifier) * terrain_factor * exact(culture_modifier(culture)))
    return float(rounding.apply(value))


def international_trade_value(city_trade_values: Iterable[Number]) -> float:
    """A nation's ITV: the sum of its cities' trade values (LotE 2.3.1)."""
    return float(sum((exact(v) for v in city_trade_values), Fraction(0)))


def regional_value(gpv: Number, *, status_multiple: Number, terrain: Terrain, culture: Culture) -> float:
    """A region's value: GPv x status multiple x terrain multiple (LotE 2.3.2)."""
    return float(exact(gpv) * exact(status_multiple) * exact(terrain_tax_multiple(culture, terrain)))


def regional_income(regional_values: Iterable[Number], *, silk_road_regions: int = 0,
                    fur_line_regions: int = 0) -> float:
    """Regional income in GP: the regional values, +1 per Silk Road and +2 per Fur Line region (LotE 2.3.2)."""
    rules = chart("s2_rules")["regional_income"]
    total = sum((exact(v) for v in regional_values), Fraction(0))
    return float(total + rules["silk_road"] * silk_road_regions + rules["fur_line"] * fur_line_regions)


def army_status_modifier(status: str) -> float:
    """The troop support multiple for an army's status code (LotE 2.3.3, Table 2-4)."""
    code = status.strip().upper()
    for row in chart("s2_army_status_support")["status"]:
        if row["code"] == code:
            return float(row["modifier"])
    raise RulesError(f"`{status}` is not an army status (A, B, C, E, G, M, N, P, R, S)")


def terrain_support_modifier(culture: Culture, terrain: Terrain, *, oasis: Number = 1) -> float:
    """The troop support multiple for the terrain an army ended its turn in (LotE 2.3.3, Table 2-5).

    Table 2-5 has no Oasis row: `oasis` is the campaign's choice (1.0 by default).
    """
    if terrain is Terrain.OASIS:
        return float(exact(oasis))
    return _by_column("s2_terrain_support", "modifier", terrain.value, culture)


def troop_support(support_cost: Number, *, culture: Culture, terrain: Terrain, army_status: str,
                  year_scale: Number = 1, oasis: Number = 1) -> float:
    """Troop support: TSC x terrain modifier x army status modifier, scaled by turn length (LotE 2.3.3, 2.6)."""
    return float(exact(support_cost) * exact(terrain_support_modifier(culture, terrain, oasis=oasis))
                 * exact(army_status_modifier(army_status)) * exact(year_scale))


def unit_troop_support(code: str, count: int, *, culture: Culture, terrain: Terrain, army_status: str,
                       year_scale: Number = 1, oasis: Number = 1) -> float:
    """Troop support for `count` units of a build-chart code (TSC from Tables 8-2/8-3; LotE 2.3.3)."""
    cost = unit(code, culture).support
    if cost is None:
        raise RulesError(f"`{code}` has no troop support cost on the build chart")
    return count * troop_support(cost, culture=culture, terrain=terrain, army_status=army_status,
                                 year_scale=year_scale, oasis=oasis)


@dataclass(frozen=True, slots=True)
class YearLength:
    """How long a turn is in a given year, and the Base Tax Rate that goes with it (Table 2-9)."""

    years: Fraction
    base_tax_rate: Fraction

    def __str__(self) -> str:
        if self.years >= 1:
            return f"{self.years} year{'s' if self.years != 1 else ''}"
        months = self.years * 12
        return f"{months} month{'s' if months != 1 else ''}"


def year_length(year: int) -> YearLength:
    """Years per turn and Base Tax Rate for the game year (LotE 2.6, Table 2-9); before 1000, the first row."""
    rows = chart("s2_years_per_turn")["row"]
    chosen = rows[0]
    for row in rows:
        if year >= row["from"]:
            chosen = row
    years = Fraction(chosen["years"]) if "years" in chosen else Fraction(chosen["months"], 12)
    return YearLength(years, Fraction(chosen["base_tax_rate"], 100))


def support_scale(year: int) -> Fraction:
    """The share of full support costs paid at this year's turn length (LotE 2.6: as the Base Tax Rate)."""
    return year_length(year).base_tax_rate


def scaled_support(amount: Number, year: int) -> float:
    """A support cost scaled to the turn length; unit purchases are never scaled (LotE 2.6)."""
    return float(exact(amount) * support_scale(year))

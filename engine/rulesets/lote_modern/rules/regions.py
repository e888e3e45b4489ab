"""Control status, garrisons and the limits of rule over a region (LotE Modern Era 2.4).

Offers: `STATUS_LADDER`, `status_rank`, `status_at_least`, `lower_status`, `Relation`,
`max_status_by_religion` (Table 2-7), `max_status_by_terrain` (Table 2-8), `maximum_status`,
`may_have_port_city_homeland`, `garrison_terrain_modifier` (Table 2-6), `modified_resistance`,
`GarrisonNeed`/`garrison_requirement`, `garrison_sufficient`, `may_build_public_works`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from engine.core.errors import RulesError
from engine.rulesets.lote_modern.rules.tech import Culture, Number, Terrain, chart, exact

# Control statuses from best to worst. The basic rulebook defines them; this order is the one Tables 2-7
# and 2-8 imply (see sections-2-4.md), and a campaign may pass its own.
STATUS_LADDER: tuple[str, ...] = ("Hm", "F", "FA", "A", "EA", "T", "NT", "PT", "P")


def status_rank(status: str, ladder: Sequence[str] = STATUS_LADDER) -> int:
    """How good a control status is, higher better; ``P/PT`` ranks as its better choice (LotE 2.4.2)."""
    best = -1
    for part in status.split("/"):
        code = part.strip()
        matches = [i for i, s in enumerate(ladder) if s.lower() == code.lower()]
        if not matches:
            raise RulesError(f"`{code}` is not a control status ({', '.join(ladder)})")
        best = max(best, len(ladder) - matches[0])
    return best


def status_at_least(status: str, minimum: str, ladder: Sequence[str] = STATUS_LADDER) -> bool:
    """Whether `status` is `minimum` or better (LotE 2.4.2, 2.7, 2.8.3.1)."""
    return status_rank(status, ladder) >= status_rank(minimum, ladder)


def lower_status(a: str, b: str, ladder: Sequence[str] = STATUS_LADDER) -> str:
    """The worse of two statuses, the first when they rank alike (LotE 2.4.2)."""
    return a if status_rank(a, ladder) <= status_rank(b, ladder) else b


class Relation(StrEnum):
    """The region's religion compared to the nation's (Table 2-7 columns)."""

    SAME = "same"
    TOLERANT = "tolerant"
    HOSTILE = "hostile"


def max_status_by_religion(religious_strength: int, relation: Relation) -> str:
    """The best status a nation's religion allows in a region (LotE 2.4.2, Table 2-7; RS outside 1-10 clamps)."""
    rows = chart("s2_max_status_religion")["row"]
    rs = min(max(religious_strength, rows[0]["rs"][0]), rows[-1]["rs"][1])
    for row in rows:
        low, high = row["rs"]
        if low <= rs <= high:
            return str(row[relation.value])
    raise AssertionError("Table 2-7 covers RS 1-10")  # pragma: no cover - the rows are contiguous


def max_status_by_terrain(terrain: Terrain, culture: Culture) -> str:
    """The best status a culture can hold in a terrain (LotE 2.4.2, Table 2-8; all Industrial stages read R/I)."""
    data = chart("s2_max_status_terrain")
    col = "RI" if culture.modern else culture.value
    return str(data["status"][terrain.value][data["columns"].index(col)])


def maximum_status(religious_strength: int, relation: Relation, terrain: Terrain, culture: Culture,
                   ladder: Sequence[str] = STATUS_LADDER) -> str:
    """The maximum control status in a region: the lower of Tables 2-7 and 2-8 (LotE 2.4.2)."""
    return lower_status(max_status_by_religion(religious_strength, relation),
                        max_status_by_terrain(terrain, culture), ladder)


def may_have_port_city_homeland(culture: Culture) -> bool:
    """Seafaring, Renaissance and Industrial nations may have a Port City as their Homeland (LotE 2.4.2)."""
    return culture.value in chart("s2_max_status_terrain")["port_city_homeland"]


def _garrison_row(culture: Culture) -> str:
    return "R" if culture.modern else culture.value


def garrison_terrain_modifier(culture: Culture, terrain: Terrain) -> float:
    """The garrison terrain multiple (LotE 2.4.1, Table 2-6; all Industrial stages read "Rena./Indust1")."""
    data = chart("s2_garrison_terrain")
    return float(data["modifier"][_garrison_row(culture)][data["columns"].index(terrain.value)])


def modified_resistance(resistance: Number, *, culture: Culture, terrain: Terrain, religion_modifier: Number) -> float:
    """Modified Resistance Value: resistance x terrain multiple x religion modifier (LotE 2.4.1)."""
    return float(exact(resistance) * exact(garrison_terrain_modifier(culture, terrain)) * exact(religion_modifier))


@dataclass(frozen=True, slots=True)
class GarrisonNeed:
    """The garrison a region needs, and whether that garrison is reckoned in cavalry."""

    strength: float
    cavalry: bool


def garrison_requirement(resistance: Number, *, culture: Culture, terrain: Terrain,
                         religion_modifier: Number) -> GarrisonNeed:
    """The garrison a region needs: its Modified Resistance, in cavalry where Table 2-6 marks c (LotE 2.4.1)."""
    strength = modified_resistance(resistance, culture=culture, terrain=terrain, religion_modifier=religion_modifier)
    cavalry = terrain.value in chart("s2_garrison_terrain")["cavalry"][_garrison_row(culture)]
    return GarrisonNeed(strength, cavalry)


def garrison_sufficient(need: GarrisonNeed, *, cavalry: Number, other: Number, cavalry_in_use: bool = True) -> bool:
    """Whether a garrison meets the need; in cavalry regions other troops count half (LotE 2.4.1 notes).

    `cavalry_in_use` is False where the map has no cavalry yet (pre-Cavalry-Count America, South Africa).
    """
    if need.cavalry and cavalry_in_use:
        ratio = int(chart("s2_garrison_terrain")["infantry_multiple_for_cavalry"])
        return exact(cavalry) + exact(other) / ratio >= exact(need.strength)
    return exact(cavalry) + exact(other) >= exact(need.strength)


def may_build_public_works(*, status_yields_tax: bool, funds_delivered_by_leader: bool = False) -> bool:
    """Public works need a taxed status there, or GP/NFP brought to the region by a Leader (LotE 2.4.3)."""
    return status_yields_tax or funds_delivered_by_leader

"""Units, build charts and military ratings (LotE Modern Era 2.5, 2.8.1.1, 3.1, 3.2.1, chart 8.6).

Offers: `Unit` and `build_chart`/`unit` (Tables 8-2 and 8-3), `QualityRatings` and `max_quality_ratings`
(Table 3-1), `QR_ARMS`, `may_raise_quality_rating`, `can_build_artillery`, `artillery_qr_bounds`,
`useful_artillery`, `can_bombard`, `ship_actions_per_year`,
`navigation_counts_for_mapping`, `steamship_operating_range`, `steamship_attrition_losses`,
`steam_transports_fit_route`, `carrier_can_carry`.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine.core.errors import RulesError
from engine.core.numbers import is_count
from engine.rulesets.lote_modern.rules.tech import Culture, Number, chart, column, exact

_AP = re.compile(r"^([0-9]{1,9})(\+Nav)?$")
_CARRIES = re.compile(r"\(([0-9]{1,9})\)")
_AIRSHIPS = re.compile(r"\[([0-9]{1,9})\]")


@dataclass(frozen=True, slots=True)
class Unit:
    """One line of a build chart. `cargo` is the unit's own cargo size; `carries` what a ship carries."""

    code: str
    name: str
    chart: str
    gp: float | None
    nfp: int | None
    yard: int | None
    ap: int | None
    ap_plus_navigation: bool
    cargo: int | None
    carries: int | None
    carries_airships: int | None
    combat: float | None
    siege: float | None
    support: float | None
    build_at: tuple[str, ...]
    combat_mark: str = ""

    @property
    def buildable(self) -> bool:
        return self.gp is not None and self.build_at != ("Cannot be built.",)

    @property
    def heavy(self) -> bool:
        """A Heavy-prefix unit (HC, HEI, HW, ...)."""
        return self.name.startswith("Heavy")

    @property
    def artillery(self) -> bool:
        return "Artillery" in self.name

    @property
    def ship(self) -> bool:
        return self.ap_plus_navigation or "Submarine Yard" in self.build_at

    def action_points(self, navigation: int = 0) -> int | None:
        """The unit's AP, adding the Navigation Rating where the chart prints ``+Nav``."""
        if self.ap is None:
            return None
        return self.ap + (navigation if self.ap_plus_navigation else 0)


def _unit(raw: Mapping[str, Any], chart_name: str) -> Unit:
    ap_text = str(raw["ap"]).strip()
    ap_match = _AP.match(ap_text)
    cargo_text = str(raw["cargo"]).strip()
    carries = _CARRIES.search(cargo_text)
    airships = _AIRSHIPS.search(cargo_text)
    own_cargo = int(cargo_text) if is_count(cargo_text) else None
    return Unit(
        code=raw["code"], name=raw["name"], chart=chart_name, gp=raw.get("gp"), nfp=raw.get("nfp"),
        yard=raw.get("yard"), ap=int(ap_match.group(1)) if ap_match else None,
        ap_plus_navigation=bool(ap_match and ap_match.group(2)), cargo=own_cargo,
        carries=int(carries.group(1)) if carries else None,
        carries_airships=int(airships.group(1)) if airships else None,
        combat=raw.get("combat"), siege=raw.get("siege"), support=raw.get("support"),
        build_at=tuple(part.strip() for part in str(raw["build_at"]).split(",")),
        combat_mark=raw.get("combat_mark", ""),
    )


@functools.cache
def _charts() -> dict[str, dict[str, Unit]]:
    out: dict[str, dict[str, Unit]] = {}
    for name in ("build_renaissance", "build_industrial"):
        out[name] = {raw["code"]: _unit(raw, name) for raw in chart(name)["unit"]}
    return out


def build_chart(culture: Culture) -> Mapping[str, Unit]:
    """The build chart a nation uses: 8-2 for Renaissance, 8-3 for Industrial nations (LotE 8.6)."""
    if culture.industrial:
        return _charts()["build_industrial"]
    if culture is Culture.RENAISSANCE:
        return _charts()["build_renaissance"]
    raise RulesError(f"{culture.name.title()} nations build from the basic rulebook's charts, not the supplement's")


def unit(code: str, culture: Culture) -> Unit:
    """A unit of the nation's build chart by its code (LotE 8.6)."""
    found = build_chart(culture).get(code.strip().upper())
    if found is None:
        raise RulesError(f"`{code}` is not on the {'Industrial' if culture.industrial else 'Renaissance'} build chart")
    return found


@dataclass(frozen=True, slots=True)
class QualityRatings:
    """Maximum Quality Ratings; Artillery is 0 where Table 3-1 has no Artillery column."""

    cavalry: int
    infantry: int
    warship: int
    siege: int
    artillery: int = 0


def max_quality_ratings(culture: Culture, tech_level: int, *, cavalry_count_expired: bool = False) -> QualityRatings:
    """The QR caps for a culture and Tech Level (LotE 3.1, Table 3-1).

    Pre-Columbian cavalry is capped at 0 until the area's Cavalry Count expires, then at the bracketed value.
    """
    for row in chart("s3_max_qr")[culture.value]:
        if row["tech"] == tech_level:
            cavalry = row["cavalry"]
            if cavalry_count_expired and "cavalry_after_count" in row:
                cavalry = row["cavalry_after_count"]
            return QualityRatings(cavalry, row["infantry"], row["warship"], row["siege"], row.get("artillery", 0))
    raise RulesError(f"Table 3-1 has no row for a {culture.name.title()} nation of Tech Level {tech_level}")


QR_ARMS = ("cavalry", "infantry", "warship", "siege", "artillery")


def may_raise_quality_rating(culture: Culture, tech_level: int, arm: str, current: int, *,
                             cavalry_count_expired: bool = False, bought_artillery: bool = False) -> bool:
    """Whether investment may still raise a Quality Rating: it is below its Table 3-1 cap (LotE 3.1, 2.5)."""
    if arm not in QR_ARMS:
        raise RulesError(f"`{arm}` is not a Quality Rating ({', '.join(QR_ARMS)})")
    if arm == "artillery" and not can_build_artillery(culture, tech_level, bought_artillery=bought_artillery):
        return False
    caps = max_quality_ratings(culture, tech_level, cavalry_count_expired=cavalry_count_expired)
    cap: int = getattr(caps, arm)
    return current < cap


def can_build_artillery(culture: Culture, tech_level: int, *, bought_artillery: bool = False) -> bool:
    """Renaissance and Industrial nations build artillery; Civilized TL 7 ones once they bought some (LotE 3.1)."""
    if culture.modern:
        return True
    return culture is Culture.CIVILIZED and tech_level >= 7 and bought_artillery


def artillery_qr_bounds() -> tuple[int, int]:
    """The Artillery QR runs from 1 to 50 (LotE 3.2.1.1)."""
    rules = chart("s3_rules")["artillery"]
    return rules["qr_minimum"], rules["qr_maximum"]


def useful_artillery(artillery: int, infantry_and_cavalry: int) -> int:
    """Artillery units that count in a field battle: none alone, at most a third of the army (LotE 3.2.1.1)."""
    if infantry_and_cavalry <= 0:
        return 0
    num, den = chart("s3_rules")["artillery"]["useful_share"]
    return min(artillery, (artillery + infantry_and_cavalry) * int(num) // int(den))


def can_bombard(code: str, culture: Culture) -> bool:
    """Airships with a Siege rating of 1 or more may bombard facilities and projects (LotE 3.2.1.3.2)."""
    found = unit(code, culture)
    return "Airship Yard" in found.build_at and (found.siege or 0) >= 1


def ship_actions_per_year(culture: Culture, navigation: int, *, steam: bool = False, other: int = 0) -> int:
    """Transport and warship actions per year: 7 (R) or 8 (I) + Navigation, -1 for steamships (LotE 2.8.1.1)."""
    base = chart("s2_sea_ratings")["ship_actions_per_year"]
    if not culture.modern:
        raise RulesError("only Renaissance and Industrial ships take their actions from the Navigation Rating")
    actions = int(base[column(culture)]) + navigation + other
    return actions + (int(base["steamship_modifier"]) if steam else 0)


def navigation_counts_for_mapping(culture: Culture, *, straits_of_magellan: bool) -> bool:
    """Whether the Navigation Rating helps mapping: not for Renaissance nations at Magellan (LotE 2.8.1)."""
    if not culture.modern:
        return False
    return not (straits_of_magellan and culture is Culture.RENAISSANCE)


def steamship_operating_range(tech_level: int) -> int:
    """AP a steamship may operate from a coaling port: Tech Level - 10, at least 1 (LotE 3.2.1.2.2)."""
    rules = chart("s3_rules")["steamship"]
    return max(int(rules["range_minimum"]), tech_level - int(rules["range_base"]))


def steamship_attrition_losses(units: int, ap_beyond_range: int, *, rate: Number | None = None) -> int:
    """Steamships lost beyond coaling range: a quarter per AP of those left, rounded up (3.2.1.2.2).

    The text gives "on the order of 25% per AP"; rounding up keeps a lone ship at risk (a GM decision).
    """
    share = exact(rate if rate is not None else chart("s3_rules")["steamship"]["attrition_per_ap"])
    left = units
    for _ in range(max(0, ap_beyond_range)):
        left -= min(left, math.ceil(left * share))
    return units - left


def steam_transports_fit_route(anchor_distances: Sequence[int], tech_level: int) -> bool:
    """Steam transports may carry a route's trade if every anchor-to-anchor gap is within range (LotE 3.2.1.2.3)."""
    reach = steamship_operating_range(tech_level)
    return all(distance <= reach for distance in anchor_distances)


def carrier_can_carry(scouts: int, standard: int, carriers: int = 1) -> bool:
    """A Steam Airship Carrier carries two Scout Airships or one standard Airship (LotE 4.2.6)."""
    capacity = chart("s4_research_projects")["project"]
    cv = next(p for p in capacity if p["key"] == "steam_airship_carrier")["carrier_capacity"]
    # Each carrier holds either kind; a scout takes half the room of a standard airship.
    return Fraction(scouts, cv["ZS"]) + Fraction(standard, cv["Z"]) <= carriers

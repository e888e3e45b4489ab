"""Building units and the Universal Weights and Measures project (LotE Modern Era 3.2.1, 3.5).

Offers: `unit_project` and `UNIT_FACILITIES` (which research and which yard a new unit type needs),
`unit_build_problems`, `BuildCost`/`unit_build_cost`, `ProjectCost`/`uwm_cost`.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Mapping
from dataclasses import dataclass

from engine.core.errors import RulesError
from engine.rulesets.lote_modern.rules.industry import (
    FactoryKind,
    RenaissanceYards,
    YardPool,
    unit_yard_cost,
    yard_pool,
)
from engine.rulesets.lote_modern.rules.military import unit
from engine.rulesets.lote_modern.rules.research import research_project, research_projects
from engine.rulesets.lote_modern.rules.tech import Culture, chart


@functools.cache
def _unit_projects() -> dict[str, str]:
    return {code: project.key for project in research_projects().values() for code in project.units}


# Units built only at their own kind of yard: at least one point of it must stand (3.2.1.2, 3.2.1.3, 3.2.1.4).
UNIT_FACILITIES: Mapping[YardPool, FactoryKind] = {
    YardPool.AIRSHIP: FactoryKind.AIRSHIP, YardPool.STEAMSHIP: FactoryKind.STEAMSHIP,
    YardPool.SUBMARINE: FactoryKind.SUBMARINE,
}


def unit_project(code: str) -> str | None:
    """The research project that unlocks a unit type, if any (LotE 3.2.1, 4.2)."""
    return _unit_projects().get(code.strip().upper())


def unit_build_problems(code: str, culture: Culture, *, tech_level: int, completed: Collection[str] = (),
                        facility_points: Mapping[FactoryKind, int] | None = None) -> list[str]:
    """Why a nation cannot build this unit type at all; empty when it can (LotE 3.2.1, 4.2, 8.6).

    Steamships, airships and submarines need their research project and at least one point of their own
    yard (the prototype a project gives is not a licence to build more). Where a unit is built, and the yard
    capacity left this turn, are the order checker's to test.
    """
    found = unit(code, culture)
    if not found.buildable:
        return [f"{found.name} cannot be built"]
    problems = []
    project = unit_project(found.code)
    if project is not None and project not in completed:
        problems.append(f"{found.name} needs the R&D: {research_project(project).name} project")
    pool = yard_pool(found.code, culture)
    facility = UNIT_FACILITIES.get(pool)
    if facility is FactoryKind.STEAMSHIP and tech_level < int(chart("s3_rules")["steamship"]["tech"]):
        problems.append("steamships need Tech Level 12")
    if facility is not None and (facility_points or {}).get(facility, 0) < 1:
        problems.append(f"{found.name} is built at a {facility.value} yard, and the nation has none")
    return problems


@dataclass(frozen=True, slots=True)
class BuildCost:
    """The price of building units: GP, NFP, yard points and the capacity they draw on."""

    gp: float
    nfp: int
    yard: int
    pool: YardPool


def unit_build_cost(code: str, culture: Culture, count: int = 1, *,
                    renaissance: RenaissanceYards = RenaissanceYards.HEAVY_AND_ARTILLERY) -> BuildCost:
    """GP, NFP and yard points for `count` units of a build-chart code (LotE 3.6, Tables 8-2 and 8-3)."""
    found = unit(code, culture)
    if found.gp is None or found.nfp is None:
        raise RulesError(f"{found.name} cannot be built")
    yard = unit_yard_cost(found.code, culture, renaissance=renaissance)
    return BuildCost(found.gp * count, found.nfp * count, yard * count, yard_pool(found.code, culture))


@dataclass(frozen=True, slots=True)
class ProjectCost:
    """A national project's total GP, NFP and the years it takes at the least."""

    gp: int
    nfp: int
    years: int


def uwm_cost(imperial_size: int, *, culture: Culture) -> ProjectCost:
    """Universal Weights and Measures: 100 GP, 10 NFP and 2 years per point of Imperial Size (LotE 3.5)."""
    if not culture.industrial:
        raise RulesError("only Industrial nations undertake Universal Weights and Measures")
    rules = chart("s3_rules")["uwm"]
    return ProjectCost(imperial_size * int(rules["gp"]), imperial_size * int(rules["nfp"]),
                       imperial_size * int(rules["years"]))

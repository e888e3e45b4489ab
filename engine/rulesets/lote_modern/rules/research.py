"""Research and development projects (LotE Modern Era 4).

Offers: `AdvancesFrom`, `ResearchProject`, `research_project`/`research_projects` (section 4.2, Table 8-1),
`factory_tech_level` (4.2.1).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from engine.core.errors import RulesError
from engine.rulesets.lote_modern.rules.tech import chart


class AdvancesFrom(StrEnum):
    """Where a project's Advances are read: section 4.2's boxes (default) or the Table 8-1 summary.

    The two disagree only for the Submarine project (4 in 4.2.12, 3 in Table 8-1).
    """

    SECTION = "section"
    CHART = "chart"


@dataclass(frozen=True, slots=True)
class ResearchProject:
    """One industrial research project: its prerequisites and what completing it gives."""

    key: str
    name: str
    section: str
    tech_level: int
    advances: int
    projects: tuple[str, ...] = ()
    yards: Mapping[str, int] = field(default_factory=dict)
    prototype: str | None = None
    units: tuple[str, ...] = ()
    facilities: tuple[str, ...] = ()


@functools.cache
def _projects(source: AdvancesFrom) -> dict[str, ResearchProject]:
    summary = {row["key"]: row for row in chart("build_research_summary")["project"]}
    out = {}
    for raw in chart("s4_research_projects")["project"]:
        advances = raw["advances"] if source is AdvancesFrom.SECTION else summary[raw["key"]]["advances"]
        out[raw["key"]] = ResearchProject(
            key=raw["key"], name=raw["name"], section=raw["section"], tech_level=raw["tech"], advances=advances,
            projects=tuple(raw["projects"]), yards=dict(raw["yards"]), prototype=raw.get("prototype"),
            units=tuple(raw["units"]), facilities=tuple(raw["facilities"]))
    return out


def research_projects(source: AdvancesFrom = AdvancesFrom.SECTION) -> Mapping[str, ResearchProject]:
    """Every industrial research project by key (LotE 4.2, Table 8-1)."""
    return _projects(source)


def research_project(key: str, source: AdvancesFrom = AdvancesFrom.SECTION) -> ResearchProject:
    """One research project by key, e.g. ``steam_cruiser`` (LotE 4.2)."""
    found = _projects(source).get(key)
    if found is None:
        raise RulesError(f"`{key}` is not a research project ({', '.join(_projects(source))})")
    return found


def factory_tech_level() -> int:
    """The Tech Level at which factories and yards may be built at all (LotE 4.2.1)."""
    return int(chart("s4_research_projects")["factories_and_yards"]["tech"])

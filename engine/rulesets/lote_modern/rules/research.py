"""Research and development projects (LotE Modern Era 4).

Offers: `AdvancesFrom`, `ResearchProject`, `research_project`/`research_projects` (section 4.2, Table 8-1),
`factory_tech_level` (4.2.1), `advances_required`, `project_start_problems`, `is_overreach` (4, 4.5),
`advance_chance`, `ResearchProgress`, `invest`, `ResearchRules`, `ResearchResult`, `research_turn` (4.1),
`recruitment_blocks`, `recruit_project_nfp`, `recruited_nfp_allowed` (4.3), `give_technical_assistance`,
`assistance_from_captured_factories` (4.4), `engineer_problems`, `EngineerYield`/`engineer_yield` (4.6).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from engine.core.errors import RulesError
from engine.core.rng import Dice
from engine.core.visibility import GM_ONLY, Visibility
from engine.rulesets.lote_modern.rules.tech import Culture, Number, chart, exact


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


def _rules(section: str) -> Mapping[str, Any]:
    found: Mapping[str, Any] = chart("s4_rules")[section]
    return found


def advances_required(key: str, *, overreach: bool = False, assisted: bool = False,
                      source: AdvancesFrom = AdvancesFrom.SECTION) -> int:
    """A project's Advances: +2 when overreaching, -1 with Technical Assistance, never below 1 (4.4, 4.5)."""
    advances = research_project(key, source).advances
    if overreach:
        advances += int(_rules("overreach")["extra_advances"])
    if assisted:
        advances -= int(_rules("technical_assistance")["advance_reduction"])
    return max(1, advances)


def project_start_problems(key: str, *, tech_level: int, completed: Mapping[str, int], current_turn: int,
                           yard_points: Mapping[str, int] | None = None, gp: Number = 1, nfp: int = 1,
                           sample_or_assistance: bool = False, site_in_hbz: bool = True) -> list[str]:
    """Why a research project cannot start this turn; empty when it can (LotE 4, 4.1, 4.2, 4.5).

    `completed` maps finished projects to the turn they finished: work on a project needing one begins the
    turn after. A nation one Tech Level short may overreach with a sample or Technical Assistance NFP.
    """
    project = research_project(key)
    problems = []
    if key in completed:
        problems.append(f"R&D: {project.name} is already complete")
    short = project.tech_level - tech_level
    if short > 0 and not (short <= int(_rules("overreach")["tech_short"]) and sample_or_assistance):
        problems.append(f"R&D: {project.name} needs Tech Level {project.tech_level}"
                        + (" (one short: overreaching needs a sample or Technical Assistance)"
                           if short == 1 else ""))
    for needed in project.projects:
        done = completed.get(needed)
        if done is None or done >= current_turn:
            problems.append(f"R&D: {research_project(needed).name} must be complete by the turn before")
    for kind, points in project.yards.items():
        if (yard_points or {}).get(kind, 0) < points:
            problems.append(f"R&D: {project.name} needs {points} {kind} yard point{'s' if points > 1 else ''}")
    start = _rules("advance_chance")
    if exact(gp) < start["start_gp"] or nfp < int(start["start_nfp"]):
        problems.append("a research project starts with at least 1 GP and 1 NFP")
    if not site_in_hbz:
        problems.append("the project site must be a region or city you control within the HBZ")
    return problems


def is_overreach(key: str, tech_level: int) -> bool:
    """Whether starting this project at this Tech Level is an overreach (LotE 4.5)."""
    return research_project(key).tech_level > tech_level


def advance_chance(gp: Number, nfp: int, years: Number, advances: int, *, modifier: int = 0) -> int:
    """The percent chance of an Advance this turn: (GP + NFP x 5 + years x 5) / (Advances + 1) (LotE 4.1).

    The whole sum is divided and the result rounded down, as the worked example does (320 / 7 = 45%);
    `modifier` carries the basic rulebook's adjustments (government, economy, RS, size, university).
    """
    rules = _rules("advance_chance")
    total = exact(gp) + nfp * int(rules["nfp_weight"]) + exact(years) * int(rules["year_weight"])
    return max(0, math.floor(total / (advances + 1)) + modifier)


@dataclass(frozen=True, slots=True)
class ResearchProgress:
    """Where a project stands: GP since the last Advance, NFP and years over its life, Advances so far."""

    project: str
    advances_required: int
    advances: int = 0
    gp: float = 0
    nfp: int = 0
    years: float = 0
    assisted: bool = False

    @property
    def complete(self) -> bool:
        return self.advances >= self.advances_required

    def dump(self) -> dict[str, Any]:
        return {"project": self.project, "advances_required": self.advances_required, "advances": self.advances,
                "gp": self.gp, "nfp": self.nfp, "years": self.years, "assisted": self.assisted}

    @classmethod
    def load(cls, raw: Mapping[str, Any]) -> ResearchProgress:
        return cls(raw["project"], raw["advances_required"], raw.get("advances", 0), raw.get("gp", 0),
                   raw.get("nfp", 0), raw.get("years", 0), raw.get("assisted", False))


def invest(progress: ResearchProgress, *, gp: Number = 0, nfp: int = 0) -> ResearchProgress:
    """Add GP and NFP to a project; invested GP and NFP never come back out (LotE 4.1)."""
    if exact(gp) < 0 or nfp < 0:
        raise RulesError("GP and NFP invested in research cannot be withdrawn")
    return replace(progress, gp=float(exact(progress.gp) + exact(gp)), nfp=progress.nfp + nfp)


def give_technical_assistance(progress: ResearchProgress, *, giver_has_the_technology: bool,
                              nfp: int | None = None) -> ResearchProgress:
    """Technical Assistance: the helper's NFP join the project and cut its Advances by one, once (LotE 4.4)."""
    if not giver_has_the_technology:
        raise RulesError("only a nation that completed this research itself can give Technical Assistance")
    rules = _rules("technical_assistance")
    given = int(rules["nfp"]) if nfp is None else nfp
    if given < 1:
        raise RulesError("Technical Assistance is at least one NFP delivered to the project site")
    if progress.assisted:
        return replace(progress, nfp=progress.nfp + given)
    required = max(1, progress.advances_required - int(rules["advance_reduction"]))
    return replace(progress, nfp=progress.nfp + given, advances_required=required, assisted=True)


def assistance_from_captured_factories(points: int) -> int:
    """Technical Assistance NFP from captured factory or yard points: half, rounded down (LotE 4.4)."""
    return points // int(_rules("technical_assistance")["captured_points_per_nfp"])


@dataclass(frozen=True, slots=True)
class ResearchRules:
    """The campaign's reading of the research die (LotE 4.1 leaves the mechanics to the GM).

    A d100 at or under the chance gains an Advance; at or under the chance less 100 (chances over 100%)
    two; a failed roll of `setback_from` or more loses one.
    """

    setback_from: int = 100
    double_over: int = 100


@dataclass(frozen=True, slots=True)
class ResearchResult:
    """One turn's research roll: the project after it, what the die said, and what changed."""

    progress: ResearchProgress
    chance: int
    roll: int | None
    gained: int
    blocked_by_nfp: bool = False

    @property
    def completed(self) -> bool:
        return self.progress.complete


def research_room(progress: ResearchProgress) -> int:
    """The Advances this turn's roll may bring: no more than the NFP invested allow, nor than the project lacks."""
    return min(int(_rules("advance_chance")["max_advances_per_turn"]),
               progress.nfp - progress.advances, progress.advances_required - progress.advances)


def research_gain(progress: ResearchProgress, chance: int, roll: int, rules: ResearchRules) -> tuple[int, bool]:
    """What a d100 `roll` against `chance` does to the project: Advances gained (-1 a setback), and whether the
    NFP invested held back an Advance the die gave (LotE 4.1; the campaign's reading in `rules`)."""
    if roll <= chance - rules.double_over:
        gained = 2
    elif roll <= chance:
        gained = 1
    elif roll >= rules.setback_from and progress.advances > 0:
        gained = -1
    else:
        gained = 0
    room = research_room(progress)
    return min(gained, room), gained > room


def research_turn(progress: ResearchProgress, dice: Dice, *, purpose: str, turn_years: Number, modifier: int = 0,
                  rules: ResearchRules = ResearchRules(), visibility: Visibility = GM_ONLY) -> ResearchResult:
    """Roll a project's research for the turn (LotE 4.1).

    No Advance beyond the NFP invested (the die is not rolled when the next Advance lacks NFP); an Advance
    zeroes the GP invested, completion zeroes the NFP; the turn's years are added after the roll.
    """
    chance = advance_chance(progress.gp, progress.nfp, progress.years, progress.advances_required,
                            modifier=modifier)
    years = float(exact(progress.years) + exact(turn_years))
    if progress.complete:
        raise RulesError(f"R&D: {research_project(progress.project).name} is already complete")
    room = research_room(progress)
    if room <= 0:
        return ResearchResult(replace(progress, years=years), chance, None, 0, blocked_by_nfp=True)
    roll = dice.roll(1, 100, purpose=purpose, visibility=visibility).total
    gained, blocked = research_gain(progress, chance, roll, rules)
    after = replace(progress, advances=progress.advances + gained, years=years,
                    gp=0.0 if gained > 0 else progress.gp)
    if after.complete:
        after = replace(after, nfp=0)
    return ResearchResult(after, chance, roll, gained, blocked_by_nfp=blocked)


def recruitment_blocks(gp: Number) -> int:
    """Whole blocks of 25 GP spent on Project Recruitment (LotE 4.3)."""
    return int(exact(gp) // int(_rules("recruitment")["block_gp"]))


def recruit_project_nfp(gp: Number, dice: Dice, *, purpose: str, visibility: Visibility = GM_ONLY) -> int:
    """'Specialized' NFP recruited for one project: 1d6-1 per 25 GP block (LotE 4.3)."""
    rules = _rules("recruitment")
    blocks = recruitment_blocks(gp)
    if blocks == 0:
        return 0
    roll = dice.roll(blocks, int(rules["die"]), purpose=purpose, visibility=visibility)
    return roll.total - blocks * int(rules["die_minus"])


RECRUITED_NFP_BARRED = frozenset({"city", "troops", "fortress", "fleet"})


def recruited_nfp_allowed(use: str, *, merchant_house: bool = False) -> bool:
    """Recruited NFP serve national projects, never cities, troops, fortresses or fleets (LotE 4.3).

    `use` is "city", "troops", "fortress", "fleet", "colony" (regional colonisation: Merchant Colony
    projects of Merchant Houses only) or any other project kind.
    """
    if use in RECRUITED_NFP_BARRED:
        return False
    return merchant_house if use == "colony" else True


def engineer_problems(*, culture: Culture, tech_level: int, whole_turn: bool, research: bool) -> list[str]:
    """Why Siege Engineers cannot help this project this turn; empty when they can (LotE 4.6)."""
    problems = []
    if not culture.industrial or tech_level < int(_rules("engineers")["tech"]):
        problems.append("engineers help construction in Industrial nations of Tech Level 12 or more")
    if not whole_turn:
        problems.append("an engineer helps only after a whole turn on the project: no moving, fighting or sieges")
    if research:
        problems.append("engineers do not help research and development")
    return problems


@dataclass(frozen=True, slots=True)
class EngineerYield:
    gp: int
    nfp: int


def engineer_yield(engineers: int, siege_qr: int, dice: Dice, *, purpose: str, qr_step: int = 10,
                   visibility: Visibility = GM_ONLY) -> EngineerYield:
    """GP and NFP a turn of engineering adds to a construction project (LotE 4.6).

    Each engineer adds 1-10 GP (a d10) and 0-2 NFP (a d6: 1-2 none, 3-4 one, 5-6 two); the nation's Siege QR
    adds one to both dice per `qr_step` points, the results staying within the printed ranges.
    """
    rules = _rules("engineers")
    bonus = max(0, siege_qr) // qr_step
    gp_low, gp_high = rules["gp"]
    nfp_low, nfp_high = rules["nfp"]
    gp = nfp = 0
    for n in range(engineers):
        gp_roll = dice.roll(1, 10, purpose=f"{purpose}/gp#{n}", visibility=visibility).total
        nfp_roll = dice.roll(1, 6, purpose=f"{purpose}/nfp#{n}", visibility=visibility).total
        gp += min(int(gp_high), max(int(gp_low), gp_roll + bonus))
        nfp += min(int(nfp_high), int(nfp_low) + (min(6, nfp_roll + bonus) - 1) // 2)
    return EngineerYield(gp, nfp)

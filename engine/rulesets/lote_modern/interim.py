"""Formulas of sections 3-4 that the rules modules do not offer yet, built here until they do.

Every number is read from lote-rules' data files (s3_rules.toml, s4_rules.toml); only the procedures
are written here. Listed in the lote-game report for reconciliation with rules/research.py and a
construction module. Offers: `advance_chance`, `advance_outcome` (4.1), `recruitment_nfp` (4.3),
`engineer_yield` (4.6), `overreach_advances` (4.4, 4.5), `uwm_cost` (3.5), `railroad_cost` (3.4.1),
`colonise_cost` (3.3.1), `improvement_cost` (3.3.2, 3.3.3).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.core.rng import Dice
from engine.core.visibility import Visibility
from engine.rulesets.lote_modern.rules.tech import chart


@dataclass(frozen=True, slots=True)
class Cost:
    gp: float
    nfp: int
    years: float = 0.0
    yard: int = 0


def advance_chance(gp: float, nfp: int, years: float, total_advances: int) -> int:
    """LotE 4.1: percent chance of an Advance this turn, (GP + NFP x 5 + Years x 5) / (Advances + 1)."""
    rules = chart("s4_rules")["advance_chance"]
    score = gp + nfp * rules["nfp_weight"] + years * rules["year_weight"]
    return int(score // (total_advances + 1))


def advance_outcome(roll: int, chance: int) -> int:
    """LotE 4.1: Advances gained from a d100 (decided: 2 when the roll is within chance - 100, 1 within the
    chance, -1 on a 100 that fails, else 0; see the notes, "Research")."""
    most = int(chart("s4_rules")["advance_chance"]["max_advances_per_turn"])
    if roll <= chance - 100:
        return most
    if roll <= chance:
        return 1
    if roll == 100:
        return -1
    return 0


def recruitment_nfp(dice: Dice, blocks: int, *, purpose: str, visibility: Visibility) -> tuple[int, list[str]]:
    """LotE 4.3: each 25 GP block recruits 1d6-1 project NFP."""
    rules = chart("s4_rules")["recruitment"]
    total, shown = 0, []
    for _ in range(blocks):
        roll = dice.roll(1, int(rules["die"]), purpose=purpose, visibility=visibility)
        total += roll.total - int(rules["die_minus"])
        shown.append(roll.text())
    return total, shown


def recruitment_gp(blocks: int) -> float:
    return float(blocks * chart("s4_rules")["recruitment"]["block_gp"])


def engineer_yield(dice: Dice, count: int, *, purpose: str, visibility: Visibility) -> tuple[int, float, list[str]]:
    """LotE 4.6: each engineer unit adds 0-2 NFP and 1-10 GP to a construction project."""
    rules = chart("s4_rules")["engineers"]
    low_n, high_n = rules["nfp"]
    low_g, high_g = rules["gp"]
    nfp, gp, shown = 0, 0.0, []
    for _ in range(count):
        n = dice.roll(1, high_n - low_n + 1, purpose=f"{purpose}/nfp", visibility=visibility)
        g = dice.roll(1, high_g - low_g + 1, purpose=f"{purpose}/gp", visibility=visibility)
        nfp += n.total - 1 + low_n
        gp += g.total - 1 + low_g
        shown += [n.text(), g.text()]
    return nfp, gp, shown


def overreach_advances(advances: int, *, overreach: bool, assisted: int) -> int:
    """LotE 4.4-4.5: +2 Advances for overreaching one Tech Level; -1 once for technical assistance."""
    over = chart("s4_rules")["overreach"]["extra_advances"] if overreach else 0
    cut = chart("s4_rules")["technical_assistance"]["advance_reduction"] if assisted else 0
    return max(1, advances + int(over) - int(cut))


def overreach_allowed(tech_level: int, required: int) -> bool:
    """LotE 4.5: a nation one Tech Level short may overreach."""
    return required - tech_level <= int(chart("s4_rules")["overreach"]["tech_short"])


def uwm_cost(imperial_size: int) -> Cost:
    """LotE 3.5: 100 GP, 10 NFP and 2 years per point of Imperial Size."""
    rules = chart("s3_rules")["uwm"]
    size = max(1, imperial_size)
    return Cost(float(rules["gp"] * size), int(rules["nfp"] * size), float(rules["years"] * size))


def uwm_tax_bonus() -> float:
    return float(chart("s3_rules")["uwm"]["tax_bonus"])


def railroad_cost(levels: int, *, desert_or_steppe: bool) -> Cost:
    """LotE 3.4.1: 50 GP, 25 NFP and 10 generic yard points a level; +50% GP/NFP in desert or steppe."""
    rules = chart("s3_rules")["railroad"]
    factor = 1 + float(rules["desert_steppe_surcharge"]) if desert_or_steppe else 1.0
    return Cost(float(rules["gp"]) * levels * factor, math.ceil(rules["nfp"] * levels * factor), 0.0,
                int(rules["yard"]) * levels)


def railroad_tech() -> int:
    return int(chart("s3_rules")["railroad"]["tech"])


def colonise_cost() -> Cost:
    """LotE 3.3.1: 15 GP and 15 NFP convert one GPv of an inhabited region."""
    rules = chart("s3_rules")["colonising"]
    return Cost(float(rules["gp"]), int(rules["nfp"]))


def improvement_cost(*, gpv: int, base_gpv: int, terrain: str, pre_columbian: bool, tech_level: int,
                     industrial: bool) -> Cost | None:
    """LotE 3.3.2-3.3.3: what raising this region's GPv by one costs, or None if it cannot be improved."""
    if terrain != "c" or gpv != base_gpv:
        return None
    rules = chart("s3_rules")
    pre = rules["improving_pre_columbian"]
    if pre_columbian and gpv in pre["gpv"]:
        return Cost(float(pre["gp"]), int(pre["nfp"]))
    cultivated = rules["improving_cultivated"]
    if industrial and tech_level >= int(cultivated["tech"]) and str(gpv) in cultivated:
        row = cultivated[str(gpv)]
        return Cost(float(row["gp"]), int(row["nfp"]))
    return None

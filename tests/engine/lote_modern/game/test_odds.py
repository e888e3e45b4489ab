"""Exact odds of research: every face of the real d100, a seeded sample of the real roll, and the loans' answer."""

from __future__ import annotations

import math
from fractions import Fraction

from engine.core import Dice
from engine.rulesets.lote_modern import campaign
from engine.rulesets.lote_modern.odds import D100
from engine.rulesets.lote_modern.rules import research
from engine.rulesets.lote_modern.turn import research_progress

from .conftest import SEED, FixedDice


def _project(state, nation, key):
    return next(p for p in state.nation(nation).projects if p.kind == "rd" and p.name == key)


def test_research_odds_are_every_face_of_the_real_roll_and_agree_with_a_sample(lm, state):
    project = _project(state, "England", "steam_cruiser")
    progress = research_progress(project)
    rules = campaign.research_rules({**state.options, "research-setback-from": 95})
    chance = research.advance_chance(progress.gp, progress.nfp, progress.years, progress.advances_required)

    def rolled(dice) -> int:
        return research.research_turn(progress, dice, purpose="r", turn_years=5, rules=rules).gained

    exact = D100.map(lambda roll: research.research_gain(progress, chance, roll, rules)[0])
    faces: dict[int, Fraction] = {}
    for face in range(1, 101):
        got = rolled(FixedDice({"r": [face]}))
        faces[got] = faces.get(got, Fraction(0)) + Fraction(1, 100)
    assert faces == dict(exact.items())
    n = 6000
    counts: dict[int, int] = {}
    for i in range(n):
        got = rolled(Dice(SEED, f"mc{i}"))
        counts[got] = counts.get(got, 0) + 1
    for gained, p in exact.items():
        assert abs(counts.get(gained, 0) / n - float(p)) <= 4.5 * math.sqrt(float(p * (1 - p)) / n)


def test_the_research_answer_counts_this_forms_investment(lm, state):
    before = lm.odds(state, "England", "research steam_cruiser 1gp 1nfp")
    more = lm.odds(state, "England", "research steam_cruiser 60gp 1nfp")
    chance = lambda text: int(text.split("against ")[1].split("%")[0])  # noqa: E731
    assert chance(more) > chance(before)
    checked = lm.check(state, "England", "research steam_cruiser 60gp 1nfp")[0]
    assert f"against {chance(more)}%" in checked.message and checked.message.count("🎲") == 1


def test_loans_roll_no_dice_and_another_banks_books_stay_its_own(lm, state):
    text = lm.odds(state, "England", "borrow 100gp from Spain\nbuild 4 i at London")
    assert "no dice in this order: Spain's bank decides when the turn is processed" in text
    assert "**build 4 i at London**: no dice in this order" in text
    spain = state.nation("Spain")
    if spain.bank is not None:
        import dataclasses
        state.nation("Spain").bank = dataclasses.replace(spain.bank, base_capacity=spain.bank.base_capacity + 999)
        assert lm.odds(state, "England", "borrow 100gp from Spain\nbuild 4 i at London") == text

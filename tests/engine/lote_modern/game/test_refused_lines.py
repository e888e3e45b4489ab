"""A refused order line leaves no trace: the lines after it are answered, and carried out, as if it were not there."""

from __future__ import annotations

import copy

import pytest

from engine.core import Verdict
from tests.engine.lote_modern.game.conftest import FixedDice, accepted
from tests.engine.lote_modern.game.play import lines, resolve
from tests.engine.lote_modern.game.test_order_checks import CASES

R = Verdict.REJECTED


def test_research_refused_for_its_cost_does_not_start_the_project(lm, state):
    """Issue 14: the refused line once marked the project as started, so the next line, without a location,
    was accepted as funding a project that did not exist: 10 GP taken and no project made."""
    text = "research airships 999999gp 1nfp at London\nresearch airships 10gp 1nfp"
    first, second = lm.check(state, "England", text)
    assert first.verdict is R and "999999 GP" in first.message
    alone = lm.check(state, "England", "research airships 10gp 1nfp")[0]
    assert (second.verdict, second.message) == (alone.verdict, alone.message)
    assert second.verdict is R and "name the project's location" in second.message


def test_research_after_a_refused_start_starts_it_once_carried_out(lm, state):
    text = "research airships 999999gp 1nfp at London\nresearch airships 10gp 1nfp at London"
    assert [c.verdict for c in lm.check(state, "England", text)] == [R, Verdict.ACCEPTED]
    after = resolve(lm, state, {"England": text})
    england = after.nation("England")
    assert [p.name for p in england.projects if p.kind == "rd" and p.name == "airships"] == ["airships"]
    assert "R&D Airships" in lines(after, "England")


# Issue 14's two lines as it wrote them (the first now refused for its missing NFP, LotE 4), and with the NFP that
# makes the first refused for its cost, after it has looked at the budget.
EXAMPLES = {"as written": ("research airships 999999gp at London", "research airships 10gp", "1 GP and 1 NFP"),
            "refused for its cost": ("research airships 999999gp 1nfp at London", "research airships 10gp 1nfp",
                                     "999999 GP")}


def carried_out(lm, state, text: str):
    """The turn resolved with these lines submitted as written, refused or not, and England after it: the
    resolution must hold on its own to what a line says, even when a line reaches it unchecked."""
    after = lm.resolve(copy.deepcopy(state), {"England": text.splitlines()}, FixedDice()).state
    return after, after.nation("England")


@pytest.mark.parametrize("example", EXAMPLES.values(), ids=EXAMPLES)
def test_the_issue_example_is_answered_line_by_line_against_the_untouched_budget(lm, state, example):
    refused, then, why = example
    first, second = lm.check(state, "England", f"{refused}\n{then}")
    assert first.verdict is R and why in first.message
    alone = lm.check(state, "England", then)[0]
    assert (second.verdict, second.canonical, second.message) == (alone.verdict, alone.canonical, alone.message)
    assert second.verdict is R and "name the project's location" in second.message
    assert accepted(lm, state, "England", f"{refused}\n{then}") == []


@pytest.mark.parametrize("example", EXAMPLES.values(), ids=EXAMPLES)
def test_the_issue_example_takes_no_gold_and_makes_no_project_at_resolution(lm, state, example):
    refused, then, _ = example
    _, untouched = carried_out(lm, state, "note nothing to research")
    after, england = carried_out(lm, state, f"{refused}\n{then}")
    assert england.gp == untouched.gp, "gold was taken for a project that was never made"
    assert [p for p in england.projects if p.name == "airships"] == []
    report = lines(after, "England")
    assert "not carried out" in report and "R&D Airships" not in report


def test_the_issue_example_with_a_location_makes_the_project_it_says_for_10_gp(lm, state):
    text = "research airships 999999gp 1nfp at London\nresearch airships 10gp 1nfp at London"
    first, second = lm.check(state, "England", text)
    assert first.verdict is R and "999999 GP" in first.message
    assert (second.verdict, second.canonical) == (Verdict.ACCEPTED, "research airships 10gp 1nfp at London")
    _, untouched = carried_out(lm, state, "note nothing to research")
    after, england = carried_out(lm, state, text)
    assert england.gp == pytest.approx(untouched.gp - 10)
    (project,) = [p for p in england.projects if p.name == "airships"]
    assert (project.kind, project.location, project.gp, project.nfp) == ("rd", "London", 10, 1)
    assert "R&D Airships" in lines(after, "England")


SOLO = [(seat, line) for _, seat, edits, line, verdict, _ in CASES if not edits and verdict is not R]
REFUSED = {seat: [line for _, s, edits, line, verdict, _ in CASES if s == seat and not edits and verdict is R]
           for seat, _ in SOLO}


@pytest.mark.parametrize(("seat", "line"), SOLO, ids=[f"{s}: {line}" for s, line in SOLO])
def test_a_line_after_refused_lines_is_answered_as_if_alone(lm, state, seat, line):
    alone = lm.check(state, seat, line)[0]
    after = lm.check(state, seat, "\n".join([*REFUSED[seat], line]))
    assert all(c.verdict is R for c in after[:-1]), [c.text for c in after[:-1] if c.verdict is not R]
    assert (after[-1].verdict, after[-1].canonical, after[-1].message) == (alone.verdict, alone.canonical,
                                                                          alone.message)

"""A refused order line leaves no trace: the lines after it are answered, and carried out, as if it were not there."""

from __future__ import annotations

import pytest

from engine.core import Verdict
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

"""Hostile order lines in Lords of the Earth: counts in odd digits or thousands of them are refused, not raised."""

from __future__ import annotations

import pytest

from engine.core import OrderError, Verdict


@pytest.mark.parametrize("line", ["build ² i at London", "build ٣ i at London", "build 2² i at London",
                                  "build " + "9" * 5000 + " i at London", "build 10² i at London",
                                  "invest artillery ²gp", "invest artillery " + "9" * 5000 + "gp",
                                  "build 4 i² at London"])
def test_a_count_that_is_not_plain_digits_is_refused_with_a_reason(lm, state, line):
    try:
        checks = lm.check(state, "England", line)
    except OrderError:
        return
    assert [c.verdict for c in checks] == [Verdict.REJECTED]
    assert checks[0].message and len(checks[0].message) < 300


def test_plain_digits_still_build(lm, state):
    (check,) = lm.check(state, "England", "build 4 i at London")
    assert check.verdict is Verdict.ACCEPTED

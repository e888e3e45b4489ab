"""Hostile order lines in Terra Nova: counts in odd digits or thousands of them are refused, not raised."""

import pytest

from engine.core import Verdict

from .conftest import new_game


@pytest.mark.parametrize("line", ["buy ² soldier", "buy ٣ soldier", "buy " + "9" * 5000 + " soldier",
                                  "pay ² to Portugal", "pay " + "9" * 5000 + " to Portugal",
                                  "factory Malacca bribe ²", "buy -3 soldier"])
def test_a_count_that_is_not_plain_digits_is_refused_with_a_reason(tn, line):
    checks = tn.check(new_game(east_indies=True), "Spain", line)
    assert [c.verdict for c in checks] == [Verdict.REJECTED]
    assert checks[0].message and len(checks[0].message) < 300


def test_plain_digits_still_buy(tn):
    (check,) = tn.check(new_game(), "Spain", "buy 2 soldier")
    assert check.verdict is Verdict.ACCEPTED

"""Free dice notation from anyone: every text rolls or is refused in our own short words, never the parser's."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from engine.core import Dice, RulesError

NOTATION = st.text(alphabet=st.sampled_from(list("0123456789dDFhlxrt%+-*/^().,<>=! ²٣\x00`@")), max_size=100)


@settings(max_examples=400, deadline=None)
@given(NOTATION)
@example("-0F0")  # the library's internals raised AttributeError on it
def test_any_notation_rolls_or_is_refused_in_our_words(text):
    try:
        roll = Dice(bytes(32), "t").notation(text, purpose="p")
    except RulesError as exc:
        message = str(exc)
        assert len(message) < 300 and "Expected" not in message and "(at char" not in message
        assert ("\x00" not in message and message.count("`") == 2) or message.startswith("dice notation must")
        return
    assert len(roll.faces) <= 2000


@pytest.mark.parametrize("text", ["1d" + "9" * 98, "9" * 8 + "d6", "1d1000001", "2²d6", "٣d6", "1d6`@everyone`"])
def test_numbers_too_long_or_not_ascii_are_refused_before_parsing(text):
    with pytest.raises(RulesError, match="is not dice notation I can roll"):
        Dice(bytes(32), "t").notation(text, purpose="p")


def test_the_documented_notations_still_roll():
    dice = Dice(bytes(32), "t")
    for text in ["2d6+1", "4d6h3", "3d6x6", "d%", "4dF", "100d1000000"]:
        assert dice.notation(text, purpose="p").notation == text

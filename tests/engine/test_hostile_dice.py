"""Free dice notation from anyone: every text rolls or is refused in our own short words, never the parser's."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from engine.core import Dice, RulesError

PIECES = [*"0123456789dDFhlxrt%+-*/^().,<>=! ²٣\x00`@", "kh", "kl", "dh", "dl", "k", "adv", "dis", " to hit", " ~~*_|"]
NOTATION = st.lists(st.sampled_from(PIECES), max_size=60).map("".join).filter(lambda t: len(t) <= 100)


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
    shown = roll.text()
    assert len(shown) < 2000 and "`" not in roll.note and "@" not in roll.note and "*" not in roll.note


@pytest.mark.parametrize("text", ["1d" + "9" * 98, "9" * 8 + "d6", "1d1000001", "2²d6", "٣d6", "1d6`@everyone`"])
def test_numbers_too_long_or_not_ascii_are_refused_before_parsing(text):
    with pytest.raises(RulesError, match="is not dice notation I can roll"):
        Dice(bytes(32), "t").notation(text, purpose="p")


def test_the_documented_notations_still_roll():
    dice = Dice(bytes(32), "t")
    for text in ["2d6+1", "4d6h3", "3d6x6", "d%", "4dF", "100d1000000", "4d6kh3", "2d20dl1", "1d20+5 adv"]:
        assert dice.notation(text, purpose="p").notation == text


@pytest.mark.parametrize(("text", "refusal"), [
    ("1d20 adv dis", "adv and dis cancel out"),
    ("2d6 adv", "adv and dis roll a d20 twice"),
    ("4d6dh4", "`4d6dh4` drops every die"),
    ("4d6kh5", "`4d6kh5` keeps 5 of 4 dice"),
    ("4d6kh0", "`4d6kh0` keeps 0 of 4 dice"),
])
def test_our_dice_words_misused_are_refused_saying_how_to_write_them(text, refusal):
    with pytest.raises(RulesError, match=refusal):
        Dice(bytes(32), "t").notation(text, purpose="p")

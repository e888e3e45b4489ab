"""Cached dice notation rolls exactly what the library rolls, parse after parse, and never shares a result."""

import dice as dice_notation
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core import Dice, RulesError, rng
from engine.core.rng import MAX_DICE, Stream

SEED = bytes(range(32))

NOTATIONS = ["1d6", "d6", "2d6+1", "2d6 + 1", "1d20 - 2", "2D6+1", "d%", "0d6", "0d6+3", "1d1", "07d4-0",
             "100d6", "3d8-12", "4d6h3", "3d6x6", "2d20l1 - 1d4", "4dF", "10d10", "2d6+1d4+1", "3d6r1", "(2d6)*2",
             "1d6+1d6", "4d6m2", "4d6^3"]


def _library(key: str, text: str) -> tuple[int, list[int]]:
    """What the dice library rolls for `text` on a fresh parse, on the stream of `key` (the old, uncached way)."""
    stream = Stream(SEED, key)
    token = rng._evaluating.set(stream)
    try:
        value = dice_notation.roll(text, random=stream, max_dice=MAX_DICE)
    finally:
        rng._evaluating.reset(token)
    return rng._notation_total(value), stream.draws


@given(st.sampled_from(NOTATIONS), st.integers(min_value=0, max_value=10**6))
def test_cached_and_simple_rolls_draw_what_a_fresh_parse_draws(text, n):
    roll = Dice(SEED, "c").notation(text, purpose=f"p{n}")
    total, draws = _library(roll.key, text)
    assert (roll.total, list(roll.faces)) == (total, draws)


@given(st.from_regex(r"[0-9]{0,3}[dD]([0-9]{1,4}|%)([ \t\f\x85]?[+-][ \t\n\v]?[0-9]{1,4})?", fullmatch=True))
def test_every_simple_form_matches_the_library(text):
    try:
        expected: object = _library("s/x#0", text)
    except (dice_notation.DiceBaseException, ValueError):
        expected = "refused"
    stream = Stream(SEED, "s/x#0")
    try:
        simple = rng._simple_total(stream, text)
    except RulesError:
        simple = "refused"
    if simple is None:  # not a simple form: the library rolls it, and nothing was drawn here
        assert stream.draws == []
        return
    assert (simple if simple == "refused" else (simple, stream.draws)) == expected


def test_a_repeated_notation_rolls_fresh_dice_each_time():
    dice = Dice(SEED, "again")
    rolls = [dice.notation("4d6h3", purpose="stats") for _ in range(30)]
    assert len({r.faces for r in rolls}) > 1  # a cached *result* would repeat the first roll's dice
    for roll in rolls:
        assert _library(roll.key, "4d6h3") == (roll.total, list(roll.faces))


def test_the_parse_is_cached_and_bounded():
    rng._parsed.cache_clear()
    for _ in range(3):
        Dice(SEED, "b").notation("3d6x6", purpose="p")
    info = rng._parsed.cache_info()
    assert (info.hits, info.misses) == (2, 1)
    assert info.maxsize == rng.PARSED_NOTATIONS


@pytest.mark.parametrize("bad", ["101d6", "1d0", "d0+1", "2d6+", "1/0", "1d6/0"])
def test_bad_simple_or_cached_notation_is_a_rules_error_every_time(bad):
    for _ in range(2):
        with pytest.raises(RulesError):
            Dice(SEED, "bad").notation(bad, purpose="p")

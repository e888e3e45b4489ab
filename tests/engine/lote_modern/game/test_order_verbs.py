"""LotE order verbs: a unique prefix is the verb; an unknown one gets the closest verb, and the list comes once."""

import pytest

from engine.core import RulesError, Verdict

R = Verdict.REJECTED


def test_a_verb_prefix_in_any_case_is_the_verb(lm, state):
    (check,) = lm.check(state, "England", "BUI 4 i at London")
    assert check.verdict is not R and check.canonical == "build 4 i at London"


def test_an_unknown_verb_suggests_the_closest_and_the_verbs_are_listed_once(lm, state):
    checks = lm.check(state, "England", "biuld 4 i at London\nconquer France\nrecrut 2 i")
    assert [c.verdict for c in checks] == [R, R, R]
    assert checks[0].message.startswith("`biuld` is not an order — did you mean **build**?")
    assert [("orders: " in c.message) for c in checks] == [True, False, False]
    assert checks[1].message == "`conquer` is not an order"
    assert "did you mean **recruit**?" in checks[2].message


def test_an_ambiguous_verb_prefix_lists_the_candidates(lm, state):
    (check,) = lm.check(state, "England", "co London")
    assert check.verdict is R and "could be" in check.message and "**construct**" in check.message


def test_places_are_read_without_accents_or_capitals_and_a_misspelling_gets_the_closest(lm, state):
    world = state.world
    assert world.canonical("LONDON") == "London" == world.canonical("Lóndon")
    city = next(iter(world.cities))
    with pytest.raises(RulesError, match=rf"no city `{city[:-1]}x` on the map — did you mean \*\*{city}\*\*\?"):
        world.city(city[:-1] + "x")

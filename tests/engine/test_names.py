"""Forgiving names: case, accents and unique prefixes are accepted; anything else is refused with a suggestion."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import RulesError
from engine.core.names import MAX_TYPED, Names, UnknownName, fold, meant_action, resolve
from engine.rulesets import find

SEATS = ["Cuba", "Chile", "Congo", "Côte d'Ivoire", "England"]


@pytest.mark.parametrize(("typed", "meant"), [
    ("Cuba", "Cuba"), ("cuba", "Cuba"), ("  CUBA ", "Cuba"), ("cub", "Cuba"), ("eng", "England"),
    ("cote d'ivoire", "Côte d'Ivoire"), ("CÔTE", "Côte d'Ivoire"), ("côte   d'ivoire", "Côte d'Ivoire"),
])
def test_case_accents_and_a_unique_prefix_are_the_name(typed, meant):
    assert resolve(typed, SEATS, what="seat") == meant


def test_an_exact_name_wins_over_a_longer_one_it_begins():
    assert resolve("new", ["New", "New Spain"]) == "New"


def test_an_ambiguous_prefix_lists_the_candidates():
    with pytest.raises(UnknownName) as caught:
        resolve("co", SEATS, what="seat")
    assert str(caught.value) == "`co` could be **Congo** or **Côte d'Ivoire**: type more of the seat"


def test_a_misspelling_is_refused_with_the_closest_name():
    with pytest.raises(UnknownName, match=r"no seat `Cubs` — did you mean \*\*Cuba\*\*\?"):
        resolve("Cubs", SEATS, what="seat")


def test_nothing_close_is_refused_without_a_guess():
    with pytest.raises(UnknownName) as caught:
        resolve("Zanzibar", SEATS, what="seat")
    assert str(caught.value) == "no seat `Zanzibar`"


def test_aliases_lead_to_one_name_and_never_make_a_prefix_ambiguous():
    names = Names(["terra-nova", "terra-prime"], aliases={"Terra Nova": "terra-nova", "terra nova": "terra-nova"})
    assert names.resolve("terra n") == "terra-nova"
    assert names.match("terra").candidates == ("terra-nova", "terra-prime")


def test_rulesets_are_found_by_id_or_title_forgivingly():
    assert find("Terra Nova").id == "terra-nova"
    assert find("lote").id == "lote-modern"
    assert find("FREE").id == "freeform"
    with pytest.raises(RulesError, match=r"did you mean \*\*terra-nova\*\*"):
        find("trra nova")


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=MAX_TYPED + 20))
def test_any_typed_text_matches_or_is_refused_in_short_quoted_words(typed):
    try:
        name = resolve(typed, SEATS)
    except UnknownName as exc:
        message = str(exc)
        assert len(message) < 300 and message.count("`") == 2 and "\n" not in message
        return
    assert fold(name).startswith(fold(typed)) and fold(typed)


MOVES = [("move 3", "Move to sector 3: deep space"), ("move 8", "Move to sector 8: deep space"),
         ("pass", "Pass (do nothing)"), ("scan 26", "Scan face-down yellow tile 26")]


@pytest.mark.parametrize(("typed", "meant"), [
    ("Move to sector 3", "move 3"),  # a menu's label, as typed from the screen
    ("mov 3", "move 3"), ("pas", "pass"), ("sca 26", "scan 26"),  # a verb written short
    ("Scan face-down yellow tile 2", None),  # a number's start is not the number: tile 2 is not tile 26
    ("m", "move"),  # the verb alone, which the ruleset then refuses as it stands
    ("move 2", None), ("xyz", None), ("", None),
    ("pass", None),  # well-formed already: never second-guessed
])
def test_a_refused_action_is_read_as_the_one_legal_action_it_says(typed, meant):
    assert meant_action(typed, MOVES) == meant


def test_a_ruling_with_its_verb_written_short_is_that_ruling():
    rulings = [("rule q1 done", "Event (q1): done"), ("rule q1 none", "Event (q1): none")]
    assert meant_action("rul q1 none", rulings) == "rule q1 none"
    assert meant_action("rule q1 non", rulings) == "rule q1 none"
    assert meant_action("rule q2 none", rulings) is None

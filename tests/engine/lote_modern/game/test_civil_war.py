"""Dividing reserves in a civil war (LotE 3.2.2.4): a GM action sharing them by the old nation's Friendly cities
each side holds, whole-percent shares rounded down as the Maori example does."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction, Viewer
from tests.engine.lote_modern.game.conftest import FixedDice
from tests.engine.lote_modern.game.play import GM, edit

WAR = "divide-reserves England among England (London, Dover, Portsmouth); Jacobites (Birmingham, Gibraltar)"


@pytest.fixture
def reserves(lm, state):
    """England holds the Maori Imperium's reserves: 56 infantry, 20 artillery and 115 warships."""
    return edit(lm, state, "England", "reserves.i =56", "reserves.a =20", "reserves.w =115")


def test_each_side_gets_its_share_of_the_friendly_cities(lm, reserves):
    step = lm.act(reserves, GM, WAR, FixedDice())
    # England holds 3 of 5 Friendly cities (60%), the Jacobites 2 (40%).
    assert step.state.nations["England"].reserves == {"i": 33, "a": 12, "w": 69}
    gm, told = step.events
    assert "Jacobites: 2/5 cities, 22i 8a 46w" in gm.text and "their reserves are yours to place" in gm.text
    assert told.visibility.seats == {"England"} and "yours to place" not in told.text


def test_a_side_that_is_a_nation_receives_its_share(lm, reserves):
    step = lm.act(reserves, GM, "divide-reserves England among England (London); France (Dover, Portsmouth, "
                                "Birmingham, Gibraltar)", FixedDice())
    assert step.state.nations["England"].reserves == {"i": 11, "a": 4, "w": 23}
    assert step.state.nations["France"].reserves == {"i": 44, "a": 16, "w": 92}
    assert {e.visibility.label() for e in step.events} == {"gm", "seats:England", "seats:France"}


def test_rounding_down_loses_units_and_whole_percent_is_an_option(lm, start):
    state = edit(lm, start(**{"reserves-whole-percent": "no"}), "England", "reserves.i =10")
    step = lm.act(state, GM, "divide-reserves England among England (London, Dover); Jacobites (Birmingham)",
                  FixedDice())
    assert step.state.nations["England"].reserves == {"i": 6}                  # 10 x 2/3, rounded down
    assert "Jacobites: 1/3 cities, 3i; lost to rounding: 1i" in step.events[0].text


@pytest.mark.parametrize(("action", "message"), [
    ("divide-reserves England among England (London, Dover)", "at least two sides"),
    ("divide-reserves England among England (London); Jacobites (Edinburgh)", "not one of England's Friendly cities"),
    ("divide-reserves England among England (London); Jacobites (London)", "named for two sides"),
    ("divide-reserves England England (London)", "write `divide-reserves"),
    ("divide-reserves Spain among Spain (Madrid); Carlists (Cadiz)", "Spain has no reserves"),
])
def test_a_division_the_rules_do_not_allow_is_refused(lm, reserves, action, message):
    with pytest.raises(IllegalAction, match=message):
        lm.act(reserves, GM, action, FixedDice())


def test_the_gm_is_offered_the_division_for_nations_with_reserves(lm, state, reserves):
    assert not any(a.text.startswith("divide-reserves") for a in lm.view(state, Viewer.gm()).actions)
    assert any(a.text == "divide-reserves England among " for a in lm.view(reserves, Viewer.gm()).actions)

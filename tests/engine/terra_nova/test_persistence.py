"""dump/load: the state as JSON and back, at any window, and play goes on the same from either copy."""

import json

from engine.core import Viewer, Window
from engine.rulesets.terra_nova.context import PROCEDURES

from .conftest import ScriptedDice, at_step, ctx_for, new_game
from .test_campaign import STEADY


def round_trip(tn, state):
    return tn.load(json.loads(json.dumps(tn.dump(state))))


def test_a_fresh_campaign_round_trips(tn):
    state = new_game(east_indies=True, random_events="ask")
    again = round_trip(tn, state)
    assert again == state and tn.dump(again) == tn.dump(state)


def test_a_battle_waiting_for_tactics_round_trips_and_goes_on_identically(tn):
    state = at_step(new_game(), "D3")
    state.force("Cuba", "Spain").add("soldier", 3)
    state.leaders[0].power, state.leaders[0].place = "Spain", "Cuba"
    state = tn.resolve(state, {"Spain": ["attack natives in Cuba"]}, ScriptedDice()).state
    assert tn.phase(state).window is Window.TURN
    copy = round_trip(tn, state)
    assert copy == state
    a = tn.act(state, Viewer.of_seat("Spain"), "tactic charge", ScriptedDice(scope="x"))
    b = tn.act(copy, Viewer.of_seat("Spain"), "tactic charge", ScriptedDice(scope="x"))
    assert [e.text for e in a.events] == [e.text for e in b.events] and a.state == b.state


def test_a_campaign_with_goods_questions_and_holdings_round_trips(tn):
    from .test_campaign import SEATS
    state = new_game(SEATS, STEADY, east_indies=True, uprisings="ask")
    state.holding("Cuba", "Spain").missions = [2, 4]
    state.areas["Malacca"].commodity = "Tea"
    state.force("Malacca", "Portugal").goods = []
    state = at_step(state, "E2", "enter")
    state.force("Cuba", "Spain").add("settler", 1)
    PROCEDURES["native_uprising"](ctx_for(state, "E2"))
    state.stage = "done"
    assert state.questions and tn.phase(state).window is Window.GM
    assert round_trip(tn, state) == state

"""The phase machine: the sequence of play A-G as data, and where play rests."""

import pytest

from engine.core import IllegalAction, OrderError, Viewer, Window
from engine.rulesets.terra_nova.context import CONDITIONS, PROCEDURES
from engine.rulesets.terra_nova.sequence import steps

from .conftest import ScriptedDice, at_step, new_game

SEQUENCE = [
    ("A1", "A.1 Check Game Development Table", "auto"), ("A2", "A.2 Check for Deflation", "gm"),
    ("A3", "A.3 Draw Random Event Card(s)", "gm"),
    ("A4", "A.4 Adjust Modifiers for Slaves, Fisheries, East Indies", "auto"),
    ("A5", "A.5 Advance Monarch Track", "auto"), ("A6", "A.6 Monarch Mortality Check", "auto"),
    ("A7", "A.7 New Monarchs Ascend", "auto"), ("A8", "A.8 Leader Mortality Check", "auto"),
    ("A9", "A.9 Draw New Leaders", "auto"),
    ("B1", "B.1 Determine Domestic Investment", "auto"), ("B2", "B.2 Determine Availability of Settlers", "auto"),
    ("B3", "B.3 Determine Initiative", "auto"), ("B4", "B.4 Planning & Diplomacy", "auto"),
    ("B5", "B.5 Declare Purchases, inc Forts", "orders"),
    ("C1", "C.1 First Trans-Oceanic Movement", "orders"), ("C2", "C.2 Hemispheric Movement", "orders"),
    ("C3", "C.3 Factory Segment", "auto"), ("C4", "C.4 Naval Attrition", "auto"),
    ("D1", "D.1 Gold & Treasure Checks", "auto"), ("D2", "D.2 Spices (East Indies Only)", "auto"),
    ("D3", "D.3 Establish Missions", "orders"), ("D4", "D.4 Settlement and Town Building", "auto"),
    ("D5", "D.5 Land Movement & Combat", "auto"),
    ("E1", "E.1 Native War/Native Alliance", "orders"), ("E2", "E.2 Native Uprising", "gm"),
    ("E3", "E.3 Native Revival Roll", "auto"),
    ("F1", "F.1 Second Trans-Oceanic Movement", "orders"), ("F2", "F.2 Naval Attrition", "auto"),
    ("G1", "G.1 Blight Phase", "auto"), ("G2", "G.2 Claim Resources", "auto"),
    ("G3", "G.3 Add Transported Gold to Treasury", "auto"), ("G4", "G.4 Maintenance", "auto"),
    ("G5", "G.5 Discovery Claims", "auto"), ("G6", "G.6 Victory Points", "auto"),
    ("G7", "G.7 Endgame Check or Vote", "orders"),
]


def test_the_machine_is_the_sequence_of_play_in_order():
    assert [(s.name, s.label, s.kind) for s in steps()] == SEQUENCE
    assert all(s.run in PROCEDURES for s in steps())
    assert all(c in CONDITIONS for s in steps() for c in (s.when, s.opens) if c)


def test_a_quiet_turn_rests_at_each_order_window_in_sequence(tn):
    state = new_game()
    seen = []
    while state.turn == 1:
        phase = tn.phase(state)
        assert phase.window is Window.ORDERS and phase.waiting == {"Spain", "Portugal", "England"}
        seen.append((phase.key, phase.label))
        state = tn.resolve(state, {}, ScriptedDice()).state
    assert seen == [("1:B5", "B.5 Declare Purchases, inc Forts"), ("1:C1", "C.1 First Trans-Oceanic Movement"),
                    ("1:C2", "C.2 Hemispheric Movement"), ("1:D3", "D.3 Establish Missions"),
                    ("1:E1", "E.1 Native War/Native Alliance"), ("1:F1", "F.1 Second Trans-Oceanic Movement")]
    assert tn.phase(state).key == "2:B5"


def test_gm_steps_stop_only_when_there_is_something_to_rule(tn):
    state = new_game(random_events="ask", deflation="ask")
    assert tn.phase(state).key == "1:A3"        # deflation is not checked in 1496: nothing to deflate yet
    state = tn.act(state, Viewer.gm(), "rule " + state.questions[0].id + " none", ScriptedDice()).state
    assert tn.phase(state).key == "1:B5"
    while state.turn == 1:
        state = tn.resolve(state, {}, ScriptedDice()).state
    assert tn.phase(state).key == "2:A2" and tn.phase(state).window is Window.GM


def test_the_expansion_steps_run_only_with_the_east_indies():
    plain, indies = new_game(), new_game(east_indies=True)
    assert not CONDITIONS["east_indies"](plain) and CONDITIONS["east_indies"](indies)
    assert "Malacca" not in plain.areas and "Malacca" in indies.areas


def test_endgame_votes_open_a_window_only_when_chosen_and_due():
    state = new_game(endgame_votes=True)
    state.turn = 16
    assert not CONDITIONS["votes_due"](state)
    state.turn = 17
    assert CONDITIONS["votes_due"](state)
    assert not CONDITIONS["votes_due"](new_game())


def test_orders_and_resolution_only_in_an_order_window(tn):
    state = new_game(random_events="ask")
    with pytest.raises(OrderError, match="no order window"):
        tn.check(state, "Spain", "buy 1 soldier")
    with pytest.raises(IllegalAction, match="no order window"):
        tn.resolve(state, {}, ScriptedDice())


def test_keys_change_at_each_window_and_battle_round(tn):
    state = at_step(new_game(), "D3")
    spain = state.force("Cuba", "Spain")
    spain.add("soldier", 1)
    state.leaders[0].power, state.leaders[0].place = "Spain", "Cuba"
    step = tn.resolve(state, {"Spain": ["attack natives in Cuba"]}, ScriptedDice())
    phase = tn.phase(step.state)
    assert phase.window is Window.TURN and phase.name.startswith("D5-b") and phase.name.endswith("r1")
    assert phase.waiting == {"Spain"}

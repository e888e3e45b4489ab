"""TP Setup, TP Rounds of Turns and TP Player Turns."""

import pytest

from engine.core import Dice, NotYourTurn, Setup, Viewer, Window
from engine.rulesets.terra_prime.state import Colony
from tests.engine.terra_prime.helpers import SEED, TP, act, new_game, texts


@pytest.mark.parametrize(("seats", "outpost", "ship"), [(2, "small", 6), (3, "small", 7), (4, "large", 8),
                                                        (5, "large", 9)])
def test_outpost_and_cargo_ship_follow_the_player_count(seats, outpost, ship):
    state = new_game(tuple(f"P{i}" for i in range(seats)))
    assert state.outpost == outpost
    assert "Cargo Ship: 0/" + str(ship) in TP.view(state, Viewer.spectator()).summary


def test_stacks_are_shuffled_secretly_and_dealt_face_down_by_colour():
    dice = Dice(SEED, "setup")
    state = TP.setup(Setup(("Ana", "Ben"), TP.parse_options({}), dice))
    assert not any(t.revealed for t in state.tiles)
    assert [t.design[0] for t in state.tiles] == ["G"] * 14 + ["Y"] * 14 + ["R"] * 14
    shuffles = [r for r in dice.rolls if r.kind == "shuffle"]
    assert len(shuffles) == 3 and all(not r.visibility.public and not r.visibility.seats for r in shuffles)
    other = TP.setup(Setup(("Ana", "Ben"), TP.parse_options({}), Dice(b"\x09" * 32, "setup")))
    assert [t.design for t in other.tiles] != [t.design for t in state.tiles]


def test_the_start_player_is_a_logged_public_roll():
    dice = Dice(SEED, "setup")
    state = TP.setup(Setup(("Ana", "Ben", "Cleo"), TP.parse_options({}), dice))
    roll = next(r for r in dice.rolls if r.purpose == "setup/start-player")
    assert roll.visibility.public and state.seats[roll.total - 1] == state.seat


def test_ships_start_with_built_in_hold_and_fuel_cell_one_marker_and_two_credits():
    state = new_game()
    ship = state.ships["Ana"]
    assert (ship.sector, ship.credits, ship.markers_ship, ship.markers_supply, ship.modules) == (0, 2, 1, 15, {})
    assert state.actions_left == 2  # 1 + the built-in fuel cell
    sheet = TP.view(state, Viewer.of_seat("Ana")).sheet
    assert "cargo hold 1/2 (1 built in)" in sheet and "fuel cell 1/2 (1 built in)" in sheet


def test_earth_consumes_one_of_each_resource_when_a_round_begins_skipping_empty_tracks():
    state = new_game()
    state.earth["red"] = 0
    before = dict(state.earth)
    state.actions_left = 1
    state, _ = act(state, "pass")           # Ana ends; Ben's turn: same round
    assert state.earth == before
    state.actions_left = 1
    state, events = act(state, "pass")      # Ben ends; round 2 starts with Ana
    assert state.round == 2
    assert state.earth == {k: max(0, v - 1) for k, v in before.items()}
    assert any(e.text == "Earth consumes green, blue, yellow, brown." for e in events)


def test_colonies_produce_at_the_start_of_their_owners_turn_and_hold_one_cube():
    state = new_game()
    state.colonies["7"] = Colony("Ben", "green")
    state.colonies["9"] = Colony("Ben", "blue", cube="blue")
    state.colonies["11"] = Colony("Ana", "yellow")
    state.actions_left = 1
    state, _ = act(state, "pass")
    assert state.colonies["7"].cube == "green" and state.colonies["9"].cube == "blue"
    assert state.colonies["11"].cube is None  # Ana's colony waits for Ana's turn


def test_all_actions_must_be_taken_before_the_turn_passes():
    state = new_game()
    state, _ = act(state, "pass")
    assert state.seat == "Ana" and state.actions_left == 1
    state, _ = act(state, "pass")
    assert state.seat == "Ben" and state.actions_left == 2
    assert TP.phase(state).key != "1:turn" and TP.phase(state).window is Window.TURN


def test_installed_fuel_cells_add_an_action_each_turn():
    state = new_game()
    state.ships["Ben"].modules["fuel-cell"] = 1
    state.actions_left = 1
    state, _ = act(state, "pass")
    assert state.actions_left == 3


def test_a_seat_out_of_turn_is_told_it_is_not_its_turn():
    state = new_game()
    with pytest.raises(NotYourTurn, match="not your turn"):
        TP.act(state, Viewer.of_seat("Ben"), "pass", Dice(SEED, "x"))
    with pytest.raises(NotYourTurn, match="not your turn"):
        TP.act(state, Viewer.spectator(), "pass", Dice(SEED, "x"))
    assert texts(state, "Ben") == []


def test_the_gm_may_act_for_the_seat_whose_turn_it_is():
    state = new_game()
    state = TP.act(state, Viewer.gm(), "pass", Dice(SEED, "x")).state
    assert state.actions_left == 1


def test_phase_waits_for_the_acting_seat_and_its_key_changes_only_between_turns():
    state = new_game()
    phase = TP.phase(state)
    assert phase.window is Window.TURN and phase.waiting == frozenset({"Ana"})
    state, _ = act(state, "pass")
    assert TP.phase(state).key == phase.key
    state, _ = act(state, "pass")
    assert TP.phase(state).key != phase.key and TP.phase(state).waiting == frozenset({"Ben"})


def test_under_the_alternative_rule_the_owner_picks_any_planet_colour_in_the_sector():
    from tests.engine.terra_prime.helpers import place
    state = new_game(production="sector")
    place(state, 1, "G01", 3)  # green planet in sector 13
    place(state, 3, "G02", 5)  # blue planet in sector 13
    state.colonies["13"] = Colony("Ben", "green")
    state.actions_left = 1
    state, _ = act(state, "pass")
    assert texts(state, "Ben") == ["produce green", "produce blue"]
    state, _ = act(state, "produce blue")
    assert state.colonies["13"].cube == "blue" and state.actions_left == 2

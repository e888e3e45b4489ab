"""TP Components and TP Install: module tiles are limited to the box, and a colony is on one planet."""

import pytest

from engine.core import IllegalAction
from engine.rulesets.terra_prime import state as state_io
from engine.rulesets.terra_prime.data import rules
from engine.rulesets.terra_prime.state import Colony
from tests.engine.terra_prime.helpers import act, new_game, place


def test_the_box_holds_ten_of_each_module_and_five_shuttles():
    supply = {m.key: m.supply for m in rules().modules}
    assert supply == {"cargo-hold": 10, "fuel-cell": 10, "shield": 10, "weapon": 10, "shuttle": 5}


def test_an_eleventh_shield_is_refused_while_ten_are_on_ships():
    state = new_game(("Ana", "Ben", "Cid"))
    place(state, 1, "G11", 0)  # a yellow planet in sector 7: shields
    state.ship.sector = 7
    state.ship.credits = 20
    state.ship.tech.append("shields")
    state.ship.modules["shield"] = 2
    state.ships["Ben"].modules["shield"] = 4
    state.ships["Cid"].modules["shield"] = 4
    with pytest.raises(IllegalAction, match="all 10 shield tiles are on ships"):
        act(state, "install shield")
    state.ships["Cid"].modules["shield"] = 3   # Cid lost one to the aliens: it is back in the box
    state, _ = act(state, "install shield")
    assert state.ships["Ana"].modules["shield"] == 3


def _two_green_planets_in_sector_6(state):
    place(state, 1, "G01", 2)   # tile 1's green planet turned to board corner 2: sector 6
    place(state, 3, "G05", 0)   # tile 3's green planet at its corner 0: sector 6 as well
    state.ship.sector = 6
    state.ship.credits = 10
    state.ship.tech.append("holds")   # room for 4 holds, so two may go in this visit


def test_a_colony_owner_is_paid_once_when_two_planets_of_its_colour_supply_modules():
    state = new_game()
    _two_green_planets_in_sector_6(state)
    state.actions_left = 2
    state.ships["Ben"].sector = 6
    state.current = 1
    state.actions_left = 1
    state, _ = act(state, "colonize green")
    assert state.colonies["6"].planet in {"1:0", "3:0"}
    state.current, state.actions_left = 0, 2
    state.ship.sector = 6
    state, _ = act(state, "install cargo-hold")
    state, _ = act(state, "install cargo-hold")
    assert state.ships["Ana"].modules["cargo-hold"] == 2
    assert state.ships["Ben"].score == 1 + 4 + 2   # the colony (path + 2 planets) and one install, not two


def test_a_game_saved_before_colonies_named_their_planet_still_pays_once():
    state = new_game()
    _two_green_planets_in_sector_6(state)
    state.colonies["6"] = Colony("Ben", "green")
    data = state_io.dump(state)
    del data["colonies"]["6"]["planet"]      # as saved by the earlier version
    state = state_io.load(data)
    assert state.colonies["6"].planet is None
    state, _ = act(state, "install cargo-hold")
    state, _ = act(state, "install cargo-hold")
    assert state.ships["Ben"].score == 1

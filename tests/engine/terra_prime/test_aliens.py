"""TP Hostile Aliens, TP Diplomacy, TP Asteroid Fields and Stray Asteroids, with loaded dice."""

import pytest

from engine.core import IllegalAction
from engine.rulesets.terra_prime.state import Beaten, Colony
from tests.engine.terra_prime.helpers import LoadedDice, act, give, new_game, place, texts

# Sector 2 is Terra Prime's way out onto tile 1, whose corners are sectors 7, 2, 6, 13, 21, 14.


@pytest.fixture
def state():
    game = new_game()
    game.tile(1).design = "Y08"  # deep space with 2 alien symbols
    return game


def test_aliens_attack_when_their_tile_is_revealed_and_shields_cancel_on_5_or_6(state):
    state.ship.modules["shield"] = 2
    state, events = act(state, "explore 2", LoadedDice(5, 4, 6, 3))
    attack = next(e for e in events if e.kind == "attack")
    assert "[5, 4] → 2 hits; shields [6, 3] cancel 1 — 1 hit get through" in attack.text
    assert state.ship.modules == {"shield": 1}  # the only kind aboard goes without asking


def test_a_hit_with_no_module_left_costs_3_leadership(state):
    state, events = act(state, "explore 2", LoadedDice(6, 1))
    assert state.ship.score == -3
    assert [e.data["points"] for e in events if e.kind == "score"] == [-3]


def test_the_built_in_hold_and_fuel_cell_are_never_lost(state):
    state.ship.cargo = []
    state, _ = act(state, "explore 2", LoadedDice(6, 6))
    assert state.ship.score == -6 and state.actions_left == 1


def test_fighting_back_after_the_attack_beats_them_with_a_hit_per_symbol(state):
    state.ship.modules["weapon"] = 2
    state, _ = act(state, "explore 2", LoadedDice(1, 2))
    assert texts(state) == ["fight", "ignore"]
    state, events = act(state, "fight", LoadedDice(4, 6))
    assert "2 hits of 2 needed" in next(e.text for e in events if e.kind == "fight")
    assert state.beaten["1"].seat == "Ana" and state.ship.markers_supply == 14
    assert state.ship.score == 6  # 3 per symbol


def test_falling_short_after_the_attack_changes_nothing(state):
    state.ship.modules["weapon"] = 2
    state, _ = act(state, "explore 2", LoadedDice(1, 2))
    state, _ = act(state, "fight", LoadedDice(4, 1))
    assert "1" not in state.beaten and state.ship.modules == {"weapon": 2}


def test_on_a_mapped_alien_tile_the_player_fires_first_and_each_hit_spares_an_alien_die(state):
    place(state, 1, "Y08")
    state.ship.modules["weapon"] = 1
    state, _ = act(state, "move 2")
    assert texts(state) == ["fight", "ignore"]  # before they attack
    state, events = act(state, "fight", LoadedDice(5, 6))  # 1 hit: they roll 1 die, not 2
    attack = next(e for e in events if e.kind == "attack")
    assert "[6] → 1 hit" in attack.text
    assert state.ship.modules == {}


def test_letting_them_attack_rolls_all_their_dice(state):
    place(state, 1, "Y08")
    state.ship.modules["weapon"] = 1
    state, _ = act(state, "move 2")
    state, events = act(state, "ignore", LoadedDice(1, 1))
    assert "[1, 1] → 0 hits" in next(e.text for e in events if e.kind == "attack")


def test_diplomacy_spends_the_offered_cubes_and_befriends_on_enough_4s(state):
    place(state, 1, "Y08")
    give(state, "Ana", "green", "blue")
    supply = dict(state.supply)
    state, _ = act(state, "move 2")
    assert "negotiate green blue" in texts(state) and "negotiate green" in texts(state)
    state, _events = act(state, "negotiate blue green", LoadedDice(4, 5))
    assert state.beaten["1"].seat == "Ana" and state.ship.cargo == [] and state.ship.score == 6
    assert state.supply["green"] == supply["green"] + 1 and state.supply["blue"] == supply["blue"] + 1


def test_pass_to_attack_again_counts_every_symbol(state):
    place(state, 1, "Y08")
    state.ship.modules["weapon"] = 1
    state.ship.modules["shield"] = 1
    state.actions_left = 3
    state, _ = act(state, "move 2")
    state, _ = act(state, "fight", LoadedDice(6, 1, 5))  # 1 hit; they roll 1 die [1]; no damage
    assert "1" not in state.beaten
    state, _ = act(state, "pass")
    assert texts(state) == ["fight", "ignore"]
    state, _ = act(state, "fight", LoadedDice(4, 1, 2))  # again 1 of 2 needed
    assert "1" not in state.beaten


def test_beaten_aliens_no_longer_attack(state):
    place(state, 1, "Y08")
    state.beaten["1"] = Beaten("Ben")
    state, _ = act(state, "move 2")
    assert state.queue == [] and state.actions_left == 1


def test_the_player_chooses_which_module_a_hit_destroys(state):
    state.ship.modules.update({"shield": 1, "fuel-cell": 1})
    state, _ = act(state, "explore 2", LoadedDice(6, 1, 2))
    assert texts(state) == ["lose fuel-cell", "lose shield"]
    state, _ = act(state, "lose fuel-cell")
    assert state.ship.modules == {"shield": 1}


def test_with_the_random_loss_option_the_dice_choose():
    state = new_game(module_loss="random")
    state.tile(1).design = "Y08"
    state.ship.modules.update({"shield": 1, "fuel-cell": 1})
    state, _events = act(state, "explore 2", LoadedDice(6, 1, 2, 1))
    assert state.ship.modules == {"shield": 1}  # the roll of 1 picked the fuel cell (listed first)


def test_losing_a_cargo_hold_makes_the_owner_throw_cubes_overboard(state):
    state.ship.modules["cargo-hold"] = 1
    give(state, "Ana", "red", "red", "blue", "green")
    state, _ = act(state, "explore 2", LoadedDice(6, 1))
    assert texts(state) == ["discard green", "discard blue", "discard red"]
    state, _ = act(state, "discard green")
    assert texts(state) == ["discard blue", "discard red"]
    with pytest.raises(IllegalAction, match="first discard down to 2 cubes"):
        act(state, "pass")


def test_stray_asteroids_strike_on_reveal_and_cannot_be_fought():
    state = new_game()
    state.tile(1).design = "G10"  # 1 stray asteroid
    state.ship.modules.update({"shield": 1, "weapon": 2})
    state, events = act(state, "explore 2", LoadedDice(5, 4))
    attack = next(e for e in events if e.kind == "attack")
    assert "1 stray asteroid on tile 1 attack **Ana**: [5] → 1 hit; shields [4] cancel 0" in attack.text
    assert texts(state) == ["lose shield", "lose weapon"]


def test_entering_an_asteroid_field_is_an_attack_one_die_fewer_in_your_own_sector():
    state = new_game()
    place(state, 1, "Y13")     # a field of 2 asteroids in sector 6
    place(state, 3, "G04")
    state.ship.sector = 2
    state.actions_left = 3
    state, events = act(state, "move 6", LoadedDice(4, 1))
    assert "asteroid field in sector 6 attack **Ana**: [4, 1] → 1 hit" in events[1].text
    state.colonies["6"] = Colony("Ana", "field")
    state, _ = act(state, "move 2")
    state, events = act(state, "move 6", LoadedDice(3))
    assert "(one die fewer: yours) attack **Ana**: [3]" in events[1].text


def test_only_the_acting_ship_is_attacked_by_neighbouring_aliens(state):
    place(state, 1, "Y08")
    state.ships["Ben"].sector = 2
    state, _ = act(state, "pass")
    assert state.queue == [] and state.ships["Ben"].score == 0

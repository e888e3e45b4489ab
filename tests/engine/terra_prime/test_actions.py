"""TP Action List: move, explore and orient, collect, colonize, deliver, install, upgrade, refill, scan."""

import pytest

from engine.core import IllegalAction, Viewer
from engine.rulesets.terra_prime import space
from engine.rulesets.terra_prime.state import Colony
from tests.engine.terra_prime.helpers import TP, act, give, new_game, place, texts

# On the 2-3 player wedge board: Terra Prime's ways out are sectors 1, 2 and 3 (sector 3 touches
# only the outpost and the board's edge, so it starts mapped). Tile 1 lies between sectors
# 7, 2, 6, 13, 21, 14 (board corners 0-5); tile 3 between 6, 12, 19, 25, 20, 13.


@pytest.fixture
def state():
    return new_game()


def test_explore_turns_the_tile_over_and_the_explorer_orients_it(state):
    state.tile(1).design = "G03"  # green planet on printed corner 0, blue on corner 3
    state, events = act(state, "explore 2")
    assert "green tile 1 shows green planet, blue planet" in events[0].text
    assert texts(state) == ["orient 0", "orient 2", "orient 3", "orient 5"]
    state, _ = act(state, "orient 3")
    assert [p.colour for p in space.planets(state, 13)] == ["green"]
    assert [p.colour for p in space.planets(state, 7)] == ["blue"]
    assert state.ship.sector == 2 and state.actions_left == 1


def test_no_planet_may_be_turned_next_to_terra_prime(state):
    state.tile(1).design = "G03"
    state, _ = act(state, "explore 2")
    with pytest.raises(IllegalAction, match="planets may not sit in sectors next to planets or Terra Prime"):
        act(state, "orient 1")  # would put the green planet in sector 2, next to Terra Prime


def test_when_every_turn_breaks_the_rule_the_least_bad_ones_are_allowed(state):
    place(state, 3, "G01", rotation=5)  # a green planet in sector 13
    state.tile(1).design = "Y12"        # planets on printed corners 0, 2 and 4
    state, _ = act(state, "explore 2")
    # even turns put two planets next to sector 13; odd turns put one next to Terra Prime
    assert texts(state) == ["orient 1", "orient 3", "orient 5"]


def test_only_one_explore_per_turn_unless_upgraded(state):
    state.actions_left = 3
    state.tile(1).design = "G04"  # deep space: nothing to orient or fear
    state, _ = act(state, "explore 2")
    assert not [t for t in texts(state) if t.startswith("explore")]
    frontier = next(n for n in (6, 7) if len(space.face_down(state, n)) == 1)
    with pytest.raises(IllegalAction, match="no explore actions left"):
        act(state, f"explore {frontier}")
    fresh = new_game()
    fresh.ships["Ana"].tech.append("explore")
    fresh.actions_left = 1
    fresh, _ = act(fresh, "pass")
    fresh.actions_left = 1
    fresh, _ = act(fresh, "pass", seat="Ben")
    assert fresh.explores_left == 2


def test_move_goes_only_into_mapped_sectors(state):
    with pytest.raises(IllegalAction, match="unmapped: explore it instead"):
        act(state, "move 1")
    with pytest.raises(IllegalAction, match="not next to your ship"):
        act(state, "move 9")
    state, _ = act(state, "move 3")
    assert state.ship.sector == 3


def test_a_sector_behind_two_face_down_tiles_is_never_offered(state):
    state.ship.sector = 3
    offered = [t for t in texts(state) if t.startswith(("move", "explore"))]
    for text in offered:
        target = int(text.split()[1])
        assert len(space.face_down(state, target)) <= 1


def test_an_opponent_collecting_at_a_colony_gives_its_owner_1_leadership(state):
    place(state, 1, "G01", 0)  # green planet in sector 7
    state.colonies["7"] = Colony("Ben", "green", cube="green")
    state.ship.sector = 7
    state, events = act(state, "collect")
    assert state.ship.cargo == ["green"] and state.colonies["7"].cube is None
    assert state.ships["Ben"].score == 1
    assert any(e.kind == "score" and e.data == {"seat": "Ben", "points": 1,
                                                 "reason": "Ana collected at their colony"} for e in events)


def test_collecting_into_a_full_hold_asks_what_to_throw_overboard(state):
    place(state, 1, "G01", 0)
    state.colonies["7"] = Colony("Ana", "green", cube="green")
    state.ship.sector = 7
    give(state, "Ana", "blue", "blue")
    supply = state.supply["blue"]
    state, _ = act(state, "collect")
    assert texts(state) == ["discard green", "discard blue"]
    state, _ = act(state, "discard blue")
    assert sorted(state.ship.cargo) == ["blue", "green"] and state.supply["blue"] == supply + 1


def test_discarding_is_free_at_any_time(state):
    give(state, "Ana", "red")
    state, _ = act(state, "discard red")
    assert state.ship.cargo == [] and state.actions_left == 2


def test_a_colony_scores_its_path_to_terra_prime_plus_two_per_planet(state):
    place(state, 1, "G01", 0)               # green planet in sector 7, two steps from Terra Prime
    state.ship.sector = 7
    state, events = act(state, "colonize green")
    assert state.ship.score == 2 + 2
    assert "sector 7: 2 to Terra Prime + 1 planet" in next(e for e in events if e.kind == "score").text


def test_two_planets_in_a_sector_score_four_plus_the_path(state):
    place(state, 1, "G01", 3)  # green planet in sector 13
    place(state, 3, "G02", 5)  # blue planet in sector 13
    state.ship.sector = 13
    state, _ = act(state, "colonize blue")
    assert state.ship.score == 3 + 4
    assert state.colonies["13"] == Colony("Ana", "blue", planet="3:0")  # the blue planet of tile 3


def test_a_mine_alone_scores_nothing_but_with_a_planet_scores_as_a_colony(state):
    place(state, 1, "G06", 1)  # an asteroid field in sector 13
    state.ship.sector = 13
    alone, _ = act(new_copy(state), "colonize field")
    assert alone.ship.score == 0 and alone.colonies["13"].is_mine
    place(state, 3, "G02", 5)  # and a blue planet there too
    mined, _ = act(state, "colonize field")
    assert mined.ship.score == 3 + 2


def test_one_colony_per_sector_and_a_marker_must_be_aboard(state):
    place(state, 1, "G01", 3)
    place(state, 3, "G02", 5)
    state.ship.sector = 13
    state.colonies["13"] = Colony("Ben", "green")
    with pytest.raises(IllegalAction, match="already has a colony"):
        act(state, "colonize blue")
    del state.colonies["13"]
    state.ship.markers_ship = 0
    with pytest.raises(IllegalAction, match="no colony marker: refill"):
        act(state, "colonize blue")


def test_delivery_pays_earths_price_and_a_full_cargo_ship_is_away_until_next_turn(state):
    give(state, "Ana", "green", "green", "red")
    state.earth.update(green=2, red=2, blue=2)
    state.cargo_ship = ["blue"] * 4
    with pytest.raises(IllegalAction, match="only 2 cubes fit"):
        act(state, "deliver green green red")
    state, _events = act(state, "deliver green red")  # green track 2 -> 3 credits, red 2 -> 6
    assert state.ship.credits == 2 + 9
    assert state.cargo_ship == [] and state.cargo_ship_away
    assert state.earth["blue"] == 6 and state.earth["green"] == 3 and state.earth["red"] == 3
    with pytest.raises(IllegalAction, match="away to Earth until next turn"):
        act(state, "deliver green")
    state, _ = act(state, "pass")
    assert not state.cargo_ship_away  # Ben's turn: the Cargo Ship is back


def test_a_cargo_shuttle_delivers_from_afar_and_its_overflow_still_goes_to_earth(state):
    state.ship.sector = 3
    state.ship.modules["shuttle"] = 1
    state.ship.modules["cargo-hold"] = 1
    give(state, "Ana", "red", "red", "red")
    state.earth["red"] = 2
    state.cargo_ship = ["blue"] * 5
    state, _ = act(state, "shuttle red red red")
    assert state.ship.credits == 2 + 3 * 6
    assert state.earth["red"] == 5 and "shuttle" not in state.ship.modules


def test_module_prices_rise_with_each_of_the_same_type(state):
    state.ship.credits = 10
    state, _ = act(state, "install weapon")
    assert state.ship.credits == 9
    with pytest.raises(IllegalAction, match="bought at Terra Prime, one module per visit"):
        act(state, "install weapon")
    state.actions_left = 3
    state, _ = act(state, "move 3")
    state, _ = act(state, "move 0")
    state, _ = act(state, "install weapon")
    assert state.ships["Ana"].credits == 7 and state.ships["Ana"].modules["weapon"] == 2


def test_capacity_is_two_of_a_module_until_its_tech_upgrade(state):
    state.ship.credits = 10
    state.ship.modules["weapon"] = 2
    with pytest.raises(IllegalAction, match="no room for another weapon"):
        act(state, "install weapon")
    give(state, "Ana", "green", "brown")
    state, _ = act(state, "upgrade weapons")
    state, _ = act(state, "install weapon")
    assert state.ships["Ana"].modules["weapon"] == 3 and state.ships["Ana"].credits == 7


def test_the_built_in_hold_counts_towards_capacity_but_not_the_price(state):
    place(state, 1, "G01", 0)
    state.ship.sector = 7
    state.ship.credits = 5
    state, _ = act(state, "install cargo-hold")
    assert state.ship.credits == 4  # the first cargo hold module costs 1
    state.ship.visit_planets = []
    with pytest.raises(IllegalAction, match="no room for another cargo hold"):
        act(state, "install cargo-hold")


def test_modules_come_from_planets_of_their_colour_one_per_planet_per_visit(state):
    place(state, 1, "G11", 0)  # a yellow planet in sector 7: shields
    state.ship.sector = 7
    state.ship.credits = 5
    with pytest.raises(IllegalAction, match="from green planets here"):
        act(state, "install cargo-hold")
    with pytest.raises(IllegalAction, match="bought at Terra Prime"):
        act(state, "install weapon")
    state, _ = act(state, "install shield")
    with pytest.raises(IllegalAction, match="one per planet per visit"):
        act(state, "install shield")


def test_installing_at_an_opponents_colony_gives_its_owner_1_leadership(state):
    place(state, 1, "G11", 0)
    state.colonies["7"] = Colony("Ben", "yellow")
    state.ship.sector = 7
    state, _ = act(state, "install shield")
    assert state.ships["Ben"].score == 1


def test_tech_upgrades_are_paid_in_cubes_one_per_track_per_visit(state):
    give(state, "Ana", "blue", "blue")
    state, _ = act(state, "upgrade fuel")
    assert state.ship.tech == ["fuel"] and state.ship.cargo == [] and state.supply["blue"] == 14
    give(state, "Ana", "blue", "yellow", "brown")
    with pytest.raises(IllegalAction, match="one upgrade per track per visit"):
        act(state, "upgrade explore")
    with pytest.raises(IllegalAction, match="needs the earlier steps"):
        act(state, "upgrade cryo")


def test_the_cheap_tech_option_prices_every_step_in_green_and_blue_cubes():
    state = new_game(tech_costs="cheap")
    state.ship.tech += ["fuel", "explore"]
    give(state, "Ana", "blue", "red", "red")        # the board's price, not this campaign's
    assert "upgrade action" not in texts(state)
    with pytest.raises(IllegalAction, match="extra action costs green, blue"):
        act(state, "upgrade action")
    give(state, "Ana", "green")
    buttons = {a.text: a.label for a in TP.view(state, Viewer.of_seat("Ana")).actions}
    assert buttons["upgrade action"] == "Upgrade: extra action (pay green, blue)"
    before = dict(state.supply)
    state, events = act(state, "upgrade action")
    assert state.ship.tech[-1] == "action" and sorted(state.ship.cargo) == ["red", "red"]
    assert "(paid green, blue)" in events[0].text
    assert (state.supply["green"] - before["green"], state.supply["blue"] - before["blue"]) == (1, 1)
    state = new_game()                              # by default the last step of a track needs red
    state.ship.tech += ["fuel", "explore"]
    give(state, "Ana", "green", "blue")
    with pytest.raises(IllegalAction, match="extra action costs blue, red, red"):
        act(state, "upgrade action")


def test_cryo_chamber_holds_three_markers_taken_aboard_at_terra_prime(state):
    state.ship.markers_ship = 0
    state.ship.tech += ["holds", "cryo"]
    state, _ = act(state, "refill")
    assert (state.ship.markers_ship, state.ship.markers_supply) == (3, 12)
    state.ship.markers_ship = 2
    state.ship.sector = 3
    with pytest.raises(IllegalAction, match="taken aboard at Terra Prime"):
        act(state, "refill")


def test_the_refill_anywhere_option():
    state = new_game(refill_at="anywhere")
    state.ship.markers_ship = 0
    state.ship.sector = 3
    state, _ = act(state, "refill")
    assert state.ship.markers_ship == 1


def test_the_satellite_scanner_peeks_at_terra_prime_only(state):
    state, events = act(state, "scan 20")
    assert 20 in state.ship.peeks and not state.tile(20).revealed
    assert events[1].visibility.seats == frozenset({"Ana"}) and not events[1].visibility.public
    assert "tile 20" in TP.view(state, Viewer.of_seat("Ana")).sheet
    state.ship.sector = 3
    with pytest.raises(IllegalAction, match="satellite scanner is at Terra Prime"):
        act(state, "scan 21")


def new_copy(state):
    return TP.load(TP.dump(state))

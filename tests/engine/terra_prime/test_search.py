"""The searching automatic player: it never sees what its seat cannot, it replays from its seed, and its
level is a seat option."""

import random

import pytest

from engine.core import Dice, RulesError, Setup, Viewer
from engine.rulesets.terra_prime.autoplay import choose
from engine.rulesets.terra_prime.search import LEVELS, choose_searching, determinize, seat_level
from engine.rulesets.terra_prime.space import board_of
from tests.engine.terra_prime.helpers import TP

SEED = b"\x0b" * 32


def midgame(actions: int, seats=("Ana", "Ben", "Cid")):
    state = TP.setup(Setup(seats, TP.parse_options({"automatic": "easy"}), Dice(SEED, "setup")))
    for n in range(actions):
        state = TP.act(state, Viewer.of_seat(state.seat), TP.autoplay(state, state.seat, Dice(SEED, f"auto{n}")),
                       Dice(SEED, f"act{n}")).state
    return state


def unseen_pair(state, seat):
    """Two face-down tiles of one band that `seat` has not scanned."""
    bands = board_of(state).layout.bands
    hidden = [p for p in range(1, len(state.tiles) + 1)
              if not state.tile(p).revealed and p not in state.ships[seat].peeks]
    for a in hidden:
        for b in hidden:
            if a < b and bands[a - 1] == bands[b - 1] and state.tile(a).design != state.tile(b).design:
                return a, b
    raise AssertionError("no two unseen tiles of one band")


def swapped(state, a, b):
    other = TP.load(TP.dump(state))
    other.tile(a).design, other.tile(b).design = other.tile(b).design, other.tile(a).design
    return other


@pytest.mark.parametrize("actions", [12, 45, 90])
def test_swapping_face_down_tiles_changes_nothing_it_decides(actions):
    state = midgame(actions)
    seat = state.seat
    a, b = unseen_pair(state, seat)
    other = swapped(state, a, b)
    for n in range(3):
        assert (choose_searching(state, Dice(SEED, f"d{n}"), LEVELS["medium"])
                == choose_searching(other, Dice(SEED, f"d{n}"), LEVELS["medium"]))
    # and the futures it imagines are the very same deals
    worlds = [determinize(s, seat, random.Random(7)) for s in (state, other)]
    assert [t.design for t in worlds[0].tiles] == [t.design for t in worlds[1].tiles]


def test_a_tile_its_own_scanner_saw_stays_what_it_is_in_every_future():
    state = midgame(30)
    seat = state.seat
    a, b = unseen_pair(state, seat)
    state.ships[seat].peeks.append(a)
    for n in range(5):
        world = determinize(state, seat, random.Random(n))
        assert world.tile(a).design == state.tile(a).design
    other = swapped(state, a, b)      # what it scanned differs, so its futures differ: the test above can fail
    assert determinize(other, seat, random.Random(1)).tile(a).design != determinize(
        state, seat, random.Random(1)).tile(a).design


def test_other_seats_scans_are_forgotten_in_its_futures():
    state = midgame(30)
    seat = state.seat
    rival = next(s for s in state.seats if s != seat)
    a, _ = unseen_pair(state, seat)
    state.ships[rival].peeks.append(a)
    assert determinize(state, seat, random.Random(3)).ships[rival].peeks == []


def test_the_same_seed_gives_the_same_decision():
    state = midgame(20)
    picks = {choose_searching(TP.load(TP.dump(state)), Dice(SEED, "same"), LEVELS["medium"]) for _ in range(2)}
    assert len(picks) == 1


def test_the_level_is_a_seat_option():
    options = TP.parse_options({"automatic": "hard", "automatic_seats": "Ana=easy, ben=medium"})
    assert [seat_level(options, s) for s in ("Ana", "Ben", "Cid")] == ["easy", "medium", "hard"]
    with pytest.raises(RulesError, match="seat=level"):
        TP.setup(Setup(("Ana", "Ben"), TP.parse_options({"automatic_seats": "Ana=grandmaster"}), Dice(SEED, "s")))


def test_an_easy_seat_plays_exactly_as_before():
    state = midgame(25)
    options = TP.parse_options({"automatic": "easy"})
    state.options.update(options)
    assert TP.autoplay(state, state.seat, Dice(SEED, "e")) == choose(state)


def test_an_imagined_future_plays_on_a_copy_that_shares_nothing_it_changes():
    from engine.rulesets.terra_prime.search import FutureDice, clone, step

    state = midgame(40)
    before = TP.dump(state)
    copied = clone(state)
    assert TP.dump(copied) == before
    dice = FutureDice(random.Random(1))
    for _ in range(30):
        step(copied, choose(copied), dice)
    assert TP.dump(state) == before and TP.dump(copied) != before


@pytest.mark.parametrize("actions", [0, 45, 120])
def test_the_players_cached_sky_shows_what_the_board_shows(actions):
    from engine.rulesets.terra_prime.space import (
        colony_value,
        face_down,
        fields,
        hostile_tiles_around,
        live_aliens,
        planets,
        sky,
    )

    state = midgame(actions)
    seen = sky(state)
    for s in range(board_of(state).sector_count):
        assert seen.face_down[s] == tuple(face_down(state, s))
        assert seen.fields[s] == sum(fields(state, s))
        assert sorted(seen.hostile[s]) == sorted((p, live_aliens(state, p)) for p in hostile_tiles_around(state, s))
        assert seen.colony_value[s] == colony_value(state, s)
        assert sorted(seen.colours[s]) == sorted(p.colour for p in planets(state, s))


def test_in_its_futures_a_player_keeps_the_cubes_its_next_tech_step_needs():
    from tests.engine.terra_prime.helpers import give, new_game

    state = new_game()
    state.ships["Ana"].modules["cargo-hold"] = 1   # room for 4 cubes: a full hold is emptied whatever it holds
    give(state, "Ana", "blue", "red")              # 4 fuel cells costs blue, blue: the blue is kept for it
    assert choose(state) == "deliver blue red"
    assert choose(state, save_for_tech=True) == "deliver red"


def test_past_the_stall_round_a_searching_player_explores_when_easy_would(monkeypatch):
    from engine.rulesets.terra_prime import search

    for actions in range(10, 200, 3):
        state = midgame(actions, seats=("Ana", "Ben", "Cid", "Dan"))
        easy = choose(state, save_for_tech=True)
        if easy.startswith("explore") and any(not c.startswith("explore")
                                               for c in search.candidates(state, easy, 5)):
            break
    else:
        raise AssertionError("no position where easy explores")
    # futures in which every explore ends badly: a searching player shuns it...
    monkeypatch.setattr(search, "playout", lambda world, first, *a: -99.0 if first.startswith("explore") else 0.0)
    assert not choose_searching(state, Dice(SEED, "x"), LEVELS["medium"]).startswith("explore")
    # ...until the game has run long: then it explores as easy does, and past twice that it plays as easy
    state.round = search.STALL_ROUND + 1
    assert choose_searching(state, Dice(SEED, "x"), LEVELS["medium"]) == easy


def test_in_its_futures_a_full_hold_still_keeps_the_cubes_of_its_next_tech_step():
    from tests.engine.terra_prime.helpers import give, new_game

    state = new_game()
    state.ships["Ana"].modules["cargo-hold"] = 1   # room for 4 cubes, all taken
    give(state, "Ana", "green", "green", "yellow", "red")
    assert choose(state) == "deliver green green yellow red"
    assert choose(state, save_for_tech=True) == "deliver green yellow red"   # 4 cargo holds: green, blue


def test_a_searching_player_buys_the_tech_step_it_has_the_cubes_for_whatever_its_futures_say(monkeypatch):
    from engine.rulesets.terra_prime import search
    from tests.engine.terra_prime.helpers import give, new_game

    state = new_game()
    give(state, "Ana", "blue", "blue")
    monkeypatch.setattr(search, "playout", lambda world, first, *a: 99.0 if first.startswith("deliver") else 0.0)
    assert choose_searching(state, Dice(SEED, "x"), LEVELS["medium"]) == "upgrade fuel"


def test_in_its_futures_a_player_with_a_marker_aboard_mines_an_asteroid_field():
    from tests.engine.terra_prime.helpers import geometry, new_game, place

    state = new_game()
    place(state, 1, "G06")                        # a lone asteroid field at its corner 2, no planet near it
    sector = geometry(state).spot_sector[(1, 2)]
    state.ships["Ana"].sector = sector
    assert state.ships["Ana"].markers_ship == 1
    assert choose(state) != "colonize field"      # the easy player settles planets only
    assert choose(state, save_for_tech=True) == "colonize field"


def test_a_searching_player_does_not_weigh_delivering_the_cubes_its_next_tech_step_needs():
    from engine.rulesets.terra_prime import search
    from tests.engine.terra_prime.helpers import give, new_game

    state = new_game()
    state.ships["Ana"].modules["cargo-hold"] = 1
    give(state, "Ana", "green", "green", "yellow", "red")     # 4 cargo holds costs green, blue: a green is kept
    easy = choose(state, save_for_tech=True)
    offered = search.candidates(state, easy, 99)
    delivered = [c for c in offered if c.startswith("deliver")]
    assert "deliver green yellow red" in delivered
    assert all(c.count("green") <= 1 for c in delivered)


def test_in_its_futures_a_player_goes_home_only_with_something_to_do_there():
    from engine.rulesets.terra_prime.board import TERRA_PRIME
    from tests.engine.terra_prime.helpers import give, new_game

    state = new_game()
    ship = state.ships["Ana"]
    ship.sector = next(s for s in range(1, 40) if TERRA_PRIME in board_of(state).neighbours[s])
    state.explores_left = 0
    give(state, "Ana", "green")                    # kept for 4 cargo holds (green, blue); a marker is aboard
    assert choose(state) == f"move {TERRA_PRIME}"  # the easy player heads home to deliver it...
    assert choose(state, save_for_tech=True) != f"move {TERRA_PRIME}"   # ...it would only turn back
    give(state, "Ana", "red")                      # a cube to deliver: now home is worth the trip
    ship.markers_ship = 0
    assert choose(state, save_for_tech=True) == f"move {TERRA_PRIME}"


def test_a_searching_player_does_not_weigh_collecting_into_a_full_hold():
    from engine.rulesets.terra_prime import search
    from engine.rulesets.terra_prime.space import planets
    from engine.rulesets.terra_prime.state import Colony
    from tests.engine.terra_prime.helpers import give, new_game, place

    state = new_game()
    place(state, 1, "G01")                         # a green planet at its corner 0
    ana = state.ships["Ana"]
    ana.sector = next(s for s in range(board_of(state).sector_count) if planets(state, s))
    state.colonies[str(ana.sector)] = Colony("Ben", "green", cube="green")
    state.supply["green"] -= 1
    ana.score = 1                                  # ahead of Ben: his cube does not pay the leader
    assert "collect" in search.candidates(state, "pass", 99)
    give(state, "Ana", "blue", "red")              # the built-in hold's 2 slots are full
    assert "collect" not in search.candidates(state, "pass", 99)


def test_a_searching_player_values_its_hold_at_steady_prices_not_todays():
    """A delivery that fills the Cargo Ship sends it to Earth and lowers today's prices; valued at today's, the
    cubes still aboard seemed to lose worth, so its futures learned never to go home."""
    from engine.rulesets.terra_prime import search
    from tests.engine.terra_prime.helpers import give, new_game

    state = new_game()
    give(state, "Ana", "green", "yellow")
    before = search.worth(state, "Ana", 1.0)
    state.earth["green"] = state.earth["yellow"] = 8          # Earth is glutted: a cube sells for 1 today
    assert search.worth(state, "Ana", 1.0) == before
    state.ships["Ana"].cargo.remove("yellow")
    assert search.worth(state, "Ana", 1.0) < before           # a cube aboard is still worth something


def test_a_ship_remembers_the_sector_its_last_action_moved_it_out_of():
    from engine.rulesets.terra_prime.board import TERRA_PRIME
    from engine.rulesets.terra_prime.space import face_down
    from tests.engine.terra_prime.helpers import act, new_game

    state = new_game()
    assert state.ships["Ana"].left is None
    step = next(s for s in board_of(state).neighbours[TERRA_PRIME] if not face_down(state, s))
    state, _ = act(state, f"move {step}")
    assert state.ships["Ana"].left == TERRA_PRIME
    saved = TP.dump(state)
    assert TP.load(saved).ships["Ana"].left == TERRA_PRIME
    del saved["ships"]["Ana"]["left"]                         # a game saved before ships remembered it
    assert TP.load(saved).ships["Ana"].left is None


def test_a_searching_player_does_not_weigh_going_straight_back_where_it_came_from():
    """Its futures are short and noisy: weighing the way back let it step out and back for rounds on end (18% of
    four searching players' moves went straight back; the easy player's 3%)."""
    from engine.rulesets.terra_prime import search
    from engine.rulesets.terra_prime.legal import legal

    for actions in range(10, 200, 3):
        state = midgame(actions, seats=("Ana", "Ben", "Cid", "Dan"))
        back = state.ship.left
        easy = choose(state, save_for_tech=True)
        if back is not None and easy != f"move {back}" and f"move {back}" in [c.text() for c, _ in legal(state)]:
            break
    else:
        raise AssertionError("no position with a way back")
    assert f"move {back}" not in search.candidates(state, easy, 99)
    state.ship.left = None                                     # it came some other way: the move is weighed
    assert f"move {back}" in search.candidates(state, easy, 99)


def test_a_searching_player_keeps_todays_pick_unless_its_futures_show_a_clear_gain(monkeypatch):
    from engine.rulesets.terra_prime import search

    state = midgame(40)
    easy = choose(state, save_for_tech=True)
    other = next(c for c in search.candidates(state, easy, 5) if c != easy)
    gain = {"value": 0.0}
    monkeypatch.setattr(search, "playout", lambda world, first, *a: gain["value"] if first == other else 0.0)
    gain["value"] = 0.5 * search.PLAN_MARGIN                   # a little better in its futures: noise
    assert choose_searching(state, Dice(SEED, "x"), LEVELS["medium"]) == easy
    gain["value"] = 2 * search.PLAN_MARGIN
    assert choose_searching(state, Dice(SEED, "x"), LEVELS["medium"]) == other


def test_in_its_opening_a_searching_player_varies_among_moves_its_futures_rate_alike(monkeypatch):
    """Four copies of one player opening alike every game hand the game to one seat; in the first rounds it picks
    at random (from its seeded stream) among the candidates its futures rate within the margin of the best."""
    from engine.rulesets.terra_prime import search

    state = midgame(40)
    easy = choose(state, save_for_tech=True)
    rated_alike = search.candidates(state, easy, 5)
    assert len(rated_alike) > 1
    monkeypatch.setattr(search, "playout", lambda *a: 0.0)
    later = {choose_searching(state, Dice(SEED, f"d{n}"), LEVELS["medium"]) for n in range(12)}
    assert later == {easy}
    state.round = search.OPENING_ROUNDS
    opening = [choose_searching(state, Dice(SEED, f"d{n}"), LEVELS["medium"]) for n in range(12)]
    assert len(set(opening)) > 1 and set(opening) <= set(rated_alike)
    assert opening == [choose_searching(state, Dice(SEED, f"d{n}"), LEVELS["medium"]) for n in range(12)]


def _at_home_with_a_yellow_tile_ahead():
    """A four-player position in which the acting ship is at Terra Prime with actions to spare, a face-down yellow
    or red tile on its way out, and nothing to buy, deliver or take aboard first."""
    from engine.rulesets.terra_prime import autoplay
    from engine.rulesets.terra_prime.board import TERRA_PRIME

    state = midgame(0, seats=("Ana", "Ben", "Cid", "Dan"))
    for n in range(2000):
        if state.ended:
            break
        if (not state.queue and state.ship.sector == TERRA_PRIME and state.explores_left and not state.ship.peeks
                and autoplay._scan_target(state) is not None):
            spare = TP.load(TP.dump(state))
            spare.actions_left = max(spare.actions_left, autoplay.SCAN_SPARE)      # as with more fuel cells
            if choose(spare, save_for_tech=True).startswith("scan "):
                return spare
        state = TP.act(state, Viewer.of_seat(state.seat), TP.autoplay(state, state.seat, Dice(SEED, f"auto{n}")),
                       Dice(SEED, f"act{n}")).state
    raise AssertionError("no position at Terra Prime with a yellow tile ahead")


def test_a_searching_player_looks_through_the_scanner_before_setting_out():
    from engine.rulesets.terra_prime.autoplay import SCAN_SPARE

    state = _at_home_with_a_yellow_tile_ahead()
    picked = choose_searching(state, Dice(SEED, "s"), LEVELS["medium"])
    assert picked.startswith("scan ")
    assert not choose(state).startswith("scan ")                 # the easy player never used it
    # the tile it looks at is one it may explore: face down, yellow or red, next to the mapped sky
    tile = int(picked.split()[1])
    assert not state.tile(tile).revealed
    assert board_of(state).band(tile) in ("yellow", "red")
    after = TP.act(state, Viewer.of_seat(state.seat), picked, Dice(SEED, "a")).state
    assert tile in after.ships[state.seat].peeks
    # it does not look twice at one tile, and not at all with too few actions left to set out with
    assert choose(after, save_for_tech=True) != picked
    after.actions_left = SCAN_SPARE - 1
    assert not choose(after, save_for_tech=True).startswith("scan ")


def test_what_the_scanner_showed_steers_where_it_explores():
    from engine.rulesets.terra_prime import autoplay
    from engine.rulesets.terra_prime.space import sky

    for actions in range(20, 400, 3):
        state = midgame(actions, seats=("Ana", "Ben", "Cid", "Dan"))
        state.ship.markers_ship = state.ship.markers_supply = 0     # no site to settle: only where to explore
        picked = choose(state, save_for_tech=True)
        if (not state.queue and picked.startswith("explore ") and not state.ship.peeks
                and autoplay.cs.weapon_dice(state.ship) < 2):
            tile = sky(state).face_down[int(picked.split()[1])][0]
            if board_of(state).band(tile) != "green":
                break
    else:
        raise AssertionError("no position where it explores a yellow or red tile")
    band = board_of(state).band(tile)
    state.ship.peeks.append(tile)
    hostile = "Y08" if band == "yellow" else "R04"          # 2 and 3 alien symbols, no planet
    state.tile(tile).design = hostile
    assert choose(state, save_for_tech=True) != picked          # seen: aliens it cannot fight
    state.tile(tile).design = "Y12" if band == "yellow" else "R12"  # seen: three planets, nothing hostile
    assert choose(state, save_for_tech=True) == picked


def test_with_the_shuttle_tech_it_docks_a_cargo_shuttle_at_terra_prime():
    from tests.engine.terra_prime.helpers import new_game

    state = new_game()
    ship = state.ships["Ana"]
    ship.tech = ["holds", "shuttle"]
    ship.modules["cargo-hold"] = 1                  # the two holds a shuttle takes, both empty
    ship.credits = 5
    assert choose(state) != "install shuttle"       # the easy player bought the tech and never docked one
    assert choose(state, save_for_tech=True) == "install shuttle"


def test_saving_for_tech_it_settles_a_free_site_before_exploring_further():
    from tests.engine.terra_prime.helpers import geometry, new_game, place

    state = new_game()
    state.round = 30                                # late: a new tile tempts the easy player most
    b = geometry(state)
    place(state, 1, "G01")                          # a green planet at its corner 0, two steps from Terra Prime
    site = b.spot_sector[(1, 0)]
    ana = state.ships["Ana"]
    ana.sector = next(n for n in b.neighbours[site] if b.distance[n] == 1)
    assert ana.markers_ship == 1
    assert choose(state).startswith("explore ")     # the easy player turns another tile
    assert choose(state, save_for_tech=True) == f"move {site}"    # a settler takes the site first


def test_saving_for_tech_with_no_marker_aboard_it_heads_home_for_more():
    from engine.rulesets.terra_prime.board import TERRA_PRIME
    from tests.engine.terra_prime.helpers import geometry, new_game

    state = new_game()
    state.round = 30
    ana = state.ships["Ana"]
    ana.sector = next(s for s in range(1, 40) if TERRA_PRIME in geometry(state).neighbours[s])
    ana.markers_ship = 0                            # 15 still in its supply at Terra Prime
    assert choose(state).startswith("explore ")
    assert choose(state, save_for_tech=True) == f"move {TERRA_PRIME}"
    ana.markers_supply = 0                          # nothing left to take aboard: no errand home
    assert choose(state, save_for_tech=True) != f"move {TERRA_PRIME}"


def test_with_the_cubes_for_both_it_buys_the_second_explore_before_four_shields():
    from tests.engine.terra_prime.helpers import give, new_game

    state = new_game()
    ship = state.ships["Ana"]
    ship.tech = ["fuel"]                            # the second explore is next on the fuel track
    ship.modules["cargo-hold"] = 1
    give(state, "Ana", "blue", "yellow", "brown", "yellow")    # explore: blue, yellow, brown; shields: yellow, blue
    assert choose(state) == "upgrade shields"       # the easy player keeps its order
    assert choose(state, save_for_tech=True) == "upgrade explore"


def test_saving_for_tech_it_collects_where_the_cube_does_not_pay_the_leader():
    """Collecting at a rival's colony pays its owner a point: a seat saving for tech takes a cube as good elsewhere
    rather than hand one to the seat ahead on leadership plus credits."""
    from engine.rulesets.terra_prime.board import TERRA_PRIME
    from engine.rulesets.terra_prime.state import Colony
    from tests.engine.terra_prime.helpers import new_game, place

    state = new_game(("Ana", "Ben", "Cid"))
    for position, face in ((1, "G01"), (2, "G05"), (3, "G04"), (4, "G08")):
        place(state, position, face)                # green planets in sectors 7 (by sector 2) and 4 (by sector 1)
    state.colonies["4"] = Colony("Ben", "green", cube="green")
    state.colonies["7"] = Colony("Cid", "green", cube="green")
    state.supply["green"] -= 2
    state.ships["Ana"].sector, state.explores_left = TERRA_PRIME, 0
    assert choose(state, save_for_tech=True) == "move 1"    # both 2 sectors away: the lower-numbered first
    state.ships["Ben"].score = 5                    # Ben leads: his cube would pay him
    assert choose(state) == "move 1"                # the easy player does not care whose colony it is
    assert choose(state, save_for_tech=True) == "move 2"
    state.ships["Cid"].credits += 6                 # now Cid leads on leadership plus credits
    assert choose(state, save_for_tech=True) == "move 1"


def test_saving_for_tech_at_the_leaders_colony_it_collects_a_cube_nearby_instead():
    """Standing at the colony of the seat ahead, a seat saving for tech takes a cube as good 2 sectors away
    rather than pay the leader a point, and the search does not weigh collecting there; it still collects
    there when the leader's colony is the only one worth the trip."""
    from engine.rulesets.terra_prime import search
    from engine.rulesets.terra_prime.state import Colony
    from tests.engine.terra_prime.helpers import new_game, place

    state = new_game(("Ana", "Ben", "Cid"))
    for position, face in ((1, "G01"), (2, "G05"), (3, "G04"), (4, "G01")):
        place(state, position, face)                # green planets in sectors 4, 5 and 7
    state.colonies["4"] = Colony("Ben", "green", cube="green")
    state.colonies["5"] = Colony("Cid", "green", cube="green")
    state.supply["green"] -= 2
    ana = state.ships["Ana"]
    ana.sector, ana.credits, state.explores_left = 4, 0, 0
    state.ships["Ben"].score = 5                    # Ben leads: the cube here would pay him
    assert choose(state) == "collect"               # the easy player does not care whose colony it is
    assert choose(state, save_for_tech=True) == "move 1"        # towards Cid's, 2 sectors on
    assert "collect" not in search.candidates(state, "pass", 99)
    state.ships["Cid"].credits += 6                 # now Cid leads: Ben's cube is the one to take
    assert choose(state, save_for_tech=True) == "collect"
    assert "collect" in search.candidates(state, "pass", 99)


def test_once_the_end_is_triggered_it_sells_the_cubes_it_kept_for_tech_and_buys_nothing():
    """In the final round credits score and cubes aboard do not: a seat saving for tech delivers the cubes it
    kept for a step instead of buying it, and installs no module, where before the trigger it would."""
    from engine.rulesets.terra_prime import search
    from tests.engine.terra_prime.helpers import give, new_game, place

    state = new_game()
    ana = state.ships["Ana"]
    give(state, "Ana", "blue", "blue")              # 4 fuel cells costs blue, blue
    assert choose(state, save_for_tech=True) == "upgrade fuel"
    state.final_turns = 1                           # the end is triggered: Ana plays her last turn
    assert choose(state, save_for_tech=True) == "deliver blue blue"
    assert "deliver blue blue" in search.candidates(state, "pass", 99)
    assert choose_searching(state, Dice(SEED, "x"), LEVELS["medium"]).startswith("deliver blue")

    state = new_game()
    place(state, 1, "G01")                          # a green planet in sector 7: it supplies cargo holds
    ana = state.ships["Ana"]
    ana.sector, ana.credits, ana.markers_ship, state.explores_left = 7, 5, 0, 0
    assert choose(state, save_for_tech=True) == "install cargo-hold"
    state.final_turns = 2
    assert choose(state, save_for_tech=True) != "install cargo-hold"
    assert ana.credits == 5


def test_saving_for_tech_it_does_not_install_a_module_that_pays_the_leader():
    """A module installed from the planet of a rival's colony pays that rival a point: a seat saving for tech
    does not install there while that rival leads on leadership plus credits, nor does its search weigh it."""
    from engine.rulesets.terra_prime import search
    from engine.rulesets.terra_prime.state import Colony
    from tests.engine.terra_prime.helpers import new_game, place

    state = new_game(("Ana", "Ben", "Cid"))
    place(state, 1, "G01")                          # a green planet in sector 7: it supplies cargo holds
    state.colonies["7"] = Colony("Ben", "green", planet="1:0")
    ana = state.ships["Ana"]
    ana.sector, ana.credits, ana.markers_ship, state.explores_left = 7, 5, 0, 0
    state.ships["Ben"].score = 5                    # Ben leads: the hold would pay him
    assert choose(state) == "install cargo-hold"    # the easy player does not care whose planet it is
    assert choose(state, save_for_tech=True) != "install cargo-hold"
    assert "install cargo-hold" not in search.candidates(state, "pass", 99)
    state.ships["Cid"].credits += 6                 # now Cid leads: installing at Ben's planet is fine
    assert choose(state, save_for_tech=True) == "install cargo-hold"


def test_with_cheap_tech_each_seat_climbs_its_own_track_first():
    """With tech_costs=cheap a seat saving for tech buys its favoured track's step first (the last seat fuel, the
    one before it holds, then shields and weapons) when it has the cubes for more than one."""
    from engine.rulesets.terra_prime.autoplay import favoured_track
    from tests.engine.terra_prime.helpers import give, new_game

    state = new_game(("Ana", "Ben", "Cid", "Dee"), tech_costs="cheap")
    state.start = 2                                 # Cid starts: Cid, Dee, Ana, Ben
    tracks = {}
    for i, seat in enumerate(state.seats):
        state.current = i
        tracks[seat] = favoured_track(state)
    assert tracks == {"Cid": "weapons", "Dee": "shields", "Ana": "holds", "Ben": "fuel"}
    assert favoured_track(new_game(("Ana", "Ben"))) is None     # the board's costs: no favourite

    state = new_game(tech_costs="cheap")            # Ana starts, so she favours holds and Ben fuel
    give(state, "Ana", "blue", "green")             # 4 fuel cells: blue; 4 cargo holds: green
    give(state, "Ben", "blue", "green")
    assert choose(state) == "upgrade fuel"          # the easy player keeps its order
    assert choose(state, save_for_tech=True) == "upgrade holds"
    state.current = 1
    assert choose(state, save_for_tech=True) == "upgrade fuel"


def test_with_cheap_tech_the_cargo_shuttle_comes_before_the_cryo_chamber():
    """Both cost green and blue when tech is cheap; bought after cryo, a shuttle docked too late to be sent home."""
    from tests.engine.terra_prime.helpers import give, new_game

    state = new_game(tech_costs="cheap")            # Ana favours holds
    state.ships["Ana"].tech = ["holds"]
    give(state, "Ana", "green", "blue")
    assert choose(state, save_for_tech=True) == "upgrade shuttle"
    state = new_game()
    state.ships["Ana"].tech = ["holds"]
    give(state, "Ana", "green", "green", "yellow", "green", "blue", "brown")
    assert choose(state, save_for_tech=True) == "upgrade cryo"

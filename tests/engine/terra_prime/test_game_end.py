"""TP Game End and TP Scoring at the end: both triggers, the final round, credits, the winner."""

from engine.core import Viewer, Window
from engine.rulesets.terra_prime import space
from tests.engine.terra_prime.helpers import TP, act, geometry, new_game, place


def _play_out(state, seat_order):
    """Everyone passes through their turns; returns the seats that played."""
    played = []
    while not state.ended:
        played.append(state.seat)
        state.actions_left = 1
        state, _ = act(state, "pass")
        assert len(played) <= len(seat_order) + 1
    return state, played


def test_down_to_two_markers_starts_a_final_round_that_ends_with_the_trigger_player():
    state = new_game(("Ana", "Ben", "Cleo"))
    place(state, 1, "G01", 0)  # a green planet in sector 7
    state.ship.sector = 7
    state.ship.markers_supply = 2
    state, events = act(state, "colonize green")
    assert any(e.kind == "end-trigger" and "Ana is down to 2 colony markers" in e.text for e in events)
    state, played = _play_out(state, state.seats)
    assert played == ["Ana", "Ben", "Cleo", "Ana"]
    assert TP.phase(state).window is Window.ENDED


def test_under_equal_turns_the_round_is_played_out_and_one_more_so_every_seat_has_as_many_turns():
    state = new_game(("Ana", "Ben", "Cleo", "Dan"), final_round="equal-turns")
    state.current = 1                                  # Ben, the second seat of the round, triggers the end
    place(state, 1, "G01", 0)
    state.ship.sector = next(s for s in geometry(state).tile_sectors(1) if space.planets(state, s))
    state.ship.markers_supply = 2
    state, events = act(state, "colonize green")
    assert any(e.kind == "end-trigger" and "**Dan** plays last" in e.text for e in events)
    state, played = _play_out(state, state.seats + state.seats)
    assert played == ["Ben", "Cleo", "Dan", "Ana", "Ben", "Cleo", "Dan"]   # the rulebook's: Ben Cleo Dan Ana Ben
    assert TP.phase(state).window is Window.ENDED


def test_exploring_the_last_yellow_tile_triggers_the_end():
    state = new_game()
    b = geometry(state)
    last = 15
    for pos in range(1, b.position_count() + 1):
        if pos != last:
            place(state, pos, "G04")
    target = next(s for s in b.tile_sectors(last) if any(space.mapped(state, n) for n in b.neighbours[s]))
    state.ship.sector = next(n for n in b.neighbours[target] if space.mapped(state, n))
    state.tile(last).design = "G04"
    state, events = act(state, f"explore {target}")
    assert any("the last yellow space tile has been explored" in e.text for e in events)
    assert state.final_turns == 2


def test_credits_score_one_leadership_each_and_the_most_leadership_wins():
    state = new_game()
    state.ships["Ana"].score, state.ships["Ana"].credits = 10, 3
    state.ships["Ben"].score, state.ships["Ben"].credits = 8, 6
    state.final_turns = 0
    state.actions_left = 1
    state, events = act(state, "pass")
    assert state.ended and state.winners == ["Ben"]
    assert (state.ships["Ana"].score, state.ships["Ben"].score) == (13, 14)
    assert "**Game over.** **Ben** wins" in events[-1].text
    assert TP.view(state, Viewer.of_seat("Ana")).actions == ()


def test_a_tie_goes_to_the_seat_with_more_colony_markers_placed_then_is_shared():
    state = new_game()
    state.ships["Ana"].score = state.ships["Ben"].score = 5
    state.ships["Ana"].markers_supply -= 1
    state.final_turns = 0
    state.actions_left = 1
    state, _ = act(state, "pass")
    assert state.winners == ["Ana"]
    again = new_game()
    again.final_turns, again.actions_left = 0, 1
    again, _ = act(again, "pass")
    assert again.winners == ["Ana", "Ben"]


def test_the_round_limit_option_ends_the_game_after_that_round():
    state = new_game(round_limit=1)
    state, played = _play_out(state, state.seats)
    assert played == ["Ana", "Ben"] and state.ended

"""The automatic power: legal orders in every window, each with its reason, through the players' own checker."""

from engine.core import Dice, Setup, Viewer, Window
from engine.rulesets.terra_nova import autoplay, combat
from engine.rulesets.terra_nova.state import Leader

from .conftest import at_step, ctx_for, new_game

SEATS = ("Spain", "Portugal", "England", "France", "Holland")


def test_five_automatic_powers_play_to_the_game_end_roll_with_every_line_accepted(tn):
    state = tn.setup(Setup(SEATS, tn.parse_options({"random_events": "off", "deflation": "off", "uprisings": "off"}),
                           Dice(b"\x05" * 32, "setup")))
    windows: set[str] = set()
    for n in range(3000):
        if state.ended:
            break
        phase = tn.phase(state)
        dice = Dice(b"\x05" * 32, f"step{n}")
        assert phase.window is not Window.GM, "an automatic campaign with the GM's steps off asked the GM"
        if phase.window is Window.TURN:
            seat = sorted(phase.waiting)[0]
            state = tn.act(state, Viewer.of_seat(seat), tn.autoplay(state, seat, dice), dice).state
            continue
        orders = {}
        for seat in sorted(phase.waiting):
            text = tn.autoplay(state, seat, dice)
            if text:
                windows.add(phase.name)
                assert all("  # " in line for line in text.splitlines()), text      # every line says why
                checks = tn.check(state, seat, text)
                assert all(c.accepted for c in checks), [c.message for c in checks if not c.accepted]
                orders[seat] = [c.canonical for c in checks]
        state = tn.resolve(state, orders, dice).state
    assert state.ended and state.turn >= 21
    assert {"B5", "C1", "D3", "F1"} <= windows
    assert all(state.powers[s].vp > 0 for s in SEATS)
    colonies = sum(h.colonies for a in state.areas.values() for h in a.holdings.values())
    assert colonies >= 10


def test_it_buys_ships_for_its_settlers_and_sails_them_to_a_rich_near_coast(tn):
    state = at_step(new_game(), "B5")
    state.force("Europe", "Spain").units["settler"] = 2
    text = autoplay.orders(state, "Spain")
    assert "buy 1 carrack  # room for this turn's 2 settler(s)" in text
    state.force("Europe", "Spain").ships["carrack"] = 3
    state = at_step(state, "C1")
    text = autoplay.orders(state, "Spain")
    assert text.startswith("sail 3 carrack from Europe to ") and "carrying 2 settler" in text
    assert "rich (R2)" in text


def test_in_battle_it_charges_at_two_to_one_and_withdraws_when_outmatched():
    state = new_game()
    state.leaders = [Leader("Cortés", "Spanish", "Conquistador", 1, 30, "Spain", "Cuba")]
    state.force("Cuba", "Spain").add("soldier", 4)
    state.areas["Cuba"].natives = 1
    ctx = ctx_for(state, "D5")
    combat.start(ctx, "Cuba", "Spain", "natives")
    assert autoplay.tactic(state, "Spain") == "tactic charge"           # 20 against 5
    state.areas["Cuba"].natives = 9
    assert autoplay.tactic(state, "Spain") == "tactic withdrawal"       # 20 against 45
    state.areas["Cuba"].natives = 3
    assert autoplay.tactic(state, "Spain") == "tactic none"

"""G. End of turn: blight, resources, maintenance, discovery claims, victory points and the game's end."""

import pytest

from engine.core import Window
from engine.rulesets.terra_nova.context import PROCEDURES
from engine.rulesets.terra_nova.end_of_turn import controller, income, upkeep

from .conftest import ScriptedDice, at_step, ctx_for, new_game


def run(state, name, step="G1", script=None, orders=None):
    ctx = ctx_for(state, step, script, orders)
    PROCEDURES[name](ctx)
    assert not ctx.dice.unused(), ctx.dice.unused()
    return ctx


def colony(area="Cuba", seat="Spain", settlements=1, **kw):
    state = new_game()
    state.forces.clear()
    state.leaders = []
    holding = state.holding(area, seat)
    holding.settlements = settlements
    for k, v in kw.items():
        setattr(holding, k, v)
    return state


@pytest.mark.parametrize(("area", "faces", "before", "after"), [
    ("Cuba", [4, 5], 0, 1),          # 9: bad harvests, a marker if none
    ("Cuba", [4, 5], 1, 1),          # ... but no second one
    ("Cuba", [5, 5], 1, 2),          # 10: drought, a marker
    ("Cuba", [3, 3], 2, 1),          # 2-8: one marker removed
    ("Sonora", [3, 3], 0, 1),        # 6 + 3 (land modifier) = 9
    ("California", [5, 5], 0, 1),    # 10 - 1 = 9
])
def test_blight_on_the_land_results_table(area, faces, before, after):
    state = colony(area)
    state.areas[area].blight = before
    run(state, "blight", "G1", {f"land/{area}": faces})
    assert state.areas[area].blight == after


def test_bad_harvests_on_an_area_already_blighted_say_the_blight_stays():
    state = colony("Cuba")
    state.areas["Cuba"].blight = 2
    ctx = run(state, "blight", "G1", {"land/Cuba": [4, 5]})                   # 9: bad harvests (A)
    assert [e.text for e in ctx.events] == ["Cuba: Bad harvests — blight stays at 2."]


def test_blight_rolls_name_their_area():
    state = colony("Cuba")
    ctx = run(state, "blight", "G1", {"land/Cuba": [5, 5]})
    [roll] = ctx.dice.rolls
    assert (roll.table, roll.name) == ("Land Results Table in Cuba", "blight Cuba")
    assert [e.text for e in ctx.events] == ["Cuba: Drought — blight 0→1."]


def test_resources_times_the_r_level_and_doubled_in_r2_areas():
    state = colony("Cuba", towns=1, plantations=1)
    state.holding("Mid West", "Spain").settlements = 1
    state.r_level = 2
    assert income(state, "Spain") == {"Cuba": (5 + 5 + 5) * 2 * 2, "Mid West": 5 * 2}
    state.areas["Cuba"].blight = 1                                  # blighted: settlement 1, town 5, plantation 0
    assert income(state, "Spain")["Cuba"] == (1 + 5 + 0) * 2 * 2


def test_resources_as_printed_when_chosen():
    state = new_game(resource_scaling="flat")
    state.holding("Mid West", "Spain").settlements = 1
    state.r_level = 4
    assert income(state, "Spain") == {"Mid West": 5}


def test_maintenance_counts_units_ships_holdings_captains_and_the_command_box():
    state = colony("Cuba", settlements=1, forts=1, missions=[2])
    force = state.force("Cuba", "Spain")
    force.units.update({"soldier": 3, "cannon": 1, "settler": 1, "slave": 2})
    force.ships.update({"galleass": 1, "urca": 1})
    state.force("Command of the Seas", "Spain").ships["caravel"] = 1
    assert upkeep(state, "Spain") == (3 + 2 + 10 + 2) + (4 + 1) + (10 + 2 + 1) + (1 + 2)


def test_settlers_left_in_europe_lapse_before_maintenance():
    state = new_game()
    state.forces.clear()
    state.leaders = []
    state.force("Europe", "Spain").add("settler", 2)
    treasury = state.powers["Spain"].treasury
    run(state, "maintenance", "G4")
    assert not state.peek("Europe", "Spain") or not state.forces["Europe"]["Spain"].units
    assert state.powers["Spain"].treasury == treasury


def test_unpaid_maintenance_disbands_as_little_as_covers_it_factories_first():
    state = new_game(east_indies=True)
    state.forces.clear()
    state.leaders = []
    state.holding("Java", "Portugal").factories = 2
    state.force("Java", "Portugal").ships["carrack"] = 1
    state.powers["Portugal"].treasury = 6                         # owes 5 + 5 + 2 = 12
    ctx = run(state, "maintenance", "G4")
    assert state.powers["Portugal"].treasury == 0
    assert state.areas["Java"].holdings["Portugal"].factories == 1      # short 6: a factory (5) and
    assert not state.forces["Java"]["Portugal"].ships                    # the carrack (2), not both factories
    assert any("disbands factory (Java), carrack (Java)" in e.text for e in ctx.events)


def test_discovery_goes_to_the_first_power_there_in_initiative_order():
    state = new_game()
    state.initiative = ["England", "Spain", "Portugal"]
    state.force("Cuba", "Spain").ships["caravel"] = 1
    state.force("Cuba", "England").ships["caravel"] = 1
    state.force("Labrador", "Portugal").ships["caravel"] = 1
    run(state, "discovery_claims", "G5")
    assert state.areas["Cuba"].claimed == "England" and state.areas["Labrador"].claimed == "Portugal"
    state.areas["Cuba"].claimed = "Spain"
    run(state, "discovery_claims", "G5")
    assert state.areas["Cuba"].claimed == "Spain"                 # a claim stands


def test_political_control_and_victory_points():
    state = colony("Cuba", settlements=2)
    state.holding("Cuba", "England").towns = 1
    state.holding("Amazon", "Portugal").settlements = 3
    state.areas["Cuba"].claimed = "Spain"
    assert controller(state, "Cuba") == "Spain"
    assert controller(state, "Amazon") is None                    # • political control not awarded
    state.holding("Cuba", "England").settlements = 1
    assert controller(state, "Cuba") is None                      # a tie controls nothing
    run(state, "victory_points", "G6")
    assert [state.powers[s].vp for s in ("Spain", "Portugal", "England")] == [1 + 2, 3, 3 + 1]


def test_the_game_may_end_from_turn_21_on_a_six(tn):
    state = at_step(new_game(), "G7", "enter")
    state.turn = 20
    run(state, "endgame", "G7")
    assert not state.ended
    state.turn = 21
    run(state, "endgame", "G7", {"game-end": [5]})
    assert not state.ended
    state.powers["Spain"].treasury = 1250
    ctx = run(state, "endgame", "G7", {"game-end": [6]})
    assert state.ended and tn.phase(state).window is Window.ENDED
    assert state.result == "Spain wins with 12 victory points."          # 1 per 100 florins at the end
    assert "Spain 12 (treasury 1250)" in ctx.events[-1].text


def test_a_unanimous_vote_ends_the_game_when_votes_are_played(tn):
    state = at_step(new_game(endgame_votes=True), "G7")
    state.turn = 17
    assert tn.phase(state).key == "17:G7"
    step = tn.resolve(state, {"Spain": ["vote end"]}, ScriptedDice())
    assert not step.state.ended and step.state.turn == 18
    state = at_step(step.state, "G7")
    step = tn.resolve(state, {s: ["vote end"] for s in state.seats}, ScriptedDice())
    assert step.state.ended

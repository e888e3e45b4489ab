"""D. Land actions: mines and treasure, missions and conversion, settlement and towns, land movement."""

import pytest

from engine.core import Verdict, Viewer
from engine.rulesets.terra_nova.context import PROCEDURES

from .conftest import ScriptedDice, at_step, ctx_for, new_game


def run(state, name, step, script, orders=None):
    ctx = ctx_for(state, step, script, orders)
    PROCEDURES[name](ctx)
    assert not ctx.dice.unused(), ctx.dice.unused()
    return ctx


def quiet_board():
    state = new_game()
    state.forces.pop("Europe", None)
    state.leaders = []
    return state


# -- D.1 -----------------------------------------------------------------------------------------------------


def test_a_caribbean_gold_mine_is_found_on_2_to_8_and_yields_by_the_r_level():
    state = quiet_board()
    state.r_level = 3
    state.force("Cuba", "Spain").add("soldier", 1)
    run(state, "gold_and_treasure", "D1", {"discover/Caribbean Gold Mines/Cuba/Spain": [4, 4],
                                           "deplete/Caribbean Gold Mines/Cuba": [6, 6]})
    assert [(m.kind, m.area, m.holder) for m in state.mines] == [("Caribbean Gold Mines", "Cuba", "Spain")]
    assert state.forces["Cuba"]["Spain"].gold == 25                      # R3 column


def test_mine_gold_in_an_r2_area_is_as_printed_unless_the_group_doubles_it():
    for option, gold in (("single", 25), ("double", 50)):
        state = new_game(r2_mines=option)
        state.forces.pop("Europe", None)
        state.r_level = 3
        state.force("Cuba", "Spain").add("soldier", 1)                    # Cuba is marked R2
        run(state, "gold_and_treasure", "D1", {"discover/Caribbean Gold Mines/Cuba/Spain": [4, 4],
                                               "deplete/Caribbean Gold Mines/Cuba": [6, 6]})
        assert state.forces["Cuba"]["Spain"].gold == gold, option


def test_a_mine_runs_out_on_its_deplete_range_and_pearls_never_do():
    state = quiet_board()
    state.force("Cuba", "Spain").add("settler", 1)
    state.force("Trinidad", "Spain").add("settler", 1)
    run(state, "gold_and_treasure", "D1", {"discover/Caribbean Gold Mines/Cuba": [1, 1],
                                           "discover/Pearl Fisheries/Trinidad": [2, 1],
                                           "deplete/Caribbean Gold Mines/Cuba": [2, 3]})
    assert {m.kind: m.worked_out for m in state.mines} == {"Caribbean Gold Mines": True, "Pearl Fisheries": False}
    assert state.forces["Cuba"]["Spain"].gold == 20 and state.forces["Trinidad"]["Spain"].gold == 25


def test_a_worked_out_mine_is_never_found_again(tn):
    state = quiet_board()
    state.force("Cuba", "Spain").add("settler", 1)
    run(state, "gold_and_treasure", "D1", {"discover/Caribbean Gold Mines/Cuba": [1, 1],
                                           "deplete/Caribbean Gold Mines/Cuba": [2, 3]})
    assert state.forces["Cuba"]["Spain"].gold == 20
    ctx = ctx_for(state, "D1", {"discover/Caribbean Gold Mines/Cuba": [1, 1]})
    PROCEDURES["gold_and_treasure"](ctx)
    assert ctx.dice.unused() == {"discover/Caribbean Gold Mines/Cuba": [1, 1]}     # no one searches the site again
    assert state.forces["Cuba"]["Spain"].gold == 20 and [m.worked_out for m in state.mines] == [True]
    assert "mines: Caribbean Gold Mines (worked out)" in tn.view(state, Viewer.spectator()).sheet


def test_no_mine_is_found_outside_the_discover_range():
    state = quiet_board()
    state.force("Cauca", "Spain").add("soldier", 1)
    run(state, "gold_and_treasure", "D1", {"discover/Mainland Gold Mines/Cauca": [3, 3]})
    assert not state.mines


def test_an_occupied_treasure_city_pays_until_stripped():
    state = quiet_board()
    state.force("Incan Empire", "Spain").add("soldier", 2)
    state.cities["Cuzco"].holder, state.cities["Cuzco"].level = "Spain", 0
    run(state, "gold_and_treasure", "D1", {"discover/": [6, 6] * 2, "deplete/Cuzco": [3, 3]})
    assert state.forces["Incan Empire"]["Spain"].gold == 100 and not state.cities["Cuzco"].looted
    run(state, "gold_and_treasure", "D1", {"discover/": [6, 6] * 2, "deplete/Cuzco": [1, 4]})
    assert state.forces["Incan Empire"]["Spain"].gold == 200 and state.cities["Cuzco"].looted


# -- D.3 -----------------------------------------------------------------------------------------------------


def mission_board(natives=4):
    state = at_step(quiet_board(), "D3")
    state.areas["Cuba"].natives = natives
    force = state.force("Cuba", "Spain")
    force.add("mission", 1)
    force.add("soldier", 1)
    return state


@pytest.mark.parametrize(("roll", "rating"), [(1, 0), (3, 2), (6, 4)])
def test_a_mission_takes_its_rating_from_mission_levels(roll, rating):
    state = mission_board(natives=0)
    run(state, "missions", "D3", {"mission/Spain/Cuba": [roll]}, {"Spain": ["mission Cuba"]})
    assert state.areas["Cuba"].holdings["Spain"].missions == [rating]


@pytest.mark.parametrize(("rating", "roll", "again", "natives", "soldiers", "missions", "double"), [
    (3, 1, None, 2, 1, [3], False),       # "2": two natives converted
    (0, 4, None, 4, 0, [0], False),       # "X": a unit lost
    (1, 6, None, 4, 0, [], False),        # "X/M": a unit lost and the mission gone
    (2, 6, 4, 4, 0, [], False),           # "X†": re-roll 4: the mission is gone
    (2, 6, 3, 4, 0, [2], False),          # "X†": re-roll 3: the mission stands
    (2, 5, None, 4, 1, [2], True),        # "0*": surviving natives count double for uprisings
])
def test_religious_conversion_results(rating, roll, again, natives, soldiers, missions, double):
    state = mission_board()
    state.force("Cuba", "Spain").add("mission", -1)
    state.holding("Cuba", "Spain").missions = [rating]
    script = {"conversion/Spain/Cuba": [roll]}
    if again:
        script["conversion-again/Spain/Cuba"] = [again]
    run(state, "missions", "D3", script)
    area = state.areas["Cuba"]
    assert area.natives == natives and state.force("Cuba", "Spain").count("soldier") == soldiers
    assert state.holding("Cuba", "Spain").missions == missions and area.double is double


def test_missions_in_the_indies_convert_no_one(tn):
    state = at_step(new_game(east_indies=True), "D3")
    state.force("Java", "Spain").add("mission", 1)
    check = tn.check(state, "Spain", "mission Java")[0]
    assert check.verdict is Verdict.WARNING and "convert no one" in check.message


# -- D.4 -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("area", "roll", "settled"), [("Cuba", 4, True), ("Cuba", 3, False),
                                                       ("Mid West", 4, False), ("Mid West", 5, True),
                                                       ("Great Lakes", 4, True)])
def test_settlement_needs_4_on_the_coast_and_5_inland(area, roll, settled):
    state = at_step(quiet_board(), "D3")
    state.force(area, "Spain").add("settler", 1)
    run(state, "settlement", "D4", {"settle/": [roll]}, {"Spain": [f"settle {area}"]})
    assert bool(state.areas[area].holdings.get("Spain")) is settled
    assert state.force(area, "Spain").count("settler") == (0 if settled else 1)


def test_a_depleted_settler_needs_5_on_the_coast(tn):
    state = at_step(quiet_board(), "D3")
    state.force("Cuba", "Spain").add("depleted", 1)
    check = tn.check(state, "Spain", "settle Cuba")[0]
    assert check.verdict is Verdict.REJECTED and "with depleted settler" in check.message
    run(state, "settlement", "D4", {"settle/": [5]}, {"Spain": ["settle Cuba with depleted settler"]})
    assert state.areas["Cuba"].holdings["Spain"].settlements == 1


def test_towns_from_turn_nine_for_two_florins(tn):
    state = at_step(quiet_board(), "D3")
    state.holding("Cuba", "Spain").settlements = 2
    assert "from turn 9" in tn.check(state, "Spain", "town Cuba")[0].message
    state.turn = 9
    treasury = state.powers["Spain"].treasury
    run(state, "settlement", "D4", {"town/": [3, 2]}, {"Spain": ["town Cuba", "town Cuba"]})
    holding = state.areas["Cuba"].holdings["Spain"]
    assert (holding.settlements, holding.towns) == (1, 1) and state.powers["Spain"].treasury == treasury - 4


def test_plantations_where_p_is_printed_worked_by_a_slave(tn):
    state = at_step(quiet_board(), "D3")
    state.turn = 9
    for area in ("Cuba", "Jamaica"):
        state.holding(area, "Spain").settlements = 1
        state.force(area, "Spain").add("slave", 1)
    assert "no P marker" in tn.check(state, "Spain", "plantation Jamaica")[0].message
    run(state, "settlement", "D4", {}, {"Spain": ["plantation Cuba"]})
    assert state.areas["Cuba"].holdings["Spain"].plantations == 1 and not state.force("Cuba", "Spain").count("slave")


def test_no_settlement_in_the_east_indies(tn):
    state = at_step(new_game(east_indies=True), "D3")
    state.force("Java", "Spain").add("settler", 1)
    assert "no settlement in the East Indies" in tn.check(state, "Spain", "settle Java")[0].message


# -- D.5 -----------------------------------------------------------------------------------------------------


def test_land_movement_crosses_one_border(tn):
    state = at_step(quiet_board(), "D3")
    state.force("Great Lakes", "Spain").add("soldier", 3)
    assert "does not border" in tn.check(state, "Spain", "move 1 soldier from Great Lakes to Rockies")[0].message
    state = tn.resolve(state, {"Spain": ["move 2 soldier from Great Lakes to Mid West"]}, ScriptedDice()).state
    assert state.forces["Mid West"]["Spain"].units == {"soldier": 2}
    assert state.forces["Great Lakes"]["Spain"].units == {"soldier": 1}


def test_attacks_follow_marches_and_make_the_natives_hostile(tn):
    state = at_step(quiet_board(), "D3")
    state.force("Great Lakes", "Spain").add("soldier", 3)
    orders = {"Spain": ["attack natives in Mid West", "move 3 soldier from Great Lakes to Mid West"]}
    assert all(c.accepted for c in tn.check(state, "Spain", "\n".join(orders["Spain"])))
    step = tn.resolve(state, orders, ScriptedDice({"combat/Mid West/Spain": [5] * 3, "combat/Mid West/natives": [1] * 3,
                                                   "losses/Mid West/Spain": [1] * 3,
                                                   "losses/Mid West/natives": [6] * 3}))
    assert step.state.areas["Mid West"].natives == 0 and "Spain" in step.state.areas["Mid West"].hostile


def test_no_combat_against_natives_in_the_indies(tn):
    state = at_step(new_game(east_indies=True), "D3")
    state.force("Java", "Spain").add("soldier", 2)
    assert "no combat against the natives" in tn.check(state, "Spain", "attack natives in Java")[0].message

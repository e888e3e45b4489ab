"""A seat's private sheet: the settlers it may still send this turn and what awaits shipment, as they stand."""

from engine.core import Viewer
from engine.rulesets.terra_nova.context import PROCEDURES
from engine.rulesets.terra_nova.state import Goods

from .conftest import ScriptedDice, at_step, ctx_for, new_game

SPAIN = Viewer.of_seat("Spain")


def sheet(tn, state) -> str:
    return tn.view(state, SPAIN).sheet


def settlers_raised(faces: list[int]):
    """B.2 for a board with nothing in Europe yet, Spain's Settlers Available die scripted."""
    state = new_game()
    state.forces.pop("Europe", None)
    state.leaders = []
    PROCEDURES["settlers_available"](ctx_for(state, "B2", {"settlers/Spain": faces, "settlers/": [3, 3]}))
    return state


def test_the_sheet_shows_the_settlers_b2_makes_available_this_turn(tn):
    state = settlers_raised([5])                                      # 5: two settlers
    assert "In Europe: 2 settler(s) available this turn (they lapse at G.4 unless they sail)" in sheet(tn, state)


def test_settlers_who_sail_leave_the_count_of_settlers_available(tn):
    state = at_step(settlers_raised([5]), "C1")
    state.force("Europe", "Spain").add_ships("carrack", 3)
    state.powers["Spain"].treasury = 100
    state = tn.resolve(state, {"Spain": ["sail 3 carrack from Europe to Cuba carrying 2 settler"]},
                       ScriptedDice()).state
    text = sheet(tn, state)
    assert "settler(s) available" not in text and "In Europe: nothing" in text


def test_one_settler_left_behind_is_still_counted(tn):
    state = at_step(settlers_raised([5]), "C1")
    state.force("Europe", "Spain").add_ships("carrack", 2)
    state.powers["Spain"].treasury = 100
    state = tn.resolve(state, {"Spain": ["sail 2 carrack from Europe to Cuba carrying 1 settler"]},
                       ScriptedDice()).state
    assert "In Europe: 1 settler(s) available this turn" in sheet(tn, state)


def test_settlers_who_lapse_at_maintenance_leave_the_sheet(tn):
    state = settlers_raised([5])
    PROCEDURES["maintenance"](ctx_for(state, "G4"))
    assert "settler(s) available" not in sheet(tn, state)


def test_goods_awaiting_shipment_without_gold_show_no_zero_gold(tn):
    state = new_game(east_indies=True)
    state.prices["Spices"] = 36
    state.force("Malacca", "Spain").goods.append(Goods("Spices", 1))
    line = next(ln for ln in sheet(tn, state).splitlines() if ln.startswith("Awaiting shipment in Malacca"))
    assert line == "Awaiting shipment in Malacca: goods spices/1 (worth 36 now)"


def test_gold_and_goods_awaiting_shipment_both_show(tn):
    state = new_game(east_indies=True)
    state.prices["Spices"] = 36
    force = state.force("Malacca", "Spain")
    force.gold, force.goods = 20, [Goods("Spices", 1)]
    assert "Awaiting shipment in Malacca: 20 gold, goods spices/1 (worth 36 now)" in sheet(tn, state)

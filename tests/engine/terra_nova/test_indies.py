"""The East Indies expansion (RME): factories, the commodity cup, prices, spice shares, goods and landfall."""

import pytest

from engine.core import Verdict
from engine.rulesets.terra_nova.context import PROCEDURES
from engine.rulesets.terra_nova.indies import change_up, goods_value
from engine.rulesets.terra_nova.state import Goods, Leader

from .conftest import ScriptedDice, at_step, ctx_for, new_game


def indies_board(step="C2"):
    state = at_step(new_game(east_indies=True), step)
    state.leaders = [Leader("Vasco da Gama", "Portuguese", "Explorer", 1, 30, "Portugal", "Malacca")]
    state.force("Malacca", "Portugal").ships["carrack"] = 1
    return state


@pytest.mark.parametrize(("roll", "bribe", "built"), [(6, 0, True), (5, 0, False), (3, 3, True), (2, 3, False),
                                                      (1, 9, False)])
def test_a_factory_on_6_plus_a_florin_a_point_of_bribes_never_on_a_natural_1(tn, roll, bribe, built):
    state = indies_board()
    treasury = state.powers["Portugal"].treasury
    line = "factory Malacca" + (f" bribe {bribe}" if bribe else "")
    state = tn.resolve(state, {"Portugal": [line]}, ScriptedDice({"factory/Portugal": [roll], "attrition": [6] * 4,
                                                                  "commodity/": [1]})).state
    assert bool(state.areas["Malacca"].holdings.get("Portugal")) is built
    assert state.powers["Portugal"].treasury == treasury - bribe


def test_a_factory_needs_ships_and_a_leader_there(tn):
    state = indies_board()
    state.leaders[0].place = "Java"
    assert "needs a leader" in tn.check(state, "Portugal", "factory Malacca")[0].message
    assert "needs ships" in tn.check(state, "Spain", "factory Malacca")[0].message
    assert "East Indies" in tn.check(state, "Portugal", "factory Cuba")[0].message


def test_the_first_visitor_draws_the_commodity_from_the_cup(tn):
    state = at_step(new_game(east_indies=True), "C1")
    state.leaders = [Leader("Vasco da Gama", "Portuguese", "Explorer", 1, 30, "Portugal", "Europe")]
    state.force("Europe", "Portugal").ships["carrack"] = 2
    line = "sail 2 carrack from Europe to Java leaders Vasco da Gama"
    state = tn.resolve(state, {"Portugal": [line]}, ScriptedDice({"commodity/Java": [4]})).state
    assert state.areas["Java"].commodity == "Tea"


def test_landfall_without_a_port_needs_an_explorer(tn):
    state = at_step(new_game(east_indies=True), "C1")
    state.leaders = [Leader("Cortés", "Spanish", "Conquistador", 3, 30, "Spain", "Europe")]
    state.force("Europe", "Spain").ships["carrack"] = 1
    check = tn.check(state, "Spain", "sail 1 carrack from Europe to Java leaders Cortés")[0]
    assert check.verdict is Verdict.REJECTED and "carry an Explorer" in check.message
    state.holding("Java", "Spain").factories = 1
    assert tn.check(state, "Spain", "sail 1 carrack from Europe to Java")[0].accepted


def test_no_colonial_expeditions_to_the_indies(tn):
    state = indies_board("C1")
    state.leaders[0].place = "Europe"
    state.force("Europe", "Portugal").ships["carrack"] = 2
    state.force("Europe", "Portugal").add("settler", 1)
    check = tn.check(state, "Portugal", "sail 2 carrack from Europe to Java carrying 1 settler leaders Vasco da Gama")
    assert "no colonial expeditions" in check[0].message


def test_spice_income_is_shared_among_the_factory_owners():
    state = new_game(east_indies=True)
    state.areas["Malacca"].commodity = "Pepper"
    for seat in ("Portugal", "England"):
        state.holding("Malacca", seat).factories = 1
    state.holding("Malacca", "England").factories = 2             # a second factory earns no more
    PROCEDURES["spices"](ctx_for(state, "D2"))
    assert [g.code for g in state.forces["Malacca"]["Portugal"].goods] == ["pepper/2"]
    assert [g.code for g in state.forces["Malacca"]["England"].goods] == ["pepper/2"]


def test_markers_change_up_in_the_same_place():
    assert [g.code for g in change_up([Goods("Tea", 3)] * 3)] == ["tea/1"]
    assert [g.code for g in change_up([Goods("Tea", 4)] * 2)] == ["tea/2"]
    assert [g.code for g in change_up([Goods("Tea", 3)] * 2 + [Goods("Silk", 2)])] == ["silk/2", "tea/3", "tea/3"]


def test_goods_are_worth_their_share_of_todays_price_rounded_down():
    state = new_game(east_indies=True)
    state.prices["Tea"] = 48
    assert goods_value(state, Goods("Tea", 5)) == 9 and goods_value(state, Goods("Tea", 1)) == 48


def test_goods_landed_in_europe_are_banked_at_the_treasury_step():
    state = new_game(east_indies=True)
    state.prices["Silk"] = 24
    europe = state.force("Europe", "England")
    europe.goods = [Goods("Silk", 1), Goods("Silk", 3)]
    europe.gold = 50
    treasury = state.powers["England"].treasury
    PROCEDURES["treasury"](ctx_for(state, "G3"))
    assert state.powers["England"].treasury == treasury + 50 + 24 + 8
    assert not europe.goods and not europe.gold


def test_the_indies_command_of_the_seas_is_for_factory_owners(tn):
    state = indies_board()
    check = tn.check(state, "Portugal", "sail 1 carrack from Malacca to Indies Command of the Seas")[0]
    assert check.verdict is Verdict.REJECTED and "only powers with a factory" in check.message
    state.holding("Malacca", "Portugal").factories = 1
    treasury = state.powers["Portugal"].treasury
    state = tn.resolve(state, {"Portugal": ["sail 1 carrack from Malacca to Indies Command of the Seas"]},
                       ScriptedDice()).state
    assert state.powers["Portugal"].treasury == treasury - 2          # 0 bounds, 2 to enter


def test_goods_take_two_cargo_points(tn):
    state = indies_board("C1")
    state.force("Malacca", "Portugal").ships = {"caravel": 1}
    state.force("Malacca", "Portugal").goods = [Goods("Tea", 1)]
    check = tn.check(state, "Portugal", "sail 1 caravel from Malacca to Europe carrying 1 tea/1")[0]
    assert "needs 2 cargo points; the ships carry 1" in check.message

"""E. Native actions: the Native Alliance Table with gifts, native war, uprisings ruled by the GM, revival."""

import pytest

from engine.core import Verdict, Viewer, Window
from engine.rulesets.terra_nova.context import PROCEDURES
from engine.rulesets.terra_nova.state import Leader

from .conftest import ScriptedDice, at_step, ctx_for, new_game


def alliance_board(kind="Conquistador", area="Great Lakes", natives=3, soldiers=2, **options):
    state = at_step(new_game(**options), "E1")
    state.leaders = [Leader("Champlain", "French", kind, 1, 30, "Spain", area)]
    state.areas[area].natives = natives
    state.force(area, "Spain").add("soldier", soldiers)
    return state


@pytest.mark.parametrize(("kind", "roll", "bribe", "allies"), [
    ("Coureur des Bois", 1, 0, 0), ("Coureur des Bois", 6, 0, 2), ("Pioneer", 6, 0, 2), ("Paulista", 4, 0, 0),
    ("Conquistador", 1, 2, 0), ("Conquistador", 3, 4, 1), ("Paulista", 5, 10, 1),
])
def test_the_native_alliance_table_by_leader_type_with_gifts(tn, kind, roll, bribe, allies):
    state = alliance_board(kind)
    treasury = state.powers["Spain"].treasury
    line = "ally Great Lakes leader Champlain" + (f" bribe {bribe}" if bribe else "")
    state = tn.resolve(state, {"Spain": [line]}, ScriptedDice({"alliance/Spain": [roll]})).state
    assert state.areas["Great Lakes"].allies.get("Spain", 0) == allies
    assert state.powers["Spain"].treasury == treasury - bribe and not state.areas["Great Lakes"].hostile


def test_an_alliance_roll_of_none_says_the_natives_refuse(tn):
    state = alliance_board("Conquistador")
    step = tn.resolve(state, {"Spain": ["ally Great Lakes leader Champlain bribe 2"]},
                      ScriptedDice({"alliance/Spain": [2]}))                    # 2 + 1 = 3: none allied
    said = [e.text for e in step.events]
    assert "The natives of Great Lakes refuse Champlain's offer of alliance with Spain." in said
    assert not any("makes alliance" in t for t in said)


def test_one_native_allied_reads_in_the_singular(tn):
    state = alliance_board("Pioneer")
    step = tn.resolve(state, {"Spain": ["ally Great Lakes leader Champlain bribe 4"]},
                      ScriptedDice({"alliance/Spain": [2]}))                    # 2 + 2 = 4: one allied
    assert "Champlain makes alliance with 1 native of Great Lakes for Spain." in [e.text for e in step.events]


def test_a_dot_turns_the_natives_hostile_and_they_make_war(tn):
    state = alliance_board("Conquistador")
    step = tn.resolve(state, {"Spain": ["ally Great Lakes leader Champlain"]}, ScriptedDice({"alliance/Spain": [1]}))
    state = step.state
    assert state.areas["Great Lakes"].hostile == ["Spain"]
    phase = tn.phase(state)
    assert phase.window is Window.TURN and state.battles[0].attacker == "natives"
    assert "defend" in [a.text.split()[-1] for a in tn.view(state, Viewer.of_seat("Spain")).actions]


def test_alliances_need_a_leader_of_a_table_type(tn):
    state = alliance_board("Explorer")
    check = tn.check(state, "Spain", "ally Great Lakes leader Champlain")[0]
    assert check.verdict is Verdict.REJECTED and "Native Alliance Table" in check.message


def test_allied_natives_fight_beside_their_ally():
    from engine.rulesets.terra_nova import combat
    state = alliance_board("Pioneer", soldiers=1)
    state.areas["Great Lakes"].allies["Spain"] = 2
    assert sum(p.value for p in combat.land_pieces(state, "Spain", "Great Lakes", False)) == 5 + 2 * 5
    battle = combat.start(ctx_for(state, "D5"), "Great Lakes", "Spain", "natives")
    assert combat.native_count(state, battle) == 1


def test_the_gm_rules_on_uprisings_area_by_area(tn):
    state = at_step(new_game(uprisings="ask"), "E2", "enter")
    state.force("Cuba", "Spain").add("settler", 1)
    state.holding("Hispaniola", "England").settlements = 1
    state.areas["Cuba"].double = True
    ctx = ctx_for(state, "E2")
    PROCEDURES["native_uprising"](ctx)
    questions = {q.data["area"]: q for q in state.questions}
    assert set(questions) == {"Cuba", "Hispaniola"}
    assert questions["Cuba"].answers == ["calm", "Spain"] and "counting double" in questions["Cuba"].text
    state.stage = "done"
    view = tn.view(state, Viewer.gm())
    assert f"rule {questions['Cuba'].id} Spain" in [a.text for a in view.actions]
    step = tn.act(state, Viewer.gm(), f"rule {questions['Hispaniola'].id} calm", ScriptedDice())
    step = tn.act(step.state, Viewer.gm(), f"rule {questions['Cuba'].id} Spain", ScriptedDice(
        {"combat/Cuba/natives": [6, 1], "combat/Cuba/Spain": [1], "losses/Cuba/Spain": [6],
         "losses/Cuba/natives": [1]}))
    assert "rise against Spain" in " ".join(e.text for e in step.events)
    assert "Spain" not in step.state.forces.get("Cuba", {})


def test_no_uprisings_when_the_campaign_turns_them_off():
    state = at_step(new_game(uprisings="off"), "E2", "enter")
    state.force("Cuba", "Spain").add("settler", 1)
    PROCEDURES["native_uprising"](ctx_for(state, "E2"))
    assert not state.questions


def test_revival_two_coloured_dice_name_the_area_never_above_its_printed_level():
    state = new_game()
    state.areas["Aracua"].natives = 2
    PROCEDURES["native_revival"](ctx_for(state, "E3", {"revival": [1, 3]}))
    assert state.areas["Aracua"].natives == 3
    state.areas["Aracua"].natives = 4
    PROCEDURES["native_revival"](ctx_for(state, "E3", {"revival": [1, 3]}))
    assert state.areas["Aracua"].natives == 4


def test_a_number_not_on_the_table_revives_no_one():
    state = new_game()
    before = {k: a.natives for k, a in state.areas.items()}
    ctx = ctx_for(state, "E3", {"revival": [6, 2]})
    PROCEDURES["native_revival"](ctx)
    assert {k: a.natives for k, a in state.areas.items()} == before
    assert "no recovery" in ctx.events[0].text


def test_civilisations_recover_a_level_and_each_unoccupied_treasure_city_too():
    state = new_game()
    state.areas["Aztec Empire"].natives = 3
    state.cities["Tenochtitlan"].level = 1
    state.cities["Cuzco"].level, state.cities["Cuzco"].holder = 0, "Spain"
    PROCEDURES["native_revival"](ctx_for(state, "E3", {"revival": [6, 6]}))
    assert state.areas["Aztec Empire"].natives == 4 and state.cities["Tenochtitlan"].level == 2
    assert state.cities["Cuzco"].level == 0 and state.areas["Incan Empire"].natives == 8

"""Actions through `act`: GM rulings and edits, seats' tactics; anything else is refused with a reason."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import IllegalAction, NotYourTurn, RulesError, Viewer

from .conftest import ScriptedDice, at_step, new_game

GM = Viewer.gm()


def test_the_gm_edits_the_board(tn):
    state = new_game()
    for action in ("add Spain 3 soldier at Cuba", "add Spain 1 settlement at Cuba", "set native Cuba 1",
                   "set blight Cuba 2", "set modifier slavery 2", "remove Spain 1 soldier at Cuba",
                   "add Spain 50 gold at Cuba"):
        state = tn.act(state, GM, action, ScriptedDice()).state
    assert state.forces["Cuba"]["Spain"].units == {"soldier": 2} and state.forces["Cuba"]["Spain"].gold == 50
    assert state.areas["Cuba"].holdings["Spain"].settlements == 1
    assert (state.areas["Cuba"].natives, state.areas["Cuba"].blight, state.modifiers["slavery"]) == (1, 2, 2)
    leader = state.leaders[0].name
    state = tn.act(state, GM, f"kill {leader}", ScriptedDice()).state
    assert state.leader(leader) is None


@pytest.mark.parametrize(("viewer", "action", "error", "message"), [
    (Viewer.of_seat("Spain"), "grant Spain 100", IllegalAction, "only the GM"),
    (GM, "rule q99 yes", IllegalAction, "no open question"),
    (GM, "set native Atlantis 3", IllegalAction, "not an area"),
    (GM, "grant Spain lots", IllegalAction, "whole numbers"),
    (GM, "end battle", IllegalAction, "no battle"),
    (Viewer.of_seat("Spain"), "tactic charge", IllegalAction, "no battle"),
])
def test_actions_refused_with_a_reason(tn, viewer, action, error, message):
    with pytest.raises(error, match=message):
        tn.act(new_game(), viewer, action, ScriptedDice())


def test_only_the_seats_in_the_battle_choose_tactics(tn):
    state = at_step(new_game(), "D3")
    state.force("Cuba", "Spain").add("soldier", 2)
    state.leaders[0].power, state.leaders[0].place = "Spain", "Cuba"
    state = tn.resolve(state, {"Spain": ["attack natives in Cuba"]}, ScriptedDice()).state
    with pytest.raises(NotYourTurn):
        tn.act(state, Viewer.of_seat("England"), "tactic charge", ScriptedDice())
    assert tn.timeout_action(state, "Spain") == "tactic none" and tn.timeout_action(state, "England") is None
    state = tn.act(state, GM, "end battle", ScriptedDice()).state
    assert not state.battles


@settings(max_examples=120, deadline=None)
@given(who=st.sampled_from(["gm", "Spain", "spectator"]),
       verb=st.sampled_from(["rule", "grant", "add", "remove", "set", "kill", "announce", "tactic", "end", "x"]),
       rest=st.text(max_size=40))
def test_any_action_text_works_or_is_refused_with_a_rules_error(who, verb, rest):
    from engine.rulesets import get
    tn = get("terra-nova")
    viewer = GM if who == "gm" else Viewer.spectator() if who == "spectator" else Viewer.of_seat(who)
    try:
        tn.act(new_game(random_events="ask"), viewer, f"{verb} {rest}", ScriptedDice())
    except RulesError as exc:
        assert str(exc)

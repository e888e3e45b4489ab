"""A. Start of turn: development, deflation and events, prices, monarchs, leaders (TN Sequence A.1-A.9)."""

import pytest

from engine.core import Viewer, Visibility
from engine.rulesets.terra_nova.context import ANSWERS, PROCEDURES

from .conftest import ScriptedDice, at_step, ctx_for, new_game, texts


def run(state, name, step, script):
    ctx = ctx_for(state, step, script)
    PROCEDURES[name](ctx)
    assert not ctx.dice.unused(), ctx.dice.unused()
    return ctx


def test_game_development_sets_the_r_level_from_the_table():
    state = new_game()
    state.turn = 13
    ctx = run(state, "game_development", "A1", {})
    assert state.r_level == 3
    assert "Game development, 1556: R3, Captains may be employed" in texts(ctx.events)


def test_a_monarch_dies_on_a_roll_at_or_under_the_mortality_number():
    state = new_game()
    state.powers["Spain"].monarch.age = 62            # 60-64: mortality 9
    state.powers["Portugal"].monarch.age = 30         # 30-34: mortality 3
    state.powers["England"].monarch.age = 66          # 65+: mortality 11
    run(state, "monarch_mortality", "A6", {"monarch/Spain": [4, 5], "monarch/Portugal": [2, 2],
                                           "monarch/England": [6, 6]})
    assert [state.powers[s].monarch.dead for s in ("Spain", "Portugal", "England")] == [True, False, False]


def test_mortality_on_1d12_when_chosen():
    state = new_game(mortality_roll="1d12")
    state.powers["Spain"].monarch.age = 50            # mortality 4
    run(state, "monarch_mortality", "A6", {"monarch/Spain": [4], "monarch/Portugal": [12], "monarch/England": [12]})
    assert state.powers["Spain"].monarch.dead and not state.powers["Portugal"].monarch.dead


def test_the_heir_ascends_at_the_age_the_ascendancy_roll_names():
    state = new_game()
    state.powers["Spain"].monarch.dead = True
    ctx = run(state, "new_monarchs", "A7", {"ascendancy/Spain": [7], "income/Spain": [6]})
    monarch = state.powers["Spain"].monarch
    assert (monarch.name, monarch.age, monarch.income, monarch.dead) == ("Charles I", 37, 1, False)
    income = [e for e in ctx.events if "Income Modifier" in e.text]
    assert income[0].visibility == Visibility.to("Spain")


@pytest.mark.parametrize(("roll", "age"), [(1, 7), (2, 12), (12, 62)])
def test_ascendancy_bands(roll, age):
    state = new_game()
    state.powers["England"].monarch.dead = True
    run(state, "new_monarchs", "A7", {"ascendancy/England": [roll], "income/England": [3]})
    assert state.powers["England"].monarch.age == age


def test_the_monarch_track_advances_five_years_after_the_first_turn():
    state = new_game()
    start = state.powers["Spain"].monarch.age
    run(state, "monarch_track", "A5", {})
    assert state.powers["Spain"].monarch.age == start            # 1496 ages are as given
    state.turn = 2
    run(state, "monarch_track", "A5", {})
    assert state.powers["Spain"].monarch.age == start + 5


def test_turn_one_deals_one_leader_a_player_and_1d6_more_round_the_table():
    state = new_game(script={"A9/leaders": [3]})
    counts = [len(state.leaders_of(s)) for s in ("Spain", "Portugal", "England")]
    assert counts == [3, 3, 2]               # 3 + 3, and 2 extra with 4 or fewer alive: 8, Spain first on turn 1
    assert all(ld.place == "Europe" and ld.age == 25 for ld in state.leaders)


@pytest.mark.parametrize(("alive", "roll", "drawn"), [(3, 1, 2 + 1 + 2), (6, 3, 2 + 3), (10, 5, 2)])
def test_turn_two_draws_two_plus_1d6_with_the_footnote_on_leaders_alive(alive, roll, drawn):
    state = new_game(script={"A9/leaders": [1]})
    state.leaders = state.leaders[:1] * 0
    deck_before = list(state.deck)
    from engine.rulesets.terra_nova.start_of_turn import _give
    setup = ctx_for(state, "A9")
    for name in deck_before[:alive]:
        _give(setup, name, "Spain")
    state.deck = deck_before[alive:]
    state.turn = 2
    run(state, "draw_leaders", "A9", {"A9/leaders": [roll]})
    assert len(state.leaders) == alive + drawn


def test_from_turn_six_no_italians_and_no_footnote():
    state = new_game()
    state.leaders = []
    state.turn = 6
    run(state, "draw_leaders", "A9", {"A9/leaders": [6]})
    assert len(state.leaders) == 6                               # 1d6 only: no +2 for few alive
    assert all(ld.nation != "Italian" for ld in state.leaders)
    assert not any(name in state.deck for name in ("Christopher Columbus", "John Cabot", "Amerigo Vespucci"))


def test_the_gm_assigns_extra_leaders_when_chosen(tn):
    state = new_game(leader_assignment="gm", script={"A9/leaders": [1]})
    assert tn.phase(state).key == "1:A9-gm"
    question = state.questions[0]
    assert question.kind == "leader" and question.answers == ["Spain", "Portugal", "England", "discard"]
    assert len(state.leaders) == 3 and len(state.questions) == 3      # one a player dealt; 1 + 2 extra asked
    state = tn.act(state, Viewer.gm(), f"rule {question.id} Portugal", ScriptedDice()).state
    for q in list(state.questions):
        state = tn.act(state, Viewer.gm(), f"rule {q.id} discard", ScriptedDice()).state
    assert len(state.leaders_of("Portugal")) == 2 and len(state.leaders) == 4 and tn.phase(state).key == "1:B5"


def test_deflation_takes_the_ruled_percentage_of_every_treasury(tn):
    state = at_step(new_game(deflation="ask"), "A2", "enter")
    state.turn = 2
    state.powers["Spain"].treasury = 199
    state.powers["Portugal"].treasury = 100
    ctx = ctx_for(state, "A2")
    PROCEDURES["deflation"](ctx)
    question = state.questions[0]
    assert question.answers == ["none", "5", "10", "20", "25", "50"] and "Spain 199" in question.text
    ANSWERS["deflation"](ctx, question, "25")
    assert state.powers["Spain"].treasury == 150                 # 199 - 49 (rounded down)
    assert state.powers["Portugal"].treasury == 75


def test_random_events_are_applied_with_gm_edits_then_ruled_done(tn):
    state = new_game(random_events="ask")
    gm = Viewer.gm()
    step = tn.act(state, gm, "grant Spain -20", ScriptedDice())
    assert step.state.powers["Spain"].treasury == 255
    assert [e.visibility for e in step.events if "adjusts" in e.text] == [Visibility.to("Spain")]
    step = tn.act(step.state, gm, "announce A storm scatters the Spanish fleet.", ScriptedDice())
    assert "A storm scatters the Spanish fleet." in texts(step.events, Viewer.spectator())
    question = step.state.questions[0]
    state = tn.act(step.state, gm, f"rule {question.id} done", ScriptedDice()).state
    assert tn.phase(state).key == "1:B5"


def test_commodity_prices_move_by_ranks_and_stop_at_the_ends():
    state = new_game(east_indies=True)
    state.prices["Pepper"] = 48
    run(state, "modifiers", "A4", {"price/Pepper": [6], "price/Silk": [1], "price/Spices": [6], "price/Tea": [1]})
    assert state.prices == {"Pepper": 48, "Silk": 24, "Spices": 48, "Tea": 24}


def test_leaders_age_and_die_like_monarchs():
    state = new_game()
    state.turn = 2
    for leader in state.leaders:
        leader.age = 60                                          # becomes 65: mortality 11
    n = len(state.leaders)
    run(state, "leader_mortality", "A8", {"leader/": [1, 1] * (n - 1) + [6, 6]})
    assert len(state.leaders) == 1 and state.leaders[0].age == 65


def test_mortality_rolls_say_whose_life_they_decide():
    state = new_game()
    state.leaders = state.leaders[:1]
    leader = state.leaders[0]
    monarch = state.powers["Spain"].monarch
    ctx = run(state, "monarch_mortality", "A6", {"monarch/": [6, 6] * 3})
    spain = next(r for r in ctx.dice.rolls if r.name == f"mortality {monarch.name} of Spain")
    assert spain.table == f"Monarch Age (40 – 44: mortality 4) for {monarch.name} of Spain"
    ctx = run(state, "leader_mortality", "A8", {"leader/": [6, 6]})
    [roll] = ctx.dice.rolls
    assert roll.table.endswith(f"for {leader.name} ({leader.power})")
    assert roll.name == f"mortality {leader.name} ({leader.power})"

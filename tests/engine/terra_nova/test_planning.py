"""B. Planning: domestic investment, settlers available, initiative, purchases and payments."""

import pytest

from engine.core import Verdict, Visibility
from engine.rulesets.terra_nova.context import PROCEDURES

from .conftest import at_step, ctx_for, new_game


def run(state, name, step, script):
    ctx = ctx_for(state, step, script)
    PROCEDURES[name](ctx)
    return ctx


@pytest.mark.parametrize(("income", "roll", "florins"), [(0, 3, 45), (1, 6, 60), (-1, 1, 30), (0, 5, 50)])
def test_domestic_investment_adds_the_monarch_income_modifier(income, roll, florins):
    state = new_game()
    state.powers["Spain"].monarch.income = income
    before = state.powers["Spain"].treasury
    ctx = run(state, "domestic_investment", "B1", {"investment/Spain": [roll]})
    assert state.powers["Spain"].treasury == before + florins
    spain_roll = next(r for r in ctx.dice.rolls if "Spain" in r.name)
    assert spain_roll.visibility == Visibility.to("Spain") and spain_roll.modifier == income


@pytest.mark.parametrize(("rolls", "settlers"), [([1, 4], 0), ([1, 5], 1), ([6, 6], 3), ([6, 2], 2), ([3], 1)])
def test_settlers_available_roll_again_on_a_star(rolls, settlers):
    state = new_game()
    state.forces.get("Europe", {}).clear()
    script = {"settlers/Spain": rolls[:1], "settlers-again/Spain": rolls[1:]}
    run(state, "settlers_available", "B2", script)
    assert state.force("Europe", "Spain").count("settler") == settlers


def test_initiative_highest_first_ties_roll_again():
    state = new_game()
    ctx = run(state, "initiative", "B3", {"initiative/Spain": [4, 2], "initiative/Portugal": [4, 5],
                                          "initiative/England": [6]})
    assert state.initiative == ["England", "Portugal", "Spain"]
    assert "Initiative: England (6), Portugal (4), Spain (4)." in [e.text for e in ctx.events]


def purchase(tn, state, seat, text):
    return [(c.verdict, c.message) for c in tn.check(state, seat, text)]


def test_purchases_are_paid_from_the_treasury_into_the_european_pool(tn):
    state = at_step(new_game(), "B5")
    treasury = state.powers["Spain"].treasury
    state = tn.resolve(state, {"Spain": ["buy 3 soldier", "buy 1 war-carrack", "buy 1 mission"]},
                       ctx_for(state, "B5").dice).state
    assert state.powers["Spain"].treasury == treasury - 12 - 10 - 2
    europe = state.forces["Europe"]["Spain"]
    assert europe.units["soldier"] == 3 and europe.units["mission"] == 1 and europe.ships == {"war-carrack": 1}


@pytest.mark.parametrize(("line", "turn", "message"), [
    ("buy 1 galleon", 12, "late ship, available from turn 13"),
    ("buy 1 captain", 12, "captains may be employed from turn 13"),
    ("buy 1 caravel at Cuba", 8, "built in the New World from turn 9"),
    ("buy 1 settler", 1, "come from Settlers Available"),
    ("buy 1 slave", 1, "via Guinea"),
    ("buy 1 settlement", 1, "are not bought"),
    ("buy 1 fort at Cuba", 1, "a fort guards a settlement"),
])
def test_purchases_the_game_does_not_allow_yet_or_at_all(tn, line, turn, message):
    state = at_step(new_game(), "B5")
    state.turn = turn
    [(verdict, text)] = purchase(tn, state, "Spain", line)
    assert verdict is Verdict.REJECTED and message in text


def test_late_ships_captains_forts_and_new_world_yards_when_allowed(tn):
    state = at_step(new_game(late_ships_turn=10), "B5")
    state.turn = 13
    state.powers["Spain"].treasury = 500
    state.holding("Cuba", "Spain").settlements = 1
    lines = ["buy 1 galleon", "buy 1 captain", "buy 1 caravel at Cuba", "buy 1 fort at Cuba"]
    assert [v for v, _ in purchase(tn, state, "Spain", "\n".join(lines))] == [Verdict.ACCEPTED] * 4
    state = tn.resolve(state, {"Spain": lines}, ctx_for(state, "B5").dice).state
    assert state.forces["Cuba"]["Spain"].ships == {"caravel": 1}
    assert state.areas["Cuba"].holdings["Spain"].forts == 1
    captain = next(ld for ld in state.leaders_of("Spain") if ld.kind == "Captain")
    assert (captain.name, captain.rating, captain.place) == ("Captain 1 of Spain", 1, "Europe")
    assert state.powers["Spain"].treasury == 500 - 12 - 8 - 4 - 8


def test_one_fort_an_area(tn):
    state = at_step(new_game(), "B5")
    state.holding("Cuba", "Spain").settlements = 1
    verdicts = [v for v, _ in purchase(tn, state, "Spain", "buy 1 fort at Cuba\nbuy 1 fort at Cuba")]
    assert verdicts == [Verdict.ACCEPTED, Verdict.REJECTED]


def test_payments_between_powers_are_private_to_both(tn):
    state = at_step(new_game(), "B5")
    spain, england = state.powers["Spain"].treasury, state.powers["England"].treasury
    step = tn.resolve(state, {"Spain": ["pay 25 to England"]}, ctx_for(state, "B5").dice)
    assert step.state.powers["Spain"].treasury == spain - 25
    assert step.state.powers["England"].treasury == england + 25
    paid = [e for e in step.events if "pays 25" in e.text]
    assert paid[0].visibility == Visibility.to("Spain", "England")

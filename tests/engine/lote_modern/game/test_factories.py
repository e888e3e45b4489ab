"""Factories and yards once built (LotE 3.6.4-3.6.6): moving them, bombarding them, and capturing them."""

from __future__ import annotations

import re

import pytest

from engine.core import IllegalAction, Verdict, Viewer
from engine.rulesets.lote_modern import accounts
from tests.engine.lote_modern.game.conftest import FixedDice
from tests.engine.lote_modern.game.play import GM, check, edit, lines, resolve

A, F, R, W = Verdict.ACCEPTED, Verdict.FLAGGED, Verdict.REJECTED, Verdict.WARNING
MOVE = "move-factory 2 airship-factory from Paris to Lyon"


@pytest.fixture
def works(lm, state):
    """France has three Airship Factory points at Paris."""
    return edit(lm, state, "France", "city[Paris].airship =3")


@pytest.mark.parametrize(("seat", "edits", "line", "verdict", "message"), [
    ("France", [], MOVE, A, r"2 Airship Factory points from Paris to Lyon: 20 GP, 0 NFP \(LotE 3.6.4\); 20 cargo by "
                            r"rail or sea; they build nothing this turn"),
    ("France", [], MOVE + " paying nfp", A, r"0 GP, 4 NFP"),
    ("France", [], "move-factory 4 airship-factory from Paris to Lyon", R, r"Paris has 3 Airship Factory points"),
    ("France", [], "move-factory 2 airship-factory from Paris to Normandy", R, r"not a city"),
    ("France", [], "move-factory 2 airship-factory from Paris to London", R, r"only to a controlled city"),
    ("England", [], "move-factory 1 steamship-yard from London to Dover", R,
     r"only Airship Factories and Mercantile Industry Sites can be moved"),
    ("France", ["nation.hbz_range =1"], "move-factory 2 airship-factory from Paris to Marseilles", R,
     r"by land a factory moves at most 1 AP"),
    ("France", ["nation.hbz_range =1"], "move-factory 2 airship-factory from Paris to Marseilles by Dupetit-Thouars",
     W, r"Dupetit-Thouars carries it \(5 AP\); Marseilles is outside your Homeland Build Zone"),
    ("France", ["city[Lyon].airship =9"], MOVE, R, r"Lyon holds at most 10 factory and yard points"),
    ("Hansa", [], "move-factory 1 mercantile-industry from Danzig to Bordeaux", R,
     r"by land a factory moves at most 3"),
    ("Hansa", [], "move-factory 1 mercantile-industry from Danzig to Bordeaux by Castorp", W,
     r"1 Mercantile Industry Site points from Danzig to Bordeaux: 10 GP.*outside your Homeland Build Zone"),
    ("England", [], 'bombard steamship-yard at Brest with "Channel Fleet"', F,
     r"Channel Fleet bombards the Steamship Yard at Brest with 12w: Siege strength 12 and your Siege QR 18 against "
     r"its passive 20 \(Table 3-12\)"),
    ("England", [], 'bombard city-yard at Brest with "Home Army"', R, r"no airships, heavy artillery or ships"),
    ("England", ["army[Home Army].location =Brittany"], 'bombard city-yard at Brest with "Home Army"', F,
     r"with 1ha: Siege strength 3 .* its passive 15"),
])
def test_factory_lines(lm, works, seat, edits, line, verdict, message):
    state = edit(lm, works, seat, *edits) if edits else works
    answer = check(lm, state, seat, line)
    assert answer.verdict is verdict, answer.message
    assert re.search(message, answer.message), answer.message
    if verdict is not R:
        assert check(lm, state, seat, answer.canonical).canonical == answer.canonical


def test_crated_points_build_nothing_this_turn(lm, works):
    checks = lm.check(works, "France", f"{MOVE}\n{MOVE}")
    assert [c.verdict for c in checks] == [A, R]
    assert "needs 2 points of airship capacity at Paris; 1 left this turn" in checks[1].message


def test_a_move_arrives_at_processing(lm, works):
    state = resolve(lm, works, {"France": MOVE})
    assert state.nations["France"].city("Paris").factories == {"airship": 1}
    assert state.nations["France"].city("Lyon").factories == {"airship": 2}
    assert "2 Airship Factory points moved from Paris to Lyon (20 GP, 0 NFP)." in lines(state, "France")


def test_a_bombardment_goes_to_the_gm_with_the_target_and_its_owner(lm, state):
    state = resolve(lm, state, {"England": 'bombard steamship-yard at Brest with "Channel Fleet"\n'
                                           'bombard airship-factory at Brest with "Channel Fleet"'})
    found, empty = [r for r in state.report.rulings if r.kind == "bombardment"]
    assert "Target: France (1 point)" in found.text and "`edit France city[Brest].steamship -<points>`" in found.text
    assert found.parties == ["England", "France"] and found.rolls and "d100 for the GM" in found.rolls[0]
    assert "the bombardment finds nothing" in empty.text
    assert not any("Brest" in roll for roll in state.report.rolls["England"])     # the GM's dice stay the GM's


def test_a_capture_destroys_half_the_points_and_hands_over_the_rest(lm, state):
    state = edit(lm, state, "France", "city[Brest].steamship =5")
    state = edit(lm, state, "England", "city[Brest].status =P")
    step = lm.act(state, GM, "capture Brest by England", FixedDice())
    assert step.state.nations["England"].city("Brest").factories == {"steamship": 3}
    assert "steamship" not in step.state.nations["France"].city("Brest").factories
    gm, told = step.events
    assert "France's 5 Steamship Yard points: 2 destroyed, 3 taken" in gm.text
    assert "not usable until Brest is Friendly and in the HBZ" in gm.text
    assert "worth 1 NFP of Technical Assistance" in gm.text
    assert told.visibility.seats == {"England", "France"}


def test_a_surprise_capture_keeps_every_point(lm, state):
    state = edit(lm, state, "France", "city[Brest].steamship =5")
    state = edit(lm, state, "England", "city[Brest].status =P")
    state = lm.act(state, GM, "capture Brest by England surprise", FixedDice()).state
    assert state.nations["England"].city("Brest").factories == {"steamship": 5}


@pytest.mark.parametrize(("action", "message"), [
    ("capture Brest by England", "England does not hold Brest"),
    ("capture Dover by England", "no other nation has factory or yard points at Dover"),
    ("capture Brest", "write `capture <place> by <nation> \\[surprise\\]`"),
])
def test_a_capture_the_rules_do_not_allow_is_refused(lm, state, action, message):
    with pytest.raises(IllegalAction, match=message):
        lm.act(state, GM, action, FixedDice())


def test_the_gm_is_offered_the_capture_action(lm, state):
    assert any(a.text == "capture " for a in lm.view(state, Viewer.gm()).actions)


def test_a_slave_economy_works_captured_yards_that_are_not_friendly(lm, state):
    state = edit(lm, state, "England", "city[Dover].status =P", "city[Dover].steamship =2")
    assert ("Dover", "steamship") not in accounts.yard_capacity(state, state.nations["England"])
    state = edit(lm, state, "England", "nation.economy =slave")
    assert accounts.yard_capacity(state, state.nations["England"])[("Dover", "steamship")] == 2

"""A leader's action points (LotE 5.1): alone at his own capacity, in tandem with the army he commands."""

from __future__ import annotations

from engine.core import Viewer
from engine.rulesets.lote_modern import accounts
from engine.rulesets.lote_modern.sheet import Army, Leader
from tests.engine.lote_modern.game.conftest import FixedDice


def with_drake(state, units: dict[str, int], navigation: int):
    spain = state.nation("Spain")
    assert spain.culture == "R"
    spain.navigation = navigation
    drake = Leader("Drake", combat=9, location="Cadiz")
    spain.leaders.append(drake)
    spain.armies.append(Army("Armada", "Cadiz", units=units, leader="Drake"))
    return spain, drake


def test_the_rulebook_example_drake_and_twelve_elite_heavy_warships(state):
    # LotE 5.1's example: Renaissance, Navigation 2, Drake (Combat 9) with twelve elite heavy warships: 10 actions.
    spain, drake = with_drake(state, {"hew": 12}, navigation=2)
    assert accounts.leader_actions_a_year(state, spain, drake) == 10


def test_a_faster_fleet_carries_its_admiral_and_the_sheet_says_so(lm, state):
    spain, drake = with_drake(state, {"hew": 12}, navigation=3)
    assert accounts.leader_actions_a_year(state, spain, drake) == 11   # alone he has 10
    ap = accounts.leader_ap(state, spain, drake)
    assert ap == max(1, int(11 * accounts.years(state)))
    assert f"at Cadiz; {ap} AP)" in lm.view(state, Viewer.of_seat("Spain")).sheet
    fits, beyond = lm.check(state, "Spain", f"action Drake RAID Lisbon {ap}ap\naction Drake RAID Porto 1ap")
    assert fits.verdict == "flagged" and beyond.verdict == "rejected"
    assert "Drake has 0 AP left this turn" in beyond.message


def test_a_slow_unit_holds_the_force_back_and_the_leader_keeps_his_own_pace(state):
    spain, drake = with_drake(state, {"hew": 12, "ha": 2}, navigation=3)
    assert accounts.leader_actions_a_year(state, spain, drake) == 10


def test_the_sheet_ap_still_overrides(state):
    spain, drake = with_drake(state, {"hew": 12}, navigation=3)
    drake.ap = 4
    assert accounts.leader_ap(state, spain, drake) == 4


def test_resolution_spends_the_same_fleet_ap_the_check_allowed(lm, state):
    """The budget at resolution is the one at checking: an admiral carried by a faster fleet keeps his 11 actions a
    year when the turn is carried out, and not a point more."""
    spain, drake = with_drake(state, {"hew": 12}, navigation=3)
    ap = accounts.leader_ap(state, spain, drake)
    alone = max(1, int(10 * accounts.years(state)))
    assert ap > alone
    text = [f"action Drake RAID Lisbon {ap}ap", "action Drake RAID Porto 1ap"]
    after = lm.resolve(state, {"Spain": text}, FixedDice()).state
    report = "\n".join(after.report.lines["Spain"])
    assert f"Drake: RAID Lisbon ({ap} AP) goes to the GM." in report
    assert "RAID Porto" in report and "Drake has 0 AP left this turn" in report
    assert "RAID Porto (1 AP) goes to the GM" not in report

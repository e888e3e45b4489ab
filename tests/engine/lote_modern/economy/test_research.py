"""Research and development (LotE Modern Era 4), with fixed dice where a roll decides."""

import pytest

from engine.core.errors import RulesError
from engine.core.rng import Dice, Roll
from engine.core.visibility import GM_ONLY, PUBLIC, Visibility
from engine.rulesets.lote_modern.rules import research
from engine.rulesets.lote_modern.rules.research import ResearchProgress, ResearchRules
from engine.rulesets.lote_modern.rules.tech import Culture


class FixedDice(Dice):
    """Dice that show the faces a test asks for, in order, and log them like real rolls."""

    def __init__(self, *faces: int) -> None:
        super().__init__(b"\x04" * 32, "test")
        self.faces = list(faces)

    def roll(self, count, sides, *, purpose, visibility=PUBLIC, modifier=0, table=None, result=None):
        faces = tuple(self.faces.pop(0) for _ in range(count))
        assert all(1 <= face <= sides for face in faces), (faces, sides)
        return self._log(Roll(f"test/{purpose}", purpose, "dice", f"{count}d{sides}", faces, sum(faces),
                              visibility, modifier, table, result))


def test_4_1_rd_project_cost_and_execution_example():
    # Pacific Mercenary and Trust, Internal Combustion Engine (6 Advances): 300 GP and 4 NFP on the first
    # turn of two-year turns: (300 + 4 x 5) + (2 x 0) = 320 / 7 = 45%.
    assert research.research_project("internal_combustion").advances == 6
    progress = research.invest(ResearchProgress("internal_combustion", 6), gp=300, nfp=4)
    assert research.advance_chance(progress.gp, progress.nfp, progress.years, 6) == 45
    result = research.research_turn(progress, FixedDice(45), purpose="rd/pmt/ice", turn_years=2)
    assert (result.chance, result.roll, result.gained) == (45, 45, 1)
    # Next turn they start with 0 GP, 4 NFP and 2 years invested.
    after = result.progress
    assert (after.gp, after.nfp, after.years, after.advances) == (0, 4, 2, 1)
    missed = research.research_turn(progress, FixedDice(46), purpose="rd/pmt/ice", turn_years=2)
    assert missed.gained == 0 and missed.progress.gp == 300
    # The second turn after an Advance: (0 + 4 x 5) + (2 x 5) = 30 / 7 = 4%.
    assert research.advance_chance(after.gp, after.nfp, after.years, 6) == 4
    assert research.advance_chance(after.gp, after.nfp, after.years, 6, modifier=5) == 9


def test_4_1_no_more_advances_than_nfp_invested():
    # With only 4 NFP in the project it cannot pass 4 Advances until 2 more NFP are committed.
    stuck = ResearchProgress("internal_combustion", 6, advances=4, gp=500, nfp=4, years=8)
    result = research.research_turn(stuck, FixedDice(), purpose="rd/pmt/ice", turn_years=2)
    assert result.blocked_by_nfp and result.roll is None and result.progress.advances == 4
    assert result.progress.years == 10
    freed = research.invest(result.progress, nfp=2)
    assert research.research_turn(freed, FixedDice(1), purpose="rd/pmt/ice", turn_years=2).gained == 1
    # A double Advance stops at the NFP invested.
    edge = ResearchProgress("internal_combustion", 6, advances=4, gp=2000, nfp=5, years=8)
    capped = research.research_turn(edge, FixedDice(1), purpose="rd", turn_years=2)
    assert capped.gained == 1 and capped.blocked_by_nfp


def test_4_1_six_advances_take_at_least_three_turns():
    progress = ResearchProgress("internal_combustion", 6, nfp=6)
    turns = 0
    while not progress.complete:
        progress = research.invest(progress, gp=1000)
        progress = research.research_turn(progress, FixedDice(1), purpose="rd", turn_years=2).progress
        turns += 1
    assert turns == 3
    # Completion zeroes the NFP invested.
    assert progress.nfp == 0 and progress.advances == 6


def test_4_1_a_bad_roll_can_set_a_project_back():
    progress = ResearchProgress("airships", 2, advances=1, gp=10, nfp=2)
    assert research.research_turn(progress, FixedDice(100), purpose="rd", turn_years=1).gained == -1
    assert research.research_turn(progress, FixedDice(99), purpose="rd", turn_years=1).gained == 0
    gentle = ResearchRules(setback_from=101)
    assert research.research_turn(progress, FixedDice(100), purpose="rd", turn_years=1, rules=gentle).gained == 0
    fresh = ResearchProgress("airships", 2, nfp=2)
    assert research.research_turn(fresh, FixedDice(100), purpose="rd", turn_years=1).gained == 0
    done = ResearchProgress("airships", 2, advances=2, nfp=2)
    with pytest.raises(RulesError):
        research.research_turn(done, FixedDice(1), purpose="rd", turn_years=1)


def test_4_1_research_rolls_are_secret_by_default():
    dice = Dice(b"\x05" * 32, "turn-3")
    progress = ResearchProgress("airships", 2, gp=50, nfp=2)
    research.research_turn(progress, dice, purpose="rd/sweden/airships", turn_years=1)
    assert dice.rolls[-1].visibility == GM_ONLY and dice.rolls[-1].notation == "1d100"
    research.research_turn(progress, dice, purpose="rd/sweden/airships", turn_years=1,
                           visibility=Visibility.to("Sweden"))
    assert dice.rolls[-1].visibility == Visibility.to("Sweden")


def test_4_1_investments_cannot_be_withdrawn_and_progress_round_trips():
    progress = ResearchProgress("steamships", 5, gp=12.5, nfp=3, years=4, advances=2)
    assert ResearchProgress.load(progress.dump()) == progress
    with pytest.raises(RulesError):
        research.invest(progress, gp=-5)


def test_4_2_project_prerequisites():
    ok = research.project_start_problems("steam_cruiser", tech_level=12, completed={"steamships": 4},
                                         current_turn=5, yard_points={"steamship": 1})
    assert ok == []
    # Work on a project begins the turn after its prerequisite completes.
    assert research.project_start_problems("steam_cruiser", tech_level=12, completed={"steamships": 5},
                                           current_turn=5, yard_points={"steamship": 1}) != []
    assert research.project_start_problems("steam_cruiser", tech_level=12, completed={"steamships": 4},
                                           current_turn=5) != []
    assert research.project_start_problems("steamships", tech_level=12, completed={"steamships": 4},
                                           current_turn=5) != []
    assert research.project_start_problems("submersibles", tech_level=11, completed={}, current_turn=1,
                                           gp=0) != []
    assert research.project_start_problems("submersibles", tech_level=11, completed={}, current_turn=1,
                                           site_in_hbz=False) != []


def test_4_5_overreaching_example():
    # A TL 11 nation may start a TL 12 project with a sample or Technical Assistance: +2 Advances.
    assert research.project_start_problems("steamships", tech_level=11, completed={}, current_turn=1) != []
    assert research.project_start_problems("steamships", tech_level=11, completed={}, current_turn=1,
                                           sample_or_assistance=True) == []
    assert research.project_start_problems("steamships", tech_level=10, completed={}, current_turn=1,
                                           sample_or_assistance=True) != []
    assert research.is_overreach("steamships", 11) and not research.is_overreach("steamships", 12)
    assert research.advances_required("steamships", overreach=True) == 7
    assert research.advances_required("steamships", overreach=True, assisted=True) == 6
    assert research.advances_required("transport_airships", assisted=True) == 1


def test_4_4_technical_assistance():
    progress = ResearchProgress("steamships", 5, nfp=1)
    helped = research.give_technical_assistance(progress, giver_has_the_technology=True)
    assert (helped.nfp, helped.advances_required, helped.assisted) == (2, 4, True)
    again = research.give_technical_assistance(helped, giver_has_the_technology=True)
    assert (again.nfp, again.advances_required) == (3, 4)
    with pytest.raises(RulesError):
        research.give_technical_assistance(progress, giver_has_the_technology=False)
    # Capturing five airship factory points yields two Technical Assistance NFP.
    assert research.assistance_from_captured_factories(5) == 2


def test_4_3_project_recruitment():
    assert research.recruitment_blocks(75) == 3 and research.recruitment_blocks(24) == 0
    assert research.recruit_project_nfp(75, FixedDice(6, 1, 3), purpose="recruit/rr") == 5 + 0 + 2
    assert research.recruit_project_nfp(20, FixedDice(), purpose="recruit/rr") == 0
    assert research.recruited_nfp_allowed("railroad")
    assert not research.recruited_nfp_allowed("troops") and not research.recruited_nfp_allowed("fleet")
    assert not research.recruited_nfp_allowed("colony")
    assert research.recruited_nfp_allowed("colony", merchant_house=True)


def test_4_6_engineers():
    # Siege QR 26: +2 on each die. Engineer one rolls 9 and 3 (10 GP, 2 NFP); engineer two 1 and 1 (3 GP, 1 NFP).
    got = research.engineer_yield(2, 26, FixedDice(9, 3, 1, 1), purpose="eng/rr1")
    assert (got.gp, got.nfp) == (13, 3)
    plain = research.engineer_yield(1, 5, FixedDice(4, 2), purpose="eng/rr1")
    assert (plain.gp, plain.nfp) == (4, 0)
    assert research.engineer_problems(culture=Culture.INDUSTRIAL_ONE, tech_level=12, whole_turn=True,
                                      research=False) == []
    assert research.engineer_problems(culture=Culture.INDUSTRIAL_ONE, tech_level=12, whole_turn=True,
                                      research=True) != []
    assert research.engineer_problems(culture=Culture.INDUSTRIAL_ONE, tech_level=12, whole_turn=False,
                                      research=False) != []
    assert research.engineer_problems(culture=Culture.RENAISSANCE, tech_level=11, whole_turn=True,
                                      research=False) != []

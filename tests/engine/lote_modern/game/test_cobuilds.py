"""City growth and co-builds (LotE 3.3.4-3.3.5): the checks of each line, the cost, the status gained, and the
one GPv a city may gain a turn, the owner's own growth first."""

from __future__ import annotations

import re

import pytest

from engine.core import Verdict
from tests.engine.lote_modern.game.play import check, edit, lines, publish, resolve, rulings

A, F, R = Verdict.ACCEPTED, Verdict.FLAGGED, Verdict.REJECTED


@pytest.mark.parametrize(("name", "seat", "edits", "line", "verdict", "message"), [
    ("a city of one's own grows", "England", [], "grow London", A,
     r"London to 11 GPv: 20 GP, 10 NFP \(Basic Rulebook 5.7\), at most 20 here \(Table 3-5\)"),
    ("an Allied city is not one's own", "England", [], "grow Edinburgh", R, r"Friendly or better"),
    ("Table 3-5 caps a TL 12 city", "England", ["map city[Birmingham].gpv =15"], "grow Birmingham", R,
     r"Birmingham is 15 GPv, the most Table 3-5 allows"),
    ("below TL 12 the basic rulebook's limit is the GM's", "Spain", [], "grow Madrid", F, r"basic rulebook"),
    ("only Houses, Primacies and Orders co-build", "England", [], "cobuild Dover", R, r"Merchant House, Religious"),
    ("a co-build needs the co-builder's religion", "Hansa", [], "cobuild Amsterdam 10gp", R,
     r"Amsterdam is Calvinist, not Lutheran"),
    ("a co-build where the House has a status in its web", "Hansa", [], "cobuild Copenhagen 20gp 5nfp", F,
     r"a GPv for Copenhagen \(5 to 6\): 20 GP and 5 NFP of 20 GP and 10 NFP, 0 GP and 5 NFP still to pay; your "
     r"status there becomes Cartel City"),
    ("NFP run short", "Hansa", [], "cobuild Copenhagen", R, r"needs 10 NFP; only 8 NFP are left"),
    ("no status there: a leader brings the gold", "Hansa", [], "cobuild Berlin 20gp 5nfp", R,
     r"a leader must bring the GP and NFP to Berlin"),
    ("the leader must reach the city", "Hansa", [], "cobuild Berlin 20gp 5nfp by Castorp", F,
     r"Merchant Agent.*carried by Castorp, who must reach Berlin"),
    ("a leader already there", "Hansa", ["leader[Castorp].location =Berlin"], "cobuild Berlin 5gp by Castorp", F,
     r"carried by Castorp\. The city's owner must permit it"),
    ("no more than the GPv costs", "Hansa", [], "cobuild Copenhagen 30gp", R,
     r"costs 20 GP and 10 NFP; 20 GP and 10 NFP are still to pay"),
    ("beyond the Action Range of its seats", "Hansa",
     ["nation.tech_level =10", "map region[Morocco].religion =Lutheran"], "cobuild Tangier 5gp by Castorp", R,
     r"beyond your Action Range of 5 AP"),
    ("Table 3-5 binds a co-build too", "Hansa", ["map city[Copenhagen].gpv =15"], "cobuild Copenhagen 5gp", R,
     r"the most Table 3-5 allows"),
])
def test_city_lines(lm, state, name, seat, edits, line, verdict, message):
    for e in edits:
        state = edit(lm, state, "map" if e.startswith("map ") else seat, e.removeprefix("map "))
    answer = check(lm, state, seat, line)
    assert answer.verdict is verdict, answer.message
    assert re.search(message, answer.message), answer.message
    if verdict is not R:
        assert check(lm, state, seat, answer.canonical).canonical == answer.canonical


def test_the_price_of_a_city_gpv_is_a_campaign_option(lm, start):
    state = start(**{"city-gpv-gp": "30", "city-gpv-nfp": "15"})
    assert "London to 11 GPv: 30 GP, 15 NFP" in check(lm, state, "England", "grow London").message


def test_a_city_grows_once_a_turn(lm, state):
    checks = lm.check(state, "England", "grow Dover\ngrow Dover")
    assert [c.verdict for c in checks] == [A, R]
    assert "a city gains at most 1 GPv a turn" in checks[1].message


def test_two_payments_of_one_co_build_share_its_cost(lm, state):
    state = edit(lm, state, "Hansa", "treasury.nfp =20")
    checks = lm.check(state, "Hansa", "cobuild Copenhagen 10gp 5nfp\ncobuild Copenhagen\ncobuild Copenhagen 1gp")
    assert [c.verdict for c in checks] == [F, F, R]
    assert "10 GP and 5 NFP of 20 GP and 10 NFP, the GPv is added at the end of the turn" in checks[1].message
    assert "is paid for" in checks[2].message


def test_a_paid_co_build_adds_the_gpv_and_raises_the_status(lm, state):
    state = edit(lm, state, "Hansa", "treasury.nfp =20")
    state = resolve(lm, state, {"Hansa": "cobuild Copenhagen"})
    assert state.world.cities["Copenhagen"].gpv == 6                     # 5 GPv: +1 level (Table 3-7)
    assert state.nations["Hansa"].city("Copenhagen").status == "ci"      # Branch Office → Cartel City (Table 3-8)
    assert state.nations["Hansa"].nfp == 20 - 10 + 3                       # the GPv's 10 NFP, then NFP income
    assert "your co-build adds a GPv to Copenhagen (now 6); your status there is Cartel City" in lines(state, "Hansa")
    (permission,) = rulings(state, "co-build")
    assert "owned by its native rulers" in permission and "Did its native rulers give permission?" in permission
    assert "`edit map city[Copenhagen].gpv -1`" in permission


def test_a_small_city_lifts_a_new_co_builder_four_levels(lm, state):
    # Adding a GPv to a 1 GPv city with no status gives a Cartel City (the 3.3.5 example).
    state = edit(lm, state, "map", "city[Bergen].gpv =1")
    state = edit(lm, state, "Hansa", "treasury.nfp =20", "city[Bergen] =none")
    state = edit(lm, state, "Hansa", "leader[Castorp].location =Bergen")
    state = resolve(lm, state, {"Hansa": "cobuild Bergen by Castorp"})
    assert state.world.cities["Bergen"].gpv == 2
    assert state.nations["Hansa"].city("Bergen").status == "ci"


def test_the_owners_own_growth_comes_first_and_the_co_build_waits(lm, state):
    state = edit(lm, state, "map", "region[Sussex].religion =Lutheran")
    state = edit(lm, state, "Hansa", "treasury.nfp =20")
    state = resolve(lm, state, {"England": "grow London", "Hansa": "cobuild London"})
    assert state.world.cities["London"].gpv == 11
    assert "co-build at London waits: the city already gained its GPv this turn" in lines(state, "Hansa")
    (permission,) = rulings(state, "co-build")
    assert "owned by England" in permission
    assert "Hansa: co-build at London" in "\n".join(r.brief for r in state.report.rulings)
    state = resolve(lm, publish(lm, state))
    assert state.world.cities["London"].gpv == 12
    assert state.nations["Hansa"].city("London").status == "mf"           # 10 GPv: +1, Agent → Factory
    assert "Hansa's co-build adds a GPv to London (now 12)" in lines(state, "England")
    assert state.nations["England"].city("London").status == "Hm"         # the owner keeps its status

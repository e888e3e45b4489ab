"""The order checker, one scenario per order type: what a player is told about each line before submitting.

Each case: the nation, GM edits made first (to set the scene), the order line, the verdict, and what the
message must say. Numbers come from the supplement's charts (cited) and the example sheets."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import OrderError, Verdict, Viewer
from tests.engine.lote_modern.game.conftest import FixedDice

A, F, R, W = Verdict.ACCEPTED, Verdict.FLAGGED, Verdict.REJECTED, Verdict.WARNING

CASES = [
    # -- investments (LotE 3.1, Table 3-1; 2.8, Table 2-10; 6.2.4; 3.3.4, Table 3-6) -----------------------
    ("qr within its cap", "England", [], "invest artillery 20gp", A, r"now 15, at most 22"),
    ("qr at its Table 3-1 cap", "Spain", ["qr.artillery =11"], "invest artillery 20gp", R,
     r"artillery rating is 11, the most Table 3-1 allows at Tech Level 10"),
    ("sea rating at its Table 2-10 cap", "England", ["sea.navigation =6"], "invest navigation 10gp", R,
     r"navigation rating is 6, the most Table 2-10 allows"),
    ("no airship QR until the GM adds one", "England", [], "invest airship 10gp", R, r"no airship QR"),
    ("bank investment buys capacity", "England", [], "invest bank 50gp", A, r"\+5 GP of loan capacity"),
    ("public works within Table 3-6", "England", [], "invest public-works Kent 20gp", A, r"public works at Kent"),
    ("public works beyond Table 3-6", "England", [], "invest public-works Kent 40gp", R,
     r"Kent holds at most 40 GP of public works at Tech Level 13 \(Table 3-6\); it has 10"),
    ("basic-rulebook investments go to the GM", "England", [], "invest intel 10gp", F, r"Basic Rulebook"),
    # -- builds (chart 8.6, LotE 3.6, 7.5, 7.6) ---------------------------------------------------------------
    ("infantry at a Friendly city", "England", [], "build 4 i at London", A, r"4i at London: 12 GP, 4 NFP"),
    ("heavy units use generic yard capacity", "England", [], "build 2 ha at London", A, r"4 generic yard points"),
    ("yard capacity runs out", "England", [], "build 26 ha at London", R,
     r"needs 52 points of generic yard capacity at London; 50 left"),
    ("outside the Homeland Build Zone", "England", [], "build 1 i at Gibraltar", R,
     r"outside your Homeland Build Zone"),
    ("a unit waiting on its R&D", "England", [], "build 1 ca at London", R, r"needs the R&D: Steam Cruiser project"),
    ("a steamship needs a steamship yard", "England", [], "build 1 st at Portsmouth", R, r"Steamship Yard"),
    ("a steamship at a yard", "England", [], "build 1 st at London", A, r"1 steamship yard points"),
    ("export units cost no NFP", "England", [], "build 2 (ha) at London", A, r"2\(ha\) at London: 12 GP, 0 NFP"),
    ("only Table 7-3 units are exports", "England", [], "build 2 (i) at London", R, r"not an export unit"),
    ("reserves at their Table 3-2 price", "England", [], "build 3 i at London reserve", A,
     r"3i at London: 4.5 GP, 3 NFP"),
    ("no elite reserves", "England", [], "build 3 ei at London reserve", R, r"Regular and Inexperienced"),
    ("ships at a port city", "Spain", [], "build 1 w at Madrid", R, r"built at Pc"),
    ("a Renaissance warship at a port", "Spain", [], "build 1 w at Cadiz", A, r"4 GP, 1 NFP"),
    ("a Renaissance light cavalry", "Spain", [], "build 2 lc at Madrid", A, r"8 GP, 2 NFP"),
    ("the treasury runs out", "England", [], "build 200 i at London", R, r"costs 600 GP; only .* GP are left"),
    ("a House builds its own units at home", "Hansa", [], "build 2 i at Hamburg", A, r"6 GP, 2 NFP"),
    ("not at a Cartel City", "Hansa", [], "build 2 i at Danzig", R,
     r"units for the House's own use are built within its Homeland Build Zone"),
    ("export munitions at a Cartel City with industry", "Hansa", [], "build 1 (ha) at Danzig", A, r"6 GP, 0 NFP"),
    # -- reserves (LotE 3.2.2) ------------------------------------------------------------------------------
    ("into reserve from a city", "England", [], 'reserve 4 i from "Gibraltar Garrison"', A, r"into reserve"),
    ("not from a region", "England", [], 'reserve 4 i from "Home Army"', R, r"from a controlled city"),
    ("calling up at Table 3-3's fee", "England", ["reserves.i =5"], "activate 2 i at London", A,
     r"2i called up at London: 5 GP"),
    ("more than are held", "England", [], "activate 2 i at London", R, r"0i in reserve"),
    # -- research (LotE 4) ------------------------------------------------------------------------------------
    ("a new project", "England", [], "research submersibles 10gp 1nfp at London", A, r"Submersibles begun at London"),
    ("a new project needs a place", "England", [], "research submersibles 10gp 1nfp", R, r"location"),
    ("a new project needs GP and NFP", "England", [], "research submersibles 10gp at London", R,
     r"at least 1 GP and 1 NFP"),
    ("prerequisites", "England", [], "research steam_battleship 10gp 1nfp at London", R,
     r"Steam Cruiser must be complete by the turn before; .*needs 3 steamship yard points"),
    ("overreaching one Tech Level", "Spain", [], "research airships 10gp 1nfp at Madrid", F, r"overreach"),
    ("two Tech Levels short", "Spain", [], "research steamships 10gp 1nfp at Madrid", R, r"needs Tech Level 12"),
    ("continuing a project", "England", [], "research steam_cruiser 20gp 1nfp", A, r"into Steam Cruiser"),
    ("technical assistance", "England", [], "assist France steamships 1nfp", F, r"GM confirms delivery"),
    ("no assistance without the know-how", "France", [], "assist England airships 1nfp", R, r"only a nation"),
    # -- construction (LotE 3.4-3.6) ---------------------------------------------------------------------------
    ("a steamship yard at a port city", "England", [], "construct steamship-yard 2 at Portsmouth", A,
     r"100 GP, 10 NFP, 2 years \(Table 3-4\)"),
    ("Table 3-10's city limit", "England", [], "construct steamship-yard 7 at Portsmouth", R,
     r"at most 6 factory and yard points"),
    ("airship factories need the R&D", "England", [], "construct airship-factory 1 at London", R,
     r"Airships \(Scout Airships\) completed"),
    ("steamship yards on the coast", "England", [], "construct steamship-yard 1 at Mercia", R, r"coastal"),
    ("mercantile industry is for houses", "England", [], "construct mercantile-industry 1 at London", R,
     r"Merchant Houses"),
    ("a railroad segment", "England", [], "construct railroad Sussex to Wessex", A,
     r"50 GP, 25 NFP, 10 generic yard points at London"),
    ("railroads are industrial", "Spain", [], "construct railroad Castile to Aragon", R, r"Industrial nation"),
    ("railroads join neighbours", "England", [], "construct railroad Sussex to Wales", R, r"do not border"),
    ("UW&M by Imperial Size", "England", [], "construct uwm", A, r"300 GP, 30 NFP and 6 years"),
    ("funding a project", "France", [], "fund P002 30gp 15nfp", A, r"into P002"),
    ("R&D is not funded", "England", [], "fund P001 10gp", R, r"is R&D"),
    ("recruiting project NFP", "France", [], "recruit 2 for P001", A, r"1d6-1 NFP each"),
    ("engineers need engineers", "France", [], 'engineers 2 from "Armee du Nord" for P002', R,
     r"not at Ile-de-France"),
    ("colonising next door", "Spain", ["map region[Portugal].people =B"], "colonize Portugal 15gp 15nfp", A,
     r"each 15 GP and 15 NFP settles a GPv"),
    ("colonising overseas needs CIR", "Spain", [], "colonize Morocco 15gp 15nfp", R, r"CIR action"),
    ("improving a cultivated region", "England", [], "improve Kent", A, r"Kent to 3 GPv: 20 GP, 20 NFP"),
    ("3 GPv regions are not improved", "England", [], "improve Mercia", R, r"cannot be improved"),
    # -- bank and loans (LotE 6.2) -------------------------------------------------------------------------------
    ("rates within the market", "England", [], "bank rates 25% 40%", A, r"internal rate 25%"),
    ("the 20% internal floor", "England", [], "bank rates 15% 40%", R, r"below 20%"),
    ("external below internal", "England", [], "bank rates 30% 20%", R, r"below the internal rate"),
    ("a closed bank lends at home", "Spain", [], "borrow 50gp from Spain", A,
     r"50 GP at 30%: 65 GP due at the start of turn 4"),
    ("more than the bank holds", "Spain", [], "borrow 500gp from Spain", R, r"only 120 GP left to lend"),
    ("a loan abroad is decided at processing", "France", [], "borrow 100gp from England", W, r"request"),
    ("repaying early", "Spain", [], "repay L1", A, r"140 GP"),
    ("defaulting only when due", "Spain", [], "default L1", R, r"falls due on turn 2"),
    ("no penalty owed", "Spain", [], "pay-penalty 100gp", R, r"no penalty"),
    ("no collapse to rebuild", "England", [], "rebuild-bank 100gp", R, r"has not collapsed"),
    # -- trade (LotE 2.7-2.8) -------------------------------------------------------------------------------------
    ("a conduit within Trade Range", "Spain", [], "conduit Cadiz to Barcelona", A, r"3 of your Trade Range 5"),
    ("a conduit beyond Trade Range", "France", [], "conduit Marseilles to Antwerp", R, r"within your Trade Range of 5"),
    ("a conduit by named zones", "England", [],
     "conduit Dover to Gibraltar via English Channel; Bay of Biscay; Sea of Portugal; Gates of Hercules", A,
     r"4 of your Trade Range 6"),
    ("a conduit's zones must join its anchors", "England", [],
     "conduit Dover to Gibraltar via North Sea; Bay of Biscay", R, r"start at a zone Dover touches"),
    ("an anchor needs Tributary or better", "England", ["city[Lisbon].status =NT"], "conduit London to Lisbon", R,
     r"Lisbon cannot anchor"),
    ("a Branch Office anchors a House's conduit", "Hansa", [], "conduit Hamburg to Copenhagen", A, r"conduit"),
    ("opening a route", "England", [], "route Holland open from London to Amsterdam 5msp", A,
     r"0 conduit\(s\), 1 zones, 5 MSP \(30 effective"),
    ("only free MSP", "England", [], "route Holland open from London to Amsterdam 40msp", R, r"32 MSP are free"),
    ("a route traced by one's own conduits", "Spain", [], "route Holland open from Barcelona to Amsterdam 5msp",
     R, r"through your own conduits"),
    ("unknown waters are closed", "England", [], "conduit Dublin to Gibraltar via Irish Sea; Atlantic Ocean; "
     "Sea of Portugal; Gates of Hercules", R, r"unknown"),
    ("port basing limit", "England", ["treasury.msp =200"], "route Holland open from Dover to Amsterdam 45msp", R,
     r"Dover bases at most 40 of your MSP"),
    ("closing a route", "England", [], "route France close", A, r"its 8 MSP return"),
    ("a route keeps one MSP", "England", [], "route Spain msp -10", R, r"at least 1 MSP"),
    ("rebasing a route", "England", [], "route Spain base Portsmouth", A, r"based at Portsmouth"),
    ("transports to MSP only in port", "England", [], 'msp 4 t from "Channel Fleet"', R, r"must be in a port"),
    ("transports to MSP", "England", ['army[Channel Fleet].location =London'], 'msp 4 t from "Channel Fleet"', A,
     r"become 12 MSP"),
    # -- leader actions (LotE 5.2, 7.4) ----------------------------------------------------------------------------
    ("RU at a city of the HBZ", "Spain", ["army[Levies].location =Madrid", "army[Levies].units =10ii"],
     "action Espartero RU 10 ii at Madrid", A, r"10ii become 5i at Madrid \(8 AP"),
    ("no RU by mercenaries", "Spain", ["army[Levies].location =Madrid", "army[Levies].units =10ii",
                                       "leader[Espartero].allegiance =mercenary"],
     "action Espartero RU 10 ii at Madrid", R, r"mercenary leaders may not retrain"),
    ("EX an unknown ocean", "England", [], 'action Franklin EX "Atlantic Ocean" 4ap', A, r"mapping 0/4"),
    ("EX charted waters", "England", [], 'action Franklin EX "English Channel"', R, r"already charted"),
    ("EX below its base cost", "England", [], 'action Franklin EX "Atlantic Ocean" 2ap', R, r"takes 3 AP"),
    ("NM a granted monopoly", "Spain", [], "action Isabella NM Hansa", R, r"simply revoked"),
    ("NM an acquired monopoly", "Spain", ["monopoly[1].kind =acquired"], "action Isabella NM Hansa", A, r"6 AP"),
    ("NM only by the King", "Spain", ["monopoly[1].kind =acquired"], "action Espartero NM Hansa", R,
     r"only the King"),
    ("CIR by a lieutenant", "Spain", [], "action Narvaez CIR Morocco 15gp 15nfp", A, r"colony in Morocco"),
    ("CIR by a plain leader", "Spain", [], "action Espartero CIR Morocco 15gp 15nfp", R, r"national leader"),
    ("DCL with troops", "France", [], "action Bugeaud DCL Antwerp", A, r"2 AP"),
    ("DCL without troops", "France", [], 'action Dupetit-Thouars DCL Antwerp', R, r"infantry|troop"),
    ("AA at Table 7-2's cost", "Hansa", [], "action Hanssen AA Antwerp", A, r"2 AP and 3 GP"),
    ("AA with gold in support", "Hansa", [], "action Hanssen AA Antwerp 13gp", A, r"10 GP in support"),
    ("AA below its cost", "Hansa", [], "action Hanssen AA Antwerp 2gp", R, r"costs 3 GP"),
    ("EMF needs an agent", "Hansa", [], "action Hanssen EMF Bordeaux", R, r"Merchant Agent at Bordeaux first"),
    ("OBO on a factory", "Hansa", [], "action Hanssen OBO Bordeaux", A, r"6 AP and 10 GP"),
    ("FCT on a branch office", "Hansa", [], "action Hanssen FCT Amsterdam", A, r"8 AP and 25 GP"),
    ("AMN needs a branch in the capital", "Hansa", [], "action Hanssen AMN Spain", R, r"Spain's capital"),
    ("GPT with a branch in the nation", "Hansa", ["city[London].status =bo"], "action Hanssen GPT England", A,
     r"3 AP and 25 GP"),
    ("houses' actions are for houses", "England", [], "action Victoria AA Antwerp", R, r"Merchant House action"),
    ("a basic-rulebook action", "England", [], "action Wellington MV Kent 3ap", F, r"Basic Rulebook"),
    ("a basic-rulebook action needs its AP", "England", [], "action Wellington MV Kent", R, r"how many AP"),
    ("an unknown leader", "England", [], "action Nelson EX Atlantic Ocean", R, r"no leader `Nelson`"),
    # -- monopolies (LotE 7.1.1) and notes ---------------------------------------------------------------------------
    ("revoking a granted monopoly", "Spain", [], "revoke Hansa wool", A, r"returns to Spain's economy"),
    ("no such monopoly", "Spain", [], "revoke Hansa silk", R, r"no `silk` monopoly"),
    ("granting a monopoly", "England", [], "grant Hansa coal", A, r"takes the coal monopoly"),
    ("notes go to the GM", "France", [], "note We court the Pope.", F, r"GM"),
]


@pytest.mark.parametrize(("name", "seat", "edits", "line", "verdict", "message"), CASES, ids=[c[0] for c in CASES])
def test_order_line(lm, state, name, seat, edits, line, verdict, message):
    for edit in edits:
        target = "map" if edit.startswith("map ") else seat
        state = lm.act(state, Viewer.gm(), f'edit {target} {edit.removeprefix("map ")} "scene"', FixedDice()).state
    (check,) = lm.check(state, seat, line)
    assert check.verdict is verdict, check.message
    assert re.search(message, check.message), check.message
    if verdict is not Verdict.REJECTED:
        assert lm.check(state, seat, check.canonical)[0].canonical == check.canonical


def test_lines_share_one_budget(lm, state):
    checks = lm.check(state, "Hansa", "action Hanssen AA Antwerp\naction Hanssen FCT Amsterdam\n"
                                       "action Hanssen OBO Bordeaux")
    assert [c.verdict for c in checks] == [A, A, R]
    assert "Hanssen has 1 AP left this turn; this takes 6" in checks[2].message


def test_placing_and_calling_up_reserves_in_one_turn_is_refused(lm, state):
    checks = lm.check(state, "England", 'reserve 4 i from "Gibraltar Garrison"\nactivate 2 i at London')
    assert [c.verdict for c in checks] == [A, R]
    assert "none may also be called up" in checks[1].message


def test_reserves_are_an_option(lm, start):
    state = start(reserves="no")
    (check,) = lm.check(state, "England", "build 3 i at London reserve")
    assert check.verdict is R and "does not use reserves" in check.message


def test_refused_lines_do_not_spend(lm, state):
    checks = lm.check(state, "Spain", "build 60 i at Madrid\nbuild 20 i at Madrid")
    assert [c.verdict for c in checks] == [R, A]


def test_an_unreadable_line_says_why(lm, state):
    (check,) = lm.check(state, "England", "build ten i at London")
    assert check.verdict is R and "is not how many units" in check.message
    (check,) = lm.check(state, "England", "conquer France")
    assert check.verdict is R and "`conquer` is not an order" in check.message


def test_an_empty_order_form_is_an_error(lm, state):
    with pytest.raises(OrderError, match="no orders"):
        lm.check(state, "England", "# nothing but a comment\n\n")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(alphabet=st.sampled_from(list("abcdeilnorstuvw0123456789 ()\"%;+-#ADEGIMNOPRSX")), max_size=60))
def test_any_line_is_answered_or_refused_with_a_reason(lm, state, text):
    try:
        checks = lm.check(state, "England", text)
    except OrderError:
        return
    for check in checks:
        assert check.verdict in Verdict
        if check.verdict is Verdict.REJECTED:
            assert check.message
        else:
            assert lm.check(state, "England", check.canonical)[0].canonical == check.canonical

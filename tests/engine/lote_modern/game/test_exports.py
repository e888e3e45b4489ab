"""Munitions and heavy machinery export (LotE 7.5): export units handed to a buyer, and fitted to its units by
Table 7-3 (steam warships crewed by their NFP cost in warships), at half the regular cargo."""

from __future__ import annotations

import re

import pytest

from engine.core import Verdict
from tests.engine.lote_modern.game.play import check, edit, lines, resolve

A, R = Verdict.ACCEPTED, Verdict.REJECTED
SALE = 'export 2 (ha) from "Danzig Garrison" to Spain'


@pytest.fixture
def arsenal(lm, state):
    return edit(lm, state, "Hansa", "army[Danzig Garrison].location =Danzig", "army[Danzig Garrison].units =2(ha)")


@pytest.mark.parametrize(("seat", "edits", "line", "verdict", "message"), [
    ("Hansa", [], SALE, A, r"2\(ha\) to Spain at Danzig, if it holds land or an army there; they upgrade its "
                           r"i, c or ei, ec into ha or hea \(Table 7-3\); 3 cargo to carry \(half of ha's 3 each\)"),
    ("Hansa", [], 'export 3 (ha) from "Danzig Garrison" to Spain', R, r"has 2\(ha\), not 3"),
    ("Hansa", [], 'export 2 (ha) from "Danzig Garrison" to Hansa', R, r"not another nation"),
    ("Spain", ["army[Ejercito de Castilla].units +2(ha)"], 'fit 2 (ha) to i in "Ejercito de Castilla"', A,
     r"2i of Ejercito de Castilla become 2ha \(Table 7-3\): 6 AP of Espartero"),
    ("Spain", ["army[Ejercito de Castilla].units +2(ha)"], 'fit 2 (ha) to w in "Ejercito de Castilla"', R,
     r"\(ha\) turns i, c or ei, ec, not w"),
    ("Spain", [], 'fit 2 (ha) to i in "Ejercito de Castilla"', R, r"hold 0\(ha\), not 2"),
    ("Spain", ["army[Armada].units +1(hw)"], "fit 1 (hw) to w in Armada", R,
     r"ship units are upgraded at a Port City or Port Area"),
    ("England", ["army[Channel Fleet].location =London", "army[Channel Fleet].units +1(bb)"],
     'fit 1 (bb) to w in "Channel Fleet"', A, r"5w of Channel Fleet become 1bb, 5 warships crewing each"),
    ("England", ["army[Gibraltar Garrison].units +1(ha)"], 'fit 1 (ha) to i in "Gibraltar Garrison"', R,
     r"name the leader who fits them"),
    ("Spain", ["army[Ejercito de Castilla].units +2(ha)"], 'fit 2 (ha) to i in "Ejercito de Castilla" by Narvaez', R,
     r"Narvaez is at Sea of Portugal, not with Ejercito de Castilla at Castile"),
])
def test_export_lines(lm, arsenal, seat, edits, line, verdict, message):
    state = edit(lm, arsenal, seat, *edits) if edits else arsenal
    answer = check(lm, state, seat, line)
    assert answer.verdict is verdict, answer.message
    assert re.search(message, answer.message), answer.message
    if verdict is A:
        assert check(lm, state, seat, answer.canonical).canonical == answer.canonical


def test_exports_reach_only_a_buyer_present_at_the_place(lm, arsenal):
    state = resolve(lm, arsenal, {"Hansa": SALE})
    assert "not carried out: Spain has neither land nor an army at Danzig" in lines(state, "Hansa")
    assert state.nations["Hansa"].army("Danzig Garrison").units == {"(ha)": 2}


def test_the_buyer_receives_them_where_it_holds_the_land(lm, arsenal):
    state = edit(lm, arsenal, "Hansa", "army[Danzig Garrison].location =Cadiz")
    state = resolve(lm, state, {"Hansa": SALE})
    assert state.nations["Spain"].army("Cadiz Arsenal").units == {"(ha)": 2}
    assert "Hansa delivered 2(ha) at Cadiz; they are in Cadiz Arsenal" in lines(state, "Spain")
    assert state.nations["Hansa"].army("Danzig Garrison").units == {}


def test_fitting_upgrades_the_units_elite_to_elite(lm, state):
    state = edit(lm, state, "Spain", "army[Ejercito de Castilla].units +2(ha) 1ei")
    state = resolve(lm, state, {"Spain": 'fit 1 (ha) to i in "Ejercito de Castilla"\n'
                                         'fit 1 (ha) to ei in "Ejercito de Castilla" by Isabella'})
    units = state.nations["Spain"].army("Ejercito de Castilla").units
    assert units["i"] == 14 and units["ha"] == 1 and units["hea"] == 1 and "ei" not in units and "(ha)" not in units

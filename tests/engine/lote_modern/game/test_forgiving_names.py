"""Forgiving names inside order lines: leaders, armies and places typed the way players type them.

Case and accents never matter, a prefix that fits one name is that name, a prefix that fits several lists them,
and a name that fits none is refused with the closest ("did you mean …?"), never guessed silently."""

from __future__ import annotations

import re

import pytest

from engine.core import Verdict
from tests.engine.lote_modern.game.play import check, edit, lines, resolve

A, F, R, W = Verdict.ACCEPTED, Verdict.FLAGGED, Verdict.REJECTED, Verdict.WARNING

CASES = [
    # (GM edits that set the scene come first, before a `|`)
    # places: a build's place, a call-up's city, public works' holding, a factory's destination
    ("a place in lower case", "England", "build 4 i at london", A, r"4i at London: 12 GP"),
    ("a unique prefix of a city", "England", "build 4 i at lond", A, r"4i at London: 12 GP"),
    ("a misspelt place", "England", "build 4 i at Londn", R,
     r"no region or city `Londn` — did you mean \*\*London\*\*\?"),
    ("a prefix of several places", "England", "build 4 i at d", R, r"`d` could be .*\*\*Dover\*\*.*: type more"),
    ("a holding by prefix", "England", "invest public-works ken 20gp", A, r"public works at Kent"),
    ("a region where a city is wanted", "England", "reserves.i =5|activate 2 i at Sussex", R,
     r"`Sussex` is not a city: reserves are called up in a Friendly city"),
    ("a misspelt city says why a city", "England", "reserves.i =5|activate 2 i at Lundon", R,
     r"no city `Lundon` — did you mean \*\*London\*\*\?: reserves are called up"),
    # armies and leaders
    ("an army by prefix", "England", "reserve 4 i from gibraltar", A, r"into reserve"),
    ("a misspelt army", "England", "reserve 4 i from Gibraltr", R,
     r"no army `Gibraltr` — did you mean \*\*Gibraltar Garrison\*\*\?"),
    ("a leader in lower case", "England", "action wellington MV Kent 3ap", F, r"Basic Rulebook"),
    ("a leader by prefix", "England", "action Well MV Kent 3ap", F, r"Basic Rulebook"),
    ("a misspelt leader", "England", "action Welington MV Kent 3ap", R,
     r"no leader `Welington` — did you mean \*\*Wellington\*\*\?"),
    ("a leader nothing like", "England", "action Nelson EX Atlantic Ocean", R,
     r"no leader `Nelson`.*\(leaders: Victoria, Wellington, Napier, Franklin\)"),
    ("a mercenary pool by prefix", "England", "hire 4i from low at antw 20gp", F, r"a bid of 20 GP for 4i at Antwerp"),
    ("a misspelt mercenary pool", "England", 'hire 4i from "Low Contries" at Antwerp 20gp', R,
     r"no mercenary pool `Low Contries` — did you mean \*\*Low Countries\*\*\?"),
    ("a merchant action's place by prefix", "Hansa", "action Hanssen AA antw", A, r"Antwerp"),
    # nations named in a line
    ("a nation by prefix", "France", "borrow 100gp from eng", W, r"a request to England's bank"),
    ("a misspelt nation", "France", "borrow 100gp from Englnd", R,
     r"no nation `Englnd` — did you mean \*\*England\*\*\?"),
    ("one's own nation by prefix", "England", "bank close-to eng", R, r"`England` is not another nation"),
]


@pytest.mark.parametrize(("name", "seat", "line", "verdict", "message"), CASES, ids=[c[0] for c in CASES])
def test_names_in_order_lines(lm, state, name, seat, line, verdict, message):
    *edits, line = line.split("|")
    state = edit(lm, state, seat, *edits)
    result = check(lm, state, seat, line)
    assert result.verdict is verdict, result.message
    assert re.search(message, result.message), result.message


def test_a_prefixed_line_is_carried_out_on_the_real_names(lm, state):
    """Resolving the turn builds at London and draws from Gibraltar Garrison, though neither was typed whole."""
    after = resolve(lm, state, {"England": "build 4 i at lond\nreserve 4 i from gibraltar"})
    told = lines(after, "England")
    assert "London" in told and "lond " not in told
    england = after.find_nation("England")
    assert england is not None
    garrison = england.army("Gibraltar Garrison")
    assert garrison is not None and "i" not in garrison.units  # its 4i went into reserve


@pytest.mark.parametrize(("seat", "typed", "kept"), [
    ("England", "build 4 i at lond", "build 4 i at London"),
    ("England", "reserve 4 i from gibraltar", 'reserve 4 i from "Gibraltar Garrison"'),
    ("England", "action well MV kent 3ap", "Wellington"),
    ("France", "borrow 100gp from eng", "from England"),
    ("England", "hire 4i from low at antw 20gp", '"Low Countries" at Antwerp'),
])
def test_the_accepted_line_is_kept_with_the_full_names(lm, state, seat, typed, kept):
    """What is echoed and submitted (what the GM reads and the turn carries out) names the real things."""
    result = check(lm, state, seat, typed)
    assert kept in result.canonical, result.canonical

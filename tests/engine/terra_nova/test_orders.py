"""Written orders: the grammar, canonical forms that read back to themselves, and line-by-line checks."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import OrderError, RulesError, Verdict
from engine.rulesets.terra_nova.orders import Order

from .conftest import at_step, new_game

CANONICAL = [
    "buy 3 soldier", "buy 1 caravel", "buy 1 fort at Cuba", "pay 20 to Portugal",
    "sail 1 caravel, 2 carrack from Europe to Aztec Empire/w via guinea carrying 2 soldier, 1 depleted settler, "
    "3 slave, 50 gold leaders LEADER",
    "sail 1 urca from Cuba to Hispaniola", "intercept England", "attack England at sea in Cuba",
    "factory Malacca bribe 3", "factory Java", "mission Cuba", "settle Cuba", "settle Cuba with depleted settler",
    "town Cuba", "plantation Cuba", "move 2 soldier, 1 cannon leaders LEADER from Aztec Empire to Yucatan",
    "attack natives in Aztec Empire city Tenochtitlan tactic charge", "attack Portugal in Cuba",
    "tactic Cuba defend", "ally Great Lakes leader LEADER bribe 4", "vote end", "vote continue",
    "note please rule on my treaty with France",
]


@pytest.fixture
def state():
    s = new_game(east_indies=True)
    s.leaders[0].power = "Spain"
    return s


@pytest.mark.parametrize("line", CANONICAL)
def test_canonical_lines_read_back_to_themselves(state, line):
    line = line.replace("LEADER", state.leaders[0].name)
    assert Order.parse(line, state, "Spain").text() == line


@pytest.mark.parametrize(("written", "canonical"), [
    ("Buy 3 Soldiers", "buy 3 soldier"),
    ("buy a caravel", "buy 1 caravel"),
    ("buy 2 c/f", "buy 2 war-carrack"),
    ("sail 2 c, 1 v from europe to aztec empire coast w via Guinea carrying 3 soldiers",
     "sail 1 caravel, 2 carrack from Europe to Aztec Empire/w via guinea carrying 3 soldier"),
    ("pay 5 florins to portugal", "pay 5 to Portugal"),
    ("attack natives in aztec empire city tenochtitlan tactic withdraw",
     "attack natives in Aztec Empire city Tenochtitlan tactic withdrawal"),
    ("sail 1 carrack from Malacca to Europe carrying 1 Tea/3",
     "sail 1 carrack from Malacca to Europe carrying 1 tea/3"),
    ("settle  st lawrence", "settle St Lawrence"),
])
def test_loose_writing_is_echoed_in_canonical_form(state, written, canonical):
    assert Order.parse(written, state, "Spain").text() == canonical


@pytest.mark.parametrize(("line", "message"), [
    ("conquer mexico", "not an order I know"),
    ("buy 3 dragons", "not a unit or ship"),
    ("sail 2 carrack from Europe to Atlantis", "not a place on the map"),
    ("pay 10 to Venice", "not a power in this game"),
    ("attack France at sea in Cuba", "not a power in this game"),
    ("attack Portugal in Aztec Empire city Cuzco", "only the natives hold treasure cities"),
    ("ally Cuba leader Nobody", "has no leader called"),
    ("tactic Cuba dance", "not a tactic"),
    ("vote maybe", "vote end"),
])
def test_unreadable_lines_say_what_is_wrong(state, line, message):
    with pytest.raises(OrderError, match=message):
        Order.parse(line, state, "Spain")


def test_the_indies_are_off_the_map_without_the_expansion():
    with pytest.raises(OrderError, match="does not use"):
        Order.parse("factory Malacca", new_game(), "Spain")


def test_check_answers_line_by_line_with_canonical_forms(tn):
    state = new_game()
    checks = tn.check(state, "Spain", "Buy 2 Soldiers\n\n# a comment\nbuy 1 fort at Cuba\nnote ask about Cuba\n"
                                      "sail 1 carrack from Europe to Cuba\nbuy 99 carrack")
    got = [(c.line, c.verdict, c.canonical) for c in checks]
    assert got == [(1, Verdict.ACCEPTED, "buy 2 soldier"), (4, Verdict.REJECTED, ""),
                   (5, Verdict.FLAGGED, "note ask about Cuba"), (6, Verdict.REJECTED, ""),
                   (7, Verdict.REJECTED, "")]
    assert "a fort guards a settlement" in checks[1].message
    assert "they go in C.1 First Trans-Oceanic Movement" in checks[3].message
    assert "cost 792 florins" in checks[4].message


def test_checks_are_cumulative_against_the_treasury(tn):
    state = new_game()
    treasury = state.powers["Spain"].treasury
    n = treasury // 8
    checks = tn.check(state, "Spain", f"buy {n} carrack\nbuy 1 carrack")
    assert [c.verdict for c in checks] == [Verdict.ACCEPTED, Verdict.REJECTED]
    assert state.powers["Spain"].treasury == treasury        # checking changes nothing


def test_lines_are_checked_in_the_order_they_are_carried_out(tn):
    state = at_step(new_game(), "D3")
    state.force("Great Lakes", "Spain").add("settler", 1)
    # written first, moved in D.5 after settlement in D.4: the settler is not in the Mid West at D.4
    checks = tn.check(state, "Spain", "move 1 settler from Great Lakes to Mid West\nsettle Mid West")
    assert [c.verdict for c in checks] == [Verdict.ACCEPTED, Verdict.REJECTED]


VERBS = ["buy", "sail", "pay", "attack", "settle", "move", "ally", "factory", "mission", "town", "vote", "note",
         "tactic", "intercept", "plantation"]


@settings(max_examples=150, deadline=None)
@given(verb=st.sampled_from(VERBS), rest=st.text(alphabet=st.characters(codec="utf-8"), max_size=60))
def test_every_line_is_either_understood_or_refused_with_a_reason(verb, rest):
    from engine.rulesets import get
    tn = get("terra-nova")
    state = _STATE
    try:
        checks = tn.check(state, "Spain", f"{verb} {rest}")
    except RulesError:
        return
    for c in checks:
        assert c.verdict in Verdict
        if c.accepted:
            again = tn.check(state, "Spain", c.canonical)
            assert [x.canonical for x in again] == [c.canonical]
        else:
            assert c.message


_STATE = new_game(east_indies=True)


def test_the_order_help_names_every_verb_of_every_window(tn):
    from engine.rulesets.terra_nova.sequence import steps
    for spec in steps():
        for verb in spec.verbs:
            assert f"\n  {verb.split('-')[0]} " in tn.orders_help, verb

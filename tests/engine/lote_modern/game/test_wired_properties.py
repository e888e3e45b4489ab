"""Every well-formed or ill-formed line of the newly wired orders, and every text of the new GM actions, either
works or is refused with a reason (never a bare exception), and what is accepted echoes back to itself."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import IllegalAction, OrderError, Verdict
from tests.engine.lote_modern.game.conftest import FixedDice
from tests.engine.lote_modern.game.play import GM, edit, publish, resolve

VERBS = ["grow ", "cobuild ", "cartel grant ", "cartel carry ", "pay ", "pool ", "hire ", "export ", "fit ",
         "move-factory ", "bombard ", "route Spain ", "route Spain aerial ", "route Spain overland open from ",
         "action Victoria IMA ", "action Hanssen EMB "]
WORDS = ["London", "Cadiz", "Hamburg", "Spain", "England", "Hansa", '"Low Countries"', "2", "10", "i", "(ha)",
         "to", "from", "at", "in", "by", "via", "open", "msp", "+2", "-4", "steam", "10gp", "5nfp", "4msp",
         "convert", "price", "paying", "nfp", ";", "airship-factory", "city-yard", '"Home Army"', "Castorp"]
LINE = st.builds(lambda verb, words: verb + " ".join(words), st.sampled_from(VERBS),
                 st.lists(st.sampled_from(WORDS), max_size=9))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(LINE, st.sampled_from(["England", "Hansa", "Spain"]))
def test_any_new_order_line_is_answered(lm, state, line, seat):
    try:
        checks = lm.check(state, seat, line)
    except OrderError:
        return
    for answer in checks:
        if answer.verdict is Verdict.REJECTED:
            assert answer.message
        else:
            assert lm.check(state, seat, answer.canonical)[0].canonical == answer.canonical


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["capture ", "divide-reserves "]),
       st.lists(st.sampled_from(["Brest", "England", "by", "surprise", "among", "(London)", "(Dover,", "Paris)",
                                 ";", "Jacobites", "France", '"'] ), max_size=8))
def test_any_new_gm_action_works_or_is_refused(lm, state, verb, words):
    try:
        step = lm.act(state, GM, verb + " ".join(words), FixedDice())
    except IllegalAction as exc:
        assert str(exc)
        return
    assert step.events


def test_a_state_with_every_new_record_round_trips_through_json(lm, state):
    state = edit(lm, state, "Hansa", "brokerages +Low Countries", "treasury.aerial_msp =4", "treasury.nfp =20",
                 "city[Madrid].status =bo", "city[Cadiz].status =mf")
    state = edit(lm, state, "England", "treasury.steam_msp =8")
    state = resolve(lm, state, {
        "England": "cartel grant Hansa Spain\ngrow London\nroute Holland open from London to Amsterdam 4msp steam",
        "Hansa": 'pool "Low Countries" price 2gp\ncobuild Copenhagen\nroute Spain aerial open 2msp\n'
                 "route Spain overland open from Cadiz 3msp",
        "France": 'hire 2i from "Low Countries" at Antwerp 4gp'})
    for step in ("resolved", "published"):
        data = lm.dump(state)
        again = lm.load(json.loads(json.dumps(data)))
        assert lm.dump(again) == data and again == state, step
        if step == "resolved":
            state = publish(lm, state)
    assert state.cartels and state.world.pools["Low Countries"].price == 2 and state.world.roads

"""The GM's side: audited edits, rulings, news, publication, uploads during play, tables, persistence."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import Dice, IllegalAction, Setup, UploadError, Viewer, Window
from engine.rulesets.lote_modern.edits import parse_edit
from tests.engine.lote_modern.game.conftest import SEED, FixedDice, accepted

GM = Viewer.gm()


def act(lm, state, text):
    return lm.act(state, GM, text, FixedDice())


# -- audited edits -------------------------------------------------------------------------------------------
def test_an_edit_changes_the_sheet_and_tells_the_gm_and_the_nation(lm, state):
    step = act(lm, state, 'edit England treasury.gp +50 "Spanish silver"')
    assert step.state.nations["England"].gp == 450
    gm, private = step.events
    assert gm.visibility.label() == "gm" and "treasury.gp: 400 → 450 (Spanish silver)" in gm.text
    assert private.visibility.seats == {"England"} and not private.visibility.public
    assert step.state.audit[-1].text.startswith('edit England treasury.gp +50 "Spanish silver"')


@pytest.mark.parametrize(("text", "message"), [
    ("edit England treasury.gp +50", "GM edits"),
    ('edit England treasury.gp +50 ""', "needs a reason"),
    ('edit England treasury.gold +50 "x"', "not a sheet path"),
    ('edit England treasury.nfp -500 "x"', "below 0"),
    ('edit England region[Kent].status =ho "x"', "only in a city"),
    ('edit England city[Paris].status =ma "x"', "cannot hold `ma`"),
    ('edit England army[Ghost Army].units +5i "x"', "create it by setting its location"),
    ('edit Atlantis treasury.gp +5 "x"', "no nation `Atlantis`"),
    ('edit England qr.dragons =5 "x"', "not a quality rating"),
    ('edit England army[Home Army].leader =Nelson "x"', "no leader `Nelson`"),
])
def test_a_bad_edit_is_refused_with_the_reason(lm, state, text, message):
    with pytest.raises(IllegalAction, match=message):
        act(lm, state, text)


def test_entries_are_created_changed_and_removed(lm, state):
    for text in ('edit France army[Reserve Army].location =Paris "raised"',
                 'edit France army[Reserve Army].units =5i 2c "raised"',
                 'edit France army[Reserve Army].units -1c "desertion"',
                 'edit England region[Morocco].status =T "treaty"',
                 'edit England leader[Nelson].combat =9 "a new admiral"',
                 'edit Hansa monopolies +England:coal "charter"'):
        state = act(lm, state, text).state
    assert state.nations["France"].army("Reserve Army").units == {"i": 5, "c": 1}
    assert state.nations["England"].region("Morocco").status == "T"
    assert state.nations["England"].leader("Nelson").combat == 9
    assert any(m.house == "Hansa" and m.nation == "England" and m.good == "coal" for m in state.monopolies)
    state = act(lm, state, 'edit England region[Morocco] =none "lost"').state
    assert state.nations["England"].region("Morocco") is None


def test_a_failed_edit_leaves_no_half_made_entry(lm, state):
    with pytest.raises(IllegalAction, match="not a control status"):
        act(lm, state, 'edit England region[Morocco].status =ZZ "typo"')
    assert state.nations["England"].region("Morocco") is None


def test_mapping_points_chart_a_zone_at_its_requirement(lm, state):
    state = act(lm, state, 'edit England mapping[Atlantic Ocean] +3 "three voyages"').state
    assert "Atlantic Ocean" not in state.nations["England"].charts
    step = act(lm, state, 'edit England mapping[Atlantic Ocean] +1 "Franklin maps the last reach"')
    assert "Atlantic Ocean" in step.state.nations["England"].charts and "4 (charted)" in step.events[0].text
    (check,) = lm.check(step.state, "England", "conduit Dublin to Gibraltar via Irish Sea; Atlantic Ocean; "
                                               "Sea of Portugal; Gates of Hercules")
    assert check.verdict.value == "accepted"


def test_map_edits_are_public(lm, state):
    step = act(lm, state, 'edit map city[London].gpv +1 "the city grows"')
    assert step.state.world.cities["London"].gpv == 11
    assert [e.visibility.label() for e in step.events] == ["gm", "public"]


def test_edit_text_is_canonical():
    edit = parse_edit('edit  "England"  army[Home   Army].units  +5i 2c  "levies raised"')
    assert edit.text() == 'edit England army[Home Army].units +5i 2c "levies raised"'
    assert parse_edit(edit.text()) == edit


def test_players_do_not_act(lm, state):
    with pytest.raises(IllegalAction, match="players send orders"):
        lm.act(state, Viewer.of_seat("England"), 'edit England treasury.gp +50 "mine"', FixedDice())


# -- rulings, news and publication ------------------------------------------------------------------------------
def test_rulings_come_after_processing(lm, state):
    with pytest.raises(IllegalAction, match="after the turn is processed"):
        act(lm, state, "rule 1 Fine.")


def test_the_gm_window_offers_every_ruling_then_publication(lm, state):
    orders = {"England": accepted(lm, state, "England", "note one\nnote two")}
    state = lm.resolve(state, orders, FixedDice()).state
    actions = {a.text: a for a in lm.view(state, GM).actions}
    assert "rule 1 " in actions and "rule 2 " in actions and "publish" not in actions
    assert all(len(a.label) <= 80 for a in actions.values())
    with pytest.raises(IllegalAction, match="no ruling #9"):
        act(lm, state, "rule 9 Fine.")
    state = act(lm, state, "rule 1 The Dutch listen.").state
    state = act(lm, state, "rule 2 public The Dutch sign.").state
    assert "publish" in {a.text for a in lm.view(state, GM).actions}
    assert lm.phase(state).window is Window.GM


def test_news_and_public_rulings_reach_the_newsletter(lm, state):
    state = act(lm, state, "news A comet is seen over Paris.").state
    state = lm.resolve(state, {"France": ["note We watch the comet."]}, FixedDice()).state
    state = act(lm, state, "rule 1 public The astronomers of Paris name the comet.").state
    step = act(lm, state, "publish")
    (letter,) = [e for e in step.events if e.kind == "newsletter"]
    assert "A comet is seen over Paris." in letter.text and "name the comet" in letter.text
    assert "We watch the comet" not in letter.text
    france = next(e for e in step.events if e.kind == "result" and "France" in e.visibility.seats)
    assert "#1 France: We watch the comet.: The astronomers of Paris name the comet." in france.text


def test_ending_the_campaign(lm, state):
    step = act(lm, state, "end campaign")
    assert lm.phase(step.state).window is Window.ENDED and step.events[0].visibility.public
    with pytest.raises(IllegalAction, match="ended"):
        act(lm, step.state, "news Too late.")


# -- uploads ------------------------------------------------------------------------------------------------------
def test_seats_need_the_sheets_file(lm, map_text):
    with pytest.raises(UploadError, match="upload `sheets` first"):
        lm.seat_rule({}, {"map": map_text})


def test_setup_needs_both_files(lm, sheets_text):
    with pytest.raises(UploadError, match="needs its `map` file"):
        lm.setup(Setup(("England",), lm.parse_options({}), Dice(SEED, "s"), {"sheets": sheets_text}))


def test_uploads_are_summarised_before_the_start(lm, sheets_text, map_text):
    assert lm.check_upload("sheets", sheets_text).startswith("4 nations (England, France, Spain, Hansa), 1 Merchant")
    assert lm.check_upload("map", map_text) == "33 regions, 27 cities, 11 sea zones"
    with pytest.raises(UploadError, match="no `tables` files"):
        lm.check_upload("tables", "")


def test_a_sheets_upload_during_play_replaces_those_nations(lm, state, sheets_text):
    text = sheets_text.replace("gp = 180", "gp = 999")
    start = text.index('[[nation]]\nname = "Spain"')
    end = text.index('[[nation]]\nname = "Hansa"')
    spain_only = "[campaign]\nyear = 1845\n" + text[start:end]
    spain_only = spain_only.replace("L1,England,100,40,-1\n", "")
    step = lm.upload(state, "sheets", spain_only)
    assert step.state.nations["Spain"].gp == 999 and step.state.nations["England"].gp == 400
    assert [e.visibility.label() for e in step.events] == ["gm", "seats:Spain"]


def test_a_sheets_upload_cannot_add_a_seat(lm, state):
    with pytest.raises(UploadError, match="Portugal is not a nation of this campaign"):
        lm.upload(state, "sheets", '[[nation]]\nname = "Portugal"\nculture = "R"\ntech_level = 8\n')


def test_a_map_upload_is_checked_against_the_sheets(lm, state, map_text):
    with pytest.raises(UploadError, match="no region `Kent` on the map"):
        lm.upload(state, "map", map_text.replace("Kent", "Kentish Weald"))
    step = lm.upload(state, "map", map_text.replace('title = "The Narrow Seas"', 'title = "Revised"'))
    assert step.state.world.title == "Revised" and step.events[0].visibility.public


# -- tables and persistence -------------------------------------------------------------------------------------
def test_the_supplements_tables_roll(lm):
    tables = lm.tables()
    assert set(tables) == {"recruitment", "colony-settlers", "engineer-nfp", "engineer-gp"}
    result = tables["recruitment"].roll(FixedDice({"table/recruitment": [6]}))
    assert result.result == "5 NFP"
    assert tables["engineer-gp"].lookup(10).result == "10 GP"
    assert tables["engineer-nfp"].notation == "1d3"


def test_state_round_trips_through_json_at_every_stage(lm, state):
    def roundtrip(s):
        data = lm.dump(s)
        again = lm.load(json.loads(json.dumps(data)))
        assert lm.dump(again) == data
        assert again == s
    roundtrip(state)
    state = act(lm, state, 'edit Hansa monopolies +England:coal "charter"').state
    state = lm.resolve(state, {"England": ["borrow 50gp from England", "note hello"]}, FixedDice()).state
    roundtrip(state)
    state = act(lm, state, "rule 1 Hello.").state
    state = act(lm, state, "publish").state
    roundtrip(state)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(alphabet=st.sampled_from(list('edit Englandmapregion[Kent].statusgp+-=0123456789 "x";:none')),
               max_size=50))
def test_any_gm_action_works_or_is_refused_with_a_reason(lm, state, text):
    try:
        step = lm.act(state, GM, text, FixedDice())
    except IllegalAction as exc:
        assert str(exc)
        return
    assert step.events

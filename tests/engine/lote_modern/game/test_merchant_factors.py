"""The factors of a Merchant House action computed from the sheets and the map (LotE 7.4): hostile religion by
the map's religious families, distance in AP from the leader, the House's nearest site, its statuses in a nation.
Language alone is left to the GM; none of it reaches the House before the GM rules."""

from __future__ import annotations

from tests.engine.lote_modern.game.play import check, edit, resolve


def ruling_for(state, text):
    (item,) = [r for r in state.report.rulings if r.kind == "action" and text in r.text]
    return item.text


def test_a_tolerant_faith_near_the_leader(lm, state):
    state = resolve(lm, state, {"Hansa": "action Hanssen AA Antwerp"})
    text = ruling_for(state, "Acquire Agent (AA) at Antwerp")
    assert "hostile religion: no: Catholic (tolerant, one family)" in text
    assert "distance (AP): 2 from Hanssen at Hamburg" in text
    assert "nearest House location: 1 AP from Amsterdam" in text
    assert "different language: for the GM to judge (no languages on the sheets or the map)" in text


def test_a_hostile_faith_far_away(lm, state):
    state = resolve(lm, state, {"Hansa": "action Rothmann AA Tangier"})
    text = ruling_for(state, "Acquire Agent (AA) at Tangier")
    assert "hostile religion: yes: Sunni against the House's Lutheran (another family on the map)" in text
    assert "distance (AP): 6 from Rothmann at Amsterdam" in text and "nearest House location: 2 AP from Cadiz" in text


def test_a_faith_the_map_does_not_place_is_for_the_gm(lm, state):
    state = edit(lm, state, "map", "region[Flanders].religion =Jansenist")
    state = resolve(lm, state, {"Hansa": "action Hanssen AA Antwerp"})
    assert ("Jansenist against the House's Lutheran: the map gives no family: for the GM to judge"
            in ruling_for(state, "at Antwerp"))


def test_house_statuses_in_the_nation_count_for_preferential_treatment(lm, state):
    state = edit(lm, state, "Hansa", "city[London].status =bo")
    state = resolve(lm, state, {"Hansa": "action Hanssen GPT England"})
    text = ruling_for(state, "Gain Preferential Treatment")
    assert "House locations in the nation: 1 of 7 cities hold a House status (1 of them Hansa's)" in text
    assert "distance (AP): 2 from Hanssen at Hamburg" in text


def test_the_house_is_told_only_what_it_attempts(lm, state):
    message = check(lm, state, "Hansa", "action Hanssen AA Antwerp").message
    assert "Catholic" not in message and "AP from" not in message
    state = resolve(lm, state, {"Hansa": "action Hanssen AA Antwerp"})
    (item,) = [r for r in state.report.rulings if r.kind == "action"]
    assert "Catholic" not in item.brief

"""The freeform ruleset: free orders, GM results public and private, the campaign's own map."""

import json

import pytest

from engine.core import Dice, IllegalAction, RulesError, Setup, UploadError, Verdict, Viewer, Visibility, Window
from engine.rulesets import get

SEED = b"\x02" * 32
REGIONS = """
[[region]]
name = "Gaul"
owner = "Rome"
links = ["Iberia"]
[[region]]
name = "Iberia"
x = 20
y = 70
"""


@pytest.fixture
def ff():
    return get("freeform")


@pytest.fixture
def state(ff):
    return ff.setup(Setup(("Rome", "Carthage"), ff.parse_options({}), Dice(SEED, "setup"), {"regions": REGIONS}))


def test_orders_are_echoed_line_by_line(ff, state):
    checks = ff.check(state, "Rome", "  march   on Gaul \n\n# a comment\nbuild a fleet")
    assert [(c.line, c.canonical, c.verdict) for c in checks] == [
        (1, "march on Gaul", Verdict.ACCEPTED), (4, "build a fleet", Verdict.ACCEPTED)]


def test_resolve_posts_public_and_private_results_and_reveals_orders(ff, state):
    gm = Viewer.gm()
    state = ff.act(state, gm, "result all: Rome marches north.", Dice(SEED, "a")).state
    state = ff.act(state, gm, "result carthage: Your spies report legions.", Dice(SEED, "b")).state
    step = ff.resolve(state, {"Rome": ["march on Gaul"]}, Dice(SEED, "r"))
    texts = {e.text: e.visibility for e in step.events}
    assert texts["Rome marches north."] == Visibility.everyone()
    assert texts["Your spies report legions."] == Visibility.to("Carthage")
    assert "**Rome** ordered:\n> march on Gaul" in texts
    assert step.state.turn == 2 and step.state.pending == []
    assert ff.phase(step.state).window is Window.ORDERS


def test_players_cannot_write_results(ff, state):
    with pytest.raises(IllegalAction, match="only the GM"):
        ff.act(state, Viewer.of_seat("Rome"), "result all: I win", Dice(SEED, "x"))


def test_a_seat_sees_only_its_own_sheet(ff, state):
    state = ff.act(state, Viewer.gm(), "sheet Rome: 12 legions, 40 talents", Dice(SEED, "s")).state
    assert "12 legions" in ff.view(state, Viewer.of_seat("Rome")).sheet
    assert "12 legions" not in ff.view(state, Viewer.of_seat("Carthage")).sheet
    assert "12 legions" not in ff.view(state, Viewer.spectator()).sheet


def test_map_renders_regions_and_none_without(ff, state):
    png = ff.render(state, Viewer.spectator())
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    bare = ff.setup(Setup(("A",), ff.parse_options({}), Dice(SEED, "s")))
    assert ff.render(bare, Viewer.spectator()) is None


def test_region_owner_changes_and_state_round_trips(ff, state):
    state = ff.act(state, Viewer.gm(), "region iberia owner Carthage", Dice(SEED, "o")).state
    again = ff.load(ff.dump(state))
    assert again == state
    assert [r.owner for r in again.regions] == ["Rome", "Carthage"]


def test_results_waiting_and_sheets_are_saved_in_the_shape_older_saves_have(ff, state):
    """The record codec writes what the hand-written dump wrote: older saves load, newer ones read the same."""
    gm = Viewer.gm()
    state = ff.act(state, gm, "result carthage: Your spies report legions.", Dice(SEED, "b")).state
    state = ff.act(state, gm, "sheet Rome: 12 legions", Dice(SEED, "s")).state
    saved = json.loads(json.dumps(ff.dump(state)))
    assert saved["pending"] == [{"to": "Carthage", "text": "Your spies report legions."}]
    assert saved["sheets"] == {"Rome": "12 legions"}
    assert saved["regions"][0] == {"name": "Gaul", "x": None, "y": None, "owner": "Rome", "links": ["Iberia"]}
    assert saved["regions"][1]["x"] == 20
    again = ff.load(saved)
    assert again == state and again.pending[0].to == "Carthage" and isinstance(again.regions[0].links, tuple)


def test_bad_region_files_are_refused_with_reason(ff):
    with pytest.raises(UploadError, match="links to `Nowhere`"):
        ff.check_upload("regions", '[[region]]\nname = "A"\nlinks = ["Nowhere"]')


def test_options_match_with_hyphens_or_underscores_and_unknown_ones_are_named(ff):
    assert ff.parse_options({"reveal-orders": "no", "MAX_SEATS": "3"}) == {
        "reveal_orders": False, "fog": False, "max_seats": 3}
    with pytest.raises(RulesError, match="unknown option speed"):
        ff.parse_options({"speed": "fast"})

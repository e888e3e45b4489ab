"""Canonical action texts, clear refusals, the summary and sheet, the picture, options and timers."""

import io

import pytest
from PIL import Image

from engine.core import IllegalAction, RulesError, Viewer
from engine.rulesets import get
from engine.rulesets.terra_prime import TerraPrime
from engine.rulesets.terra_prime.commands import parse
from tests.engine.terra_prime.helpers import TP, LoadedDice, act, new_game, texts


def test_the_ruleset_is_registered_as_terra_prime():
    assert isinstance(get("terra-prime"), TerraPrime)
    assert TP.seat_rule({}, {}).minimum == 2 and TP.seat_rule({}, {}).maximum == 5


@pytest.mark.parametrize(("written", "canonical"), [
    ("Move  4", "move 4"), ("explore 12", "explore 12"), ("orient 3", "orient 3"),
    ("deliver red green, green", "deliver green green red"), ("deliver 2 green red", "deliver green green red"),
    ("colonise Green", "colonize green"), ("install fuel cell", "install fuel-cell"),
    ("upgrade weapon die", "upgrade weapon-die"), ("negotiate 2 yellow blue", "negotiate blue yellow yellow"),
    ("PASS", "pass"), ("lose cargo hold", "lose cargo-hold"), ("shuttle red", "shuttle red"),
])
def test_actions_read_loosely_and_format_canonically(written, canonical):
    assert parse(written).text() == canonical
    assert parse(canonical).text() == canonical


@pytest.mark.parametrize(("text", "reason"), [
    ("", "no action given"), ("jump 3", "not a Terra Prime action"), ("move", "takes one number"),
    ("deliver", "needs the cubes"), ("deliver purple", "not a resource colour"), ("install laser", "takes one of"),
    ("pass now", "takes nothing after it"),
])
def test_unreadable_actions_say_what_is_wrong(text, reason):
    with pytest.raises(IllegalAction, match=reason):
        parse(text)


def test_illegal_actions_say_why():
    state = new_game()
    with pytest.raises(IllegalAction, match="nothing to decide now"):
        act(state, "fight")
    with pytest.raises(IllegalAction, match="no cube to collect"):
        act(state, "collect")
    with pytest.raises(IllegalAction, match="Terra Prime itself cannot be colonized"):
        act(state, "colonize green")


def test_a_pending_decision_offers_only_its_answers_to_only_the_deciding_seat():
    state = new_game()
    state.tile(1).design = "G03"
    state, _ = act(state, "explore 2")
    assert all(t.startswith("orient") for t in texts(state))
    assert TP.view(state, Viewer.of_seat("Ben")).actions == ()
    with pytest.raises(IllegalAction, match="first orient tile 1"):
        act(state, "pass")
    assert "must orient tile 1" in TP.view(state, Viewer.spectator()).summary


def test_labels_fit_discord_and_groups_name_the_kind_of_action():
    state = new_game()
    actions = TP.view(state, Viewer.of_seat("Ana")).actions
    assert {a.group for a in actions} >= {"explore", "move", "scan", "pass", "install"}
    assert all(len(a.label) <= 80 for a in actions)


def test_the_summary_shows_turn_scores_prices_and_the_cargo_ship():
    summary = TP.view(new_game(), Viewer.spectator()).summary
    assert "**Round 1**, **Ana**'s turn — 2 action(s) left." in summary
    assert "- **Ben**: 0 leadership, 2 credits, at Terra Prime, 16 markers left" in summary
    assert "Earth pays: green 3 (1 on track)" in summary and "Cargo Ship: 0/6" in summary


def test_the_sheet_lists_modules_cargo_markers_and_tech():
    sheet = TP.view(new_game(), Viewer.of_seat("Ana")).sheet
    for part in ("Modules:", "weapon 0/2", "Cargo (0/2): empty", "Colony markers: 1/1 aboard, 15 in supply",
                 "Tech: holds: —", "Next tech (paid in cubes at Terra Prime): 4 cargo holds (green, blue); "):
        assert part in sheet


def test_the_sheet_prices_the_next_tech_steps_by_the_campaigns_costs():
    state = new_game(tech_costs="cheap")
    state.ships["Ana"].tech = ["holds", "fuel", "explore"]
    sheet = TP.view(state, Viewer.of_seat("Ana")).sheet
    assert ("cargo shuttle (green, blue); cryo chamber (green, blue); extra action (green, blue); "
            "4 weapons (green); 4 shields (blue)") in sheet
    state = new_game()
    state.ships["Ana"].tech = ["holds", "fuel", "explore"]
    assert "extra action (blue, red, red)" in TP.view(state, Viewer.of_seat("Ana")).sheet


def test_the_board_picture_is_a_discord_sized_png():
    state = new_game(("Ana", "Ben", "Cleo", "Dev"))
    picture = TP.render(state, Viewer.spectator())
    image = Image.open(io.BytesIO(picture))
    assert picture[:8] == b"\x89PNG\r\n\x1a\n" and 1000 <= image.width <= 1400 and image.height <= 1400


def test_the_timer_passes_or_takes_the_safe_answer_by_default():
    state = new_game()
    assert TP.timeout_action(state, "Ana") == "pass"
    assert TP.timeout_action(state, "Ben") is None
    state.tile(1).design = "Y08"
    state.ship.modules["weapon"] = 1
    state, _ = act(state, "explore 2", LoadedDice(1, 1))
    assert TP.timeout_action(state, "Ana") == "ignore"


def test_the_timer_can_hand_the_turn_to_the_automatic_player():
    state = new_game(timeout="auto")
    assert TP.timeout_action(state, "Ana") == TP.autoplay(state, "Ana", LoadedDice())
    assert TP.timeout_action(state, "Ana") in texts(state)


def test_options_are_checked():
    with pytest.raises(RulesError, match="board"):
        TP.parse_options({"board": "donut"})
    assert TP.parse_options({"production": "sector"})["production"] == "sector"

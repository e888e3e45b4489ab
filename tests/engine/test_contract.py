"""The ruleset contract, the same checks for every registered ruleset: setup, view, legal actions, act, check,
resolve, dump/load, render and hidden information. A ruleset added to the registry is held to them at once."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine.core import Dice, Event, Phase, Ruleset, Setup, Verdict, View, Viewer, Window
from engine.core.errors import RulesError
from engine.rulesets import available, get

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SEED = b"\x0e" * 32

# What each ruleset needs to start: its files, and a first order form for a seat (an order window's first lines).
FILES: dict[str, Callable[[], dict[str, str]]] = {
    "freeform": lambda: {"regions": (EXAMPLES / "freeform" / "regions.toml").read_text()},
    "lote-modern": lambda: {name: (EXAMPLES / "lote-modern" / f"{name}.toml").read_text()
                            for name in ("sheets", "map")},
}
SEATS = {"freeform": ("Rome", "Egypt", "Gaul"), "terra-prime": ("Ana", "Ben", "Cy"),
         "terra-nova": ("Spain", "Portugal", "England")}
ORDERS = {"freeform": "march on Gaul\nbuild a fleet", "terra-nova": "buy 2 soldier\npay 1 to Portugal",
          "lote-modern": "build 4 i at London\nnote a secret plan for the GM"}

# A GM action that tells one seat a secret, where the ruleset has one.
SECRETS = {"freeform": "result Egypt: the secret of the Nile is that it floods every year"}

RULESETS = available()


def test_every_ruleset_of_the_registry_is_checked() -> None:
    assert set(RULESETS) == {"freeform", "terra-prime", "terra-nova", "lote-modern"}


def start(ruleset_id: str) -> tuple[Ruleset[Any], Any, tuple[str, ...]]:
    ruleset = get(ruleset_id)
    files = FILES.get(ruleset_id, dict)()
    options = ruleset.parse_options({})
    rule = ruleset.seat_rule(options, files)
    seats = rule.names or SEATS[ruleset_id]
    if ruleset_id == "freeform":
        seats = tuple(sorted({line.split("=")[1].strip().strip('"')
                              for line in files["regions"].splitlines() if line.startswith("owner")}))
    assert rule.minimum <= len(seats) <= rule.maximum
    return ruleset, ruleset.setup(Setup(seats, options, Dice(SEED, "setup"), files)), seats


def round_trip(ruleset: Ruleset[Any], state: Any) -> Any:
    return ruleset.load(json.loads(json.dumps(ruleset.dump(state))))


def viewers(seats: tuple[str, ...]) -> list[Viewer]:
    return [Viewer.gm(), Viewer.spectator(), *(Viewer.of_seat(s) for s in seats)]


def complete(action: str) -> bool:
    """An action as it stands (not a template to complete, like `edit <nation> ...`), that does not end the game."""
    return "<" not in action and not action.endswith(" ") and not action.startswith("end")


def advance(ruleset: Ruleset[Any], state: Any, seats: tuple[str, ...], n: int) -> tuple[Any, list[Event]]:
    """One move of play from wherever the game waits: the waiting seat's (or the GM's) first legal action, or
    every seat's order form checked and resolved."""
    phase = ruleset.phase(state)
    dice = Dice(SEED, f"move{n}")
    if phase.window is Window.ORDERS:
        orders = {}
        for seat in sorted(phase.waiting) or seats:
            text = ORDERS.get(ruleset.id, "note nothing")
            orders[seat] = [c.canonical for c in ruleset.check(state, seat, text) if c.accepted]
        step = ruleset.resolve(state, orders, dice)
        return step.state, list(step.events)
    if phase.window is Window.TURN:
        seat = sorted(phase.waiting)[0]
        action = ruleset.autoplay(state, seat, dice) or ruleset.view(state, Viewer.of_seat(seat)).actions[0].text
        step = ruleset.act(state, Viewer.of_seat(seat), action, dice)
        return step.state, list(step.events)
    offered = [a.text for a in ruleset.view(state, Viewer.gm()).actions if not a.text.startswith("end")]
    # an action as it stands, else the first that the GM completes with words of their own (`rule 3 `)
    gm_actions = [a for a in offered if complete(a)] + [a + "Noted." for a in offered if a.endswith(" ")]
    assert gm_actions, f"{ruleset.id} waits for the GM ({phase.label}) and offers the GM nothing to do"
    for text in gm_actions:   # the first that moves the game on (a ruling not yet given, then `publish`)
        step = ruleset.act(round_trip(ruleset, state), Viewer.gm(), text, dice)
        if ruleset.phase(step.state) != phase:
            break
    else:
        step = ruleset.act(state, Viewer.gm(), gm_actions[0], dice)
    return step.state, list(step.events)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_setup_gives_a_phase_and_a_view_for_everyone(ruleset_id: str) -> None:
    ruleset, state, seats = start(ruleset_id)
    phase = ruleset.phase(state)
    assert isinstance(phase, Phase) and not phase.ended and phase.label
    assert phase.waiting <= set(seats)
    for viewer in viewers(seats):
        view = ruleset.view(state, viewer)
        assert isinstance(view, View) and view.summary
        assert all(a.text and a.label for a in view.actions)
        assert len({a.text for a in view.actions}) == len(view.actions)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_legal_actions_are_accepted_and_others_refused_with_a_reason(ruleset_id: str) -> None:
    ruleset, state, seats = start(ruleset_id)
    for viewer in viewers(seats):
        for action in ruleset.view(state, viewer).actions[:3]:
            if not complete(action.text):
                continue
            step = ruleset.act(round_trip(ruleset, state), viewer, action.text, Dice(SEED, "try"))
            assert step.state is not None
    with pytest.raises(RulesError) as refused:
        ruleset.act(round_trip(ruleset, state), Viewer.spectator(), "conquer the world", Dice(SEED, "no"))
    assert str(refused.value)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_order_checks_echo_canonical_lines_that_check_the_same(ruleset_id: str) -> None:
    ruleset, state, seats = start(ruleset_id)
    phase = ruleset.phase(state)
    if phase.window is not Window.ORDERS:
        with pytest.raises(RulesError):
            ruleset.check(state, seats[0], "anything")
        return
    seat = sorted(phase.waiting)[0]
    before = ruleset.dump(state)
    checks = ruleset.check(state, seat, ORDERS[ruleset_id] + "\nfrobnicate the moon " + "x" * 600)
    assert ruleset.dump(state) == before, "checking changed the state"
    assert checks[-1].verdict is Verdict.REJECTED and checks[-1].message
    for check in checks[:-1]:
        assert check.accepted, check.message
        assert ruleset.check(state, seat, check.canonical)[0].canonical == check.canonical


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_play_goes_on_the_same_from_a_saved_copy(ruleset_id: str) -> None:
    ruleset, state, seats = start(ruleset_id)
    for n in range(8):
        if ruleset.phase(state).ended:
            break
        saved = round_trip(ruleset, state)
        assert ruleset.dump(saved) == ruleset.dump(state)
        state, events = advance(ruleset, state, seats, n)
        again, events_again = advance(ruleset, saved, seats, n)
        assert ruleset.dump(again) == ruleset.dump(state)
        assert [(e.text, e.visibility) for e in events_again] == [(e.text, e.visibility) for e in events]


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_a_map_is_a_png_or_none_for_every_viewer(ruleset_id: str) -> None:
    ruleset, state, seats = start(ruleset_id)
    for viewer in viewers(seats):
        png = ruleset.render(state, viewer)
        assert png is None or png.startswith(b"\x89PNG\r\n\x1a\n")


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_what_is_private_stays_with_whom_it_is_for(ruleset_id: str) -> None:
    ruleset, state, seats = start(ruleset_id)
    private: list[Event] = []
    if ruleset_id in SECRETS:
        state = ruleset.act(state, Viewer.gm(), SECRETS[ruleset_id], Dice(SEED, "secret")).state
    for n in range(8):
        if ruleset.phase(state).ended:
            break
        state, events = advance(ruleset, state, seats, n)
        private += [e for e in events if not e.visibility.public]
    public_view = ruleset.view(state, Viewer.spectator())
    public_text = public_view.summary + public_view.sheet + " ".join(a.text for a in public_view.actions)
    for event in private:
        if len(event.text) > 20:
            assert event.text not in public_text, f"{event.visibility.label}: {event.text}"
    for seat in seats:   # nor does a seat's view show what was told to others, or to the GM alone
        seat_view = ruleset.view(state, Viewer.of_seat(seat))
        seat_text = seat_view.summary + seat_view.sheet + " ".join(a.text for a in seat_view.actions)
        for event in private:
            if len(event.text) > 20 and not event.visibility.allows(Viewer.of_seat(seat)):
                assert event.text not in seat_text, f"{seat} sees {event.visibility.label}: {event.text}"
    sheets = {seat: ruleset.view(state, Viewer.of_seat(seat)).sheet for seat in seats}
    for seat, sheet in sheets.items():
        if len(sheet) < 20:
            continue
        assert sheet not in public_text
        for other in seats:
            if other != seat:
                other_view = ruleset.view(state, Viewer.of_seat(other))
                assert sheet not in other_view.summary + other_view.sheet
    assert copy.deepcopy(public_view) == ruleset.view(state, Viewer.spectator())


def first_move(ruleset: Ruleset[Any], state: Any, seats: tuple[str, ...]) -> tuple[str, str] | None:
    """A seat and what it would give now: its order form in an order window, its first legal action on its turn."""
    phase = ruleset.phase(state)
    if phase.window is Window.ORDERS:
        seat = sorted(phase.waiting)[0] if phase.waiting else seats[0]
        return seat, ORDERS.get(ruleset.id, "note nothing")
    if phase.window is Window.TURN:
        seat = sorted(phase.waiting)[0]
        actions = [a.text for a in ruleset.view(state, Viewer.of_seat(seat)).actions if complete(a.text)]
        return (seat, actions[0]) if actions else None
    return None


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_looking_changes_nothing(ruleset_id: str) -> None:
    """Views, maps, a seat's pending orders on its map and the odds are all read-only, for every viewer."""
    ruleset, state, seats = start(ruleset_id)
    for n in range(4):
        before = json.dumps(ruleset.dump(state), sort_keys=True)
        move = first_move(ruleset, state, seats)
        for viewer in viewers(seats):
            ruleset.view(state, viewer)
            png = ruleset.render(state, viewer)
            assert png is None or png.startswith(b"\x89PNG")
        if move is not None:
            seat, text = move
            pending = ([c.canonical for c in ruleset.check(state, seat, text) if c.accepted]
                       if ruleset.phase(state).window is Window.ORDERS else [])
            png = ruleset.render_orders(state, Viewer.of_seat(seat), pending)
            assert png is None or png.startswith(b"\x89PNG")
            try:
                odds = ruleset.odds(state, seat, text)
            except RulesError as refused:
                assert str(refused), "odds refused without a reason"
            else:
                assert isinstance(odds, str) and odds
        assert json.dumps(ruleset.dump(state), sort_keys=True) == before, f"looking changed the state at move {n}"
        if ruleset.phase(state).ended:
            break
        state, _ = advance(ruleset, state, seats, n)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_what_a_timeout_does_is_a_legal_move(ruleset_id: str) -> None:
    """A seat whose timer runs out gets an order form every line of which is accepted, or an action its turn
    allows, or nothing."""
    ruleset, state, seats = start(ruleset_id)
    for n in range(6):
        phase = ruleset.phase(state)
        if phase.ended:
            break
        for seat in sorted(phase.waiting):
            action = ruleset.timeout_action(state, seat)
            if action is None:
                continue
            if phase.window is Window.ORDERS:
                assert all(c.accepted for c in ruleset.check(state, seat, action)), action
            else:
                ruleset.act(round_trip(ruleset, state), Viewer.of_seat(seat), action, Dice(SEED, "timeout"))
        state, _ = advance(ruleset, state, seats, n)

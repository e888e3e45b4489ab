"""Hidden information: no nation's sheet reaches another nation, a spectator, a public event or the newsletter."""

from __future__ import annotations

import pytest

from engine.core import Viewer
from engine.rulesets.lote_modern.rules.research import research_projects
from engine.rulesets.lote_modern.state import GameState
from tests.engine.lote_modern.game.conftest import FixedDice, accepted

GM = Viewer.gm()
ORDERS = {
    "England": "build 4 i at London\nresearch steam_cruiser 20gp 1nfp\naction Franklin EX \"Atlantic Ocean\" 4ap\n"
               "borrow 10gp from England",
    "France": "research airships 60gp 2nfp\nbuild 6 i at Paris\naction Bugeaud DCL Antwerp",
    "Spain": "build 5 i at Madrid\nrevoke Hansa wool",
    "Hansa": "action Hanssen AA Antwerp\nconstruct mercantile-industry 1 at Danzig",
}


def secrets(state: GameState, name: str) -> set[str]:
    """Words only this nation's sheet holds: its leaders, armies, treasury and research."""
    n = state.nations[name]
    out = {x.name for x in n.leaders} | {a.name for a in n.armies}
    out.add(f"{n.gp:g} GP")
    out |= {f"R&D {research_projects()[p.name].name}" for p in n.projects if p.kind == "rd"}
    return out


def play_a_turn(lm, state):
    """Resolve, rule, edit and publish one turn; every event produced, with the state after."""
    events = []
    for text in ('edit England treasury.gp +17 "windfall"', "news The season is mild."):
        step = lm.act(state, GM, text, FixedDice())
        state, events = step.state, events + list(step.events)
    step = lm.resolve(state, {s: accepted(lm, state, s, t) for s, t in ORDERS.items()}, FixedDice())
    state, events = step.state, events + list(step.events)
    for item in state.report.rulings:
        step = lm.act(state, GM, f"rule {item.id} So ruled.", FixedDice())
        state, events = step.state, events + list(step.events)
    step = lm.act(state, GM, "publish", FixedDice())
    return step.state, events + list(step.events)


@pytest.fixture
def played(lm, state):
    before = {name: secrets(state, name) for name in state.nations}
    after_state, events = play_a_turn(lm, state)
    after = {name: secrets(after_state, name) for name in after_state.nations}
    return after_state, events, {name: before[name] | after[name] for name in before}


def test_a_nation_sees_only_its_own_sheet(lm, played):
    state, _, hidden = played
    for viewer in state.nations:
        view = lm.view(state, Viewer.of_seat(viewer))
        text = view.summary + view.sheet
        assert all(word in text for word in ({x.name for x in state.nations[viewer].leaders}))
        for other, words in hidden.items():
            if other != viewer:
                leaked = [w for w in words if w in text]
                assert not leaked, f"{viewer} sees {other}'s {leaked}"
        assert view.actions == ()


def test_spectators_see_the_newsletter_only(lm, played):
    state, _, hidden = played
    view = lm.view(state, Viewer.spectator())
    text = view.summary + view.sheet
    assert "The season is mild." in text
    for words in hidden.values():
        assert not [w for w in words if w in text]


def test_events_reach_only_those_they_are_for(lm, played):
    state, events, hidden = played
    for event in events:
        readers = [n for n in state.nations if event.visibility.allows(Viewer.of_seat(n))]
        if event.visibility.public:
            assert event.kind in ("newsletter", "map")
        for reader in readers:
            for other, words in hidden.items():
                if other != reader:
                    leaked = [w for w in words if w in event.text]
                    assert not leaked, f"{event.kind} event for {reader} leaks {other}'s {leaked}"
    results = [e for e in events if e.kind == "result"]
    assert len(results) == 4 and all(len(e.visibility.seats) == 1 for e in results)


def test_the_gm_sees_everything(lm, played):
    state, _, hidden = played
    desk = lm.view(state, GM).sheet
    for words in hidden.values():
        assert {w for w in words if not w.endswith(" GP")} <= {w for w in words if w in desk}


def test_rolls_are_private_to_their_nation_or_the_gm(lm, state):
    dice = FixedDice()
    lm.resolve(state, {s: accepted(lm, state, s, t) for s, t in ORDERS.items()}, dice)
    research = [r for r in dice.rolls if "/research/" in r.purpose]
    assert research and all(r.visibility.seats == {r.purpose.split("/")[0]} for r in research)
    rulings = [r for r in dice.rolls if r.purpose.startswith(("explore/", "merchant/")) or "/DCL" in r.purpose]
    assert rulings and all(r.visibility.label() == "gm" for r in rulings)

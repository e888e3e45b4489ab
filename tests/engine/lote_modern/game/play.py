"""Small helpers for scenario tests: GM edits, checking one line, resolving and publishing a turn."""

from __future__ import annotations

from engine.core import OrderCheck, Viewer
from engine.rulesets.lote_modern import LotEModern
from engine.rulesets.lote_modern.state import GameState
from tests.engine.lote_modern.game.conftest import FixedDice, accepted

GM = Viewer.gm()


def edit(lm: LotEModern, state: GameState, target: str, *edits: str) -> GameState:
    """GM edits of one nation's sheet (or `map`), each with a reason."""
    for e in edits:
        state = lm.act(state, GM, f'edit {target} {e} "scene"', FixedDice()).state
    return state


def check(lm: LotEModern, state: GameState, seat: str, line: str) -> OrderCheck:
    """The checker's answer to the last line of an order text."""
    return lm.check(state, seat, line)[-1]


def resolve(lm: LotEModern, state: GameState, orders: dict[str, str] | None = None,
            faces: dict[str, list[int]] | None = None) -> GameState:
    submitted = {seat: accepted(lm, state, seat, text) for seat, text in (orders or {}).items()}
    return lm.resolve(state, submitted, FixedDice(faces)).state


def publish(lm: LotEModern, state: GameState) -> GameState:
    assert state.report is not None
    for item in state.report.rulings:
        state = lm.act(state, GM, f"rule {item.id} Noted.", FixedDice()).state
    return lm.act(state, GM, "publish", FixedDice()).state


def lines(state: GameState, nation: str) -> str:
    assert state.report is not None
    return "\n".join(state.report.lines[nation])


def rulings(state: GameState, kind: str) -> list[str]:
    assert state.report is not None
    return [r.text for r in state.report.rulings if r.kind == kind]

"""A one-seat order-window ruleset whose resolution has GM-only news (for platform tests; not shipped)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core import (
    Dice,
    Event,
    OrderCheck,
    Phase,
    Ruleset,
    SeatRule,
    Setup,
    Step,
    Verdict,
    View,
    Viewer,
    Visibility,
    Window,
)
from engine.core.ruleset import OptionValue


class Secretive(Ruleset[dict[str, Any]]):
    id = "secretive"
    version = "1"
    title = "Secretive"

    def seat_rule(self, options: Mapping[str, OptionValue], files: Mapping[str, str]) -> SeatRule:
        return SeatRule(1, 3)

    def setup(self, ctx: Setup) -> dict[str, Any]:
        return {"turn": 1, "seats": list(ctx.seats)}

    def phase(self, state: dict[str, Any]) -> Phase:
        return Phase(state["turn"], "orders", f"Turn {state['turn']}", Window.ORDERS, frozenset(state["seats"]))

    def view(self, state: dict[str, Any], viewer: Viewer) -> View:
        return View(self.phase(state), f"Turn {state['turn']}")

    def check(self, state: dict[str, Any], seat: str, text: str) -> list[OrderCheck]:
        return [OrderCheck(1, text, Verdict.ACCEPTED, text)]

    def resolve(self, state: dict[str, Any], orders: Mapping[str, Sequence[str]], dice: Dice) -> Step[dict[str, Any]]:
        state["turn"] += 1
        dice.roll(1, 100, purpose="spy check", visibility=Visibility.gm_only())
        return Step(state, [Event("A quiet turn."), Event("the spy reports", Visibility.gm_only())])

    def dump(self, state: dict[str, Any]) -> dict[str, Any]:
        return state

    def load(self, data: dict[str, Any]) -> dict[str, Any]:
        return data

"""Nim, as a tiny turn-based ruleset for testing the platform's turn windows (not shipped)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from engine.core import (
    Action,
    Dice,
    Event,
    IllegalAction,
    NotYourTurn,
    Option,
    Phase,
    Ruleset,
    SeatRule,
    Setup,
    Step,
    View,
    Viewer,
    Window,
)
from engine.core.ruleset import OptionValue


@dataclass
class NimState:
    seats: list[str]
    stones: int
    active: int
    taken: int = 0
    winner: str | None = None


class Nim(Ruleset[NimState]):
    id = "nim"
    version = "1"
    title = "Nim"
    options = (Option("stones", 10, "stones on the table", minimum=1, maximum=50),)

    def seat_rule(self, options: Mapping[str, OptionValue], files: Mapping[str, str]) -> SeatRule:
        return SeatRule(2, 4, ("North", "East", "South", "West"))

    def setup(self, ctx: Setup) -> NimState:
        first = ctx.dice.roll(1, len(ctx.seats), purpose="first player").total - 1
        return NimState(list(ctx.seats), int(ctx.options["stones"]), first)

    def phase(self, state: NimState) -> Phase:
        if state.winner:
            return Phase(state.taken, "over", "Game over", Window.ENDED)
        seat = state.seats[state.active]
        return Phase(state.taken, seat, f"Move {state.taken + 1} — {seat}", Window.TURN, frozenset({seat}))

    def view(self, state: NimState, viewer: Viewer) -> View:
        actions: tuple[Action, ...] = ()
        if viewer.seat == state.seats[state.active] and not state.winner:
            actions = tuple(Action(f"take {n}", f"Take {n}", "take") for n in (1, 2, 3) if n <= state.stones)
        summary = f"{state.winner} won." if state.winner else f"{state.stones} stones left."
        return View(self.phase(state), summary, summary, actions)

    def act(self, state: NimState, actor: Viewer, action: str, dice: Dice) -> Step[NimState]:
        seat = state.seats[state.active]
        if actor.seat != seat:
            raise NotYourTurn(f"not your turn: it is {seat}'s")
        parts = action.split()
        if len(parts) != 2 or parts[0] != "take" or parts[1] not in ("1", "2", "3"):
            raise IllegalAction("take 1, take 2 or take 3")
        n = int(parts[1])
        if n > state.stones:
            raise IllegalAction(f"only {state.stones} stones are left")
        state.stones -= n
        state.taken += 1
        events = [Event(f"{seat} takes {n}; {state.stones} left.")]
        if state.stones == 0:
            state.winner = seat
            events.append(Event(f"{seat} takes the last stone and wins!"))
        else:
            state.active = (state.active + 1) % len(state.seats)
        return Step(state, events)

    def autoplay(self, state: NimState, seat: str, dice: Dice) -> str | None:
        return f"take {state.stones % 4 or 1}"

    def timeout_action(self, state: NimState, seat: str) -> str | None:
        return "take 1"

    def render(self, state: NimState, viewer: Viewer) -> bytes | None:
        return None

    def dump(self, state: NimState) -> dict[str, Any]:
        return asdict(state)

    def load(self, data: dict[str, Any]) -> NimState:
        return NimState(**data)

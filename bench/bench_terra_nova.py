"""Terra Nova: one turn's resolution for five powers with the East Indies, and the map render."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from engine.core import Dice, Setup, Viewer, Window
from engine.rulesets import get

SEED = bytes(32)
SEATS = ("Spain", "Portugal", "England", "France", "Holland")
OPTIONS = {"east_indies": "yes", "random_events": "off", "deflation": "off", "uprisings": "off"}

PURCHASES = {seat: ["buy 2 soldier", "buy 2 carrack", "buy 1 caravel"] for seat in SEATS}
CROSSINGS = {seat: [f"sail 2 carrack, 1 caravel from Europe to {dest} carrying 2 soldier, 1 settler"]
             for seat, dest in zip(SEATS, ("Cuba", "Vera Cruz", "Norumbega", "St Lawrence", "Guiana"), strict=True)}
LAND = {seat: [f"settle {dest}"]
        for seat, dest in zip(SEATS, ("Cuba", "Vera Cruz", "Norumbega", "St Lawrence", "Guiana"), strict=True)}


def _campaign() -> tuple[Any, Any]:
    tn = get("terra-nova")
    state = tn.setup(Setup(SEATS, tn.parse_options(OPTIONS), Dice(SEED, "setup")))
    return tn, state


def _turn() -> None:
    """Every window of turn 1, with orders: purchases, crossings, settlement, then the end of turn."""
    tn, state = _campaign()
    for seat in SEATS:                       # whatever B.2 rolled, each power has a settler to send
        state.force("Europe", seat).units["settler"] = 1
    tn.load(_play_turn(tn, state))


def _play_turn(tn: Any, state: Any) -> dict[str, Any]:
    orders = {"B5": PURCHASES, "C1": CROSSINGS, "D3": LAND}
    n = 0
    while state.turn == 1:
        phase = tn.phase(state)
        n += 1
        if phase.window is Window.ORDERS:
            state = tn.resolve(state, orders.get(phase.name, {}), Dice(SEED, f"w{n}")).state
        elif phase.window is Window.TURN:
            seat = sorted(phase.waiting)[0]
            state = tn.act(state, Viewer.of_seat(seat), "tactic none", Dice(SEED, f"w{n}")).state
        else:
            raise RuntimeError(f"unexpected window {phase}")
    return dict(tn.dump(state))


@functools.cache
def _after_turn_one() -> dict[str, Any]:
    """The dumped state once turn 1 is played: what a command loads from the database."""
    tn, state = _campaign()
    for seat in SEATS:
        state.force("Europe", seat).units["settler"] = 1
    return _play_turn(tn, state)


def _load() -> None:
    tn = get("terra-nova")
    data = _after_turn_one()
    for _ in range(20):
        tn.load(data)


def _dump() -> None:
    tn = get("terra-nova")
    state = tn.load(_after_turn_one())
    for _ in range(20):
        tn.dump(state)


def _render() -> None:
    tn, state = _campaign()
    tn.render(state, Viewer.spectator())


def _check() -> None:
    tn, state = _campaign()
    for seat in SEATS:
        tn.check(state, seat, "\n".join(PURCHASES[seat]))


def cases() -> dict[str, Callable[[], object]]:
    return {"terra nova turn, 5 powers + Indies": _turn, "terra nova map render": _render,
            "terra nova order check, 5 powers": _check, "terra nova state load after turn 1, ×20": _load,
            "terra nova state dump after turn 1, ×20": _dump}

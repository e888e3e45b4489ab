"""Earth and the Cargo Ship: consumption, prices, deliveries and shipments (TP Deliver Resources)."""

from __future__ import annotations

from engine.core.events import Event
from engine.rulesets.terra_prime.data import rules
from engine.rulesets.terra_prime.state import GameState


def ship_size(state: GameState) -> int:
    return rules().cargo_ship[len(state.seats)]


def free_slots(state: GameState) -> int:
    return 0 if state.cargo_ship_away else ship_size(state) - len(state.cargo_ship)


def price(state: GameState, resource: str) -> int:
    """Credits per cube now: the fuller Earth's track, the lower the price."""
    return rules().resource(resource).price_at(state.earth[resource])


def consume(state: GameState, events: list[Event]) -> None:
    """Start of a round: Earth uses the top cube of every track that has one (TP Rounds of Turns)."""
    used = []
    for key in rules().resource_keys:
        if state.earth[key]:
            state.earth[key] -= 1
            state.supply[key] += 1
            used.append(key)
    if used:
        events.append(Event(f"Earth consumes {', '.join(used)}.", kind="earth"))


def deliver(state: GameState, cubes: tuple[str, ...], events: list[Event], *, by_shuttle: bool) -> int:
    """Load cubes on the Cargo Ship at today's prices; a full ship leaves for Earth. Returns credits paid.

    A shuttle's cubes that do not fit go to Earth with the ship and are paid all the same (TP Cargo Shuttle).
    """
    paid = sum(price(state, c) for c in cubes)
    room = free_slots(state)
    state.cargo_ship.extend(cubes[:room])
    extra = list(cubes[room:])
    state.ships[state.seat].credits += paid
    how = "by cargo shuttle" if by_shuttle else "at Terra Prime"
    events.append(Event(f"**{state.seat}** delivers {', '.join(cubes)} {how} for {paid} credits.", kind="deliver",
                        data={"seat": state.seat, "cubes": list(cubes), "credits": paid}))
    if len(state.cargo_ship) >= ship_size(state):
        _ship_out(state, extra, events)
    return paid


def _ship_out(state: GameState, extra: list[str], events: list[Event]) -> None:
    """The full Cargo Ship flies to Earth: its cubes go onto the tracks (overflow back to supply)."""
    for cube in state.cargo_ship + extra:
        if state.earth[cube] < rules().resource(cube).track_size:
            state.earth[cube] += 1
        else:
            state.supply[cube] += 1
    state.cargo_ship = []
    state.cargo_ship_away = True
    events.append(Event("The Cargo Ship is full and leaves for Earth; it is back next turn. New prices: "
                        + ", ".join(f"{k} {price(state, k)}" for k in rules().resource_keys) + ".", kind="earth"))

"""A Command Ship's numbers: holds, fuel cells, dice, capacities and prices (TP Available Modules)."""

from __future__ import annotations

from collections.abc import Iterable

from engine.rulesets.terra_prime.data import TechStep, rules
from engine.rulesets.terra_prime.state import Ship

# The first step of each track lifts that module's capacity from 2 to 4.
CAPACITY_STEP = {"holds": "holds", "fuel": "fuel", "weapons": "weapons", "shields": "shields"}


def total(ship: Ship, module: str) -> int:
    """Modules of a type on the ship, built-ins included."""
    return rules().module(module).built_in + ship.count(module)


def in_use(ships: Iterable[Ship], module: str) -> int:
    """Module tiles of a type out of the box, on every ship (built-ins are printed, not tiles)."""
    return sum(ship.count(module) for ship in ships)


def capacity(ship: Ship, module: str) -> int:
    printed = rules().printed
    if module == "shuttle":
        return 1 if "shuttle" in ship.tech else 0
    step = CAPACITY_STEP[rules().module(module).track]
    return printed.module_cap_upgraded if step in ship.tech else printed.module_cap


def price(ship: Ship, module: str) -> int:
    """1 credit plus 1 per module of the type already installed; built-ins are not modules (TP Setup)."""
    return 1 + ship.count(module)


def cargo_room(ship: Ship) -> int:
    """Cube slots: 2 per hold; a docked shuttle takes 2 holds' 4 slots and carries 3 (TP Cargo Shuttle)."""
    printed = rules().printed
    room = printed.hold_slots * total(ship, "cargo-hold")
    if ship.count("shuttle"):
        room += printed.shuttle_slots - printed.shuttle_holds * printed.hold_slots
    return room


def actions_per_turn(ship: Ship) -> int:
    return 1 + total(ship, "fuel-cell") + (1 if "action" in ship.tech else 0)


def explores_per_turn(ship: Ship) -> int:
    return rules().printed.explores_per_turn + (1 if "explore" in ship.tech else 0)


def weapon_dice(ship: Ship) -> int:
    return ship.count("weapon") + (1 if "weapon-die" in ship.tech else 0)


def weapon_hit_on(ship: Ship) -> int:
    printed = rules().printed
    return printed.weapon_hit_on_upgraded if "weapon-aim" in ship.tech else printed.weapon_hit_on


def shield_dice(ship: Ship) -> int:
    return ship.count("shield") + (1 if "shield-die" in ship.tech else 0)


def cancel_on(ship: Ship) -> int:
    printed = rules().printed
    return printed.cancel_on_upgraded if "shield-aim" in ship.tech else printed.cancel_on


def marker_room(ship: Ship) -> int:
    printed = rules().printed
    return printed.cryo_markers if "cryo" in ship.tech else printed.ship_markers


def losable(ship: Ship) -> list[str]:
    """Module types that an uncancelled hit can take (never the built-in hold and fuel cell)."""
    return [m.key for m in rules().modules if ship.count(m.key)]


def markers_left(ship: Ship) -> int:
    return ship.markers_ship + ship.markers_supply


def next_steps(ship: Ship) -> list[TechStep]:
    """Tech steps the ship may buy next: in order on each track; branch steps after the track's first."""
    out = []
    for step in rules().tech:
        if step.step in ship.tech:
            continue
        track = [t for t in rules().tech if t.track == step.track]
        if step.branch:
            needed = [t.step for t in track if not t.branch]
        else:
            needed = [t.step for t in track[: track.index(step)] if not t.branch]
        if all(n in ship.tech for n in needed):
            out.append(step)
    return out


def has_cubes(cargo: list[str], cubes: tuple[str, ...] | list[str]) -> bool:
    pool = list(cargo)
    for c in cubes:
        if c not in pool:
            return False
        pool.remove(c)
    return True


def take_cubes(ship: Ship, cubes: tuple[str, ...] | list[str]) -> None:
    for c in cubes:
        ship.cargo.remove(c)

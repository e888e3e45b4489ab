"""Every legal action for the acting seat, with button labels and groups (candidates filtered by `check`)."""

from __future__ import annotations

import itertools
from collections import Counter

from engine.core.actions import Action
from engine.core.errors import IllegalAction
from engine.rulesets.terra_prime import command_ship as cs
from engine.rulesets.terra_prime import earth
from engine.rulesets.terra_prime.commands import Command, sort_cubes
from engine.rulesets.terra_prime.data import rules
from engine.rulesets.terra_prime.legality import check, pending, produce_choices
from engine.rulesets.terra_prime.space import (
    board_of,
    colony_value,
    describe_sector,
    design,
    face_down,
    orientations,
    placement,
)
from engine.rulesets.terra_prime.state import GameState

MAX_LABEL = 80


def cube_sets(cargo: list[str], most: int) -> list[tuple[str, ...]]:
    """Every non-empty choice of up to `most` cubes from the cargo (colours matter, order does not)."""
    counts = Counter(cargo)
    colours = [k for k in rules().resource_keys if counts[k]]
    out = []
    for picks in itertools.product(*(range(counts[c] + 1) for c in colours)):
        total = sum(picks)
        if 1 <= total <= most:
            out.append(sort_cubes([c for c, n in zip(colours, picks, strict=True) for _ in range(n)]))
    return sorted(out, key=lambda cubes: (-len(cubes), cubes))


def _label(text: str) -> str:
    return text if len(text) <= MAX_LABEL else text[: MAX_LABEL - 1] + "…"


def candidates(state: GameState) -> list[tuple[Command, str]]:
    """Actions worth asking `check` about, with their labels."""
    item = pending(state)
    ship = state.ship
    out: list[tuple[Command, str]] = []
    if item is not None:
        kind = item["do"]
        if kind == "orient":
            for r in orientations(state, item["tile"]):
                spots = placement(state, item["tile"], r)
                where = ", ".join(f"{c.describe()}→{s}" for s, c in spots) or "nothing to place"
                out.append((Command("orient", number=r), f"Turn {r}: {where}"))
        elif kind == "respond":
            symbols = design(state, item["tile"]).aliens
            dice_n = cs.weapon_dice(ship)
            out.append((Command("fight"), f"Fight: {dice_n} weapon dice against {symbols} alien symbols"))
            for cubes in cube_sets(ship.cargo, len(ship.cargo)):
                out.append((Command("negotiate", cubes=cubes), f"Offer {' '.join(cubes)} ({len(cubes)} dice)"))
            first = bool(item.get("first"))
            out.append((Command("ignore"), "Let them attack" if first else "Leave them be"))
        elif kind == "lose":
            for m in cs.losable(ship):
                out.append((Command("lose", name=m), f"Lose a {rules().module(m).name} (have {ship.count(m)})"))
        elif kind == "overflow":
            for c in sorted(set(ship.cargo), key=rules().resource_keys.index):
                out.append((Command("discard", name=c), f"Throw a {c} cube overboard"))
        else:
            for c in produce_choices(state, item["sector"]):
                out.append((Command("produce", name=c), f"Produce {c} ({earth.price(state, c)} credits now)"))
        return out
    b = board_of(state)
    for n in b.neighbours[ship.sector]:
        if face_down(state, n):
            out.append((Command("explore", number=n), f"Explore sector {n} ({b.band(face_down(state, n)[0])} tile)"))
        else:
            out.append((Command("move", number=n), f"Move to sector {n}: {describe_sector(state, n)}"))
    colony = state.colonies.get(str(ship.sector))
    if colony and colony.cube:
        out.append((Command("collect"), f"Collect the {colony.cube} cube here"))
    value = colony_value(state, ship.sector)
    for colour in [*rules().resource_keys, "field"]:
        what = "Mine the asteroid field" if colour == "field" else f"Colonize the {colour} planet"
        out.append((Command("colonize", name=colour), f"{what} (+{value} leadership)"))
    if ship.sector == 0 and not state.cargo_ship_away:
        for cubes in cube_sets(ship.cargo, earth.free_slots(state)):
            paid = sum(earth.price(state, c) for c in cubes)
            out.append((Command("deliver", cubes=cubes), f"Deliver {' '.join(cubes)} for {paid} credits"))
    if ship.count("shuttle") and not state.cargo_ship_away:
        for cubes in cube_sets(ship.cargo, rules().printed.shuttle_slots):
            paid = sum(earth.price(state, c) for c in cubes)
            out.append((Command("shuttle", cubes=cubes), f"Shuttle {' '.join(cubes)} to Earth for {paid} credits"))
    for spec in rules().modules:
        out.append((Command("install", name=spec.key),
                    f"Install a {spec.name} ({cs.price(ship, spec.key)} credits)"))
    for step in cs.next_steps(ship):
        paying = ", ".join(step.price(state.options))
        out.append((Command("upgrade", name=step.step), f"Upgrade: {step.name} (pay {paying})"))
    out.append((Command("refill"), f"Take colony markers aboard (room for {cs.marker_room(ship)})"))
    if ship.sector == 0:
        for pos in range(1, b.position_count() + 1):
            if not state.tile(pos).revealed and pos not in ship.peeks:
                out.append((Command("scan", number=pos), f"Scan face-down {b.band(pos)} tile {pos}"))
    out.append((Command("pass"), "Pass (do nothing)"))
    for c in sorted(set(ship.cargo), key=rules().resource_keys.index):
        out.append((Command("discard", name=c), f"Discard a {c} cube (free)"))
    return out


def legal(state: GameState) -> list[tuple[Command, str]]:
    out = []
    for cmd, label in candidates(state):
        try:
            check(state, cmd)
        except IllegalAction:
            continue
        out.append((cmd, label))
    return out


GROUPS = {"orient": "orient", "fight": "aliens", "negotiate": "aliens", "ignore": "aliens", "lose": "damage",
          "produce": "produce", "move": "move", "explore": "explore", "deliver": "deliver", "shuttle": "deliver",
          "discard": "cargo", "collect": "collect", "colonize": "colonize", "install": "install",
          "upgrade": "upgrade", "refill": "refill", "scan": "scan", "pass": "pass"}


def actions(state: GameState) -> tuple[Action, ...]:
    return tuple(Action(cmd.text(), _label(label), GROUPS[cmd.verb]) for cmd, label in legal(state))

"""What each action does (its legality is settled in `legality`). Follow-up steps go on the queue."""

from __future__ import annotations

from collections.abc import Callable

from engine.core.events import Event
from engine.core.rng import Dice
from engine.core.visibility import Visibility
from engine.rulesets.terra_prime import combat, earth
from engine.rulesets.terra_prime import command_ship as cs
from engine.rulesets.terra_prime.board import TERRA_PRIME
from engine.rulesets.terra_prime.commands import Command
from engine.rulesets.terra_prime.data import rules
from engine.rulesets.terra_prime.legality import module_planet
from engine.rulesets.terra_prime.scoring import check_markers, score, trigger_end
from engine.rulesets.terra_prime.space import (
    board_of,
    colony_planet,
    colony_value,
    design,
    face_down,
    hostile_tiles_around,
    placement,
    planets,
)
from engine.rulesets.terra_prime.state import Colony, GameState, Item


def push(state: GameState, items: list[Item]) -> None:
    """Queue steps to happen next, before anything already waiting."""
    state.queue[0:0] = items


def _enter(state: GameState, sector: int) -> None:
    ship = state.ship
    if ship.sector != sector:
        ship.visit_planets = []
        ship.visit_tracks = []
    ship.sector = sector


def perform(state: GameState, cmd: Command, dice: Dice, events: list[Event]) -> None:
    """Carry out one of the acting seat's actions (not a decision)."""
    if cmd.verb == "discard":  # free, at any time (TP Collect Resources)
        state.ship.cargo.remove(cmd.name)
        state.supply[cmd.name] += 1
        events.append(Event(f"**{state.seat}** discards a {cmd.name} cube.", kind="discard"))
        return
    state.attacked = []
    state.ship.left = state.ship.sector if cmd.verb in ("move", "explore") else None
    follow = ACTIONS[cmd.verb](state, cmd, dice, events)
    push(state, [*follow, {"do": "adjacent"}, {"do": "end-action"}])


def _move(state: GameState, cmd: Command, dice: Dice, events: list[Event]) -> list[Item]:
    _enter(state, cmd.number)
    events.append(Event(f"**{state.seat}** moves to sector {cmd.number}.", kind="move"))
    return [{"do": "field", "sector": cmd.number}]


def _explore(state: GameState, cmd: Command, dice: Dice, events: list[Event]) -> list[Item]:
    position = face_down(state, cmd.number)[0]
    tile = state.tile(position)
    tile.revealed = True
    state.explores_left -= 1
    _enter(state, cmd.number)
    face = design(state, position)
    events.append(Event(f"**{state.seat}** explores sector {cmd.number}: {face.band} tile {position} shows "
                        f"{face.describe()}.", kind="explore",
                        data={"seat": state.seat, "tile": position, "design": face.id}))
    band = board_of(state).band(position)
    if band == "yellow" and all(state.tile(p).revealed for p, bb in enumerate(board_of(state).layout.bands, 1)
                                if bb == "yellow"):
        trigger_end(state, "the last yellow space tile has been explored", events)
    follow: list[Item] = [{"do": "orient", "tile": position}]
    if face.strays:
        follow.append({"do": "strays", "tile": position})
    if face.aliens:
        follow.append({"do": "ambush", "tile": position})
    follow.append({"do": "field", "sector": cmd.number})
    return follow


def _collect(state: GameState, cmd: Command, dice: Dice, events: list[Event]) -> list[Item]:
    ship = state.ship
    colony = state.colonies[str(ship.sector)]
    cube = colony.cube
    assert cube is not None
    colony.cube = None
    ship.cargo.append(cube)
    ship.cargo.sort(key=rules().resource_keys.index)
    events.append(Event(f"**{state.seat}** collects a {cube} cube in sector {ship.sector}.", kind="collect"))
    if colony.owner != state.seat and not colony.is_mine:
        score(state, colony.owner, rules().printed.collect_points,
              f"{state.seat} collected at their colony", events)
    return [{"do": "overflow"}] if len(ship.cargo) > cs.cargo_room(ship) else []


def _colonize(state: GameState, cmd: Command, dice: Dice, events: list[Event]) -> list[Item]:
    ship = state.ship
    ship.markers_ship -= 1
    planet = None if cmd.name == "field" else next(p.key for p in planets(state, ship.sector) if p.colour == cmd.name)
    state.colonies[str(ship.sector)] = Colony(state.seat, cmd.name, planet=planet)
    what = "a mine on the asteroid field" if cmd.name == "field" else f"a colony on the {cmd.name} planet"
    events.append(Event(f"**{state.seat}** places {what} in sector {ship.sector}.", kind="colonize",
                        data={"seat": state.seat, "sector": ship.sector}))
    value = colony_value(state, ship.sector)
    count = len(planets(state, ship.sector))
    score(state, state.seat, value, f"sector {ship.sector}: {board_of(state).distance[ship.sector]} "
          f"to Terra Prime + {count} planet{'s' if count != 1 else ''}", events)
    check_markers(state, state.seat, events)
    return []


def _deliver(state: GameState, cmd: Command, dice: Dice, events: list[Event]) -> list[Item]:
    cs.take_cubes(state.ship, cmd.cubes)
    earth.deliver(state, cmd.cubes, events, by_shuttle=False)
    return []


def _shuttle(state: GameState, cmd: Command, dice: Dice, events: list[Event]) -> list[Item]:
    ship = state.ship
    cs.take_cubes(ship, cmd.cubes)
    del ship.modules["shuttle"]
    earth.deliver(state, cmd.cubes, events, by_shuttle=True)
    return []


def _install(state: GameState, cmd: Command, dice: Dice, events: list[Event]) -> list[Item]:
    ship = state.ship
    spec = rules().module(cmd.name)
    planet = module_planet(state, cmd.name)
    assert planet is not None
    cost = cs.price(ship, cmd.name)
    ship.credits -= cost
    ship.modules[cmd.name] = ship.count(cmd.name) + 1
    ship.visit_planets.append(planet)
    where = "Terra Prime" if planet == "outpost" else f"sector {ship.sector}"
    events.append(Event(f"**{state.seat}** installs a {spec.name} at {where} for {cost} credits.",
                        kind="install", data={"seat": state.seat, "module": cmd.name}))
    colony = state.colonies.get(str(ship.sector))
    if (planet != "outpost" and colony is not None and colony.owner != state.seat
            and planet == colony_planet(state, ship.sector)):
        score(state, colony.owner, rules().printed.install_points,
              f"{state.seat} installed a module at their colony", events)
    return []


def _upgrade(state: GameState, cmd: Command, dice: Dice, events: list[Event]) -> list[Item]:
    ship = state.ship
    step = rules().step(cmd.name)
    paid = step.price(state.options)
    cs.take_cubes(ship, paid)
    for c in paid:
        state.supply[c] += 1
    ship.tech.append(step.step)
    ship.visit_tracks.append(step.track)
    events.append(Event(f"**{state.seat}** upgrades: {step.name} (paid {', '.join(paid)}).", kind="upgrade",
                        data={"seat": state.seat, "step": step.step}))
    return []


def _refill(state: GameState, cmd: Command, dice: Dice, events: list[Event]) -> list[Item]:
    ship = state.ship
    taken = min(cs.marker_room(ship) - ship.markers_ship, ship.markers_supply)
    ship.markers_ship += taken
    ship.markers_supply -= taken
    events.append(Event(f"**{state.seat}** takes {taken} colony marker{'s' if taken != 1 else ''} aboard.",
                        kind="refill"))
    return []


def _scan(state: GameState, cmd: Command, dice: Dice, events: list[Event]) -> list[Item]:
    state.ship.peeks.append(cmd.number)
    face = design(state, cmd.number)
    events.append(Event(f"**{state.seat}** uses the satellite scanner on tile {cmd.number}.", kind="scan"))
    events.append(Event(f"Scanner: tile {cmd.number} ({face.band}) shows {face.describe()}.",
                        Visibility.to(state.seat), kind="peek",
                        data={"seat": state.seat, "tile": cmd.number, "design": face.id}))
    return []


def _pass(state: GameState, cmd: Command, dice: Dice, events: list[Event]) -> list[Item]:
    events.append(Event(f"**{state.seat}** passes.", kind="pass"))
    return []


Perform = Callable[[GameState, Command, Dice, list[Event]], list[Item]]
ACTIONS: dict[str, Perform] = {  # each returns the steps that follow the action
    "move": _move, "explore": _explore, "collect": _collect, "colonize": _colonize, "deliver": _deliver,
    "shuttle": _shuttle, "install": _install, "upgrade": _upgrade, "refill": _refill, "scan": _scan, "pass": _pass,
}


def decide(state: GameState, item: Item, cmd: Command, dice: Dice, events: list[Event]) -> None:
    """Apply the acting seat's answer to the pending decision `item` (already popped)."""
    ship = state.ship
    follow: list[Item] = []
    if cmd.verb == "orient":
        position = item["tile"]
        state.tile(position).rotation = cmd.number
        spots = placement(state, position, cmd.number)
        where = "; ".join(f"{c.describe()} in sector {s}" for s, c in spots) or "deep space all round"
        events.append(Event(f"**{state.seat}** places tile {position} (turn {cmd.number}): {where}.",
                            kind="orient", data={"tile": position, "rotation": cmd.number}))
    elif cmd.verb == "fight":
        follow = combat.fight(state, item["tile"], bool(item.get("first")), dice, events)
    elif cmd.verb == "negotiate":
        follow = combat.negotiate(state, item["tile"], bool(item.get("first")), cmd.cubes, dice, events)
    elif cmd.verb == "ignore":
        follow = combat.ignore(state, item["tile"], bool(item.get("first")), dice, events)
    elif cmd.verb == "lose":
        follow = combat.lose(state, cmd.name, events)
    elif cmd.verb == "discard":
        ship.cargo.remove(cmd.name)
        state.supply[cmd.name] += 1
        events.append(Event(f"**{state.seat}** throws a {cmd.name} cube overboard to make room.", kind="discard"))
        if len(ship.cargo) > cs.cargo_room(ship):
            follow = [{"do": "overflow"}]
    elif cmd.verb == "produce":
        _produce(state, item["sector"], cmd.name, events)
    push(state, follow)


def _produce(state: GameState, sector: int, colour: str, events: list[Event]) -> None:
    colony = state.colonies[str(sector)]
    colony.cube = colour
    state.supply[colour] -= 1
    events.append(Event(f"The colony in sector {sector} produces {colour}.", kind="produce"))


def automatic(state: GameState, item: Item, dice: Dice, events: list[Event]) -> None:
    """Steps that need no one's decision: asteroid and alien attacks, the end of an action."""
    kind = item["do"]
    follow: list[Item] = []
    if kind == "strays":
        follow = combat.stray_asteroids(state, item["tile"], dice, events)
    elif kind == "ambush":  # a freshly explored tile's aliens strike first (TP Hostile Aliens)
        count = design(state, item["tile"]).aliens
        follow = [*combat.alien_attack(state, item["tile"], count, dice, events),
                  {"do": "respond", "tile": item["tile"], "first": False}]
    elif kind == "field":
        follow = combat.asteroid_field(state, item["sector"], dice, events)
    elif kind == "adjacent":  # at the end of each action, neighbouring aliens strike (TP Diplomacy)
        here = state.ship.sector
        if here != TERRA_PRIME:
            follow = [{"do": "respond", "tile": p, "first": True}
                      for p in hostile_tiles_around(state, here) if p not in state.attacked]
    push(state, follow)


def produce_all(state: GameState, events: list[Event]) -> None:
    """Start of a turn: each of the seat's colonies without a cube makes one (TP Player Turns)."""
    sector_rule = state.options.get("production", "planet") == "sector"
    asks: list[Item] = []
    for key, colony in sorted(state.colonies.items(), key=lambda kv: int(kv[0])):
        if colony.owner != state.seat or colony.cube is not None:
            continue
        sector = int(key)
        if sector_rule and not colony.is_mine:
            asks.append({"do": "produce", "sector": sector})
            continue
        colour = rules().mine_produces if colony.is_mine else colony.target
        if state.supply[colour] > 0:
            _produce(state, sector, colour, events)
        else:
            events.append(Event(f"The colony in sector {sector} cannot produce: no {colour} cubes left.",
                                kind="produce"))
    push(state, asks)

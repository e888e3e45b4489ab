"""Whether an action is legal now, and if not, why (one source of truth for `act` and `view`)."""

from __future__ import annotations

from engine.core.errors import IllegalAction
from engine.rulesets.terra_prime import command_ship as cs
from engine.rulesets.terra_prime import earth
from engine.rulesets.terra_prime.board import TERRA_PRIME
from engine.rulesets.terra_prime.commands import Command
from engine.rulesets.terra_prime.data import rules
from engine.rulesets.terra_prime.space import board_of, colony_planet, face_down, fields, orientations, planets
from engine.rulesets.terra_prime.state import GameState, Item

DECISION_VERBS = {
    "orient": ("orient",),
    "respond": ("fight", "negotiate", "ignore"),
    "lose": ("lose",),
    "overflow": ("discard",),
    "produce": ("produce",),
}


def pending(state: GameState) -> Item | None:
    """The decision the acting seat must make before anything else, if any."""
    if state.queue and state.queue[0]["do"] in DECISION_VERBS:
        return state.queue[0]
    return None


def produce_choices(state: GameState, sector: int) -> list[str]:
    """Colours a colony may produce under the designer's alternative rule: any planet colour in its sector."""
    colours = []
    for p in planets(state, sector):
        if p.colour not in colours and state.supply[p.colour] > 0:
            colours.append(p.colour)
    return colours


def module_planet(state: GameState, module: str) -> str | None:
    """The planet (or "outpost") the acting ship would install `module` from, or None."""
    ship = state.ship
    spec = rules().module(module)
    if spec.at_outpost:
        return "outpost" if ship.sector == TERRA_PRIME and "outpost" not in ship.visit_planets else None
    need_colony = bool(state.options.get("modules_need_colony", False))
    settled = colony_planet(state, ship.sector)
    candidates = []
    for p in planets(state, ship.sector):
        if p.colour not in spec.planets or p.key in ship.visit_planets:
            continue
        colonised = p.key == settled
        if need_colony and not colonised:
            continue
        candidates.append((colonised, p.key))
    return min(candidates)[1] if candidates else None


def check(state: GameState, cmd: Command) -> None:
    """Raise IllegalAction saying why `cmd` cannot be taken by the acting seat now."""
    if state.ended:
        raise IllegalAction("the game is over")
    item = pending(state)
    if item is not None:
        _check_decision(state, item, cmd)
        return
    if any(cmd.verb in verbs for verbs in DECISION_VERBS.values()) and cmd.verb != "discard":
        raise IllegalAction(f"there is nothing to decide now; `{cmd.verb}` answers a question the game asks")
    _check_action(state, cmd)


def _check_decision(state: GameState, item: Item, cmd: Command) -> None:
    ship = state.ship
    kind = item["do"]
    if cmd.verb not in DECISION_VERBS[kind]:
        raise IllegalAction(f"first {describe(state, item)} ({' / '.join(DECISION_VERBS[kind])})")
    if cmd.verb == "orient" and cmd.number not in orientations(state, item["tile"]):
        allowed = ", ".join(str(r) for r in orientations(state, item["tile"]))
        raise IllegalAction(f"tile {item['tile']} cannot be turned that way: planets may not sit in sectors next "
                            f"to planets or Terra Prime (allowed: {allowed})")
    if cmd.verb == "fight" and not cs.weapon_dice(ship):
        raise IllegalAction("you have no weapons to fight with")
    if cmd.verb == "negotiate" and not cs.has_cubes(ship.cargo, cmd.cubes):
        raise IllegalAction("you can only offer cubes you carry")
    if cmd.verb == "lose" and cmd.name not in cs.losable(ship):
        raise IllegalAction(f"you have no {cmd.name} module to lose")
    if cmd.verb == "discard" and cmd.name not in ship.cargo:
        raise IllegalAction(f"you carry no {cmd.name} cube")
    if cmd.verb == "produce" and cmd.name not in produce_choices(state, item["sector"]):
        raise IllegalAction(f"the colony in sector {item['sector']} cannot produce {cmd.name} now")


def _check_action(state: GameState, cmd: Command) -> None:
    ship = state.ship
    b = board_of(state)
    here = ship.sector
    at_outpost = here == TERRA_PRIME
    verb = cmd.verb
    if verb in ("move", "explore"):
        target = cmd.number
        if target not in b.neighbours[here]:
            raise IllegalAction(f"sector {target} is not next to your ship (sector {here})")
        hidden = len(face_down(state, target))
        if verb == "move" and hidden:
            raise IllegalAction(f"sector {target} is unmapped: explore it instead")
        if verb == "explore":
            if not hidden:
                raise IllegalAction(f"sector {target} is already mapped: move there instead")
            if hidden > 1:
                raise IllegalAction(f"sector {target} has {hidden} face-down tiles; explore next to it first")
            if state.explores_left <= 0:
                raise IllegalAction("you have no explore actions left this turn")
    elif verb == "collect":
        colony = state.colonies.get(str(here))
        if colony is None or colony.cube is None:
            raise IllegalAction("there is no cube to collect in this sector")
    elif verb == "colonize":
        if ship.markers_ship <= 0:
            raise IllegalAction("your ship carries no colony marker: refill it first")
        if at_outpost:
            raise IllegalAction("Terra Prime itself cannot be colonized")
        if str(here) in state.colonies:
            raise IllegalAction("this sector already has a colony (one per sector)")
        if cmd.name == "field" and not fields(state, here):
            raise IllegalAction("there is no asteroid field here to mine")
        if cmd.name != "field" and cmd.name not in {p.colour for p in planets(state, here)}:
            raise IllegalAction(f"there is no {cmd.name} planet here")
    elif verb in ("deliver", "shuttle"):
        if verb == "deliver" and not at_outpost:
            raise IllegalAction("deliveries are made at Terra Prime (or by cargo shuttle)")
        if verb == "shuttle" and not ship.count("shuttle"):
            raise IllegalAction("you have no cargo shuttle docked")
        if state.cargo_ship_away:
            raise IllegalAction("the Cargo Ship is away to Earth until next turn")
        if not cs.has_cubes(ship.cargo, cmd.cubes):
            raise IllegalAction("you can only deliver cubes you carry")
        if verb == "deliver" and len(cmd.cubes) > earth.free_slots(state):
            raise IllegalAction(f"only {earth.free_slots(state)} cubes fit on the Cargo Ship")
        if verb == "shuttle" and len(cmd.cubes) > rules().printed.shuttle_slots:
            raise IllegalAction(f"a shuttle carries {rules().printed.shuttle_slots} cubes")
    elif verb == "install":
        _check_install(state, cmd.name)
    elif verb == "upgrade":
        step = rules().step(cmd.name)
        if not at_outpost:
            raise IllegalAction("tech upgrades are bought at Terra Prime")
        if step.step in ship.tech:
            raise IllegalAction(f"you already have {step.name}")
        if step not in cs.next_steps(ship):
            raise IllegalAction(f"{step.name} needs the earlier steps of its track first")
        if step.track in ship.visit_tracks:
            raise IllegalAction(f"one upgrade per track per visit: leave Terra Prime and come back for {step.name}")
        if not cs.has_cubes(ship.cargo, step.price(state.options)):
            raise IllegalAction(f"{step.name} costs {', '.join(step.price(state.options))}")
    elif verb == "refill":
        if state.options.get("refill_at", "outpost") == "outpost" and not at_outpost:
            raise IllegalAction("colony markers are taken aboard at Terra Prime")
        if ship.markers_ship >= cs.marker_room(ship):
            raise IllegalAction("your cryo chamber is full")
        if not ship.markers_supply:
            raise IllegalAction("you have no colony markers left in supply")
    elif verb == "scan":
        if not at_outpost:
            raise IllegalAction("the satellite scanner is at Terra Prime")
        if not 1 <= cmd.number <= b.position_count():
            raise IllegalAction(f"tiles are numbered 1 to {b.position_count()}")
        if state.tile(cmd.number).revealed:
            raise IllegalAction(f"tile {cmd.number} is already face up")
        if cmd.number in ship.peeks:
            raise IllegalAction(f"you have already scanned tile {cmd.number}")
    elif verb == "discard" and cmd.name not in ship.cargo:
        raise IllegalAction(f"you carry no {cmd.name} cube")


def _check_install(state: GameState, module: str) -> None:
    ship = state.ship
    spec = rules().module(module)
    if module == "shuttle" and "shuttle" not in ship.tech:
        raise IllegalAction("a cargo shuttle needs the cargo shuttle tech upgrade")
    if cs.total(ship, module) >= cs.capacity(ship, module):
        raise IllegalAction(f"no room for another {spec.name}: upgrade its tech track first")
    if cs.in_use(state.ships.values(), module) >= spec.supply:
        raise IllegalAction(f"all {spec.supply} {spec.name} tiles are on ships: one comes back to the box "
                            "when a ship loses one")
    if module_planet(state, module) is None:
        if spec.at_outpost:
            raise IllegalAction(f"{spec.name} modules are bought at Terra Prime, one module per visit")
        colours = " or ".join(spec.planets)
        raise IllegalAction(f"{spec.name} modules come from {colours} planets here, one per planet per visit")
    if ship.credits < cs.price(ship, module):
        raise IllegalAction(f"a {spec.name} costs {cs.price(ship, module)} credits; you have {ship.credits}")
    if module == "shuttle":
        printed = rules().printed
        if cs.total(ship, "cargo-hold") < printed.shuttle_holds:
            raise IllegalAction("a cargo shuttle needs 2 cargo holds")
        free = cs.cargo_room(ship) - len(ship.cargo)
        if free < printed.shuttle_holds * printed.hold_slots:
            raise IllegalAction("a cargo shuttle needs 2 empty cargo holds: discard or deliver first")


def describe(state: GameState, item: Item) -> str:
    """What the pending decision asks, in a short phrase."""
    kind = item["do"]
    if kind == "orient":
        return f"orient tile {item['tile']}"
    if kind == "respond":
        when = "before they attack" if item.get("first") else "after their attack"
        return f"answer the aliens on tile {item['tile']} {when}"
    if kind == "lose":
        return "choose a module to lose"
    if kind == "overflow":
        return f"discard down to {cs.cargo_room(state.ship)} cubes"
    return f"choose what the colony in sector {item['sector']} produces"

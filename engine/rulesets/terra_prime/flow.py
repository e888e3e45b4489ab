"""The sequence of play: setup, rounds and turns, and the queue of steps within an action."""

from __future__ import annotations

from collections.abc import Mapping

from engine.core.events import Event
from engine.core.rng import Dice
from engine.rulesets.terra_prime import command_ship as cs
from engine.rulesets.terra_prime import earth
from engine.rulesets.terra_prime.board import TERRA_PRIME
from engine.rulesets.terra_prime.combat import lose
from engine.rulesets.terra_prime.commands import Command
from engine.rulesets.terra_prime.data import BANDS, CLEAR, layout, outpost_for, rules
from engine.rulesets.terra_prime.effects import automatic, decide, produce_all
from engine.rulesets.terra_prime.legality import produce_choices
from engine.rulesets.terra_prime.scoring import finish
from engine.rulesets.terra_prime.space import orientations
from engine.rulesets.terra_prime.state import GameState, Item, OptionValue, Ship, Tile

DECISIONS = ("orient", "respond", "lose", "overflow", "produce")


def new_game(seats: tuple[str, ...], options: Mapping[str, OptionValue], dice: Dice) -> tuple[GameState, list[Event]]:
    """TP Setup: outpost and board by player count, shuffled stacks dealt face down, ships, Earth."""
    data = rules()
    printed = data.printed
    shape = str(options.get("board", "wedge"))
    outpost = outpost_for(len(seats))
    lay = layout(shape, outpost)
    tiles: list[Tile] = []
    clear_green = options.get("green_asteroids", "few") == "none"
    for band in BANDS:
        stack = [t.id for t in data.tiles.values() if t.band == band and not t.variant_of]
        dealt = dice.shuffle(stack, purpose=f"setup/{band}-stack")
        if clear_green:
            dealt = [d + CLEAR if d + CLEAR in data.tiles else d for d in dealt]
        tiles.extend(Tile(d) for d in dealt[: lay.bands.count(band)])
    ships = {s: Ship(s, TERRA_PRIME, printed.start_credits, printed.start_markers_on_ship,
                     printed.colony_markers - printed.start_markers_on_ship) for s in seats}
    earth_tracks = {r.key: r.start for r in data.resources}
    supply = {r.key: printed.cubes_per_resource - r.start for r in data.resources}
    start = dice.roll(1, len(seats), purpose="setup/start-player").total - 1
    state = GameState(seats=list(seats), options=dict(options), shape=shape, outpost=outpost, tiles=tiles,
                      ships=ships, earth=earth_tracks, supply=supply, start=start, current=start)
    events = [Event(f"Terra Prime begins: {len(seats)} Command Ships at the {outpost} outpost, "
                    f"{len(tiles)} space tiles face down ({shape} board), a Cargo Ship of "
                    f"{earth.ship_size(state)}. Start player (rolled): **{state.seat}**.", kind="setup")]
    begin_turn(state, events)
    return state, events


def begin_turn(state: GameState, events: list[Event]) -> None:
    """A seat's turn starts: Earth consumes if a round starts, the Cargo Ship is back, colonies produce."""
    ship = state.ship
    if state.current == state.start:
        events.append(Event(f"**Round {state.round}**", kind="round"))
        earth.consume(state, events)
    state.cargo_ship_away = False
    state.actions_left = cs.actions_per_turn(ship)
    state.explores_left = cs.explores_per_turn(ship)
    state.attacked = []
    events.append(Event(f"**{ship.seat}**'s turn: {state.actions_left} actions.", kind="turn",
                        data={"seat": ship.seat}))
    produce_all(state, events)


def end_turn(state: GameState, events: list[Event]) -> None:
    """Pass the turn clockwise; the final round and any round limit end the game."""
    if state.options.get("visit_ends_with_turn", False):
        state.ship.visit_planets = []
        state.ship.visit_tracks = []
    if state.final_turns is not None:
        if state.final_turns == 0:
            finish(state, events)
            return
        state.final_turns -= 1
    state.current = (state.current + 1) % len(state.seats)
    state.turn += 1
    if state.current == state.start:
        limit = int(state.options.get("round_limit", 0))
        if limit and state.round >= limit:
            events.append(Event(f"The campaign's round limit ({limit}) is reached.", kind="end-trigger"))
            finish(state, events)
            return
        state.round += 1
    begin_turn(state, events)


def needs_choice(state: GameState, item: Item) -> bool:
    """Whether a decision has more than one sensible answer (a single answer is applied for the seat)."""
    ship = state.ship
    kind = item["do"]
    if kind == "orient":
        return len(orientations(state, item["tile"])) > 1
    if kind == "respond":
        return bool(cs.weapon_dice(ship) or ship.cargo)
    if kind == "lose":
        return state.options.get("module_loss", "choose") == "choose" and len(cs.losable(ship)) > 1
    if kind == "overflow":
        return len(ship.cargo) > cs.cargo_room(ship) and len(set(ship.cargo)) > 1
    return len(produce_choices(state, item["sector"])) > 1


def _auto_decide(state: GameState, item: Item, dice: Dice, events: list[Event]) -> None:
    """Apply the only possible answer to a decision (or the dice's, for random module loss)."""
    ship = state.ship
    kind = item["do"]
    if kind == "orient":
        decide(state, item, Command("orient", number=orientations(state, item["tile"])[0]), dice, events)
    elif kind == "respond":
        decide(state, item, Command("ignore"), dice, events)
    elif kind == "lose":
        kinds = cs.losable(ship)
        if not kinds:
            lose(state, None, events)
            return
        pool = [k for k in kinds for _ in range(ship.count(k))]
        pick = pool[0]
        if len(kinds) > 1:
            pick = pool[dice.roll(1, len(pool), purpose="module-loss").total - 1]
        decide(state, item, Command("lose", name=pick), dice, events)
    elif kind == "overflow":
        if len(ship.cargo) > cs.cargo_room(ship):
            decide(state, item, Command("discard", name=ship.cargo[0]), dice, events)
    else:
        choices = produce_choices(state, item["sector"])
        if choices:
            decide(state, item, Command("produce", name=choices[0]), dice, events)
        else:
            events.append(Event(f"The colony in sector {item['sector']} cannot produce: no cubes left.",
                                kind="produce"))


def run(state: GameState, dice: Dice, events: list[Event]) -> None:
    """Work through queued steps until someone must decide, or the seat has actions to choose."""
    while not state.ended:
        if state.queue:
            item = state.queue[0]
            if item["do"] in DECISIONS and needs_choice(state, item):
                return
            state.queue.pop(0)
            if item["do"] in DECISIONS:
                _auto_decide(state, item, dice, events)
            elif item["do"] == "end-action":
                state.actions_left -= 1
                state.attacked = []
            else:
                automatic(state, item, dice, events)
        elif state.actions_left <= 0:
            end_turn(state, events)
        else:
            return

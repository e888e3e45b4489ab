"""The automatic player: a plain, sensible strategy that always picks one of the legal actions.

It colonizes the best sector it can reach, collects and carries cubes home when its hold fills,
buys fuel cells, holds and shields, explores the nearest (and safest) unmapped sector, and fights
aliens only with weapons, or buys them off when it has cubes to spare.
"""

from __future__ import annotations

import heapq
from collections import Counter
from typing import cast

from engine.core.errors import IllegalAction
from engine.rulesets.terra_prime import command_ship as cs
from engine.rulesets.terra_prime import earth
from engine.rulesets.terra_prime.board import TERRA_PRIME, Board
from engine.rulesets.terra_prime.commands import Command
from engine.rulesets.terra_prime.data import rules
from engine.rulesets.terra_prime.legal import cube_sets, legal
from engine.rulesets.terra_prime.legality import check, module_planet, pending
from engine.rulesets.terra_prime.space import Sky, board_of, colony_planet, design, placement, sky
from engine.rulesets.terra_prime.state import GameState

LOSE_FIRST = ("shuttle", "weapon", "cargo-hold", "shield", "fuel-cell")
UPGRADES = ("fuel", "holds", "cryo", "shields", "weapons", "explore", "action", "shield-die", "weapon-die",
            "shield-aim", "weapon-aim", "shuttle")
# Saving for tech, the second explore comes before 4 shields and 4 weapons, in what it buys and saves for: after
# them it came too late to be bought in a fifth of games
SAVING_UPGRADES = ("fuel", "holds", "cryo", "explore", "shields", "weapons", "action", "shield-die", "weapon-die",
                   "shield-aim", "weapon-aim", "shuttle")
# With cheap tech the shuttle, as cheap as cryo, comes first: docked late, a shuttle was seldom sent home
CHEAP_SAVING = ("fuel", "holds", "shuttle", "cryo", *SAVING_UPGRADES[3:-1])
INSTALLS = ("fuel-cell", "cargo-hold", "shield", "weapon")
# With tech_costs=cheap a ship saving for tech climbs one track first: by its place counted back from the start
# player, the last seat fuel, the one before holds, and so on (every step is in reach, but a ship buying whatever its
# cubes allow climbed no track to its third step in a fifth of games)
FAVOURED_FROM_LAST = ("fuel", "holds", "shields", "weapons")
BAND_RISK = {"green": 0, "yellow": 2, "red": 5}
TECH_PULL = 8      # how much nearer a cube its next tech step needs seems, when saving for tech
MINE_SITE = 4      # what a mine (a brown cube each turn, a marker placed) seems worth, when saving for tech
SCAN_AHEAD = 2     # a ship saving for tech scans the nearest 2 face-down yellow and red tiles before setting out...
SCAN_SPARE = 4     # ...with at least 4 actions left (a look costs one; with 3, it cost the third seat wins)
SETTLE_PULL = 12   # saving for tech, how much nearer a free site seems with a marker aboard, and Terra Prime without
                   # one: a settler places twice the markers (the "down to 2 markers" ending comes) and, home more
                   # often, buys more tech
LEADER_COLONY = 3  # saving for tech, how much farther a cube looks at the colony of the seat ahead on leadership
                   # plus credits (both public): collecting there pays the leader a point
EXPLORE_BONUS = 6  # what the planner thinks a new tile is worth against a cube or a colony; it grows each round


def choose(state: GameState, *, save_for_tech: bool = False) -> str:
    """The automatic player's next action for the acting seat, in canonical text form.

    `save_for_tech` (the searching player, in its futures and for its first candidate): the cubes of the tech
    step the ship holds most of are not delivered, a colony cube a next step needs looks nearer, a colony site
    looks as much nearer as its best cube sells for (a colony produces all game), and a lone asteroid field is a
    site too (a mine: a brown cube each turn, a marker placed). It settles: with a marker aboard a free site looks
    `SETTLE_PULL` nearer, and with none aboard so does Terra Prime, where it takes more.
    """
    if pending(state):
        options = legal(state)
        texts = [cmd.text() for cmd, _ in options]
        pick = _decision(state, [c for c, _ in options])
        if pick is not None and pick.text() in texts:
            return pick.text()
        return "pass" if "pass" in texts else texts[0]
    # In a turn only a few actions are asked about, so each is checked when asked (the searching player calls
    # this thousands of times a decision); `pass` is always legal in a turn.
    turn = _turn(state, Allowed(state), save_for_tech)
    return turn.text() if turn is not None and allowed(state, turn) else "pass"


def allowed(state: GameState, cmd: Command) -> bool:
    try:
        check(state, cmd)
    except IllegalAction:
        return False
    return True


class Allowed:
    """The legal actions of a turn, asked one at a time: `cmd in Allowed(state)`, and the legal cube sets and
    colonies (in the order `legal` lists them)."""

    def __init__(self, state: GameState) -> None:
        self.state = state

    def __contains__(self, cmd: object) -> bool:
        return isinstance(cmd, Command) and allowed(self.state, cmd)

    def of(self, verb: str) -> list[Command]:
        state, ship = self.state, self.state.ship
        if verb == "colonize":
            if ship.markers_ship <= 0 or ship.sector == TERRA_PRIME or str(ship.sector) in state.colonies:
                return []
            found = [Command("colonize", name=c) for c in [*rules().resource_keys, "field"]]
        elif state.cargo_ship_away:
            return []
        elif verb == "deliver" and ship.sector == TERRA_PRIME:
            found = [Command("deliver", cubes=c) for c in cube_sets(ship.cargo, earth.free_slots(state))]
        elif verb == "shuttle" and ship.count("shuttle"):
            found = [Command("shuttle", cubes=c) for c in cube_sets(ship.cargo, rules().printed.shuttle_slots)]
        else:
            return []
        return [cmd for cmd in found if allowed(state, cmd)]


def _cheapest(state: GameState, cubes: list[str]) -> list[str]:
    return sorted(cubes, key=lambda c: (earth.price(state, c), c))


def _decision(state: GameState, options: list[Command]) -> Command | None:
    item = pending(state)
    assert item is not None
    ship = state.ship
    kind = item["do"]
    if kind == "orient":  # the most planets in the sector we stand in, to colonize at once
        def planets_here(cmd: Command) -> int:
            return sum(1 for s, c in placement(state, item["tile"], cmd.number)
                       if s == ship.sector and c.kind == "planet")
        return max(options, key=planets_here)
    if kind == "respond":
        if cs.weapon_dice(ship):
            return Command("fight")
        symbols = design(state, item["tile"]).aliens
        if item.get("first") and len(ship.cargo) > symbols:
            offer = _cheapest(state, ship.cargo)[: symbols + 1]
            return Command("negotiate", cubes=tuple(sorted(offer, key=rules().resource_keys.index)))
        return Command("ignore")
    if kind == "lose":
        return next(Command("lose", name=m) for m in LOSE_FIRST if ship.count(m))
    if kind == "overflow":
        return Command("discard", name=_cheapest(state, ship.cargo)[0])
    return max(options, key=lambda c: earth.price(state, c.name))


def favoured_track(state: GameState) -> str | None:
    """The track the acting ship climbs first when saving for tech (only with tech_costs=cheap)."""
    if state.options.get("tech_costs", "board") != "cheap":
        return None
    from_last = (state.start - state.current - 1) % len(state.seats)
    return FAVOURED_FROM_LAST[from_last % len(FAVOURED_FROM_LAST)]


def tech_goal(state: GameState) -> tuple[str, ...]:
    """The cubes of the next tech step the acting ship holds most of (a step on its favoured track first, then
    saving order on ties: `SAVING_UPGRADES`, or `CHEAP_SAVING` with cheap tech): what it is saving for. Empty if
    it holds none that a next step needs."""
    ship, favoured = state.ship, favoured_track(state)
    best: tuple[bool, int, int, tuple[str, ...]] = (False, 0, 0, ())
    have = Counter(ship.cargo)
    order = CHEAP_SAVING if favoured else SAVING_UPGRADES
    for step in cs.next_steps(ship):
        need = Counter(step.price(state.options))
        held = sum(min(have[c], n) for c, n in need.items())
        rank = (step.track == favoured, held, -order.index(step.step) if step.step in order else -99)
        if held and rank > best[:3]:
            best = (*rank, tuple(c for c, n in need.items() for _ in range(min(have[c], n))))
    return best[3]


def _wanted(state: GameState) -> Counter[str]:
    """Cubes the acting ship lacks for the next tech step it is nearest to (on its favoured track, if it has
    one); if it holds none, any cube a next step needs."""
    goal = Counter(tech_goal(state))
    steps = cs.next_steps(state.ship)
    on_track = [s for s in steps if s.track == favoured_track(state)]
    if not goal and on_track:
        return Counter(on_track[0].price(state.options))
    if not goal:
        out: Counter[str] = Counter()
        for step in steps:
            out |= Counter(step.price(state.options))
        return out
    for step in steps:
        need = Counter(step.price(state.options))
        if not goal - need:
            return need - Counter(state.ship.cargo)
    return Counter()


def closing(state: GameState) -> bool:
    """Whether the game end is triggered: every seat's next turn is its last, and what it spends on tech, modules
    or cubes kept for tech no longer pays (credits score at the end, cubes aboard do not)."""
    return state.final_turns is not None


def _turn(state: GameState, options: Allowed, save_for_tech: bool = False) -> Command | None:
    ship = state.ship
    by_verb = {verb: options.of(verb) for verb in ("deliver", "colonize", "shuttle")}
    if save_for_tech and closing(state):
        return _last_turn(state, by_verb)
    if save_for_tech and by_verb["deliver"]:
        spare = Counter(ship.cargo) - Counter(tech_goal(state))
        by_verb["deliver"] = [c for c in by_verb["deliver"] if not Counter(c.cubes) - spare]
    room = cs.cargo_room(ship)
    if ship.sector == TERRA_PRIME:
        can = {s.step: s.track for s in cs.next_steps(ship)}
        order: tuple[str, ...] = SAVING_UPGRADES if save_for_tech else UPGRADES
        favoured = favoured_track(state) if save_for_tech else None
        if favoured:
            order = tuple(sorted(CHEAP_SAVING, key=lambda s: can.get(s) != favoured))
        for step in order:
            if step in can and Command("upgrade", name=step) in options:
                return Command("upgrade", name=step)
        if by_verb["deliver"]:
            return max(by_verb["deliver"], key=lambda c: (len(c.cubes), sum(earth.price(state, x) for x in c.cubes)))
        if save_for_tech and Command("install", name="shuttle") in options:
            return Command("install", name="shuttle")
        if (Command("install", name="weapon") in options and cs.weapon_dice(ship) < 2
                and ship.credits >= cs.price(ship, "weapon") + 2):
            return Command("install", name="weapon")
        if Command("refill") in options:
            return Command("refill")
        if save_for_tech and state.actions_left >= SCAN_SPARE and state.explores_left > 0:
            tile = _scan_target(state)
            if tile is not None and Command("scan", number=tile) in options:
                return Command("scan", number=tile)
    if by_verb["colonize"] and (sky(state).colony_value[ship.sector] > 0 or save_for_tech):
        return max(by_verb["colonize"], key=lambda c: earth.price(state, c.name) if c.name != "field" else 0)
    if Command("collect") in options and len(ship.cargo) < room and not (save_for_tech and tolled(state)):
        return Command("collect")
    for module in INSTALLS[:3]:
        if Command("install", name=module) in options and not (save_for_tech and tolled(state, module)):
            return Command("install", name=module)
    if by_verb["shuttle"] and len(ship.cargo) >= 3 and board_of(state).distance[ship.sector] > 3:
        return max(by_verb["shuttle"], key=lambda c: (len(c.cubes), sum(earth.price(state, x) for x in c.cubes)))
    return _travel(state, save_for_tech)


def _last_turn(state: GameState, by_verb: dict[str, list[Command]]) -> Command | None:
    """Saving for tech once the end is triggered: only leadership and credits count now, so it delivers every
    cube it can, settles, and otherwise heads for a site or for Terra Prime with cubes aboard; it buys no tech or
    modules (credits score 1 each) and takes no more cubes."""
    def best(cmd: Command) -> tuple[int, int]:
        return sum(earth.price(state, x) for x in cmd.cubes), len(cmd.cubes)

    if by_verb["deliver"]:
        return max(by_verb["deliver"], key=best)
    if by_verb["colonize"]:
        return max(by_verb["colonize"], key=lambda c: earth.price(state, c.name) if c.name != "field" else 0)
    if by_verb["shuttle"]:
        return max(by_verb["shuttle"], key=best)
    return _travel(state, save_for_tech=True)


def _danger(state: GameState, sector: int, seen: Sky | None = None) -> int:
    """Extra cost the planner puts on standing in a sector: aliens next door and asteroid fields."""
    ship = state.ship
    seen = seen or sky(state)
    weapons = cs.weapon_dice(ship)
    cost = sum(3 * aliens for _, aliens in seen.hostile[sector] if weapons < aliens)
    return cost + seen.fields[sector] * (1 if cs.shield_dice(ship) else 2)


def _paths(state: GameState) -> tuple[dict[int, int], dict[int, int], list[tuple[int, int, int, str]]]:
    """Cheapest cost to each mapped sector from the ship, the first step towards it, and the frontier: (cost,
    sector, unmapped neighbour, its tile's band) for each unmapped neighbour with one face-down tile. Kept with
    the sky for the ship's sector and dice (do not change what it returns)."""
    seen = sky(state)
    start = state.ship.sector
    weapons = cs.weapon_dice(state.ship)
    field_cost = 1 if cs.shield_dice(state.ship) else 2
    key = (start, weapons, field_cost)
    found = seen.memo.get(key)
    if found is None:
        found = seen.memo[key] = _search_paths(board_of(state), seen, start, weapons, field_cost)
    return cast("tuple[dict[int, int], dict[int, int], list[tuple[int, int, int, str]]]", found)


def _search_paths(b: Board, seen: Sky, start: int, weapons: int, field_cost: int
                  ) -> tuple[dict[int, int], dict[int, int], list[tuple[int, int, int, str]]]:
    cost = {start: 0}
    first: dict[int, int] = {start: start}
    heap = [(0, start)]
    danger: dict[int, int] = {}
    while heap:
        c, s = heapq.heappop(heap)
        if c > cost[s]:
            continue
        for n in b.neighbours[s]:
            if seen.face_down[n]:
                continue
            d = danger.get(n)
            if d is None:
                d = danger[n] = (sum(3 * aliens for _, aliens in seen.hostile[n] if weapons < aliens)
                                 + seen.fields[n] * field_cost)
            nc = c + 1 + d
            if nc < cost.get(n, 1 << 30):
                cost[n] = nc
                first[n] = n if s == start else first[s]
                heapq.heappush(heap, (nc, n))
    frontier = []
    for s, c in cost.items():
        for n in b.neighbours[s]:
            hidden = seen.face_down[n]
            if len(hidden) == 1:
                frontier.append((c, s, n, b.band(hidden[0])))
    return cost, first, frontier


def _scan_target(state: GameState) -> int | None:
    """A face-down yellow or red tile among the nearest `SCAN_AHEAD` the ship could explore, not yet scanned."""
    _, _, frontier = _paths(state)
    seen = sky(state)
    near = sorted({(c, seen.face_down[n][0]) for c, _, n, band in frontier if band != "green"})
    return next((tile for _, tile in near[:SCAN_AHEAD] if tile not in state.ship.peeks), None)


def _explore_risk(state: GameState, tile: int, band: str) -> int:
    """What the planner fears of exploring a face-down tile: by its band, or by its face if the ship scanned it
    (aliens it cannot fight, asteroids; its planets are sites to settle)."""
    ship = state.ship
    if tile not in ship.peeks:
        return BAND_RISK[band] * (2 if not cs.shield_dice(ship) else 1)
    face = design(state, tile)
    fields = sum(1 for c in face.corners if c.kind == "field") + face.strays
    planets = sum(1 for c in face.corners if c.kind == "planet")
    aliens = 3 * face.aliens if cs.weapon_dice(ship) < face.aliens else 0
    return aliens + fields * (1 if cs.shield_dice(ship) else 2) - 2 * planets


def _errand_home(state: GameState) -> bool:
    """Whether Terra Prime has something for a ship saving for tech: cubes it would deliver, a tech step it can
    buy, or markers to take aboard (else going home only to turn back is a loop)."""
    ship = state.ship
    if Counter(ship.cargo) - Counter(tech_goal(state)):
        return True
    if ship.markers_ship < cs.marker_room(ship) and ship.markers_supply > 0:
        return True
    return any(cs.has_cubes(ship.cargo, step.price(state.options)) for step in cs.next_steps(ship))


def _leads(state: GameState, seat: str) -> bool:
    """Whether `seat` is another seat's and ahead of (or level with) every other on leadership plus credits."""
    if seat == state.seat:
        return False
    ahead = state.ships[seat].score + state.ships[seat].credits
    return all(ahead >= o.score + o.credits for name, o in state.ships.items() if name != seat)


def tolled(state: GameState, module: str | None = None) -> bool:
    """Whether the acting ship stands at the colony of the seat ahead on leadership plus credits, with a cube to
    collect there (or, given a module, installing it there would use that colony's planet): either pays that
    seat a point."""
    colony = state.colonies.get(str(state.ship.sector))
    if colony is None or colony.is_mine or not _leads(state, colony.owner):
        return False
    if module is None:
        return bool(colony.cube)
    return module_planet(state, module) == colony_planet(state, state.ship.sector)


def _travel(state: GameState, save_for_tech: bool = False) -> Command | None:
    ship = state.ship
    cost, first, frontier = _paths(state)
    goals: list[tuple[float, int, Command | None]] = []  # (badness, sector, explore or collect to do there)
    here = state.colonies.get(str(ship.sector))
    last = save_for_tech and closing(state)      # a cube aboard now scores only if it reaches Earth this turn
    if (save_for_tech and not last and here is not None and here.cube and tolled(state)
            and cs.cargo_room(ship) > len(ship.cargo)):
        pull = TECH_PULL if here.cube in _wanted(state) else 0     # collecting at the leader's colony, after all
        goals.append((3 - earth.price(state, here.cube) - pull + LEADER_COLONY, ship.sector, Command("collect")))
    full = len(ship.cargo) >= cs.cargo_room(ship)
    errand = bool(ship.cargo) if last else not save_for_tech or _errand_home(state)
    if TERRA_PRIME in cost and ship.sector != TERRA_PRIME and errand:
        out_of_markers = ship.markers_ship == 0 and ship.markers_supply > 0 and not last
        want_home = full or out_of_markers or len(ship.cargo) >= 3 or last
        refill = SETTLE_PULL if save_for_tech and out_of_markers else 0
        goals.append((cost[TERRA_PRIME] - (20 if want_home else 0) + 8 - refill, TERRA_PRIME, None))
    seen = sky(state)
    wanted = _wanted(state) if save_for_tech else Counter()
    for s, c in cost.items():
        if s == ship.sector or s == TERRA_PRIME:
            continue
        colony = state.colonies.get(str(s))
        if colony is None and ship.markers_ship and seen.colony_value[s] > 0:
            flow = max(earth.price(state, k) for k in seen.colours[s]) if save_for_tech else 0
            goals.append((c - seen.colony_value[s] - flow - (SETTLE_PULL if save_for_tech else 0), s, None))
        elif colony is None and ship.markers_ship and save_for_tech and not last and seen.fields[s]:
            goals.append((c - MINE_SITE - SETTLE_PULL, s, None))
        if colony is not None and colony.cube and cs.cargo_room(ship) - len(ship.cargo) >= 1 and not last:
            pull = TECH_PULL if colony.cube in wanted else 0
            toll = LEADER_COLONY if save_for_tech and not colony.is_mine and _leads(state, colony.owner) else 0
            goals.append((c + 3 - earth.price(state, colony.cube) - pull + toll, s, None))
    if state.explores_left > 0:
        bonus = EXPLORE_BONUS + state.round // 3
        goals.extend((c + _explore_risk(state, seen.face_down[n][0], band) - bonus, s,
                      Command("explore", number=n)) for c, s, n, band in frontier)
    if not goals:
        return Command("pass")
    _, target, explore = min(goals, key=lambda g: (g[0], g[1], g[2].number if g[2] and g[2].number is not None else -1))
    if target == ship.sector:   # an explore from here, or collecting at the leader's colony
        return explore if explore is not None else Command("pass")
    step = first[target]
    return Command("move", number=step)

"""A searching automatic player: information-set Monte Carlo with today's player as the playout policy.

For each candidate action it plays a number of short futures and keeps the action whose futures end best for
its seat (its leadership and wealth against the best rival's). Each future starts from a *determinization*:
the face-down tiles the seat has not seen are dealt afresh, band by band, from the faces it has not seen, so
the search never uses what the seat cannot know (the true faces, other seats' scans). Every candidate is tried
on the same futures (same deals, same dice), so differences between candidates are not luck. The budget is
counted in playout actions, not seconds, so a decision is the same on any machine, and it is drawn from one
seeded roll, so it replays.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace

from engine.core.errors import RulesError
from engine.core.events import Event
from engine.core.rng import Dice, Roll
from engine.core.ruleset import OptionValue
from engine.core.visibility import GM_ONLY, PUBLIC, Visibility
from engine.rulesets.terra_prime.autoplay import choose, closing, tech_goal, tolled
from engine.rulesets.terra_prime.command_ship import cargo_room
from engine.rulesets.terra_prime.commands import Command, parse
from engine.rulesets.terra_prime.data import BANDS, CLEAR, rules
from engine.rulesets.terra_prime.effects import decide, perform
from engine.rulesets.terra_prime.flow import run
from engine.rulesets.terra_prime.legal import legal
from engine.rulesets.terra_prime.legality import pending
from engine.rulesets.terra_prime.space import board_of
from engine.rulesets.terra_prime.state import GameState

BATCH_VERBS = ("deliver", "shuttle", "negotiate")   # many cube sets: only the best two are worth a search


@dataclass(frozen=True)
class Level:
    """How hard an automatic player tries: futures per candidate, their length, candidates kept."""

    futures: int
    horizon: int
    candidates: int


LEVELS = {"medium": Level(futures=4, horizon=16, candidates=5), "hard": Level(futures=6, horizon=24, candidates=6)}
DIFFICULTIES = ("easy", *LEVELS)


class FutureDice(Dice):
    """Dice for an imagined future: drawn from a local generator and not logged (nothing here happens)."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(b"", "future")
        self.rng = rng

    def roll(self, count: int, sides: int, *, purpose: str, visibility: Visibility = PUBLIC, modifier: int = 0,
             table: str | None = None, result: str | None = None) -> Roll:
        faces = tuple(self.rng.randint(1, sides) for _ in range(count))
        return Roll(purpose, purpose, "dice", f"{count}d{sides}", faces, sum(faces), visibility, modifier, table,
                    result)


def seat_level(options: Mapping[str, OptionValue], seat: str) -> str:
    """The difficulty of `seat`'s automatic player: its entry in `automatic_seats`, else `automatic`."""
    for part in str(options.get("automatic_seats", "") or "").split(","):
        if not part.strip():
            continue
        name, _, level = part.partition("=")
        if level.strip() not in DIFFICULTIES:
            raise RulesError(f"automatic_seats: write seat=level with a level of {', '.join(DIFFICULTIES)} "
                             f"(not `{part.strip()[:40]}`)")
        if name.strip().lower() == seat.lower():
            return level.strip()
    level = str(options.get("automatic", "easy"))
    return level if level in DIFFICULTIES else "easy"


def choose_searching(state: GameState, dice: Dice, level: Level) -> str:
    """The searching player's action for the acting seat, in canonical text form."""
    easy = choose(state, save_for_tech=True)
    if easy.startswith(("upgrade ", "scan ")):  # a tech step the seat has the cubes for is always bought; a look
        return easy                               # ahead is worth nothing to a future, which cannot use what it shows
    options = candidates(state, easy, level.candidates)
    if len(options) <= 1 or state.round > 2 * STALL_ROUND or (state.round > STALL_ROUND and easy.startswith("explore")):
        return easy
    seed = dice.roll(3, 1000, purpose="search", visibility=GM_ONLY).faces
    rng = random.Random(f"{state.seat}/{seed}")
    seat = state.seat
    futures = [(determinize(state, seat, rng), rng.getrandbits(64)) for _ in range(level.futures)]
    totals = {}
    for text in options:
        total = 0.0
        for world, dice_seed in futures:
            total += playout(world, text, seat, random.Random(dice_seed), level.horizon)
        totals[text] = total + (PLAN_MARGIN * len(futures) if text == easy else 0.0)
    best = max(totals.values())
    if state.round <= OPENING_ROUNDS:
        return rng.choice([t for t, v in totals.items() if v >= best - PLAN_MARGIN * len(futures) - 1e-9])
    return next(t for t, v in totals.items() if v >= best - 1e-9)


# The kinds of action worth a search, in the order they are tried when there are more than a level keeps: what
# builds the ship and the colonies first, then trade, then where to go. Scans are left out (an imagined future
# gains nothing from a look), and so is passing and throwing cubes away in a turn.
KINDS = ("upgrade", "install", "colonize", "deliver", "collect", "refill", "shuttle", "explore", "move")
KEEP = {"deliver": 2, "shuttle": 1, "colonize": 2}       # cube sets and colonies: legal() lists the best first


def candidates(state: GameState, easy: str, most: int) -> list[str]:
    """The actions worth searching: today's pick first, then the others kind by kind (a question's every
    answer, but only the biggest cube sets)."""
    listed = [cmd for cmd, _ in legal(state)]
    if pending(state) is not None:
        out = [easy]
        seen: dict[str, int] = {}
        for cmd in listed:
            if cmd.verb == "negotiate":
                seen["negotiate"] = seen.get("negotiate", 0) + 1
                if seen["negotiate"] > 2:
                    continue
            if cmd.text() != easy:
                out.append(cmd.text())
        return out[:most]
    by_kind: dict[str, list[str]] = {}
    spare = Counter(state.ship.cargo) - Counter(() if closing(state) else tech_goal(state))
    full = len(state.ship.cargo) >= cargo_room(state.ship)
    for cmd in listed:
        if cmd.verb in ("deliver", "shuttle") and Counter(cmd.cubes) - spare:
            continue                        # the cubes of its next tech step are kept for it
        if cmd.verb == "collect" and (full or tolled(state)):
            continue                        # a cube taken only to throw one overboard, or paying the leader
        if cmd.verb == "install" and cmd.name and tolled(state, cmd.name):
            continue                        # a module that pays the leader
        if cmd.verb == "move" and cmd.number == state.ship.left:
            continue                        # straight back where it just came from: only if today's pick
        if cmd.verb in KINDS and cmd.text() != easy:
            kept = by_kind.setdefault(cmd.verb, [])
            if len(kept) < KEEP.get(cmd.verb, 99):
                kept.append(cmd.text())
    out = [easy]
    rounds = max((len(v) for v in by_kind.values()), default=0)
    for n in range(rounds):                 # one of each kind, then a second of each, ...
        out.extend(by_kind[k][n] for k in KINDS if k in by_kind and len(by_kind[k]) > n)
    return out[:most]


def determinize(state: GameState, seat: str, rng: random.Random) -> GameState:
    """A copy of the game in which the face-down tiles `seat` has not seen are dealt again from the faces it has
    not seen (public faces and its own scans stay); other seats' scans are forgotten."""
    world = clone(state)
    b = board_of(world)
    known = set(world.ships[seat].peeks)
    clear = state.options.get("green_asteroids", "few") == "none"
    for band in BANDS:
        positions = [p for p, bb in enumerate(b.layout.bands, 1) if bb == band]
        unknown = [p for p in positions if not world.tile(p).revealed and p not in known]
        if not unknown:
            continue
        seen = {world.tile(p).design for p in positions if world.tile(p).revealed or p in known}
        pool = []
        for face in rules().tiles.values():
            if face.band != band or face.variant_of:
                continue
            key = face.id + CLEAR if clear and face.id + CLEAR in rules().tiles else face.id
            if key not in seen:
                pool.append(key)
        dealt = rng.sample(sorted(pool), len(unknown))
        for p, key in zip(unknown, dealt, strict=True):
            world.tile(p).design = key
    for name, ship in world.ships.items():
        if name != seat:
            ship.peeks = []
    return world


def clone(state: GameState) -> GameState:
    """A copy to play an imagined future on: what actions change is copied, what they never change is shared
    (options, tile faces of the imagined deal are copied with the tiles). Same as a deep copy, and much cheaper."""
    return replace(
        state,
        tiles=[replace(t) for t in state.tiles],
        ships={k: replace(s, cargo=list(s.cargo), modules=dict(s.modules), tech=list(s.tech), peeks=list(s.peeks),
                          visit_planets=list(s.visit_planets), visit_tracks=list(s.visit_tracks))
               for k, s in state.ships.items()},
        earth=dict(state.earth), supply=dict(state.supply),
        colonies={k: replace(c) for k, c in state.colonies.items()},
        beaten={k: replace(b) for k, b in state.beaten.items()},
        cargo_ship=list(state.cargo_ship), queue=[dict(i) for i in state.queue], attacked=list(state.attacked),
        winners=list(state.winners),
    )


def step(state: GameState, text: str, dice: Dice) -> None:
    """Apply one action (already legal) to an imagined game."""
    cmd: Command = parse(text)
    events: list[Event] = []
    item = pending(state)
    if item is not None:
        state.queue.pop(0)
        decide(state, item, cmd, dice, events)
    else:
        perform(state, cmd, dice, events)
    run(state, dice, events)


def playout(world: GameState, first: str, seat: str, rng: random.Random, horizon: int) -> float:
    """Play `first`, then everyone by today's player (saving cubes for their next tech step) for `horizon`
    actions; how good it ended for `seat`."""
    state = clone(world)
    dice = FutureDice(rng)
    step(state, first, dice)
    for _ in range(horizon):
        if state.ended:
            break
        step(state, choose(state, save_for_tech=True), dice)
    return value(state, seat)


# What a tech step and an installed module are worth to their owner over a whole game, in leadership: what they
# let the ship do that a short imagined future cannot show (more actions, exploring twice, holds for more cubes,
# surviving aliens and winning their symbols). Scaled down as the game runs out (see `remaining`).
TECH_WORTH = {"fuel": 14.0, "holds": 12.0, "cryo": 14.0, "shuttle": 12.0, "explore": 14.0, "action": 24.0,
              "weapons": 12.0, "weapon-die": 14.0, "weapon-aim": 14.0, "shields": 12.0, "shield-die": 14.0,
              "shield-aim": 14.0}
MODULE_WORTH = {"fuel-cell": 6.0, "cargo-hold": 3.0, "shield": 3.0, "weapon": 3.0, "shuttle": 3.0}
CUBE_SHARE = 0.8        # a cube aboard is worth most of its price: it still has to reach Terra Prime
TECH_FLOOR = 0.6        # tech keeps this share of its worth however little of the game seems left: the yellow tiles
                        # are mostly turned by mid-game, yet games run on for 30-50 rounds
MARKER_WORTH = 1.0      # a marker placed is a step towards the "down to 2 markers" ending, which a leader wants
# Searching players shun the deep tiles (their futures are too short to see what a risky explore brings), so four
# of them can leave the last yellow tiles face down for ever. Past this round they explore whenever `easy` would
# (its appetite for exploring grows each round), past twice this round they play as `easy`: every game ends.
STALL_ROUND = 30
# Today's pick is kept unless another candidate's futures end better by this much leadership on average: a few
# short futures are noisy, and swapping the plan for noise made searching players wander out and back.
PLAN_MARGIN = 1.0
# In its first rounds a player picks at random (from its seeded stream) among the candidates its futures rate within
# that margin of the best: four copies of one player opening alike hand the game to the seat that reaches the
# planets near Terra Prime first.
OPENING_ROUNDS = 3


def remaining(state: GameState) -> float:
    """How much of the game is left, 1 at the start and 0 in the final round: the share of the yellow tiles
    still face down (the last one turned ends the game), public information."""
    if state.final_turns is not None or state.ended:
        return 0.0
    bands = board_of(state).layout.bands
    yellow = [p for p, band in enumerate(bands, 1) if band == "yellow"]
    return sum(not state.tile(p).revealed for p in yellow) / max(1, len(yellow))


def worth(state: GameState, seat: str, left: float) -> float:
    """Leadership now, plus what the seat holds that turns into leadership: credits, cubes, markers aboard and
    placed, and (while the game has long to run) its tech and modules."""
    ship = state.ships[seat]
    placed = rules().printed.colony_markers - ship.markers_ship - ship.markers_supply
    if state.ended:
        return ship.score + MARKER_WORTH * placed
    credits = ship.credits * (1.0 if state.options.get("credits_score", "credit") == "credit" else 0.3)
    cubes = sum(_steady_price(c) for c in ship.cargo) * CUBE_SHARE
    build = sum(TECH_WORTH.get(t, 0.0) for t in ship.tech)
    build += sum(MODULE_WORTH.get(m, 0.0) * n for m, n in ship.modules.items())
    build *= max(left, TECH_FLOOR)
    return ship.score + credits + cubes + 1.5 * ship.markers_ship + build + MARKER_WORTH * placed


def _steady_price(resource: str) -> int:
    """What a cube aboard is worth: its price with the track as it starts, not today's (a delivery that sends the
    Cargo Ship to Earth lowers today's price, and valuing the hold at it taught the search never to go home)."""
    spec = rules().resource(resource)
    return spec.price_at(spec.start)


def value(state: GameState, seat: str) -> float:
    """The seat's worth against the best rival's (what wins the game), with a little of its own worth."""
    left = remaining(state)
    mine = worth(state, seat, left)
    rival = max(worth(state, s, left) for s in state.seats if s != seat)
    return mine - rival + 0.25 * mine

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
from collections.abc import Mapping
from dataclasses import dataclass, replace

from engine.core.errors import RulesError
from engine.core.events import Event
from engine.core.rng import Dice, Roll
from engine.core.ruleset import OptionValue
from engine.core.visibility import GM_ONLY, PUBLIC, Visibility
from engine.rulesets.terra_prime import earth
from engine.rulesets.terra_prime.autoplay import choose
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


LEVELS = {"medium": Level(futures=4, horizon=16, candidates=5), "hard": Level(futures=8, horizon=28, candidates=7)}
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
    easy = choose(state)
    options = candidates(state, easy, level.candidates)
    if len(options) <= 1:
        return easy
    seed = dice.roll(3, 1000, purpose="search", visibility=GM_ONLY).faces
    rng = random.Random(f"{state.seat}/{seed}")
    seat = state.seat
    futures = [(determinize(state, seat, rng), rng.getrandbits(64)) for _ in range(level.futures)]
    best_text, best_value = easy, float("-inf")
    for text in options:
        total = 0.0
        for world, dice_seed in futures:
            total += playout(world, text, seat, random.Random(dice_seed), level.horizon)
        if total > best_value + 1e-9:
            best_text, best_value = text, total
    return best_text


def candidates(state: GameState, easy: str, most: int) -> list[str]:
    """The actions worth searching: today's pick first, then one of each kind (the best two cube sets)."""
    seen: dict[str, int] = {}
    out = [easy]
    for cmd, _ in legal(state):
        text = cmd.text()
        if text == easy:
            continue
        if cmd.verb in BATCH_VERBS:
            if seen.get(cmd.verb, 0) >= 2:       # legal() lists the biggest sets first
                continue
            seen[cmd.verb] = seen.get(cmd.verb, 0) + 1
        if cmd.verb == "discard" and pending(state) is None:
            continue                             # throwing cubes away is never a plan
        out.append(text)
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
    """Play `first`, then everyone by today's player for `horizon` actions; how good it ended for `seat`."""
    state = clone(world)
    dice = FutureDice(rng)
    step(state, first, dice)
    for _ in range(horizon):
        if state.ended:
            break
        step(state, choose(state), dice)
    return value(state, seat)


def worth(state: GameState, seat: str) -> float:
    """Leadership now, plus what the seat holds that turns into leadership: credits, cubes, markers aboard."""
    ship = state.ships[seat]
    if state.ended:
        return float(ship.score)
    credits = ship.credits * (1.0 if state.options.get("credits_score", "credit") == "credit" else 0.3)
    cubes = sum(earth.price(state, c) for c in ship.cargo) * 0.6
    return ship.score + credits + cubes + 1.5 * ship.markers_ship


def value(state: GameState, seat: str) -> float:
    """The seat's worth against the best rival's (what wins the game), with a little of its own worth."""
    mine = worth(state, seat)
    rival = max(worth(state, s) for s in state.seats if s != seat)
    return mine - rival + 0.25 * mine

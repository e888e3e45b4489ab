"""Whole games: random legal play and automatic players always reach a valid end, every state sound."""

import json
import random
from collections import Counter

import pytest

from engine.core import Dice, IllegalAction, Setup, Viewer, Window
from engine.rulesets.terra_prime import command_ship as cs
from engine.rulesets.terra_prime.commands import parse
from engine.rulesets.terra_prime.data import rules
from tests.engine.terra_prime.helpers import TP

MAX_ACTIONS = 20_000
PROBES = ["pass", "collect", "refill", "fight", "ignore", "move 0", "move 5", "explore 7", "orient 0", "orient 4",
          "scan 1", "scan 40", "colonize green", "colonize field", "install weapon", "install shield",
          "install fuel-cell", "install shuttle", "upgrade fuel", "upgrade cryo", "deliver green", "deliver red red",
          "shuttle blue", "negotiate yellow", "lose weapon", "lose shield", "discard green", "produce red"]


def check_state(state, scored: Counter) -> None:
    """Every cube and colony marker accounted for, limits kept, scores equal their scoring events."""
    printed = rules().printed
    for res in rules().resource_keys:
        where = [state.supply[res], state.earth[res], state.cargo_ship.count(res),
                 sum(s.cargo.count(res) for s in state.ships.values()),
                 sum(1 for c in state.colonies.values() if c.cube == res)]
        assert min(where) >= 0 and sum(where) == printed.cubes_per_resource, (res, where)
    for seat, ship in state.ships.items():
        placed = sum(1 for c in state.colonies.values() if c.owner == seat)
        placed += sum(1 for b in state.beaten.values() if b.seat == seat and b.marker)
        assert ship.markers_ship >= 0 and ship.markers_supply >= 0
        assert ship.markers_ship + ship.markers_supply + placed == printed.colony_markers
        assert ship.markers_ship <= cs.marker_room(ship)
        for module in ("cargo-hold", "fuel-cell", "shield", "weapon", "shuttle"):
            assert cs.total(ship, module) <= cs.capacity(ship, module) or module == "shuttle"
        assert ship.score == scored[seat], seat
        overflowing = state.queue and state.queue[0]["do"] in ("overflow", "lose")
        assert len(ship.cargo) <= cs.cargo_room(ship) or (seat == state.seat and overflowing)
    assert TP.load(json.loads(json.dumps(TP.dump(state)))) == state
    phase = TP.phase(state)
    if state.ended:
        assert phase.window is Window.ENDED and state.winners
    else:
        assert phase.window is Window.TURN and phase.waiting == frozenset({state.seat})


def check_actions(state, actions) -> None:
    """Offered actions read back to themselves; anything else is refused with IllegalAction."""
    offered = {a.text for a in actions}
    assert offered, "a seat must always have something to do"
    for action in actions:
        assert parse(action.text).text() == action.text and len(action.label) <= 80
    for probe in PROBES:
        if probe in offered:
            continue
        copy = TP.load(TP.dump(state))
        with pytest.raises(IllegalAction):
            TP.act(copy, Viewer.of_seat(state.seat), probe, Dice(b"p" * 32, "probe"))


def play(seed: int, seats: int, *, automatic: bool, board: str = "wedge", production: str = "planet",
         probe_every: int = 0):
    rng = random.Random(seed)
    names = tuple(f"P{i + 1}" for i in range(seats))
    options = TP.parse_options({"board": board, "production": production})
    state = TP.setup(Setup(names, options, Dice(bytes([seed % 256]) * 32, "setup")))
    scored: Counter = Counter()
    check_state(state, scored)
    for n in range(MAX_ACTIONS):
        if state.ended:
            return state, n
        seat = state.seat
        actions = TP.view(state, Viewer.of_seat(seat)).actions
        if probe_every and n % probe_every == 0:
            check_actions(state, actions)
        if automatic:
            text = TP.autoplay(state, seat, Dice(b"a" * 32, f"auto/{n}"))
            assert text in {a.text for a in actions}
        else:
            text = rng.choice(actions).text
        step = TP.act(state, Viewer.of_seat(seat), text, Dice(bytes([seed % 256]) * 32, f"act/{n}"))
        state = step.state
        for event in step.events:
            if event.kind == "score":
                scored[event.data["seat"]] += event.data["points"]
        check_state(state, scored)
    raise AssertionError(f"seed {seed}: no end after {MAX_ACTIONS} actions")


@pytest.mark.parametrize(("seed", "seats"), [(1, 2)])
def test_random_legal_play_reaches_a_valid_end(seed, seats):
    state, _ = play(seed, seats, automatic=False, board="ring" if seed % 2 else "wedge", probe_every=40)
    assert state.ended


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(10, 34))
def test_many_random_games_reach_a_valid_end(seed):
    state, _ = play(seed, 2 + seed % 4, automatic=False, board=("wedge", "ring")[seed % 2],
                    production=("planet", "sector")[(seed // 2) % 2], probe_every=97)
    assert state.ended


@pytest.mark.slow
def test_the_designers_alternative_production_rule_plays_out():
    state, _ = play(7, 3, automatic=False, production="sector")
    assert state.ended


def test_automatic_players_finish_a_two_player_game():
    state, _ = play(5, 2, automatic=True)
    assert state.ended and state.trigger


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "seats"), [(s, n) for n in (2, 3, 4, 5) for s in (11, 12)])
def test_automatic_players_always_finish(seed, seats):
    state, _ = play(seed, seats, automatic=True, board=("wedge", "ring")[seed % 2])
    assert state.ended


def test_the_automatic_player_beats_random_play():
    """Not random: in the same seat, the automatic player outscores a random one."""
    wins = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = TP.setup(Setup(("Auto", "Random"), TP.parse_options({}), Dice(bytes([seed]) * 32, "setup")))
        n = 0
        while not state.ended:
            seat = state.seat
            if seat == "Auto":
                text = TP.autoplay(state, seat, Dice(b"a" * 32, "x"))
            else:
                text = rng.choice(TP.view(state, Viewer.of_seat(seat)).actions).text
            state = TP.act(state, Viewer.of_seat(seat), text, Dice(bytes([seed]) * 32, f"{n}")).state
            n += 1
        wins += state.ships["Auto"].score > state.ships["Random"].score
    assert wins == 3

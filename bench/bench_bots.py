"""Automatic players over many seeded games: how well they play, not how fast (issue 13's targets).

    python -m bench bench_bots                 all figures
    HERALD_BENCH_GAMES=40                      games per figure (default 24)
    HERALD_BENCH_ONLY=tn|tp2|tp4               one part only
    HERALD_BENCH_FIRST_SEED=49                 Terra Prime four-player seeds from this one (default 1)
    HERALD_BENCH_TP_OPTIONS=final_round=equal-turns   Terra Prime campaign options for every game
    HERALD_BENCH_LEVEL=hard                    the searching player's level (default medium)

Terra Prime: the searching player (`medium`) against today's (`easy`) in 2-player games, each seed played twice
with the seats swapped; four copies of it: each seat's win rate (and by which seat triggered the end), how
often each tech step is bought and each ship technology used, how often the "down to 2 markers" ending is
reached, what each place ends with (leadership, cubes aboard), and how much Earth's prices move. Terra Nova:
five automatic powers to the game-end roll; turns played, GM rulings needed, and how many powers end with
positive VP.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from engine.core import Dice, Setup, Viewer, Window
from engine.rulesets import get
from engine.rulesets.terra_prime import command_ship as cs
from engine.rulesets.terra_prime import earth
from engine.rulesets.terra_prime.data import rules as tp_rules

TN_SEATS = ("Spain", "Portugal", "England", "France", "Holland")
TN_OPTIONS = {"random_events": "off", "deflation": "off", "uprisings": "off"}


def _games() -> int:
    return int(os.environ.get("HERALD_BENCH_GAMES", "24"))


def _seeds(games: int) -> range:
    """The seeds to play: HERALD_BENCH_FIRST_SEED (default 1) onwards, to add games to an earlier run."""
    first = int(os.environ.get("HERALD_BENCH_FIRST_SEED", "1"))
    return range(first, first + games)


def _many(fn: Callable[..., dict[str, Any]], jobs: Iterable[tuple[Any, ...]]) -> list[dict[str, Any]]:
    """Play games in HERALD_BENCH_JOBS worker processes (default 2); each result carries its own CPU time."""
    workers = int(os.environ.get("HERALD_BENCH_JOBS", "2"))
    jobs = list(jobs)
    if workers <= 1:
        return [fn(*job) for job in jobs]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(fn, *zip(*jobs, strict=True)))


# -- Terra Nova ---------------------------------------------------------------------------------------------------


def tn_game(seed: int, options: dict[str, str] | None = None, max_steps: int = 5000) -> dict[str, Any]:
    """Five automatic powers from set-up to the end; GM windows are counted (and answered with the first ruling)."""
    tn = get("terra-nova")
    key = seed.to_bytes(4, "big") * 8
    cpu = time.process_time()
    state = tn.setup(Setup(TN_SEATS, tn.parse_options({**TN_OPTIONS, **(options or {})}), Dice(key, "setup")))
    gm_rulings = 0
    refused = 0
    for n in range(max_steps):
        if state.ended:
            break
        phase = tn.phase(state)
        dice = Dice(key, f"step{n}")
        if phase.window is Window.GM:
            gm_rulings += 1
            choice = next(a.text for a in tn.view(state, Viewer.gm()).actions if a.group == "rule")
            state = tn.act(state, Viewer.gm(), choice, dice).state
        elif phase.window is Window.TURN:
            seat = sorted(phase.waiting)[0]
            action = tn.autoplay(state, seat, dice)
            assert action is not None, f"{seat} is waited on but has no automatic action"
            state = tn.act(state, Viewer.of_seat(seat), action, dice).state
        else:
            orders: dict[str, list[str]] = {}
            for seat in sorted(phase.waiting):
                text = tn.autoplay(state, seat, dice)
                if text:
                    checks = tn.check(state, seat, text)
                    refused += sum(1 for c in checks if not c.accepted)
                    orders[seat] = [c.canonical for c in checks if c.accepted]
            state = tn.resolve(state, orders, dice).state
    return {"ended": state.ended, "turn": state.turn, "gm": gm_rulings, "refused": refused,
            "vp": {s: state.powers[s].vp for s in TN_SEATS}, "cpu": time.process_time() - cpu}


def tn_report(games: int) -> None:
    results = _many(tn_game, ((seed,) for seed in range(1, games + 1)))
    ended = sum(r["ended"] for r in results)
    reached = sum(r["turn"] >= 21 for r in results)
    positive = Counter(s for r in results for s, v in r["vp"].items() if v > 0)
    all_positive = sum(all(v > 0 for v in r["vp"].values()) for r in results)
    print(f"Terra Nova, five automatic powers, {games} games ({sum(r['cpu'] for r in results):.0f} CPU-s):")
    print(f"  reached turn 21 (the game-end roll): {reached}/{games}; ended: {ended}/{games}; "
          f"turns: {min(r['turn'] for r in results)}-{max(r['turn'] for r in results)}")
    print(f"  GM rulings asked: {sum(r['gm'] for r in results)}; order lines refused: "
          f"{sum(r['refused'] for r in results)}")
    print("  games each power ended with positive VP: "
          + ", ".join(f"{s} {positive[s]}/{games}" for s in TN_SEATS)
          + f"; games where every power did: {all_positive}/{games}")
    mean = {s: sum(r["vp"][s] for r in results) / games for s in TN_SEATS}
    print("  mean final VP: " + ", ".join(f"{s} {v:.1f}" for s, v in mean.items()))
    gm_steps = {"random_events": "ask", "deflation": "ask", "uprisings": "ask"}
    asked = _many(tn_game, ((seed, gm_steps) for seed in range(1, min(games, 6) + 1)))
    print(f"  with the GM's steps on (events, deflation, uprisings: GM rulings, left to the GM): "
          f"{sum(r['gm'] for r in asked) / len(asked):.1f} rulings a game over {len(asked)} games, "
          f"all of them GM-only; ended {sum(r['ended'] for r in asked)}/{len(asked)}")


# -- Terra Prime --------------------------------------------------------------------------------------------------


def _tp_options() -> dict[str, str]:
    """Campaign options for every Terra Prime game, from HERALD_BENCH_TP_OPTIONS (`final_round=equal-turns,...`)."""
    text = os.environ.get("HERALD_BENCH_TP_OPTIONS", "")
    return dict(part.strip().split("=", 1) for part in text.split(",") if part.strip())


def tp_game(seed: int, levels: tuple[str, ...]) -> dict[str, Any]:
    """One game of automatic players at these levels (seat i plays levels[i]); seats named S1, S2, ..."""
    rules = tp_rules()
    tp = get("terra-prime")
    seats = tuple(f"S{i + 1}" for i in range(len(levels)))
    key = seed.to_bytes(4, "big") * 8
    automatic = ", ".join(f"{s}={lv}" for s, lv in zip(seats, levels, strict=True))
    cpu = time.process_time()
    state = tp.setup(Setup(seats, tp.parse_options({**_tp_options(), "automatic_seats": automatic}),
                           Dice(key, "setup")))
    n = 0
    decide = 0.0
    moves = back = 0
    came_from: dict[str, int | None] = {}       # the sector each ship left on its last action, if a move
    used: set[str] = set()                      # the ship technologies some seat used (see USES)
    trigger: str | None = None                  # the seat whose action triggered the end
    keys = rules.resource_keys
    prices = tuple(earth.price(state, k) for k in keys)
    seen = {k: {p} for k, p in zip(keys, prices, strict=True)}    # every price Earth offered for each resource
    rounds_begun = state.round
    moves_of_price = 0                                            # changes of any resource's price
    empty = Counter[str]()                                        # rounds begun with the resource's track empty
    while not state.ended:
        seat = state.seat
        started = time.process_time()
        text = tp.autoplay(state, seat, Dice(key, f"auto/{n}"))
        assert text is not None, f"{seat} is to act but has no automatic action"
        decide = max(decide, time.process_time() - started)
        if text.startswith("move "):
            moves += 1
            back += came_from.get(seat) == int(text.split()[1])
            came_from[seat] = state.ships[seat].sector
        elif not text.startswith(("orient", "fight", "ignore", "lose", "negotiate", "discard")):
            came_from[seat] = None
        state = tp.act(state, Viewer.of_seat(seat), text, Dice(key, f"act/{n}")).state
        used |= _uses(state, text)
        if state.round != rounds_begun:
            rounds_begun = state.round
            empty.update(k for k in keys if not state.earth[k])
        now = tuple(earth.price(state, k) for k in keys)
        if now != prices:
            moves_of_price += sum(a != b for a, b in zip(now, prices, strict=True))
            for k, p in zip(keys, now, strict=True):
                seen[k].add(p)
            prices = now
        if trigger is None and state.final_turns is not None:
            trigger = seat
        n += 1
    techs = {t for ship in state.ships.values() for t in ship.tech}
    order = [seats[(state.start + i) % len(seats)] for i in range(len(seats))]    # the start player first
    return {"winners": state.winners, "seats": seats, "scores": {s: state.ships[s].score for s in seats},
            "positions": [order.index(w) + 1 for w in state.winners],
            "trigger": order.index(trigger) + 1 if trigger is not None else None,
            "left_aboard": [len(state.ships[s].cargo) for s in order],
            "by_place": [state.ships[s].score for s in order],
            "techs": techs, "used": used, "markers_end": "colony markers" in state.trigger, "rounds": state.round,
            "placed": sum(rules.printed.colony_markers - cs.markers_left(ship) for ship in state.ships.values()),
            "most_placed": max(rules.printed.colony_markers - cs.markers_left(ship) for ship in state.ships.values()),
            "prices_seen": {k: len(v) for k, v in seen.items()}, "price_moves": moves_of_price,
            "empty": {k: empty[k] / max(1, state.round - 1) for k in keys},
            "worst_decision": decide, "moves": moves, "back": back, "cpu": time.process_time() - cpu}


# What counts as a ship technology used (the issue's own words: "cryo chamber, scanner and shuttle almost never
# used"): the satellite scanner looked through, a cargo shuttle sent home, a fight with weapons, the cryo chamber
# holding more markers than a basic ship, and shields, fuel cells and cargo holds beyond the built-in ones.
USES = ("scanner", "shuttle", "cryo", "weapons", "shields", "fuel-cell", "cargo-hold")


def _uses(state: Any, text: str) -> set[str]:
    out = {use for verb, use in (("scan", "scanner"), ("shuttle", "shuttle"), ("fight", "weapons"))
           if text.startswith(verb + " ") or text == verb}
    for ship in state.ships.values():
        out |= {m if m != "shield" else "shields" for m in ("shield", "fuel-cell", "cargo-hold") if ship.count(m)}
        if ship.markers_ship > tp_rules().printed.ship_markers:
            out.add("cryo")
    return out


def tp_versus(games: int, level: str) -> None:
    """Each seed twice, the searching player first and then second; a game counts won if it wins outright."""
    jobs = [(seed, (level, "easy") if first else ("easy", level)) for seed in range(1, games + 1)
            for first in (True, False)]
    results = _many(tp_game, jobs)
    won = lost = shared = 0
    worst = max(r["worst_decision"] for r in results)
    by_seed = []
    for seed in range(games):
        pair = []
        for first in (True, False):
            r = results[2 * seed + (0 if first else 1)]
            me = "S1" if first else "S2"
            if r["winners"] == [me]:
                won += 1
                pair.append("W")
            elif me in r["winners"]:
                shared += 1
                pair.append("=")
            else:
                lost += 1
                pair.append("L")
        by_seed.append("".join(pair))
    total = 2 * games
    print(f"Terra Prime, 2 players, `{level}` against `easy`, {games} seeds played both ways ({total} games, "
          f"{sum(r['cpu'] for r in results):.0f} CPU-s):")
    print(f"  `{level}` wins {won}/{total} = {100 * won / total:.0f}% (shared {shared}, lost {lost}); "
          f"target >= 75%; seeds won both ways: {sum(p == 'WW' for p in by_seed)}/{games}")
    print(f"  slowest decision: {worst:.2f} CPU-s (budget 1 s)")


def tp_four(games: int, level: str) -> None:
    rules = tp_rules()
    results = _many(tp_game, ((seed, (level,) * 4) for seed in _seeds(games)))
    rates = _win_rates(results)
    print(f"Terra Prime, four copies of `{level}`, {games} games ({sum(r['cpu'] for r in results):.0f} CPU-s), "
          f"options {_tp_options() or 'default'}:")
    print("  win rate by place in the turn order (1st is the start player): "
          + ", ".join(f"{p} {rate:.0f}%" for p, rate in zip(("1st", "2nd", "3rd", "4th"), rates, strict=True))
          + f" (uniform 25%, target within 15-35%: {'met' if all(15 <= x <= 35 for x in rates) else 'NOT met'}); "
          + f"shared victories {sum(len(r['winners']) > 1 for r in results)}; "
          + f"slowest decision {max(r['worst_decision'] for r in results):.2f} CPU-s")
    _by_trigger(results)
    steps = [t.step for t in rules.tech]
    used = {t: sum(t in r["techs"] for r in results) for t in steps}
    print("  games each tech was bought in: " + ", ".join(f"{t} {100 * n / games:.0f}%" for t, n in used.items())
          + f"; below 20%: {[t for t, n in used.items() if n < 0.2 * games] or 'none'}")
    uses = {u: sum(u in r["used"] for r in results) for u in USES}
    print("  games each ship technology was used in: "
          + ", ".join(f"{u} {100 * n / games:.0f}%" for u, n in uses.items())
          + f"; below 20%: {[u for u, n in uses.items() if n < 0.2 * games] or 'none'}")
    most = sorted(r["most_placed"] for r in results)
    print(f"  the 'down to 2 markers' ending: {sum(r['markers_end'] for r in results)}/{games} games "
          f"(it needs {rules.printed.colony_markers - rules.printed.end_markers_left} placed; the most one seat "
          f"placed: median {most[len(most) // 2]}, highest {most[-1]}); "
          f"rounds {min(r['rounds'] for r in results)}-{max(r['rounds'] for r in results)}; mean winning score "
          f"{sum(max(r['scores'].values()) for r in results) / games:.0f}")
    seen = {k: sum(r["prices_seen"][k] for r in results) / games for k in rules.resource_keys}
    print("  Earth's prices: different prices Earth offered a game by resource "
          + ", ".join(f"{k} {n:.1f}" for k, n in seen.items())
          + f"; a resource's price changed {sum(r['price_moves'] for r in results) / games:.1f} times a game; "
          + "rounds begun with the track empty (Earth's top price): "
          + ", ".join(f"{k} {100 * sum(r['empty'][k] for r in results) / games:.0f}%" for k in rules.resource_keys))
    print(f"  moves straight back to the sector left on the seat's last action: "
          f"{100 * sum(r['back'] for r in results) / max(1, sum(r['moves'] for r in results)):.0f}% of "
          f"{sum(r['moves'] for r in results)} moves; colony markers placed a game (all seats): "
          f"{sum(r['placed'] for r in results) / games:.1f}")


def _win_rates(results: list[dict[str, Any]]) -> list[float]:
    """Each place's share of the wins, in percent; a shared victory counts a share to each winner, so the rates
    add up to 100%."""
    wins = dict.fromkeys(range(1, 5), 0.0)
    for r in results:
        for p in r["positions"]:
            wins[p] += 1 / len(r["positions"])
    return [100 * wins[p] / max(1, len(results)) for p in range(1, 5)]


def _by_trigger(results: list[dict[str, Any]]) -> None:
    """Who triggered the end, by place, and the win rate by place in those games: under the rulebook's final
    round the seats up to the trigger take one turn more than the seats after it."""
    parts = []
    for place in (1, 2, 3, 4):
        games = [r for r in results if r["trigger"] == place]
        rates = "/".join(f"{rate:.0f}" for rate in _win_rates(games))
        parts.append(f"{place} in {len(games)} games (won by place {rates}%)")
    print("  the end triggered by the seat in place " + "; ".join(parts))
    aboard = [sum(r["left_aboard"][p] for r in results) / max(1, len(results)) for p in range(4)]
    print("  cubes still aboard at the end (they score nothing), by place: "
          + "/".join(f"{a:.1f}" for a in aboard) + "; mean final leadership by place: "
          + "/".join(f"{sum(r['by_place'][p] for r in results) / max(1, len(results)):.1f}" for p in range(4)))


def main() -> None:
    only = os.environ.get("HERALD_BENCH_ONLY", "")
    games = _games()
    level = os.environ.get("HERALD_BENCH_LEVEL", "medium")
    if only in ("", "tn"):
        tn_report(games)
    if only in ("", "tp2"):
        tp_versus(games, level)
    if only in ("", "tp4"):
        tp_four(games, level)


if __name__ == "__main__":
    main()

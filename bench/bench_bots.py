"""Automatic players over many seeded games: how well they play, not how fast (issue 13's targets).

    python -m bench bench_bots                 all figures
    HERALD_BENCH_GAMES=40                      games per figure (default 24)
    HERALD_BENCH_ONLY=tn|tp2|tp4               one part only

Terra Prime: the searching player (`hard`) against today's (`easy`) in 2-player games, each seed played twice
with the seats swapped; four copies of `hard`: each seat's win rate, how often each tech is bought, how often the
"down to 2 markers" ending is reached. Terra Nova: five automatic powers to the game-end roll; turns played, GM
rulings needed, and how many powers end with positive VP.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from typing import Any

from engine.core import Dice, Setup, Viewer, Window
from engine.rulesets import get

TN_SEATS = ("Spain", "Portugal", "England", "France", "Holland")
TN_OPTIONS = {"random_events": "off", "deflation": "off", "uprisings": "off"}


def _games() -> int:
    return int(os.environ.get("HERALD_BENCH_GAMES", "24"))


# -- Terra Nova ---------------------------------------------------------------------------------------------------


def tn_game(seed: int, options: dict[str, str] | None = None, max_steps: int = 5000) -> dict[str, Any]:
    """Five automatic powers from set-up to the end; GM windows are counted (and answered with the first ruling)."""
    tn = get("terra-nova")
    key = seed.to_bytes(4, "big") * 8
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
            "vp": {s: state.powers[s].vp for s in TN_SEATS}}


def tn_report(games: int) -> None:
    started = time.process_time()
    results = [tn_game(seed) for seed in range(1, games + 1)]
    ended = sum(r["ended"] for r in results)
    reached = sum(r["turn"] >= 21 for r in results)
    positive = Counter(s for r in results for s, v in r["vp"].items() if v > 0)
    all_positive = sum(all(v > 0 for v in r["vp"].values()) for r in results)
    print(f"Terra Nova, five automatic powers, {games} games ({time.process_time() - started:.0f} CPU-s):")
    print(f"  reached turn 21 (the game-end roll): {reached}/{games}; ended: {ended}/{games}; "
          f"turns: {min(r['turn'] for r in results)}-{max(r['turn'] for r in results)}")
    print(f"  GM rulings asked: {sum(r['gm'] for r in results)}; order lines refused: "
          f"{sum(r['refused'] for r in results)}")
    print("  games each power ended with positive VP: "
          + ", ".join(f"{s} {positive[s]}/{games}" for s in TN_SEATS)
          + f"; games where every power did: {all_positive}/{games}")
    mean = {s: sum(r["vp"][s] for r in results) / games for s in TN_SEATS}
    print("  mean final VP: " + ", ".join(f"{s} {v:.1f}" for s, v in mean.items()))


def main() -> None:
    only = os.environ.get("HERALD_BENCH_ONLY", "")
    games = _games()
    if only in ("", "tn"):
        tn_report(games)


if __name__ == "__main__":
    main()

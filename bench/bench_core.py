"""The engine core: dice streams and a freeform turn."""

from __future__ import annotations

from collections.abc import Callable

from engine.core import Dice, Setup, Viewer
from engine.core.upload import scan_toml
from engine.rulesets import get

SEED = bytes(32)


def _thousand_d6() -> None:
    dice = Dice(SEED, "bench")
    for _ in range(1000):
        dice.d6("d")


def _notation() -> None:
    dice = Dice(SEED, "bench")
    for _ in range(100):
        dice.notation("4d6h3+2", purpose="n")


def _freeform_turn() -> None:
    ff = get("freeform")
    seats = tuple(f"Seat {i}" for i in range(20))
    state = ff.setup(Setup(seats, ff.parse_options({}), Dice(SEED, "s")))
    for seat in seats:
        state = ff.act(state, Viewer.gm(), f"result {seat}: outcome", Dice(SEED, "a")).state
    ff.load(ff.dump(ff.resolve(state, {s: ["hold"] for s in seats}, Dice(SEED, "r")).state))


# The upload guard's worst fair case: near 50,000 values in 240 KiB, every one seen by the scan
_INT_ARRAYS = "\n".join(f"k{i} = [" + ",".join(["123"] * 10) + "]" for i in range(4900))


def _upload_scan() -> None:
    scan_toml("bench", _INT_ARRAYS)


def cases() -> dict[str, Callable[[], object]]:
    return {"1000 d6 rolls": _thousand_d6, "100 notation rolls": _notation, "freeform turn, 20 seats": _freeform_turn,
            "upload guard scan, 240 KiB": _upload_scan}

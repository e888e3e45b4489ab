"""Side-by-side timing: each case is measured interleaved with a fixed baseline workload.

The machines are shared and noisy, so absolute seconds mean little; the ratio of a case to
the baseline measured in the same rounds is what we compare across runs.
"""

from __future__ import annotations

import gc
import statistics
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass


def baseline() -> None:
    """A fixed pure-Python workload of about 20 ms: sorting and hashing."""
    data = [(i * 7919) % 100_003 for i in range(120_000)]
    data.sort()
    {str(x): x for x in data[:40_000]}


@dataclass(frozen=True)
class Result:
    name: str
    seconds: float
    baseline_seconds: float
    peak_kib: float

    @property
    def ratio(self) -> float:
        return self.seconds / self.baseline_seconds

    def line(self) -> str:
        return (f"{self.name:<40} {self.seconds * 1000:10.2f} ms  {self.ratio:8.2f}× baseline"
                f"  peak {self.peak_kib:10.0f} KiB")


def _time(fn: Callable[[], object]) -> float:
    gc.collect()
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def measure(name: str, fn: Callable[[], object], *, rounds: int = 5) -> Result:
    """Median time of `fn` and of the baseline, interleaved; peak traced memory of one run."""
    fn()  # warm caches and imports
    ours, base = [], []
    for _ in range(rounds):
        base.append(_time(baseline))
        ours.append(_time(fn))
    tracemalloc.start()
    fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return Result(name, statistics.median(ours), statistics.median(base), peak / 1024)

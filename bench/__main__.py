"""Run every bench/bench_*.py: each module offers `cases() -> dict[name, callable]`."""

from __future__ import annotations

import importlib
import pkgutil
import sys

from bench.harness import measure


def main(argv: list[str]) -> int:
    wanted = argv[1:]
    import bench

    for info in sorted(pkgutil.iter_modules(bench.__path__), key=lambda i: i.name):
        if not info.name.startswith("bench_") or (wanted and info.name not in wanted):
            continue
        module = importlib.import_module(f"bench.{info.name}")
        print(f"# {info.name}")
        if hasattr(module, "main"):  # a module that measures side by side prints its own report
            module.main()
            continue
        for name, fn in module.cases().items():
            print(measure(name, fn).line(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

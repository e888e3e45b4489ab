"""Every map beside the peer pipeline: the `diplomacy` package's map SVG rasterised by cairosvg.

    pip install diplomacy cairosvg       # bench only; neither is a Herald dependency
    PYTHONPATH=$PWD python -m bench bench_render

Each of our maps and the peer's map are timed interleaved in the same rounds (CPU time, median of 7);
the line prints how many times faster ours is. The issue asks for >= 10x on every map.
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable

from bench.render_samples import charts, maps
from engine.core import Viewer
from engine.rulesets import get
from engine.rulesets.lote_modern import render as lote_render
from engine.rulesets.progress import chart_png

ROUNDS = 7


def _peer() -> Callable[[], object] | None:
    try:
        import cairosvg  # type: ignore[import-not-found]
        from diplomacy import Game  # type: ignore[import-not-found]
        from diplomacy.engine.renderer import Renderer  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = Game()
    game.set_orders("FRANCE", ["A PAR - BUR", "F BRE - MAO"])
    renderer = Renderer(game)

    def draw() -> object:
        return cairosvg.svg2png(bytestring=renderer.render(incl_orders=True).encode())
    return draw


def _cpu(fn: Callable[[], object]) -> float:
    gc.collect()
    start = time.process_time()
    fn()
    return time.process_time() - start


def main() -> None:
    peer = _peer()
    if peer is None:
        print("peer pipeline not installed: pip install diplomacy cairosvg")
        return
    peer()
    pictures: dict[str, Callable[[], object]] = {}
    for name, (ruleset_id, make, viewer) in maps().items():
        ruleset, state = get(ruleset_id), make()
        pictures[name] = lambda ruleset=ruleset, state=state, viewer=viewer: ruleset.render(state, viewer)
    for name, (ruleset_id, make_states, viewer) in charts().items():
        states = make_states()
        pictures[name] = lambda ruleset_id=ruleset_id, states=states, viewer=viewer: chart_png(ruleset_id, states,
                                                                                               viewer)
    for name, ours in pictures.items():
        ours()
        mine, theirs = [], []
        for _ in range(ROUNDS):
            theirs.append(_cpu(peer))
            mine.append(_cpu(ours))
        a, b = statistics.median(mine), statistics.median(theirs)
        print(f"{name:<24} ours {a * 1000:7.1f} ms   peer {b * 1000:7.1f} ms   {b / a:6.1f}x faster", flush=True)
    lote_render.layout.cache_clear()
    lote = maps()["lote-modern-gm"]
    state = lote[1]()
    cold = _cpu(lambda: get("lote-modern").render(state, Viewer.gm()))
    print(f"{'lote-modern, first map':<24} ours {cold * 1000:7.1f} ms   (layout of a newly uploaded map, then kept)")

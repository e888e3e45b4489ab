"""Every map and chart beside the peer pipeline: the `diplomacy` package's map SVG rasterised by cairosvg.

    pip install -e .[bench]       # diplomacy and cairosvg: bench only, neither is a Herald dependency
    PYTHONPATH=$PWD python -m bench bench_render

Each of our pictures and the peer's are timed interleaved in the same rounds (CPU time, median of ROUNDS);
a line prints how many times faster ours is. The issue asks for >= 10x on every map and chart.

- "kept": the picture drawn with its static layer kept (engine/render/layers.py), as every new state of a
  campaign is drawn while its board stays put. Herald keeps each PNG per campaign version and viewer, so one
  state is never drawn twice; a kept layer is what saves work on each new state.
- "new layer": the same picture with no layer kept, drawn from nothing: a campaign's first map, a Terra Prime
  tile turned or scanned, a map file uploaded.
- Terra Prime's sector just played (posted beside the board with each new turn) and the chart keep no layer:
  one line each.
- "turn by turn": an automatic Terra Prime game's successive states, each drawn once with layers kept as the
  bot keeps them (a tile turned now and then rebuilds the board's layer): the median and the mean.
- Lords of the Earth's first map after an upload: the campaign's state as kept after the GM's upload (its map
  laid out then, kept with it), loaded and drawn with no layer kept; and for a map uploaded before layouts were
  kept, the same laid out on the fly (once a process).
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable

from bench.render_samples import SEED, charts, crops, maps, terra_prime
from engine.core import Dice, Viewer
from engine.render import layers
from engine.rulesets import get
from engine.rulesets.lote_modern.layout import layout as lote_layout
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


def _beside(peer: Callable[[], object], ours: list[Callable[[], object]]) -> tuple[list[float], float]:
    """Ours (one callable a round, in turn) and the peer, interleaved: our times and the peer's median."""
    mine, theirs = [], []
    for fn in ours:
        theirs.append(_cpu(peer))
        mine.append(_cpu(fn))
    return mine, statistics.median(theirs)


def _line(name: str, ours: float, peer: float, note: str = "") -> str:
    return f"{name:<38} ours {ours * 1000:7.1f} ms   peer {peer * 1000:7.1f} ms   {peer / ours:6.1f}x faster{note}"


def _turn_by_turn(first: int = 100, turns: int = 21) -> list[object]:
    """An automatic Terra Prime game's states after `first`, `first` + 1, ... actions."""
    tp = get("terra-prime")
    state = terra_prime(first)
    out = []
    for n in range(first, first + turns):
        if state.ended:
            break
        text = tp.autoplay(state, state.seat, Dice(SEED, f"auto/{n}"))
        state = tp.act(state, Viewer.of_seat(state.seat), text, Dice(SEED, f"act/{n}")).state
        out.append(tp.load(tp.dump(state)))
    return out


def main() -> None:
    peer = _peer()
    if peer is None:
        print("peer pipeline not installed: pip install -e .[bench]")
        return
    peer()
    pictures: dict[str, Callable[[], object]] = {}
    for name, (ruleset_id, make, viewer) in maps().items():
        ruleset, state = get(ruleset_id), make()
        pictures[name] = lambda ruleset=ruleset, state=state, viewer=viewer: ruleset.render(state, viewer)
    for name, (ruleset_id, make, viewer) in crops().items():   # drawn whole each time: no layer kept
        ruleset, state = get(ruleset_id), make()
        pictures[name] = lambda ruleset=ruleset, state=state, viewer=viewer: ruleset.render_focus(state, viewer)
    for name, (ruleset_id, make_states, viewer) in charts().items():
        states = make_states()
        pictures[name] = lambda ruleset_id=ruleset_id, states=states, viewer=viewer: chart_png(ruleset_id, states,
                                                                                               viewer)
    layered = set(maps())
    for name, ours in pictures.items():
        ours()
        kept, peer_kept = _beside(peer, [ours] * ROUNDS)
        print(_line(f"{name}, kept" if name in layered else name, statistics.median(kept), peer_kept), flush=True)
        if name in layered:
            fresh, peer_fresh = _beside(peer, [lambda ours=ours: (layers.forget(), ours())] * ROUNDS)
            print(_line(f"{name}, new layer", statistics.median(fresh), peer_fresh), flush=True)
    tp = get("terra-prime")
    states = _turn_by_turn()
    layers.forget()
    tp.render(states[0], Viewer.spectator())
    drawn, peer_turns = _beside(peer, [lambda s=s: tp.render(s, Viewer.spectator()) for s in states[1:]])
    print(_line(f"terra-prime, turn by turn ({len(drawn)})", statistics.median(drawn), peer_turns,
                f"   (mean {statistics.mean(drawn) * 1000:.1f} ms: {peer_turns / statistics.mean(drawn):.1f}x)"),
          flush=True)
    lm = get("lote-modern")
    uploaded = lm.dump(maps()["lote-modern-gm"][1]())   # as the campaign keeps it after the GM's upload

    def after_upload() -> object:
        """The first map after an upload: the kept state loaded and drawn, no layer kept yet."""
        layers.forget()
        return lm.render(lm.load(uploaded), Viewer.gm())
    first, peer_first = _beside(peer, [after_upload] * ROUNDS)
    print(_line("lote-modern, first map after upload", statistics.median(first), peer_first), flush=True)
    older = {**uploaded, "world": {k: v for k, v in uploaded["world"].items() if k != "layout"}}

    def older_upload() -> object:
        """A map uploaded before layouts were kept: laid out on the fly (once a process), then drawn."""
        lote_layout.cache_clear()
        layers.forget()
        return lm.render(lm.load(older), Viewer.gm())
    first, peer_first = _beside(peer, [older_upload] * 3)
    print(_line("lote-modern, older upload (laid out)", statistics.median(first), peer_first), flush=True)

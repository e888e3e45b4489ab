"""A Lords of the Earth map is laid out once, when the GM uploads the map file, and kept with the campaign's
map: every picture draws from the kept layout, it survives dump and load, and a campaign saved before layouts
were kept (no layout) still gets its map, laid out on the fly once."""

from __future__ import annotations

import io
import json
from pathlib import Path

from PIL import Image

from bench.render_samples import EXAMPLES, lote_modern
from engine.core import Viewer
from engine.render import layers
from engine.rulesets import get
from engine.rulesets.lote_modern.layout import graph, lay_out, layout
from engine.rulesets.lote_modern.render import draw_map

SAVED = Path(__file__).parents[1] / "saved_states"


def round_trip(state):
    lm = get("lote-modern")
    return lm.load(json.loads(json.dumps(lm.dump(state))))


def test_the_upload_lays_the_map_out_and_the_layout_survives_dump_and_load():
    lm = get("lote-modern")
    state = lote_modern()
    names, _ = graph(state.world)
    assert set(state.world.layout) == set(names)                 # every region and sea zone has its spot
    assert all(0 <= x <= 1 and 0 <= y <= 1 for x, y in state.world.layout.values())
    again = round_trip(state)
    assert again.world.layout == state.world.layout
    layers.forget()
    assert lm.render(again, Viewer.gm()) == lm.render(state, Viewer.gm())
    text = (EXAMPLES / "lote-modern" / "map.toml").read_text()   # a map uploaded mid-campaign: laid out too
    state.world.layout = {}
    step = lm.upload(state, "map", text.replace('title = "The Narrow Seas"', 'title = "Revised"'))
    assert step.state.world.layout == lay_out(step.state.world) != {}


def test_a_picture_draws_from_the_kept_layout_without_laying_the_map_out():
    state = round_trip(lote_modern())
    state.world.layout["Kent"] = (0.0, 1.0)                        # the GM's Kent moved to the bottom left corner
    layers.forget()
    layout.cache_clear()
    c = draw_map(state, Viewer.gm())
    assert layout.cache_info().misses == 0                         # nothing laid out: the kept spots were used
    kent = next(lab for lab in c.labels if lab.text.startswith("Kent"))
    x0, _, _, y1 = kent.box
    assert x0 < c.width / 4 and y1 > c.height * 3 / 4, kent.box


def test_a_map_kept_before_layouts_were_kept_still_draws_laid_out_once():
    lm = get("lote-modern")
    fresh = lote_modern()
    saved = lm.dump(fresh)
    del saved["world"]["layout"]                                   # as a campaign saved by earlier code
    old = lm.load(json.loads(json.dumps(saved)))
    assert old.world.layout == {}
    layers.forget()
    layout.cache_clear()
    png = lm.render(old, Viewer.gm())
    layers.forget()
    assert lm.render(old, Viewer.of_seat("England")) is not None
    assert layout.cache_info().misses == 1                         # laid out on the fly, once for the process
    assert png == lm.render(fresh, Viewer.gm())                    # the same picture as from the kept layout
    start = lm.load(json.loads((SAVED / "lote-modern--start.json").read_text()))
    drawn = lm.render(start, Viewer.spectator())
    assert drawn is not None and Image.open(io.BytesIO(drawn)).size == (1100, 1050)

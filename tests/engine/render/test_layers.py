"""Kept static layers and fixed palettes change how fast a map is drawn, never what it shows.

A map drawn over a kept layer must be the very picture drawn from nothing, whatever was drawn before it
and for whichever viewer: otherwise a layer would carry one state's pieces, or the GM's glimpse of a
face-down tile, into another picture. And a picture written in its renderer's fixed 256 colours must look
like what was drawn.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io

import pytest
from PIL import Image, ImageChops

from bench.render_samples import freeform, lote_modern, terra_nova, terra_prime
from engine.core import Viewer
from engine.render import layers
from engine.rulesets import get
from tests.engine.render.test_render_maps import SAMPLES, canvas_of


def _pixels(png: bytes | None) -> str:
    assert png is not None
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return hashlib.sha256(f"{image.size}".encode() + image.tobytes()).hexdigest()


def _cases() -> list[tuple[str, object, Viewer]]:
    """States that share a layer and states that do not, each for viewers who see different things."""
    tp_late, tp_early = terra_prime(120), terra_prime(60)
    tp_moved = terra_prime(120)
    tp_moved.ships["Ana"].sector, tp_moved.ships["Ben"].sector = tp_moved.ships["Ben"].sector, 1
    tn = terra_nova()
    tn_moved = terra_nova()
    tn_moved.force("Cuba", "England").ships["carrack"] = 0
    tn_moved.holding("Deep South", "France").settlements = 1
    tn_small = terra_nova(east_indies=False)
    lm = lote_modern()
    lm_moved = lote_modern()
    lm_moved.nation("France").armies[0].location = "Kent"
    lm_moved.nation("England").routes.clear()
    ff, ff_fog = freeform(), freeform(fog="yes")
    ff_moved = freeform()
    ff_moved.regions[0] = dataclasses.replace(ff_moved.regions[0], owner="Carthage")
    seats = [Viewer.of_seat(s) for s in tp_late.seats]
    return ([("terra-prime", s, v) for s in (tp_late, tp_early, tp_moved)
             for v in (Viewer.spectator(), Viewer.gm(), *seats)]
            + [("terra-nova", s, v) for s in (tn, tn_moved, tn_small)
               for v in (Viewer.spectator(), Viewer.of_seat("Spain"), Viewer.gm())]
            + [("lote-modern", s, v) for s in (lm, lm_moved)
               for v in (Viewer.gm(), Viewer.of_seat("England"), Viewer.of_seat("France"), Viewer.spectator())]
            + [("freeform", s, v) for s in (ff, ff_fog, ff_moved)
               for v in (Viewer.spectator(), Viewer.gm(), Viewer.of_seat("Rome"), Viewer.of_seat("Carthage"))])


def test_a_map_over_a_kept_layer_is_the_map_drawn_from_nothing_whatever_came_before():
    cases = _cases()
    fresh = []
    for ruleset_id, state, viewer in cases:
        layers.forget()
        fresh.append(_pixels(get(ruleset_id).render(state, viewer)))
    layers.forget()
    in_order = [_pixels(get(r).render(s, v)) for r, s, v in cases]
    backwards = [_pixels(get(r).render(s, v)) for r, s, v in reversed(cases)][::-1]
    assert in_order == fresh
    assert backwards == fresh


def test_a_gms_glimpse_of_a_face_down_tile_never_reaches_a_players_map_through_a_kept_layer():
    tp = get("terra-prime")
    state = terra_prime(120)
    hidden = next(p for p in range(1, len(state.tiles) + 1) if not state.tile(p).revealed
                  and all(p not in ship.peeks for ship in state.ships.values()))
    layers.forget()
    spectator = tp.render(state, Viewer.spectator())
    other = next(p for p in range(1, len(state.tiles) + 1) if not state.tile(p).revealed and p != hidden
                 and state.tile(p).design != state.tile(hidden).design
                 and all(p not in ship.peeks for ship in state.ships.values()))
    state.tile(hidden).design, state.tile(other).design = state.tile(other).design, state.tile(hidden).design
    gm = tp.render(state, Viewer.gm())
    assert tp.render(state, Viewer.spectator()) == spectator   # what lies face down is not in its picture
    assert tp.render(state, Viewer.gm()) == gm


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_a_picture_in_its_fixed_palette_looks_like_what_was_drawn(name):
    """Every colour a renderer draws is in its palette: flat colours within a few levels, text's blended
    edges within a shade."""
    c = canvas_of(name)
    png = c.png()
    Image.open(io.BytesIO(png)).verify()     # every chunk's length and checksum as a PNG reader checks them
    written = Image.open(io.BytesIO(png)).convert("RGB")
    r, g, b = ImageChops.difference(c.image, written).split()
    off = ImageChops.lighter(ImageChops.lighter(r, g), b).histogram()
    pixels = sum(off)
    assert max(level for level, n in enumerate(off) if n) <= 40
    assert sum(off[17:]) / pixels < 0.005
    assert sum(level * n for level, n in enumerate(off)) / pixels < 2

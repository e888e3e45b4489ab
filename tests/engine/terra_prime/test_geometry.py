"""Hex and vertex geometry, and the boards built on it (TP Move: sectors are tile vertices)."""

import random

import pytest

from engine.maps import hexgrid
from engine.rulesets.terra_prime.board import TERRA_PRIME, board
from engine.rulesets.terra_prime.data import rules

LAYOUTS = [(shape, outpost) for shape in ("wedge", "ring") for outpost in ("small", "large")]


def test_neighbouring_hexes_share_exactly_two_corners():
    for d in hexgrid.DIRECTIONS:
        assert len(set(hexgrid.corners((0, 0))) & set(hexgrid.corners(d))) == 2


def test_every_corner_touches_three_hexes_that_all_list_it():
    for i, v in enumerate(hexgrid.corners((2, -1))):
        hexes = hexgrid.vertex_hexes(v)
        assert (2, -1) in hexes, i
        assert all(v in hexgrid.corners(h) for h in hexes)


def test_a_corner_has_three_neighbours_along_hex_edges():
    v = hexgrid.corner((0, 0), 0)
    for w in hexgrid.vertex_neighbours(v):
        assert v in hexgrid.vertex_neighbours(w)
        assert len(set(hexgrid.vertex_hexes(v)) & set(hexgrid.vertex_hexes(w))) == 2


def test_hex_distance():
    assert hexgrid.distance((0, 0), (3, -1)) == 3
    assert hexgrid.distance((1, 1), (1, 1)) == 0


@pytest.mark.parametrize(("shape", "outpost"), LAYOUTS)
def test_boards_deal_14_tiles_of_each_colour_nearest_green(shape, outpost):
    b = board(shape, outpost)
    assert [b.layout.bands.count(c) for c in ("green", "yellow", "red")] == [14, 14, 14]
    far = {band: [min(hexgrid.distance(h, o) for o in b.layout.outpost_hexes)
                  for h, bb in zip(b.positions, b.layout.bands, strict=True) if bb == band]
           for band in ("green", "yellow", "red")}
    assert max(far["green"]) <= min(far["yellow"]) and max(far["yellow"]) <= min(far["red"])


def test_the_bigger_outpost_has_more_ways_out():
    assert len(board("wedge", "small").neighbours[TERRA_PRIME]) == 3
    assert len(board("wedge", "large").neighbours[TERRA_PRIME]) == 4


@pytest.mark.parametrize(("shape", "outpost"), LAYOUTS)
def test_exploring_never_deadlocks_and_never_offers_two_face_down_tiles(shape, outpost):
    """From the mapped sectors there is always a sector with exactly one face-down tile to explore."""
    b = board(shape, outpost)
    rng = random.Random(f"{shape}/{outpost}")
    for _ in range(40):
        known: set[int] = set()
        while len(known) < b.position_count():
            def hidden(s, known=known):
                return [p for p in b.tiles_at[s] if p not in known]
            seen, stack = {TERRA_PRIME}, [TERRA_PRIME]
            while stack:
                s = stack.pop()
                for n in b.neighbours[s]:
                    if n not in seen and not hidden(n):
                        seen.add(n)
                        stack.append(n)
            frontier = {hidden(n)[0] for s in seen for n in b.neighbours[s] if len(hidden(n)) == 1}
            assert frontier, f"stuck with {len(known)} tiles known"
            known.add(rng.choice(sorted(frontier)))


def test_tile_faces_never_put_planets_on_neighbouring_corners():
    for tile in rules().tiles.values():
        planets = [i for i, c in enumerate(tile.corners) if c.kind == "planet"]
        assert not any((i + 1) % 6 in planets for i in planets), tile.id


def test_green_tiles_are_safe_and_red_ones_most_dangerous():
    tiles = [t for t in rules().tiles.values() if not t.variant_of]   # the printed faces
    def total(band, attr):
        return sum(getattr(t, attr) for t in tiles if t.band == band)
    assert total("green", "aliens") == 0
    assert total("yellow", "aliens") < total("red", "aliens")
    planets = {band: sum(1 for t in tiles if t.band == band for c in t.corners if c.kind == "planet")
               for band in ("green", "yellow", "red")}
    assert planets["green"] < planets["yellow"] < planets["red"]
    reds = [c.colour for t in tiles for c in t.corners if c.kind == "planet" and c.colour == "red"]
    assert all(t.band == "red" for t in tiles for c in t.corners if c.kind == "planet" and c.colour == "red")
    assert reds

"""Pointy-top hex and vertex geometry on axial coordinates (pure, no drawing).

Hexes are axial ``(q, r)``. Vertices (the corners where three hexes meet) get exact integer keys
in "doubled" coordinates: ``X = 2q + r + dx`` and ``Y = 3r + dy``, so two hexes always agree on
the key of a corner they share and no floating point is ever compared.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

Hex = tuple[int, int]
Vertex = tuple[int, int]

# Axial neighbour directions, east first, then counter-clockwise.
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
# Corner offsets in doubled coordinates, clockwise from the top: N, NE, SE, S, SW, NW.
CORNER_OFFSETS: tuple[tuple[int, int], ...] = ((0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1))
SQRT3 = math.sqrt(3)


def neighbours(h: Hex) -> list[Hex]:
    """The six hexes around `h`."""
    return [(h[0] + dq, h[1] + dr) for dq, dr in DIRECTIONS]


def distance(a: Hex, b: Hex) -> int:
    """Steps between two hexes."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def corner(h: Hex, i: int) -> Vertex:
    """Corner `i` of `h` (0 = top, clockwise)."""
    dx, dy = CORNER_OFFSETS[i % 6]
    return (2 * h[0] + h[1] + dx, 3 * h[1] + dy)


def corners(h: Hex) -> tuple[Vertex, ...]:
    """The six corners of `h`, clockwise from the top."""
    return tuple(corner(h, i) for i in range(6))


def vertex_hexes(v: Vertex) -> tuple[Hex, Hex, Hex]:
    """The three hexes that meet at `v`."""
    x, y = v
    if y % 3 == 1:  # the top corner of the hex below it
        r = (y + 2) // 3
        q = (x - r) // 2
        return ((q, r), (q, r - 1), (q + 1, r - 1))
    if y % 3 == 2:  # the bottom corner of the hex above it
        r = (y - 2) // 3
        q = (x - r) // 2
        return ((q, r), (q - 1, r + 1), (q, r + 1))
    raise ValueError(f"{v} is not a hex corner")


def vertex_neighbours(v: Vertex) -> tuple[Vertex, Vertex, Vertex]:
    """The three corners one hex edge away from `v`."""
    x, y = v
    if y % 3 == 1:
        return ((x, y - 2), (x - 1, y + 1), (x + 1, y + 1))
    return ((x, y + 2), (x - 1, y - 1), (x + 1, y - 1))


def hex_to_pixel(h: Hex, size: float) -> tuple[float, float]:
    """Centre of `h` for hexes of circumradius `size`, origin at hex (0, 0)."""
    return (size * SQRT3 * (h[0] + h[1] / 2), size * 1.5 * h[1])


def vertex_to_pixel(v: Vertex, size: float) -> tuple[float, float]:
    """Position of corner `v` for hexes of circumradius `size`."""
    return (size * SQRT3 / 2 * v[0], size * v[1] / 2)


def hex_polygon(h: Hex, size: float) -> list[tuple[float, float]]:
    """The outline of `h` in pixels, clockwise from the top corner."""
    return [vertex_to_pixel(c, size) for c in corners(h)]


def touching(hexes: Iterable[Hex]) -> set[Vertex]:
    """Every corner of any of `hexes`."""
    return {c for h in hexes for c in corners(h)}

"""The board's fixed geometry: tile positions, sectors (tile vertices) and their links.

A sector is a vertex where three hexes meet (TP Move). Vertices inside the outpost piece are
Terra Prime itself and count as one sector, number 0; every other vertex touching the board is
numbered from 1, nearest Terra Prime first. Off-board hexes are deep space that is always
mapped (TP Move: "treat the edges of the board as tiles with nothing but deep space").
"""

from __future__ import annotations

import functools
import math
from collections import deque
from dataclasses import dataclass

from engine.maps import hexgrid
from engine.maps.hexgrid import Hex, Vertex
from engine.rulesets.terra_prime.data import Layout, layout

TERRA_PRIME = 0
Spot = tuple[int, int]  # (tile position, corner index on the board, 0 = top, clockwise)


@dataclass(frozen=True, slots=True)
class Board:
    layout: Layout
    hex_position: dict[Hex, int]                 # space hex -> tile position (1..42)
    sector_vertices: tuple[tuple[Vertex, ...], ...]  # by sector number (Terra Prime: its inner vertices)
    neighbours: tuple[tuple[int, ...], ...]
    spots: tuple[tuple[Spot, ...], ...]          # the tile corners that make up each sector
    tiles_at: tuple[tuple[int, ...], ...]        # the tile positions touching each sector
    spot_sector: dict[Spot, int]
    distance: tuple[int, ...]                    # steps to Terra Prime

    @property
    def positions(self) -> tuple[Hex, ...]:
        return self.layout.positions

    @property
    def sector_count(self) -> int:
        return len(self.neighbours)

    def band(self, position: int) -> str:
        return self.layout.bands[position - 1]

    def tile_sectors(self, position: int) -> tuple[int, ...]:
        """The six sectors around a tile, by board corner (0 = top, clockwise)."""
        return tuple(self.spot_sector[(position, c)] for c in range(6))

    def position_count(self) -> int:
        return len(self.layout.positions)


@functools.cache
def board(shape: str, outpost: str) -> Board:
    """The geometry of one layout (built once)."""
    lay = layout(shape, outpost)
    outpost_hexes = set(lay.outpost_hexes)
    hex_position = {h: i + 1 for i, h in enumerate(lay.positions)}
    on_board = outpost_hexes | set(hex_position)
    vertices = hexgrid.touching(on_board)
    inner = {v for v in vertices if all(h in outpost_hexes for h in hexgrid.vertex_hexes(v))}
    centre = _centroid([hexgrid.hex_to_pixel(h, 1.0) for h in lay.outpost_hexes])
    dist_from_outpost = _vertex_steps(vertices, inner)

    def order(v: Vertex) -> tuple[int, float]:
        x, y = hexgrid.vertex_to_pixel(v, 1.0)
        return (dist_from_outpost[v], (math.atan2(y - centre[1], x - centre[0]) + 2 * math.pi) % (2 * math.pi))

    outer = sorted(vertices - inner, key=order)
    number: dict[Vertex, int] = dict.fromkeys(inner, TERRA_PRIME)
    number.update({v: i + 1 for i, v in enumerate(outer)})
    count = len(outer) + 1
    links: list[set[int]] = [set() for _ in range(count)]
    for v, n in number.items():
        for w in hexgrid.vertex_neighbours(v):
            m = number.get(w)
            if m is not None and m != n:
                links[n].add(m)
    spots: list[list[Spot]] = [[] for _ in range(count)]
    spot_sector: dict[Spot, int] = {}
    for h, pos in hex_position.items():
        for c, v in enumerate(hexgrid.corners(h)):
            spots[number[v]].append((pos, c))
            spot_sector[(pos, c)] = number[v]
    distance = _steps(links)
    return Board(
        layout=lay, hex_position=hex_position,
        sector_vertices=(tuple(sorted(inner)), *((v,) for v in outer)),
        neighbours=tuple(tuple(sorted(s)) for s in links),
        spots=tuple(tuple(sorted(s)) for s in spots),
        tiles_at=tuple(tuple(sorted({p for p, _ in s})) for s in spots),
        spot_sector=spot_sector, distance=distance,
    )


def _centroid(points: list[tuple[float, float]]) -> tuple[float, float]:
    return (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))


def _vertex_steps(vertices: set[Vertex], start: set[Vertex]) -> dict[Vertex, int]:
    out = dict.fromkeys(start, 0)
    queue = deque(start)
    while queue:
        v = queue.popleft()
        for w in hexgrid.vertex_neighbours(v):
            if w in vertices and w not in out:
                out[w] = out[v] + 1
                queue.append(w)
    return out


def _steps(links: list[set[int]]) -> tuple[int, ...]:
    """Breadth-first steps from Terra Prime over the whole sector graph (TP Scoring: shortest path)."""
    out = [-1] * len(links)
    out[TERRA_PRIME] = 0
    queue = deque([TERRA_PRIME])
    while queue:
        n = queue.popleft()
        for m in links[n]:
            if out[m] < 0:
                out[m] = out[n] + 1
                queue.append(m)
    return tuple(out)


def pixel(b: Board, sector: int, size: float) -> tuple[float, float]:
    """Where a sector is drawn (Terra Prime: the middle of its inner vertices)."""
    return _centroid([hexgrid.vertex_to_pixel(v, size) for v in b.sector_vertices[sector]])

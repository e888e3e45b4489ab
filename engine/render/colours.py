"""Colours every picture shares: ink and paper, and each seat's colour and shape.

Seats are told apart without telling hues apart: Okabe-Ito colours (safe for the common colour
blindnesses), a seat named for a colour gets that colour, and every seat also has its own shape.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

Colour = tuple[int, int, int]

INK: Colour = (30, 30, 35)
PAPER: Colour = (246, 242, 232)
UNOWNED: Colour = (196, 196, 196)
WHITE: Colour = (250, 250, 250)

# Okabe-Ito, each with a name a seat may carry ("Red", "Blue"…).
_PALETTE: tuple[tuple[str, Colour], ...] = (
    ("blue", (0, 114, 178)), ("orange", (230, 159, 0)), ("green", (0, 158, 115)), ("red", (213, 94, 0)),
    ("sky", (86, 180, 233)), ("purple", (204, 121, 167)), ("yellow", (240, 228, 66)), ("black", (40, 40, 40)),
    ("white", WHITE), ("brown", (140, 90, 50)),
)
SEAT_COLOURS: tuple[Colour, ...] = tuple(c for _, c in _PALETTE)
_NAMED = dict(_PALETTE) | {"vermilion": (213, 94, 0), "pink": (204, 121, 167), "violet": (204, 121, 167),
                           "cyan": (86, 180, 233), "gold": (240, 228, 66), "grey": (120, 120, 120),
                           "gray": (120, 120, 120), "teal": (0, 158, 115)}
# every colour a seat can be given, for palettes fixed in advance (engine.render.palette)
ANY_SEAT: tuple[Colour, ...] = tuple(dict.fromkeys((*SEAT_COLOURS, *_NAMED.values(), UNOWNED)))
SHAPES = ("circle", "square", "triangle", "diamond", "hexagon", "star", "pentagon", "cross")


def _colour_word(seat: str) -> Colour | None:
    words = seat.casefold().replace("-", " ").split()
    return next((_NAMED[w] for w in words if w in _NAMED), None)


@functools.cache
def _assign(seats: tuple[str, ...]) -> dict[str, tuple[Colour, str]]:
    """Colour and shape per seat: a seat named for a colour gets it, the rest take the palette in order."""
    out: dict[str, tuple[Colour, str]] = {}
    taken: set[Colour] = set()
    for seat in seats:
        named = _colour_word(seat)
        if named is not None and named not in taken:
            out[seat] = (named, "")
            taken.add(named)
    free = [c for c in SEAT_COLOURS if c not in taken]
    for seat in seats:
        if seat not in out:
            colour = free.pop(0) if free else SEAT_COLOURS[seats.index(seat) % len(SEAT_COLOURS)]
            out[seat] = (colour, "")
    return {seat: (out[seat][0], SHAPES[i % len(SHAPES)]) for i, seat in enumerate(seats)}


def seat_colour(seats: Sequence[str], seat: str | None) -> Colour:
    if seat is None or seat not in seats:
        return UNOWNED
    return _assign(tuple(seats))[seat][0]


def seat_shape(seats: Sequence[str], seat: str | None) -> str:
    if seat is None or seat not in seats:
        return "circle"
    return _assign(tuple(seats))[seat][1]


def contrast(colour: Colour) -> Colour:
    """Ink that reads on `colour`."""
    r, g, b = colour
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 140 else WHITE


def shape_points(shape: str, x: float, y: float, r: float) -> list[tuple[float, float]]:
    def ring(n: int, start: float, radius: float = r) -> list[tuple[float, float]]:
        return [(x + radius * math.cos(start + 2 * math.pi * i / n), y + radius * math.sin(start + 2 * math.pi * i / n))
                for i in range(n)]
    if shape == "square":
        return [(x - r * 0.85, y - r * 0.85), (x + r * 0.85, y - r * 0.85), (x + r * 0.85, y + r * 0.85),
                (x - r * 0.85, y + r * 0.85)]
    if shape == "triangle":
        return ring(3, -math.pi / 2, r * 1.15)
    if shape == "diamond":
        return ring(4, -math.pi / 2, r * 1.1)
    if shape == "hexagon":
        return ring(6, 0)
    if shape == "pentagon":
        return ring(5, -math.pi / 2)
    if shape == "star":
        outer, inner = ring(5, -math.pi / 2, r * 1.15), ring(5, -math.pi / 2 + math.pi / 5, r * 0.55)
        return [p for pair in zip(outer, inner, strict=True) for p in pair]
    if shape == "cross":
        a, b = r * 0.35, r * 0.95
        return [(x - a, y - b), (x + a, y - b), (x + a, y - a), (x + b, y - a), (x + b, y + a), (x + a, y + a),
                (x + a, y + b), (x - a, y + b), (x - a, y + a), (x - b, y + a), (x - b, y - a), (x - a, y - a)]
    return ring(24, 0)

"""A picture's 256 colours, fixed in advance, and its PNG bytes.

Finding a palette in each picture (an octree over every pixel) cost as much as drawing it. The colours a
renderer draws are known beforehand: its flat colours, and where text is drawn in one colour over another,
the few shades antialiasing blends between the two. Mapping each pixel to the nearest of those is four times
quicker, and a picture's colours never shift with what else happens to be on it.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Iterable

from PIL import Image

from engine.render.colours import ANY_SEAT, INK, PAPER, WHITE, Colour, contrast

STEPS = 4   # shades between two colours text blends (at twice the preview's scale, four read as smooth)
# in every palette: ink, paper, every seat colour, and the letters and text drawn on each
BASE_FLATS: tuple[Colour, ...] = (INK, PAPER, WHITE, (255, 255, 255), *ANY_SEAT)
BASE_PAIRS: tuple[tuple[Colour, Colour], ...] = ((INK, PAPER), *((contrast(c), c) for c in ANY_SEAT))


def _between(a: Colour, b: Colour, steps: int) -> list[Colour]:
    return [(round(a[0] + (b[0] - a[0]) * k / (steps + 1)), round(a[1] + (b[1] - a[1]) * k / (steps + 1)),
             round(a[2] + (b[2] - a[2]) * k / (steps + 1))) for k in range(1, steps + 1)]


class Palette:
    """Flat colours first (kept exactly), then the shades between each pair; at most 256."""

    def __init__(self, flats: Iterable[Colour], pairs: Iterable[tuple[Colour, Colour]]) -> None:
        colours = dict.fromkeys((*BASE_FLATS, *flats))
        pairs = list(dict.fromkeys((*BASE_PAIRS, *pairs)))
        steps = STEPS
        while len(colours) + len(pairs) * steps > 256 and steps > 1:   # a crowded palette blends coarser
            steps -= 1
        for a, b in pairs:
            colours.update(dict.fromkeys(_between(a, b, steps)))
        self.colours: tuple[Colour, ...] = tuple(colours)[:256]
        self.image = Image.new("P", (1, 1))
        flat = [v for c in self.colours for v in c]
        self.image.putpalette(flat + flat[:3] * (256 - len(self.colours)))

    def png(self, image: Image.Image) -> bytes:
        """`image` as PNG bytes in this palette's colours.

        Pillow's deflate at level 1 writes a map in a few milliseconds; optimize=True took two thirds of a
        board's render time to save about 4% of its bytes."""
        out = io.BytesIO()
        image.quantize(palette=self.image, dither=Image.Dither.NONE).save(out, format="PNG", compress_level=1)
        return out.getvalue()


@functools.cache
def palette(flats: tuple[Colour, ...] = (), pairs: tuple[tuple[Colour, Colour], ...] = ()) -> Palette:
    """The palette of these flat colours and text-on-colour pairs (besides ink, paper and the seat colours)."""
    return Palette(flats, pairs)


BASE = palette()

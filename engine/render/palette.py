"""A picture's 256 colours, fixed in advance, and its PNG bytes.

Finding a palette in each picture (an octree over every pixel) cost as much as drawing it. The colours a
renderer draws are known beforehand: its flat colours, and where text is drawn in one colour over another,
the few shades antialiasing blends between the two. Mapping each pixel to the nearest of those is four times
quicker, and a picture's colours never shift with what else happens to be on it.

The PNG is written here, its pixels deflated by ISA-L (the `isal` package) at level 1: six times quicker
than the zlib Pillow loads, for a file a tenth smaller. A PNG of 8-bit palette indices is four chunks.
"""

from __future__ import annotations

import functools
import struct
import zlib
from collections.abc import Iterable

from isal import isal_zlib
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
        flat += flat[:3] * (256 - len(self.colours))   # every index a pixel can be given names a colour
        self.image.putpalette(flat)
        self._plte = _chunk(b"PLTE", bytes(flat))

    def png(self, image: Image.Image) -> bytes:
        """`image` as PNG bytes in this palette's colours."""
        indexed = image.quantize(palette=self.image, dither=Image.Dither.NONE)
        width, height = indexed.size
        rows = Image.new("P", (width + 1, height), 0)   # each row behind a zero byte: PNG's filter "none"
        rows.paste(indexed, (1, 0))
        header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)   # 8-bit indices into PLTE
        return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + self._plte
                + _chunk(b"IDAT", isal_zlib.compress(_raw(rows), 1)) + _chunk(b"IEND", b""))


def _raw(image: Image.Image) -> bytes:
    """An image's bytes, as `Image.tobytes` gives them, in one call of Pillow's raw encoder: tobytes encodes
    64 KB at a time and joins the pieces, 25 times slower for a map's 1.3 MB."""
    encoder = Image._getencoder(image.mode, "raw", (image.mode,))
    encoder.setimage(image.im, (0, 0, *image.size))
    pieces = []
    while True:
        _, done, data = encoder.encode(image.width * image.height * len(image.getbands()) + 64)
        pieces.append(data)
        if done:
            break
    return b"".join(pieces) if len(pieces) > 1 else pieces[0]


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


@functools.cache
def palette(flats: tuple[Colour, ...] = (), pairs: tuple[tuple[Colour, Colour], ...] = ()) -> Palette:
    """The palette of these flat colours and text-on-colour pairs (besides ink, paper and the seat colours)."""
    return Palette(flats, pairs)


BASE = palette()

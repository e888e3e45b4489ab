"""What a map draws the same way turn after turn, drawn once and kept: its static layer.

A layer is the picture of what does not change between turns (a board's geometry, place names set clear of
one another, a legend) together with the labels and reserved boxes drawn on it, so pieces drawn over it later
still keep clear of its names. It is kept under a key that holds everything it was drawn from, so a layer is
never shown to a viewer it was not drawn for: a key that names the viewer's hints (a GM's face-down tiles)
is a different layer. Maps are drawn in worker threads, so the store takes a lock.

A process keeps the most recent layers up to LAYER_BYTES (an 1100 px map's layer is about 4 MB).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass

from PIL import Image

LAYER_BYTES = 96 * 1024 * 1024



@dataclass(frozen=True, slots=True)
class Layer:
    image: Image.Image        # never drawn on again: a canvas starts from a copy
    labels: tuple[object, ...]
    taken: Image.Image        # where labels keep off, as a canvas keeps it (never drawn on again either)

    @property
    def bytes(self) -> int:
        return sum(im.width * im.height * len(im.getbands()) for im in (self.image, self.taken))


_kept: OrderedDict[Hashable, Layer] = OrderedDict()
_lock = threading.Lock()


def get(key: Hashable) -> Layer | None:
    with _lock:
        layer = _kept.get(key)
        if layer is not None:
            _kept.move_to_end(key)
        return layer


def put(key: Hashable, layer: Layer) -> None:
    with _lock:
        _kept[key] = layer
        _kept.move_to_end(key)
        total = sum(kept.bytes for kept in _kept.values())
        while total > LAYER_BYTES and len(_kept) > 1:
            _, dropped = _kept.popitem(last=False)
            total -= dropped.bytes


def forget() -> None:
    """Drop every kept layer (tests and the bench's first-render figures)."""
    with _lock:
        _kept.clear()

"""Drawing helpers shared by the map renderers: the bundled font, seat colours and shapes, labels, PNG bytes.

Sizes a renderer asks for are *preview pixels*: how tall the text is once Discord scales the picture to
its ~550 px preview. A canvas converts them to its own pixels, keeps every label's box (so labels avoid
one another and never leave the picture) and reports them, so tests can measure what a player sees.
"""

from __future__ import annotations

import functools
import io
import math
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from engine.render import layers
from engine.render.colours import (
    INK,
    PAPER,
    SEAT_COLOURS,
    SHAPES,
    UNOWNED,
    WHITE,
    Colour,
    contrast,
    seat_colour,
    seat_shape,
    shape_points,
)
from engine.render.palette import BASE, Palette

PREVIEW_WIDTH = 550     # Discord's inline preview of an attached image, about
TAKEN_SCALE = 4         # image pixels per cell of a canvas's map of taken places
NEAR_ENOUGH = 0.08      # a name stays beside its place when no more than this share of it is covered
MIN_TEXT = 11           # preview pixels: the least a player must be able to read

Box = tuple[float, float, float, float]
__all__ = ["INK", "PAPER", "SEAT_COLOURS", "SHAPES", "UNOWNED", "WHITE", "Colour", "contrast", "seat_colour",
           "seat_shape", "shape_points"]


@functools.cache
def _font_file(name: str) -> bytes:
    """A bundled font (DejaVu Sans, free licence: fonts/LICENSE.txt), read once from the package."""
    return resources.files("engine.render").joinpath("fonts", name).read_bytes()


@functools.cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The bundled DejaVu Sans at `size` image pixels."""
    return ImageFont.truetype(io.BytesIO(_font_file("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")), size)


@functools.lru_cache(maxsize=2048)
def _masks(text: str, size: int, bold: bool, anchor: str, stroked: bool,
           ) -> tuple[tuple[int, int, int, int], Image.Image, Image.Image | None]:
    """A label's coverage masks (and its box about the anchor), kept: maps redraw the same names every turn."""
    f = font(size, bold)
    width = max(1, size // 9) if stroked else 0
    x0, y0, x1, y1 = f.getbbox(text, anchor=anchor, stroke_width=width)
    x0, y0, x1, y1 = math.floor(x0) - 1, math.floor(y0) - 1, math.ceil(x1) + 1, math.ceil(y1) + 1
    fill = Image.new("L", (x1 - x0, y1 - y0), 0)
    ImageDraw.Draw(fill).text((-x0, -y0), text, font=f, fill=255, anchor=anchor)
    outline = None
    if stroked:
        outline = Image.new("L", (x1 - x0, y1 - y0), 0)
        ImageDraw.Draw(outline).text((-x0, -y0), text, font=f, fill=255, anchor=anchor, stroke_width=width,
                                     stroke_fill=255)
    return (x0, y0, x1, y1), fill, outline


@functools.lru_cache(maxsize=1024)
def _sticker(text: str, size: int, bold: bool, anchor: str, fill: Colour, stroke: Colour | None,
             ) -> tuple[tuple[int, int, int, int], Image.Image, Image.Image]:
    """A label in its colours (a stroked one's fill already blended over its stroke) and the mask it is pasted
    through, kept. Pillow pastes a picture through a mask several times quicker than it fills a colour
    through one, and a stroked label is one paste, not two: the labels were half of the work of drawing a
    map's static layer."""
    box, fill_mask, stroke_mask = _masks(text, size, bold, anchor, stroke is not None)
    if stroke_mask is None or stroke is None:
        return box, Image.new("RGB", fill_mask.size, fill), fill_mask
    picture = Image.new("RGB", fill_mask.size, stroke)
    picture.im.paste(fill, (0, 0, *fill_mask.size), fill_mask.im)
    return box, picture, stroke_mask


@functools.lru_cache(maxsize=4096)
def _bbox(text: str, size: int, bold: bool, anchor: str, stroke_width: int) -> tuple[float, float, float, float]:
    """Text's box about its anchor, kept: the same numbers and names are measured on every map."""
    return font(size, bold).getbbox(text, anchor=anchor, stroke_width=stroke_width)


@functools.lru_cache(maxsize=512)
def _mark_masks(shape: str, r: float, width: int) -> tuple[int, int, Image.Image, Image.Image]:
    """A shape's inside and outline as two-level masks (shapes are drawn without antialiasing, and Pillow
    fills through a two-level mask several times quicker), cut to what they cover: the offset of their
    top-left corner from the shape's centre, and the masks."""
    half = math.ceil(r * 1.2) + width + 1
    side = 2 * half + 1
    inside, ring = Image.new("1", (side, side), 0), Image.new("1", (side, side), 0)
    if shape == "circle":
        ImageDraw.Draw(inside).ellipse([half - r, half - r, half + r, half + r], fill=1)
        ImageDraw.Draw(ring).ellipse([half - r, half - r, half + r, half + r], outline=1, width=width)
    else:
        points = shape_points(shape, half, half, r)
        ImageDraw.Draw(inside).polygon(points, fill=1)
        if width > 1:   # as Canvas.polygon draws a wide outline
            ImageDraw.Draw(ring).line([*points, points[0], points[1]], fill=1, width=width, joint="curve")
        else:
            ImageDraw.Draw(ring).polygon(points, outline=1)
    x0, y0, x1, y1 = ring.getbbox() or (0, 0, 1, 1)
    ix0, iy0, ix1, iy1 = inside.getbbox() or (x0, y0, x1, y1)
    box = (min(x0, ix0), min(y0, iy0), max(x1, ix1), max(y1, iy1))
    return box[0] - half, box[1] - half, inside.crop(box), ring.crop(box)


def _covered(region: Any) -> int:
    """How many taken cells (255; the rest are 0) a part of the taken map holds: its mean, from Pillow's box
    reduction in floating point, times its size. A histogram built 256 Python numbers for each spot tried."""
    w: int
    h: int
    w, h = region.size
    if w == 0 or h == 0:
        return 0
    mean: float = region.convert("F", 0).reduce((w, h), (0, 0, w, h)).getpixel((0, 0))
    return round(mean * w * h / 255)


# farther spots for a label or chip when those beside its place are taken: rings of twelve (a name tries
# three, staying near its place; a chip, which a leader line ties to its place, five)
_FAR = tuple((math.cos(math.pi * i / 6) * k, math.sin(math.pi * i / 6) * k) for k in (1.3, 1.8, 2.4, 3.0, 3.6)
             for i in range(12))


@dataclass(frozen=True, slots=True)
class Label:
    """Text as drawn: its box in image pixels and its font size in image pixels."""

    text: str
    box: Box
    size: int


class Canvas:
    """A picture being drawn: its image, a drawing context, and every label and reserved box on it."""

    def __init__(self, width: int, height: int, background: Colour, *, shown_width: int | None = None,
                 palette: Palette = BASE) -> None:
        """`shown_width`: the width of the picture this one is pasted into at full size (an inset), which is
        what Discord scales to its preview; by default this picture's own. `palette`: the colours its PNG is
        written in (engine.render.palette): what the renderer draws with."""
        self.width, self.height = width, height
        self.shown_width = shown_width or width
        self.palette = palette
        self.image = Image.new("RGB", (width, height), background)
        self.draw = ImageDraw.Draw(self.image)
        self.labels: list[Label] = []
        # where labels should not go (other labels and marked shapes), a quarter of the picture's size: a
        # candidate spot's overlap is counted by Pillow, not box by box
        self.taken = Image.new("L", (-(-width // TAKEN_SCALE), -(-height // TAKEN_SCALE)), 0)
        self._mark = ImageDraw.Draw(self.taken)
        self._taken_core = self.taken.im

    @classmethod
    def layered(cls, key: Hashable, width: int, height: int, background: Colour,
                static: Callable[[Canvas], None], *, shown_width: int | None = None,
                palette: Palette = BASE) -> Canvas:
        """A canvas that starts from the static layer kept under `key`, drawn by `static` the first time.

        `key` must hold everything `static` draws from (engine.render.layers): the same key, the same layer."""
        layer = cls._layer((key, width, height, background, shown_width), width, height, background, static,
                           shown_width, palette)
        c = cls.__new__(cls)
        c.width, c.height = width, height
        c.shown_width = shown_width or width
        c.palette = palette
        c.image = layer.image.copy()
        c.draw = ImageDraw.Draw(c.image)
        c.labels = list(layer.labels)  # type: ignore[arg-type]
        c.taken = layer.taken.copy()
        c._mark = ImageDraw.Draw(c.taken)
        c._taken_core = c.taken.im
        return c

    @classmethod
    def _layer(cls, full: Hashable, width: int, height: int, background: Colour, static: Callable[[Canvas], None],
               shown_width: int | None, palette: Palette) -> layers.Layer:
        layer = layers.get(full)
        if layer is None:   # the fresh canvas is not drawn on again: its image and map become the layer's
            fresh = cls(width, height, background, shown_width=shown_width, palette=palette)
            static(fresh)
            layer = layers.Layer(fresh.image, tuple(fresh.labels), fresh.taken)
            layers.put(full, layer)
        return layer

    @classmethod
    def window(cls, key: Hashable, background: Colour, static: Callable[[Canvas, int, int], None],
               window: tuple[int, int, int, int], *, shown_width: int | None = None,
               palette: Palette = BASE) -> Canvas:
        """A w x h canvas showing the part at (left, top) of a larger static picture kept under `key`: a close-up
        that moves with a ship without drawing its tiles again.

        The picture is drawn and kept in pieces of twice the window's size, each the first time a window falls
        in it: `static(canvas, x, y)` draws the piece whose top-left corner is at (x, y). It draws no text (a
        label would be cut at the window's edge); `key` holds everything it draws from."""
        left, top, w, h = window
        x, y = left // w * w, top // h * h   # the piece holding the whole window
        layer = cls._layer(("window", key, x, y, w, h, background, shown_width), 2 * w, 2 * h, background,
                           lambda c: static(c, x, y), shown_width, palette)
        c = cls(w, h, background, shown_width=shown_width, palette=palette)
        c.image.paste(layer.image.crop((left - x, top - y, left - x + w, top - y + h)))
        return c

    def px(self, preview: float) -> int:
        """Image pixels that show as `preview` pixels in Discord's preview."""
        return math.ceil(preview * self.shown_width / PREVIEW_WIDTH)

    def font(self, preview: float, bold: bool = False) -> ImageFont.FreeTypeFont:
        return font(self.px(max(preview, MIN_TEXT)), bold)

    def reserve(self, box: Box) -> None:
        x0, y0 = int(box[0] // TAKEN_SCALE), int(box[1] // TAKEN_SCALE)
        x1, y1 = int(-(-box[2] // TAKEN_SCALE)) - 1, int(-(-box[3] // TAKEN_SCALE)) - 1
        if x1 >= x0 and y1 >= y0:
            self._mark.rectangle((x0, y0, x1, y1), fill=255)

    def sees(self, xy: tuple[float, float], margin: float = 0) -> bool:
        """Whether a point lies in the picture (or within `margin` of it): a close-up skips what it cuts off."""
        return -margin <= xy[0] <= self.width + margin and -margin <= xy[1] <= self.height + margin

    def polygon(self, points: Sequence[tuple[float, float]], *, fill: Colour | None = None,
                outline: Colour | None = None, width: int = 1) -> None:
        """A polygon with a wide outline drawn as a closed line: Pillow's own wide outline paints a mask as
        large as the whole picture for every polygon."""
        if fill is not None:
            self.draw.polygon(list(points), fill=fill)
        if outline is not None:
            if width <= 1:
                self.draw.polygon(list(points), outline=outline)
            else:
                self.draw.line([*points, points[0], points[1]], fill=outline, width=width, joint="curve")

    def reserve_circle(self, x: float, y: float, r: float) -> None:
        self.reserve((x - r, y - r, x + r, y + r))

    def measure(self, text: str, preview: float = MIN_TEXT, bold: bool = False) -> tuple[float, float]:
        x0, y0, x1, y1 = _bbox(text, self.px(max(preview, MIN_TEXT)), bold, "lm", 0)
        return x1 - x0, y1 - y0

    def text(self, xy: tuple[float, float], text: str, preview: float = MIN_TEXT, *, fill: Colour = INK,
             bold: bool = False, anchor: str = "mm", stroke: Colour | None = None, keep_in: bool = True,
             reserve: bool = True) -> Box:
        """Draw `text` at `xy` (moved inside the picture if it would cross an edge) and note its box."""
        size = self.px(max(preview, MIN_TEXT))
        (bx0, by0, bx1, by1), picture, mask = _sticker(text, size, bold, anchor, fill, stroke)
        x, y = round(xy[0]) + bx0, round(xy[1]) + by0
        if keep_in:
            x += max(0, 2 - x) - max(0, x + bx1 - bx0 - (self.width - 2))
            y += max(0, 2 - y) - max(0, y + by1 - by0 - (self.height - 2))
        box: Box = (x, y, x + bx1 - bx0, y + by1 - by0)
        core = self.image.im   # Pillow's own paste, less its checks: a map pastes hundreds of labels
        core.paste(picture.im, box, mask.im)
        self.labels.append(Label(text, box, size))
        if reserve:
            self.reserve(box)
        return box

    def spot(self, around: Box, w: float, h: float, *, gap: float = 2,
             order: Iterable[str] = ("below", "above", "right", "left", "br", "bl", "tr", "tl"), rings: int = 3,
             slack: float = 0.0) -> Box:
        """A free w x h box beside `around`, inside the picture, overlapping the fewest taken boxes.

        The spots next to `around` are tried first, then rings farther out; with `slack`, the best spot next
        to it is kept when no more than that share of it is covered, rather than one far off."""
        x0, y0, x1, y1 = around
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        spots = {"below": (cx, y1 + gap + h / 2), "above": (cx, y0 - gap - h / 2),
                 "right": (x1 + gap + w / 2, cy), "left": (x0 - gap - w / 2, cy),
                 "br": (x1 + w / 2, y1 + h / 2), "bl": (x0 - w / 2, y1 + h / 2),
                 "tr": (x1 + w / 2, y0 - h / 2), "tl": (x0 - w / 2, y0 - h / 2),
                 "below2": (cx, y1 + gap * 2 + h * 1.5), "above2": (cx, y0 - gap * 2 - h * 1.5),
                 "right2": (x1 + gap + w / 2, cy + h), "left2": (x0 - gap - w / 2, cy + h),
                 "right3": (x1 + gap + w / 2, cy - h), "left3": (x0 - gap - w / 2, cy - h)}
        rx, ry = w / 2 + (x1 - x0) / 2 + gap, h / 2 + (y1 - y0) / 2 + gap
        near = [spots[n] for n in (*order, "below2", "above2", "right2", "left2", "right3", "left3")]
        far = [(cx + dx * rx, cy + dy * ry) for dx, dy in _FAR[:12 * rings]]
        low_x, high_x, low_y, high_y = w / 2 + 2, self.width - w / 2 - 2, h / 2 + 2, self.height - h / 2 - 2
        crop, scale = self._taken_core.crop, TAKEN_SCALE
        tried: list[tuple[Box, Any]] = []   # each spot and its part of the taken map (Pillow's core image)
        for sx, sy in (*near, *far):
            sx = low_x if sx < low_x else high_x if sx > high_x else sx
            sy = low_y if sy < low_y else high_y if sy > high_y else sy
            box = (sx - w / 2, sy - h / 2, sx + w / 2, sy + h / 2)
            # the cells wholly inside the box: a box only touching a taken one is free
            x0, y0, x1, y1 = -int(-box[0] // scale), -int(-box[1] // scale), int(box[2] // scale), int(box[3] // scale)
            region = crop((x0, y0, x1 if x1 > x0 else x0, y1 if y1 > y0 else y0))
            if region.getbbox() is None:
                return box
            tried.append((box, region))
            if slack and len(tried) == len(near):
                box, cover = min(((b, _covered(r)) for b, r in tried), key=lambda t: t[1])
                if cover <= slack * w * h / scale ** 2:
                    return box
        # nowhere free: where least is covered, the earliest of equals
        return min(tried, key=lambda t: _covered(t[1]))[0]

    def place(self, around: Box, text: str, preview: float = MIN_TEXT, *, fill: Colour = INK, bold: bool = False,
              stroke: Colour | None = None, gap: float = 2,
              order: Iterable[str] = ("below", "above", "right", "left", "br", "bl", "tr", "tl")) -> Box:
        """Put `text` beside `around` where it overlaps the fewest taken boxes (none if it can) and stays inside."""
        size = self.px(max(preview, MIN_TEXT))
        x0, y0, x1, y1 = _bbox(text, size, bold, "mm", max(1, size // 9) if stroke else 0)
        box = self.spot(around, x1 - x0 + 2, y1 - y0 + 2, gap=gap, order=order, slack=NEAR_ENOUGH)
        self._leader(around, box, fill)
        # the text's box is not centred on its anchor: shift so the drawn box lands on the free one
        at = ((box[0] + box[2]) / 2 - (x0 + x1) / 2, (box[1] + box[3]) / 2 - (y0 + y1) / 2)
        return self.text(at, text, preview, fill=fill, bold=bold, stroke=stroke)

    def _leader(self, around: Box, box: Box, colour: Colour) -> None:
        """A thin line from a thing to its label when the label had to stand off: no one pairs them wrongly."""
        ax, ay = (around[0] + around[2]) / 2, (around[1] + around[3]) / 2
        nx, ny = min(max(ax, box[0]), box[2]), min(max(ay, box[1]), box[3])      # the label's nearest point
        ex, ey = min(max(nx, around[0]), around[2]), min(max(ny, around[1]), around[3])   # the thing's edge
        if math.dist((nx, ny), (ex, ey)) > self.px(4):
            self.draw.line([(ex, ey), (nx, ny)], fill=colour, width=max(1, self.px(0.6)))

    def arrow(self, a: tuple[float, float], b: tuple[float, float], colour: Colour, *, stop: float) -> None:
        """A seat's planned move: a line from a to b in its colour, edged in ink, with a head at b, both ends
        `stop` short of the places' marks."""
        width = max(3, self.px(2))
        length = math.dist(a, b) or 1.0
        ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
        start, tip = (a[0] + ux * stop, a[1] + uy * stop), (b[0] - ux * stop, b[1] - uy * stop)
        self.draw.line([start, tip], fill=INK, width=width + 4)
        self.draw.line([start, tip], fill=colour, width=width)
        head = self.px(7)
        self.polygon([tip, (tip[0] - ux * head - uy * head * 0.6, tip[1] - uy * head + ux * head * 0.6),
                      (tip[0] - ux * head + uy * head * 0.6, tip[1] - uy * head - ux * head * 0.6)],
                     fill=colour, outline=INK, width=2)

    def chip(self, around: Box, text: str, colour: Colour, *, order: Iterable[str] = ("right", "left", "br", "tr",
                                                                                       "bl", "tl", "below", "above"),
             ) -> Box:
        """A rounded tag in `colour` holding `text`, set beside `around` clear of other things."""
        w, _ = self.measure(text, bold=True)
        h = self.font(MIN_TEXT).size * 1.3
        box = self.spot(around, w + h * 0.5, h, gap=1, order=order, rings=5)
        self._leader(around, box, INK)
        self.draw.rounded_rectangle(box, radius=h / 4, fill=colour, outline=INK, width=2)
        self.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), text, fill=contrast(colour), bold=True,
                  reserve=False)
        self.reserve(box)
        return box

    def mark(self, shape: str, x: float, y: float, r: float, *, fill: Colour | None, outline: Colour | None,
             width: int = 2) -> None:
        """A shape (engine.render.colours.SHAPES) centred on the pixel nearest (x, y): its masks are drawn once
        for each size and kept, so a map's hundred places are a couple of pastes each."""
        dx, dy, inside, ring = _mark_masks(shape, round(r * 4) / 4, width)
        left, top = round(x) + dx, round(y) + dy
        box = (left, top, left + inside.width, top + inside.height)
        core = self.image.im
        if fill is not None:
            core.paste(fill, box, inside.im)
        if outline is not None:
            core.paste(outline, box, ring.im)

    def badge(self, seats: Sequence[str], seat: str | None, x: float, y: float, r: float, *,
              outline: Colour = INK, letter: bool = True) -> None:
        """A seat's mark: its shape in its colour, outlined, with its initial when there is room."""
        colour = seat_colour(seats, seat)
        self.mark(seat_shape(seats, seat), x, y, r, fill=colour, outline=outline, width=max(2, round(r / 6)))
        if letter and seat:
            size = int(r * 1.1)
            if size * PREVIEW_WIDTH / self.shown_width >= MIN_TEXT:
                self.text((x, y + r * 0.05), seat[:1].upper(), size * PREVIEW_WIDTH / self.shown_width,
                          fill=contrast(colour), bold=True, keep_in=False)

    def crop(self, height: int) -> None:
        """Drop what lies below `height` (labels there would have been kept inside the old edge)."""
        if height < self.height:
            self.image = self.image.crop((0, 0, self.width, height))
            self.height = height
            self.draw = ImageDraw.Draw(self.image)

    def inset(self, other: Canvas, at: tuple[int, int], outline: Colour) -> None:
        """Paste `other` (drawn with shown_width = this width) at `at`, framed; its labels become this one's."""
        x, y = at
        self.image.paste(other.image, (x, y))
        self.draw.rectangle([x - 1, y - 1, x + other.width, y + other.height], outline=outline, width=3)
        self.labels += [Label(lab.text, (lab.box[0] + x, lab.box[1] + y, lab.box[2] + x, lab.box[3] + y), lab.size)
                        for lab in other.labels]
        self.reserve((x - 2, y - 2, x + other.width + 2, y + other.height + 2))

    def png(self) -> bytes:
        return self.palette.png(self.image)

"""Drawing helpers shared by the map renderers: the bundled font, seat colours and shapes, labels, PNG bytes.

Sizes a renderer asks for are *preview pixels*: how tall the text is once Discord scales the picture to
its ~550 px preview. A canvas converts them to its own pixels, keeps every label's box (so labels avoid
one another and never leave the picture) and reports them, so tests can measure what a player sees.
"""

from __future__ import annotations

import functools
import io
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources

from PIL import Image, ImageDraw, ImageFont

PREVIEW_WIDTH = 550     # Discord's inline preview of an attached image, about
MIN_TEXT = 11           # preview pixels: the least a player must be able to read

Colour = tuple[int, int, int]
Box = tuple[float, float, float, float]

INK: Colour = (30, 30, 35)
PAPER: Colour = (246, 242, 232)
UNOWNED: Colour = (196, 196, 196)

# Okabe-Ito (safe for the common colour blindnesses), each with a name a seat may carry ("Red", "Blue"…).
# Every seat also gets a shape, so two seats are told apart without telling their hues apart.
_PALETTE: tuple[tuple[str, Colour], ...] = (
    ("blue", (0, 114, 178)), ("orange", (230, 159, 0)), ("green", (0, 158, 115)), ("red", (213, 94, 0)),
    ("sky", (86, 180, 233)), ("purple", (204, 121, 167)), ("yellow", (240, 228, 66)), ("black", (40, 40, 40)),
    ("white", (250, 250, 250)), ("brown", (140, 90, 50)),
)
SEAT_COLOURS: tuple[Colour, ...] = tuple(c for _, c in _PALETTE)
_NAMED = dict(_PALETTE) | {"vermilion": (213, 94, 0), "pink": (204, 121, 167), "violet": (204, 121, 167),
                           "cyan": (86, 180, 233), "gold": (240, 228, 66), "grey": (120, 120, 120),
                           "gray": (120, 120, 120), "teal": (0, 158, 115)}
SHAPES = ("circle", "square", "triangle", "diamond", "hexagon", "star", "pentagon", "cross")


@functools.cache
def _font_file(name: str) -> bytes:
    """A bundled font (DejaVu Sans, free licence: fonts/LICENSE.txt), read once from the package."""
    return resources.files("engine.render").joinpath("fonts", name).read_bytes()


@functools.cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The bundled DejaVu Sans at `size` image pixels."""
    return ImageFont.truetype(io.BytesIO(_font_file("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")), size)


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
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 140 else (250, 250, 250)


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


@dataclass(frozen=True, slots=True)
class Label:
    """Text as drawn: its box in image pixels and its font size in image pixels."""

    text: str
    box: Box
    size: int


class Canvas:
    """A picture being drawn: its image, a drawing context, and every label and reserved box on it."""

    def __init__(self, width: int, height: int, background: Colour, *, shown_width: int | None = None) -> None:
        """`shown_width`: the width of the picture this one is pasted into at full size (an inset), which is
        what Discord scales to its preview; by default this picture's own."""
        self.width, self.height = width, height
        self.shown_width = shown_width or width
        self.image = Image.new("RGB", (width, height), background)
        self.draw = ImageDraw.Draw(self.image)
        self.labels: list[Label] = []
        self.taken: list[Box] = []   # boxes labels should avoid: other labels and marked shapes
        self._grid: dict[tuple[int, int], list[Box]] = {}   # the same boxes by 64-px cell: placing stays quick

    def px(self, preview: float) -> int:
        """Image pixels that show as `preview` pixels in Discord's preview."""
        return math.ceil(preview * self.shown_width / PREVIEW_WIDTH)

    def font(self, preview: float, bold: bool = False) -> ImageFont.FreeTypeFont:
        return font(self.px(max(preview, MIN_TEXT)), bold)

    def reserve(self, box: Box) -> None:
        self.taken.append(box)
        for i in range(int(box[0]) >> 6, (int(box[2]) >> 6) + 1):
            for j in range(int(box[1]) >> 6, (int(box[3]) >> 6) + 1):
                self._grid.setdefault((i, j), []).append(box)

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

    def _cost(self, box: Box, enough: float = math.inf) -> float:
        """Area of `box` under taken boxes (a box in several cells counts in each: a fair ranking still);
        counting stops past `enough`, the best candidate's cost so far."""
        x0, y0, x1, y1 = box
        cost = 0.0
        grid = self._grid
        for i in range(int(x0) >> 6, (int(x1) >> 6) + 1):
            for j in range(int(y0) >> 6, (int(y1) >> 6) + 1):
                for tx0, ty0, tx1, ty1 in grid.get((i, j), ()):
                    if tx0 < x1 and x0 < tx1 and ty0 < y1 and y0 < ty1:
                        cost += (min(x1, tx1) - max(x0, tx0)) * (min(y1, ty1) - max(y0, ty0))
                if cost >= enough:
                    return cost
        return cost

    def measure(self, text: str, preview: float = MIN_TEXT, bold: bool = False) -> tuple[float, float]:
        f = self.font(preview, bold)
        x0, y0, x1, y1 = self.draw.textbbox((0, 0), text, font=f, anchor="lm")
        return x1 - x0, y1 - y0

    def text(self, xy: tuple[float, float], text: str, preview: float = MIN_TEXT, *, fill: Colour = INK,
             bold: bool = False, anchor: str = "mm", stroke: Colour | None = None, keep_in: bool = True,
             reserve: bool = True) -> Box:
        """Draw `text` at `xy` (moved inside the picture if it would cross an edge) and note its box."""
        size = self.px(max(preview, MIN_TEXT))
        (bx0, by0, bx1, by1), fill_mask, stroke_mask = _masks(text, size, bold, anchor, stroke is not None)
        x, y = round(xy[0]) + bx0, round(xy[1]) + by0
        if keep_in:
            x += max(0, 2 - x) - max(0, x + bx1 - bx0 - (self.width - 2))
            y += max(0, 2 - y) - max(0, y + by1 - by0 - (self.height - 2))
        if stroke_mask is not None and stroke is not None:
            self.image.paste(stroke, (x, y), stroke_mask)
        self.image.paste(fill, (x, y), fill_mask)
        box: Box = (x, y, x + bx1 - bx0, y + by1 - by0)
        self.labels.append(Label(text, box, size))
        if reserve:
            self.reserve(box)
        return box

    def spot(self, around: Box, w: float, h: float, *, gap: float = 2,
             order: Iterable[str] = ("below", "above", "right", "left", "br", "bl", "tr", "tl")) -> Box:
        """A free w x h box beside `around`, inside the picture, overlapping the fewest taken boxes."""
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
        far = [(cx + math.cos(a) * rx * k, cy + math.sin(a) * ry * k)
               for k in (1.3, 1.8, 2.4) for a in (math.pi * i / 6 for i in range(12))]
        best: tuple[float, Box] | None = None
        candidates = [spots[n] for n in (*order, "below2", "above2", "right2", "left2", "right3", "left3")] + far
        for sx, sy in candidates:
            sx = min(max(sx, w / 2 + 2), self.width - w / 2 - 2)
            sy = min(max(sy, h / 2 + 2), self.height - h / 2 - 2)
            box = (sx - w / 2, sy - h / 2, sx + w / 2, sy + h / 2)
            cost = self._cost(box, best[0] if best is not None else math.inf)
            if best is None or cost < best[0]:
                best = (cost, box)
            if cost == 0:
                break
        assert best is not None
        return best[1]

    def place(self, around: Box, text: str, preview: float = MIN_TEXT, *, fill: Colour = INK, bold: bool = False,
              stroke: Colour | None = None, gap: float = 2,
              order: Iterable[str] = ("below", "above", "right", "left", "br", "bl", "tr", "tl")) -> Box:
        """Put `text` beside `around` where it overlaps the fewest taken boxes (none if it can) and stays inside."""
        f = self.font(preview, bold)
        x0, y0, x1, y1 = self.draw.textbbox((0, 0), text, font=f, anchor="mm",
                                            stroke_width=max(1, f.size // 9) if stroke else 0)
        box = self.spot(around, x1 - x0 + 2, y1 - y0 + 2, gap=gap, order=order)
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

    def chip(self, around: Box, text: str, colour: Colour, *, order: Iterable[str] = ("right", "left", "br", "tr",
                                                                                       "bl", "tl", "below", "above"),
             ) -> Box:
        """A rounded tag in `colour` holding `text`, set beside `around` clear of other things."""
        w, _ = self.measure(text, bold=True)
        h = self.font(MIN_TEXT).size * 1.3
        box = self.spot(around, w + h * 0.5, h, gap=1, order=order)
        self._leader(around, box, INK)
        self.draw.rounded_rectangle(box, radius=h / 4, fill=colour, outline=INK, width=2)
        self.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), text, fill=contrast(colour), bold=True,
                  reserve=False)
        self.reserve(box)
        return box

    def badge(self, seats: Sequence[str], seat: str | None, x: float, y: float, r: float, *,
              outline: Colour = INK, letter: bool = True) -> None:
        """A seat's mark: its shape in its colour, outlined, with its initial when there is room."""
        colour = seat_colour(seats, seat)
        shape = seat_shape(seats, seat)
        width = max(2, round(r / 6))
        if shape == "circle":
            self.draw.ellipse([x - r, y - r, x + r, y + r], fill=colour, outline=outline, width=width)
        else:
            self.polygon(shape_points(shape, x, y, r), fill=colour, outline=outline, width=width)
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
        return png(self.image)


def text_centered(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int,
                  fill: Colour = INK, stroke: Colour | None = None) -> None:
    draw.text(xy, text, font=font(size), fill=fill, anchor="mm", stroke_width=2 if stroke else 0, stroke_fill=stroke)


def png(image: Image.Image) -> bytes:
    """PNG bytes in 256 colours: flat map colours survive, and the file is a third the size, sooner written.

    optimize=True took two thirds of a board's render time to save about 4% of its bytes."""
    out = io.BytesIO()
    image.quantize(256, method=Image.Quantize.FASTOCTREE).save(out, format="PNG", compress_level=1)
    return out.getvalue()

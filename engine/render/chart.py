"""Line charts of a campaign over time: one line per seat, drawn with Pillow like the maps.

A charting library (matplotlib) would cost tens of megabytes, a second of import, and tens of milliseconds a
chart; a few lines over a handful of turns need axes, ticks, lines, markers and labels, which the map canvas
already has (the bundled font, seat colours and shapes, labels that keep clear of each other).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from engine.render.canvas import INK, MIN_TEXT, PAPER, Canvas, seat_colour
from engine.render.palette import palette

WIDTH, HEIGHT = 1100, 700
GRID = (214, 208, 196)
PALETTE = palette((GRID,), ((INK, GRID),))

# A chart's data: its title, then per line (a seat) the points (turn, value) in turn order.
Series = Mapping[str, Sequence[tuple[int, float]]]


def _ticks(low: float, high: float, most: int = 6) -> list[float]:
    """Round tick values covering low..high (1, 2 or 5 times a power of ten apart)."""
    span = max(high - low, 1e-9)
    raw = span / most
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    start = math.floor(low / step) * step
    out = []
    value = start
    while value <= high + step * 0.5:
        out.append(round(value, 10))
        value += step
    return out


def _number(value: float) -> str:
    return f"{value:,.0f}" if abs(value) >= 100 or value == int(value) else f"{value:,.1f}"


def line_chart(series: Series, *, title: str, unit: str, seats: Sequence[str]) -> bytes:
    """A PNG line chart: turns across, `unit` up, one line per seat in its colour with its shape at each point."""
    return draw_chart(series, title=title, unit=unit, seats=seats).png()


def draw_chart(series: Series, *, title: str, unit: str, seats: Sequence[str]) -> Canvas:
    c = Canvas(WIDTH, HEIGHT, PAPER, palette=PALETTE)
    c.text((WIDTH / 2, c.px(MIN_TEXT * 0.9)), title, MIN_TEXT * 1.2, bold=True)
    points = [p for line in series.values() for p in line]
    turns = [t for t, _ in points] or [1]
    values = [v for _, v in points] or [0.0]
    t0, t1 = min(turns), max(max(turns), min(turns) + 1)
    ticks = _ticks(min(0.0, min(values)), max(values) if max(values) > min(0.0, min(values)) else 1.0)
    v0, v1 = ticks[0], ticks[-1]
    label_w = max(c.measure(_number(v))[0] for v in ticks) + 12
    end_w = max((c.measure(f"{seat} {_number(line[-1][1])}", bold=True)[0] for seat, line in series.items() if line),
                default=0) + c.px(MIN_TEXT) * 1.2
    left, right = label_w + 8, WIDTH - end_w - 10
    top, bottom = c.px(MIN_TEXT * 2.4), HEIGHT - c.px(MIN_TEXT * 2.6)

    def at(turn: float, value: float) -> tuple[float, float]:
        return (left + (turn - t0) / (t1 - t0) * (right - left), bottom - (value - v0) / (v1 - v0) * (bottom - top))

    for v in ticks:
        _, y = at(t0, v)
        c.draw.line([(left, y), (right, y)], fill=GRID, width=2)
        c.text((left - 8, y), _number(v), anchor="rm")
    step = max(1, math.ceil((t1 - t0 + 1) / 12))
    for turn in range(t0, t1 + 1, step):
        x, _ = at(turn, v0)
        c.draw.line([(x, bottom), (x, bottom + 8)], fill=INK, width=2)
        c.text((x, bottom + 8 + c.px(MIN_TEXT) * 0.6), str(turn))
    c.draw.line([(left, top), (left, bottom), (right, bottom)], fill=INK, width=2)
    c.text(((left + right) / 2, HEIGHT - c.px(MIN_TEXT) * 0.7), "turn")
    c.text((left, top - c.px(MIN_TEXT) * 0.8), unit, anchor="lm")
    width = max(3, c.px(1.6))
    marker = c.px(4)
    for seat, line in series.items():
        xy = [at(t, v) for t, v in line]
        colour = seat_colour(seats, seat)
        if len(xy) > 1:
            c.draw.line(xy, fill=colour, width=width, joint="curve")
        for x, y in xy:
            c.badge(seats, seat, x, y, marker, letter=False)
    ends = sorted(((at(*line[-1])[1], seat) for seat, line in series.items() if line))
    placed: list[float] = []
    gap = c.px(MIN_TEXT) * 1.15
    for y, _ in ends:  # end-of-line names, nudged apart so none covers another
        y = max(y, placed[-1] + gap) if placed else y
        placed.append(y)
    shift = max(0.0, placed[-1] - (HEIGHT - gap / 2)) if placed else 0.0
    for (_, seat), y in zip(ends, placed, strict=True):
        last = series[seat][-1]
        c.text((right + marker * 2 + 4, y - shift), f"{seat} {_number(last[1])}", fill=INK, bold=True, anchor="lm")
    return c

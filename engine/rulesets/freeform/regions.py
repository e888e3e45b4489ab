"""A campaign's own regions: a small TOML list the GM uploads, and a schematic map of it."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.core.errors import UploadError
from engine.core.upload import load_toml
from engine.render.canvas import INK, MIN_TEXT, PAPER, Canvas, seat_colour
from engine.render.palette import palette

MAX_REGIONS = 200


@dataclass(frozen=True, slots=True)
class Region:
    name: str
    x: float | None = None
    y: float | None = None
    owner: str | None = None
    links: tuple[str, ...] = ()


def parse_regions(text: str, seats: Sequence[str] = ()) -> list[Region]:
    """Read a region list (README, "Freeform regions")::

        [[region]]
        name = "Gaul"
        x = 40            # optional position, 0-100 across
        y = 30            # optional, 0-100 down
        owner = "Rome"    # optional seat
        links = ["Iberia"]
    """
    raw = load_toml("regions", text)
    entries = raw.get("region")
    if not isinstance(entries, list) or not entries:
        raise UploadError("no regions found: write one [[region]] block per region, each with a name")
    if len(entries) > MAX_REGIONS:
        raise UploadError(f"at most {MAX_REGIONS} regions")
    regions: list[Region] = []
    names: set[str] = set()
    for i, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict):
            raise UploadError(f"`region` entry {i} is not a [[region]] block with a name")
        name = entry.get("name", "")
        if not isinstance(name, str):
            raise UploadError(f"region {i}: `name` must be text in quotes")
        name = name.strip()
        if not name or len(name) > 40:
            raise UploadError(f"region {i}: a name of 1-40 characters is required")
        if name in names:
            raise UploadError(f"region `{name}` is listed twice")
        names.add(name)
        xy = [entry.get("x"), entry.get("y")]
        if (xy[0] is None) != (xy[1] is None):
            raise UploadError(f"region `{name}`: give both x and y, or neither")
        for v in xy:
            if v is not None and (isinstance(v, bool) or not isinstance(v, int | float) or not 0 <= v <= 100):
                raise UploadError(f"region `{name}`: x and y run from 0 to 100")
        owner = entry.get("owner")
        if owner is not None and not isinstance(owner, str):
            raise UploadError(f"region `{name}`: `owner` must be a seat's name in quotes")
        if owner is not None and seats and owner not in seats:
            raise UploadError(f"region `{name}`: owner `{owner[:40]}` is not a seat ({', '.join(seats)})")
        raw_links = entry.get("links", [])
        if not isinstance(raw_links, list) or not all(isinstance(x, str) for x in raw_links):
            raise UploadError(f"region `{name}`: `links` must be a list of region names, like [\"Iberia\"]")
        links = tuple(raw_links)
        regions.append(Region(name, xy[0], xy[1], owner, links))
    for region in regions:
        for link in region.links:
            if link not in names:
                raise UploadError(f"region `{region.name}` links to `{link[:40]}`, which is not listed")
    return regions


def _positions(regions: Sequence[Region]) -> dict[str, tuple[float, float]]:
    """Given positions where the GM set them; the rest on a ring, in list order."""
    unplaced = [r for r in regions if r.x is None]
    out: dict[str, tuple[float, float]] = {}
    for region in regions:
        if region.x is not None and region.y is not None:
            out[region.name] = (region.x, region.y)
    for i, region in enumerate(unplaced):
        angle = 2 * math.pi * i / max(1, len(unplaced)) - math.pi / 2
        out[region.name] = (50 + 50 * math.cos(angle), 50 + 50 * math.sin(angle))
    return out


def neighbours(regions: Sequence[Region]) -> dict[str, set[str]]:
    """Each region's links, both ways (a link listed on one side joins both)."""
    out: dict[str, set[str]] = {r.name: set() for r in regions}
    for region in regions:
        for link in region.links:
            out[region.name].add(link)
            out[link].add(region.name)
    return out


def in_sight(regions: Sequence[Region], seat: str) -> set[str]:
    """Under fog: the seat's own regions and the regions linked to them."""
    links = neighbours(regions)
    own = {r.name for r in regions if r.owner == seat}
    return own | {n for name in own for n in links[name]}


WIDTH = 1100


def render_regions(regions: Sequence[Region], seats: Sequence[str], *, title: str, turn: int | None = None,
                   suffix: str = "", visible: set[str] | None = None, owners_shown: bool = True,
                   orders: Sequence[str] = (), seat: str | None = None) -> bytes:
    """The region map: nodes coloured and shaped by owner, links as lines, a legend of seats and unowned.

    `visible`, when given, is every region the viewer may see (fog): the others are not drawn at all.
    `orders` are `seat`'s own pending lines: a line naming two regions ("from A to B", "A -> B") becomes an
    arrow, a line naming one a ring around it. The heading reads "`title`, turn `turn``suffix`"."""
    return draw_regions(regions, seats, title=title, turn=turn, suffix=suffix, visible=visible,
                        owners_shown=owners_shown, orders=orders, seat=seat).png()


_TOWARDS = re.compile(r"\s(?:to|into|on|onto|against|towards?|->|→)\s", re.IGNORECASE)


def mentioned(orders: Sequence[str], names: Sequence[str]) -> list[tuple[str, ...]]:
    """Per order line, the regions it names in the order written: (from, to) for a movement, (at,) otherwise."""
    patterns = [(name, re.compile(rf"(?<!\w){re.escape(name)}(?!\w)", re.IGNORECASE)) for name in names]
    out: list[tuple[str, ...]] = []
    for line in orders:
        found = sorted((m.start(), name) for name, pattern in patterns if (m := pattern.search(line)))
        if len(found) >= 2 and _TOWARDS.search(line[found[0][0]:found[-1][0] + 1]):
            out.append((found[0][1], found[-1][1]))
        elif found:
            out.append(tuple(name for _, name in found))
    return out


LINK = (140, 130, 115)
PALETTE = palette((LINK,), ((INK, LINK), (PAPER, LINK)))


def draw_regions(regions: Sequence[Region], seats: Sequence[str], *, title: str, turn: int | None = None,
                 suffix: str = "", visible: set[str] | None = None, owners_shown: bool = True,
                 orders: Sequence[str] = (), seat: str | None = None) -> Canvas:
    """Links, names and the legend come from the kept static layer (engine.render.layers): only holders,
    the title and the seat's own orders are drawn each time."""
    shown = [r for r in regions if visible is None or r.name in visible]
    legend_rows = (len(seats) + 1 + 2) // 3
    probe = Canvas(WIDTH, 10, PAPER)
    row = probe.px(MIN_TEXT) * 1.6
    top, margin = probe.px(MIN_TEXT * 2.2), probe.px(MIN_TEXT * 2.4)
    map_h = int(WIDTH * 0.72)
    height = int(top + map_h + legend_rows * row + row)
    raw = _positions(regions)
    xs = [raw[r.name][0] for r in regions] or [0.0]
    ys = [raw[r.name][1] for r in regions] or [0.0]
    span_x, span_y = max(max(xs) - min(xs), 1e-6), max(max(ys) - min(ys), 1e-6)
    radius = max(probe.px(9), min(probe.px(16), int(WIDTH / (3.2 * math.sqrt(len(regions) + 1)))))
    x_room, y_room = WIDTH - 2 * margin, map_h - 2 * margin + radius
    pos = {name: (margin + (x - min(xs)) / span_x * x_room if len(set(xs)) > 1 else WIDTH / 2,
                  top + margin / 2 + (y - min(ys)) / span_y * y_room if len(set(ys)) > 1 else top + map_h / 2)
           for name, (x, y) in raw.items()}
    entries: list[tuple[str | None, str]] = [(s, s) for s in seats] + [(None, "unowned")]
    if not owners_shown:
        entries = [(None, "owners hidden (fog)")]

    def static(c: Canvas) -> None:
        widest = f"{title}, turn 8888{suffix}" if turn is not None else f"{title}{suffix}"
        w, h = c.measure(widest, MIN_TEXT * 1.4, bold=True)   # the heading at its widest: names keep off it
        c.reserve((WIDTH / 2 - w / 2 - 4, top / 2 - h / 2 - 4, WIDTH / 2 + w / 2 + 4, top / 2 + h / 2 + 4))
        names = {r.name for r in shown}
        for region in shown:
            for link in region.links:
                if link in names:
                    c.draw.line([pos[region.name], pos[link]], fill=LINK, width=max(2, c.px(1.2)))
        for region in shown:
            x, y = pos[region.name]
            c.reserve_circle(x, y, radius + 2)
        for region in shown:
            x, y = pos[region.name]
            c.place((x - radius, y - radius, x + radius, y + radius), region.name, stroke=PAPER, gap=3)
        ly0 = top + map_h
        for i, (who, label) in enumerate(entries):
            lx, ly = margin / 2 + (i % 3) * (WIDTH - margin) / 3, ly0 + (i // 3) * row + row / 2
            c.badge(seats, who, lx + row * 0.3, ly, row * 0.3, letter=False)
            c.text((lx + row * 0.75, ly), label, anchor="lm")

    # what the layer is drawn from: every region's place and links (positions are scaled over all of them),
    # which are shown, the seats and the legend; never who holds what
    key = ("freeform", title, suffix, turn is None, tuple((r.name, r.x, r.y, r.links) for r in regions),
           tuple(r.name for r in shown), tuple(seats), tuple(entries))
    c = Canvas.layered(key, WIDTH, height, PAPER, static, palette=PALETTE)
    heading = f"{title}, turn {turn}{suffix}" if turn is not None else f"{title}{suffix}"
    c.text((WIDTH / 2, top / 2), heading, MIN_TEXT * 1.4, bold=True)
    for region in shown:
        x, y = pos[region.name]
        c.badge(seats, region.owner if owners_shown else None, x, y, radius, letter=False)
    drawn = mentioned(orders, [r.name for r in shown]) if orders and seat in seats else []
    if drawn and seat is not None:
        _planned(c, drawn, pos, seat_colour(seats, seat), radius)
        c.text((WIDTH / 2, top + map_h - c.px(MIN_TEXT) * 0.6), f"{seat}'s pending orders shown", bold=True)
    return c


def _planned(c: Canvas, lines: list[tuple[str, ...]], pos: Mapping[str, tuple[float, float]],
             colour: tuple[int, int, int], radius: float) -> None:
    width = max(3, c.px(2))
    for names in lines:
        if len(names) == 2 and names[0] != names[1]:
            c.arrow(pos[names[0]], pos[names[1]], colour, stop=radius + 4)
        else:
            for name in names:
                x, y = pos[name]
                r = radius + c.px(4)
                c.draw.ellipse([x - r, y - r, x + r, y + r], outline=colour, width=width)

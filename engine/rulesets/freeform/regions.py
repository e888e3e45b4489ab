"""A campaign's own regions: a small TOML list the GM uploads, and a schematic map of it."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from engine.core.errors import UploadError
from engine.core.upload import load_toml
from engine.render.canvas import INK, PAPER, font, png, seat_colour, text_centered

MAX_REGIONS = 200


@dataclass(frozen=True, slots=True)
class Region:
    name: str
    x: float | None = None
    y: float | None = None
    owner: str | None = None
    links: tuple[str, ...] = ()

    def dump(self) -> dict[str, Any]:
        return {"name": self.name, "x": self.x, "y": self.y, "owner": self.owner, "links": list(self.links)}

    @classmethod
    def load(cls, raw: Mapping[str, Any]) -> Region:
        return cls(raw["name"], raw.get("x"), raw.get("y"), raw.get("owner"), tuple(raw.get("links", ())))


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
        out[region.name] = (50 + 40 * math.cos(angle), 50 + 40 * math.sin(angle))
    return out


def render_regions(regions: Sequence[Region], seats: Sequence[str], *, title: str, size: int = 900) -> bytes:
    """The region map: nodes coloured by owner, links as lines, a legend of seats."""
    margin, legend_h = 60, 28 * ((len(seats) + 3) // 4) + 20
    image = Image.new("RGB", (size, size + legend_h), PAPER)
    draw = ImageDraw.Draw(image)
    pos = {n: (margin + x / 100 * (size - 2 * margin), 50 + margin + y / 100 * (size - 2 * margin - 50))
           for n, (x, y) in _positions(regions).items()}
    text_centered(draw, (size / 2, 28), title, 26)
    for region in regions:
        for link in region.links:
            draw.line([pos[region.name], pos[link]], fill=(140, 130, 115), width=3)
    radius = max(14, min(34, int(size / (2.5 * math.sqrt(len(regions) + 1)))))
    for region in regions:
        x, y = pos[region.name]
        draw.ellipse([x - radius, y - radius, x + radius, y + radius],
                     fill=seat_colour(seats, region.owner), outline=INK, width=2)
        text_centered(draw, (x, y + radius + 12), region.name, 15, stroke=PAPER)
    for i, seat in enumerate(seats):
        lx, ly = 20 + (i % 4) * (size - 40) / 4, size + 10 + (i // 4) * 28
        draw.rectangle([lx, ly, lx + 18, ly + 18], fill=seat_colour(seats, seat), outline=INK)
        draw.text((lx + 26, ly + 9), seat, font=font(15), fill=INK, anchor="lm")
    return png(image)

"""The map: New World areas (and the East Indies) placed by longitude and latitude, drawn schematically.

Everything drawn is public (holdings, forces and fleets on the map, native levels, blight), so every
viewer gets the same picture; treasuries, gold, goods and the pools in Europe are never drawn.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.core.visibility import Viewer
from engine.render.canvas import INK, PAPER, font, png, seat_colour, text_centered
from engine.rulesets.terra_nova.end_of_turn import controller
from engine.rulesets.terra_nova.geography import Place, geography
from engine.rulesets.terra_nova.sequence import phase_of
from engine.rulesets.terra_nova.state import Force, Holding, TNState

SEA = (214, 230, 240)
LAND = (236, 226, 200)
LANE = (150, 180, 205)
BORDER = (185, 160, 120)
BLIGHT = (140, 90, 40)
RADIUS = 15


@dataclass(frozen=True)
class Frame:
    """A lon/lat box drawn into a pixel box (equirectangular)."""

    lon0: float
    lon1: float
    lat0: float
    lat1: float
    x0: float
    y0: float
    x1: float
    y1: float

    def xy(self, lon: float, lat: float) -> tuple[float, float]:
        x = self.x0 + (lon - self.lon0) / (self.lon1 - self.lon0) * (self.x1 - self.x0)
        y = self.y0 + (self.lat1 - lat) / (self.lat1 - self.lat0) * (self.y1 - self.y0)
        return x, y


NEW_WORLD = Frame(-128, -20, -60, 73, 10, 60, 920, 1090)
INDIES = Frame(68, 134, -12, 28, 940, 520, 1390, 790)


def _code(h: Holding | None, force: Force | None) -> str:
    """A short chip: S settlements, T towns, P plantations, M missions, F fort, X factory; m men, s ships."""
    parts = []
    if h:
        for n, letter in ((h.settlements, "S"), (h.towns, "T"), (h.plantations, "P"), (len(h.missions), "M"),
                          (h.forts, "F"), (h.factories, "X")):
            if n:
                parts.append(f"{n}{letter}" if n > 1 else letter)
    if force:
        men = sum(n for u, n in force.units.items())
        boats = sum(force.ships.values())
        if men:
            parts.append(f"{men}m")
        if boats:
            parts.append(f"{boats}s")
    return " ".join(parts)


def _frame_of(place: Place) -> Frame:
    return INDIES if place.is_indies else NEW_WORLD


def render_map(state: TNState, viewer: Viewer) -> bytes:
    """The campaign map as PNG bytes: the same public picture for every viewer."""
    geo = geography()
    east = bool(state.options.get("east_indies"))
    width, height = 1400, 1100
    image = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle([NEW_WORLD.x0, NEW_WORLD.y0, NEW_WORLD.x1, NEW_WORLD.y1], fill=SEA)
    if east:
        draw.rectangle([INDIES.x0, INDIES.y0, INDIES.x1, INDIES.y1], fill=SEA, outline=INK)
        draw.text((INDIES.x0 + 8, INDIES.y0 + 6), "The East Indies", font=font(18), fill=INK)
    places = {p.name: p for p in geo.in_play(east)}
    pos = {name: _frame_of(p).xy(p.lon, p.lat) for name, p in places.items()}
    for a, links in geo.borders.items():
        for b in links:
            if a < b:
                draw.line([pos[a], pos[b]], fill=BORDER, width=2)
    for a, lanes in geo.lanes.items():
        for b in lanes:
            na, nb = a.split("/")[0], b.split("/")[0]
            if na < nb and na in pos and nb in pos and places[na].kind != "box" and places[nb].kind != "box":
                draw.line([pos[na], pos[nb]], fill=LANE, width=2)
    seats = state.seats
    for name, place in places.items():
        x, y = pos[name]
        if place.kind == "europe":
            draw.rounded_rectangle([x - 52, y - 24, x + 52, y + 24], 8, fill=LAND, outline=INK, width=2)
            text_centered(draw, (x, y), "EUROPE", 17)
            continue
        area = state.areas.get(name)
        owner = controller(state, name) if area else None
        r = RADIUS if place.kind in ("land", "indies") else RADIUS - 6
        fill = seat_colour(seats, owner) if owner else (LAND if place.kind in ("land", "indies") else SEA)
        if place.kind == "box":
            draw.rectangle([x - 20, y - 14, x + 20, y + 14], fill=SEA, outline=INK, width=2)
            text_centered(draw, (x, y), "CSB", 13)
        else:
            draw.ellipse([x - r, y - r, x + r, y + r], fill=fill, outline=INK, width=2)
        if area and place.kind == "land":
            text_centered(draw, (x, y), str(area.natives) + ("T" if place.treasure else ""), 15)
        elif area and area.commodity:
            text_centered(draw, (x, y), area.commodity[:2], 13)
        text_centered(draw, (x, y + r + 10), name, 13, stroke=PAPER)
        if area and area.blight:
            draw.ellipse([x + r - 6, y - r - 6, x + r + 6, y - r + 6], fill=BLIGHT)
            text_centered(draw, (x + r, y - r), str(area.blight), 10, fill=PAPER)
        chips = []
        for seat in seats:
            holding = area.holdings.get(seat) if area else None
            force = state.peek(name, seat)
            code = _code(holding, force)
            if code:
                chips.append((seat, code))
        for i, (seat, code) in enumerate(chips):          # beside the circle, stacked
            cy = y + (i - (len(chips) - 1) / 2) * 17
            w = draw.textlength(code, font=font(12)) + 8
            left = x + (22 if place.kind == "box" else r + 3)
            draw.rounded_rectangle([left, cy - 8, left + w, cy + 8], 4, fill=seat_colour(seats, seat), outline=INK)
            text_centered(draw, (left + w / 2, cy), code, 12)
    phase = phase_of(state)
    title = f"Terra Nova · {state.year} (turn {state.turn}) · {phase.label}".replace("—", "-")
    text_centered(draw, (width / 2, 28), title, 22)
    _legend(draw, seats, state, 940, 820 if east else 520)
    return png(image)


def _legend(draw: ImageDraw.ImageDraw, seats: list[str], state: TNState, x: float, y: float) -> None:
    draw.text((x, y), "Powers", font=font(17), fill=INK)
    for i, seat in enumerate(seats):
        ly = y + 26 + i * 24
        draw.rectangle([x, ly, x + 18, ly + 18], fill=seat_colour(seats, seat), outline=INK)
        draw.text((x + 26, ly + 9), f"{seat}: {state.powers[seat].vp} VP", font=font(15), fill=INK, anchor="lm")
    ky = y + 36 + len(seats) * 24
    notes = ["Circle: native level (T: treasure cities),", "  filled in the colour of the power in control",
             "Chips: S settlement, T town, P plantation, M mission,", "  F fort, X factory, m men, s ships",
             "Brown dot: blight markers", "Lines: borders (brown), sea lanes (blue)"]
    for i, line in enumerate(notes):
        draw.text((x, ky + i * 19), line, font=font(12), fill=INK)

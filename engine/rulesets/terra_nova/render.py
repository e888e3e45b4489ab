"""The map: New World areas (and the East Indies) placed by longitude and latitude, drawn schematically.

Everything drawn is public (holdings, forces and fleets on the map, native levels, blight), so every
viewer gets the same picture; treasuries, gold, goods and the pools in Europe are never drawn.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from engine.core.visibility import Viewer
from engine.render.canvas import INK, MIN_TEXT, PAPER, PREVIEW_WIDTH, Box, Canvas, contrast, seat_colour
from engine.render.palette import palette
from engine.rulesets.terra_nova.end_of_turn import controller
from engine.rulesets.terra_nova.geography import CSB, EUROPE, INDIES_CSB, Place, geography
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


WIDTH, HEIGHT = 1100, 1180
NEW_WORLD = Frame(-128, -20, -60, 73, 16, 70, 730, 1165)
INDIES = Frame(68, 134, -12, 28, 752, 740, 1080, 960)
SIDE = 748   # the right-hand column: Europe, the boxes, the Indies, the legend


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


def render_map(state: TNState, viewer: Viewer, orders: Sequence[str] = ()) -> bytes:
    """The campaign map as PNG bytes: the same public picture for every viewer, plus, on a seat's own map,
    that seat's pending orders."""
    return draw_map(state, viewer, orders).png()


_ROUTE = re.compile(r"\bfrom (?P<a>.+?) to (?P<b>.+?)(?= via | carrying | leaders |$)")
_BUILD = re.compile(r"^(?:settle|town|plantation|mission|factory) (?P<at>.+?)(?= with | bribe |$)|"
                    r"^buy .+? at (?P<buy>.+)$")
_FIGHT = re.compile(r"^attack .+? in (?P<at>.+?)(?= city | tactic |$)")


def planned(orders: Sequence[str], places: Collection[str]) -> list[tuple[str, str, str]]:
    """What orders draw: ("move", from, to), ("build", at, ""), ("attack", at, "") for places on the map."""
    out = []
    for line in orders:
        text = line.strip()
        if (m := _ROUTE.search(text)) and m["a"].split("/")[0] in places and m["b"].split("/")[0] in places:
            out.append(("move", m["a"].split("/")[0], m["b"].split("/")[0]))
        elif (m := _BUILD.match(text)) and (at := (m["at"] or m["buy"] or "").split("/")[0]) in places:
            out.append(("build", at, ""))
        elif (m := _FIGHT.match(text)) and m["at"].split("/")[0] in places:
            out.append(("attack", m["at"].split("/")[0], ""))
    return out


def _orders(c: Canvas, state: TNState, viewer: Viewer, orders: Sequence[str],
            pos: dict[str, tuple[float, float]]) -> None:
    if viewer.kind != "seat" or viewer.seat not in state.seats or not orders:
        return
    colour = seat_colour(state.seats, viewer.seat)
    width = max(3, c.px(2))
    drawn = planned(orders, pos)
    if not drawn:
        return
    for kind, a, b in drawn:
        if kind == "move":
            c.arrow(pos[a], pos[b], colour, stop=c.px(10))
        else:
            x, y = pos[a]
            r = c.px(13)
            c.draw.ellipse([x - r, y - r, x + r, y + r], outline=(200, 30, 30) if kind == "attack" else colour,
                           width=width)
    c.text((NEW_WORLD.x0 + 8, NEW_WORLD.y1 - c.px(MIN_TEXT)), f"{viewer.seat}'s pending orders shown",
           fill=INK, bold=True, anchor="lm")


BOX = (196, 216, 232)
SEA_NAME = (40, 80, 120)
PALETTE = palette((SEA, LAND, LANE, BORDER, BLIGHT, BOX, SEA_NAME),
                  ((INK, SEA), (INK, LAND), (INK, BOX), (INK, LANE), (INK, BORDER), (PAPER, SEA), (PAPER, LAND),
                   (PAPER, LANE), (PAPER, BORDER), (PAPER, BLIGHT), (SEA_NAME, PAPER), (INK, (255, 255, 255))))


def _layout(state: TNState, row: float) -> tuple[dict[str, Place], dict[str, tuple[float, float]]]:
    east = bool(state.options.get("east_indies"))
    places = {p.name: p for p in geography().in_play(east)}
    pos = {name: _frame_of(p).xy(p.lon, p.lat) for name, p in places.items()}
    column = (SIDE + WIDTH) / 2
    pos[EUROPE] = (column, 70)
    pos[CSB] = (column, 70 + 40 + row * (_rows(state, EUROPE) + 0.5))
    if INDIES_CSB in pos:
        pos[INDIES_CSB] = (column, INDIES.y1 + 30)
    return places, pos


def draw_map(state: TNState, viewer: Viewer, orders: Sequence[str] = ()) -> Canvas:
    """The geography (sea, lanes, borders, the frames and every place's name) is the kept static layer
    (engine.render.layers); control, native levels, blight, chips, the boxes' contents and orders are drawn
    over it each time."""
    east = bool(state.options.get("east_indies"))
    seats = tuple(state.seats)
    row = math.ceil(MIN_TEXT * WIDTH / PREVIEW_WIDTH) * 1.4
    places, pos = _layout(state, row)

    def static(c: Canvas) -> None:
        draw = c.draw
        draw.rectangle([NEW_WORLD.x0, NEW_WORLD.y0, NEW_WORLD.x1, NEW_WORLD.y1], fill=SEA)
        c.reserve((0, 0, WIDTH, c.px(MIN_TEXT * 1.6)))   # the title
        c.reserve((SIDE, 0, WIDTH, INDIES.y0 - 4))    # Europe, the box, and the legend's top
        if east:
            draw.rectangle([INDIES.x0 - 4, INDIES.y0 - 34, INDIES.x1 + 4, INDIES.y1 + 4], fill=SEA, outline=INK)
            c.text(((INDIES.x0 + INDIES.x1) / 2, INDIES.y0 - 18), "The East Indies", bold=True)
            x, y = pos[INDIES_CSB]
            c.reserve((SIDE + 4, y - 20, WIDTH - 8, y + 20 + len(seats) * row))   # its box at the fullest
        c.reserve(_CLOSE_UP_BOX)
        _geography(c, places, pos)
        x, y = pos[EUROPE]
        box = _box(EUROPE, x, y, 0, row)
        draw.rounded_rectangle(box, 8, fill=LAND, outline=INK, width=2)
        c.text((x, y), "Europe", fill=INK, bold=True)
        c.reserve(box)

    c = Canvas.layered(("terra-nova", east, seats), WIDTH, HEIGHT, PAPER, static, palette=PALETTE)
    phase = phase_of(state)
    title = f"Terra Nova · {state.year} (turn {state.turn}) · {phase.label}".replace("—", "-")
    c.text((WIDTH / 2, c.px(MIN_TEXT * 0.8)), title, MIN_TEXT * 1.15, bold=True)
    boxes = _boxes(c, state, places, pos)
    _pieces(c, state, places, pos)
    _legend(c, state.seats, state, SIDE + 8, boxes[CSB][3] + row * 0.8)
    _orders(c, state, viewer, orders, pos)
    _close_up(c, state, places)
    return c


def _box(name: str, x: float, y: float, rows: int, row: float) -> Box:
    return (SIDE + 4, y - 20, WIDTH - 8, y + 20 + rows * row)


def _geography(c: Canvas, places: dict[str, Place], pos: dict[str, tuple[float, float]]) -> None:
    """Borders, lanes, and each place's name set clear of every place's circle and of the other names."""
    geo = geography()
    draw = c.draw
    line = max(2, c.px(1))
    for a, links in geo.borders.items():
        for b in links:
            if a < b and a in pos and b in pos and places[a].kind not in ("europe", "box") \
                    and places[b].kind not in ("europe", "box"):
                draw.line([pos[a], pos[b]], fill=BORDER, width=line)
    for a, lanes in geo.lanes.items():
        for b in lanes:
            na, nb = a.split("/")[0], b.split("/")[0]
            if na < nb and na in pos and nb in pos and places[na].kind != "box" and places[nb].kind != "box" \
                    and EUROPE not in (na, nb):
                draw.line([pos[na], pos[nb]], fill=LANE, width=line)
    on_map = [(name, place) for name, place in places.items()
              if place.kind not in ("europe", "box") and c.sees(pos[name])]
    for name, place in on_map:
        c.reserve_circle(*pos[name], _radius(c, place) + 1)
    for name, place in on_map:
        x, y = pos[name]
        r = _radius(c, place)
        c.place((x - r, y - r, x + r, y + r), name, stroke=PAPER, fill=INK if place.kind != "sea" else SEA_NAME)


def _radius(c: Canvas, place: Place) -> int:
    return c.px(9) if place.kind in ("land", "indies") else c.px(6)


def _boxes(c: Canvas, state: TNState, places: dict[str, Place], pos: dict[str, tuple[float, float]]) -> dict[str, Box]:
    """The Command of the Seas boxes, one line per power with ships there; Europe's box (drawn in the layer)
    never shows what waits there."""
    row = c.px(MIN_TEXT) * 1.4
    boxes: dict[str, Box] = {EUROPE: _box(EUROPE, *pos[EUROPE], 0, row)}
    for name in (CSB, INDIES_CSB):
        if name not in places:
            continue
        x, y = pos[name]
        box = boxes[name] = _box(name, x, y, _rows(state, name), row)
        c.draw.rectangle(box, fill=BOX, outline=INK, width=2)
        c.text((x, y), "Command of the Seas" if name == CSB else "Indies Command of the Seas", fill=INK, bold=True)
        c.reserve(box)
        h = c.px(MIN_TEXT) * 1.3
        for i, (seat, code) in enumerate(_chips(state, name)):
            top = box[1] + 40 + i * c.px(MIN_TEXT) * 1.4
            w = c.measure(code, bold=True)[0] + h * 0.5
            colour = seat_colour(state.seats, seat)
            c.draw.rounded_rectangle((x - w / 2, top, x + w / 2, top + h), radius=h / 4, fill=colour, outline=INK,
                                     width=2)
            c.text((x, top + h / 2), code, fill=contrast(colour), bold=True)
    return boxes


def _chips(state: TNState, name: str) -> list[tuple[str, str]]:
    area = state.areas.get(name)
    chips = []
    for seat in state.seats:
        code = _code(area.holdings.get(seat) if area else None, state.peek(name, seat))
        if code:
            chips.append((seat, f"{seat[:2]} {code}"))
    return chips


def _pieces(c: Canvas, state: TNState, places: dict[str, Place], pos: dict[str, tuple[float, float]]) -> None:
    """Each place's circle (native level, filled by the power in control, blight) and the powers' chips."""
    seats = state.seats
    shown = [(name, place) for name, place in places.items()
             if place.kind not in ("europe", "box") and c.sees(pos[name])]
    for name, place in shown:
        x, y = pos[name]
        area = state.areas.get(name)
        owner = controller(state, name) if area else None
        r = _radius(c, place)
        fill = seat_colour(seats, owner) if owner else (LAND if place.kind in ("land", "indies") else SEA)
        if owner:
            c.badge(seats, owner, x, y, r, letter=False)
        else:
            c.mark("circle", x, y, r, fill=fill, outline=INK, width=2)
        if area and place.kind in ("land", "indies") and not area.commodity:
            c.text((x, y), str(area.natives) + ("T" if place.treasure else ""), fill=contrast(fill), bold=True,
                   keep_in=False)
        elif area and area.commodity:
            c.text((x, y), area.commodity[:2], fill=contrast(fill), bold=True, keep_in=False)
        if area and area.blight:
            c.mark("circle", x + r, y - r, c.px(5), fill=BLIGHT, outline=INK, width=1)
            c.text((x + r, y - r), str(area.blight), fill=PAPER, bold=True, keep_in=False)
    for name, _ in shown:   # chips: each power's holdings and forces beside the place
        x, y = pos[name]
        r = c.px(9)
        for seat, code in _chips(state, name):
            c.chip((x - r, y - r, x + r, y + r), code, seat_colour(seats, seat))


CARIBBEAN = Frame(-85.9, -58.1, 9.05, 25.95, 0, 0, 330, 250)   # 1.8 times the New World's scale
_CLOSE_UP_AT = (int(NEW_WORLD.x0) + 4, int(NEW_WORLD.y1) - int(CARIBBEAN.y1) - 4)
_CLOSE_UP_BOX: Box = (_CLOSE_UP_AT[0] - 2, _CLOSE_UP_AT[1] - 2, _CLOSE_UP_AT[0] + CARIBBEAN.x1 + 2,
                      _CLOSE_UP_AT[1] + CARIBBEAN.y1 + 2)


def _close_up(c: Canvas, state: TNState, places: dict[str, Place]) -> None:
    """The Caribbean at 1.8 times the scale, in the empty Pacific: its islands crowd the whole map."""
    w, h = int(CARIBBEAN.x1), int(CARIBBEAN.y1)
    nearby = {name: p for name, p in places.items() if not p.is_indies and p.kind not in ("europe", "box")}
    pos = {name: CARIBBEAN.xy(p.lon, p.lat) for name, p in nearby.items()}
    band = c.px(MIN_TEXT) * 1.5

    def static(near: Canvas) -> None:
        near.reserve((0, h - band, w, h))   # the caption's band
        _geography(near, nearby, pos)

    near = Canvas.layered(("terra-nova", "caribbean"), w, h, SEA, static, shown_width=c.width, palette=PALETTE)
    _pieces(near, state, nearby, pos)
    near.draw.rectangle([0, h - band, w, h], fill=BOX)
    near.labels = [lab for lab in near.labels if lab.box[3] <= h - band]   # the caption's band covers these
    near.text((8, h - band / 2), "close-up: the Caribbean", bold=True, anchor="lm")
    c.inset(near, _CLOSE_UP_AT, INK)


def _rows(state: TNState, place: str) -> int:
    """Lines a box needs: one per power with something in it, at least one; Europe's stay private."""
    if place == EUROPE:
        return 0
    return max(1, sum(1 for seat in state.seats if state.peek(place, seat)))


def _legend(c: Canvas, seats: list[str], state: TNState, x: float, y: float) -> None:
    row = c.px(MIN_TEXT) * 1.35
    c.text((x, y), "Powers", bold=True, anchor="lm")
    for i, seat in enumerate(seats):
        ly = y + row * (i + 1)
        c.badge(seats, seat, x + row * 0.35, ly, row * 0.35, letter=False)
        c.text((x + row, ly), f"{seat}: {state.powers[seat].vp} VP", anchor="lm")
    notes = ["circle: native level", "  (T: treasure city), filled", "  by the power in control",
             "chips: S settlement, T town,", "  P plantation, M mission,", "  F fort, X factory, m men,",
             "  s ships; brown dot: blight"]
    ky = y + row * (len(seats) + 1.3)
    for i, text in enumerate(notes):
        c.text((x, ky + i * row * 0.85), text, anchor="lm")

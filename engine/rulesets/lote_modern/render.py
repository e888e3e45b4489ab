"""The campaign map drawn from the GM's map file: regions by holder, cities, sea zones, routes, armies and fleets.

Places stand where the campaign's layout of its map file puts them (layout.py: laid out once, at the upload).
Holders of regions and cities are
public; a nation sees its own armies, fleets and trade routes; the GM sees every nation's.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from engine.core.errors import OrderError, RulesError
from engine.core.visibility import Viewer
from engine.render.canvas import INK, MIN_TEXT, PAPER, Canvas, seat_colour
from engine.render.palette import palette
from engine.rulesets.lote_modern.layout import Point, graph, spots
from engine.rulesets.lote_modern.orders import parse_order
from engine.rulesets.lote_modern.state import GameState
from engine.rulesets.lote_modern.world import CampaignMap

WIDTH, HEIGHT = 1100, 1050
SEA = (206, 224, 238)
SEA_EDGE = (110, 150, 190)
BORDER = (170, 150, 120)
ROUTE_DASH = 14


def seen_nations(state: GameState, viewer: Viewer) -> list[str]:
    """Nations whose armies, fleets and routes this viewer may see."""
    if viewer.is_gm:
        return list(state.nations)
    if viewer.kind == "seat" and viewer.seat is not None:
        nation = state.find_nation(viewer.seat)
        if nation is not None:
            return [key for key, n in state.nations.items() if n is nation]
    return []


def render_map(state: GameState, viewer: Viewer, orders: Sequence[str] = ()) -> bytes:
    return draw_map(state, viewer, orders).png()


# order fields that name where an order goes (a city, region or sea zone), and those drawn as a journey
_AT = ("place", "region", "city", "target", "to")
_FROM_TO = {"ConduitOrder": ("a", "b"), "RouteOrder": ("port", "target"), "MoveFactory": ("source", "destination"),
            "CartelOrder": ("port", "target_port")}


def planned(orders: Sequence[str], world: CampaignMap) -> list[tuple[str, str, str]]:
    """What a nation's pending order lines draw: ("move", from, to) for a route, conduit, cartel or factory
    moved; ("build", at, "") for what is built, founded, researched or done at a place. Places are a city's
    region, a region or a sea zone; a line naming none, or one that no longer reads, draws nothing."""
    def where(name: object) -> str | None:
        if not isinstance(name, str) or not name:
            return None
        if name in world.cities:
            return world.cities[name].region
        return name if name in world.regions or name in world.zones else None

    out: list[tuple[str, str, str]] = []
    for line in orders:
        try:
            order = parse_order(line)
        except (OrderError, RulesError):
            continue
        ends = _FROM_TO.get(type(order).__name__)
        if ends is not None:
            a, b = where(getattr(order, ends[0])), where(getattr(order, ends[1]))
            if a is not None and b is not None and a != b:
                out.append(("move", a, b))
                continue
        at = next((w for f in _AT if (w := where(getattr(order, f, None))) is not None), None)
        if at is not None:
            out.append(("build", at, ""))
    return out


ZONE_NAME = (40, 80, 130)
PALETTE = palette((SEA, SEA_EDGE, BORDER, ZONE_NAME),
                  ((INK, SEA), (INK, SEA_EDGE), (INK, BORDER), (PAPER, SEA), (PAPER, SEA_EDGE), (PAPER, BORDER),
                   (ZONE_NAME, PAPER)))


def draw_map(state: GameState, viewer: Viewer, orders: Sequence[str] = ()) -> Canvas:
    """The map file's places, links, names and the legend are a kept static layer (engine.render.layers),
    drawn once for an uploaded map; holders, routes and forces are drawn over it each time, and on a nation's
    own map its pending `orders` (canonical lines)."""
    world = state.world
    nations = list(state.nations)
    names, edges = graph(world)
    unit = spots(world)
    legend_w = 250
    probe = Canvas(WIDTH, 10, PAPER)
    top, margin = probe.px(MIN_TEXT * 2.2), probe.px(MIN_TEXT * 2.5)
    pos = {name: (margin + x * (WIDTH - legend_w - 2 * margin), top + margin / 2 + y * (HEIGHT - top - 1.5 * margin))
           for name, (x, y) in zip(names, unit, strict=True)}
    r = probe.px(10)
    width = max(2, probe.px(1))
    cities = tuple(sorted((ci.name, ci.region, ci.port) for ci in world.cities.values()))

    title = world.title or state.title
    title_y = probe.px(MIN_TEXT * 0.9)

    def static(c: Canvas) -> None:
        draw = c.draw
        w, h = c.measure(f"{title} · turn 8888", MIN_TEXT * 1.2, bold=True)   # the title, at its widest
        c.reserve((WIDTH / 2 - w / 2 - 4, title_y - h / 2 - 4, WIDTH / 2 + w / 2 + 4, title_y + h / 2 + 4))
        c.reserve((WIDTH - legend_w, top, WIDTH, HEIGHT))   # the legend's column
        for a, b in edges:
            na, nb = names[a], names[b]
            sea = na in world.zones or nb in world.zones
            draw.line([pos[na], pos[nb]], fill=SEA_EDGE if sea else BORDER, width=width)
        for zone in world.zones:
            x, y = pos[zone]
            draw.ellipse([x - r, y - r * 0.7, x + r, y + r * 0.7], fill=SEA, outline=SEA_EDGE, width=width)
            c.reserve_circle(x, y, r)
        for name in world.regions:
            c.reserve_circle(*pos[name], r + 1)
        _legend(c, nations, WIDTH - legend_w + 10, top + 10)
        city_of = {region: city for city, region, _ in cities}
        for name in names:
            x, y = pos[name]
            held = city_of.get(name)
            label = f"{name} ({held})" if held is not None and held != name else name
            c.place((x - r, y - r, x + r, y + r), label, stroke=PAPER, fill=ZONE_NAME if name in world.zones else INK)

    drawn_from = ("lote-modern", title, names, edges, unit, tuple(sorted(world.zones)), cities, tuple(nations))
    c = Canvas.layered(drawn_from, WIDTH, HEIGHT, PAPER, static, palette=PALETTE)
    draw = c.draw
    c.text((WIDTH / 2, title_y), f"{title} · turn {state.turn}", MIN_TEXT * 1.2, bold=True)
    holder = {h.region: key for key, n in state.nations.items() for h in n.regions}
    city_holder = {h.city: key for key, n in state.nations.items() for h in n.cities}
    for name in world.regions:
        x, y = pos[name]
        c.badge(nations, holder.get(name), x, y, r, letter=False)
    for city in world.cities.values():   # a city: a small square on its region's mark, in its holder's colour
        x, y = pos[city.region]
        q = r * 0.45
        draw.rectangle([x - q, y - q, x + q, y + q], fill=seat_colour(nations, city_holder.get(city.name)),
                       outline=(255, 255, 255) if city.port else INK, width=2)
    seen = seen_nations(state, viewer)
    for key in seen:     # trade routes: dashed lines from base port to target port
        colour = seat_colour(nations, key)
        for route in state.nations[key].routes:
            base = world.cities.get(route.base_port)
            target = world.cities.get(route.target_port)
            if base is None or target is None:
                continue
            _dashed(c, pos[base.region], pos[target.region], colour, width * 2)
    for key in seen:     # armies and fleets: a chip each, at the region, city's region or sea zone
        for army in state.nations[key].armies:
            place = world.cities[army.location].region if army.location in world.cities else army.location
            if place not in pos:
                continue
            x, y = pos[place]
            strength = sum(army.units.values())
            c.chip((x - r, y - r, x + r, y + r), f"{key[:2]} {army.name} {strength}", seat_colour(nations, key))
    own = state.find_nation(viewer.seat) if viewer.kind == "seat" and viewer.seat else None
    mine = next((key for key, n in state.nations.items() if n is own), None)
    drawn = planned(orders, world) if mine is not None else []
    if mine is not None and drawn:
        colour = seat_colour(nations, mine)
        for kind, a, b in drawn:
            if kind == "move":
                c.arrow(pos[a], pos[b], colour, stop=r + 4)
            else:
                x, y = pos[a]
                c.mark("circle", x, y, r + c.px(4), fill=None, outline=colour, width=max(3, c.px(2)))
        c.text((c.px(4), HEIGHT - c.px(MIN_TEXT)), f"{mine}'s pending orders shown", bold=True, anchor="lm")
    return c


def _dashed(c: Canvas, a: Point, b: Point, colour: tuple[int, int, int], width: int) -> None:
    length = math.dist(a, b)
    steps = max(1, int(length // ROUTE_DASH))
    for i in range(0, steps, 2):
        t0, t1 = i / steps, min(1.0, (i + 1) / steps)
        c.draw.line([(a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0),
                     (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1)], fill=colour, width=width)


def _legend(c: Canvas, nations: list[str], x: float, y: float) -> None:
    row = c.px(MIN_TEXT) * 1.4
    c.text((x, y), "Nations", bold=True, anchor="lm")
    for i, key in enumerate([*nations, None]):
        ly = y + row * (i + 1)
        c.badge(nations, key, x + row * 0.35, ly, row * 0.35, letter=False)
        c.text((x + row, ly), key or "unheld", anchor="lm")
    notes = ["square: city", "oval: sea zone", "dashes: route", "chips: forces"]
    ny = y + row * (len(nations) + 2.2)
    for i, text in enumerate(notes):
        c.text((x, ny + i * row * 0.85), text, anchor="lm")

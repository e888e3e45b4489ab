"""The board picture: space tiles, sectors, colonies, ships, Earth's tracks, the Cargo Ship and scores.

Face-down tiles are drawn as their coloured backs. Only the GM's picture, and a seat's own
picture for the tiles its scanner saw, hint at what lies beneath (faintly, marked "scan").
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from engine.core.visibility import Viewer
from engine.maps import hexgrid
from engine.render.canvas import font, png, seat_colour, text_centered
from engine.rulesets.terra_prime import command_ship as cs
from engine.rulesets.terra_prime import earth
from engine.rulesets.terra_prime.board import TERRA_PRIME, Board, pixel
from engine.rulesets.terra_prime.data import TileDesign, rules
from engine.rulesets.terra_prime.space import board_of, face_down, mapped
from engine.rulesets.terra_prime.state import GameState

WIDTH = 1320
BOARD_W = 920
SPACE = (13, 17, 31)
LIGHT = (236, 236, 242)
DIM = (150, 155, 175)
BACKS = {"green": (38, 96, 56), "yellow": (128, 110, 30), "red": (118, 38, 40)}
EDGES = {"green": (96, 196, 116), "yellow": (232, 204, 84), "red": (226, 96, 86)}
FACE = (25, 31, 54)
CUBES = {"green": (70, 200, 95), "yellow": (242, 212, 64), "brown": (156, 104, 60), "red": (222, 54, 54),
         "blue": (72, 142, 242)}
ALIEN = (190, 70, 220)
ROCK = (140, 140, 150)

Point = tuple[float, float]


def _towards(a: Point, b: Point, t: float) -> Point:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


class _Canvas:
    """Board coordinates scaled into the left part of the picture."""

    def __init__(self, b: Board, height: int) -> None:
        hexes = list(b.positions) + list(b.layout.outpost_hexes)
        xs = [p[0] for h in hexes for p in hexgrid.hex_polygon(h, 1.0)]
        ys = [p[1] for h in hexes for p in hexgrid.hex_polygon(h, 1.0)]
        margin, top = 24, 56
        self.size = min((BOARD_W - 2 * margin) / (max(xs) - min(xs)), (height - top - margin) / (max(ys) - min(ys)))
        self.dx = margin - min(xs) * self.size + (BOARD_W - 2 * margin - (max(xs) - min(xs)) * self.size) / 2
        self.dy = top - min(ys) * self.size + (height - top - margin - (max(ys) - min(ys)) * self.size) / 2

    def at(self, p: Point) -> Point:
        return (p[0] * self.size + self.dx, p[1] * self.size + self.dy)

    def hex_centre(self, h: hexgrid.Hex) -> Point:
        return self.at(hexgrid.hex_to_pixel(h, 1.0))

    def polygon(self, h: hexgrid.Hex) -> list[Point]:
        return [self.at(p) for p in hexgrid.hex_polygon(h, 1.0)]

    def sector(self, b: Board, sector: int) -> Point:
        return self.at(pixel(b, sector, 1.0))


def render_board(state: GameState, viewer: Viewer) -> bytes:
    """The whole picture as PNG bytes, for what `viewer` may see."""
    b = board_of(state)
    height = max(820, 150 + 64 * len(state.seats) + 420)
    image = Image.new("RGB", (WIDTH, height), SPACE)
    draw = ImageDraw.Draw(image)
    canvas = _Canvas(b, height)
    own = state.ships[viewer.seat].peeks if viewer.kind == "seat" and viewer.seat in state.ships else []
    text_centered(draw, (BOARD_W / 2, 26), f"Terra Prime - round {state.round}", 28, LIGHT)
    _tiles(draw, canvas, state, b, viewer.is_gm, own)
    _outpost(draw, canvas, b)
    _sectors(draw, canvas, state, b)
    _panel(draw, state, height)
    return png(image)


def _tiles(draw: ImageDraw.ImageDraw, canvas: _Canvas, state: GameState, b: Board, gm: bool,
           peeks: list[int]) -> None:
    size = canvas.size
    for pos, h in enumerate(b.positions, start=1):
        tile = state.tile(pos)
        band = b.band(pos)
        poly = canvas.polygon(h)
        centre = canvas.hex_centre(h)
        if not tile.revealed:
            draw.polygon(poly, fill=BACKS[band], outline=SPACE, width=2)
            if gm or pos in peeks:
                _face(draw, canvas, rules().tiles[tile.design], poly, centre, 0, faint=True)
                note = "GM" if gm else "scan"
                text_centered(draw, (centre[0], centre[1] + size * 0.45), note, max(9, int(size * 0.2)), LIGHT)
            text_centered(draw, centre, str(pos), max(11, int(size * 0.36)), LIGHT, stroke=BACKS[band])
            continue
        draw.polygon(poly, fill=FACE, outline=EDGES[band], width=3)
        face = rules().tiles[tile.design]
        _face(draw, canvas, face, poly, centre, tile.rotation, faint=False)
        text_centered(draw, (centre[0], centre[1] - size * 0.42), str(pos), max(9, int(size * 0.2)), DIM)
        if face.aliens:
            beaten = state.beaten.get(str(pos))
            _aliens(draw, centre, size, face.aliens, seat_colour(state.seats, beaten.seat) if beaten else None)
        elif face.strays:
            for i in range(face.strays):
                x = centre[0] + (i - (face.strays - 1) / 2) * size * 0.22
                r = size * 0.06
                draw.ellipse([x - r, centre[1] - r, x + r, centre[1] + r], fill=(90, 90, 100))
        if tile.rotation is None:
            text_centered(draw, (centre[0], centre[1] + size * 0.3), "orienting", max(9, int(size * 0.2)), LIGHT)


def _face(draw: ImageDraw.ImageDraw, canvas: _Canvas, face: TileDesign, poly: list[Point], centre: Point,
          rotation: int | None, *, faint: bool) -> None:
    """Planets and asteroid fields near the corners they occupy (unrotated while awaiting orientation)."""
    size = canvas.size
    for printed, corner in enumerate(face.corners):
        if corner.kind == "space":
            continue
        spot = _towards(centre, poly[(printed + (rotation or 0)) % 6], 0.66)
        if corner.kind == "planet":
            r = size * (0.13 if faint else 0.17)
            colour = CUBES[corner.colour]
            fill = tuple((c + 2 * s) // 3 for c, s in zip(colour, BACKS["green"], strict=True)) if faint else colour
            draw.ellipse([spot[0] - r, spot[1] - r, spot[0] + r, spot[1] + r], fill=fill,
                         outline=LIGHT if not faint else None, width=2)
        else:
            _field(draw, spot, size * (0.7 if faint else 1.0), corner.size)
    if faint and face.aliens:
        _aliens(draw, (centre[0], centre[1] - size * 0.42), size * 0.7, face.aliens, None)


def _field(draw: ImageDraw.ImageDraw, spot: Point, size: float, count: int) -> None:
    for i in range(count):
        angle = 2 * math.pi * i / max(1, count) - math.pi / 2
        x = spot[0] + math.cos(angle) * size * 0.09 * (count > 1)
        y = spot[1] + math.sin(angle) * size * 0.09 * (count > 1)
        r = size * 0.065
        draw.polygon([(x - r, y), (x - r / 2, y - r), (x + r, y - r / 2), (x + r / 2, y + r), (x - r / 2, y + r)],
                     fill=ROCK, outline=(70, 70, 80))


def _aliens(draw: ImageDraw.ImageDraw, centre: Point, size: float, count: int,
            beaten: tuple[int, int, int] | None) -> None:
    r = size * 0.2
    x, y = centre
    draw.polygon([(x, y - r), (x + r, y), (x, y + r), (x - r, y)], fill=ALIEN if beaten is None else (80, 60, 90),
                 outline=LIGHT, width=2)
    text_centered(draw, (x, y), str(count), max(10, int(size * 0.24)), LIGHT)
    if beaten is not None:
        m = size * 0.11
        draw.ellipse([x + r * 0.5 - m, y - r * 0.5 - m, x + r * 0.5 + m, y - r * 0.5 + m], fill=beaten,
                     outline=LIGHT, width=2)


def _outpost(draw: ImageDraw.ImageDraw, canvas: _Canvas, b: Board) -> None:
    for h in b.layout.outpost_hexes:
        draw.polygon(canvas.polygon(h), fill=(222, 226, 236), outline=(180, 186, 200), width=2)
    x, y = canvas.sector(b, TERRA_PRIME)
    text_centered(draw, (x, y - canvas.size * 0.35), "TERRA", max(11, int(canvas.size * 0.26)), (40, 50, 80))
    text_centered(draw, (x, y + canvas.size * 0.05), "PRIME", max(11, int(canvas.size * 0.26)), (40, 50, 80))


def _sectors(draw: ImageDraw.ImageDraw, canvas: _Canvas, state: GameState, b: Board) -> None:
    """Colonies and their cubes, sector numbers where a ship could go, then the ships."""
    size = canvas.size
    for key, colony in state.colonies.items():
        x, y = canvas.sector(b, int(key))
        colour = seat_colour(state.seats, colony.owner)
        r = size * 0.17
        if colony.is_mine:  # a diamond: mines sit on asteroid fields
            draw.polygon([(x, y - r * 1.3), (x + r * 1.3, y), (x, y + r * 1.3), (x - r * 1.3, y)], fill=colour,
                         outline=LIGHT, width=2)
        else:  # a square: planets are circles, colonies are not
            draw.rectangle([x - r, y - r, x + r, y + r], fill=colour, outline=LIGHT, width=3)
        if colony.cube:
            c = size * 0.1
            draw.rectangle([x - c, y - c, x + c, y + c], fill=CUBES[colony.cube], outline=SPACE)
    for sector in range(1, b.sector_count):
        if not b.tiles_at[sector]:
            continue
        if mapped(state, sector) or len(face_down(state, sector)) == 1:
            x, y = canvas.sector(b, sector)
            colour = LIGHT if mapped(state, sector) else (200, 200, 120)
            draw.text((x + size * 0.2, y + size * 0.02), str(sector), font=font(max(10, int(size * 0.2))), fill=colour,
                      anchor="lm", stroke_width=2, stroke_fill=SPACE)
    by_sector: dict[int, list[str]] = {}
    for seat in state.seats:
        by_sector.setdefault(state.ships[seat].sector, []).append(seat)
    for sector, seats in by_sector.items():
        x, y = canvas.sector(b, sector)
        alone = len(seats) == 1 and sector != TERRA_PRIME
        for i, seat in enumerate(seats):
            angle = 3 * math.pi / 4 if alone else math.pi / 2 + 2 * math.pi * i / len(seats)
            reach = size * (0.62 if sector == TERRA_PRIME else 0.32)
            sx, sy = x + math.cos(angle) * reach, y + math.sin(angle) * reach
            _ship(draw, (sx, sy), size * 0.16, seat_colour(state.seats, seat), seat == state.seat and not state.ended)


def _ship(draw: ImageDraw.ImageDraw, at: Point, r: float, colour: tuple[int, int, int], acting: bool) -> None:
    x, y = at
    points = [(x, y - r * 1.3), (x + r, y + r), (x, y + r * 0.5), (x - r, y + r)]
    draw.polygon(points, fill=colour, outline=(255, 255, 255) if acting else SPACE, width=3 if acting else 2)


def _panel(draw: ImageDraw.ImageDraw, state: GameState, height: int) -> None:
    """Scores, Earth's Supply/Demand tracks and the Cargo Ship, on the right."""
    x0 = BOARD_W + 10
    draw.rectangle([BOARD_W, 0, WIDTH, height], fill=(22, 27, 46))
    y = 22
    status = "Game over" if state.ended else f"{state.seat} to play ({state.actions_left} actions left)"
    draw.text((x0, y), status, font=font(22), fill=LIGHT, anchor="lm")
    y += 40
    for seat in state.seats:
        ship = state.ships[seat]
        colour = seat_colour(state.seats, seat)
        draw.rectangle([x0, y - 12, x0 + 24, y + 12], fill=colour, outline=LIGHT if seat == state.seat else SPACE,
                       width=2)
        mark = "  (winner)" if seat in state.winners else ""
        draw.text((x0 + 34, y - 2), f"{seat}{mark}", font=font(20), fill=LIGHT, anchor="lm")
        draw.text((WIDTH - 16, y - 2), f"{ship.score} LP", font=font(20), fill=LIGHT, anchor="rm")
        info = (f"{ship.credits} cr · {cs.markers_left(ship)} markers · W{cs.weapon_dice(ship)} "
                f"S{cs.shield_dice(ship)} · cargo {len(ship.cargo)}/{cs.cargo_room(ship)}")
        draw.text((x0 + 34, y + 20), info, font=font(15), fill=DIM, anchor="lm")
        y += 60
    y += 10
    draw.text((x0, y), "Earth: supply / demand", font=font(20), fill=LIGHT, anchor="lm")
    y += 30
    for res in rules().resources:
        draw.rectangle([x0, y - 9, x0 + 18, y + 9], fill=CUBES[res.key], outline=SPACE)
        draw.text((x0 + 26, y), res.name, font=font(16), fill=LIGHT, anchor="lm")
        for i in range(res.track_size):
            cx = x0 + 180 + i * 16
            filled = i < state.earth[res.key]
            draw.rectangle([cx, y - 6, cx + 12, y + 6], fill=CUBES[res.key] if filled else None, outline=DIM)
        draw.text((WIDTH - 16, y), f"{earth.price(state, res.key)} cr", font=font(16), fill=LIGHT, anchor="rm")
        y += 28
    y += 14
    away = " - away to Earth" if state.cargo_ship_away else ""
    draw.text((x0, y), f"Cargo Ship{away}", font=font(20), fill=LIGHT, anchor="lm")
    y += 30
    slot = min(38, (WIDTH - x0 - 20) // earth.ship_size(state))
    for i in range(earth.ship_size(state)):
        cx = x0 + i * slot
        cube = state.cargo_ship[i] if i < len(state.cargo_ship) else None
        draw.rectangle([cx, y - 14, cx + slot - 6, y + 14], fill=CUBES[cube] if cube else (40, 46, 70), outline=DIM)
    y += 40
    if state.final_turns is not None and not state.ended:
        draw.text((x0, y), f"Final round: {state.final_turns + 1} turn(s) left", font=font(17), fill=(240, 200, 90),
                  anchor="lm")

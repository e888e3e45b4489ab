"""The board picture: space tiles, sectors, colonies, ships, Earth's tracks, the Cargo Ship and scores.

Face-down tiles are drawn as their coloured backs. Only the GM's picture, and a seat's own
picture for the tiles its scanner saw, hint at what lies beneath (faintly, marked "scan").
"""

from __future__ import annotations

import math
from collections.abc import Callable

from engine.core.visibility import Viewer
from engine.maps import hexgrid
from engine.render.canvas import MIN_TEXT, PREVIEW_WIDTH, Canvas, contrast, seat_colour
from engine.rulesets.terra_prime import command_ship as cs
from engine.rulesets.terra_prime import earth
from engine.rulesets.terra_prime.board import TERRA_PRIME, Board, pixel
from engine.rulesets.terra_prime.data import TileDesign, rules
from engine.rulesets.terra_prime.space import board_of, face_down, mapped
from engine.rulesets.terra_prime.state import GameState

WIDTH = 1100
BOARD_H = 750
SPACE = (13, 17, 31)
LIGHT = (236, 236, 242)
DIM = (170, 175, 195)
BACKS = {"green": (38, 96, 56), "yellow": (128, 110, 30), "red": (118, 38, 40)}
EDGES = {"green": (96, 196, 116), "yellow": (232, 204, 84), "red": (226, 96, 86)}
FACE = (25, 31, 54)
CUBES = {"green": (70, 200, 95), "yellow": (242, 212, 64), "brown": (156, 104, 60), "red": (222, 54, 54),
         "blue": (72, 142, 242)}
ALIEN = (190, 70, 220)
ROCK = (160, 160, 172)
SECTOR = (255, 236, 150)

Point = tuple[float, float]


def _towards(a: Point, b: Point, t: float) -> Point:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


class _Board:
    """Board coordinates scaled into the top of the picture."""

    def __init__(self, b: Board, top: float, bottom: float) -> None:
        hexes = list(b.positions) + list(b.layout.outpost_hexes)
        xs = [p[0] for h in hexes for p in hexgrid.hex_polygon(h, 1.0)]
        ys = [p[1] for h in hexes for p in hexgrid.hex_polygon(h, 1.0)]
        margin = 14
        self.size = min((WIDTH - 2 * margin) / (max(xs) - min(xs)), (bottom - top) / (max(ys) - min(ys)))
        self.dx = margin - min(xs) * self.size + (WIDTH - 2 * margin - (max(xs) - min(xs)) * self.size) / 2
        self.dy = top - min(ys) * self.size + (bottom - top - (max(ys) - min(ys)) * self.size) / 2

    @classmethod
    def around(cls, b: Board, sector: int, size: float, width: int, height: int) -> _Board:
        """The board at `size`, with `sector` in the middle of a width x height picture: a close-up."""
        board = cls.__new__(cls)
        board.size = size
        x, y = pixel(b, sector, 1.0)
        board.dx, board.dy = width / 2 - x * size, height / 2 - y * size
        return board

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
    return draw_board(state, viewer).png()


def _panel_height(state: GameState) -> int:
    line = math.ceil(MIN_TEXT * WIDTH / PREVIEW_WIDTH * 1.3)
    return line * (3 + 4 * len(state.seats) + len(rules().resources) + 4) + 40


def draw_board(state: GameState, viewer: Viewer) -> Canvas:
    b = board_of(state)
    c = Canvas(WIDTH, BOARD_H + _panel_height(state), SPACE)
    board = _Board(b, c.px(MIN_TEXT * 2.4), BOARD_H - c.px(MIN_TEXT * 1.3))
    own = state.ships[viewer.seat].peeks if viewer.kind == "seat" and viewer.seat in state.ships else []
    c.text((WIDTH / 2, c.px(MIN_TEXT)), f"Terra Prime - round {state.round}", MIN_TEXT * 1.3, fill=LIGHT, bold=True)
    c.draw.rectangle([0, BOARD_H, WIDTH, c.height], fill=(22, 27, 46))
    c.reserve((0, BOARD_H, WIDTH, c.height))   # sector numbers stay on the board
    paste_close_up = _close_up(c, board, state, b, viewer, own)
    _tiles(c, board, state, b, viewer.is_gm, own)
    _outpost(c, board, b)
    _sectors(c, board, state, b)
    paste_close_up()
    bottom = _panel(c, state, BOARD_H)
    c.crop(bottom)
    return c


CLOSE_UP = (300, 250)   # the close-up's size, in the board's empty top-left corner
ZOOM = 2.0


def _close_up(c: Canvas, board: _Board, state: GameState, b: Board, viewer: Viewer,
              peeks: list[int]) -> Callable[[], None]:
    """Your ship's area (a seat's own map) or the ship to play, twice as large: ships, colonies and cubes that
    the whole board draws too small to read at preview size."""
    seat = viewer.seat if viewer.kind == "seat" and viewer.seat in state.ships else state.seat
    w, h = CLOSE_UP
    if seat not in state.ships or state.ended:
        return lambda: None
    top = c.px(MIN_TEXT * 2.4)
    c.reserve((8, top - 2, 12 + w, top + h + 2))   # the board's labels keep off where it goes
    near = Canvas(w, h, SPACE, shown_width=c.width)
    zoomed = _Board.around(b, state.ships[seat].sector, board.size * ZOOM, w, h)
    _tiles(near, zoomed, state, b, viewer.is_gm, peeks)
    _outpost(near, zoomed, b)
    _sectors(near, zoomed, state, b)
    caption = "close-up: your area" if seat == viewer.seat else f"close-up: {seat} to play"
    band = near.px(MIN_TEXT) * 1.5
    near.draw.rectangle([0, h - band, w, h], fill=(22, 27, 46))
    near.labels = [lab for lab in near.labels if lab.box[3] <= h - band]   # the caption's band covers these
    near.text((8, h - band / 2), caption, fill=LIGHT, bold=True, anchor="lm")
    return lambda: c.inset(near, (10, c.px(MIN_TEXT * 2.4)), DIM)


def _tiles(c: Canvas, board: _Board, state: GameState, b: Board, gm: bool, peeks: list[int]) -> None:
    size = board.size
    draw = c.draw
    for pos, h in enumerate(b.positions, start=1):
        tile = state.tile(pos)
        band = b.band(pos)
        poly = board.polygon(h)
        centre = board.hex_centre(h)
        if not c.sees(centre, size * 1.2):
            continue
        if not tile.revealed:
            c.polygon(poly, fill=BACKS[band], outline=SPACE, width=2)
            if gm or pos in peeks:
                _face(c, board, rules().tiles[tile.design], poly, centre, 0, faint=True)
                c.text((centre[0], centre[1] + size * 0.5), "GM" if gm else "scan", fill=LIGHT)
            c.text(centre, f"T{pos}", MIN_TEXT * 1.2, fill=LIGHT, bold=True, stroke=BACKS[band])
            continue
        c.polygon(poly, fill=FACE, outline=EDGES[band], width=3)
        face = rules().tiles[tile.design]
        _face(c, board, face, poly, centre, tile.rotation, faint=False)
        if face.aliens:
            beaten = state.beaten.get(str(pos))
            _aliens(c, centre, size, face.aliens, state.seats, beaten.seat if beaten else None)
        elif face.strays:
            for i in range(face.strays):
                x = centre[0] + (i - (face.strays - 1) / 2) * size * 0.22
                r = size * 0.07
                draw.ellipse([x - r, centre[1] - r, x + r, centre[1] + r], fill=(120, 120, 132), outline=LIGHT)
        if tile.rotation is None:
            c.text((centre[0], centre[1] + size * 0.3), "orienting", fill=LIGHT, stroke=SPACE)


def _face(c: Canvas, board: _Board, face: TileDesign, poly: list[Point], centre: Point,
          rotation: int | None, *, faint: bool) -> None:
    """Planets and asteroid fields near the corners they occupy (unrotated while awaiting orientation)."""
    size = board.size
    for printed, corner in enumerate(face.corners):
        if corner.kind == "space":
            continue
        spot = _towards(centre, poly[(printed + (rotation or 0)) % 6], 0.66)
        if corner.kind == "planet":
            r = size * (0.13 if faint else 0.17)
            colour = CUBES[corner.colour]
            fill = tuple((a + 2 * s) // 3 for a, s in zip(colour, BACKS["green"], strict=True)) if faint else colour
            c.draw.ellipse([spot[0] - r, spot[1] - r, spot[0] + r, spot[1] + r], fill=fill,
                           outline=LIGHT if not faint else None, width=2)
        else:
            _field(c, spot, size * (0.7 if faint else 1.0), corner.size)


def _field(c: Canvas, spot: Point, size: float, count: int) -> None:
    """An asteroid field: one rock per asteroid, each big enough to count at preview size."""
    r = max(size * 0.085, c.px(2.5))
    for i in range(count):
        angle = 2 * math.pi * i / max(1, count) - math.pi / 2
        x = spot[0] + math.cos(angle) * r * 1.2 * (count > 1)
        y = spot[1] + math.sin(angle) * r * 1.2 * (count > 1)
        c.polygon([(x - r, y), (x - r / 2, y - r), (x + r, y - r / 2), (x + r / 2, y + r), (x - r / 2, y + r)],
                       fill=ROCK, outline=LIGHT)


def _aliens(c: Canvas, centre: Point, size: float, count: int, seats: list[str], beaten: str | None) -> None:
    r = size * 0.24
    x, y = centre
    c.polygon([(x, y - r), (x + r, y), (x, y + r), (x - r, y)], fill=ALIEN if beaten is None else (80, 60, 90),
                   outline=LIGHT, width=2)
    c.text((x, y), str(count), fill=LIGHT, bold=True, keep_in=False)
    if beaten is not None:
        c.badge(seats, beaten, x + r * 0.7, y - r * 0.7, size * 0.12, outline=LIGHT, letter=False)


def _outpost(c: Canvas, board: _Board, b: Board) -> None:
    for h in b.layout.outpost_hexes:
        c.polygon(board.polygon(h), fill=(222, 226, 236), outline=(180, 186, 200), width=2)
    x, y = board.sector(b, TERRA_PRIME)
    if not c.sees((x, y - board.size * 0.45)):
        return
    c.text((x, y - board.size * 0.45), "TERRA PRIME", fill=(40, 50, 80), bold=True)


def _sectors(c: Canvas, board: _Board, state: GameState, b: Board) -> None:
    """Colonies and their cubes, ships, then the sector numbers placed clear of them."""
    size = board.size
    for key, colony in state.colonies.items():
        x, y = board.sector(b, int(key))
        if not c.sees((x, y), size * 0.3):
            continue
        colour = seat_colour(state.seats, colony.owner)
        r = size * 0.2
        if colony.is_mine:  # a diamond: mines sit on asteroid fields
            c.polygon([(x, y - r * 1.3), (x + r * 1.3, y), (x, y + r * 1.3), (x - r * 1.3, y)], fill=colour,
                           outline=LIGHT, width=3)
        else:  # a square: planets are circles, colonies are not
            c.draw.rectangle([x - r, y - r, x + r, y + r], fill=colour, outline=LIGHT, width=3)
        c.text((x, y), colony.owner[:1].upper(), fill=contrast(colour), bold=True, keep_in=False)
        if colony.cube:  # the cube sits on the colony's corner: the owner's colour stays whole
            q = size * 0.11
            cx, cy = x + r, y - r
            c.draw.rectangle([cx - q, cy - q, cx + q, cy + q], fill=CUBES[colony.cube], outline=SPACE, width=2)
        c.reserve_circle(x, y, r * 1.3)
    by_sector: dict[int, list[str]] = {}
    for seat in state.seats:
        by_sector.setdefault(state.ships[seat].sector, []).append(seat)
    for sector, seats in by_sector.items():
        x, y = board.sector(b, sector)
        if not c.sees((x, y), size * 0.8):
            continue
        alone = len(seats) == 1 and sector != TERRA_PRIME
        for i, seat in enumerate(seats):
            angle = 3 * math.pi / 4 if alone else math.pi / 2 + 2 * math.pi * i / len(seats)
            reach = size * (0.62 if sector == TERRA_PRIME else 0.36)
            sx, sy = x + math.cos(angle) * reach, y + math.sin(angle) * reach
            acting = seat == state.seat and not state.ended
            r = size * 0.2
            c.draw.ellipse([sx - r * 1.25, sy - r * 1.25, sx + r * 1.25, sy + r * 1.25],
                           outline=(255, 255, 255) if acting else DIM, width=3)
            c.badge(state.seats, seat, sx, sy, r, outline=SPACE)
            c.reserve_circle(sx, sy, r * 1.25)
    for sector in range(1, b.sector_count):
        if not b.tiles_at[sector]:
            continue
        if mapped(state, sector) or len(face_down(state, sector)) == 1:
            x, y = board.sector(b, sector)
            if not c.sees((x, y), -c.px(MIN_TEXT)):   # a number whose point is cut off would mislead
                continue
            d = size * 0.08
            c.place((x - d, y - d, x + d, y + d), str(sector), fill=SECTOR if mapped(state, sector) else DIM,
                    stroke=SPACE, gap=0, order=("br", "right", "tr", "bl", "below", "left", "above", "tl"))


def _panel(c: Canvas, state: GameState, top: int) -> int:
    """Per seat: score, credits, markers, dice, fuel, holds and their cubes, modules and tech; then Earth."""
    draw = c.draw
    line = c.px(MIN_TEXT) * 1.3
    x0, right = 16, WIDTH - 16
    y = top + line * 0.8
    status = "Game over" if state.ended else f"{state.seat} to play ({state.actions_left} actions left)"
    c.text((x0, y), status, MIN_TEXT * 1.15, fill=LIGHT, bold=True, anchor="lm")
    c.text((right, y), "T12: tile (explore, scan) · 12: sector (move)", fill=DIM, anchor="rm")
    y += line * 1.3
    cube = c.px(MIN_TEXT) * 0.9
    for seat in state.seats:
        ship = state.ships[seat]
        c.badge(state.seats, seat, x0 + line * 0.45, y, line * 0.45,
                outline=(255, 255, 255) if seat == state.seat else SPACE)
        mark = "  (winner)" if seat in state.winners else ""
        c.text((x0 + line * 1.1, y), f"{seat}{mark}", fill=LIGHT, bold=True, anchor="lm")
        c.text((right, y), f"{ship.score} LP", fill=LIGHT, bold=True, anchor="rm")
        info = (f"{ship.credits} cr · {cs.markers_left(ship)} markers · {cs.actions_per_turn(ship)} actions "
                f"· W{cs.weapon_dice(ship)} S{cs.shield_dice(ship)}")
        c.text((x0 + line * 1.1 + c.measure(f"{seat}{mark}", bold=True)[0] + line * 0.6, y), info, fill=DIM,
               anchor="lm")
        y += line
        modules = [f"{cs.total(ship, m.key)} {m.name}{'s' if cs.total(ship, m.key) != 1 else ''}"
                   for m in rules().modules if cs.total(ship, m.key)]
        c.text((x0 + line * 1.1, y), "modules: " + ", ".join(modules), fill=LIGHT, anchor="lm")
        y += line
        c.text((x0 + line * 1.1, y), "holds:", fill=LIGHT, anchor="lm")
        hx = x0 + line * 1.1 + c.measure("holds: ")[0]
        for i in range(cs.cargo_room(ship)):
            key = ship.cargo[i] if i < len(ship.cargo) else None
            draw.rectangle([hx + i * cube * 1.25, y - cube / 2, hx + i * cube * 1.25 + cube, y + cube / 2],
                           fill=CUBES[key] if key else (40, 46, 70), outline=DIM, width=2)
        tech = [step.name for step in rules().tech if step.step in ship.tech]
        c.text((hx + max(cs.cargo_room(ship), 6) * cube * 1.25 + line * 0.4, y),
               "tech: " + (", ".join(tech) if tech else "none"), fill=LIGHT, anchor="lm")
        y += line * 1.15
    c.text((x0, y), "Earth: supply / demand", fill=LIGHT, bold=True, anchor="lm")
    y += line
    for res in rules().resources:
        draw.rectangle([x0, y - cube / 2, x0 + cube, y + cube / 2], fill=CUBES[res.key], outline=SPACE)
        c.text((x0 + cube * 1.5, y), res.name, fill=LIGHT, anchor="lm")
        for i in range(res.track_size):
            cx = x0 + 360 + i * cube * 1.2
            filled = i < state.earth[res.key]
            draw.rectangle([cx, y - cube / 2, cx + cube, y + cube / 2], fill=CUBES[res.key] if filled else None,
                           outline=DIM, width=2)
        c.text((right, y), f"{earth.price(state, res.key)} cr", fill=LIGHT, anchor="rm")
        y += line
    away = " - away to Earth" if state.cargo_ship_away else ""
    c.text((x0, y), f"Cargo Ship{away}", fill=LIGHT, bold=True, anchor="lm")
    slot = cube * 1.6
    sx = x0 + c.measure(f"Cargo Ship{away}", bold=True)[0] + line
    for i in range(earth.ship_size(state)):
        cube_key = state.cargo_ship[i] if i < len(state.cargo_ship) else None
        draw.rectangle([sx + i * slot, y - cube * 0.6, sx + i * slot + cube * 1.3, y + cube * 0.6],
                       fill=CUBES[cube_key] if cube_key else (40, 46, 70), outline=DIM, width=2)
    if state.final_turns is not None and not state.ended:
        y += line
        c.text((x0, y), f"Final round: {state.final_turns + 1} turn(s) left", fill=(240, 200, 90), anchor="lm")
    return int(y + line)

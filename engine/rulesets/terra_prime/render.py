"""The board picture: space tiles, sectors, colonies, ships, Earth's tracks, the Cargo Ship and scores.

Face-down tiles are drawn as their coloured backs. Only the GM's picture, and a seat's own
picture for the tiles its scanner saw, hint at what lies beneath (faintly, marked "scan").
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from engine.core.visibility import Viewer
from engine.maps import hexgrid
from engine.render.canvas import MIN_TEXT, PREVIEW_WIDTH, Canvas, contrast, seat_colour
from engine.render.palette import palette
from engine.rulesets.terra_prime import command_ship as cs
from engine.rulesets.terra_prime import earth
from engine.rulesets.terra_prime.board import TERRA_PRIME, Board, board, pixel
from engine.rulesets.terra_prime.data import TileDesign, rules
from engine.rulesets.terra_prime.space import board_of, face_down, fields, mapped, planets
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


@dataclass(frozen=True, slots=True)
class _Unit:
    """A layout's geometry at hex size 1, worked out once: sector points, hex centres and outlines, bounds."""

    sectors: tuple[Point, ...]
    centres: dict[hexgrid.Hex, Point]
    outlines: dict[hexgrid.Hex, tuple[Point, ...]]
    bounds: tuple[float, float, float, float]


@functools.cache
def _unit(shape: str, outpost: str) -> _Unit:
    b = board(shape, outpost)
    hexes = list(b.positions) + list(b.layout.outpost_hexes)
    outlines = {h: tuple(hexgrid.hex_polygon(h, 1.0)) for h in hexes}
    xs = [p[0] for poly in outlines.values() for p in poly]
    ys = [p[1] for poly in outlines.values() for p in poly]
    return _Unit(tuple(pixel(b, s, 1.0) for s in range(b.sector_count)),
                 {h: hexgrid.hex_to_pixel(h, 1.0) for h in hexes}, outlines, (min(xs), min(ys), max(xs), max(ys)))


class _Board:
    """Board coordinates scaled into the top of the picture (or, times ZOOM, into the close-up's)."""

    def __init__(self, state: GameState, top: float, bottom: float, zoom: float = 1.0) -> None:
        self.unit = unit = _unit(state.shape, state.outpost)
        x0, y0, x1, y1 = unit.bounds
        margin = 14
        size = min((WIDTH - 2 * margin) / (x1 - x0), (bottom - top) / (y1 - y0))
        self.size = size * zoom
        self.dx = (margin - x0 * size + (WIDTH - 2 * margin - (x1 - x0) * size) / 2) * zoom
        self.dy = (top - y0 * size + (bottom - top - (y1 - y0) * size) / 2) * zoom

    def shifted(self, left: float, top: float) -> _Board:
        """The same board seen from (left, top): a window's coordinates."""
        out = _Board.__new__(_Board)
        out.unit, out.size, out.dx, out.dy = self.unit, self.size, self.dx - left, self.dy - top
        return out

    def at(self, p: Point) -> Point:
        return (p[0] * self.size + self.dx, p[1] * self.size + self.dy)

    def hex_centre(self, h: hexgrid.Hex) -> Point:
        return self.at(self.unit.centres[h])

    def polygon(self, h: hexgrid.Hex) -> list[Point]:
        return [self.at(p) for p in self.unit.outlines[h]]

    def sector(self, b: Board, sector: int) -> Point:
        return self.at(self.unit.sectors[sector])


def render_board(state: GameState, viewer: Viewer) -> bytes:
    """The whole picture as PNG bytes, for what `viewer` may see."""
    return draw_board(state, viewer).png()


PANEL = (22, 27, 46)
HOLD = (40, 46, 70)
OUTPOST = (222, 226, 236)
OUTPOST_EDGE = (180, 186, 200)
OUTPOST_NAME = (40, 50, 80)
STRAY = (120, 120, 132)
BEATEN = (80, 60, 90)
FINAL = (240, 200, 90)
PALETTE = palette(
    (SPACE, LIGHT, DIM, FACE, ALIEN, ROCK, SECTOR, PANEL, HOLD, OUTPOST, OUTPOST_EDGE, OUTPOST_NAME, STRAY, BEATEN,
     FINAL, *BACKS.values(), *EDGES.values(), *CUBES.values()),
    ((LIGHT, SPACE), (LIGHT, PANEL), (LIGHT, FACE), (LIGHT, ALIEN), (DIM, PANEL), (DIM, SPACE), (SECTOR, SPACE),
     (SECTOR, PANEL), (SPACE, FACE), (SPACE, OUTPOST), (OUTPOST_NAME, OUTPOST), (FINAL, PANEL),
     *((LIGHT, c) for c in BACKS.values()), *((c, FACE) for c in BACKS.values()), *((c, SPACE) for c in BACKS.values()),
     *((SPACE, c) for c in EDGES.values())))


def _panel_height(state: GameState) -> int:
    """The panel's height: it depends on the number of seats only."""
    line = math.ceil(MIN_TEXT * WIDTH / PREVIEW_WIDTH) * 1.3
    return int(line * (0.8 + 1.3 + 3.15 * len(state.seats) + 1 + len(rules().resources) + 1))


def _tile_key(state: GameState, viewer: Viewer) -> tuple[object, ...]:
    """What the board's layer shows of each tile for this viewer: a face-down tile's design only where the
    viewer may glimpse it (the GM; a seat's own scans), so a layer is never shared with a viewer who may not."""
    gm = viewer.is_gm
    peeks = _peeks(state, viewer)
    out: list[object] = []
    for pos in range(1, len(state.tiles) + 1):
        tile = state.tile(pos)
        if tile.revealed:
            beaten = state.beaten.get(str(pos))
            out.append((tile.design, tile.rotation, beaten.seat if beaten else None))
        elif gm or pos in peeks:
            out.append(("down", tile.design, "GM" if gm else "scan"))
        else:
            out.append(None)
    return tuple(out)


def _peeks(state: GameState, viewer: Viewer) -> list[int]:
    return state.ships[viewer.seat].peeks if viewer.kind == "seat" and viewer.seat in state.ships else []


def draw_board(state: GameState, viewer: Viewer) -> Canvas:
    """The board (tiles as this viewer may see them, the outpost, sector numbers) is a kept static layer
    (engine.render.layers) until a tile is turned or a scan seen; colonies, ships, the close-up and the panel
    are drawn over it each time."""
    b = board_of(state)
    height = BOARD_H + _panel_height(state)
    peeks = _peeks(state, viewer)
    tiles = _tile_key(state, viewer)

    def static(c: Canvas) -> None:
        board = _Board(state, c.px(MIN_TEXT * 2.4), BOARD_H - c.px(MIN_TEXT * 1.3))
        c.reserve((0, 0, WIDTH, c.px(MIN_TEXT * 2)))   # the title
        c.draw.rectangle([0, BOARD_H, WIDTH, c.height], fill=PANEL)
        c.reserve((0, BOARD_H, WIDTH, c.height))   # sector numbers stay on the board
        top = c.px(MIN_TEXT * 2.4)
        c.reserve((8, top - 2, 12 + CLOSE_UP[0], top + CLOSE_UP[1] + 2))   # where the close-up goes
        _tiles(c, board, state, b, viewer.is_gm, peeks)
        _outpost(c, board, b)
        _numbers(c, board, state, b)
        _panel(c, state, BOARD_H, static=True)

    key = ("terra-prime", state.shape, state.outpost, tuple(state.seats), tiles)
    c = Canvas.layered(key, WIDTH, height, SPACE, static, palette=PALETTE)
    board = _Board(state, c.px(MIN_TEXT * 2.4), BOARD_H - c.px(MIN_TEXT * 1.3))
    c.text((WIDTH / 2, c.px(MIN_TEXT)), f"Terra Prime - round {state.round}", MIN_TEXT * 1.3, fill=LIGHT, bold=True)
    _pieces(c, board, state, b)
    _close_up(c, board, state, b, viewer, tiles, peeks)
    _panel(c, state, BOARD_H, static=False)
    return c


CLOSE_UP = (300, 250)   # the close-up's size, in the board's empty top-left corner
ZOOM = 2.0


def _close_up(c: Canvas, board: _Board, state: GameState, b: Board, viewer: Viewer, tiles: tuple[object, ...],
              peeks: list[int]) -> None:
    """Your ship's area (a seat's own map) or the ship to play, twice as large: ships, colonies and cubes that
    the whole board draws too small to read at preview size.

    Its tiles are cut from the board drawn at twice the scale, a piece at a time, and kept like the board's
    layer until a tile changes; its numbers and names are set for the window, so none is cut at its edge."""
    seat = viewer.seat if viewer.kind == "seat" and viewer.seat in state.ships else state.seat
    w, h = CLOSE_UP
    if seat not in state.ships or state.ended:
        return
    big = _Board(state, c.px(MIN_TEXT * 2.4), BOARD_H - c.px(MIN_TEXT * 1.3), ZOOM)
    cx, cy = big.sector(b, state.ships[seat].sector)
    left, top = round(cx - w / 2), round(cy - h / 2)

    def static(piece: Canvas, x: int, y: int) -> None:
        _tiles(piece, big.shifted(x, y), state, b, viewer.is_gm, peeks, labels=False)
        _outpost(piece, big.shifted(x, y), b, label=False)

    key = ("terra-prime", "zoomed", state.shape, state.outpost, tiles)
    near = Canvas.window(key, SPACE, static, (left, top, w, h), shown_width=c.width, palette=PALETTE)
    zoomed = big.shifted(left, top)
    band = near.px(MIN_TEXT) * 1.5
    near.reserve((0, h - band, w, h))   # the caption's band
    _tile_labels(near, zoomed, state, b, viewer.is_gm, peeks)
    _outpost_label(near, zoomed, b)
    _numbers(near, zoomed, state, b)
    _pieces(near, zoomed, state, b)
    caption = "close-up: your area" if seat == viewer.seat else f"close-up: {seat} to play"
    near.draw.rectangle([0, h - band, w, h], fill=PANEL)
    near.labels = [lab for lab in near.labels if lab.box[3] <= h - band]   # the caption's band covers these
    near.text((8, h - band / 2), caption, fill=LIGHT, bold=True, anchor="lm")
    c.inset(near, (10, c.px(MIN_TEXT * 2.4)), DIM)


PLAYED = (1100, 640)   # the picture of the sector just played, posted beside the board
PLAYED_ZOOM = 2.5


def just_played(state: GameState) -> str | None:
    """The seat whose turn just ended (the turn passes clockwise; the last to play once the game is over), or
    None before anyone has played."""
    if state.ended:
        return state.seat
    if state.turn <= 1:
        return None
    return state.seats[(state.current - 1) % len(state.seats)]


def render_played(state: GameState, viewer: Viewer) -> bytes | None:
    canvas = draw_played(state, viewer)
    return canvas.png() if canvas is not None else None


def draw_played(state: GameState, viewer: Viewer) -> Canvas | None:
    """The sector just played, 2.5 times the board's scale, for the turn's post beside the whole board (whose
    ships, colonies and cubes are too small to read at preview size): the tiles around the ship of the seat
    whose turn just ended, as `viewer` may see them, their tile and sector numbers, every piece there, and
    that ship ringed in its colour."""
    seat = just_played(state)
    if seat is None or seat not in state.ships:
        return None
    b = board_of(state)
    peeks = _peeks(state, viewer)
    w, h = PLAYED
    whole = Canvas(WIDTH, 1, SPACE)   # the whole board's scale, as draw_board sets it out
    big = _Board(state, whole.px(MIN_TEXT * 2.4), BOARD_H - whole.px(MIN_TEXT * 1.3), PLAYED_ZOOM)
    sector = state.ships[seat].sector
    cx, cy = big.sector(b, sector)
    c = Canvas(w, h, SPACE, palette=PALETTE)
    band = c.px(MIN_TEXT) * 1.5
    at = big.shifted(round(cx - w / 2), round(cy - (h - band) / 2))
    c.reserve((0, h - band, w, h))   # the caption's band
    _tiles(c, at, state, b, viewer.is_gm, peeks)
    _outpost(c, at, b)
    _numbers(c, at, state, b)
    _pieces(c, at, state, b)
    x, y = at.sector(b, sector)
    spot = next(p for s, p in zip([s for s in state.seats if state.ships[s].sector == sector],
                                  _ship_spots(x, y, at.size, sum(1 for s in state.seats
                                                                  if state.ships[s].sector == sector),
                                              sector == TERRA_PRIME), strict=True) if s == seat)
    c.mark("circle", *spot, at.size * 0.34, fill=None, outline=seat_colour(state.seats, seat), width=c.px(2.5))
    c.draw.rectangle([0, h - band, w, h], fill=PANEL)
    # the caption's band covers these, and a piece beyond the edge is cut off with its letter
    c.labels = [lab for lab in c.labels if lab.box[0] >= 0 and lab.box[1] >= 0 and lab.box[2] <= w
                and lab.box[3] <= h - band]
    where = "Terra Prime" if sector == TERRA_PRIME else f"sector {sector}"
    c.text((c.px(4), h - band / 2), f"{seat} just played: {where}", fill=LIGHT, bold=True, anchor="lm")
    return c


def _tiles(c: Canvas, board: _Board, state: GameState, b: Board, gm: bool, peeks: list[int], *,
           labels: bool = True) -> None:
    size = board.size
    draw = c.draw
    for pos, h in enumerate(b.positions, start=1):
        tile = state.tile(pos)
        band = b.band(pos)
        centre = board.hex_centre(h)
        if not c.sees(centre, size * 1.2):
            continue
        poly = board.polygon(h)
        if not tile.revealed:
            c.polygon(poly, fill=BACKS[band], outline=SPACE, width=2)
            if gm or pos in peeks:
                _face(c, board, rules().tiles[tile.design], poly, centre, 0, faint=True)
            continue
        c.polygon(poly, fill=FACE, outline=EDGES[band], width=3)
        face = rules().tiles[tile.design]
        _face(c, board, face, poly, centre, tile.rotation, faint=False)
        if face.aliens:
            beaten = state.beaten.get(str(pos))
            _aliens(c, centre, size, face.aliens, state.seats, beaten.seat if beaten else None, label=labels)
        elif face.strays:
            for i in range(face.strays):
                x = centre[0] + (i - (face.strays - 1) / 2) * size * 0.22
                r = size * 0.07
                draw.ellipse([x - r, centre[1] - r, x + r, centre[1] + r], fill=STRAY, outline=LIGHT)
    if labels:
        _tile_labels(c, board, state, b, gm, peeks)


def _tile_labels(c: Canvas, board: _Board, state: GameState, b: Board, gm: bool, peeks: list[int]) -> None:
    """Tile numbers (T12, what `explore` and `scan` take), scan hints, alien counts, "orienting"."""
    size = board.size
    for pos, h in enumerate(b.positions, start=1):
        centre = board.hex_centre(h)
        if not c.sees(centre, size * 0.2):
            continue
        tile = state.tile(pos)
        if not tile.revealed:
            band = b.band(pos)
            if gm or pos in peeks:
                c.text((centre[0], centre[1] + size * 0.5), "GM" if gm else "scan", fill=LIGHT)
            c.text(centre, f"T{pos}", MIN_TEXT * 1.2, fill=LIGHT, bold=True, stroke=BACKS[band])
            continue
        face = rules().tiles[tile.design]
        if face.aliens:
            c.text(centre, str(face.aliens), fill=LIGHT, bold=True, keep_in=False)
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


def _aliens(c: Canvas, centre: Point, size: float, count: int, seats: list[str], beaten: str | None, *,
            label: bool) -> None:
    r = size * 0.24
    x, y = centre
    c.polygon([(x, y - r), (x + r, y), (x, y + r), (x - r, y)], fill=ALIEN if beaten is None else BEATEN,
              outline=LIGHT, width=2)
    if beaten is not None:
        c.badge(seats, beaten, x + r * 0.7, y - r * 0.7, size * 0.12, outline=LIGHT, letter=False)


def _outpost(c: Canvas, board: _Board, b: Board, *, label: bool = True) -> None:
    for h in b.layout.outpost_hexes:
        c.polygon(board.polygon(h), fill=OUTPOST, outline=OUTPOST_EDGE, width=2)
    if label:
        _outpost_label(c, board, b)


def _outpost_label(c: Canvas, board: _Board, b: Board) -> None:
    x, y = board.sector(b, TERRA_PRIME)
    if c.sees((x, y - board.size * 0.45)):
        c.text((x, y - board.size * 0.45), "TERRA PRIME", fill=OUTPOST_NAME, bold=True)


SHIP_REACH = 0.36     # a ship's mark from its sector's point, in hex sizes
SHIP_SLOTS = (3 * math.pi / 4, 5 * math.pi / 4, math.pi / 4, 7 * math.pi / 4)   # left side first: numbers go right


def _ship_spots(x: float, y: float, size: float, n: int, outpost: bool) -> list[Point]:
    if outpost:   # everyone starts at Terra Prime: a ring around it
        return [(x + math.cos(math.pi / 2 + 2 * math.pi * i / n) * size * 0.62,
                 y + math.sin(math.pi / 2 + 2 * math.pi * i / n) * size * 0.62) for i in range(n)]
    reach = size * (SHIP_REACH if n <= 2 else SHIP_REACH * 1.25)
    return [(x + math.cos(SHIP_SLOTS[i % 4]) * reach * (1 + i // 4 * 0.6),
             y + math.sin(SHIP_SLOTS[i % 4]) * reach * (1 + i // 4 * 0.6)) for i in range(n)]


def _numbers(c: Canvas, board: _Board, state: GameState, b: Board) -> None:
    """Sector numbers (what `move` takes) beside their points, clear of where a colony (on a sector by a
    planet or field) or a lone ship would stand: the numbers belong to the board's layer, and the pieces come
    and go over it (a second ship in a sector stands opposite, on the numbers' far side)."""
    size = board.size
    shown = []
    for sector in range(1, b.sector_count):
        x, y = board.sector(b, sector)
        if not c.sees((x, y), -c.px(MIN_TEXT)):   # a number whose point is cut off would mislead
            continue
        if not b.tiles_at[sector] or not (mapped(state, sector) or len(face_down(state, sector)) == 1):
            continue
        d = size * (0.22 if planets(state, sector) or fields(state, sector) else 0.08)
        shown.append((sector, (x - d, y - d, x + d, y + d)))
        c.reserve(shown[-1][1])
        if mapped(state, sector):   # ships move on mapped space only
            c.reserve_circle(*_ship_spots(x, y, size, 1, False)[0], size * 0.25)
    for sector, around in shown:
        c.place(around, str(sector), fill=SECTOR if mapped(state, sector) else DIM,
                stroke=SPACE, gap=0, order=("br", "right", "tr", "bl", "below", "left", "above", "tl"))


def _pieces(c: Canvas, board: _Board, state: GameState, b: Board) -> None:
    """Colonies and their cubes, then ships."""
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
        c.text((x, y), colony.owner[:1].upper(), fill=contrast(colour), bold=True, keep_in=False, reserve=False)
        if colony.cube:  # the cube sits on the colony's corner: the owner's colour stays whole
            q = size * 0.11
            cx, cy = x + r, y - r
            c.draw.rectangle([cx - q, cy - q, cx + q, cy + q], fill=CUBES[colony.cube], outline=SPACE, width=2)
    by_sector: dict[int, list[str]] = {}
    for seat in state.seats:
        by_sector.setdefault(state.ships[seat].sector, []).append(seat)
    for sector, seats in by_sector.items():
        x, y = board.sector(b, sector)
        if not c.sees((x, y), size * 0.8):
            continue
        for seat, (sx, sy) in zip(seats, _ship_spots(x, y, size, len(seats), sector == TERRA_PRIME), strict=True):
            acting = seat == state.seat and not state.ended
            r = size * 0.2
            c.mark("circle", sx, sy, r * 1.25, fill=None, outline=(255, 255, 255) if acting else DIM, width=3)
            c.badge(state.seats, seat, sx, sy, r, outline=SPACE)


def _panel(c: Canvas, state: GameState, top: int, *, static: bool) -> None:
    """Per seat: score, credits, markers, dice, actions (fuel cells), modules (shuttle included), holds and
    their cubes, tech; then Earth's tracks and prices and the Cargo Ship.

    Drawn twice over one layout: `static` draws what stays put for the campaign's seats (names, headings,
    empty tracks) into the board's layer; otherwise the numbers and cubes of the moment."""
    draw = c.draw
    line = c.px(MIN_TEXT) * 1.3
    x0, right = 16, WIDTH - 16
    y = top + line * 0.8
    if static:
        c.text((right, y), "T12: tile (explore, scan) · 12: sector (move)", fill=DIM, anchor="rm")
    else:
        status = "Game over" if state.ended else f"{state.seat} to play ({state.actions_left} actions left)"
        c.text((x0, y), status, MIN_TEXT * 1.15, fill=LIGHT, bold=True, anchor="lm")
    y += line * 1.3
    cube = c.px(MIN_TEXT) * 0.9
    holds_x = x0 + line * 1.1 + c.measure("holds: ")[0]
    for seat in state.seats:
        ship = state.ships[seat]
        name_w = c.measure(seat, bold=True)[0]
        if static:
            c.text((x0 + line * 1.1, y), seat, fill=LIGHT, bold=True, anchor="lm")
            c.text((x0 + line * 1.1, y + line * 2), "holds:", fill=LIGHT, anchor="lm")
        else:
            c.badge(state.seats, seat, x0 + line * 0.45, y, line * 0.45,
                    outline=(255, 255, 255) if seat == state.seat else SPACE)
            winner = "winner · " if seat in state.winners else ""
            c.text((right, y), f"{winner}{ship.score} LP", fill=LIGHT, bold=True, anchor="rm")
            info = (f"{ship.credits} cr · {cs.markers_left(ship)} markers · {cs.actions_per_turn(ship)} actions "
                    f"· W{cs.weapon_dice(ship)} S{cs.shield_dice(ship)}")
            c.text((x0 + line * 1.1 + name_w + line * 0.6, y), info, fill=DIM, anchor="lm")
            modules = [f"{cs.total(ship, m.key)} {m.name}{'s' if cs.total(ship, m.key) != 1 else ''}"
                       for m in rules().modules if cs.total(ship, m.key)]
            c.text((x0 + line * 1.1, y + line), "modules: " + ", ".join(modules), fill=LIGHT, anchor="lm")
            room = cs.cargo_room(ship)
            hy = y + line * 2
            for i in range(room):
                key = ship.cargo[i] if i < len(ship.cargo) else None
                draw.rectangle([holds_x + i * cube * 1.25, hy - cube / 2, holds_x + i * cube * 1.25 + cube,
                                hy + cube / 2], fill=CUBES[key] if key else HOLD, outline=DIM, width=2)
            after = holds_x + max(room, 6) * cube * 1.25
            if ship.count("shuttle"):   # the docked shuttle's slots, framed and named
                first = room - rules().printed.shuttle_slots
                draw.rounded_rectangle([holds_x + first * cube * 1.25 - 4, hy - cube / 2 - 4,
                                        holds_x + room * cube * 1.25 - cube * 0.25 + 4, hy + cube / 2 + 4],
                                       radius=4, outline=SECTOR, width=2)
                c.text((holds_x + room * cube * 1.25 + line * 0.2, hy), "shuttle", fill=SECTOR, anchor="lm")
                after = max(after, holds_x + room * cube * 1.25 + line * 0.2 + c.measure("shuttle")[0])
            tech = [step.name for step in rules().tech if step.step in ship.tech]
            c.text((after + line * 0.4, hy), "tech: " + (", ".join(tech) if tech else "none"), fill=LIGHT,
                   anchor="lm")
        y += line * 3.15
    if static:
        c.text((x0, y), "Earth: supply / demand", fill=LIGHT, bold=True, anchor="lm")
    y += line
    for res in rules().resources:
        if static:
            draw.rectangle([x0, y - cube / 2, x0 + cube, y + cube / 2], fill=CUBES[res.key], outline=SPACE)
            c.text((x0 + cube * 1.5, y), res.name, fill=LIGHT, anchor="lm")
        for i in range(res.track_size):
            cx = x0 + 360 + i * cube * 1.2
            if static or i < state.earth[res.key]:
                draw.rectangle([cx, y - cube / 2, cx + cube, y + cube / 2], fill=None if static else CUBES[res.key],
                               outline=DIM, width=2)
        if not static:
            c.text((right, y), f"{earth.price(state, res.key)} cr", fill=LIGHT, anchor="rm")
        y += line
    slot = cube * 1.6
    sx = x0 + c.measure("Cargo Ship", bold=True)[0] + line
    if static:
        c.text((x0, y), "Cargo Ship", fill=LIGHT, bold=True, anchor="lm")
        return
    size = earth.ship_size(state)
    for i in range(size):
        cube_key = state.cargo_ship[i] if i < len(state.cargo_ship) else None
        draw.rectangle([sx + i * slot, y - cube * 0.6, sx + i * slot + cube * 1.3, y + cube * 0.6],
                       fill=CUBES[cube_key] if cube_key else HOLD, outline=DIM, width=2)
    if state.cargo_ship_away:
        c.text((sx + size * slot + line * 0.4, y), "away to Earth", fill=LIGHT, anchor="lm")
    if state.final_turns is not None and not state.ended:   # on the Cargo Ship's line, at its right
        c.text((right, y), f"Final round: {state.final_turns + 1} turn(s) left", fill=FINAL, bold=True, anchor="rm")

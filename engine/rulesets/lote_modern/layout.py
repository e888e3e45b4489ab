"""Where each place of an uploaded map is drawn: laid out once, when the GM uploads the map file.

The map file carries no coordinates, so its regions and sea zones are set out by a small seeded force layout
over the land borders, coasts and sea links (the same map always lands the same way). It depends on the map
file alone (a GM's edit changes no border or link), so the campaign keeps it with its map
(`CampaignMap.layout`) and every later picture draws from it. A map kept before layouts were kept has none:
its picture lays it out on the fly, once per process.
"""

from __future__ import annotations

import functools
import math

from engine.rulesets.lote_modern.world import CampaignMap

Point = tuple[float, float]

LAYOUT_MOST = 250   # places; a bigger map is set out on a grid in the order of a walk along its borders
DIGITS = 4          # a spot in the unit square to 1/10,000: under a tenth of a pixel, and a short dump


def graph(world: CampaignMap) -> tuple[tuple[str, ...], tuple[tuple[int, int], ...]]:
    """The places (regions then sea zones, each sorted) and the links between them as index pairs."""
    names = tuple(sorted(world.regions)) + tuple(sorted(world.zones))
    index = {n: i for i, n in enumerate(names)}
    edges: set[tuple[int, int]] = set()
    for region in world.regions.values():
        for other in (*region.neighbours, *region.coasts):
            a, b = index[region.name], index[other]
            edges.add((min(a, b), max(a, b)))
    for link in world.links:
        a, b = index[link.a], index[link.b]
        edges.add((min(a, b), max(a, b)))
    return names, tuple(sorted(edges))


def lay_out(world: CampaignMap) -> dict[str, Point]:
    """Each place's spot in the unit square, as the campaign keeps it with its map."""
    names, edges = graph(world)
    return dict(zip(names, layout(names, edges), strict=True))


def spots(world: CampaignMap) -> tuple[Point, ...]:
    """The spots of `graph(world)`'s places: the kept layout when the map has one for every place, else
    laid out now (a map kept before layouts were kept; once per process)."""
    names, edges = graph(world)
    kept = world.layout
    if kept and all(name in kept for name in names):
        return tuple(kept[name] for name in names)
    return layout(names, edges)


def _grid_layout(n: int, edges: tuple[tuple[int, int], ...]) -> tuple[Point, ...]:
    """Places in breadth-first order along borders and sea links, row by row: neighbours mostly stay near."""
    links: dict[int, list[int]] = {i: [] for i in range(n)}
    for a, b in edges:
        links[a].append(b)
        links[b].append(a)
    order: list[int] = []
    seen: set[int] = set()
    for start in range(n):
        if start in seen:
            continue
        queue = [start]
        seen.add(start)
        while queue:
            i = queue.pop(0)
            order.append(i)
            for j in sorted(links[i]):
                if j not in seen:
                    seen.add(j)
                    queue.append(j)
    columns = max(1, math.ceil(math.sqrt(n)))
    rows = max(1, math.ceil(n / columns))
    spot = {i: ((k % columns) / max(columns - 1, 1), (k // columns) / max(rows - 1, 1)) for k, i in enumerate(order)}
    return tuple((round(spot[i][0], DIGITS), round(spot[i][1], DIGITS)) for i in range(n))


@functools.lru_cache(maxsize=16)
def layout(names: tuple[str, ...], edges: tuple[tuple[int, int], ...]) -> tuple[Point, ...]:
    """Fruchterman-Reingold in the unit square from a fixed start: the same map always gets the same picture."""
    n = len(names)
    if n > LAYOUT_MOST:
        return _grid_layout(n, edges)
    rounds = max(20, min(160, 1_500_000 // max(n * n, 1)))   # bounded work: a big map is laid out in ~1 s
    pos = [[0.5 + 0.45 * math.cos(2 * math.pi * i / n + i * 0.37), 0.5 + 0.45 * math.sin(2 * math.pi * i / n)]
           for i in range(n)]
    k = math.sqrt(1.0 / max(n, 1)) * 1.2
    heat = 0.1
    for _ in range(rounds):
        disp = [[0.0, 0.0] for _ in range(n)]
        for i in range(n):
            xi, yi = pos[i]
            for j in range(i + 1, n):
                dx, dy = xi - pos[j][0], yi - pos[j][1]
                d2 = dx * dx + dy * dy + 1e-9
                f = k * k / d2
                disp[i][0] += dx * f
                disp[i][1] += dy * f
                disp[j][0] -= dx * f
                disp[j][1] -= dy * f
        for a, b in edges:
            dx, dy = pos[a][0] - pos[b][0], pos[a][1] - pos[b][1]
            d = math.sqrt(dx * dx + dy * dy) + 1e-9
            f = d / k
            disp[a][0] -= dx * f
            disp[a][1] -= dy * f
            disp[b][0] += dx * f
            disp[b][1] += dy * f
        for i in range(n):
            dx, dy = disp[i]
            d = math.sqrt(dx * dx + dy * dy) + 1e-9
            step = min(d, heat)
            pos[i][0] += dx / d * step
            pos[i][1] += dy / d * step
        heat *= 0.975
    xs, ys = [p[0] for p in pos], [p[1] for p in pos]
    sx, sy = max(max(xs) - min(xs), 1e-6), max(max(ys) - min(ys), 1e-6)
    # half the layout, half its rank order: clusters spread over the canvas, neighbours stay near
    rank_x = {i: r / max(n - 1, 1) for r, i in enumerate(sorted(range(n), key=lambda i: xs[i]))}
    rank_y = {i: r / max(n - 1, 1) for r, i in enumerate(sorted(range(n), key=lambda i: ys[i]))}
    return tuple((round(0.5 * (xs[i] - min(xs)) / sx + 0.5 * rank_x[i], DIGITS),
                  round(0.5 * (ys[i] - min(ys)) / sy + 0.5 * rank_y[i], DIGITS)) for i in range(n))

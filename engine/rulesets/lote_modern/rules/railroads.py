"""Railroads: building segments, moving by rail, rail communications (LotE Modern Era 3.4).

Offers: `rail_connected`.
"""

from __future__ import annotations

from collections.abc import Iterable


def rail_connected(start: str, end: str, rail_links: Iterable[tuple[str, str]]) -> bool:
    """Whether railroad segments (province to province) join two provinces (LotE 2.8.4, 3.4.1)."""
    neighbours: dict[str, set[str]] = {}
    for a, b in rail_links:
        neighbours.setdefault(a, set()).add(b)
        neighbours.setdefault(b, set()).add(a)
    seen, frontier = {start}, [start]
    while frontier:
        here = frontier.pop()
        if here == end:
            return True
        for nxt in neighbours.get(here, ()):
            if nxt not in seen:
                seen.add(nxt)
                frontier.append(nxt)
    return False

"""What each ruleset charts over time, per viewer: a campaign's numbers of the moment, one state at a time.

`measures(ruleset_id, state, viewer)` gives {chart key: Measure}; a caller reads it from each turn's state and
draws the lines with engine.render.chart. Only numbers the viewer may see are given: Terra Prime's leadership
and Terra Nova's victory points are public; a Lords of the Earth nation sees its own treasury and income (the
GM every nation's); under fog a freeform seat sees only its own count of regions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.core.visibility import Viewer
from engine.render.chart import line_chart


@dataclass(frozen=True, slots=True)
class Measure:
    title: str
    unit: str
    values: dict[str, float]


def measures(ruleset_id: str, state: Any, viewer: Viewer) -> dict[str, Measure]:
    if ruleset_id == "terra-prime":
        return {"score": Measure("Leadership points", "LP", {s: float(state.ships[s].score) for s in state.seats})}
    if ruleset_id == "terra-nova":
        return {"score": Measure("Victory points", "VP", {s: float(state.powers[s].vp) for s in state.seats})}
    if ruleset_id == "lote-modern":
        return _lote(state, viewer)
    if ruleset_id == "freeform":
        return _freeform(state, viewer)
    return {}


def _lote(state: Any, viewer: Viewer) -> dict[str, Measure]:
    from engine.rulesets.lote_modern.accounts import income
    from engine.rulesets.lote_modern.render import seen_nations

    seen = seen_nations(state, viewer)
    if not seen:
        return {}
    nations = [state.nations[key] for key in seen]
    return {"treasury": Measure("Treasury", "GP", {key: float(n.gp) for key, n in zip(seen, nations, strict=True)}),
            "income": Measure("Income", "GP a turn",
                              {key: float(income(state, n)[1]) for key, n in zip(seen, nations, strict=True)})}


def _freeform(state: Any, viewer: Viewer) -> dict[str, Measure]:
    if not state.regions:
        return {}
    seats = list(state.seats)
    if state.fog and not viewer.is_gm:
        if viewer.kind != "seat" or viewer.seat not in seats:
            return {}
        seats = [viewer.seat]
    held = {s: float(sum(1 for r in state.regions if r.owner == s)) for s in seats}
    return {"score": Measure("Regions held", "regions", held)}


def chart_keys(ruleset_id: str, state: Any, viewer: Viewer) -> list[str]:
    """The charts this viewer may ask for in this campaign (may be none)."""
    return list(measures(ruleset_id, state, viewer))


def chart_png(ruleset_id: str, states: Sequence[tuple[int, Any]], viewer: Viewer, key: str | None = None,
              ) -> bytes | None:
    """A line chart of one measure over `states` (turn, state) in turn order, or None when there is none to draw.

    The turn summary and the end of a campaign call this with the states on record; so does /chart."""
    lines: dict[str, list[tuple[int, float]]] = {}
    title = unit = ""
    for turn, state in states:
        found = measures(ruleset_id, state, viewer)
        if not found:
            continue
        measure = found.get(key or next(iter(found)))
        if measure is None:
            return None
        title, unit = measure.title, measure.unit
        for seat, value in measure.values.items():
            lines.setdefault(seat, []).append((turn, value))
    if not lines:
        return None
    last = states[-1][1]
    seats = list(getattr(last, "seats", None) or getattr(last, "nations", {}))
    first, final = states[0][0], states[-1][0]
    span = f"turn {first}" if first == final else f"turns {first}-{final}"
    return line_chart(lines, title=f"{title}, {span}", unit=unit, seats=seats)

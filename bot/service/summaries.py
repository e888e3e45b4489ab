"""Turn summaries: events and rolls as markdown lines, for one audience at a time."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.core import Event, Roll, Visibility

Audience = Callable[[Visibility], bool]


def public(vis: Visibility) -> bool:
    return vis.public


def seat_only(seat: str) -> Audience:
    return lambda vis: not vis.public and seat in vis.seats


def gm_only(vis: Visibility) -> bool:
    return not vis.public and not vis.seats


def roll_line(roll: Roll) -> str:
    label = "" if roll.table else f"{roll.name}: "
    return f"🎲 {label}{roll.text()}"


def summary(events: Sequence[Event], rolls: Sequence[Roll], audience: Audience) -> str:
    """Events first, each followed by nothing else; then the dice, so every roll is on show."""
    lines = [e.text for e in events if audience(e.visibility)]
    dice = [roll_line(r) for r in rolls if audience(r.visibility) and r.kind != "shuffle"]
    if dice:
        lines.append("\n".join(dice))
    return "\n".join(lines)

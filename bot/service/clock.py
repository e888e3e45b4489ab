"""Time, injected: the real clock in production, a hand-wound one in the console and tests."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Protocol

_SPAN = re.compile(r"(\d+)\s*([wdhms])", re.IGNORECASE)
_UNITS = {"w": "weeks", "d": "days", "h": "hours", "m": "minutes", "s": "seconds"}


class Clock(Protocol):
    def now(self) -> datetime: ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


class ManualClock:
    """A clock that only moves when told to (`advance`)."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2026, 1, 5, 12, 0, tzinfo=UTC)

    def now(self) -> datetime:
        return self._now

    def advance(self, span: timedelta) -> datetime:
        self._now += span
        return self._now


def parse_span(text: str) -> timedelta:
    """``2d``, ``36h``, ``1w 2d``, ``90m`` → a timedelta."""
    cleaned = text.strip().lstrip("+")
    parts = _SPAN.findall(cleaned)
    if not parts or _SPAN.sub("", cleaned).strip(" ,"):
        raise ValueError(f"`{text}` is not a duration like 2d, 36h, 1w 2d or 90m")
    return timedelta(**{_UNITS[u.lower()]: int(n) for n, u in parts})


def format_span(span: timedelta) -> str:
    seconds = int(span.total_seconds())
    if seconds <= 0:
        return "now"
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    parts = [f"{days}d" if days else "", f"{hours}h" if hours else "", f"{minutes}m" if minutes and not days else ""]
    return " ".join(p for p in parts if p) or "under a minute"

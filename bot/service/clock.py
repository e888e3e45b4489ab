"""Time, injected: the real clock in production, a hand-wound one in the console and tests."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Protocol

from bot.service.quoting import clip

# ASCII digits only (\d would take "²" or "٣"), and few enough that timedelta cannot overflow
_SPAN = re.compile(r"([0-9]{1,7})\s*([wdhms])", re.IGNORECASE)
_SECONDS = {"w": 604800, "d": 86400, "h": 3600, "m": 60, "s": 1}
LONGEST = timedelta(days=3660)  # no span Herald schedules is longer than ten years


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
    """``2d``, ``36h``, ``1w 2d``, ``90m`` → a timedelta (at most ten years)."""
    cleaned = text.strip().lstrip("+")
    parts = _SPAN.findall(cleaned) if len(cleaned) <= 60 else []
    if not parts or _SPAN.sub("", cleaned).strip(" ,"):
        raise ValueError(f"`{clip(text, 60)}` is not a duration like 2d, 36h, 1w 2d or 90m")
    seconds = sum(int(n) * _SECONDS[u.lower()] for n, u in parts)
    if seconds > LONGEST.total_seconds():
        raise ValueError(f"`{clip(text, 60)}` is longer than ten years")
    return timedelta(seconds=seconds)


def format_span(span: timedelta) -> str:
    seconds = int(span.total_seconds())
    if seconds <= 0:
        return "now"
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    parts = [f"{days}d" if days else "", f"{hours}h" if hours else "", f"{minutes}m" if minutes and not days else ""]
    return " ".join(p for p in parts if p) or "under a minute"

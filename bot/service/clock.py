"""Time, injected: the real clock in production, a hand-wound one in the console and tests."""

from __future__ import annotations

import functools
import re
import zoneinfo
from datetime import UTC, datetime, timedelta
from typing import Protocol

from bot.service.quoting import clip
from engine.core.names import Names, unknown_message

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


AREAS = ("Africa", "America", "Antarctica", "Asia", "Atlantic", "Australia", "Europe", "Indian", "Pacific")


@functools.cache
def _zones() -> Names:
    """The IANA time zones of places (Europe/Paris…), also by their city alone (``paris``) where one zone has that
    city. Old aliases (ROK, US/Eastern, Etc/GMT+5) are taken when typed whole, never offered as a guess."""
    keys = sorted(k for k in zoneinfo.available_timezones() if k.split("/", 1)[0] in AREAS)
    cities: dict[str, list[str]] = {}
    for key in keys:
        cities.setdefault(key.rsplit("/", 1)[-1].replace("_", " "), []).append(key)
    aliases = {}
    for city, found in cities.items():  # America/Argentina/Buenos_Aires over its old link America/Buenos_Aires
        deepest = max(k.count("/") for k in found)
        if len([k for k in found if k.count("/") == deepest]) == 1:
            aliases[city] = max(found, key=lambda k: k.count("/"))
    return Names(keys, aliases=aliases)


@functools.cache
def _every_zone() -> dict[str, str]:
    return {k.casefold(): k for k in zoneinfo.available_timezones()}


def zone(name: str) -> zoneinfo.ZoneInfo:
    """A time zone by its IANA name, forgivingly (``europe/paris``, ``Paris``, ``new york``); ValueError if none."""
    if name.strip().upper() in ("UTC", "GMT", "Z"):
        return zoneinfo.ZoneInfo("UTC")
    whole = _every_zone().get(name.strip().casefold())
    if whole is not None:
        return zoneinfo.ZoneInfo(whole)
    meant = _zones().match(name)
    if meant.name is None:
        raise ValueError(f"{unknown_message(meant, what='time zone')} (IANA names, like Europe/Paris or "
                         f"America/New_York)")
    return zoneinfo.ZoneInfo(meant.name)

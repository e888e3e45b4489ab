"""Deadlines as people type them, read in the campaign's time zone.

    2d, 36h, 1w 2d, in 2 days, in 3 hours       from now (days on the calendar: the same clock time that day)
    tomorrow, friday, fri 18:00, next monday     a named day; without a time, the end of that day (23:59)
    18:00, 6pm, 6:30pm                           the next time the clock shows it
    2026-12-01 18:00, 2026-12-01, 1 dec 18:00     a date (a date without a year is the next one to come)

A small grammar over datetime rather than a general natural-language date library: these forms are all a GM
needs, each is read one way only, and an unreadable one is refused with examples instead of being guessed.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta, tzinfo

from engine.core.errors import RulesError
from engine.core.names import Names, shown

MAX_TEXT = 60
LONGEST = timedelta(days=3660)  # ten years: no deadline is further away
END_OF_DAY = time(23, 59)
DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december")
_UNITS = {"w": 604800, "week": 604800, "d": 86400, "day": 86400, "h": 3600, "hour": 3600, "hr": 3600,
          "m": 60, "min": 60, "minute": 60, "s": 1, "sec": 1, "second": 1}
_SPAN_PART = re.compile(r"([0-9]{1,7})\s*([a-z]+?)s?(?=[0-9]|\s|,|$)", re.ASCII)
_CLOCK = re.compile(r"([0-9]{1,2})(?:[:.h]([0-9]{2})(?::([0-9]{2}))?)?\s*(am|pm|h)?", re.ASCII)
_ISO_DATE = re.compile(r"([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})", re.ASCII)
_DAY_MONTH = re.compile(r"([0-9]{1,2})\s+([a-z]+)|([a-z]+)\s+([0-9]{1,2})", re.ASCII)
_DAY_NAMES = Names(DAYS)
_MONTH_NAMES = Names(MONTHS)


class WhenError(RulesError):
    """Text that is no time Herald can read; the message gives examples."""


def _refuse(text: str, why: str = "") -> WhenError:
    reason = f" ({why})" if why else ""
    return WhenError(f"`{shown(text)}` is not a time I can read{reason}: try 2d, in 36 hours, tomorrow, "
                     f"friday 18:00, 6pm or 2026-12-01 18:00")


def _span_parts(text: str) -> list[tuple[int, str]] | None:
    cleaned = text.strip().lower().removeprefix("in ").lstrip("+").strip()
    if not cleaned or len(cleaned) > MAX_TEXT:
        return None
    parts = _SPAN_PART.findall(cleaned)
    if not parts or _SPAN_PART.sub("", cleaned).replace("and", "").strip(" ,"):
        return None
    if any(unit not in _UNITS for _, unit in parts):
        return None
    return [(int(n), unit) for n, unit in parts]


def span(text: str) -> timedelta | None:
    """``2d``, ``1w 2d``, ``in 3 hours``, ``+90m`` as a timedelta; None when `text` is no duration."""
    parts = _span_parts(text)
    return None if parts is None else timedelta(seconds=sum(n * _UNITS[unit] for n, unit in parts))


def shifted(start: datetime, text: str, zone: tzinfo = UTC) -> datetime | None:
    """`start` moved on by the span `text`, in UTC: days and weeks on the calendar of `zone` (a deadline on
    Friday 18:00 moved by 1d is Saturday 18:00 even across a change of summer time), hours and minutes as time
    elapsed. None when `text` is no span."""
    parts = _span_parts(text)
    if parts is None:
        return None
    days = sum(n * _UNITS[unit] for n, unit in parts if _UNITS[unit] >= _UNITS["d"]) // _UNITS["d"]
    seconds = sum(n * _UNITS[unit] for n, unit in parts if _UNITS[unit] < _UNITS["d"])
    local = start.astimezone(zone)
    # an aware datetime plus days keeps its wall-clock time; zoneinfo then gives the offset of the new day
    return (local + timedelta(days=days)).astimezone(UTC) + timedelta(seconds=seconds)


def deadline(text: str, now: datetime, zone: tzinfo = UTC) -> datetime:
    """When `text` falls, in UTC, read in `zone`, after `now` (an aware datetime)."""
    if len(text) > MAX_TEXT:
        raise _refuse(text[:MAX_TEXT], "too long")
    after = span(text)
    if after is not None:
        if after > LONGEST:
            raise _refuse(text, "more than ten years away")
        return shifted(now, text, zone) or now + after
    stamped = _with_offset(text)
    if stamped is not None:
        if stamped <= now:
            raise _refuse(text, "that time has passed")
        if stamped - now > LONGEST:
            raise _refuse(text, "more than ten years away")
        return stamped
    local_now = now.astimezone(zone)
    words = " ".join(text.strip().lower().replace(",", " ").replace(" at ", " ").split())
    if words.endswith(" utc"):  # said in UTC whatever the campaign's zone
        words, zone = words.removesuffix(" utc"), UTC
    day, clock = _split_day_and_clock(words, text)
    if day is None and clock is None:
        raise _refuse(text)
    when = _on(day, clock, local_now, text, zone)
    if when - now > LONGEST:
        raise _refuse(text, "more than ten years away")
    return when


def _with_offset(text: str) -> datetime | None:
    """An ISO time that carries its own offset (``2026-12-01T18:00+02:00``), as UTC; else None."""
    try:
        stamped = datetime.fromisoformat(text.strip())
    except ValueError:
        return None
    return stamped.astimezone(UTC) if stamped.tzinfo is not None else None


def _split_day_and_clock(words: str, text: str) -> tuple[str | None, time | None]:
    """The day part and the time of day, from whichever end the time is written at."""
    if not words:
        return None, None
    tokens = words.split(" ")
    for cut in (1, 2):  # "18:00", "6 pm" at the end
        if len(tokens) >= cut:
            clock = _clock(" ".join(tokens[-cut:]), text)
            if clock is not None:
                return (" ".join(tokens[:-cut]) or None), clock
    if "t" in words and _ISO_DATE.match(words):  # 2026-12-01t18:00
        head, _, tail = words.partition("t")
        clock = _clock(tail, text)
        if clock is not None:
            return head, clock
    return words, None


def _clock(text: str, typed: str) -> time | None:
    m = _CLOCK.fullmatch(text)
    if m is None or (m[2] is None and m[4] is None):  # a bare number is a day of the month, not a time
        return None
    hour, minute, second = int(m[1]), int(m[2] or 0), int(m[3] or 0)  # seconds: a pasted timestamp has them
    if m[4] in ("am", "pm"):
        if not 1 <= hour <= 12:
            raise _refuse(typed, f"{hour}{m[4]} is no hour")
        hour = hour % 12 + (12 if m[4] == "pm" else 0)
    if hour > 23 or minute > 59 or second > 59:
        raise _refuse(typed, f"{m[0]} is no time of day")
    return time(hour, minute, second)


def _on(day: str | None, clock: time | None, local_now: datetime, typed: str, zone: tzinfo) -> datetime:
    today = local_now.date()
    if day is None:  # a time alone: the next time the clock shows it
        when = _at(today, clock or END_OF_DAY, zone)
        return when if when > local_now else _at(today + timedelta(days=1), clock or END_OF_DAY, zone)
    on, weekly = _day(day, today, typed)
    when = _at(on, clock or END_OF_DAY, zone)
    if when <= local_now:
        if weekly:  # "friday 18:00" said on a Friday evening: next week's
            return _at(on + timedelta(days=7), clock or END_OF_DAY, zone)
        raise _refuse(typed, "that time has passed")
    return when


def _day(day: str, today: date, typed: str) -> tuple[date, bool]:
    """The date a day word names, and whether it is a weekday (which comes round again next week)."""
    if day in ("today", "tonight"):
        return today, False
    if day == "tomorrow":
        return today + timedelta(days=1), False
    following = day.startswith("next ")
    name = day.removeprefix("next ")
    weekday = _DAY_NAMES.match(name).name if name.isalpha() and len(name) >= 2 else None
    if weekday is not None:
        ahead = (DAYS.index(weekday) - today.weekday()) % 7
        if following and ahead == 0:
            ahead = 7
        return today + timedelta(days=ahead), not following
    iso = _ISO_DATE.fullmatch(day)
    if iso:
        return _date(int(iso[1]), int(iso[2]), int(iso[3]), typed), False
    dm = _DAY_MONTH.fullmatch(day)
    if dm:
        number, month_word = (dm[1], dm[2]) if dm[1] else (dm[4], dm[3])
        month = _MONTH_NAMES.match(month_word).name if len(month_word) >= 3 else None
        if month is None:
            raise _refuse(typed, f"`{shown(month_word)}` is no month")
        on = _date(today.year, MONTHS.index(month) + 1, int(number), typed)
        return (on if on >= today else _date(today.year + 1, on.month, on.day, typed)), False
    raise _refuse(typed)


def _date(year: int, month: int, day: int, typed: str) -> date:
    try:
        return date(year, month, day)
    except ValueError:
        raise _refuse(typed, "no such date") from None


def _at(on: date, clock: time, zone: tzinfo) -> datetime:
    """That wall-clock time in `zone`, as UTC (a time skipped by a clock change falls an hour later)."""
    local = datetime.combine(on, clock, tzinfo=zone)
    return local.astimezone(UTC)

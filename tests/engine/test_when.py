"""Deadlines as people type them: spans, named days, times of day and dates, read in the campaign's time zone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.when import WhenError, deadline, shifted, span

MONDAY_NOON = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)  # a Monday
PARIS = ZoneInfo("Europe/Paris")  # UTC+1 in January, UTC+2 from 29 March 2026
NEW_YORK = ZoneInfo("America/New_York")


@pytest.mark.parametrize(("text", "after"), [
    ("2d", timedelta(days=2)), ("36h", timedelta(hours=36)), ("1w 2d", timedelta(days=9)),
    ("+90m", timedelta(minutes=90)),
    ("in 2 days", timedelta(days=2)), ("in 3 hours", timedelta(hours=3)), ("2 days and 3 hours", timedelta(hours=51)),
    ("IN 1 WEEK", timedelta(weeks=1)), ("45 minutes", timedelta(minutes=45)),
])
def test_spans_count_from_now_whatever_the_zone(text, after):
    assert deadline(text, MONDAY_NOON, PARIS) == MONDAY_NOON + after


@pytest.mark.parametrize(("text", "utc"), [
    ("friday 18:00", "2026-01-09 17:00"), ("fri 6pm", "2026-01-09 17:00"), ("Friday at 18h", "2026-01-09 17:00"),
    ("tomorrow", "2026-01-06 22:59"), ("tomorrow 9:30am", "2026-01-06 08:30"), ("18:00", "2026-01-05 17:00"),
    ("11:00", "2026-01-06 10:00"), ("monday 18:00", "2026-01-05 17:00"), ("monday 10:00", "2026-01-12 09:00"),
    ("next monday", "2026-01-12 22:59"), ("2026-12-01 18:00", "2026-12-01 17:00"), ("2026-12-01", "2026-12-01 22:59"),
    ("1 dec 18:00", "2026-12-01 17:00"), ("Dec 1", "2026-12-01 22:59"), ("2026-04-01 18:00", "2026-04-01 16:00"),
    ("18:00 UTC", "2026-01-05 18:00"), ("2026-12-01T18:00+02:00", "2026-12-01 16:00"), ("1 jan", "2027-01-01 22:59"),
    ("2026-12-01 18:00:30", "2026-12-01 17:00"),  # a pasted timestamp's seconds
])
def test_days_and_times_are_read_in_the_campaigns_zone(text, utc):
    assert deadline(text, MONDAY_NOON, PARIS).strftime("%Y-%m-%d %H:%M") == utc


def test_the_same_words_fall_at_another_utc_time_elsewhere():
    assert deadline("friday 18:00", MONDAY_NOON, NEW_YORK) == datetime(2026, 1, 9, 23, 0, tzinfo=UTC)
    assert deadline("friday 18:00", MONDAY_NOON) == datetime(2026, 1, 9, 18, 0, tzinfo=UTC)


@pytest.mark.parametrize(("text", "why"), [
    ("today 10:00", "that time has passed"), ("2025-06-01", "that time has passed"), ("2026-02-30", "no such date"),
    ("13pm", "13pm is no hour"), ("25:00", "25:00 is no time of day"), ("18:00:61", "18:00:61 is no time of day"),
    ("9999-01-01", "more than ten years away"),
    ("3650000d", "more than ten years away"), ("2020-01-01T00:00+00:00", "that time has passed"),
    ("5 smarch", "is no month"), ("someday", ""), ("", ""), ("2d banana", ""),
])
def test_what_cannot_be_read_is_refused_with_examples(text, why):
    with pytest.raises(WhenError, match="is not a time I can read") as caught:
        deadline(text, MONDAY_NOON, PARIS)
    assert why in str(caught.value) and "friday 18:00" in str(caught.value)


def test_a_span_is_only_a_span():
    assert span("2d") == timedelta(days=2)
    assert span("friday") is None and span("6pm") is None and span("2026-12-01") is None


WORDS = ["friday", "fri", "tomorrow", "next", "in", "2", "d", "h", "18:00", "6pm", ":", "-", "2026", "12", "01",
         "T", "+02:00", " ", "utc", "dec", "١", "²", "\x00", "`", "999999999", "am", "at"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=12).map("".join) | st.text(max_size=80))
def test_any_text_is_a_future_time_or_refused_in_our_words(text):
    try:
        when = deadline(text, MONDAY_NOON, PARIS)
    except WhenError as exc:
        message = str(exc)
        assert len(message) < 300 and message.count("`") in (2, 4) and "\x00" not in message
        return
    assert when.tzinfo is not None and MONDAY_NOON < when <= MONDAY_NOON + timedelta(days=3660)


# -- the days summer time begins and ends (Paris: 29 March 2026 02:00 → 03:00; 25 October 2026 03:00 → 02:00) --

SATURDAY_BEFORE_SPRING = datetime(2026, 3, 28, 11, 0, tzinfo=UTC)  # 12:00 in Paris, the day before the change
SATURDAY_BEFORE_AUTUMN = datetime(2026, 10, 24, 10, 0, tzinfo=UTC)  # 12:00 in Paris, summer time


@pytest.mark.parametrize(("now", "text", "utc"), [
    (SATURDAY_BEFORE_SPRING, "in 1 day", "2026-03-29 10:00"),    # noon Sunday, summer time: 23 hours later
    (SATURDAY_BEFORE_SPRING, "24h", "2026-03-29 11:00"),         # hours are hours
    (SATURDAY_BEFORE_SPRING, "tomorrow", "2026-03-29 21:59"),    # 23:59 summer time
    (SATURDAY_BEFORE_SPRING, "sunday 18:00", "2026-03-29 16:00"),
    (SATURDAY_BEFORE_SPRING, "2026-03-29 02:30", "2026-03-29 01:30"),  # a clock time that never happens: 03:30
    (SATURDAY_BEFORE_AUTUMN, "in 1 day", "2026-10-25 11:00"),    # noon Sunday, winter time: 25 hours later
    (SATURDAY_BEFORE_AUTUMN, "1d 2h", "2026-10-25 13:00"),
    (SATURDAY_BEFORE_AUTUMN, "sunday 18:00", "2026-10-25 17:00"),
    (SATURDAY_BEFORE_AUTUMN, "2026-10-25 02:30", "2026-10-25 00:30"),  # a clock time that happens twice: the first
])
def test_deadlines_keep_the_clock_time_across_a_change_of_summer_time(now, text, utc):
    assert deadline(text, now, PARIS).strftime("%Y-%m-%d %H:%M") == utc


def test_a_deadline_moved_by_days_keeps_its_clock_time_and_by_hours_its_length():
    friday_six_pm = datetime(2026, 3, 27, 17, 0, tzinfo=UTC)  # 18:00 in Paris, winter time
    assert shifted(friday_six_pm, "1d", PARIS) == datetime(2026, 3, 28, 17, 0, tzinfo=UTC)
    assert shifted(friday_six_pm, "2d", PARIS) == datetime(2026, 3, 29, 16, 0, tzinfo=UTC)  # 18:00 summer time
    assert shifted(friday_six_pm, "48h", PARIS) == friday_six_pm + timedelta(hours=48)
    assert shifted(friday_six_pm, "1w", NEW_YORK) == friday_six_pm + timedelta(days=7)  # New York changed already
    assert shifted(friday_six_pm, "friday", PARIS) is None

"""Tests of judge.game.dates: reading moments, durations, weekdays and times of day, showing
moments, phase deadlines and absences, in UTC and in two zones with daylight saving time.

2026 changes: Europe/Amsterdam springs forward on Sunday 29 March (02:00 CET -> 03:00
CEST) and falls back on Sunday 25 October (03:00 CEST -> 02:00 CET); America/New_York
springs forward on Sunday 8 March (02:00 EST -> 03:00 EDT) and falls back on Sunday
1 November (02:00 EDT -> 01:00 EST).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
from error_words import words
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge.game.dates import (
    DateError,
    format_moment,
    next_deadline,
    parse_duration,
    parse_moment,
    parse_time_of_day,
    parse_weekdays,
    push_past_absence,
)

Z_UTC = ZoneInfo("UTC")
AMS = ZoneInfo("Europe/Amsterdam")
NYC = ZoneInfo("America/New_York")
LON = ZoneInfo("Europe/London")

PROFILE = {
    "derandomize": True,
    "database": None,
    "deadline": None,
    "suppress_health_check": [HealthCheck.too_slow],
}


def at(zone: ZoneInfo, *wall: int, fold: int = 0) -> datetime:
    """The UTC instant at which the clocks in `zone` show `wall` (fold=1: the second time)."""
    return datetime(*wall, tzinfo=zone, fold=fold).astimezone(UTC)


def read(text: str, now: datetime, zone: ZoneInfo) -> datetime:
    moment = parse_moment(text, now, zone)
    assert moment.tzinfo is UTC
    return moment


def refusal(excinfo: pytest.ExceptionInfo[DateError]) -> str:
    """The words of the error (its template rendered), checked to be one sentence for a
    player."""
    message = words(excinfo.value)
    assert message.endswith(".")
    assert "\n" not in message
    assert not message[0].islower()
    return message


# ---------------------------------------------------------------------------------------
# parse_moment in UTC: every accepted form

NOW = datetime(2026, 11, 27, 15, 0, tzinfo=UTC)  # Friday 27 November 2026 15:00 UTC

UTC_FORMS = [
    # ISO dates, with and without a time
    ("2026-12-01 23:30", (2026, 12, 1, 23, 30)),
    ("2026-12-01T23:30", (2026, 12, 1, 23, 30)),
    ("2026-12-01T23:30:00", (2026, 12, 1, 23, 30)),
    ("2026/12/01 23:30", (2026, 12, 1, 23, 30)),
    ("2026-12-1 7:05", (2026, 12, 1, 7, 5)),
    ("2026-12-01", (2026, 12, 1, 23, 59)),
    ("2026-12-01 midnight", (2026, 12, 2, 0, 0)),
    ("2026-12-01 24:00", (2026, 12, 2, 0, 0)),
    ("2026-12-01 noon", (2026, 12, 1, 12, 0)),
    ("2026-12-01 12 noon", (2026, 12, 1, 12, 0)),
    # day and month names
    ("1 Dec 2026 23:30", (2026, 12, 1, 23, 30)),
    ("1 December 2026 23:30", (2026, 12, 1, 23, 30)),
    ("December 1, 2026 11:30pm", (2026, 12, 1, 23, 30)),
    ("December 1st, 2026 at 11:30 p.m.", (2026, 12, 1, 23, 30)),
    ("Tuesday 1 December 2026 23:30", (2026, 12, 1, 23, 30)),
    ("Tue, 1 Dec. 2026, 23:30", (2026, 12, 1, 23, 30)),
    ("23:30 on 1 December 2026", (2026, 12, 1, 23, 30)),
    ("Dec 1 23:30", (2026, 12, 1, 23, 30)),
    ("1 dec", (2026, 12, 1, 23, 59)),
    ("the 1st of December at 9am", (2026, 12, 1, 9, 0)),
    ("1 Dec midnight", (2026, 12, 2, 0, 0)),
    ("Sept 3 10:00", (2027, 9, 3, 10, 0)),
    # a date without a year is the next occurrence
    ("Nov 27 16:00", (2026, 11, 27, 16, 0)),
    ("Nov 27 14:00", (2027, 11, 27, 14, 0)),
    ("Jan 5", (2027, 1, 5, 23, 59)),
    ("5th of January 9am", (2027, 1, 5, 9, 0)),
    ("Feb 29", (2028, 2, 29, 23, 59)),
    # weekdays: today if the time is still ahead, else next week
    ("Tue 23:30", (2026, 12, 1, 23, 30)),
    ("tuesday 23:30", (2026, 12, 1, 23, 30)),
    ("TUES 11pm", (2026, 12, 1, 23, 0)),
    ("on Tuesday at 23:30", (2026, 12, 1, 23, 30)),
    ("23:30 Tuesday", (2026, 12, 1, 23, 30)),
    ("tuesday", (2026, 12, 1, 23, 59)),
    ("Fri 16:00", (2026, 11, 27, 16, 0)),
    ("Fri 14:00", (2026, 12, 4, 14, 0)),
    ("Friday 15:00", (2026, 12, 4, 15, 0)),  # exactly now is not ahead
    ("friday", (2026, 11, 27, 23, 59)),
    ("Thu 09:00", (2026, 12, 3, 9, 0)),
    ("sat midnight", (2026, 11, 29, 0, 0)),
    # today and tomorrow
    ("tomorrow 18:00", (2026, 11, 28, 18, 0)),
    ("18:00 tomorrow", (2026, 11, 28, 18, 0)),
    ("tomorrow", (2026, 11, 28, 23, 59)),
    ("tomorrow noon", (2026, 11, 28, 12, 0)),
    ("12 noon tomorrow", (2026, 11, 28, 12, 0)),
    ("tomorrow midnight", (2026, 11, 29, 0, 0)),
    ("today 21:00", (2026, 11, 27, 21, 0)),
    ("today", (2026, 11, 27, 23, 59)),
    # a time alone is its next occurrence
    ("23:30", (2026, 11, 27, 23, 30)),
    ("14:00", (2026, 11, 28, 14, 0)),
    ("15:00", (2026, 11, 28, 15, 0)),
    ("15:01", (2026, 11, 27, 15, 1)),
    ("noon", (2026, 11, 28, 12, 0)),
    ("midday", (2026, 11, 28, 12, 0)),
    ("midnight", (2026, 11, 28, 0, 0)),
    ("24:00", (2026, 11, 28, 0, 0)),
    # 12-hour and 24-hour clocks
    ("11pm", (2026, 11, 27, 23, 0)),
    ("11 pm", (2026, 11, 27, 23, 0)),
    ("11PM", (2026, 11, 27, 23, 0)),
    ("11:30 pm", (2026, 11, 27, 23, 30)),
    ("11:30 p.m.", (2026, 11, 27, 23, 30)),
    ("11.30pm", (2026, 11, 27, 23, 30)),
    ("9am", (2026, 11, 28, 9, 0)),
    ("9 a.m.", (2026, 11, 28, 9, 0)),
    ("12am", (2026, 11, 28, 0, 0)),
    ("12pm", (2026, 11, 28, 12, 0)),
    ("23.30", (2026, 11, 27, 23, 30)),
    ("1.12", (2026, 11, 28, 1, 12)),  # two numbers with a dot are a time
    ("7:05", (2026, 11, 28, 7, 5)),
    ("at 23:30.", (2026, 11, 27, 23, 30)),
    # explicit zones
    ("2026-12-01T23:30Z", (2026, 12, 1, 23, 30)),
    ("2026-12-01 23:30 UTC", (2026, 12, 1, 23, 30)),
    ("2026-12-01 23:30 GMT", (2026, 12, 1, 23, 30)),
    ("2026-12-01T23:30+01:00", (2026, 12, 1, 22, 30)),
    ("2026-12-01T23:30:00-0500", (2026, 12, 2, 4, 30)),
    ("Tuesday 1 December 2026 23:30 UTC", (2026, 12, 1, 23, 30)),
    # relative: real elapsed time from now
    ("+36h", (2026, 11, 29, 3, 0)),
    ("+36", (2026, 11, 29, 3, 0)),
    ("+ 36 hours", (2026, 11, 29, 3, 0)),
    ("+2d", (2026, 11, 29, 15, 0)),
    ("+90m", (2026, 11, 27, 16, 30)),
    ("+1d12h", (2026, 11, 29, 3, 0)),
    ("+1d 12h", (2026, 11, 29, 3, 0)),
    ("+1.5d", (2026, 11, 29, 3, 0)),
    ("+2w", (2026, 12, 11, 15, 0)),
    ("+40d", (2027, 1, 6, 15, 0)),  # not capped, unlike a duration
    ("in 36 hours", (2026, 11, 29, 3, 0)),
    ("in 1 day and 12 hours", (2026, 11, 29, 3, 0)),
    ("In 90 Minutes", (2026, 11, 27, 16, 30)),
    ("36 hours from now", (2026, 11, 29, 3, 0)),
]


@pytest.mark.parametrize(("text", "wall"), UTC_FORMS)
def test_moment_forms_in_utc(text: str, wall: tuple[int, ...]) -> None:
    assert read(text, NOW, Z_UTC) == at(Z_UTC, *wall)


def test_now_may_be_in_any_zone() -> None:
    assert read("23:30", NOW.astimezone(NYC), Z_UTC) == at(Z_UTC, 2026, 11, 27, 23, 30)


def test_relative_moments_round_up_to_a_whole_minute() -> None:
    now = NOW + timedelta(seconds=20, microseconds=5)
    assert read("+90m", now, Z_UTC) == at(Z_UTC, 2026, 11, 27, 16, 31)
    assert read("+90m", NOW, Z_UTC) == at(Z_UTC, 2026, 11, 27, 16, 30)


def test_absolute_moments_ignore_the_seconds_of_now() -> None:
    now = NOW + timedelta(seconds=59)
    assert read("15:01", now, Z_UTC) == at(Z_UTC, 2026, 11, 27, 15, 1)
    assert read("today 15:00", NOW - timedelta(seconds=1), Z_UTC) == NOW


def test_format_moment_reads_back() -> None:
    for zone in (Z_UTC, AMS, NYC, LON):
        moment = at(zone, 2026, 12, 1, 23, 30)
        assert read(format_moment(moment, zone), NOW, zone) == moment


# ---------------------------------------------------------------------------------------
# parse_moment in zones with daylight saving time

SPRING_AMS = datetime(2026, 3, 27, 10, 0, tzinfo=UTC)  # Friday 27 March 11:00 CET
FALL_AMS = datetime(2026, 10, 24, 10, 0, tzinfo=UTC)  # Saturday 24 October 12:00 CEST
SPRING_NYC = datetime(2026, 3, 6, 17, 0, tzinfo=UTC)  # Friday 6 March 12:00 EST
FALL_NYC = datetime(2026, 10, 30, 16, 0, tzinfo=UTC)  # Friday 30 October 12:00 EDT

DST_FORMS = [
    # Amsterdam, spring forward: 02:00-02:59 on 29 March does not exist
    (SPRING_AMS, AMS, "23:30", datetime(2026, 3, 27, 22, 30)),
    (SPRING_AMS, AMS, "Tue 23:30", datetime(2026, 3, 31, 21, 30)),
    (SPRING_AMS, AMS, "2026-03-29 01:59", datetime(2026, 3, 29, 0, 59)),
    (SPRING_AMS, AMS, "2026-03-29 02:00", datetime(2026, 3, 29, 1, 0)),
    (SPRING_AMS, AMS, "2026-03-29 02:30", datetime(2026, 3, 29, 1, 0)),
    (SPRING_AMS, AMS, "29 March 2:59am", datetime(2026, 3, 29, 1, 0)),
    (SPRING_AMS, AMS, "Sunday 02:30", datetime(2026, 3, 29, 1, 0)),
    (SPRING_AMS, AMS, "2026-03-29 03:00", datetime(2026, 3, 29, 1, 0)),
    (SPRING_AMS, AMS, "2026-03-29 03:30", datetime(2026, 3, 29, 1, 30)),
    (SPRING_AMS, AMS, "sunday", datetime(2026, 3, 29, 21, 59)),
    (SPRING_AMS, AMS, "+2d", datetime(2026, 3, 29, 10, 0)),  # 12:00 CEST: 48 real hours
    (SPRING_AMS, AMS, "2026-03-29 02:30 CET", datetime(2026, 3, 29, 1, 30)),  # as written
    (SPRING_AMS, AMS, "Friday 27 March 2026 23:30 CET", datetime(2026, 3, 27, 22, 30)),
    (SPRING_AMS, AMS, "Tuesday 31 March 2026 23:30 CEST", datetime(2026, 3, 31, 21, 30)),
    (SPRING_AMS, AMS, "Tuesday 31 March 2026 23:30 cest", datetime(2026, 3, 31, 21, 30)),
    # Amsterdam, fall back: 02:00-02:59 on 25 October happens twice
    (FALL_AMS, AMS, "2026-10-25 01:59", datetime(2026, 10, 24, 23, 59)),
    (FALL_AMS, AMS, "2026-10-25 02:30", datetime(2026, 10, 25, 0, 30)),  # the first
    (FALL_AMS, AMS, "Sun 2:30am", datetime(2026, 10, 25, 0, 30)),
    (FALL_AMS, AMS, "2026-10-25 02:30 CEST", datetime(2026, 10, 25, 0, 30)),
    (FALL_AMS, AMS, "2026-10-25 02:30 CET", datetime(2026, 10, 25, 1, 30)),  # the second
    (FALL_AMS, AMS, "2026-10-25 03:00", datetime(2026, 10, 25, 2, 0)),
    (FALL_AMS, AMS, "+1d", datetime(2026, 10, 25, 10, 0)),  # 11:00 CET: 24 real hours
    (FALL_AMS, AMS, "tomorrow midnight", datetime(2026, 10, 25, 23, 0)),
    # New York, spring forward: 02:00-02:59 on 8 March does not exist
    (SPRING_NYC, NYC, "tomorrow 18:00", datetime(2026, 3, 7, 23, 0)),
    (SPRING_NYC, NYC, "Sun 2:30am", datetime(2026, 3, 8, 7, 0)),
    (SPRING_NYC, NYC, "2026-03-08 02:00", datetime(2026, 3, 8, 7, 0)),
    (SPRING_NYC, NYC, "2026-03-08 03:30", datetime(2026, 3, 8, 7, 30)),
    (SPRING_NYC, NYC, "Sunday 8 March 2026 01:30 EST", datetime(2026, 3, 8, 6, 30)),
    (SPRING_NYC, NYC, "+48h", datetime(2026, 3, 8, 17, 0)),
    (SPRING_NYC, NYC, "Mon 23:30", datetime(2026, 3, 10, 3, 30)),
    (SPRING_NYC, NYC, "23:30 UTC", datetime(2026, 3, 6, 23, 30)),
    # New York, fall back: 01:00-01:59 on 1 November happens twice
    (FALL_NYC, NYC, "2026-11-01 01:30", datetime(2026, 11, 1, 5, 30)),
    (FALL_NYC, NYC, "2026-11-01 01:30 EDT", datetime(2026, 11, 1, 5, 30)),
    (FALL_NYC, NYC, "2026-11-01 01:30 EST", datetime(2026, 11, 1, 6, 30)),
    (FALL_NYC, NYC, "Nov 1 2:00", datetime(2026, 11, 1, 7, 0)),
    (FALL_NYC, NYC, "Sunday 1 November 2026 00:59 EDT", datetime(2026, 11, 1, 4, 59)),
]


@pytest.mark.parametrize(("now", "zone", "text", "utc"), DST_FORMS)
def test_moment_forms_across_dst(now: datetime, zone: ZoneInfo, text: str, utc: datetime) -> None:
    assert read(text, now, zone) == utc.replace(tzinfo=UTC)


def test_a_repeated_time_is_its_earliest_occurrence_still_ahead() -> None:
    during_first = datetime(2026, 10, 25, 0, 45, tzinfo=UTC)  # 02:45 CEST, before the change
    second = datetime(2026, 10, 25, 1, 30, tzinfo=UTC)  # 02:30 CET
    assert read("02:30", during_first, AMS) == second
    assert read("2026-10-25 02:30", during_first, AMS) == second
    assert read("today 2:30am", during_first, AMS) == second

    during_second = datetime(2026, 10, 25, 1, 20, tzinfo=UTC)  # 02:20 CET, after the change
    with pytest.raises(DateError) as excinfo:
        parse_moment("2026-10-25 02:15", during_second, AMS)
    message = refusal(excinfo)
    assert message == (
        "That time has already passed (Sunday 25 October 2026 02:15 CET); "
        "give a moment that is still ahead."
    )
    assert read("02:15", during_second, AMS) == datetime(2026, 10, 26, 1, 15, tzinfo=UTC)


# ---------------------------------------------------------------------------------------
# parse_moment refusals

REFUSALS = [
    ("1/12", "'1/12' could be day/month or month/day; write the date like 2026-12-01"),
    ("12/1 23:30", "'12/1' could be day/month or month/day"),
    ("25/12", "'25/12' could be day/month or month/day"),
    ("1-12", "'1-12' could be day/month or month/day"),
    ("1.12.2026 18:00", "'1.12.2026' could be day/month or month/day"),
    ("1.12. 18:00", r"'1\.12\.' could be day/month or month/day"),
    ("12/01/2026", "'12/01/2026' could be day/month or month/day"),
    ("next tuesday", "'next' is ambiguous; write 'Tuesday 23:30' for the coming Tuesday"),
    ("today 09:00", r"That time has already passed \(Friday 27 November 2026 09:00 UTC\)"),
    ("today 15:00", r"That time has already passed \(Friday 27 November 2026 15:00 UTC\)"),
    ("2026-11-01", r"That time has already passed \(Sunday 1 November 2026 23:59 UTC\)"),
    ("1 Jan 2026 10:00", "That time has already passed"),
    ("2026-11-27T14:59Z", "That time has already passed"),
    ("Monday 1 December 2026", "1 December 2026 is a Tuesday, not a Monday; check the date"),
    ("Mon 1 Dec 23:30", "1 December 2026 is a Tuesday, not a Monday"),
    ("Wed 2026-12-01", "1 December 2026 is a Tuesday, not a Wednesday"),
    ("31 Feb", "There is no 31 February; check the day and the month"),
    ("30 february 10:00", "There is no 30 February;"),
    ("31 Feb 2027", "There is no 31 February 2027;"),
    ("April 31 2027", "There is no 31 April 2027;"),
    ("29 Feb 2027", "There is no 29 February 2027;"),
    ("25:00", "'25:00' is not a time of day; write it like 23:30 or 11:30pm"),
    ("tomorrow 23:60", "'23:60' is not a time of day"),
    ("24:30", "'24:30' is not a time of day"),
    ("13pm", "'13pm' is not a time of day"),
    ("0am", "'0am' is not a time of day"),
    ("11:75 pm", "'11:75pm' is not a time of day"),
    ("2026-13-01", r"'2026-13-01' is not a date; write it like 2026-12-01 \(year-month-day\)"),
    ("2026-02-30 10:00", "'2026-02-30' is not a date"),
    ("", "Give a date and time, like 2026-12-01 23:30, Tuesday 23:30, tomorrow 18:00 or \\+36h"),
    ("   ", "Give a date and time"),
    ("+0h", "A length of time must be at least one minute"),
    ("in 0 minutes", "A length of time must be at least one minute"),
    ("tomorrow 18:00 CEST", r"'CEST' is not the time zone in force then; leave it off"),
    ("23:30 +25:00", r"'\+25:00' is not a time zone offset"),
]
UNREADABLE = [
    "yesterday",
    "soon",
    "Dec",
    "5",
    "5th",
    "2026",
    "2026 23:30",
    "tomorrow today",
    "today Tuesday",
    "23:30 11pm",
    "tuesday wednesday",
    "1 Dec 2026 tomorrow",
    "2026-12-01 1 Dec",
    "Dec 1 2",
    "tomorrow 18:00 foo",
    "foo 18:00",
    "+",
    "+ soon",
    "in a while",
    "-2h",
    "2330",
    "23h30",
    "tomorrow at",
]


@pytest.mark.parametrize(("text", "message"), REFUSALS)
def test_moment_refusals(text: str, message: str) -> None:
    zone = AMS if "CES" in text else Z_UTC
    with pytest.raises(DateError) as excinfo:
        parse_moment(text, NOW, zone)
    assert re.match(message, refusal(excinfo))


@pytest.mark.parametrize("text", UNREADABLE)
def test_unreadable_moments(text: str) -> None:
    with pytest.raises(DateError) as excinfo:
        parse_moment(text, NOW, Z_UTC)
    assert refusal(excinfo) == (
        f"I could not read '{text}' as a date and time; "
        "write it like 2026-12-01 23:30, Tuesday 23:30, tomorrow 18:00 or +36h."
    )


def test_long_input_is_shortened_in_the_message() -> None:
    with pytest.raises(DateError) as excinfo:
        parse_moment("whenever " * 20, NOW, Z_UTC)
    assert len(refusal(excinfo)) < 200


def test_an_abbreviation_out_of_season_is_refused() -> None:
    with pytest.raises(DateError) as excinfo:
        parse_moment("Tuesday 31 March 2026 23:30 CET", SPRING_AMS, AMS)
    assert refusal(excinfo).startswith("'CET' is not the time zone in force then")
    with pytest.raises(DateError) as excinfo:
        parse_moment("2026-07-04 12:00 EST", SPRING_NYC, NYC)
    assert refusal(excinfo).endswith("read as America/New_York time) or write UTC.")


def test_date_error_is_a_value_error() -> None:
    assert issubclass(DateError, ValueError)


def test_naive_now_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="aware"):
        parse_moment("23:30", datetime(2026, 11, 27, 15, 0), Z_UTC)


# ---------------------------------------------------------------------------------------
# parse_duration

DURATIONS = [
    ("48h", timedelta(hours=48)),
    ("48 h", timedelta(hours=48)),
    ("48H", timedelta(hours=48)),
    ("48 hours", timedelta(hours=48)),
    ("48 hrs", timedelta(hours=48)),
    ("1 hour", timedelta(hours=1)),
    ("2d", timedelta(days=2)),
    ("2 days", timedelta(days=2)),
    ("1 day", timedelta(days=1)),
    ("1d12h", timedelta(hours=36)),
    ("1d 12h", timedelta(hours=36)),
    ("1 day, 12 hours", timedelta(hours=36)),
    ("1 day and 12 hours", timedelta(hours=36)),
    ("90m", timedelta(minutes=90)),
    ("90 min", timedelta(minutes=90)),
    ("90 minutes", timedelta(minutes=90)),
    ("1h30m", timedelta(minutes=90)),
    ("36", timedelta(hours=36)),  # a bare number means hours
    ("1.5", timedelta(minutes=90)),
    ("1.5d", timedelta(hours=36)),
    (".5d", timedelta(hours=12)),
    ("0.1h", timedelta(minutes=6)),
    ("1w", timedelta(days=7)),
    ("2 weeks", timedelta(days=14)),
    ("+48h", timedelta(hours=48)),
    ("  48h  ", timedelta(hours=48)),
    ("1m", timedelta(minutes=1)),
    ("30d", timedelta(days=30)),  # the most allowed
    ("720h", timedelta(days=30)),
    ("0.5m", timedelta(minutes=1)),  # rounded to the nearest minute
]


@pytest.mark.parametrize(("text", "expected"), DURATIONS)
def test_durations(text: str, expected: timedelta) -> None:
    assert parse_duration(text) == expected


DURATION_REFUSALS = [
    ("0", "A length of time must be at least one minute; write it like 48h or 2d."),
    ("0h", "A length of time must be at least one minute;"),
    ("0d0h", "A length of time must be at least one minute;"),
    ("0.001h", "A length of time must be at least one minute;"),
    ("-5h", "A length of time cannot be negative; write it like 48h or 2d."),
    ("-1", "A length of time cannot be negative;"),
    ("- 2 days", "A length of time cannot be negative;"),
    ("31d", "A length of time can be at most 30 days; write it like 48h or 2d."),
    ("721h", "A length of time can be at most 30 days;"),
    ("30d1m", "A length of time can be at most 30 days;"),
    ("5w", "A length of time can be at most 30 days;"),
    ("99999999999999d", "I could not read"),
    ("200000000000000000000000000", "I could not read"),
    ("", "I could not read '' as a length of time; write it like 48h, 2d, 1d12h or 90m."),
    ("abc", "I could not read 'abc' as a length of time;"),
    ("1d 12", "I could not read '1d 12' as a length of time;"),
    ("h", "I could not read 'h' as a length of time;"),
    ("12x", "I could not read '12x' as a length of time;"),
    ("2 fortnights", "I could not read"),
    ("1:30", "I could not read"),
    ("1..5h", "I could not read"),
]


@pytest.mark.parametrize(("text", "message"), DURATION_REFUSALS)
def test_duration_refusals(text: str, message: str) -> None:
    with pytest.raises(DateError) as excinfo:
        parse_duration(text)
    assert refusal(excinfo).startswith(message)


@settings(max_examples=200, **PROFILE)
@given(st.integers(1, 30 * 24 * 60))
def test_durations_in_minutes_round_trip(minutes: int) -> None:
    assert parse_duration(f"{minutes}m") == timedelta(minutes=minutes)
    assert parse_duration(f"{minutes} minutes") == timedelta(minutes=minutes)


# ---------------------------------------------------------------------------------------
# parse_weekdays and parse_time_of_day

WEEKDAY_SETS = [
    ("Mon-Fri", {0, 1, 2, 3, 4}),
    ("mon - fri", {0, 1, 2, 3, 4}),
    ("Mon\u2013Fri", {0, 1, 2, 3, 4}),
    ("Monday to Friday", {0, 1, 2, 3, 4}),
    ("monday through friday", {0, 1, 2, 3, 4}),
    ("mon,wed,fri", {0, 2, 4}),
    ("Mon, Wed and Fri", {0, 2, 4}),
    ("mondays wednesdays", {0, 2}),
    ("weekdays", {0, 1, 2, 3, 4}),
    ("weekend", {5, 6}),
    ("weekends", {5, 6}),
    ("all", set(range(7))),
    ("ALL", set(range(7))),
    ("every day", set(range(7))),
    ("daily", set(range(7))),
    ("Sat Sun", {5, 6}),
    ("Sat & Sun", {5, 6}),
    ("sat/sun", {5, 6}),
    ("Fri-Mon", {4, 5, 6, 0}),  # a range wraps round the week
    ("Thu-Tue", {3, 4, 5, 6, 0, 1}),
    ("tue-tue", {1}),
    ("tues thurs", {1, 3}),
    ("Tu Th", {1, 3}),
    ("weekdays, sat", {0, 1, 2, 3, 4, 5}),
    ("Mon-Wed, Fri-Sat", {0, 1, 2, 4, 5}),
    ("Sunday.", {6}),
]


@pytest.mark.parametrize(("text", "expected"), WEEKDAY_SETS)
def test_weekdays(text: str, expected: set[int]) -> None:
    days = parse_weekdays(text)
    assert isinstance(days, frozenset)
    assert days == expected


@pytest.mark.parametrize("text", ["", "x", "funday", "mon-", "-fri", "mon-fri-sat", "1-5", "mon x"])
def test_weekday_refusals(text: str) -> None:
    with pytest.raises(DateError) as excinfo:
        parse_weekdays(text)
    assert refusal(excinfo) == (
        f"I could not read '{text}' as days of the week; "
        "write them like Mon-Fri, Mon,Wed,Fri, weekdays or all."
    )


TIMES_OF_DAY = [
    ("23:30", time(23, 30)),
    ("23.30", time(23, 30)),
    ("7:05", time(7, 5)),
    ("07:05", time(7, 5)),
    ("00:00", time(0, 0)),
    ("11:30pm", time(23, 30)),
    ("11:30 pm", time(23, 30)),
    ("11:30 P.M.", time(23, 30)),
    ("11pm", time(23, 0)),
    ("11 am", time(11, 0)),
    ("12am", time(0, 0)),
    ("12pm", time(12, 0)),
    ("noon", time(12, 0)),
    ("12 noon", time(12, 0)),
    ("Midday", time(12, 0)),
    ("midnight", time(0, 0)),
    ("24:00", time(0, 0)),
    (" 18:00 ", time(18, 0)),
]


@pytest.mark.parametrize(("text", "expected"), TIMES_OF_DAY)
def test_times_of_day(text: str, expected: time) -> None:
    assert parse_time_of_day(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("25:00", "'25:00' is not a time of day; write it like 23:30 or 11:30pm."),
        ("13pm", "'13pm' is not a time of day;"),
        ("12:60", "'12:60' is not a time of day;"),
        ("", "I could not read '' as a time of day; write it like 23:30, 11:30pm or noon."),
        ("23", "I could not read '23' as a time of day;"),
        ("2330", "I could not read '2330' as a time of day;"),
        ("tomorrow", "I could not read 'tomorrow' as a time of day;"),
        ("23:30 tomorrow", "I could not read '23:30 tomorrow' as a time of day;"),
    ],
)
def test_time_of_day_refusals(text: str, message: str) -> None:
    with pytest.raises(DateError) as excinfo:
        parse_time_of_day(text)
    assert refusal(excinfo).startswith(message)


# ---------------------------------------------------------------------------------------
# format_moment


@pytest.mark.parametrize(
    ("moment", "zone", "shown"),
    [
        (at(AMS, 2026, 3, 29, 3, 30), AMS, "Sunday 29 March 2026 03:30 CEST"),
        (at(AMS, 2026, 3, 29, 1, 59), AMS, "Sunday 29 March 2026 01:59 CET"),
        (at(AMS, 2026, 12, 1, 23, 30), AMS, "Tuesday 1 December 2026 23:30 CET"),
        (at(AMS, 2026, 10, 25, 2, 30), AMS, "Sunday 25 October 2026 02:30 CEST"),
        (at(AMS, 2026, 10, 25, 2, 30, fold=1), AMS, "Sunday 25 October 2026 02:30 CET"),
        (at(Z_UTC, 2026, 12, 1, 23, 30), Z_UTC, "Tuesday 1 December 2026 23:30 UTC"),
        (at(Z_UTC, 2026, 12, 1, 23, 30), AMS, "Wednesday 2 December 2026 00:30 CET"),
        (at(Z_UTC, 2026, 12, 1, 23, 30), NYC, "Tuesday 1 December 2026 18:30 EST"),
        (at(NYC, 2026, 3, 8, 3, 0), NYC, "Sunday 8 March 2026 03:00 EDT"),
        (at(NYC, 2026, 11, 1, 1, 30), NYC, "Sunday 1 November 2026 01:30 EDT"),
        (at(NYC, 2026, 11, 1, 1, 30, fold=1), NYC, "Sunday 1 November 2026 01:30 EST"),
        (at(LON, 2026, 1, 5, 9, 5), LON, "Monday 5 January 2026 09:05 GMT"),
        (at(LON, 2026, 7, 4, 0, 0), LON, "Saturday 4 July 2026 00:00 BST"),
        (at(Z_UTC, 2026, 9, 30, 7, 5, 59), Z_UTC, "Wednesday 30 September 2026 07:05 UTC"),
    ],
)
def test_format_moment(moment: datetime, zone: ZoneInfo, shown: str) -> None:
    assert format_moment(moment, zone) == shown


def test_format_moment_accepts_any_aware_moment() -> None:
    moment = datetime(2026, 12, 1, 23, 30, tzinfo=timezone(timedelta(hours=1)))
    assert format_moment(moment, Z_UTC) == "Tuesday 1 December 2026 22:30 UTC"
    with pytest.raises(ValueError, match="aware"):
        format_moment(datetime(2026, 12, 1, 23, 30), Z_UTC)


# ---------------------------------------------------------------------------------------
# next_deadline

MON_FRI = frozenset(range(5))


def deadline(start: datetime, hours: float, zone: ZoneInfo, *args: object) -> datetime:
    result = next_deadline(start, timedelta(hours=hours), zone, *args)  # type: ignore[arg-type]
    assert result.tzinfo is UTC
    assert result >= start + timedelta(hours=hours)
    return result


def test_plain_length_is_real_time() -> None:
    start = at(AMS, 2026, 11, 27, 10, 0)
    assert deadline(start, 48, AMS) == start + timedelta(hours=48)
    assert deadline(start, 0, AMS) == start


def test_48h_across_spring_forward_is_48_real_hours() -> None:
    start = at(AMS, 2026, 3, 27, 10, 0)  # Friday 10:00 CET
    result = deadline(start, 48, AMS)
    assert result - start == timedelta(hours=48)
    assert format_moment(result, AMS) == "Sunday 29 March 2026 11:00 CEST"

    start = at(NYC, 2026, 3, 6, 12, 0)  # Friday 12:00 EST
    assert format_moment(deadline(start, 48, NYC), NYC) == "Sunday 8 March 2026 13:00 EDT"


def test_48h_across_fall_back_is_48_real_hours() -> None:
    start = at(AMS, 2026, 10, 23, 10, 0)  # Friday 10:00 CEST
    result = deadline(start, 48, AMS)
    assert format_moment(result, AMS) == "Sunday 25 October 2026 09:00 CET"


def test_time_of_day_stays_local_across_spring_forward() -> None:
    start = at(AMS, 2026, 3, 27, 10, 0)  # Friday 10:00 CET
    saturday = deadline(start, 24, AMS, time(23, 30))
    sunday = deadline(start, 48, AMS, time(23, 30))
    assert format_moment(saturday, AMS) == "Saturday 28 March 2026 23:30 CET"
    assert format_moment(sunday, AMS) == "Sunday 29 March 2026 23:30 CEST"
    assert sunday - saturday == timedelta(hours=23)

    start = at(NYC, 2026, 3, 6, 12, 0)
    assert format_moment(deadline(start, 24, NYC, time(23, 30)), NYC) == (
        "Saturday 7 March 2026 23:30 EST"
    )
    assert format_moment(deadline(start, 48, NYC, time(23, 30)), NYC) == (
        "Sunday 8 March 2026 23:30 EDT"
    )


def test_time_of_day_stays_local_across_fall_back() -> None:
    start = at(NYC, 2026, 10, 30, 12, 0)  # Friday 12:00 EDT
    saturday = deadline(start, 24, NYC, time(23, 30))
    sunday = deadline(start, 48, NYC, time(23, 30))
    assert format_moment(saturday, NYC) == "Saturday 31 October 2026 23:30 EDT"
    assert format_moment(sunday, NYC) == "Sunday 1 November 2026 23:30 EST"
    assert sunday - saturday == timedelta(hours=25)


def test_time_of_day_never_earlier_than_the_length() -> None:
    start = at(AMS, 2026, 11, 27, 10, 0)  # Friday 10:00 CET
    # Friday 10:00 + 12h = 22:00: 23:30 the same evening
    assert deadline(start, 12, AMS, time(23, 30)) == at(AMS, 2026, 11, 27, 23, 30)
    # + 14h = Saturday 00:00: 23:30 on Saturday, not Friday
    assert deadline(start, 14, AMS, time(23, 30)) == at(AMS, 2026, 11, 28, 23, 30)
    # exactly at the time of day: kept
    assert deadline(start, 13.5, AMS, time(23, 30)) == at(AMS, 2026, 11, 27, 23, 30)
    assert deadline(start, 13.5 + 1 / 60, AMS, time(23, 30)) == at(AMS, 2026, 11, 28, 23, 30)


def test_time_of_day_in_the_spring_gap_is_the_end_of_the_gap() -> None:
    start = at(AMS, 2026, 3, 28, 13, 0)  # Saturday 13:00 CET
    result = deadline(start, 12, AMS, time(2, 30))  # earliest Sunday 01:00 CET
    assert format_moment(result, AMS) == "Sunday 29 March 2026 03:00 CEST"
    # too late for Sunday: Monday 02:30 exists
    result = deadline(start, 15, AMS, time(2, 30))  # earliest Sunday 05:00 CEST
    assert format_moment(result, AMS) == "Monday 30 March 2026 02:30 CEST"

    start = at(NYC, 2026, 3, 7, 12, 0)
    assert format_moment(deadline(start, 12, NYC, time(2, 15)), NYC) == (
        "Sunday 8 March 2026 03:00 EDT"
    )


def test_time_of_day_in_the_repeated_hour() -> None:
    first = datetime(2026, 10, 25, 0, 30, tzinfo=UTC)  # 02:30 CEST
    second = datetime(2026, 10, 25, 1, 30, tzinfo=UTC)  # 02:30 CET
    start = at(AMS, 2026, 10, 24, 12, 0)
    assert deadline(start, 12, AMS, time(2, 30)) == first  # earliest 00:00: the first
    earliest_between = datetime(2026, 10, 25, 0, 45, tzinfo=UTC)  # 02:45 CEST
    result = next_deadline(earliest_between, timedelta(0), AMS, time(2, 30))
    assert result == second  # the next moment the clocks show 02:30
    assert format_moment(result, AMS) == "Sunday 25 October 2026 02:30 CET"
    earliest_after = datetime(2026, 10, 25, 1, 45, tzinfo=UTC)  # 02:45 CET
    result = next_deadline(earliest_after, timedelta(0), AMS, time(2, 30))
    assert format_moment(result, AMS) == "Monday 26 October 2026 02:30 CET"


def test_weekdays_push_a_weekend_deadline_to_monday() -> None:
    start = at(AMS, 2026, 11, 27, 10, 0)  # Friday 10:00 CET
    result = deadline(start, 48, AMS, None, MON_FRI)
    assert format_moment(result, AMS) == "Monday 30 November 2026 10:00 CET"
    result = deadline(start, 24, AMS, time(23, 30), MON_FRI)
    assert format_moment(result, AMS) == "Monday 30 November 2026 23:30 CET"
    # already on an allowed day: unchanged
    assert deadline(start, 24, AMS, None, frozenset({5})) == start + timedelta(hours=24)
    # weekend only, from a Monday
    monday = at(Z_UTC, 2026, 11, 30, 9, 0)
    result = deadline(monday, 24, Z_UTC, time(18, 0), frozenset({5, 6}))
    assert format_moment(result, Z_UTC) == "Saturday 5 December 2026 18:00 UTC"


def test_weekdays_keep_the_wall_clock_across_spring_forward() -> None:
    start = at(AMS, 2026, 3, 27, 10, 0)  # Friday 10:00 CET; + 48h = Sunday 11:00 CEST
    result = deadline(start, 48, AMS, None, MON_FRI)
    assert format_moment(result, AMS) == "Monday 30 March 2026 11:00 CEST"
    result = deadline(start, 48, AMS, time(10, 0), MON_FRI)
    assert format_moment(result, AMS) == "Monday 30 March 2026 10:00 CEST"
    start = at(NYC, 2026, 3, 6, 12, 0)  # Friday 12:00 EST
    result = deadline(start, 24, NYC, time(23, 30), MON_FRI)
    assert format_moment(result, NYC) == "Monday 9 March 2026 23:30 EDT"


def test_next_deadline_arguments_are_checked() -> None:
    start = at(Z_UTC, 2026, 11, 27, 10, 0)
    with pytest.raises(ValueError, match="aware"):
        next_deadline(datetime(2026, 11, 27), timedelta(hours=1), Z_UTC)
    with pytest.raises(ValueError, match="negative"):
        next_deadline(start, timedelta(hours=-1), Z_UTC)
    with pytest.raises(ValueError, match="weekdays"):
        next_deadline(start, timedelta(hours=1), Z_UTC, None, frozenset())
    with pytest.raises(ValueError, match="weekdays"):
        next_deadline(start, timedelta(hours=1), Z_UTC, None, frozenset({7}))


def test_next_deadline_returns_utc_for_a_start_in_another_zone() -> None:
    start = at(AMS, 2026, 11, 27, 10, 0).astimezone(AMS)
    result = next_deadline(start, timedelta(hours=1), AMS)
    assert result.tzinfo is UTC
    assert result == datetime(2026, 11, 27, 10, 0, tzinfo=UTC)


# Starts near every 2026 change in the three zones, and anywhere in 2025-2028.
CHANGES = [
    datetime(2026, 3, 8, 7, 0, tzinfo=UTC),
    datetime(2026, 11, 1, 6, 0, tzinfo=UTC),
    datetime(2026, 3, 29, 1, 0, tzinfo=UTC),
    datetime(2026, 10, 25, 1, 0, tzinfo=UTC),
]
near_changes = st.builds(
    lambda change, minutes: change + timedelta(minutes=minutes),
    st.sampled_from(CHANGES),
    st.integers(-4 * 24 * 60, 24 * 60),
)
anywhere = st.datetimes(
    min_value=datetime(2025, 1, 1), max_value=datetime(2028, 12, 31), timezones=st.just(UTC)
)
times_of_day = st.builds(
    time, st.integers(0, 23), st.sampled_from([0, 1, 15, 30, 59]), st.sampled_from([0, 0, 30])
)


@settings(max_examples=600, **PROFILE)
@given(
    start=st.one_of(near_changes, anywhere),
    minutes=st.one_of(st.integers(0, 3 * 24 * 60), st.integers(0, 30 * 24 * 60)),
    zone=st.sampled_from([Z_UTC, AMS, NYC]),
    time_of_day=st.none() | times_of_day,
    weekdays=st.none() | st.frozensets(st.integers(0, 6), min_size=1),
)
def test_next_deadline_properties(
    start: datetime,
    minutes: int,
    zone: ZoneInfo,
    time_of_day: time | None,
    weekdays: frozenset[int] | None,
) -> None:
    length = timedelta(minutes=minutes)
    earliest = start + length
    result = next_deadline(start, length, zone, time_of_day, weekdays)
    local = result.astimezone(zone)

    assert result.tzinfo is UTC
    assert result >= earliest
    if time_of_day is None and weekdays is None:
        assert result == earliest
    if time_of_day is not None:
        if local.time() != time_of_day:
            # only when that wall time does not exist that day: the first instant after the gap
            wall = datetime.combine(local.date(), time_of_day, tzinfo=zone)
            assert wall.astimezone(UTC).astimezone(zone).time() != time_of_day
            before = (result - timedelta(seconds=1)).astimezone(zone)
            assert before.time() < time_of_day < local.time()
            assert before.utcoffset() != local.utcoffset()
        if weekdays is None:
            assert result - earliest < timedelta(hours=25)
    if weekdays is not None:
        assert local.weekday() in weekdays
        assert result - earliest < timedelta(days=7, hours=1)


# ---------------------------------------------------------------------------------------
# push_past_absence

D = datetime(2026, 11, 27, 22, 0, tzinfo=UTC)
H = timedelta(hours=1)
WEEK = timedelta(days=7)


def test_no_absence_leaves_the_deadline() -> None:
    assert push_past_absence(D, [], WEEK) == D
    assert push_past_absence(D, [(D + H, D + 5 * H)], WEEK) == D  # later absence
    assert push_past_absence(D, [(D - 5 * H, D - H)], WEEK) == D  # earlier absence
    assert push_past_absence(D, [(D - 5 * H, D)], WEEK) == D  # ends exactly at the deadline


def test_deadline_inside_an_absence_moves_to_its_end() -> None:
    assert push_past_absence(D, [(D - H, D + 5 * H)], WEEK) == D + 5 * H
    assert push_past_absence(D, [(D, D + 5 * H)], WEEK) == D + 5 * H  # starts exactly then


def test_overlapping_and_chained_absences() -> None:
    overlapping = [(D - H, D + 2 * H), (D + H, D + 5 * H)]
    assert push_past_absence(D, overlapping, WEEK) == D + 5 * H
    assert push_past_absence(D, list(reversed(overlapping)), WEEK) == D + 5 * H
    touching = [(D + 3 * H, D + 9 * H), (D - H, D + 3 * H)]  # one ends where the next starts
    assert push_past_absence(D, touching, WEEK) == D + 9 * H
    nested = [(D - H, D + 10 * H), (D + H, D + 2 * H)]
    assert push_past_absence(D, nested, WEEK) == D + 10 * H
    apart = [(D - H, D + H), (D + 2 * H, D + 3 * H)]  # a gap between them: stops at the first
    assert push_past_absence(D, apart, WEEK) == D + H


def test_extension_is_capped() -> None:
    assert push_past_absence(D, [(D - H, D + 30 * 24 * H)], WEEK) == D + WEEK
    chain = [(D - H, D + 2 * H), (D + H, D + 5 * H)]
    assert push_past_absence(D, chain, 3 * H) == D + 3 * H
    assert push_past_absence(D, chain, 2 * H) == D + 2 * H
    assert push_past_absence(D, chain, timedelta(0)) == D


def test_absences_that_end_before_they_start_are_ignored() -> None:
    assert push_past_absence(D, [(D + H, D - H)], WEEK) == D


def test_push_past_absence_returns_utc() -> None:
    local = D.astimezone(AMS)
    result = push_past_absence(local, [(D - H, (D + H).astimezone(NYC))], WEEK)
    assert result == D + H
    assert result.tzinfo is UTC
    assert push_past_absence(local, [], WEEK).tzinfo is UTC


def test_push_past_absence_arguments_are_checked() -> None:
    with pytest.raises(ValueError, match="aware"):
        push_past_absence(datetime(2026, 11, 27), [], WEEK)
    with pytest.raises(ValueError, match="negative"):
        push_past_absence(D, [], -H)


absences = st.lists(
    st.tuples(st.integers(-48, 200), st.integers(1, 72)).map(
        lambda pair: (D + pair[0] * H, D + (pair[0] + pair[1]) * H)
    ),
    max_size=8,
)


@settings(max_examples=300, **PROFILE)
@given(absences=absences, cap_hours=st.integers(0, 240))
def test_push_past_absence_properties(
    absences: list[tuple[datetime, datetime]], cap_hours: int
) -> None:
    cap = timedelta(hours=cap_hours)
    result = push_past_absence(D, absences, cap)
    assert D <= result <= D + cap
    if result < D + cap:  # not capped: outside every absence
        assert not any(begin <= result < end for begin, end in absences)
    if result > D:  # moved only to the end of an absence (or the cap)
        assert result == D + cap or any(result == end for _, end in absences)
    assert push_past_absence(D, list(reversed(absences)), cap) == result


# ---------------------------------------------------------------------------------------
# format and parse agree

future_moments = st.builds(
    lambda days, minutes: NOW + timedelta(days=days, minutes=minutes),
    st.integers(0, 3 * 365),
    st.integers(1, 24 * 60),
)


@settings(max_examples=300, **PROFILE)
@given(moment=st.one_of(future_moments, near_changes), zone=st.sampled_from([Z_UTC, AMS, NYC, LON]))
def test_format_moment_round_trips_through_parse_moment(moment: datetime, zone: ZoneInfo) -> None:
    moment = moment.replace(second=0, microsecond=0)
    now = min(NOW, moment - timedelta(minutes=1))
    assert parse_moment(format_moment(moment, zone), now, zone) == moment


# ---------------------------------------------------------------------------------------
# Anything a player may write: an answer or a DateError, never a crash

player_text = st.one_of(
    st.text(max_size=40),
    st.lists(
        st.sampled_from(
            [
                "1",
                "12",
                "31",
                "2026",
                "9999",
                "0001",
                "23:30",
                "11pm",
                "24:00",
                "noon",
                "midnight",
                "dec",
                "feb",
                "tue",
                "today",
                "tomorrow",
                "at",
                "+",
                "in",
                "36h",
                "1d12h",
                "utc",
                "cet",
                "cest",
                "+01:00",
                "-",
                "/",
                ".",
                ",",
                "2026-12-01",
                "9999-12-31",
                "0001-01-01",
                "from",
                "now",
                "next",
                "z",
            ]
        ),
        max_size=6,
    ).map(" ".join),
)


@settings(max_examples=500, **PROFILE)
@given(text=player_text, zone=st.sampled_from([Z_UTC, AMS, NYC]))
def test_parsers_answer_or_refuse(text: str, zone: ZoneInfo) -> None:
    try:
        moment = parse_moment(text, NOW, zone)
    except DateError as error:
        assert words(error).endswith(".")
    else:
        assert moment > NOW
        assert moment.tzinfo is UTC
    for parse in (parse_duration, parse_weekdays, parse_time_of_day):
        try:
            parse(text)
        except DateError as error:
            assert words(error).endswith(".")

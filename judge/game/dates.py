"""Dates and times for deadlines: reading what players and masters write, showing moments,
and computing phase deadlines.

Pure functions: the judge's clock (`now`) and time zone are always passed in, nothing here
reads the clock or does I/O. Every moment handed back is an aware UTC datetime.

Choices, relied on by tests/test_dates.py:

* A date (or day) without a time means 23:59 on that day ("2026-12-01", "tomorrow",
  "Tuesday"), the last whole minute of the day.
* "midnight" means the end of the day it names (24:00, shown as 00:00 of the next day);
  "midnight" alone is the end of today, and "24:00" is read the same way. As a daily
  time of day (parse_time_of_day) "midnight" is 00:00. "noon" is 12:00, "12am" is 00:00
  (the start of the day) and "12pm" is 12:00.
* A time alone ("23:30", "noon") is its next occurrence; a weekday ("Tue 23:30") is today
  if today is that day and the time is still ahead, otherwise that day next week; a date
  without a year is its next occurrence that is still ahead. "next Tuesday" is refused
  (English readers disagree about which Tuesday it means). A weekday given with a date
  must agree with it.
* Numeric dates must be year first (2026-12-01, 2026/12/01): "1/12", "12-1" and
  "1.12.2026" are refused, since day/month and month/day cannot be told apart. Two
  numbers joined by a dot are a time ("23.30", "1.12" is 01:12).
* A wall-clock time that does not exist (the spring-forward gap) is moved forward to the
  first valid instant, the end of the gap: 02:30 on the last Sunday of March in
  Amsterdam is 03:00 CEST. A wall-clock time that happens twice (the fall-back overlap)
  is its earliest occurrence that is still ahead (for parse_moment) or not before the
  earliest allowed deadline (for next_deadline): normally the first occurrence (fold=0).
* A time may end with an explicit zone: "UTC", "GMT" or "Z" (UTC), a numeric offset
  ("+01:00", "-0500"), or the judge zone's own abbreviation in force then ("CET",
  "CEST"), so that format_moment's output reads back as the same moment. The gap rule
  does not apply to an explicit zone: the stated offset is used as written.
* Relative moments ("+36h", "in 36 hours", "36 hours from now") are real elapsed time
  from now (not wall-clock time), rounded up to a whole minute; unlike parse_duration
  they are not capped at 30 days. Durations are rounded to the nearest whole minute.
* Moments are shown without seconds; everything this module produces is a whole minute
  unless the input itself carried seconds.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, timezone
from decimal import ROUND_HALF_UP, Decimal
from zoneinfo import ZoneInfo

from judge.game.errors import CommandError

__all__ = [
    "DEFAULT_TIME",
    "MAX_AHEAD",
    "MAX_DURATION",
    "PAST_YEARS",
    "DateError",
    "check_within_reach",
    "format_moment",
    "next_deadline",
    "parse_duration",
    "parse_moment",
    "parse_past_moment",
    "parse_time_of_day",
    "parse_weekdays",
    "push_past_absence",
]


class DateError(CommandError):
    """A date, time or length that cannot be read or is not allowed: a code and values,
    worded by templates/errors/<code>.txt (one sentence naming what was expected)."""


DEFAULT_TIME = time(23, 59)
MAX_DURATION = timedelta(days=30)
# A deadline or an absence a player or master sets may be at most this far ahead: far
# enough for any game, near enough that the deadline plus a grace, a reminder or an
# absence never leaves the calendar (year 9999 would overflow).
MAX_AHEAD = timedelta(days=366)
# The years a date of the past (parse_past_moment) may name: any a game's history can
# reach, and far enough from year 1 and 9999 that a day in any zone stays a date.
PAST_YEARS = range(1900, 9000)

WEEKDAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTH_NAMES = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)

_WEEKDAYS: dict[str, int] = {}
for _i, _name in enumerate(WEEKDAY_NAMES):
    _low = _name.lower()
    for _key in (_low, _low + "s", _low[:3], _low[:2]):
        _WEEKDAYS[_key] = _i
_WEEKDAYS.update({"tues": 1, "weds": 2, "thur": 3, "thurs": 3})

_MONTHS: dict[str, int] = {}
for _i, _name in enumerate(MONTH_NAMES, 1):
    _MONTHS[_name.lower()] = _i
    _MONTHS[_name.lower()[:3]] = _i
_MONTHS["sept"] = 9

_FILLER = frozenset({"at", "on", "by", "the", "of"})

_TIME_12 = re.compile(r"(\d{1,2})(?:[:.](\d{2}))?([ap])m")
_TIME_24 = re.compile(r"(\d{1,2})[:.](\d{2})(?::(\d{2}))?")
_ISO_DATE = re.compile(r"(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})")
_NUMERIC_DATE = re.compile(r"\d{1,2}[/.-]\d{1,2}(?:[/.-]\d{2,4})?\.?")
_DAY = re.compile(r"(\d{1,2})(?:st|nd|rd|th)?")
_YEAR = re.compile(r"\d{4}")
_OFFSET = re.compile(r"([+-])(\d{2}):?(\d{2})")
_ZONE_WORD = re.compile(r"[a-z]{1,5}")
_NUMBER = r"(?:\d+(?:\.\d*)?|\.\d+)"
_UNIT = r"(weeks?|wks?|w|days?|d|hours?|hrs?|h|minutes?|mins?|m)(?![a-z])"
_SPAN = re.compile(rf"(?:\s*{_NUMBER}\s*{_UNIT}\s*(?:,|\band\b)?)+")
_SPAN_PART = re.compile(rf"({_NUMBER})\s*{_UNIT}")
_UNIT_SECONDS = {"w": 604800, "d": 86400, "h": 3600, "m": 60}


# ---------------------------------------------------------------------------------------
# Reading


def parse_moment(text: str, now: datetime, zone: ZoneInfo) -> datetime:
    """A date/time a player or master wrote, read leniently in the judge's zone, as aware UTC.

    See the module docstring for the forms and the choices; raises DateError (a code and
    values, worded by templates/errors/<code>.txt) for anything it cannot read, an
    ambiguous numeric date, or a moment that is not after `now`.
    """
    _require_aware(now, "now")
    now = now.astimezone(UTC)
    s = _normalize(text)
    if not s:
        raise DateError("moment_missing")

    relative = _relative_part(s)
    if relative is not None:
        span = _read_span(relative)
        if span is None:
            raise _unreadable(text)
        _check_positive(span)
        return _ceil_minute(now + span)

    parts = _classify(s.split(), text)
    try:
        return _resolve(parts, now, zone, text)
    except OverflowError:  # a year near 1 or 9999
        raise _unreadable(text) from None


def parse_past_moment(text: str, now: datetime, zone: ZoneInfo) -> datetime:
    """A date in a window of the past (HISTORY's FROM and TO), as aware UTC.

    njudge's forms: a weekday (`Mon`), a day and month (`Dec 31`, `31 Dec`), a day,
    month and 4-digit year (`Jan 1, 2003`), in any order, each with an optional time
    (`1 Jan 2003 23:59`), and ISO dates (`2003-01-01 23:59`). Unlike a deadline, a date
    without a time is the start of that day (00:00), as in njudge; a weekday or a date
    without a year is its latest occurrence not after today; a time alone is today. The
    year must lie in PAST_YEARS. Raises DateError for anything else."""
    _require_aware(now, "now")
    s = _normalize(text)
    try:
        if not s:
            raise _unreadable(text)
        parts = _classify(s.split(), text)
        _check_combination(parts, text)
    except DateError as e:
        if e.code != "moment_unreadable":
            raise
        raise DateError("past_date_unreadable", written=_quote(text)) from None
    if parts.clock is None:
        parts.clock = (time(0), False)
    year = parts.date.year if parts.date else parts.year
    if year is not None and year not in PAST_YEARS:
        raise DateError("year_out_of_range", year=year, first=PAST_YEARS[0], last=PAST_YEARS[-1])
    target = _Target(parts, now, zone, text)
    return target.instants(_past_day(parts, _wall(now, zone).date()))[0]


def _past_day(parts: _Parts, today: date) -> date:
    """The day the words `parts` name, looking back from `today`."""
    if parts.date is not None:
        day = parts.date
    elif parts.relday is not None:
        day = today + timedelta(days=parts.relday)
    elif parts.day is not None and parts.month is not None:
        if parts.year is not None:
            day = _full_date(parts.year, parts.month, parts.day)
        else:
            day = _latest_day_of_month(parts.day, parts.month, today)
    elif parts.weekday is not None:
        return today - timedelta(days=(today.weekday() - parts.weekday) % 7)
    else:
        return today
    _check_weekday(day, parts.weekday)
    return day


def _latest_day_of_month(day: int, month: int, today: date) -> date:
    """A day and month without a year: its latest occurrence not after `today`."""
    for year in range(today.year, today.year - 9, -1):
        try:
            found = date(year, month, day)
        except ValueError:
            continue
        if found <= today:
            return found
    raise DateError("no_such_day", day=day, month=MONTH_NAMES[month - 1], year=None)


def check_within_reach(moment: datetime, now: datetime, zone: ZoneInfo) -> datetime:
    """`moment` itself if it is at most MAX_AHEAD after `now`; else a DateError naming the
    latest moment allowed (the moment itself is not shown: year 9999 cannot be)."""
    _require_aware(moment, "moment")
    latest = now + MAX_AHEAD
    if moment > latest:
        raise DateError("moment_too_far", latest=format_moment(latest, zone))
    return moment


def parse_duration(text: str) -> timedelta:
    """ "48h", "48 hours", "2d", "2 days", "1d12h", "90m", "1.5d", "2w", "36" (a bare number
    means hours) -> timedelta, rounded to a whole minute. Refuses zero, negatives and more
    than 30 days."""
    s = " ".join(text.split()).lower()
    if s.startswith("-"):
        raise DateError("length_negative")
    span = _read_span(s.removeprefix("+").strip())
    if span is None:
        raise DateError("length_unreadable", written=_quote(text))
    _check_positive(span)
    if span > MAX_DURATION:
        raise DateError("length_too_long", days=MAX_DURATION.days)
    return span


def parse_weekdays(text: str) -> frozenset[int]:
    """ "Mon-Fri", "mon,wed,fri", "weekdays", "weekend", "all", "Sat Sun", "Fri-Mon" (a
    range wraps round the week) -> weekday numbers, Monday=0 ... Sunday=6."""
    s = " ".join(text.split()).lower().strip(" .")
    if s in {"all", "any", "daily", "every day", "everyday", "all days", "any day"}:
        return frozenset(range(7))
    s = re.sub(r"\s*[-\u2013]\s*|\s+(?:to|through|thru|till|until)\s+", "-", s)
    days: set[int] = set()
    items = [item for item in re.split(r"[\s,;/&+]+|\band\b", s) if item]
    for item in items:
        item = item.strip(".")
        if item in {"weekdays", "weekday", "workdays", "workday"}:
            days.update(range(5))
        elif item in {"weekend", "weekends"}:
            days.update((5, 6))
        elif item in _WEEKDAYS:
            days.add(_WEEKDAYS[item])
        elif (
            item.count("-") == 1
            and (ends := item.split("-"))
            and all(end.strip(".") in _WEEKDAYS for end in ends)
        ):
            first, last = (_WEEKDAYS[end.strip(".")] for end in ends)
            days.update((first + k) % 7 for k in range((last - first) % 7 + 1))
        else:
            days.clear()
            break
    if not days:
        raise DateError("weekdays_unreadable", written=_quote(text))
    return frozenset(days)


def parse_time_of_day(text: str) -> time:
    """ "23:30", "23.30", "11:30pm", "11 pm", "noon", "midnight" (00:00) -> a naive time."""
    s = _normalize(text).rstrip(".")
    read = _read_time(s) if s else None
    if read is None:
        raise DateError("time_of_day_unreadable", written=_quote(text))
    return read[0]


# ---------------------------------------------------------------------------------------
# Showing


def format_moment(moment: datetime, zone: ZoneInfo) -> str:
    """ "Tuesday 1 December 2026 23:30 CET": the weekday, day, month and year in full, the
    24-hour time and the zone's abbreviation in force at that moment. Seconds are not shown.
    Independent of the locale."""
    _require_aware(moment, "moment")
    local = moment.astimezone(zone)
    return (
        f"{WEEKDAY_NAMES[local.weekday()]} {local.day} {MONTH_NAMES[local.month - 1]} "
        f"{local.year} {local:%H:%M} {local.tzname()}"
    )


# ---------------------------------------------------------------------------------------
# Deadlines


def next_deadline(
    start: datetime,
    length: timedelta,
    zone: ZoneInfo,
    time_of_day: time | None = None,
    weekdays: frozenset[int] | None = None,
) -> datetime:
    """The deadline of a phase that starts at `start` and lasts at least `length`.

    start + length in real time; then, if `time_of_day` is set, the first moment at that
    wall-clock time in `zone` that is not earlier (a time in a DST gap means the end of the
    gap; a repeated time may be its second occurrence if the first is too early); then, if
    `weekdays` is set (Monday=0 ... Sunday=6), moved forward a day at a time, keeping the
    wall-clock time, until it falls on an allowed weekday. Returns aware UTC.
    """
    _require_aware(start, "start")
    if length < timedelta(0):
        raise ValueError("a phase length cannot be negative")
    if weekdays is not None and (not weekdays or not set(weekdays) <= set(range(7))):
        raise ValueError(f"weekdays must be a non-empty set of 0..6, not {weekdays!r}")

    earliest = (start + length).astimezone(UTC)
    if time_of_day is None:
        wall_time = _wall(earliest, zone).time()
        day = _wall(earliest, zone).date()
        result = earliest
    else:
        wall_time = time_of_day.replace(tzinfo=None)
        day = _wall(earliest, zone).date() - timedelta(days=1)
        for _ in range(5):
            later = [t for t in _instants(datetime.combine(day, wall_time), zone) if t >= earliest]
            if later:
                result = later[0]
                break
            day += timedelta(days=1)
        else:  # pragma: no cover - a zone would need a jump of days
            raise ValueError(f"no {wall_time} in {zone} near {earliest}")

    if weekdays is not None and day.weekday() not in weekdays:
        while day.weekday() not in weekdays:
            day += timedelta(days=1)
        result = _instants(datetime.combine(day, wall_time), zone)[0]
    return result


def push_past_absence(
    deadline: datetime,
    absences: Sequence[tuple[datetime, datetime]],
    max_extension: timedelta,
) -> datetime:
    """A deadline inside an absence (start <= deadline < end) moves to the absence's end,
    and again while that lands inside another absence, but never more than `max_extension`
    past the original deadline. Aware UTC in and out."""
    _require_aware(deadline, "deadline")
    if max_extension < timedelta(0):
        raise ValueError("max_extension cannot be negative")
    cap = deadline + max_extension
    moved = deadline
    changed = True
    while changed and moved < cap:
        changed = False
        for begin, end in absences:
            if begin <= moved < end:
                moved = end
                changed = True
    return min(moved, cap).astimezone(UTC)


# ---------------------------------------------------------------------------------------
# Helpers


def _require_aware(moment: datetime, name: str) -> None:
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"{name} must be an aware datetime, not {moment!r}")


def _quote(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 60 else text[:57] + "..."


def _unreadable(text: str) -> DateError:
    return DateError("moment_unreadable", written=_quote(text))


def _normalize(text: str) -> str:
    s = " ".join(text.split()).lower().replace(",", " ")
    s = re.sub(r"(?<=\d)\s*([ap])\.?\s?m\.?(?![a-z])", r"\1m", s)  # 11 p.m. -> 11pm
    s = re.sub(r"\b12\s+(noon|midday|midnight)\b", r"\1", s)
    s = re.sub(r"^(\d{4}-\d{1,2}-\d{1,2})t(?=\d)", r"\1 ", s)  # ISO 8601 "T"
    s = re.sub(r"(?<=\d)(z|[+-]\d{2}:?\d{2})$", r" \1", s)  # 23:30Z, 23:30+01:00
    return " ".join(s.split())


def _relative_part(s: str) -> str | None:
    for pattern in (r"\+\s*(.+)", r"in\s+(.+)", r"(.+?)\s+from\s+now"):
        m = re.fullmatch(pattern, s)
        if m:
            return m[1].strip()
    return None


def _read_span(s: str) -> timedelta | None:
    """A length of time from text, rounded to a whole minute, or None if unreadable."""
    if re.fullmatch(_NUMBER, s):
        seconds = Decimal(s) * 3600
    elif _SPAN.fullmatch(s):
        seconds = sum(
            (Decimal(m[1]) * _UNIT_SECONDS[m[2][0]] for m in _SPAN_PART.finditer(s)),
            Decimal(0),
        )
    else:
        return None
    if seconds > 6 * 10**9:  # about 190 years: not a length anyone means
        return None
    minutes = (seconds / 60).quantize(Decimal(1), rounding=ROUND_HALF_UP)
    return timedelta(minutes=int(minutes))


def _check_positive(span: timedelta) -> None:
    if span < timedelta(minutes=1):
        raise DateError("length_too_short")


def _ceil_minute(moment: datetime) -> datetime:
    moment = moment.astimezone(UTC)
    if moment.second or moment.microsecond:
        moment = moment.replace(second=0, microsecond=0) + timedelta(minutes=1)
    return moment


def _read_time(tok: str) -> tuple[time, bool] | None:
    """(time, end_of_day) for a token that is a time, None for one that is not."""
    if tok in ("noon", "midday"):
        return time(12), False
    if tok == "midnight":
        return time(0), True
    m = _TIME_12.fullmatch(tok)
    if m:
        hour, minute = int(m[1]), int(m[2] or 0)
        if not 1 <= hour <= 12 or minute > 59:
            raise _bad_time(tok)
        return time(hour % 12 + (12 if m[3] == "p" else 0), minute), False
    m = _TIME_24.fullmatch(tok)
    if m:
        hour, minute, second = int(m[1]), int(m[2]), int(m[3] or 0)
        if (hour, minute, second) == (24, 0, 0):
            return time(0), True
        if hour > 23 or minute > 59 or second > 59:
            raise _bad_time(tok)
        return time(hour, minute, second), False
    return None


def _bad_time(tok: str) -> DateError:
    return DateError("not_a_time", written=tok)


@dataclass
class _Parts:
    """What the words of a moment said, each at most once."""

    clock: tuple[time, bool] | None = None  # (time, end of day)
    date: date | None = None
    relday: int | None = None  # 0 today, 1 tomorrow
    weekday: int | None = None
    day: int | None = None
    month: int | None = None
    year: int | None = None
    zone: str | None = None


def _classify(tokens: list[str], text: str) -> _Parts:
    parts = _Parts()
    if tokens[-1] in _FILLER:  # "tomorrow at": something is missing
        raise _unreadable(text)

    def put(kind: str, value: object) -> None:
        if getattr(parts, kind) is not None:
            raise _unreadable(text)
        setattr(parts, kind, value)

    for index, raw in enumerate(tokens):
        tok = raw
        if tok in _FILLER:
            continue
        if tok == "next":
            raise DateError("next_ambiguous")
        if tok.endswith(".") and not _NUMERIC_DATE.fullmatch(tok):
            tok = tok.rstrip(".")
        if (read := _read_time(tok)) is not None:
            put("clock", read)
        elif m := _ISO_DATE.fullmatch(tok):
            try:
                put("date", date(int(m[1]), int(m[2]), int(m[3])))
            except ValueError:
                raise DateError("not_a_date", written=tok) from None
        elif _NUMERIC_DATE.fullmatch(tok):
            raise DateError("date_ambiguous", written=tok)
        elif tok in _MONTHS:
            put("month", _MONTHS[tok])
        elif tok in _WEEKDAYS:
            put("weekday", _WEEKDAYS[tok])
        elif tok in ("today", "tomorrow"):
            put("relday", 0 if tok == "today" else 1)
        elif m := _DAY.fullmatch(tok):
            put("day", int(m[1]))
        elif _YEAR.fullmatch(tok):
            put("year", int(tok))
        elif index == len(tokens) - 1 and (_OFFSET.fullmatch(tok) or _ZONE_WORD.fullmatch(tok)):
            put("zone", tok)
        else:
            raise _unreadable(text)
    return parts


def _resolve(parts: _Parts, now: datetime, zone: ZoneInfo, text: str) -> datetime:
    """The moment the words `parts` name: the first one still ahead of `now`."""
    _check_combination(parts, text)
    target = _Target(parts, now, zone, text)
    today = _wall(now, zone).date()
    if parts.day is not None and parts.month is not None and parts.year is None:
        return _next_day_of_month(target, parts.day, parts.month, today)
    fixed = parts.date
    if parts.relday is not None:
        fixed = today + timedelta(days=parts.relday)
    elif parts.day is not None and parts.month is not None and parts.year is not None:
        fixed = _full_date(parts.year, parts.month, parts.day)
    if fixed is not None:
        return _on_day(target, fixed, zone)
    if parts.weekday is not None:
        delta = (parts.weekday - today.weekday()) % 7
        return target.first_ahead(today + timedelta(days=delta + k) for k in (0, 7))[1]
    return target.first_ahead(today + timedelta(days=k) for k in range(4))[1]


def _check_combination(parts: _Parts, text: str) -> None:
    """Refuse words that name the day twice, half a date, or no moment at all."""
    day_month = parts.day is not None or parts.month is not None
    named_days = [parts.date is not None, parts.relday is not None, day_month]
    if (
        sum(named_days) > 1
        or (day_month and (parts.day is None or parts.month is None))
        or (parts.year is not None and parts.month is None)
        or (parts.relday is not None and parts.weekday is not None)
        or not (any(named_days) or parts.clock or parts.weekday is not None)
    ):
        raise _unreadable(text)


@dataclass(frozen=True)
class _Target:
    """The time of day the words name, to be placed on a day."""

    parts: _Parts
    now: datetime
    zone: ZoneInfo
    text: str

    def instants(self, day: date) -> list[datetime]:
        """The UTC instants of the named time on `day` (see _wall_instants)."""
        clock, end_of_day = self.parts.clock or (DEFAULT_TIME, False)
        wall = datetime.combine(day, clock)
        if end_of_day:
            wall += timedelta(days=1)
        return _wall_instants(wall, self.zone, self.parts.zone, self.text)

    def first_ahead(self, days: Iterable[date]) -> tuple[date, datetime]:
        """The first of `days` on which the time is still ahead, and that moment."""
        for day in days:
            ahead = [t for t in self.instants(day) if t > self.now]
            if ahead:
                return day, ahead[0]
        raise _unreadable(self.text)  # pragma: no cover - the callers always offer a future day


def _next_day_of_month(target: _Target, day: int, month: int, today: date) -> datetime:
    """A day and month without a year: its next occurrence still ahead."""
    candidates = []
    for year in range(today.year - 1, today.year + 9):
        try:
            candidates.append(date(year, month, day))
        except ValueError:
            continue
    if not candidates:
        raise DateError("no_such_day", day=day, month=MONTH_NAMES[month - 1], year=None)
    found, moment = target.first_ahead(candidates)
    _check_weekday(found, target.parts.weekday)
    return moment


def _full_date(year: int, month: int, day: int) -> date:
    try:
        return date(year, month, day)
    except ValueError:
        raise DateError("no_such_day", day=day, month=MONTH_NAMES[month - 1], year=year) from None


def _on_day(target: _Target, day: date, zone: ZoneInfo) -> datetime:
    """The named time on a given day, which must still be ahead."""
    _check_weekday(day, target.parts.weekday)
    options = target.instants(day)
    ahead = [t for t in options if t > target.now]
    if not ahead:
        raise DateError("moment_passed", moment=format_moment(options[-1], zone))
    return ahead[0]


def _check_weekday(day: date, weekday: int | None) -> None:
    if weekday is not None and day.weekday() != weekday:
        raise DateError(
            "wrong_weekday",
            day=day.day,
            month=MONTH_NAMES[day.month - 1],
            year=day.year,
            weekday=WEEKDAY_NAMES[day.weekday()],
            named=WEEKDAY_NAMES[weekday],
        )


def _wall(moment: datetime, zone: ZoneInfo) -> datetime:
    """The naive wall-clock reading of `moment` in `zone`."""
    return moment.astimezone(zone).replace(tzinfo=None, fold=0)


def _instants(wall: datetime, zone: ZoneInfo) -> list[datetime]:
    """The UTC instants at which the clocks in `zone` show `wall`, earliest first: one
    normally, two in a fall-back overlap, and for a time in a spring-forward gap (which
    never shows) the first instant after the gap."""
    first = wall.replace(tzinfo=zone, fold=0).astimezone(UTC)
    second = wall.replace(tzinfo=zone, fold=1).astimezone(UTC)
    if first == second:
        return [first]
    lo, hi = min(first, second), max(first, second)
    if _wall(lo, zone) == wall and _wall(hi, zone) == wall:
        return [lo, hi]
    # A gap: lo is before the change, hi after it; find the change to the second.
    after = hi.astimezone(zone).utcoffset()
    while hi - lo > timedelta(seconds=1):
        mid = lo + timedelta(seconds=(hi - lo) // timedelta(seconds=1) // 2)
        if mid.astimezone(zone).utcoffset() == after:
            hi = mid
        else:
            lo = mid
    return [hi]


def _wall_instants(wall: datetime, zone: ZoneInfo, token: str | None, text: str) -> list[datetime]:
    if token is None:
        return _instants(wall, zone)
    m = _OFFSET.fullmatch(token)
    if m:
        offset = timedelta(hours=int(m[2]), minutes=int(m[3]))
        if offset >= timedelta(hours=24):
            raise DateError("not_an_offset", written=token)
        return [wall.replace(tzinfo=timezone(-offset if m[1] == "-" else offset)).astimezone(UTC)]
    named = sorted(
        {
            local.astimezone(UTC)
            for local in (wall.replace(tzinfo=zone, fold=f) for f in (0, 1))
            if (local.tzname() or "").lower() == token
        }
    )
    if named:
        return named
    if token in ("utc", "gmt", "z"):
        return [wall.replace(tzinfo=UTC)]
    seasons = (datetime(wall.year, month, 1, tzinfo=zone) for month in (1, 7))
    if token not in {(moment.tzname() or "").lower() for moment in seasons}:
        raise _unreadable(text)
    raise DateError("zone_not_in_force", written=token.upper(), zone=str(zone.key or zone))

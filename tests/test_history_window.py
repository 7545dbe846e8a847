"""HISTORY's window as pure functions: dates of the past (judge/game/dates.py
parse_past_moment), turns, LINES and the two forms (judge/game/history_window.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from error_words import words

from judge.engine.phase import Phase
from judge.game.dates import DateError, parse_past_moment
from judge.game.errors import CommandError
from judge.game.history_window import (
    MAX_LINES,
    Window,
    read_lines,
    read_turn,
    read_window,
    within_lines,
)

Z_UTC = ZoneInfo("UTC")
AMS = ZoneInfo("Europe/Amsterdam")
NOW = datetime(2026, 12, 2, 12, 30, tzinfo=UTC)  # Wednesday 2 December 2026


@pytest.mark.parametrize(
    ("text", "wall"),
    [
        ("Jan 1, 2003", (2003, 1, 1, 0, 0)),
        ("1 Jan 2003 23:59", (2003, 1, 1, 23, 59)),
        ("23:59 2003 1 january", (2003, 1, 1, 23, 59)),
        ("Mon", (2026, 11, 30, 0, 0)),  # the last Monday
        ("Wednesday", (2026, 12, 2, 0, 0)),  # today is one
        ("Thu 18:00", (2026, 11, 26, 18, 0)),  # Thursday: last week's
        ("Dec 31", (2025, 12, 31, 0, 0)),  # the last 31 December passed
        ("2 Dec", (2026, 12, 2, 0, 0)),  # today
        ("3 Dec", (2025, 12, 3, 0, 0)),
        ("Feb 29", (2024, 2, 29, 0, 0)),  # the last one there was
        ("12:00", (2026, 12, 2, 12, 0)),  # a time alone: today
        ("today", (2026, 12, 2, 0, 0)),
        ("2026-11-20", (2026, 11, 20, 0, 0)),
        ("2026-11-20 08:15", (2026, 11, 20, 8, 15)),
        ("2026-11-20T08:15:30", (2026, 11, 20, 8, 15, 30)),
        ("1 Jan 1900", (1900, 1, 1, 0, 0)),
        ("31 Dec 8999 23:59", (8999, 12, 31, 23, 59)),
        ("1 Jan 2003 midnight", (2003, 1, 2, 0, 0)),  # the end of that day
    ],
)
def test_past_dates_in_utc(text: str, wall: tuple[int, ...]) -> None:
    assert parse_past_moment(text, NOW, Z_UTC) == datetime(*wall, tzinfo=UTC)


def test_past_dates_are_read_in_the_judges_zone() -> None:
    assert parse_past_moment("1 Jul 2026 12:00", NOW, AMS) == datetime(2026, 7, 1, 10, tzinfo=UTC)
    assert parse_past_moment("1 Jan 2026", NOW, AMS) == datetime(2025, 12, 31, 23, tzinfo=UTC)
    # A weekday is the judge's: at 00:30 on Thursday in Amsterdam (still Wednesday in
    # UTC), "Thu" is today there, and last week's Thursday in UTC.
    late = datetime(2026, 12, 2, 23, 30, tzinfo=UTC)
    assert parse_past_moment("Thu", late, AMS) == datetime(2026, 12, 2, 23, tzinfo=UTC)
    assert parse_past_moment("Thu", late, Z_UTC) == datetime(2026, 11, 26, tzinfo=UTC)
    # An explicit zone is used as written; a time in the spring gap is the gap's end.
    assert parse_past_moment("1 Jan 2026 12:00 UTC", NOW, AMS) == datetime(
        2026, 1, 1, 12, tzinfo=UTC
    )
    assert parse_past_moment("29 Mar 2026 02:30", NOW, AMS) == datetime(2026, 3, 29, 1, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "error"),
    [
        (
            "S1903M",
            "I could not read 'S1903M' as a date; write it like Jan 1 2026, "
            "1 Jan 2026 23:59, Mon, Dec 31 or 2026-01-01.",
        ),
        (
            "",
            "I could not read '' as a date; write it like Jan 1 2026, 1 Jan 2026 23:59, Mon, "
            "Dec 31 or 2026-01-01.",
        ),
        (
            "+36h",
            "I could not read '+36h' as a date; write it like Jan 1 2026, "
            "1 Jan 2026 23:59, Mon, Dec 31 or 2026-01-01.",
        ),
        (
            "Jan 2003",
            "I could not read 'Jan 2003' as a date; write it like Jan 1 2026, "
            "1 Jan 2026 23:59, Mon, Dec 31 or 2026-01-01.",
        ),
        ("31 Apr 2026", "There is no 31 April 2026; check the day and the month."),
        ("Mon 2 Dec 2026", "2 December 2026 is a Wednesday, not a Monday; check the date."),
        ("1 Jan 1899", "The year 1899 is too far away; write a year from 1900 to 8999."),
        ("9000-01-01", "The year 9000 is too far away; write a year from 1900 to 8999."),
        (
            "next Monday",
            "'next' is ambiguous; write 'Tuesday 23:30' for the coming Tuesday, "
            "or give the date like 2026-12-01 23:30.",
        ),
    ],
)
def test_what_is_no_past_date(text: str, error: str) -> None:
    with pytest.raises(DateError) as raised:
        parse_past_moment(text, NOW, Z_UTC)
    assert words(raised.value) == error


@pytest.mark.parametrize(
    ("text", "phase"),
    [
        ("S1902M", Phase(1902, "S", "M")),
        ("s1902r", Phase(1902, "S", "R")),
        ("F1905B", Phase(1905, "W", "A")),  # njudge's builds
        ("W1905A", Phase(1905, "W", "A")),  # ours
        ("F1905A", Phase(1905, "W", "A")),
        ("W1905B", Phase(1905, "W", "A")),
        ("S2999M", Phase(2999, "S", "M")),
    ],
)
def test_turns(text: str, phase: Phase) -> None:
    assert read_turn(text) == phase


@pytest.mark.parametrize("text", ["S1902", "1902M", "S02M", "W1902M", "S1902B", "X1902M", ""])
def test_what_is_no_turn(text: str) -> None:
    with pytest.raises(CommandError) as raised:
        read_turn(text)
    assert raised.value.code == "turn_unreadable"


def test_lines() -> None:
    assert [read_lines(t) for t in ("1", "200", "1000", "1001", "007", "9" * 4301)] == [
        1,
        200,
        1000,
        MAX_LINES,
        7,
        MAX_LINES,
    ]
    for bad in ("0", "000", "-1", "1e3", "٣", "", "10 lines"):
        with pytest.raises(CommandError):
            read_lines(bad)


def test_within_lines_takes_whole_entries() -> None:
    assert within_lines([23, 23, 2], 48) == 3
    assert within_lines([23, 23, 2], 47) == 2
    assert within_lines([23, 2], 22) == 0  # a later small entry is not taken either
    assert within_lines([], 1) == 0


def test_the_date_form() -> None:
    assert read_window({}, NOW, Z_UTC) == Window(MAX_LINES, start=NOW - timedelta(days=7), end=NOW)
    window = read_window({"FROM": "Jan 1 2026", "TO": "Feb 1 2026", "LINES": "5"}, NOW, Z_UTC)
    assert window == Window(
        5, start=datetime(2026, 1, 1, tzinfo=UTC), end=datetime(2026, 2, 1, tzinfo=UTC)
    )
    assert window.keeps_moment(datetime(2026, 1, 1, tzinfo=UTC))
    assert window.keeps_moment(datetime(2026, 2, 1, tzinfo=UTC))
    assert not window.keeps_moment(datetime(2026, 2, 1, 0, 1, tzinfo=UTC))
    # A TO before the FROM is ignored: the window ends now.
    assert read_window({"FROM": "Feb 1 2026", "TO": "Jan 1 2026"}, NOW, Z_UTC).end == NOW


def test_the_turn_form() -> None:
    alone = read_window({"EXCLSTART": "S1903M"}, NOW, Z_UTC)
    assert (alone.start, alone.end, alone.turns) == (None, None, ("S1903M",))
    kept = [p for p in _phases(1901, 1904) if alone.keeps_phase(p)]
    assert [str(p) for p in kept] == ["S1901M", "F1901M", "W1901A", "S1902M", "F1902M", "W1902A"]
    both = read_window({"EXCLSTART": "S1899M", "EXCLEND": "F1902B", "BROAD": ""}, NOW, Z_UTC)
    kept = [p for p in _phases(1901, 1904) if both.keeps_phase(p)]
    assert [str(p) for p in kept] == ["S1903M", "F1903M", "W1903A"]
    assert both.keeps_phase(None)  # before the game started


def _phases(first: int, last: int) -> list[Phase]:
    return [
        Phase(y, s, k) for y in range(first, last) for s, k in (("S", "M"), ("F", "M"), ("W", "A"))
    ]

"""HISTORY by mail, in njudge's two forms (issue 17): `HISTORY [game] [FROM date] [TO date]
[LINES n]` and `HISTORY [game] EXCLSTART turn [EXCLEND turn] [BROAD]`, the game left out
after a SIGNON, njudge's dates, the window's edges, the line limit, and the errors.

The game: four movement phases, every unit holding, processed on Sunday 22, Tuesday 24,
Friday 27 and Monday 30 November 2026 (S1901M, F1901M, S1902M, F1902M; no adjustments),
and France's broadcast on Friday 27 during S1902M. HISTORY is asked on Wednesday 2
December 2026 at 12:01 UTC unless a test says otherwise."""

from __future__ import annotations

import itertools
import re
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest
from judge_harness import Judge, Mail

HOLDS = (
    "  Austria: Army Budapest HOLD.\n"
    "  Austria: Army Vienna HOLD.\n"
    "  Austria: Fleet Trieste HOLD.\n"
    "  England: Army Liverpool HOLD.\n"
    "  England: Fleet Edinburgh HOLD.\n"
    "  England: Fleet London HOLD.\n"
    "  France: Army Marseilles HOLD.\n"
    "  France: Army Paris HOLD.\n"
    "  France: Fleet Brest HOLD.\n"
    "  Germany: Army Berlin HOLD.\n"
    "  Germany: Army Munich HOLD.\n"
    "  Germany: Fleet Kiel HOLD.\n"
    "  Italy: Army Rome HOLD.\n"
    "  Italy: Army Venice HOLD.\n"
    "  Italy: Fleet Naples HOLD.\n"
    "  Russia: Army Moscow HOLD.\n"
    "  Russia: Army Warsaw HOLD.\n"
    "  Russia: Fleet Sevastopol HOLD.\n"
    "  Russia: Fleet St Petersburg (south coast) HOLD.\n"
    "  Turkey: Army Constantinople HOLD.\n"
    "  Turkey: Army Smyrna HOLD.\n"
    "  Turkey: Fleet Ankara HOLD.\n"
)
S1901 = "\nMovement results for Spring of 1901 (processed Sunday 22 November 2026 12:01 UTC):\n"
F1901 = "\nMovement results for Fall of 1901 (processed Tuesday 24 November 2026 12:01 UTC):\n"
S1902 = "\nMovement results for Spring of 1902 (processed Friday 27 November 2026 12:02 UTC):\n"
F1902 = "\nMovement results for Fall of 1902 (processed Monday 30 November 2026 12:01 UTC):\n"
BROADCAST = "\nBroadcasts:\n\nFriday 27 November 2026 12:01 UTC, from France:\nHello all\n"
EVERYTHING = S1901 + HOLDS + F1901 + HOLDS + S1902 + HOLDS + F1902 + HOLDS + BROADCAST
ASKED = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)  # the next mail is handled a minute later


def _window(start: str, end: str = "Wednesday 2 December 2026 12:01 UTC") -> str:
    """The heading of the date form, its moments written as the judge's other mails
    write them (`Wednesday 2 December 2026 12:01 UTC`, in UTC)."""
    return (
        f"History information for game 'war1'\n  from {_ptime(start)}\n  through {_ptime(end)}:\n"
    )


def _ptime(words: str) -> str:
    """A moment in UTC as format_moment writes it, as njudge's ptime writes it."""
    weekday, day, month, year, clock, zone = words.split()
    assert zone == "UTC"
    return f"{weekday[:3]} {month[:3]} {int(day):02d} {year} {clock}:00 +0000"


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The game's store, played once for the module (each test gets a copy)."""
    folder = tmp_path_factory.mktemp("played")
    judge = Judge(folder)
    judge.start_game()
    for day in (22, 24, 27, 30):
        judge.now = datetime(2026, 11, day, 12, 0, tzinfo=UTC)
        if day == 27:
            judge.send("p2@example.org", "SIGNON Fwar1 pw2\nBROADCAST\nHello all\nENDPRESS")
        judge.send("gm@example.org", "SIGNON Mwar1 masterpw\nPROCESS")
    judge.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    judge.db.conn.close()
    return folder / "j.db"


@pytest.fixture
def judge(played: Path, tmp_path: Path) -> Judge:
    shutil.copyfile(played, tmp_path / "j.db")
    judge = Judge(tmp_path)
    judge.serial = itertools.count(1000)  # Message-IDs the played game did not use
    judge.now = ASKED
    return judge


def _ask(judge: Judge, body: str, sender: str = "anyone@example.org") -> tuple[str, str]:
    """The acknowledgement's body and the history mail's ("" if none was sent)."""
    mails: list[Mail] = judge.send(sender, body)
    ack = mails[0]
    assert ack.to == [sender]
    # njudge's subject: "TEST:war1 - <the game's phase now> history"
    history = [m for m in mails[1:] if re.fullmatch(r"TEST:war1 - \w+ history", m.subject)]
    assert len(mails) == 1 + len(history)
    if history:
        assert history[0].to == [sender]
    return ack.body, history[0].body if history else ""


def test_by_default_the_last_seven_days(judge: Judge) -> None:
    ack, body = _ask(judge, "HISTORY war1")
    assert ack == (
        "Line 1: HISTORY war1\n  The history of war1 (2 phases) is in a separate mail.\n"
    )
    start = "Wednesday 25 November 2026 12:01 UTC"
    assert body == _window(start) + S1902 + HOLDS + F1902 + HOLDS + BROADCAST


def test_the_seven_days_include_their_first_minute(judge: Judge) -> None:
    # Asked at 12:01 on 1 December: F1901M, processed at 12:01 on 24 November, is in.
    judge.now = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    _, body = _ask(judge, "history war1")
    start, end = "Tuesday 24 November 2026 12:01 UTC", "Tuesday 1 December 2026 12:01 UTC"
    expected = F1901 + HOLDS + S1902 + HOLDS + F1902 + HOLDS + BROADCAST
    assert body == _window(start, end) + expected
    judge.now = datetime(2026, 12, 1, 12, 1, tzinfo=UTC)  # a minute later it is out
    _, body = _ask(judge, "history war1")
    start, end = "Tuesday 24 November 2026 12:02 UTC", "Tuesday 1 December 2026 12:02 UTC"
    assert body == _window(start, end) + S1902 + HOLDS + F1902 + HOLDS + BROADCAST


@pytest.mark.parametrize(
    ("dates", "start"),
    [
        ("FROM Jan 1, 2003", "Wednesday 1 January 2003 00:00 UTC"),
        ("FROM 1 Jan 2003 23:59", "Wednesday 1 January 2003 23:59 UTC"),
        ("from 2003 jan 1st", "Wednesday 1 January 2003 00:00 UTC"),
        ("FROM 23:59 Jan 1 2003", "Wednesday 1 January 2003 23:59 UTC"),
        ("FROM Dec 31", "Wednesday 31 December 2025 00:00 UTC"),  # the last one passed
        ("FROM 2026-11-01", "Sunday 1 November 2026 00:00 UTC"),  # ISO, as before
        ("FROM 2026-11-22 12:01", "Sunday 22 November 2026 12:01 UTC"),
        ("FROM 2026-11-22T13:01+01:00", "Sunday 22 November 2026 12:01 UTC"),
        ("FROM Sun 22 Nov 2026", "Sunday 22 November 2026 00:00 UTC"),
    ],
)
def test_njudges_dates_from_the_start(judge: Judge, dates: str, start: str) -> None:
    ack, body = _ask(judge, f"HISTORY war1 {dates}")
    assert ack == (
        f"Line 1: HISTORY war1 {dates}\n  The history of war1 (4 phases) is in a separate mail.\n"
    )
    assert body == _window(start) + EVERYTHING


NONE = "\nNo phase was processed in this part of the history.\n"
NOW = "Wednesday 2 December 2026 12:01 UTC"
TO_27 = "Friday 27 November 2026 12:02 UTC"


@pytest.mark.parametrize(
    ("dates", "start", "end", "expected"),
    [
        # A weekday is its last one, today included: it is Wednesday 2 December. A TO
        # before the FROM is ignored (as njudge does): the window ends now.
        ("FROM Mon TO 27 Nov 2026 12:02", "Monday 30 November 2026 00:00 UTC", NOW, F1902 + HOLDS),
        ("FROM wed TO 27 Nov 2026 12:02", "Wednesday 2 December 2026 00:00 UTC", NOW, NONE),
        (
            "FROM Nov 27 TO 27 Nov 2026 12:02",
            "Friday 27 November 2026 00:00 UTC",
            TO_27,
            S1902 + HOLDS + BROADCAST,
        ),
        # The window's ends are included, to the minute.
        (
            "FROM 24 Nov 2026 12:01 TO 27 Nov 2026 12:02",
            "Tuesday 24 November 2026 12:01 UTC",
            TO_27,
            F1901 + HOLDS + S1902 + HOLDS + BROADCAST,
        ),
        (
            "FROM 24 Nov 2026 12:02 TO 27 Nov 2026 12:02",
            "Tuesday 24 November 2026 12:02 UTC",
            TO_27,
            S1902 + HOLDS + BROADCAST,
        ),
        (
            "FROM 24 Nov 2026 12:01 TO 27 Nov 2026 12:01",
            "Tuesday 24 November 2026 12:01 UTC",
            "Friday 27 November 2026 12:01 UTC",
            F1901 + HOLDS + BROADCAST,
        ),
    ],
)
def test_a_window_between_two_dates(
    judge: Judge, dates: str, start: str, end: str, expected: str
) -> None:
    _, body = _ask(judge, f"HISTORY war1 {dates}")
    assert body == _window(start, end) + expected


def test_a_to_before_the_default_from_is_ignored(judge: Judge) -> None:
    # njudge's own example: FROM is then 7 days ago, after the TO, so TO is ignored.
    _, body = _ask(judge, "HISTORY war1 TO Nov 25")
    start = "Wednesday 25 November 2026 12:01 UTC"
    assert body == _window(start) + S1902 + HOLDS + F1902 + HOLDS + BROADCAST


def test_dates_are_read_in_the_judges_zone(tmp_path: Path) -> None:
    judge = Judge(tmp_path, timezone="Europe/Amsterdam")
    judge.start_game()
    judge.now = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
    judge.send("gm@example.org", "SIGNON Mwar1 masterpw\nPROCESS")
    _, body = _ask(judge, "HISTORY war1 FROM 22 Nov 2026 13:01")  # 12:01 UTC
    assert body.startswith(
        "History information for game 'war1'\n  from Sun Nov 22 2026 13:01:00 +0100\n"
        "  through Sun Nov 22 2026 13:02:00 +0100:\n\n"
        "Movement results for Spring of 1901 (processed Sunday 22 November 2026 13:01 CET):\n"
    )
    _, body = _ask(judge, "HISTORY war1 FROM 22 Nov 2026 13:02")
    assert body.endswith("\nNo phase was processed in this part of the history.\n")


def test_lines_limits_the_history_to_whole_entries(judge: Judge) -> None:
    # An entry is its heading and its lines: a phase here is 23 lines.
    ack, body = _ask(judge, "HISTORY war1 FROM Jan 1 2003 LINES 46")
    assert ack == (
        "Line 1: HISTORY war1 FROM Jan 1 2003 LINES 46\n"
        "  The history of war1 (2 phases) is in a separate mail.\n"
    )
    assert body == (
        _window("Wednesday 1 January 2003 00:00 UTC")
        + S1901
        + HOLDS
        + F1901
        + HOLDS
        + "\n---- History terminated due to the limit of 46 lines.\n"
        "For the rest, write HISTORY war1 FROM Friday 27 November 2026 12:01 UTC\n"
    )
    # The broadcast (2 lines) fits after three phases; the fourth phase does not.
    _, body = _ask(judge, "HISTORY war1 FROM Jan 1 2003 LINES 71")
    assert body == (
        _window("Wednesday 1 January 2003 00:00 UTC", "Wednesday 2 December 2026 12:02 UTC")
        + S1901
        + HOLDS
        + F1901
        + HOLDS
        + S1902
        + HOLDS
        + BROADCAST
        + "\n---- History terminated due to the limit of 71 lines.\n"
        "For the rest, write HISTORY war1 FROM Monday 30 November 2026 12:01 UTC\n"
    )


def test_what_the_limit_cut_off_is_there_from_the_date_it_names(judge: Judge) -> None:
    _, body = _ask(judge, "HISTORY war1 FROM Monday 30 November 2026 12:01 UTC")
    assert body == _window("Monday 30 November 2026 12:01 UTC") + F1902 + HOLDS


def test_an_entry_longer_than_the_limit_ends_the_history(judge: Judge) -> None:
    _, body = _ask(judge, "HISTORY war1 FROM Jan 1 2003 LINES 22")
    assert body == (
        _window("Wednesday 1 January 2003 00:00 UTC")
        + "\nNo phase was processed in this part of the history.\n"
        "\n---- History terminated due to the limit of 22 lines.\n"
        "For the rest, write HISTORY war1 FROM Sunday 22 November 2026 12:01 UTC\n"
    )


@pytest.mark.parametrize("lines", ["1000", "5000", "9" * 10_000, "0001000"])
def test_lines_never_raises_the_limit_of_a_thousand(judge: Judge, lines: str) -> None:
    # More than 1000 (however many digits) is 1000: the whole history here.
    _, body = _ask(judge, f"HISTORY war1 FROM Jan 1 2003 LINES {lines}")
    assert body == _window("Wednesday 1 January 2003 00:00 UTC") + EVERYTHING


@pytest.mark.parametrize("form", ["", " EXCLSTART S2999M"])
def test_a_thousand_lines_at_most_by_default(judge: Judge, form: str) -> None:
    # 50 broadcasts of 25 lines, 26 with their heading, sent from 12:01 to 12:50 after the
    # 48 lines of the last 7 days (S1902M, F1902M and Hello all): 36 of them fit.
    text = "\n".join(f"line {i}" for i in range(25))
    for _ in range(50):
        judge.send("p2@example.org", f"SIGNON Fwar1 pw2\nBROADCAST\n{text}\nENDPRESS")
    _, body = _ask(judge, f"HISTORY war1{form}")
    shown = 36 if not form else 36 - 2  # the turn form has S1901M and F1901M too
    assert body.count(", from France:\n") == 1 + shown
    assert body.count("\n".join(f"line {i}" for i in range(25))) == shown
    assert body.endswith(
        "\n---- History terminated due to the limit of 1000 lines.\n"
        f"For the rest, write HISTORY war1 FROM Wednesday 2 December 2026 12:{shown + 1:02} UTC\n"
    )


@pytest.mark.parametrize(
    ("turns", "heading", "expected"),
    [
        (
            "EXCLSTART S1902M",
            "History information for game 'war1' before S1902M:\n",
            S1901 + HOLDS + F1901 + HOLDS,
        ),
        (  # the broadcast was sent in S1902M, which is kept
            "EXCLSTART F1901M EXCLEND F1901B",
            "History information for game 'war1' without F1901M to F1901B\n(both included):\n",
            S1901 + HOLDS + S1902 + HOLDS + F1902 + HOLDS + BROADCAST,
        ),
        (
            "exclstart s1899m exclend w1901a broad",
            "History information for game 'war1' without S1899M to W1901A\n(both included):\n",
            S1902 + HOLDS + F1902 + HOLDS + BROADCAST,
        ),
        (  # njudge: a turn the game never had gives the whole history
            "EXCLSTART S2999M",
            "History information for game 'war1', all of it (S2999M is no turn of it):\n",
            EVERYTHING,
        ),
        (
            "EXCLSTART S1899M",
            "History information for game 'war1', all of it (S1899M is no turn of it):\n",
            EVERYTHING,
        ),
        (
            "EXCLSTART S1902R",
            "History information for game 'war1', all of it (S1902R is no turn of it):\n",
            EVERYTHING,
        ),
        (
            "EXCLSTART S1902M EXCLEND S1902M BROAD",
            "History information for game 'war1' without S1902M to S1902M\n(both included):\n",
            S1901 + HOLDS + F1901 + HOLDS + F1902 + HOLDS,
        ),
        (  # an end before the start leaves nothing out
            "EXCLSTART F1902M EXCLEND S1901M",
            "History information for game 'war1' without F1902M to S1901M\n(both included):\n",
            EVERYTHING,
        ),
        (
            "EXCLSTART S1901M",
            "History information for game 'war1' before S1901M:\n",
            "\nNo phase was processed in this part of the history.\n",
        ),
    ],
)
def test_exclstart_and_exclend_leave_out_a_range_of_turns(
    judge: Judge, turns: str, heading: str, expected: str
) -> None:
    _, body = _ask(judge, f"HISTORY war1 {turns}")
    assert body == heading + expected


def test_after_a_signon_the_game_may_be_left_out(judge: Judge) -> None:
    ack, body = _ask(judge, "SIGNON Fwar1 pw2\nHISTORY FROM Jan 1, 2003", "p2@example.org")
    assert ack.startswith(
        "Line 1: SIGNON Fwar1 ****\n  Signed on to war1 as France.\n"
        "Line 2: HISTORY FROM Jan 1, 2003\n"
        "  The history of war1 (4 phases) is in a separate mail.\n"
    )
    assert body == _window("Wednesday 1 January 2003 00:00 UTC") + EVERYTHING
    ack, body = _ask(judge, "SIGNON Fwar1 pw2\nHISTORY", "p2@example.org")
    assert "Line 2: HISTORY\n  The history of war1 (2 phases) is in a separate mail.\n" in ack
    start = "Wednesday 25 November 2026 12:02 UTC"
    end = "Wednesday 2 December 2026 12:02 UTC"
    assert body == _window(start, end) + S1902 + HOLDS + F1902 + HOLDS + BROADCAST


def test_without_a_signon_the_game_must_be_named(judge: Judge) -> None:
    ack, body = _ask(judge, "HISTORY\nHISTORY FROM Jan 1 2003")
    assert ack == (
        "Line 1: HISTORY\n  ERROR: Expected HISTORY name [FROM date] [TO date].\n"
        "Line 2: HISTORY FROM Jan 1 2003\n  ERROR: Expected HISTORY name [FROM date] [TO date].\n"
    )
    assert body == ""


def test_after_a_refused_signon_there_is_no_game(judge: Judge) -> None:
    ack, body = _ask(judge, "SIGNON Fwar1 wrong\nHISTORY", "p2@example.org")
    assert ack == (
        "Line 1: SIGNON Fwar1 ****\n"
        "  ERROR: signon refused: the game name, the power or the password is wrong.\n"
        "Line 2: HISTORY\n  ERROR: not used, because the SIGNON before it was refused.\n"
    )
    assert body == ""


@pytest.mark.parametrize(
    ("line", "error"),
    [
        (  # the defect of issue 17: Python's "Invalid isoformat string"
            "HISTORY war1 FROM S1903M",
            "I could not read 'S1903M' as a date; write it like Jan 1 2026, 1 Jan\n"
            "  2026 23:59, Mon, Dec 31 or 2026-01-01.",
        ),
        (
            "HISTORY war1 FROM Jan 1 2003 TO soon",
            "I could not read 'soon' as a date; write it like Jan 1 2026, 1 Jan\n"
            "  2026 23:59, Mon, Dec 31 or 2026-01-01.",
        ),
        (
            "HISTORY war1 FROM 31 Feb 2026",
            "There is no 31 February 2026; check the day and the month.",
        ),
        (
            "HISTORY war1 FROM Mon 1 Dec 2026",
            "1 December 2026 is a Tuesday, not a Monday; check the date.",
        ),
        (
            "HISTORY war1 FROM 1/12/2026",
            "'1/12/2026' could be day/month or month/day; write the date like\n"
            "  2026-12-01 or 1 December.",
        ),
        (
            "HISTORY war1 FROM 25:00 Jan 1 2026",
            "'25:00' is not a time of day; write it like 23:30 or 11:30pm.",
        ),
        (
            "HISTORY war1 FROM 1 Jan 0001",
            "The year 1 is too far away; write a year from 1900 to 8999.",
        ),
        (
            "HISTORY war1 TO 31 Dec 9999 23:59",
            "The year 9999 is too far away; write a year from 1900 to 8999.",
        ),
        (
            "HISTORY war1 LINES 0",
            "Expected LINES followed by a number of lines from 1 to 1000, not '0'.",
        ),
        (
            "HISTORY war1 LINES -5",
            ("Expected LINES followed by a number of lines from 1 to 1000, not\n  '-5'."),
        ),
        (
            "HISTORY war1 LINES many",
            ("Expected LINES followed by a number of lines from 1 to 1000, not\n  'many'."),
        ),
        (
            "HISTORY war1 EXCLSTART 1902",
            (
                "I could not read '1902' as a turn; write it like S1902M, F1902R,\n"
                "  F1902B or W1902A."
            ),
        ),
        (
            "HISTORY war1 EXCLSTART S1902M EXCLEND W1902M",
            (
                "I could not read 'W1902M' as a turn; write it like S1902M, F1902R,\n"
                "  F1902B or W1902A."
            ),
        ),
        (
            "HISTORY war1 since Jan 1",
            "I don't know 'since' here; write HISTORY [name] [FROM date] [TO date]\n"
            "  [LINES n], or HISTORY [name] EXCLSTART turn [EXCLEND turn] [BROAD].",
        ),
        (
            "HISTORY war1 war2",
            "I don't know 'war2' here; write HISTORY [name] [FROM date] [TO date]\n"
            "  [LINES n], or HISTORY [name] EXCLSTART turn [EXCLEND turn] [BROAD].",
        ),
        ("HISTORY war1 FROM Jan 1 from Feb 1", "FROM is given twice; write it once."),
        ("HISTORY war1 FROM", "Expected FROM followed by a date, e.g. FROM Jan 1 2026."),
        ("HISTORY war1 TO", "Expected TO followed by a date, e.g. TO Dec 31 2026 23:59."),
        ("HISTORY war1 LINES 5 6", "Expected LINES followed by a number, e.g. LINES 200."),
        (
            "HISTORY war1 EXCLSTART",
            "Expected EXCLSTART followed by a turn, e.g. EXCLSTART S1903M.",
        ),
        (
            "HISTORY war1 EXCLSTART S1902M EXCLEND",
            "Expected EXCLEND followed by a turn, e.g. EXCLEND F1905B.",
        ),
        (
            "HISTORY war1 EXCLSTART S1902M BROAD please",
            "Expected BROAD alone, after EXCLSTART and its turn.",
        ),
        ("HISTORY war1 BROAD", "Expected EXCLSTART followed by a turn, e.g. EXCLSTART S1903M."),
        (
            "HISTORY war1 EXCLEND F1905B",
            "Expected EXCLSTART followed by a turn, e.g. EXCLSTART S1903M.",
        ),
        (
            "HISTORY war1 FROM Jan 1 2003 EXCLSTART S1902M",
            "FROM and EXCLSTART belong to two forms of HISTORY; write HISTORY\n"
            "  [name] [FROM date] [TO date] [LINES n], or HISTORY [name] EXCLSTART turn\n"
            "  [EXCLEND turn] [BROAD].",
        ),
        (  # LINES belongs to the date form (njudge's turn form has none)
            "HISTORY war1 EXCLSTART S1902M LINES 23",
            "LINES and EXCLSTART belong to two forms of HISTORY; write HISTORY\n"
            "  [name] [FROM date] [TO date] [LINES n], or HISTORY [name] EXCLSTART turn\n"
            "  [EXCLEND turn] [BROAD].",
        ),
        ("HISTORY nosuch", "There is no game called nosuch."),
    ],
)
def test_what_history_cannot_read_is_an_error_in_words(judge: Judge, line: str, error: str) -> None:
    ack, body = _ask(judge, line)
    assert ack == f"Line 1: {line}\n  ERROR: {error}\n"
    assert body == ""


@pytest.mark.parametrize(
    ("tail", "error"),
    [
        (
            "FROM " + "x" * 10_000,
            "I could not read\n  '" + "x" * 57 + "...' as a date;\n  write it like Jan 1 2026, "
            "1 Jan 2026 23:59, Mon, Dec 31 or 2026-01-01.",
        ),
        (
            "FROM " + "1 " * 5_000,
            "I could not read '" + "1 " * 25 + "1\n  1 1 1...' as a date; write it like "
            "Jan 1 2026, 1 Jan 2026 23:59, Mon, Dec 31\n  or 2026-01-01.",
        ),
        (
            "EXCLSTART " + "S" * 10_000,
            "I could not read '" + "S" * 37 + "...' as a\n  turn; write it like S1902M, F1902R, "
            "F1902B or W1902A.",
        ),
        (
            "LINES " + "7" * 5_000 + "x",
            "Expected LINES followed by a number of lines from 1 to 1000, not\n  '"
            + "7" * 37
            + "...'.",
        ),
        (
            "z" * 10_000,
            "I don't know '" + "z" * 37 + "...' here; write\n  HISTORY [name] [FROM date] "
            "[TO date] [LINES n], or HISTORY [name] EXCLSTART\n  turn [EXCLEND turn] [BROAD].",
        ),
    ],
)
def test_an_attackers_long_lines_get_short_errors(judge: Judge, tail: str, error: str) -> None:
    # The line itself is echoed as every line is (folded to fit a mail); the error
    # quotes at most a few dozen characters of it.
    ack, body = _ask(judge, f"HISTORY war1 {tail}")
    assert ack.startswith("Line 1: HISTORY war1 ")
    assert ack.endswith(f"\n  ERROR: {error}\n") and ack.count("ERROR") == 1
    assert body == ""


def test_dates_far_away_give_an_empty_or_whole_history(judge: Judge) -> None:
    _, body = _ask(judge, "HISTORY war1 FROM 31 Dec 8999 23:59")
    assert body == _window("Tuesday 31 December 8999 23:59 UTC") + (
        "\nNo phase was processed in this part of the history.\n"
    )
    _, body = _ask(judge, "HISTORY war1 FROM 1 Jan 1900 TO 31 Dec 8999 23:59")
    assert body == (
        _window("Monday 1 January 1900 00:00 UTC", "Tuesday 31 December 8999 23:59 UTC")
        + EVERYTHING
    )


def test_a_game_without_a_processed_phase(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.start_game()
    ack, body = _ask(judge, "HISTORY war1")
    assert ack == (
        "Line 1: HISTORY war1\n  The history of war1 (0 phases) is in a separate mail.\n"
    )
    assert body == (
        "History information for game 'war1'\n  from Sat Nov 14 2026 12:09:00 +0000\n"
        "  through Sat Nov 21 2026 12:09:00 +0000:\n\nNo phase has been processed yet.\n"
    )

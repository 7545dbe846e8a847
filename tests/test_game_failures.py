"""A game whose processing raises is paused, its master told, and the other games go on;
a game stored with a deadline out of range (year 9999) is paused the same way and never
stops the timers or the daemon; dates a master or player sets are at most a year ahead."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from cli_harness import run, write_config
from judge_harness import Judge

from judge.game import play
from judge.service import schedule
from judge.service.daemon import fixed_clock, run_once
from judge.store import games

MASTER = "gm@example.org"


def _two_games(judge: Judge) -> datetime:
    """war1 and war2, started, with the same deadline (returned)."""
    judge.start_game("war1")
    judge.start_game("war2")
    deadline = datetime.fromisoformat(judge.game("war2").deadline or "")
    games.update_game(judge.db, judge.game("war1"), judge.now, deadline=deadline.isoformat())
    judge.db.conn.commit()
    return deadline


GAME_FAILED = (
    "The TEST judge could not go on with war1 (S1901M)\n"
    "because of an error of its own, so it has paused the game: the clock is stopped and\n"
    "nothing is processed. Nothing of the failed step has taken effect, and the players have\n"
    "not been told.\n"
    "\n"
    "The error: {reason}\n"
    "\n"
    "The judge's keeper has the details in the log. When the cause is put right, sign on as\n"
    "master and send RESUME; if the deadline was the trouble, send RESUME and then\n"
    "SET DEADLINE <date> in the same mail.\n"
)


def test_a_game_whose_processing_raises_is_paused_and_the_others_go_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    judge = Judge(tmp_path)
    deadline = _two_games(judge)
    real = play.process_phase

    def process_phase(db, config, game, now):
        if game.name == "war1":
            raise ZeroDivisionError("the adjudicator broke")
        return real(db, config, game, now)

    monkeypatch.setattr(play, "process_phase", process_phase)
    judge.at(deadline)  # late notices in both games
    left = timedelta(hours=0)
    with caplog.at_level(logging.INFO, logger="judge.service.schedule"):
        mails = judge.at(deadline + timedelta(hours=24))  # grace over: NMR processing

    war1, war2 = judge.game("war1"), judge.game("war2")
    assert (war1.state, war1.phase, war1.process_at) == ("paused", "S1901M", None)
    assert war1.paused_remaining == left.total_seconds()  # the deadline had passed
    assert (war2.state, war2.phase) == ("active", "F1901M")  # processed all the same
    [notice] = [m for m in mails if "war1" in m.subject]
    assert notice.to == [MASTER]
    assert notice.subject == "TEST:war1 - S1901M paused after an error of the judge's own"
    reason = notice.body.split("The error: ", 1)[1].split("\n", 1)[0]
    assert reason.startswith("ZeroDivisionError: the adjudicator broke (at test_game_failures.py:")
    assert notice.body == GAME_FAILED.format(reason=reason)
    assert any(m.subject == "TEST:war2 - S1901M Results" for m in mails)
    assert f"game war1, phase S1901M: processing raised {reason}" in caplog.text
    assert "game war1 paused after the error; told: gm@example.org" in caplog.text

    # Paused: nothing more happens to it, and no timers are kept for it.
    assert not [m for m in judge.at(deadline + timedelta(days=3)) if "war1" in m.subject]
    assert not any(key.startswith(f"{war1.id}:") for key in schedule.next_events(judge.db))


def test_a_stored_year_9999_deadline_pauses_that_game_only(tmp_path: Path) -> None:
    """The real `judge run --once` path (run_once) on a store where war1's deadline is the
    last minute of year 9999 (as SET DEADLINE 9999-12-31 23:59 once stored it)."""
    judge = Judge(tmp_path)
    deadline = _two_games(judge)
    games.update_game(judge.db, judge.game("war1"), judge.now, deadline="9999-12-31T23:59:00+00:00")
    judge.db.conn.commit()
    war1 = judge.game("war1")
    assert not any(k.startswith(f"{war1.id}:") for k in schedule.next_events(judge.db))

    before = judge._last()
    counts = run_once(judge.config, fixed_clock(deadline))
    assert counts["handled"] == 0
    war1, war2 = judge.game("war1"), judge.game("war2")
    assert war1.state == "paused" and war2.state == "active"
    assert war1.paused_remaining == timedelta(days=366).total_seconds()
    mails = judge._since(before)
    [notice] = [m for m in mails if "war1" in m.subject]
    assert (notice.to, notice.subject) == (
        [MASTER],
        "TEST:war1 - S1901M paused after an error of the judge's own",
    )
    assert notice.body == GAME_FAILED.format(
        reason="OverflowError: date value out of range (at schedule.py:"
        + notice.body.split("(at schedule.py:", 1)[1].split("\n", 1)[0]
    )
    assert (
        "TEST:war2 - S1901M Late Notice: Austria, England, France, Germany, Italy, Russia, Turkey"
        in [m.subject for m in mails]
    )  # war2's deadline was handled as usual

    # The master resumes it and sets a deadline in reach in the same mail.
    judge.now = deadline
    mails = judge.send(MASTER, "SIGNON Mwar1 masterpw\nRESUME\nSET DEADLINE +2d")
    war1 = judge.game("war1")
    assert war1.state == "active"
    assert war1.deadline == (judge.now + timedelta(days=2)).isoformat(timespec="microseconds")
    assert "ERROR" not in mails[0].body


@pytest.mark.parametrize(
    ("command", "error"),
    [
        ("SET DEADLINE 9999-12-31 23:59", "That is more than a year ahead"),
        ("SET DEADLINE +367d", "That is more than a year ahead"),
        ("SET DEADLINE 31 December 9999", "That is more than a year ahead"),
        ("SET DEADLINE 9999-12-31 23:59 -05:00", "I could not read"),
        ("SET DEADLINE 0001-01-01", "That time has already passed"),
    ],
)
def test_a_deadline_more_than_a_year_ahead_is_refused(
    tmp_path: Path, command: str, error: str
) -> None:
    judge = Judge(tmp_path)
    judge.start_game()
    before = judge.game().deadline
    [reply] = judge.send(MASTER, f"SIGNON Mwar1 masterpw\n{command}")
    latest = "Monday 22\n  November 2027 12:09 UTC"
    expected = (
        f"That is more than a year ahead; give a moment no later than {latest}.\n"
        if error.startswith("That is more")
        else error
    )
    assert f"Line 2: {command}\n  ERROR: {expected}" in reply.body
    assert judge.game().deadline == before
    assert schedule.next_events(judge.db)  # the timers still work


def test_a_deadline_a_year_ahead_is_accepted_and_its_timers_work(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.start_game()
    mails = judge.send(MASTER, "SIGNON Mwar1 masterpw\nSET DEADLINE +366d")
    assert "ERROR" not in mails[0].body
    deadline = judge.now + timedelta(days=366)
    assert judge.game().deadline == deadline.isoformat(timespec="microseconds")
    events = sorted(schedule.next_events(judge.db).values())
    assert events[-1] == deadline + timedelta(hours=24)
    assert judge.at(deadline + timedelta(hours=24)) != []  # processed, no overflow


def test_an_absence_ending_in_year_9999_is_refused(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    players = judge.start_game()
    before = judge.game().deadline
    [reply] = judge.send(players["F"], "SIGNON Fwar1 pw2\nSET ABSENCE now TO 9999-12-31")
    assert (
        "Line 2: SET ABSENCE now TO 9999-12-31\n  ERROR: That is more than a year ahead; "
        "give a moment no later than Monday 22\n  November 2027 12:09 UTC.\n" in reply.body
    )
    assert judge.db.execute("SELECT COUNT(*) FROM absences").fetchone()[0] == 0
    assert judge.game().deadline == before


def test_judge_games_shows_a_deadline_out_of_range(tmp_path: Path, capsys) -> None:
    """`judge games` on a store where war1's deadline is the end of year 9999 UTC, which
    does not exist in Paris: shown as stored, not a crash."""
    judge = Judge(tmp_path)
    judge.start_game("war1")
    stored = "9999-12-31T23:59:00+00:00"
    games.update_game(judge.db, judge.game("war1"), judge.now, deadline=stored)
    judge.db.conn.commit()
    path = write_config(tmp_path, 'timezone = "Europe/Paris"\n')
    status, out, _ = run(capsys, "--config", str(path), "games")
    assert status == 0
    assert out[1] == f"war1  standard  active  S1901M  {stored} (as stored)  7/7"


def test_the_worst_lengths_are_refused_by_mail(tmp_path: Path) -> None:
    """Huge, negative, zero and over-long lengths: one clear error each, settings kept."""
    judge = Judge(tmp_path)
    judge.start_game()
    before = judge.game().settings
    lines = [
        "SET GRACE 99999999999999d",
        "SET GRACE -5h",
        "SET REMINDER 0",
        "SET MOVE LENGTH 1e308h",
        "SET DELAY 31d",
    ]
    [reply] = judge.send(MASTER, "SIGNON Mwar1 masterpw\n" + "\n".join(lines))
    errors = [
        "I could not read '99999999999999d' as a length of time; write it like\n"
        "  48h, 2d, 1d12h or 90m.",
        "A length of time cannot be negative; write it like 48h or 2d.",
        "A length of time must be at least one minute; write it like 48h or\n  2d.",
        "I could not read '1e308h' as a length of time; write it like 48h, 2d,\n  1d12h or 90m.",
        "A length of time can be at most 30 days; write it like 48h or 2d.",
    ]
    for n, (line, error) in enumerate(zip(lines, errors, strict=True), start=2):
        assert f"Line {n}: {line}\n  ERROR: {error}\n" in reply.body
    assert judge.game().settings == before


def test_orders_that_complete_a_phase_whose_processing_raises_are_kept_and_the_game_paused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A mail whose orders complete the phase: processing raises inside the mail's own
    handling. The orders stay stored, the game is paused with the master told, and the
    mail is answered and handled (not failed and retried)."""
    judge = Judge(tmp_path)
    players = judge.start_game("war1")
    orders = {
        "A": "A Vie H\nA Bud H\nF Tri H",
        "E": "F Lon H\nF Edi H\nA Lvp H",
        "F": "F Bre H\nA Par H\nA Mar H",
        "G": "F Kie H\nA Ber H\nA Mun H",
        "I": "F Nap H\nA Rom H\nA Ven H",
        "R": "F Stp/sc H\nA Mos H\nA War H\nF Sev H",
        "T": "F Ank H\nA Con H\nA Smy H",
    }
    for initial, lines in list(orders.items())[:-1]:
        password = f"pw{'AEFGIRT'.index(initial)}"
        judge.send(players[initial], f"SIGNON {initial}war1 {password}\n{lines}")

    def process_phase(db, config, game, now):
        raise ZeroDivisionError("the adjudicator broke")

    monkeypatch.setattr(play, "process_phase", process_phase)
    mails = judge.send(players["T"], f"SIGNON Twar1 pw6\n{orders['T']}")
    [state] = judge.db.execute("SELECT state FROM inbound ORDER BY id DESC LIMIT 1").fetchone()
    assert state == "handled"
    war1 = judge.game("war1")
    assert (war1.state, war1.phase) == ("paused", "S1901M")
    assert judge.effective("war1", "TURKEY") == ["F ANK H", "A CON H", "A SMY H"]
    [ack] = [m for m in mails if m.to == [players["T"]]]
    assert ack.body.endswith(
        "war1 could not be processed because of a fault in the judge.\n"
        "Your orders are stored; the game is paused and its master has been told.\n"
    )
    [notice] = [m for m in mails if m.to == [MASTER]]
    assert notice.subject == "TEST:war1 - S1901M paused after an error of the judge's own"
    reason = notice.body.split("The error: ", 1)[1].split("\n", 1)[0]
    assert reason.startswith("ZeroDivisionError: the adjudicator broke (at test_game_failures.py:")
    assert notice.body == GAME_FAILED.format(reason=reason)

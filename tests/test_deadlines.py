"""Deadlines on a clock the test moves (never a real sleep): processing at the deadline,
early processing with and without WAIT, reminders, late notices, grace with NMR and
NONMR, absences, pause and resume, a daylight-saving change, and a restart."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from judge_harness import HOLDS, POWERS, Judge

from judge.service import schedule
from judge.store import games
from judge.store.db import open_db

START = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)


def _deadline(judge: Judge) -> datetime:
    return datetime.fromisoformat(judge.game().deadline or "")


def _order(judge: Judge, players: dict[str, str], initials: str) -> list:
    mails = []
    for initial in initials:
        i = POWERS.index(initial)
        mails += judge.send(players[initial], f"SIGNON {initial}war1 pw{i}\n{HOLDS[initial]}")
    return mails


def _subjects(mails) -> list[str]:
    return [m.subject for m in mails]


def test_the_first_deadline_is_the_move_length_after_the_start(judge: Judge) -> None:
    judge.start_game()
    # The 7th player joined at START + 8 minutes; moves take 48 hours.
    assert _deadline(judge) == START + timedelta(minutes=8, hours=48)


def test_at_the_deadline_late_players_are_told_and_the_rest_wait(judge: Judge) -> None:
    players = judge.start_game()
    _order(judge, players, "AEFGIR")  # Turkey never orders
    deadline = _deadline(judge)
    before = judge.at(deadline - timedelta(seconds=1))
    assert [m.subject.split(",")[0] for m in before] == ["TEST:war1 - S1901M reminder"]
    mails = judge.at(deadline)
    assert _subjects(mails) == [
        "TEST:war1 - S1901M Late Notice: Turkey",
        *["TEST:war1 - S1901M Late Notice: Turkey"] * 7,  # to the others, one mail each
    ]
    late, *waiting = mails
    assert late.to == [players["T"]]
    assert "Still without orders: Army Constantinople, Army Smyrna, Fleet Ankara." in late.body
    assert sorted(a for m in waiting for a in m.to) == sorted(
        [*(players[i] for i in "AEFGIR"), "gm@example.org"]
    )
    assert judge.at(deadline + timedelta(hours=1)) == []  # told once


def test_grace_end_with_nmr_processes_with_civil_disorder(judge: Judge) -> None:
    players = judge.start_game()
    _order(judge, players, "AEFGIR")
    deadline = _deadline(judge)
    judge.at(deadline)
    assert judge.at(deadline + timedelta(hours=23, minutes=59)) == []
    mails = judge.at(deadline + timedelta(hours=24))
    [results, *_] = [m for m in mails if m.subject == "TEST:war1 - S1901M Results"]
    assert "In civil disorder (no orders received): Turkey.\n" in results.body
    assert "Turkey: Fleet Ankara HOLD.\n" in results.body
    assert judge.game().phase == "F1901M"


def test_grace_end_with_nonmr_abandons_the_late_power_and_the_master_may_process(
    judge: Judge,
) -> None:
    players = judge.start_game()
    judge.send("gm@example.org", "SIGNON Mwar1 masterpw\nSET NONMR")
    _order(judge, players, "AEFGIR")
    deadline = _deadline(judge)
    judge.at(deadline)
    mails = judge.at(deadline + timedelta(hours=24))
    assert _subjects(mails) == [
        "TEST:war1 - S1901M Abandoned: Turkey",
        *["TEST:war1 - S1901M Waiting for Replacements: T"] * 8,  # one mail each
    ]
    assert mails[0].to == [players["T"]]
    [master] = [m for m in mails if m.to == ["gm@example.org"]]
    assert master.body.endswith(
        "As master you may also sign on and PROCESS the phase with the orders on file\n"
        "(units without orders hold).\n"
    )
    assert judge.at(deadline + timedelta(days=5)) == []
    assert judge.game().phase == "S1901M"
    mails = judge.send("gm@example.org", "SIGNON Mwar1 masterpw\nPROCESS")
    assert any(m.subject == "TEST:war1 - S1901M Results" for m in mails)


def test_early_processing_when_all_orders_are_in_unless_someone_waits(judge: Judge) -> None:
    players = judge.start_game()
    judge.send(players["T"], "SIGNON Twar1 pw6\nSET WAIT")
    mails = _order(judge, players, POWERS)
    assert not any("Results" in s for s in _subjects(mails))
    deadline = _deadline(judge)
    # WAIT holds the phase to its deadline, no later: then it is processed.
    mails = judge.at(deadline)
    assert any(s == "TEST:war1 - S1901M Results" for s in _subjects(mails))


def test_an_early_processing_delay(judge: Judge) -> None:
    players = judge.start_game()
    judge.send("gm@example.org", "SIGNON Mwar1 masterpw\nSET DELAY 30m")
    _order(judge, players, POWERS)
    done = judge.now
    assert judge.game().phase == "S1901M"
    assert judge.at(done + timedelta(minutes=29)) == []
    mails = judge.at(done + timedelta(minutes=30))
    assert any(s == "TEST:war1 - S1901M Results" for s in _subjects(mails))


def test_reminders_go_to_the_players_missing_orders_once(judge: Judge) -> None:
    players = judge.start_game()
    _order(judge, players, "AEFGIR")
    deadline = _deadline(judge)
    assert judge.at(deadline - timedelta(hours=24, seconds=1)) == []
    mails = judge.at(deadline - timedelta(hours=24))
    assert [(m.to, m.subject) for m in mails] == [
        (
            [players["T"]],
            f"TEST:war1 - S1901M reminder, Turkey's orders are due by {_shown(deadline)}",
        )
    ]
    assert judge.at(deadline - timedelta(hours=1)) == []


def _shown(moment: datetime) -> str:
    return moment.strftime("%A %-d %B %Y %H:%M UTC")


def test_a_restart_between_the_deadline_and_processing_processes_once(
    judge: Judge, tmp_path: Path
) -> None:
    players = judge.start_game()
    _order(judge, players, POWERS[:-1])
    judge.send(players["T"], "SIGNON Twar1 pw6\nSET WAIT\n" + HOLDS["T"])
    deadline = _deadline(judge)
    # Two judges (a restart, or a timer firing twice) both see the deadline pass.
    other = open_db(tmp_path / "j.db")
    judge.now = deadline
    first = schedule.run_due(judge.db, judge.config, lambda: deadline)
    second = schedule.run_due(other, judge.config, lambda: deadline)
    assert first > 0 and second == 0
    processed = judge.db.execute(
        "SELECT COUNT(*) FROM phases WHERE processed_at IS NOT NULL"
    ).fetchone()[0]
    assert processed == 1
    results = judge.db.execute("SELECT COUNT(*) FROM outbound WHERE kind = 'results'").fetchone()[0]
    assert results == 8  # one mail to each of the seven players and the master


def test_pause_keeps_the_time_left_and_resume_gives_it_back(judge: Judge) -> None:
    judge.start_game()
    deadline = _deadline(judge)
    paused_at = judge.now + timedelta(hours=10)
    judge.now = paused_at - timedelta(minutes=1)
    mails = judge.send("gm@example.org", "SIGNON Mwar1 masterpw\nPAUSE")
    left = deadline - paused_at
    assert "TEST:war1 - S1901M Game Paused" in _subjects(mails)
    assert judge.at(deadline + timedelta(days=3)) == []  # nothing happens while paused
    judge.now = deadline + timedelta(days=3) - timedelta(minutes=1)
    mails = judge.send("gm@example.org", "SIGNON Mwar1 masterpw\nRESUME")
    assert _deadline(judge) == judge.now + left
    assert "TEST:war1 - S1901M Game Resumed" in _subjects(mails)


def test_an_absence_pushes_a_deadline_that_falls_in_it(judge: Judge) -> None:
    players = judge.start_game()
    deadline = _deadline(judge)
    ends = deadline + timedelta(days=2)
    mails = judge.send(
        players["F"],
        f"SIGNON Fwar1 pw2\nSET ABSENCE now TO {ends.strftime('%Y-%m-%d %H:%M')}",
    )
    assert _deadline(judge) == ends
    assert any(s.startswith("TEST:war1 - S1901M the deadline is now") for s in _subjects(mails))


def test_an_absence_cannot_push_past_the_games_maximum(judge: Judge) -> None:
    players = judge.start_game()
    deadline = _deadline(judge)
    far = deadline + timedelta(days=30)
    judge.send(
        players["F"], f"SIGNON Fwar1 pw2\nSET ABSENCE now TO {far.strftime('%Y-%m-%d %H:%M')}"
    )
    assert _deadline(judge) == deadline + timedelta(days=7)


def test_a_deadline_time_across_a_daylight_saving_change(tmp_path: Path) -> None:
    judge = Judge(tmp_path, timezone="Europe/Amsterdam")
    judge.now = datetime(2026, 3, 27, 9, 0, tzinfo=UTC)  # Friday; clocks go forward on Sunday
    judge.send("gm@example.org", "CREATE ?war1 masterpw")
    judge.send("gm@example.org", "SIGNON Mwar1 masterpw\nSET TIME 23:30")
    for i, initial in enumerate(POWERS):
        judge.send(f"p{i}@example.org", f"SIGNON ?war1 pw{i}\nSET PREFERENCE {initial}")
    # Started Friday 10:10 CET; 48 hours later is Sunday 11:10 CEST; at 23:30 that day.
    assert _deadline(judge) == datetime(2026, 3, 29, 21, 30, tzinfo=UTC)  # 23:30 CEST
    mails = judge.send("gm@example.org", "SIGNON Mwar1 masterpw\nSET DEADLINE 2026-03-29 02:30")
    assert "Line 2: SET DEADLINE 2026-03-29 02:30" in mails[0].body  # inside the DST gap


def test_the_master_sets_the_deadline_and_everyone_is_told(judge: Judge) -> None:
    players = judge.start_game()
    mails = judge.send("gm@example.org", "SIGNON Mwar1 masterpw\nSET DEADLINE 2026-12-01 23:30")
    assert _deadline(judge) == datetime(2026, 12, 1, 23, 30, tzinfo=UTC)
    assert (
        "  The deadline for war1 is now Tuesday 1 December 2026 23:30 UTC. Everyone is told."
        in (mails[0].body)
    )
    notices = [m for m in mails if "the deadline is now" in m.subject]
    assert sorted(a for m in notices for a in m.to) == sorted(["gm@example.org", *players.values()])
    assert all(len(m.to) == 1 for m in notices)


def test_master_settings_are_echoed(judge: Judge) -> None:
    judge.start_game()
    body = judge.send(
        "gm@example.org",
        "SIGNON Mwar1 masterpw\nSET MOVE LENGTH 72h\nSET GRACE 12h\nSET DAYS Mon-Fri\nSET NONMR",
    )[0].body
    assert "  war1: move length is now 3 days.\n" in body
    assert "  war1: grace is now 12 hours.\n" in body
    assert "  war1: days is now Monday, Tuesday, Wednesday, Thursday, Friday.\n" in body
    assert "  war1: nonmr is now wait for you.\n" in body
    settings = judge.game().settings
    assert (
        settings.move_hours,
        settings.grace_hours,
        settings.weekdays,
        settings.nmr,
    ) == (
        72.0,
        12.0,
        (0, 1, 2, 3, 4),
        False,
    )


def test_timers_follow_the_store(judge: Judge) -> None:
    judge.start_game()
    deadline = _deadline(judge)
    events = sorted(schedule.next_events(judge.db).values())
    assert events == [deadline - timedelta(hours=24), deadline, deadline + timedelta(hours=24)]
    woken: list[int] = []
    # APScheduler's wall clock, given: far enough ahead that no job fires during the test.
    wall = datetime(2099, 1, 1, tzinfo=UTC)
    timers = schedule.Timers(lambda: woken.append(1), lambda: judge.now, lambda: wall)
    timers.start()
    try:
        timers.sync(schedule.next_events(judge.db))
        assert timers.pending() == events
        # Each job fires as far ahead of the wall clock as its event lies ahead of the
        # judge's clock, whatever the two read.
        runs = sorted(job.next_run_time for job in timers.scheduler.get_jobs())
        assert runs == [wall + (moment - judge.now) for moment in events]
        assert woken == []
        timers.sync({})
        assert timers.pending() == []
    finally:
        timers.stop()
    assert games.active_games(judge.db)[0].name == "war1"


def test_a_player_has_three_absences_pending_at_most(judge: Judge) -> None:
    # njudge's rule. Without it, one mail of 52 absences, each pushing the deadline by the
    # game's most, moved it a year and told every seat 52 times.
    players = judge.start_game()
    deadline = _deadline(judge)
    lines = []
    for week in range(5):
        ends = deadline + timedelta(days=7 * (week + 1))
        lines.append(f"SET ABSENCE now TO {ends.strftime('%Y-%m-%d %H:%M')}")
    mails = judge.send(players["F"], "SIGNON Fwar1 pw2\n" + "\n".join(lines))
    refused = (
        "  ERROR: You have 3 absences pending already, the most a player may have;\n"
        "  another may be set once one has ended.\n"
    )
    assert mails[0].body.count(refused) == 2, mails[0].body
    assert _deadline(judge) == deadline + timedelta(days=21)
    notices = [s for s in _subjects(mails) if "the deadline is now" in s]
    assert len(notices) == 3 * 8  # three moves, each told to the 7 players and the master
    # Once the first has ended, one more may be set, and no other.
    judge.now = deadline + timedelta(days=7, minutes=1)
    later = (judge.now + timedelta(days=1)).strftime("%Y-%m-%d %H:%M")
    [ack, *_] = judge.send(players["F"], f"SIGNON Fwar1 pw2\nSET ABSENCE now TO {later}")
    assert "ERROR" not in ack.body
    [ack, *_] = judge.send(players["F"], f"SIGNON Fwar1 pw2\nSET ABSENCE now TO {later}")
    assert refused in ack.body


def test_set_noabsence_cancels_the_absence_that_includes_the_date(judge: Judge) -> None:
    # njudge's SET NOABSENCE: the place the absence took is free again (three at most).
    # A date alone is read as 23:59 that day.
    players = judge.start_game()
    deadline = _deadline(judge)
    day = timedelta(days=1)
    sign_on = "SIGNON Fwar1 pw2\n"
    absences = [
        f"SET ABSENCE {(deadline + n * 10 * day).strftime('%Y-%m-%d')} TO "
        f"{(deadline + (n * 10 + 2) * day).strftime('%Y-%m-%d')}"
        for n in range(1, 4)
    ]
    judge.send(players["F"], sign_on + "\n".join(absences))
    second = (deadline + 21 * day).strftime("%Y-%m-%d")
    [ack, *_] = judge.send(players["F"], f"{sign_on}SET NO ABSENCE {second}\n{absences[1]}")
    starts = (deadline + 20 * day).strftime("%A %-d %B %Y")
    ends = (deadline + 22 * day).strftime("%A %-d %B %Y")
    assert (
        f"Line 2: SET NO ABSENCE {second}\n"
        f"  Your absence from {starts} 23:59 UTC to {ends} 23:59 UTC is cancelled for war1. A"
        " deadline it moved stays where it is.\n"
        f"Line 3: {absences[1]}\n"
        f"  Your absence from {starts} 23:59 UTC to {ends} 23:59 UTC is noted for war1.\n"
    ) in ack.body
    [ack, *_] = judge.send(players["F"], f"{sign_on}SET NOABSENCE {(deadline + 5 * day).date()}")
    assert (
        "  ERROR: None of your absences still to come includes "
        f"{(deadline + 5 * day).strftime('%A %-d %B')}\n"
        f"  {(deadline + 5 * day).year} 23:59 UTC.\n"
    ) in ack.body
    # Another player's absence is not theirs to cancel.
    [ack, *_] = judge.send(players["G"], f"SIGNON Gwar1 pw3\nSET NOABSENCE {second}")
    assert "  ERROR: None of your absences still to come includes" in ack.body
    rows = judge.db.execute("SELECT COUNT(*) FROM absences").fetchone()
    assert rows == (3,)


def test_a_phase_processed_on_the_pass_that_finds_it_late_sends_no_late_notice(
    judge: Judge,
) -> None:
    # The judge was down from before the deadline to after its grace: the late notices
    # would ask Turkey for orders the phase, processed on the same pass, no longer takes.
    players = judge.start_game()
    _order(judge, players, "AEFGIR")
    mails = judge.at(_deadline(judge) + timedelta(hours=24))
    assert _subjects(mails) == [
        *["TEST:war1 - S1901M Results"] * 8,
        "TEST:war1 - F1901M Abandoned: Turkey",  # to Turkey's player
        *["TEST:war1 - F1901M Abandoned: T"] * 7,
    ]
    assert "In civil disorder (no orders received): Turkey.\n" in mails[0].body
    assert judge.game().phase == "F1901M"

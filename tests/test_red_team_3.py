"""The red team's third round: the state the daemon works from and the machine it runs
on. A game's row damaged on disk (a disk fault, an operator's hand edit), its map gone,
the outbox or the database refusing writes, the clock jumping, a master's hostile
arguments. Each test asserts what the judge must still promise: the daemon goes on with
every other game, nothing accepted is lost, each mail is answered once, and a broken game
is not tried again and again.
"""

from __future__ import annotations

import errno
import logging
import os
import shutil
import signal
import sqlite3
import threading
import time
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from cli_harness import run, write_config
from judge_harness import Judge
from live_judge import judge_toml, send, start_judge, wait_until
from smtp_sink import free_port
from test_game_failures import _two_games
from test_red_team import no_password_shown  # noqa: F401  (autouse: no password shown)

from judge.game import pictures, play
from judge.mail import outbox as outbox_sender
from judge.service import daemon, schedule
from judge.service.handling import handle_waiting
from judge.store import games, inbox, outbox
from judge.store.db import open_db

pytestmark = pytest.mark.usefixtures("fresh_password_cache")

MASTER = "gm@example.org"


def _damage(judge: Judge, column: str, text: str, name: str = "war1") -> None:
    """Write `text` into a column of the game's row, as a disk fault or a hand edit."""
    judge.db.execute(f"UPDATE games SET {column} = ? WHERE name = ?", [text, name])
    judge.db.conn.commit()


# -- a damaged game among healthy ones ------------------------------------------------------


@pytest.mark.parametrize(
    ("column", "text"),
    [
        ("settings", "{not json"),
        ("settings", "[1, 2]"),
        ("settings", '{"nmr": "yes"}'),
        ("proxies", "{not json"),
        ("result", "[]"),
    ],
)
def test_a_game_whose_row_does_not_read_is_paused_and_the_others_go_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, column: str, text: str
) -> None:
    """war1's row damaged: at the deadline war2 is processed all the same; war1 is paused,
    its master told, and it is not looked at again on the next passes."""
    judge = Judge(tmp_path)
    deadline = _two_games(judge)
    _damage(judge, column, text)
    with caplog.at_level(logging.ERROR, logger="judge.service.schedule"):
        mails = judge.at(deadline + timedelta(hours=24))
        for hours in range(25, 30):  # later passes: war1 is not tried again
            judge.at(deadline + timedelta(hours=hours))
    assert judge.db.execute("SELECT state, phase FROM games ORDER BY id").fetchall() == [
        ("paused", "S1901M"),
        ("active", "F1901M"),
    ]
    assert "TEST:war2 - S1901M Results" in [m.subject for m in mails]
    [notice] = [m for m in mails if "war1" in m.subject]
    assert (notice.to, notice.subject) == (
        [MASTER],
        "TEST:war1 - S1901M paused after an error of the judge's own",
    )
    raised = [r for r in caplog.records if r.getMessage().startswith("game war1, phase S1901M")]
    assert len(raised) == 1


def test_a_forming_game_whose_row_does_not_read_is_not_tried_on_every_pass(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A forming game is not paused; it is left alone until it changes, not tried (and
    its error logged) on every pass of the daemon. A change tries it once more."""
    judge = Judge(tmp_path)
    judge.send(MASTER, "CREATE ?war3 masterpw")
    _damage(judge, "settings", "{not json", "war3")
    with caplog.at_level(logging.ERROR, logger="judge.service.schedule"):
        for minutes in range(10):
            judge.at(judge.now + timedelta(minutes=minutes))
        assert len([r for r in caplog.records if "processing raised" in r.getMessage()]) == 1
        _damage(judge, "settings", "{}", "war3")  # the operator puts it right
        judge.at(judge.now + timedelta(minutes=11))
        judge.at(judge.now + timedelta(minutes=12))
    assert len([r for r in caplog.records if "processing raised" in r.getMessage()]) == 1
    assert judge.db.execute("SELECT state FROM games").fetchall() == [("forming",)]


def test_list_and_judge_games_go_on_past_a_game_whose_row_does_not_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """LIST read every game's settings: one damaged row failed it for every sender (three
    attempts, then an internal error). The damaged game is left out of LIST, and the
    operator's `judge games` shows it as damaged."""
    judge = Judge(tmp_path)
    _two_games(judge)
    _damage(judge, "settings", "{not json")
    [reply] = judge.send("x@example.org", "LIST")
    games_listed = reply.body.split("Variants for CREATE", 1)[0]
    assert games_listed == (
        "Line 1: LIST\n"
        "  Games on this judge:\n"
        "    war2         active    Movement, Spring of 1901\n  "
    )
    path = write_config(tmp_path, "")
    status, out, _ = run(capsys, "--config", str(path), "games")
    assert status == 0
    assert out[1].split() == [
        "war1",
        "standard",
        "active",
        "S1901M",
        "(its",
        "row",
        "does",
        "not",
        "read)",
        "?",
    ]
    assert out[2].split()[:4] == ["war2", "standard", "active", "S1901M"]


def test_a_player_mailing_a_game_whose_row_does_not_read_is_answered_at_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The mail raised, was tried three times over six minutes, then answered with an
    internal error saying to send it again later (which failed the same way), and the
    master heard nothing until the deadline. Now the line is refused at once and said
    why, the game paused and its master told, and the rest of the mail is answered."""
    judge = Judge(tmp_path)
    players = judge.start_game("war1")
    judge.start_game("war2")
    _damage(judge, "settings", "{not json")
    with caplog.at_level(logging.ERROR, logger="judge.dispatch"):
        mails = judge.send(players["F"], "SIGNON Fwar2 pw2\nA Mar H\nSIGNON Fwar1 pw2\nA Par H")
    [(state, attempts)] = judge.db.execute(
        "SELECT state, attempts FROM inbound ORDER BY id DESC LIMIT 1"
    ).fetchall()
    assert (state, attempts) == ("handled", 0)
    [ack, notice] = mails
    assert ack.to == [players["F"]]
    assert ack.body == (
        "Line 1: SIGNON Fwar2 ****\n"
        "  Signed on to war2 as France.\n"
        "\n"
        "France in war2, Movement for Spring of 1901:\n"
        "  A MAR H\n"
        "  Orders on file now:\n"
        "    Army Marseilles HOLD\n"
        "  Still without orders: Army Paris, Fleet Brest.\n"
        "  WAIT is not set. Deadline: Monday 23 November 2026 12:16 UTC.\n"
        "Line 3: SIGNON Fwar1 ****\n"
        "  ERROR: war1 cannot be read from the judge's store (a fault on its disk or a\n"
        "  hand edit): the game is paused, and its master and the judge's keeper are\n"
        "  told. Nothing of this is stored.\n"
        "Line 4: A Par H\n"
        "  ERROR: this line needs a SIGNON line before it\n"
        "  (SIGNON Xgame password, X your power's initial).\n"
    )
    assert judge.effective("war2", "FRANCE") == ["A MAR H"]  # the block before it stays
    assert (notice.to, notice.subject) == (
        [MASTER],
        "TEST:war1 - S1901M paused after an error of the judge's own",
    )
    assert "UnreadableGame: the stored row of game war1 does not read" in notice.body
    assert "game war1 does not read" in caplog.text
    assert judge.db.execute("SELECT state FROM games ORDER BY id").fetchall() == [
        ("paused",),
        ("active",),
    ]


def test_orders_for_a_game_whose_position_does_not_read_are_refused_at_once(
    tmp_path: Path,
) -> None:
    """The phase's stored position damaged (a unit in a province the map has not): the
    orders are checked against it as the block closes; that raised, and the mail was
    tried three times, then answered with an internal error. Now it is answered at once
    and the game paused, its master told."""
    judge = Judge(tmp_path)
    players = judge.start_game("war1")
    judge.db.execute("UPDATE phases SET position = replace(position, '\"A PAR\"', '\"A XYZ\"')")
    judge.db.conn.commit()
    [ack, notice] = judge.send(players["F"], "SIGNON Fwar1 pw2\nA Par H")
    assert ack.body == (
        "Line 1: SIGNON Fwar1 ****\n"
        "  Signed on to war1 as France.\n"
        "  ERROR: war1 cannot be read from the judge's store (a fault on its disk or a\n"
        "  hand edit): the game is paused, and its master and the judge's keeper are\n"
        "  told. Nothing of this is stored.\n"
    )
    assert notice.to == [MASTER]
    assert "unknown province in unit 'A XYZ'" in notice.body
    assert judge.game().state == "paused"
    assert judge.db.execute("SELECT COUNT(*) FROM order_sets").fetchone() == (0,)


def test_a_game_whose_map_is_gone_is_paused_at_its_deadline_and_the_others_go_on(
    tmp_path: Path,
) -> None:
    """war1's map no longer among the maps (its file removed from the operator's folder,
    the judge restarted): at the deadline war1 is paused, its master told, and war2 is
    processed all the same."""
    judge = Judge(tmp_path)
    deadline = _two_games(judge)
    _damage(judge, "variant", "removed_map")
    mails = judge.at(deadline + timedelta(hours=24))
    assert judge.db.execute("SELECT state, phase FROM games ORDER BY id").fetchall() == [
        ("paused", "S1901M"),
        ("active", "F1901M"),
    ]
    [notice] = [m for m in mails if "war1" in m.subject]
    assert notice.to == [MASTER]
    assert "MapError: unknown map 'removed_map'" in notice.body


# -- faults of the machine ------------------------------------------------------------------


@pytest.mark.parametrize(
    "fault",
    [
        "database or disk is full",
        "attempt to write a readonly database",
        "disk I/O error",
        "database is locked",
    ],
)
def test_a_machine_fault_while_a_game_is_processed_does_not_pause_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fault: str
) -> None:
    """The disk full, the database made read-only or failing under a deadline: a fault of
    the machine, not of the game. The game is tried again on the next pass (and processed
    once the fault clears), not paused with its master told of an error of the judge's
    own (every game due at that moment was paused, each to be resumed by hand)."""
    judge = Judge(tmp_path)
    deadline = _two_games(judge)
    real = play.process_phase

    def process_phase(db, config, game, now):
        raise sqlite3.OperationalError(fault)

    monkeypatch.setattr(play, "process_phase", process_phase)
    judge.at(deadline)
    mails = judge.at(deadline + timedelta(hours=24))
    assert not [m for m in mails if "paused" in m.subject]
    assert judge.db.execute("SELECT state, phase FROM games ORDER BY id").fetchall() == [
        ("active", "S1901M"),
        ("active", "S1901M"),
    ]
    monkeypatch.setattr(play, "process_phase", real)  # the fault cleared
    mails = judge.at(deadline + timedelta(hours=24, minutes=1))
    assert sorted({m.subject for m in mails if m.subject.endswith("Results")}) == [
        "TEST:war1 - S1901M Results",
        "TEST:war2 - S1901M Results",
    ]


def test_a_mail_met_by_a_machine_fault_for_an_hour_is_kept_and_answered_once_it_clears(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The disk full (or the database read-only) while a player's orders are handled, for
    longer than the three attempts' few minutes: the mail was set aside as failed and
    its sender told of an internal error, its orders lost. It waits instead, tried again
    each minute (its attempts at a fault of the machine not counted), and is handled and
    answered once when the fault clears."""
    judge = Judge(tmp_path)
    players = judge.start_game()
    calls = []

    def full(sub, ctx):
        calls.append(ctx.now)
        raise sqlite3.OperationalError("database or disk is full")

    raw = (
        f"From: {players['F']}\r\nTo: judge@example.org\r\nSubject: orders\r\n"
        "Message-ID: <full@example.org>\r\n\r\nSIGNON Fwar1 pw2\r\nA Par H\r\n"
        "A Mar H\r\nF Bre H\r\n"
    ).encode()
    inbox.ingest(judge.db, raw, "smtp", judge.now)
    start = judge.now
    for second in range(0, 3600, 20):  # a pass every 20 s for an hour
        judge.now = start + timedelta(seconds=second)
        handle_waiting(judge.db, judge.config, lambda: judge.now, dispatcher=full)
    assert len(calls) == 60  # one attempt a minute
    [(state, attempts)] = judge.db.execute(
        "SELECT state, attempts FROM inbound ORDER BY id DESC LIMIT 1"
    ).fetchall()
    assert (state, attempts) == ("new", 0)
    judge.now = start + timedelta(minutes=61)  # the fault cleared
    before = judge._last()
    handle_waiting(judge.db, judge.config, lambda: judge.now)
    [ack] = judge._since(before)
    assert ack.to == [players["F"]] and "ERROR" not in ack.body
    assert judge.effective("war1", "FRANCE") == ["A PAR H", "A MAR H", "F BRE H"]


def test_an_outbox_on_a_full_disk_for_two_days_loses_no_mail(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Maildir's disk full (ENOSPC at the one write) for two days: each try failed
    counted, and after 30 (about a day) the mail was given up. A fault of the machine is
    not counted: the mail is tried again each minute and written once the disk has room."""
    judge = Judge(tmp_path)
    [ack] = judge.send("x@example.org", "HELP")
    delivery = outbox_sender.MaildirDelivery(tmp_path / "delivered")
    real = os.fsync
    tries = []

    def no_room(fd: int) -> None:
        tries.append(judge.now)
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", no_room)
    start = judge.now
    for minutes in range(0, 2 * 24 * 60, 10):
        judge.now = start + timedelta(minutes=minutes)
        assert (
            outbox_sender.drain(
                judge.db, delivery, lambda: judge.now, attach_picture=pictures.finish
            )
            == 0
        )
    assert len(tries) == 2 * 24 * 6  # each pass, as each is a minute after the last try
    [(state, attempts)] = judge.db.execute("SELECT state, attempts FROM outbound").fetchall()
    assert (state, attempts) == ("queued", 0)
    monkeypatch.setattr(os, "fsync", real)  # room again
    judge.now = start + timedelta(days=2, minutes=1)
    sent = outbox_sender.drain(
        judge.db, delivery, lambda: judge.now, attach_picture=pictures.finish
    )
    assert sent == 1
    assert judge.db.execute("SELECT state FROM outbound").fetchall() == [("sent",)]
    [written] = (tmp_path / "delivered" / "new").iterdir()
    assert ack.message_id is not None and ack.message_id in written.read_text()


# -- the real daemon: a damaged game, a locked database ---------------------------------------


def _cpu_seconds(pid: int) -> float:
    """The CPU time the process has used so far (user and system), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _column(path: Path, sql: str) -> list[tuple[object, ...]]:
    db = open_db(path)
    try:
        return db.execute(sql).fetchall()
    finally:
        db.conn.close()


def test_the_daemon_goes_on_past_a_damaged_game_and_a_database_locked_for_seconds(
    tmp_path: Path,
) -> None:
    """`judge run` on a store where war1's settings do not read and both games' grace
    ended long ago: war2 is processed, war1 paused once (its error logged once, however
    many passes follow), its master told. Then another process holds the database
    locked for four seconds while a player mails: the mail is stored and answered once
    the lock is gone, and the daemon lives on."""
    judge = Judge(tmp_path, database=tmp_path / "judge.db")
    _two_games(judge)
    for name in ("war1", "war2"):
        games.update_game(
            judge.db, judge.game(name), judge.now, deadline="2001-01-01T00:00:00+00:00"
        )
    judge.db.conn.commit()
    _damage(judge, "settings", "{not json")
    judge.db.conn.close()
    port, log_path = free_port(), tmp_path / "daemon.log"
    with log_path.open("wb") as log:
        proc = start_judge(judge_toml(tmp_path, "TEST", port), port, log=log, cwd=tmp_path)
        try:
            states = "SELECT state, phase FROM games ORDER BY id"
            assert wait_until(
                lambda: (
                    _column(tmp_path / "judge.db", states)
                    == [("paused", "S1901M"), ("active", "F1901M")]
                ),
                timeout=30,
            ), log_path.read_text()
            before = _cpu_seconds(proc.pid)
            time.sleep(2)  # passes go by: war1 is not tried again
            idle = _cpu_seconds(proc.pid) - before
            locker = sqlite3.connect(tmp_path / "judge.db", timeout=0, isolation_level=None)
            locker.execute("BEGIN EXCLUSIVE")
            sent_at = time.monotonic()
            mail = threading.Thread(
                target=send,
                args=(
                    port,
                    b"From: x@example.org\r\nSubject: hi\r\nMessage-ID: <lk@x>\r\n\r\nHELP\r\n",
                ),
                kwargs={"timeout": 60},
            )
            mail.start()
            time.sleep(4)
            locker.execute("ROLLBACK")
            locker.close()
            mail.join(timeout=60)
            answered = "SELECT state FROM inbound WHERE message_id = '<lk@x>'"
            assert wait_until(
                lambda: _column(tmp_path / "judge.db", answered) == [("handled",)], 40
            )
            waited_for = time.monotonic() - sent_at
            assert proc.poll() is None
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=20)
    text = log_path.read_text(errors="replace")
    assert text.count("game war1, phase S1901M: processing raised") == 1, text
    assert "game war1 paused after the error; told: gm@example.org" in text
    print(
        f"CPU idle for 2 s: {idle:.2f} s; the mail under the lock answered after {waited_for:.1f} s"
    )


def test_a_queued_mail_whose_row_does_not_read_is_set_aside_and_the_rest_are_sent(
    tmp_path: Path,
) -> None:
    """A queued mail's recipients damaged on disk: reading the queue raised, so every
    pass of the daemon failed before it sent anything, and no one got mail again. The
    damaged mail is set aside as failed (the operator's `judge outbox` shows it), the
    others sent."""
    judge = Judge(tmp_path)
    judge.send("x@example.org", "HELP")
    [second] = judge.send("y@example.org", "HELP")
    judge.db.execute("UPDATE outbound SET recipients = '[\"x@exa' WHERE id = 1")
    judge.db.conn.commit()
    delivered = judge.deliver()
    assert [m["Message-ID"] for m in delivered] == [second.message_id]
    [(state, error)] = judge.db.execute(
        "SELECT state, last_error FROM outbound WHERE id = 1"
    ).fetchall()
    assert state == "failed"
    assert error.startswith("its recipients do not read: ")
    assert [m.recipients for m in outbox.unsent(judge.db)] == [("'[\"x@exa'",)]


# -- the clock ------------------------------------------------------------------------------


def test_the_clock_jumping_back_a_day_after_a_deadline_processes_nothing_twice(
    tmp_path: Path,
) -> None:
    """The wall clock set back a day just after a phase was processed (NTP, an operator):
    the passes that follow find nothing due, the phase is not processed again, and the
    next phase's deadline stands, met once when the clock reaches it."""
    judge = Judge(tmp_path)
    judge.start_game()
    deadline = datetime.fromisoformat(judge.game().deadline or "")
    after_grace = deadline + timedelta(hours=24)
    assert "TEST:war1 - S1901M Results" in {m.subject for m in judge.at(after_grace)}
    fall = judge.game()
    for back in (timedelta(days=1), timedelta(hours=12), timedelta(minutes=1)):
        assert judge.at(after_grace - back) == []
    assert judge.game() == fall
    assert judge.db.execute("SELECT COUNT(*) FROM phases").fetchone() == (2,)
    next_deadline = datetime.fromisoformat(fall.deadline or "")
    late = judge.at(next_deadline)
    assert {m.subject.split(" Late Notice")[0] for m in late} == {"TEST:war1 - F1901M"}


# -- a master's hostile arguments -----------------------------------------------------------


def test_the_last_master_cannot_leave_and_an_ended_games_name_is_not_taken_again(
    tmp_path: Path,
) -> None:
    """The only master RESIGNs, EJECTs a power twice and one that is not there, then ends
    the game; CREATE with its name afterwards. Each line gets its clear answer, the game
    keeps its master, and the ended game's name stays its own."""
    judge = Judge(tmp_path)
    judge.start_game()
    signon = "SIGNON Mwar1 masterpw\n"
    [ack, *_] = judge.send(MASTER, signon + "RESIGN\nEJECT F\nEJECT F\nEJECT " + "Z" * 300)
    assert ack.body.startswith(
        "Line 1: SIGNON Mwar1 ****\n"
        "  Signed on to war1 as master.\n"
        "Line 2: RESIGN\n"
        "  ERROR: this cannot be done in war1 now.\n"
        "Line 3: EJECT F\n"
        "  France is ejected from war1 and in civil disorder until replaced.\n"
        "Line 4: EJECT F\n"
        "  ERROR: No one plays F in war1.\n"
        "Line 5: EJECT " + "Z" * 300 + "\n"
        "  ERROR: No one plays\n  " + "Z" * 300 + "\n  in war1.\n"
    )
    masters = "SELECT address FROM seats WHERE role = 'master' AND left_at IS NULL"
    assert judge.db.execute(masters).fetchall() == [(MASTER,)]
    judge.send(MASTER, signon + "TERMINATE")
    [reply] = judge.send("other@example.org", "CREATE ?war1 otherpw")
    assert reply.body == (
        "Line 1: CREATE ?war1 ****\n"
        "  ERROR: there is already a game called war1; choose another name.\n"
    )
    assert judge.db.execute("SELECT name, state FROM games").fetchall() == [("war1", "finished")]


def test_an_outbox_folder_removed_under_the_daemon_is_made_again(tmp_path: Path) -> None:
    """The Maildir's folders removed while the judge runs (an operator's cleanup, a
    remount): each mail failed (ENOENT), counted, and was given up after 30 tries. The
    folders are made again and the mail written."""
    judge = Judge(tmp_path)
    [ack] = judge.send("x@example.org", "HELP")
    path = tmp_path / "delivered"
    delivery = outbox_sender.MaildirDelivery(path)
    shutil.rmtree(path)
    sent = outbox_sender.drain(
        judge.db, delivery, lambda: judge.now, attach_picture=pictures.finish
    )
    assert sent == 1
    [written] = (path / "new").iterdir()
    assert ack.message_id is not None and ack.message_id in written.read_text()


def test_a_damaged_next_event_does_not_stop_the_timers(tmp_path: Path) -> None:
    """A game's next_event_at overwritten with text: reading the earliest moment raised
    after every pass, so the loop backed off (up to a minute between passes) and every
    game and mail waited. The damaged value is passed over; the other games' moments
    stand."""
    judge = Judge(tmp_path)
    _two_games(judge)
    judge.at(judge.now)  # both looked at: their next moments kept
    kept = schedule.next_wake(judge.db)
    judge.db.execute("UPDATE games SET next_event_at = 'abc' WHERE name = 'war1'")
    judge.db.conn.commit()
    assert schedule.next_wake(judge.db) == kept  # war2's is the same moment
    judge.db.execute("UPDATE games SET next_event_at = x'00' WHERE name = 'war2'")
    judge.db.conn.commit()
    assert schedule.next_wake(judge.db) == {}


def test_a_damaged_retry_time_in_the_outbox_does_not_slow_the_loop(tmp_path: Path) -> None:
    """A queued mail's next_attempt_at overwritten with text: the loop's sleep read it
    after every pass and raised, so the loop backed off up to a minute between passes.
    The loop sleeps its usual longest instead."""
    judge = Judge(tmp_path)
    judge.send("x@example.org", "HELP")
    judge.db.execute("UPDATE outbound SET next_attempt_at = 'zz'")
    judge.db.conn.commit()
    assert daemon._seconds_until_next_send(judge.db, lambda: judge.now) == 30.0


def test_a_machine_fault_ends_the_pass_with_one_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Each game due was processed, rolled back and warned of on every pass while the
    disk stayed full: with a thousand due, a core busy and the log filled. The first
    game to meet the fault ends the pass; the others wait for the next."""
    judge = Judge(tmp_path)
    deadline = _two_games(judge)
    tried: list[str] = []

    def process_phase(db, config, game, now):
        tried.append(game.name)
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(play, "process_phase", process_phase)
    judge.now = deadline + timedelta(hours=24)
    caplog.set_level(logging.WARNING, logger="judge.service.schedule")
    caplog.clear()
    schedule.run_due(judge.db, judge.config, lambda: judge.now)
    assert tried == ["war1"]
    said = [r for r in caplog.records if r.name == "judge.service.schedule"]
    assert [r.getMessage() for r in said] == [
        "game war1: database or disk is full; the games due wait for the next pass"
    ]

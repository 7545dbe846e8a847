"""Old mail forgotten (judge/store/retention.py): the text of mail handled or sent more
than MAIL_KEPT_DAYS ago, and the pictures drawn before then, in a real store on disk,
through the judge's handling path and the daemon's pass."""

from __future__ import annotations

import logging
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from cli_harness import run, write_config
from judge_harness import HOLDS, Judge

from judge.config import load_config
from judge.mail.outbox import MaildirDelivery
from judge.service import daemon
from judge.service.daemon import one_pass
from judge.store import inbox, outbox, retention
from judge.store.db import open_db

DAYS = retention.MAIL_KEPT_DAYS
PASSWORD = b"Zanzibar-4711"


def _kept(judge: Judge, table: str) -> dict[int, bool]:
    """Each row's id: whether its text is kept."""
    rows = judge.db.execute(f"SELECT id, length(raw) > 0 FROM {table} ORDER BY id")
    return {row_id: bool(kept) for row_id, kept in rows}


def _pictures(judge: Judge) -> list[int]:
    return [row[0] for row in judge.db.execute("SELECT id FROM pictures ORDER BY id")]


def test_mail_older_than_the_days_kept_is_forgotten_and_the_rest_kept(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    players = judge.start_game()  # 8 mails in, 8 answers and 8 start mails out
    judge.deliver()
    sent_at = judge.now
    old_in, old_out, old_pictures = (
        _kept(judge, "inbound"),
        _kept(judge, "outbound"),
        _pictures(judge),
    )
    assert old_pictures == [1]  # the start mails' board
    # A mail that failed, older still than the days kept: the operator's to look at.
    failed_in = inbox.ingest(judge.db, b"From: x@example.org\r\n\r\nbroken\r\n", "smtp", judge.now)
    assert failed_in is not None
    inbox.give_up(judge.db, failed_in, judge.now, "a fault")
    # Mail a day short of the days kept: all of it stays.
    judge.now += timedelta(days=DAYS - 1)
    judge.send(players["F"], f"SIGNON Fwar1 pw2\n{HOLDS['F']}")
    judge.deliver()
    new_in = set(_kept(judge, "inbound")) - set(old_in) - {failed_in}
    new_out = set(_kept(judge, "outbound")) - set(old_out)
    assert len(new_in) == 1 and len(new_out) == 1

    forgotten = retention.forget_old_mail(judge.db, sent_at + timedelta(days=DAYS, minutes=1))
    assert forgotten == retention.Forgotten(inbound=8, outbound=16, pictures=1)
    assert retention.forget_old_mail(judge.db, sent_at + timedelta(days=DAYS, minutes=1)) == (
        retention.Forgotten()
    )
    assert _kept(judge, "inbound") == {
        **{i: False for i in old_in},
        failed_in: True,
        **{i: True for i in new_in},
    }
    assert _kept(judge, "outbound") == {
        **{i: False for i in old_out},
        **{i: True for i in new_out},
    }
    assert _pictures(judge) == []
    # The rows stay: the same mail coming again is known, and not handled twice.
    first = judge.db.execute("SELECT state, size FROM inbound WHERE id = 1").fetchone()
    assert first[0] == "handled" and first[1] > 0
    again = (
        b"From: gm@example.org\r\nTo: judge@example.org\r\nSubject: orders\r\n"
        b"Message-ID: <1@example.org>\r\n\r\nCREATE ?war1 masterpw\r\n"
    )
    assert inbox.ingest(judge.db, again, "smtp", judge.now) is None


def test_nothing_is_forgotten_while_a_mail_waits_to_be_sent(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    players = judge.start_game()
    judge.deliver()
    judge.now += timedelta(days=DAYS + 1)
    judge.send(players["F"], f"SIGNON Fwar1 pw2\n{HOLDS['F']}")  # its answer queued
    before = (_kept(judge, "inbound"), _kept(judge, "outbound"), _pictures(judge))
    assert retention.forget_old_mail(judge.db, judge.now) == retention.Forgotten()
    assert (_kept(judge, "inbound"), _kept(judge, "outbound"), _pictures(judge)) == before
    judge.deliver()
    # The game's first mails; not the one just answered, nor its answer.
    assert retention.forget_old_mail(judge.db, judge.now) == retention.Forgotten(8, 16, 1)


def test_a_slice_at_a_time(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.start_game()
    judge.deliver()
    later = judge.now + timedelta(days=DAYS + 1)
    assert retention.forget_old_mail(judge.db, later, limit=5) == retention.Forgotten(5, 5, 1)
    assert retention.forget_old_mail(judge.db, later, limit=5) == retention.Forgotten(3, 5, 0)
    assert list(_kept(judge, "outbound").values()).count(True) == 6


def _files_holding(folder: Path, secret: bytes) -> dict[str, int]:
    """The database's files (and its write-ahead log) that hold `secret`: how often."""
    found = {p.name: p.read_bytes().count(secret) for p in sorted(folder.glob("j.db*"))}
    return {name: n for name, n in found.items() if n}


def test_a_password_mailed_is_gone_from_the_database_files_after_the_days_kept(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    judge = Judge(tmp_path)
    players = judge.start_game()
    judge.send(players["F"], f"SIGNON Fwar1 pw2\nSET PASSWORD {PASSWORD.decode()}")
    padding = "\n".join(["A line that makes the mail longer than a page of the store."] * 80)
    judge.send(players["F"], f"SIGNON Fwar1 {PASSWORD.decode()}\n{HOLDS['F']}\n{padding}")
    for _ in range(20):  # more mail after it, and the log copied into the database
        judge.send(players["E"], f"SIGNON Ewar1 pw1\n{HOLDS['E']}")
    judge.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    delivery = MaildirDelivery(tmp_path / "delivered")
    later = judge.now + timedelta(days=DAYS, hours=1)
    one_pass(judge.db, judge.config, lambda: judge.now, delivery, lambda: False)
    assert _files_holding(tmp_path, PASSWORD) == {"j.db": 2}  # the two mails, as they came
    caplog.set_level(logging.INFO, logger="judge")
    # The daemon's pass at the clock two weeks on: the games' deadlines are processed
    # and their mail sent, then the old mail forgotten, a slice a pass.
    while one_pass(judge.db, judge.config, lambda: later, delivery, lambda: False):
        pass
    one_pass(judge.db, judge.config, lambda: later, delivery, lambda: False)
    assert _files_holding(tmp_path, PASSWORD) == {}
    assert [r.getMessage() for r in caplog.records if "forgot" in r.getMessage()] == [
        f"forgot the text of 30 inbound and 38 outbound mails and 1 pictures, "
        f"older than {DAYS} days"
    ]
    assert outbox.counts(judge.db) == {"sent": 38 + 16}  # and the phase processed since


def test_a_fault_while_forgetting_never_stops_the_pass_and_is_logged_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    judge = Judge(tmp_path)
    players = judge.start_game()
    judge.deliver()

    def disk_full(db: object, now: object) -> retention.Forgotten:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(retention, "forget_old_mail", disk_full)
    monkeypatch.setattr(daemon, "_forget_failed", {})
    caplog.set_level(logging.INFO, logger="judge")
    delivery = MaildirDelivery(tmp_path / "delivered")
    for _ in range(3):
        assert one_pass(judge.db, judge.config, lambda: judge.now, delivery, lambda: False) is False
    # The mail still handled and answered: a player's orders on the next pass.
    judge.now += timedelta(minutes=1)
    raw = (
        f"From: {players['F']}\r\nTo: judge@example.org\r\nSubject: orders\r\n"
        f"Message-ID: <late@example.org>\r\n\r\nSIGNON Fwar1 pw2\r\n{HOLDS['F']}\r\n"
    ).encode()
    inbox.ingest(judge.db, raw, "smtp", judge.now)
    one_pass(judge.db, judge.config, lambda: judge.now, delivery, lambda: False)
    assert outbox.counts(judge.db) == {"sent": 17}
    line = disk_full.__code__.co_firstlineno + 1
    assert [r.getMessage() for r in caplog.records if "forget" in r.getMessage()] == [
        "could not forget old mail (tried again on each idle pass): "
        f"OperationalError: database or disk is full (at test_retention.py:{line} in disk_full)"
    ]


def test_a_run_once_with_its_clock_set_forgets_nothing_and_one_without_it_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`judge run --once --now` may be given a moment ahead of the true one (to see what
    a deadline does): what it forgot could not be had back, so it forgets nothing."""
    path = write_config(
        tmp_path, '[outbound]\nmode = "maildir"\n[outbound.maildir]\npath = "outbox"\n'
    )
    t0 = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)
    db = open_db(tmp_path / "j.db")
    raw = b"From: p1@example.org\r\nSubject: help\r\nMessage-ID: <1@example.org>\r\n\r\nHELP\r\n"
    inbox.ingest(db, raw, "smtp", t0)
    db.conn.close()
    assert (
        run(capsys, "--config", str(path), "run", "--once", "--now", "2026-11-21T12:00:00Z")[0] == 0
    )
    later = t0 + timedelta(days=DAYS + 1)
    assert run(capsys, "--config", str(path), "run", "--once", "--now", later.isoformat())[0] == 0
    db = open_db(tmp_path / "j.db")
    assert db.execute("SELECT length(raw) > 0 FROM inbound").fetchall() == [(1,)]
    assert db.execute("SELECT state, length(raw) > 0 FROM outbound").fetchall() == [("sent", 1)]
    db.conn.close()
    daemon.run_once(load_config(path), daemon.fixed_clock(later))  # the daemon's own clock
    db = open_db(tmp_path / "j.db")
    assert db.execute("SELECT length(raw) > 0 FROM inbound").fetchall() == [(0,)]
    assert db.execute("SELECT state, length(raw) > 0 FROM outbound").fetchall() == [("sent", 0)]


def test_a_failed_mail_keeps_its_text_for_the_operator_then_is_forgotten(
    tmp_path: Path, capsys
) -> None:
    judge = Judge(tmp_path)
    came = judge.now
    raw = b"From: x@example.org\r\nSubject: s\r\n\r\nSIGNON ?war1 " + PASSWORD + b"\r\n"
    failed = inbox.ingest(judge.db, raw, "smtp", came)
    other = inbox.ingest(judge.db, raw.replace(b"x@", b"y@"), "smtp", came + timedelta(days=1))
    assert failed is not None and other is not None
    inbox.give_up(judge.db, failed, came, "a fault")
    inbox.give_up(judge.db, other, came, "a fault")
    kept_days = retention.FAILED_KEPT_DAYS
    # Past the days any handled mail is kept: still kept, the operator's to retry.
    assert retention.forget_old_mail(judge.db, came + timedelta(days=kept_days)) == (
        retention.Forgotten()
    )
    assert _kept(judge, "inbound") == {failed: True, other: True}
    forgotten = retention.forget_old_mail(judge.db, came + timedelta(days=kept_days, hours=1))
    assert forgotten == retention.Forgotten(inbound=1)
    assert _kept(judge, "inbound") == {failed: False, other: True}
    assert judge.db.execute("SELECT state FROM inbound WHERE id = ?", [failed]).fetchone() == (
        "failed",
    )

    path = write_config(tmp_path)
    status, out, _ = run(capsys, "--config", str(path), "inbox")
    assert status == 0
    assert out[2].startswith(f"{failed}   failed") and out[2].endswith("a fault [text forgotten]")
    assert out[3].startswith(f"{other}   failed") and out[3].endswith("a fault")
    forgotten_words = (
        f"forgotten, as every failed mail's is after {kept_days} days (it may hold a password)"
    )
    status, out, err = run(capsys, "--config", str(path), "inbox", "--retry", str(failed))
    assert (status, out, err) == (
        1,
        [],
        f"judge: message {failed}: its text was {forgotten_words}: nothing to handle\n",
    )
    # A mail handled, its text forgotten after 14 days: refused for what it is.
    handled = inbox.ingest(judge.db, raw.replace(b"x@", b"z@"), "smtp", came)
    judge.db.execute("UPDATE inbound SET state = 'handled', raw = X'' WHERE id = ?", [handled])
    status, out, err = run(capsys, "--config", str(path), "inbox", "--retry", str(handled))
    assert (status, err) == (
        1,
        f"judge: message {handled} is handled; only failed mail (or mail waiting for another "
        "attempt) is retried\n",
    )
    status, out, _ = run(capsys, "--config", str(path), "inbox", "--retry", "all")
    assert (status, out) == (
        0,
        [
            f"1 failed message not set back: the text was {forgotten_words}",
            "1 message set back to new; the judge handles it at its next pass",
        ],
    )
    states = judge.db.execute("SELECT id, state FROM inbound ORDER BY id").fetchall()
    assert states == [(failed, "failed"), (other, "new"), (handled, "handled")]

"""A message whose handling raises is retried with back-off, then set aside as failed.

The judge's real handling path (judge.service.handling.handle_waiting on a store on disk) with a
dispatcher that raises for one message: the message is tried three times (at once, one
minute later, five minutes after that), then marked failed with its reason and the sender
told once; the next message is handled all the while; and `judge inbox` lists it and
`--retry` sets it back.
"""

from __future__ import annotations

import email
import json
import os
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from email.policy import default
from pathlib import Path

import pytest
from cli_harness import run, write_config
from judge_harness import Judge

from judge.commands.context import Context
from judge.commands.dispatch import dispatch
from judge.mail.message import Submission
from judge.replies import Reply
from judge.service import handling
from judge.service.handling import handle_waiting
from judge.store import inbox
from judge.store.db import open_db


def _raw(n: int, sender: str, subject: str, body: str) -> bytes:
    return (
        f"From: {sender}\r\nTo: judge@example.org\r\nSubject: {subject}\r\n"
        f"Message-ID: <retry-{n}@example.org>\r\n\r\n{body}\r\n"
    ).encode()


def broken(sub: Submission, ctx: Context) -> list[Reply]:
    """The real dispatcher, except that a mail saying `boom` makes it raise."""
    if "boom" in sub.subject:
        raise RuntimeError("the dispatcher broke")
    return dispatch(sub, ctx)


def _row(j: Judge, inbound_id: int) -> dict:
    return dict(
        zip(
            ("state", "attempts", "next_attempt_at", "error"),
            j.db.execute(
                "SELECT state, attempts, next_attempt_at, error FROM inbound WHERE id = ?",
                [inbound_id],
            ).fetchone(),
            strict=True,
        )
    )


def _sent(j: Judge) -> list[tuple[list[str], str, str]]:
    rows = j.db.execute("SELECT recipients, raw FROM outbound ORDER BY id").fetchall()
    out = []
    for recipients, raw in rows:
        msg = email.message_from_bytes(raw, policy=default)
        body = msg.get_body(("plain",)).get_content().replace("\r\n", "\n")
        out.append((json.loads(recipients), msg["Subject"], body))
    return out


def _handle(j: Judge, at: datetime, dispatcher=broken) -> int:
    j.now = at
    return handle_waiting(j.db, j.config, lambda: j.now, dispatcher)


INTERNAL_ERROR = (
    "\n:: Judge: TEST  \n\n"
    "The TEST judge could not process your mail because of an error of its own.\n"
    "Your mail is kept, and the judge's keeper can see what went wrong.\n"
    "Nothing in it has taken effect; please send it again later.\n"
)


def test_a_raising_message_is_tried_three_times_then_failed_with_one_reply(
    tmp_path: Path,
) -> None:
    j = Judge(tmp_path)
    t0 = j.now
    bad = inbox.ingest(j.db, _raw(1, "p1@example.org", "boom", "HELP"), "smtp", t0)
    good = inbox.ingest(j.db, _raw(2, "p2@example.org", "help", "HELP"), "smtp", t0)
    assert bad and good

    assert _handle(j, t0) == 2
    assert _row(j, bad) == {
        "state": "new",
        "attempts": 1,
        "next_attempt_at": (t0 + timedelta(minutes=1)).isoformat(timespec="microseconds"),
        "error": _row(j, bad)["error"],
    }
    reason = _row(j, bad)["error"]
    assert reason.startswith("RuntimeError: the dispatcher broke (at test_retries.py:")
    assert reason.endswith(" in broken)")
    assert _row(j, good)["state"] == "handled"  # the next message went on
    assert [to for to, _, _ in _sent(j)] == [["p2@example.org"]]

    # Not due yet: nothing is tried (and handle_waiting does not spin on it).
    assert _handle(j, t0 + timedelta(seconds=59)) == 0
    assert _row(j, bad)["attempts"] == 1

    assert _handle(j, t0 + timedelta(minutes=1)) == 1
    assert _row(j, bad)["attempts"] == 2
    assert _row(j, bad)["next_attempt_at"] == (t0 + timedelta(minutes=6)).isoformat(
        timespec="microseconds"
    )
    assert _handle(j, t0 + timedelta(minutes=5, seconds=59)) == 0
    assert len(_sent(j)) == 1  # no reply while it is being retried

    assert _handle(j, t0 + timedelta(minutes=6)) == 1
    row = _row(j, bad)
    assert row == {
        "state": "failed",
        "attempts": 3,
        "next_attempt_at": None,
        "error": f"{reason} (after 3 attempts)",
    }
    sent = _sent(j)
    assert sent[1:] == [(["p1@example.org"], "Re: TEST boom (not processed)", INTERNAL_ERROR)]
    # Set aside for good: never tried again, never answered again.
    assert _handle(j, t0 + timedelta(days=1)) == 0
    assert len(_sent(j)) == 2
    events = j.db.execute(
        "SELECT event FROM audit WHERE entity = 'inbound' AND entity_id = ? ORDER BY id", [bad]
    ).fetchall()
    assert [e for (e,) in events] == ["stored", "retry", "retry", "failed"]


def test_a_locked_database_is_retried_and_then_handled(tmp_path: Path) -> None:
    j = Judge(tmp_path)
    t0 = j.now
    calls: list[str] = []

    def locked_once(sub: Submission, ctx: Context) -> list[Reply]:
        calls.append(sub.subject)
        if len(calls) == 1:
            raise sqlite3.OperationalError("database is locked")
        return dispatch(sub, ctx)

    first = inbox.ingest(j.db, _raw(1, "p1@example.org", "help", "HELP"), "smtp", t0)
    assert _handle(j, t0, locked_once) == 1
    assert (
        _row(j, first)["state"] == "new" and _row(j, first)["attempts"] == 0
    )  # the machine's fault: not counted
    assert _row(j, first)["error"].startswith("OperationalError: database is locked (at ")
    assert _sent(j) == []
    assert _handle(j, t0 + timedelta(minutes=1), locked_once) == 1
    assert _row(j, first)["state"] == "handled"
    replies = [(to, subject) for to, subject, _ in _sent(j)]
    assert replies == [(["p1@example.org"], "Re: TEST help")]


def test_a_failing_internal_error_reply_is_contained(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """If even the internal_error reply cannot be queued, the message is failed without
    one, and the next message is still handled."""
    real_queue = handling._queue

    def queue(db, config, sub, inbound_id, now, reply: Reply):
        if reply.template == "internal_error":
            raise ValueError("the template is broken")
        return real_queue(db, config, sub, inbound_id, now, reply)

    monkeypatch.setattr(handling, "_queue", queue)
    monkeypatch.setattr(handling, "MAX_ATTEMPTS", 1)
    j = Judge(tmp_path)
    bad = inbox.ingest(j.db, _raw(1, "p1@example.org", "boom", "HELP"), "smtp", j.now)
    good = inbox.ingest(j.db, _raw(2, "p2@example.org", "help", "HELP"), "smtp", j.now)
    assert _handle(j, j.now) == 2
    row = _row(j, bad)
    assert row["state"] == "failed" and row["attempts"] == 1
    assert row["error"].startswith("RuntimeError: the dispatcher broke (at test_retries.py:")
    assert row["error"].endswith(
        "(after 1 attempts); no reply sent: ValueError: the template is broken "
        "(at test_retries.py:" + row["error"].rsplit("test_retries.py:", 1)[1]
    )
    assert _row(j, good)["state"] == "handled"
    replies = [(to, subject) for to, subject, _ in _sent(j)]
    assert replies == [(["p2@example.org"], "Re: TEST help")]


def test_a_failure_that_cannot_be_recorded_does_not_spin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store refuses even the retry record: the message stays waiting, untouched, and
    handle_waiting returns after trying it once."""

    def refuse(*args: object) -> None:
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(inbox, "retry_later", refuse)
    j = Judge(tmp_path)
    bad = inbox.ingest(j.db, _raw(1, "p1@example.org", "boom", "HELP"), "smtp", j.now)
    assert _handle(j, j.now) == 1
    assert _row(j, bad) == {"state": "new", "attempts": 0, "next_attempt_at": None, "error": None}


def test_the_reason_never_quotes_the_mail(tmp_path: Path) -> None:
    """An exception that quotes the mail (a password, perhaps) is stored without its
    message: only its type and the place in the code."""
    j = Judge(tmp_path)

    def quoting(sub: Submission, ctx: Context) -> list[Reply]:
        raise KeyError(sub.body.split()[-1])

    bad = inbox.ingest(
        j.db, _raw(1, "p1@example.org", "orders", "SIGNON ?war1 sesame42"), "smtp", j.now
    )
    _handle(j, j.now, quoting)
    error = _row(j, bad)["error"]
    assert "sesame42" not in error
    assert error.startswith("KeyError: (message withheld: it quotes the mail) (at test_retries.py:")


# -- judge inbox [--retry [ID]] --------------------------------------------------------------


def test_judge_inbox_lists_failed_mail_and_retry_sets_it_back(tmp_path: Path, capsys) -> None:
    j = Judge(tmp_path)
    t0 = j.now
    bad = inbox.ingest(j.db, _raw(1, "p1@example.org", "boom", "SIGNON ?war1 pw"), "smtp", t0)
    good = inbox.ingest(j.db, _raw(2, "p2@example.org", "help", "HELP"), "smtp", t0)
    for minutes in (0, 1, 6):
        _handle(j, t0 + timedelta(minutes=minutes))
    later = inbox.ingest(j.db, _raw(3, "p3@example.org", "boom 2", "HELP"), "smtp", t0)
    _handle(j, t0 + timedelta(minutes=7))
    assert (bad, good, later) == (1, 2, 3)
    reason = _row(j, bad)["error"]
    path = write_config(tmp_path, 'timezone = "Europe/Paris"\n')

    status, out, _ = run(capsys, "--config", str(path), "inbox")
    assert status == 0
    assert out == [
        "new 1, handled 1, ignored 0, failed 1",
        "ID  STATE   RECEIVED              FROM            ATTEMPTS  NEXT ATTEMPT          REASON",
        "1   failed  2026-11-21 13:00 CET  p1@example.org  3         -                     "
        + reason,
        "3   new     2026-11-21 13:00 CET  p3@example.org  1         2026-11-21 13:08 CET  "
        + _row(j, later)["error"],
    ]
    assert not any("SIGNON" in line or "pw" in line.split() for line in out)

    status, out, err = run(capsys, "--config", str(path), "inbox", "--retry", "2")
    assert (status, err) == (
        1,
        "judge: message 2 is handled; only failed mail (or mail waiting for another "
        "attempt) is retried\n",
    )
    status, out, err = run(capsys, "--config", str(path), "inbox", "--retry", "9")
    assert (status, err) == (1, "judge: there is no inbound message 9\n")

    status, out, _ = run(capsys, "--config", str(path), "inbox", "--retry", "1")
    assert (status, out) == (
        0,
        ["1 message set back to new; the judge handles it at its next pass"],
    )
    assert _row(j, bad) == {"state": "new", "attempts": 0, "next_attempt_at": None, "error": None}
    audit = j.db.execute(
        "SELECT detail FROM audit WHERE entity = 'inbound' AND entity_id = 1 ORDER BY id DESC"
    ).fetchone()
    assert audit == ("operator: retry now (had 3 failed attempts)",)

    # The judge's next pass handles it (with the bug fixed: the real dispatcher).
    assert _handle(j, t0 + timedelta(minutes=8), dispatch) == 2
    assert _row(j, bad)["state"] == "handled" and _row(j, later)["state"] == "handled"


# -- the real path: `judge run --once` processes, a bug planted at a crash point ----------------


def _judge(tmp: Path, *argv: str, crash: str | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "JUDGE_CRASH_AT"}
    if crash:
        env["JUDGE_CRASH_AT"] = crash
    return subprocess.run(
        [sys.executable, "-m", "judge.ops.cli", "--config", str(tmp / "judge.toml"), *argv],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _maildir(tmp: Path) -> list[tuple[str, str]]:
    """(To, Subject) of every mail delivered so far, in delivery order."""
    files = sorted((tmp / "outbox" / "new").glob("*"), key=lambda p: p.stat().st_mtime_ns)
    out = []
    for path in files:
        msg = email.message_from_bytes(path.read_bytes(), policy=default)
        out.append((str(msg["To"]), str(msg["Subject"])))
    return out


def test_judge_run_once_retries_a_raising_message_then_sets_it_aside(tmp_path: Path) -> None:
    (tmp_path / "judge.toml").write_text(
        '[judge]\nname = "TEST"\naddress = "judge@example.org"\ndatabase = "j.db"\n'
        '[outbound]\nmode = "maildir"\n[outbound.maildir]\npath = "outbox"\n'
    )
    t0 = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)
    db = open_db(tmp_path / "j.db")
    inbox.ingest(db, _raw(1, "p1@example.org", "first", "HELP"), "smtp", t0)
    inbox.ingest(db, _raw(2, "p2@example.org", "second", "HELP"), "smtp", t0)
    db.conn.close()
    # The bug: the first message each run handles raises (a RuntimeError in the handling
    # transaction, after its replies were queued: they are rolled back with it).
    bug = "handle-queued:1:raise"
    now = ["run", "--once", "--now"]

    run1 = _judge(tmp_path, *now, "2026-11-21T12:00:00Z", crash=bug)
    assert run1.returncode == 0, run1.stderr
    assert "message 1: attempt 1 of 3 failed; trying again at 2026-11-21T12:01:00" in run1.stderr
    assert _maildir(tmp_path) == [("p2@example.org", "Re: TEST second")]  # the next went on
    run2 = _judge(tmp_path, *now, "2026-11-21T12:00:59Z", crash=bug)
    assert "handled 0," in run2.stderr  # not due yet
    run3 = _judge(tmp_path, *now, "2026-11-21T12:01:00Z", crash=bug)
    assert "message 1: attempt 2 of 3 failed; trying again at 2026-11-21T12:06:00" in run3.stderr
    run4 = _judge(tmp_path, *now, "2026-11-21T12:06:00Z", crash=bug)
    reason = "CrashPointError: crash point handle-queued (at crashpoints.py:"
    assert f"message 1 set aside as failed: {reason}" in run4.stderr
    assert _maildir(tmp_path) == [
        ("p2@example.org", "Re: TEST second"),
        ("p1@example.org", "Re: TEST first (not processed)"),
    ]
    run5 = _judge(tmp_path, *now, "2026-11-22T12:00:00Z", crash=bug)
    assert "handled 0," in run5.stderr and len(_maildir(tmp_path)) == 2  # told once

    listed = _judge(tmp_path, "inbox")
    assert listed.returncode == 0
    lines = listed.stdout.splitlines()
    assert lines[0] == "new 0, handled 1, ignored 0, failed 1"
    assert lines[2].startswith(
        "1   failed  2026-11-21 12:00 UTC  p1@example.org  3         -             " + reason
    )
    assert lines[2].endswith("in crash_point) (after 3 attempts)")
    retried = _judge(tmp_path, "inbox", "--retry", "1")
    assert retried.stdout == "1 message set back to new; the judge handles it at its next pass\n"

    fixed = _judge(tmp_path, *now, "2026-11-22T12:00:00Z")  # the bug is gone
    assert "handled 1," in fixed.stderr
    assert _maildir(tmp_path)[-1] == ("p1@example.org", "Re: TEST first")


def test_handle_waiting_stops_between_messages_when_the_daemon_stops(tmp_path: Path) -> None:
    """A SIGTERM during a long batch: the message in hand is finished, the rest wait."""
    j = Judge(tmp_path)
    for n in (1, 2, 3):
        inbox.ingest(j.db, _raw(n, f"p{n}@example.org", "help", "HELP"), "smtp", j.now)
    handled: list[str] = []

    def counting(sub: Submission, ctx: Context) -> list[Reply]:
        handled.append(sub.sender)
        return dispatch(sub, ctx)

    stopped = handle_waiting(
        j.db, j.config, lambda: j.now, counting, stopping=lambda: bool(handled)
    )
    assert (stopped, handled) == (1, ["p1@example.org"])
    assert [_row(j, n)["state"] for n in (1, 2, 3)] == ["handled", "new", "new"]

"""The embedded SMTP receiver and the daemon around it, end to end on 127.0.0.1."""

from __future__ import annotations

import smtplib
import time
from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path

import pytest
from live_judge import maildir, send, smtp_config, wait_until
from servers import running_judge

from judge.config import Config
from judge.daemon import real_clock
from judge.store.db import open_db

MAIL = (
    "From: Bob <bob@example.org>\r\nTo: judge@example.org\r\nSubject: orders\r\n"
    "Message-ID: <{n}@example.org>\r\n{extra}\r\nA Par-Bur\r\nF Bre - MAO\r\n"
)


@pytest.fixture
def judge(tmp_path: Path):
    config = smtp_config(tmp_path, max_message_bytes=20_000, rate_limit_per_hour=5)
    with running_judge(config, real_clock):
        yield config


def _send(config: Config, raw: str | bytes, to: str = "judge@example.org") -> None:
    send(config.smtp_in.port, raw if isinstance(raw, bytes) else raw.encode(), to=to)


def _outbox(config: Config, count: int, timeout: float = 5) -> list[EmailMessage]:
    if wait_until(lambda: len(maildir(config.maildir)) >= count, timeout):
        return maildir(config.maildir)
    found = len(maildir(config.maildir))
    raise AssertionError(
        f"expected {count} replies in the outbox, found {found}: {_states(config)}"
    )


def _states(config: Config) -> list[tuple[str, str | None]]:
    db = open_db(config.database)
    try:
        return [
            (r["state"], r["error"])
            for r in db.query("SELECT state, error FROM inbound ORDER BY id")
        ]
    finally:
        db.conn.close()


def test_a_long_line_is_accepted(judge: Config) -> None:
    _send(judge, MAIL.format(n=50, extra="") + "A Par-Bur " * 500 + "\r\n")
    _outbox(judge, 1)
    assert _states(judge) == [("handled", None)]


def test_a_mail_is_stored_handled_and_answered(judge: Config) -> None:
    _send(judge, MAIL.format(n=1, extra=""))
    [reply] = _outbox(judge, 1)
    assert reply["To"] == "bob@example.org"
    # Orders without a SIGNON line: answered, with each line's error.
    assert reply["Subject"] == "[T] Re: orders (ERRORS)"
    assert reply["In-Reply-To"] == "<1@example.org>"
    assert reply["Auto-Submitted"] == "auto-replied" and reply["X-Judge"] == "T"
    body = reply.get_content().replace("\r\n", "\n")
    needs = "  ERROR: this line needs a SIGNON line before it\n  (SIGNON Xgame password, X your"
    assert f"Line 1: A Par-Bur\n{needs}" in body
    assert f"Line 2: F Bre - MAO\n{needs}" in body
    assert _states(judge) == [("handled", None)]


def test_the_same_mail_twice_is_answered_once(judge: Config) -> None:
    _send(judge, MAIL.format(n=2, extra=""))
    _send(judge, MAIL.format(n=2, extra=""))
    _outbox(judge, 1)
    time.sleep(0.3)
    assert len(list((judge.maildir / "new").iterdir())) == 1
    assert _states(judge) == [("handled", None)]


def test_only_the_judges_address_is_accepted(judge: Config) -> None:
    with pytest.raises(smtplib.SMTPRecipientsRefused) as e:
        _send(judge, MAIL.format(n=3, extra=""), to="someone@example.org")
    [(code, text)] = e.value.recipients.values()
    assert code == 550 and b"only for judge@example.org" in text


def test_data_beyond_the_protocol_limit_is_refused(judge: Config) -> None:
    huge = MAIL.format(n=4, extra="") + ("x" * 998 + "\r\n") * 1200  # over 1 MB
    with pytest.raises(smtplib.SMTPException) as e:
        _send(judge, huge)
    assert "552" in str(e.value) or "Too much" in str(e.value)
    assert _states(judge) == []


def test_a_mail_over_the_judges_limit_is_stored_and_refused_with_a_reply(judge: Config) -> None:
    big = MAIL.format(n=5, extra="") + ("A Par H\r\n" * 3000)
    _send(judge, big)
    [reply] = _outbox(judge, 1)
    assert "(too large)" in reply["Subject"]
    assert "more than the\n20000 bytes" in reply.get_content().replace("\r\n", "\n")
    [(state, error)] = _states(judge)
    assert state == "ignored" and error.startswith("too large")


def test_autoresponders_and_lists_are_stored_but_never_answered(judge: Config) -> None:
    _send(judge, MAIL.format(n=6, extra="Auto-Submitted: auto-replied\r\n"))
    _send(judge, MAIL.format(n=7, extra="Precedence: bulk\r\n"))
    _send(judge, MAIL.format(n=8, extra="List-Id: <dip.lists.example.org>\r\n"))
    _send(judge, MAIL.format(n=9, extra="X-Judge: OTHER\r\n"))
    _send(judge, MAIL.format(n=10, extra=""))  # an ordinary one, to know when all are done
    _outbox(judge, 1)
    time.sleep(0.3)
    states = _states(judge)
    assert [s for s, _ in states] == ["ignored"] * 4 + ["handled"]
    assert all(e.startswith("not answered") for _, e in states[:4])
    assert len(list((judge.maildir / "new").iterdir())) == 1


def test_a_bounce_with_the_null_sender_is_stored_but_never_answered(judge: Config) -> None:
    # MAIL FROM:<>, as every bounce and many autoresponders send; no header says so.
    send(judge.smtp_in.port, MAIL.format(n=11, extra="").encode(), sender="<>")
    _send(judge, MAIL.format(n=12, extra=""))  # an ordinary one, to know when all are done
    [reply] = _outbox(judge, 1)
    assert reply["In-Reply-To"] == "<12@example.org>"
    # Handled and sent oldest first: an answer to the bounce would be there already.
    assert len(list((judge.maildir / "new").iterdir())) == 1
    assert _states(judge)[0] == (
        "ignored",
        "not answered: null return path (Return-Path: <>), as bounces have",
    )
    db = open_db(judge.database)
    try:
        raw, return_path = db.execute(
            "SELECT raw, return_path FROM inbound ORDER BY id LIMIT 1"
        ).fetchone()
    finally:
        db.conn.close()
    assert raw.startswith(b"Return-Path: <>\r\n") and return_path == ""


def test_a_flooding_sender_is_told_once(judge: Config) -> None:
    for n in range(20, 28):  # limit 5 an hour: 5 answered, the 6th gets the notice
        _send(judge, MAIL.format(n=n, extra=""))
    replies = _outbox(judge, 6)
    time.sleep(0.3)
    replies = _outbox(judge, 6)
    assert len(replies) == 6
    notices = [r for r in replies if "(too many mails)" in r["Subject"]]
    assert len(notices) == 1
    # Over the limit a mail is still read (its commands run), only not answered.
    states = _states(judge)
    assert [s for s, _ in states] == ["handled"] * 8
    assert [e for _, e in states] == [None] * 5 + [
        "rate limit: over 5 mails an hour, not answered"
    ] * 3


def test_run_once_handles_what_is_stored(tmp_path: Path) -> None:
    from judge.daemon import run_once
    from judge.store import inbox

    config = Config(
        address="judge@example.org", database=tmp_path / "j.db", maildir=tmp_path / "out"
    )
    db = open_db(config.database)
    inbox.ingest(db, MAIL.format(n=40, extra="").encode(), "cli", datetime.now(UTC))
    db.conn.close()
    assert run_once(config) == {"fetched": 0, "handled": 1, "due": 0, "sent": 1}
    assert run_once(config) == {"fetched": 0, "handled": 0, "due": 0, "sent": 0}
    assert len(list((tmp_path / "out" / "new").iterdir())) == 1

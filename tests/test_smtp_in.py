"""The embedded SMTP receiver and the daemon around it, end to end on 127.0.0.1."""

from __future__ import annotations

import smtplib
from datetime import UTC, datetime
from pathlib import Path

import pytest
from live_judge import inbound_states, outbox, send, send_to, settled

from judge.config import Config
from judge.store.db import open_db

MAIL = (
    "From: Bob <bob@example.org>\r\nTo: judge@example.org\r\nSubject: orders\r\n"
    "Message-ID: <{n}@example.org>\r\n{extra}\r\nA Par-Bur\r\nF Bre - MAO\r\n"
)


def test_a_long_line_is_accepted(smtp_judge: Config) -> None:
    send_to(smtp_judge, MAIL.format(n=50, extra="") + "A Par-Bur " * 500 + "\r\n")
    outbox(smtp_judge, 1)
    assert inbound_states(smtp_judge) == [("handled", None)]


def test_a_mail_is_stored_handled_and_answered(smtp_judge: Config) -> None:
    send_to(smtp_judge, MAIL.format(n=1, extra=""))
    [reply] = outbox(smtp_judge, 1)
    assert reply["To"] == "bob@example.org"
    # Orders without a SIGNON line: answered, with each line's error.
    assert reply["Subject"] == "Re: [Error Flag] T orders"
    assert reply["In-Reply-To"] == "<1@example.org>"
    assert reply["Auto-Submitted"] == "auto-replied" and reply["X-Judge"] == "T"
    body = reply.get_content().replace("\r\n", "\n")
    needs = "  ERROR: this line needs a SIGNON line before it\n  (SIGNON Xgame password, X your"
    assert f"Line 1: A Par-Bur\n{needs}" in body
    assert f"Line 2: F Bre - MAO\n{needs}" in body
    assert inbound_states(smtp_judge) == [("handled", None)]


def test_the_same_mail_twice_is_answered_once(smtp_judge: Config) -> None:
    send_to(smtp_judge, MAIL.format(n=2, extra=""))
    send_to(smtp_judge, MAIL.format(n=2, extra=""))
    settled(smtp_judge, 1)
    assert len(list((smtp_judge.maildir / "new").iterdir())) == 1
    assert inbound_states(smtp_judge) == [("handled", None)]


def test_only_the_judges_address_is_accepted(smtp_judge: Config) -> None:
    with pytest.raises(smtplib.SMTPRecipientsRefused) as e:
        send_to(smtp_judge, MAIL.format(n=3, extra=""), to="someone@example.org")
    [(code, text)] = e.value.recipients.values()
    assert code == 550 and b"only for judge@example.org" in text


def test_data_beyond_the_protocol_limit_is_refused(smtp_judge: Config) -> None:
    huge = MAIL.format(n=4, extra="") + ("x" * 998 + "\r\n") * 1200  # over 1 MB
    with pytest.raises(smtplib.SMTPException) as e:
        send_to(smtp_judge, huge)
    assert "552" in str(e.value) or "Too much" in str(e.value)
    assert inbound_states(smtp_judge) == []


def test_a_mail_over_the_judges_limit_is_stored_and_refused_with_a_reply(
    smtp_judge: Config,
) -> None:
    big = MAIL.format(n=5, extra="") + ("A Par H\r\n" * 3000)
    send_to(smtp_judge, big)
    [reply] = outbox(smtp_judge, 1)
    assert "(too large)" in reply["Subject"]
    assert "more than the\n20000 bytes" in reply.get_content().replace("\r\n", "\n")
    [(state, error)] = inbound_states(smtp_judge)
    assert state == "ignored" and error.startswith("too large")


def test_autoresponders_and_lists_are_stored_but_never_answered(smtp_judge: Config) -> None:
    send_to(smtp_judge, MAIL.format(n=6, extra="Auto-Submitted: auto-replied\r\n"))
    send_to(smtp_judge, MAIL.format(n=7, extra="Precedence: bulk\r\n"))
    send_to(smtp_judge, MAIL.format(n=8, extra="List-Id: <dip.lists.example.org>\r\n"))
    send_to(smtp_judge, MAIL.format(n=9, extra="X-Judge: OTHER\r\n"))
    send_to(smtp_judge, MAIL.format(n=10, extra=""))  # an ordinary one, to know when all are done
    settled(smtp_judge, 5)
    states = inbound_states(smtp_judge)
    assert [s for s, _ in states] == ["ignored"] * 4 + ["handled"]
    assert all(e.startswith("not answered") for _, e in states[:4])
    assert len(list((smtp_judge.maildir / "new").iterdir())) == 1


def test_a_bounce_with_the_null_sender_is_stored_but_never_answered(smtp_judge: Config) -> None:
    # MAIL FROM:<>, as every bounce and many autoresponders send; no header says so.
    send(smtp_judge.smtp_in.port, MAIL.format(n=11, extra="").encode(), sender="<>")
    send_to(smtp_judge, MAIL.format(n=12, extra=""))  # an ordinary one, to know when all are done
    [reply] = outbox(smtp_judge, 1)
    assert reply["In-Reply-To"] == "<12@example.org>"
    # Handled and sent oldest first: an answer to the bounce would be there already.
    assert len(list((smtp_judge.maildir / "new").iterdir())) == 1
    assert inbound_states(smtp_judge)[0] == (
        "ignored",
        "not answered: null return path (Return-Path: <>), as bounces have",
    )
    db = open_db(smtp_judge.database)
    try:
        raw, return_path = db.execute(
            "SELECT raw, return_path FROM inbound ORDER BY id LIMIT 1"
        ).fetchone()
    finally:
        db.conn.close()
    assert raw.startswith(b"Return-Path: <>\r\n") and return_path == ""


def test_a_flooding_sender_is_told_once(smtp_judge: Config) -> None:
    for n in range(20, 28):  # limit 5 an hour: 5 answered, the 6th gets the notice
        send_to(smtp_judge, MAIL.format(n=n, extra=""))
    settled(smtp_judge, 8)
    replies = outbox(smtp_judge, 6)
    assert len(replies) == 6
    notices = [r for r in replies if "(too many mails)" in r["Subject"]]
    assert len(notices) == 1
    # Over the limit a mail is still read (its commands run), only not answered.
    states = inbound_states(smtp_judge)
    assert [s for s, _ in states] == ["handled"] * 8
    assert [e for _, e in states] == [None] * 5 + [
        "rate limit: over 5 mails an hour, not answered"
    ] * 3


def test_run_once_handles_what_is_stored(tmp_path: Path) -> None:
    from judge.service.daemon import run_once
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

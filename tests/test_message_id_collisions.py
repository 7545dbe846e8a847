"""A Message-ID names a mail only together with its sender: two players' mail programs
may give the same one, and a stranger may reuse a player's on purpose, and neither mail
may be dropped as a copy of the other. The same mail delivered again (an MTA's retry,
another route, IMAP and SMTP both) is still handled exactly once. Through the embedded
SMTP receiver of a running daemon and the IMAP poller on a private Dovecot."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from pathlib import Path

from live_judge import maildir, send, settled
from servers import Dovecot, imap_config

from judge.config import Config
from judge.mail.imap_in import ImapInbound
from judge.store import inbox
from judge.store.db import open_db

NOW = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)
# Two mails alike but for From:, as two clients that collide would write them.
MAIL = (
    "From: {sender}\r\nTo: judge@example.org\r\nSubject: orders\r\n"
    "Message-ID: <20261127.1@localhost>\r\n\r\nA Par-Bur\r\n"
)
RELAYED = "Received: from relay2.example.net by mx.example.org; Fri, 27 Nov 2026\r\n"


def mail(sender: str, trace: str = "") -> bytes:
    return (trace + MAIL.format(sender=sender)).encode()


def stored(config: Config) -> list[tuple[str, str]]:
    db = open_db(config.database)
    try:
        rows = db.execute("SELECT sender, state FROM inbound ORDER BY id").fetchall()
        return [(sender, state) for sender, state in rows]
    finally:
        db.conn.close()


def answered(config: Config) -> list[str]:
    """The addresses the judge's replies went to, in order."""
    return [reply["To"] for reply in maildir(config.maildir)]


def test_two_senders_with_one_message_id_are_each_answered(smtp_judge: Config) -> None:
    port = smtp_judge.smtp_in.port
    send(port, mail("alice@example.org"), sender="alice@example.org")
    send(port, mail("Bob <bob@example.org>"), sender="bob@example.org")
    # A relay's retry of Alice's mail, and the copy by another route: the same mail.
    send(port, mail("alice@example.org"), sender="alice@example.org")
    send(port, mail("alice@example.org", RELAYED), sender="alice@example.org")
    settled(smtp_judge, 2)
    assert stored(smtp_judge) == [
        ("alice@example.org", "handled"),
        ("bob@example.org", "handled"),
    ]
    assert sorted(answered(smtp_judge)) == ["alice@example.org", "bob@example.org"]


def test_a_mail_by_smtp_and_imap_both_is_handled_once_and_a_collision_twice(
    smtp_judge: Config, dovecot: Dovecot
) -> None:
    send(smtp_judge.smtp_in.port, mail("alice@example.org"), sender="alice@example.org")
    settled(smtp_judge, 1)
    # The same mail also reaches the judge's mailbox, after a stranger's that reuses
    # its Message-ID and its words.
    dovecot.append(mail("mallory@example.net"))
    dovecot.append(mail("alice@example.org", RELAYED))
    db = open_db(smtp_judge.database)
    ids: list[int | None] = []

    def store(raw: bytes) -> int | None:
        ids.append(inbox.ingest(db, raw, "imap", NOW))
        return ids[-1]

    imap = ImapInbound(imap_config(dovecot, poll_seconds=60), store)
    try:
        assert imap.fetch_once() == 2
    finally:
        imap.close()
    assert ids[0] is not None and ids[1] is None
    assert len(dovecot.messages("processed")) == 2  # both moved on: nothing left behind
    settled(smtp_judge, 2)
    assert stored(smtp_judge) == [
        ("alice@example.org", "handled"),
        ("mallory@example.net", "handled"),
    ]
    assert sorted(answered(smtp_judge)) == ["alice@example.org", "mallory@example.net"]


def test_a_mail_stored_before_senders_counted_is_still_recognised(tmp_path: Path) -> None:
    db = open_db(tmp_path / "j.db")
    alice = mail("alice@example.org")
    first = inbox.ingest(db, alice, "smtp", NOW)
    # The key a judge of before gave it: the Message-ID and the body alone.
    mid = hashlib.sha256(b"<20261127.1@localhost>").hexdigest()
    body = hashlib.sha256(b"A Par-Bur").hexdigest()
    db.execute("UPDATE inbound SET dedupe_key = ? WHERE id = ?", [f"mid:{mid}|{body}", first])
    db.conn.commit()
    assert inbox.ingest(db, mail("alice@example.org", RELAYED), "imap", NOW) is None
    assert inbox.ingest(db, mail("Alice <ALICE@example.org>"), "smtp", NOW) is None
    bob = inbox.ingest(db, mail("bob@example.org"), "smtp", NOW)
    assert bob is not None and bob != first
    rows = db.execute("SELECT id, sender FROM inbound ORDER BY id").fetchall()
    assert rows == [(first, "alice@example.org"), (bob, "bob@example.org")]


def test_unreadable_from_fields_that_differ_are_two_mails(tmp_path: Path) -> None:
    db = open_db(tmp_path / "j.db")
    one = inbox.ingest(db, mail("<<<one"), "smtp", NOW)
    other = inbox.ingest(db, mail("<<<two"), "smtp", NOW)
    again = inbox.ingest(db, mail("<<<one"), "smtp", NOW)
    assert one is not None and other is not None and one != other and again is None

"""Mail built to stop, fool or flood the judge, through the real SMTP receiver and daemon,
and an address of record from before the address rules, through a deadline run and the
SMTP outbox: nothing raises, the daemon keeps going, every answer has valid headers."""

from __future__ import annotations

import email
import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.parser import BytesParser
from email.policy import SMTP, default
from pathlib import Path

from judge_harness import Judge
from live_judge import inbound_states, outbox, send_to
from smtp_sink import SmtpSink

from judge.config import Config, SmtpOutConfig
from judge.game import pictures
from judge.mail import compose
from judge.mail.outbox import SmtpDelivery, drain
from judge.store import games
from judge.store.db import open_db

JUDGE = "judge@example.org"


def _poison(n: int, head: bytes, body: bytes = b"HELP") -> bytes:
    """A mail whose head starts with `head` (raw bytes, CRLF-terminated lines)."""
    mid = b"" if b"Message-ID" in head else b"Message-ID: <p%d@example.org>\r\n" % n
    return head + mid + b"To: " + JUDGE.encode() + b"\r\n\r\n" + body + b"\r\n"


POISON = [
    # RFC 6532: UTF-8 display name and local part, an IDN domain.
    "From: Jörg Müller <jörg@bücher.example>\r\nSubject: Grüße\r\n".encode(),
    # Raw 8-bit (latin-1) bytes in From, Message-ID and In-Reply-To.
    b"From: J\xf6rg <j\xf6rg@example.de>\r\nSubject: orders\r\n"
    b"Message-ID: <caf\xe9@example.de>\r\nIn-Reply-To: <\xff\xfe@example.org>\r\n"
    b"References: <ok@example.org> <b\xe4d@example.org>\r\n",
    # An internationalised domain, creating a game: the master's address is IDNA.
    "From: Ann <ann@münchen.de>\r\nSubject: new game\r\n".encode(),
    # A long non-ASCII subject, raw and RFC 2047-encoded.
    ("From: sub@example.net\r\nSubject: " + "Grüße aus Österreich " * 400 + "\r\n").encode(),
    b"From: enc@example.net\r\nSubject: "
    + b" ".join([b"=?utf-8?b?" + b"R3LDvMOfZQ==" + b"?="] * 300)
    + b"\r\n",
    # A Reply-To that is not the sender: the answer goes to From only.
    b"From: p1@example.net\r\nReply-To: victim@example.com\r\nSubject: Re: Re: orders\r\n",
    # A UTF-8 local part that would join the game: refused, with a reply saying why.
    "From: österreich@example.org\r\nSubject: join\r\n".encode(),
]
BODIES = {2: b"CREATE ?poison1 masterpw", 6: b"SIGNON ?poison1 pw"}


def _check_head(raw: bytes) -> EmailMessage:
    """Every header line CRLF-terminated and at most 998 octets; parseable with the SMTP
    policy, without defects when the head is ASCII."""
    head, sep, _ = raw.partition(b"\r\n\r\n")
    assert sep
    assert b"\r" not in head.replace(b"\r\n", b"") and b"\n" not in head.replace(b"\r\n", b"")
    assert all(len(line) <= 998 for line in head.split(b"\r\n"))
    msg = BytesParser(policy=SMTP).parsebytes(raw)
    if head.isascii():
        assert not msg.defects and all(not msg[k].defects for k in msg), raw[:300]
    return msg


def test_poison_mail_through_the_smtp_receiver(smtp_judge: Config) -> None:
    """Through the daemon's own SMTP receiver (smtp_judge, conftest.py)."""
    for n, head in enumerate(POISON):
        send_to(smtp_judge, _poison(n, head, BODIES.get(n, b"HELP")))
    send_to(smtp_judge, _poison(99, b"From: Bob <bob@example.org>\r\nSubject: last\r\n"))
    replies = outbox(smtp_judge, len(POISON) + 1, timeout=30)
    raws = [p.read_bytes() for p in sorted((smtp_judge.maildir / "new").iterdir())]
    assert len(raws) == len(POISON) + 1
    for raw in raws:
        _check_head(raw)
    assert [s for s, _ in inbound_states(smtp_judge)] == ["handled"] * (len(POISON) + 1)
    by_to = {r["To"]: r for r in replies}
    assert sorted(by_to) == sorted(
        [
            "jörg@xn--bcher-kva.example",
            "jörg@example.de",
            "ann@xn--mnchen-3ya.de",
            "sub@example.net",
            "enc@example.net",
            "p1@example.net",
            "österreich@example.org",
            "bob@example.org",
        ]
    )
    assert by_to["jörg@xn--bcher-kva.example"]["Subject"] == "Re: T Grüße"  # njudge's form
    # The 8-bit Message-ID cannot be written in an ASCII header: not referred to.
    eight_bit = by_to["jörg@example.de"]
    assert eight_bit["In-Reply-To"] is None and eight_bit["References"] is None
    # An IDN sender creates a game with its address of record in IDNA.
    created = by_to["ann@xn--mnchen-3ya.de"]
    assert "Game poison1 (Standard Diplomacy) is created" in created.get_content()
    long = by_to["sub@example.net"]["Subject"]
    # The sender's subject is cut to compose.MAX_SUBJECT_ECHO characters in the answer's.
    assert long.startswith("Re: T Grüße aus Österreich Grüße") and long.endswith("...")
    assert len(long) == len("Re: T ") + compose.MAX_SUBJECT_ECHO
    assert by_to["enc@example.net"]["Subject"].startswith("Re: T GrüßeGrüße")
    assert by_to["p1@example.net"]["Subject"] == "Re: T orders"
    refused = by_to["österreich@example.org"].get_content().replace("\r\n", "\n")
    assert "your address österreich@example.org cannot be an address of\n  record," in refused
    db = open_db(smtp_judge.database)
    try:
        game = games.find_game(db, "poison1")
        assert game is not None
        assert [(s.role, s.address) for s in games.seats(db, game)] == [
            (games.MASTER, "ann@xn--mnchen-3ya.de")
        ]
    finally:
        db.conn.close()


def test_an_undeliverable_address_of_record_does_not_stop_the_deadline(tmp_path: Path) -> None:
    """An address stored before the rules (SET ADDRESS took österreich@example.org): the
    deadline run still processes the game and mails everyone; the relay, which offers no
    SMTPUTF8, gets every mail but that one, which is recorded as failed."""
    j = Judge(tmp_path)
    j.start_game()
    game = j.game()
    [france] = [s for s in games.seats(j.db, game) if s.power == "FRANCE"]
    games.update_seat(j.db, france, j.now, address="österreich@example.org")
    deadline = datetime.fromisoformat(game.deadline)
    mails = j.at(deadline) + j.at(deadline + timedelta(hours=24))  # grace over
    assert j.game().phase == "F1901M"  # processed, with everyone in civil disorder
    assert any("österreich@example.org" in m.to for m in mails)
    with SmtpSink() as sink:
        config = replace(j.config, outbound_mode="smtp", smtp_out=SmtpOutConfig(port=sink.port))
        sent = drain(j.db, SmtpDelivery(config), lambda: j.now, attach_picture=pictures.finish)
        received = sink.messages
    rows = j.db.execute("SELECT state, recipients, last_error FROM outbound").fetchall()
    alone = [["österreich@example.org"]]
    failed = [(json.loads(r), e) for s, r, e in rows if s == "failed"]
    assert failed and all(to == alone[0] for to, _ in failed)
    assert {e for _, e in failed} == {
        "no recipient the relay can take (an address with non-ASCII characters, "
        "and the relay does not offer SMTPUTF8): österreich@example.org"
    }
    assert [s for s, r, _ in rows if json.loads(r) not in alone] == ["sent"] * sent
    assert sent == len(received) == len(rows) - len(failed)
    # One recipient per mail (njudge's rule): the others' copies are their own mails.
    assert received and all(len(m.rcpt_tos) == 1 for m in received)
    assert all("österreich@example.org" not in m.rcpt_tos for m in received)
    for m in received:
        _check_head(m.data)
        assert email.message_from_bytes(m.data, policy=default)["X-Judge"] == "TEST"


def test_the_internal_error_reply_to_a_poison_mail_is_sent(tmp_path: Path) -> None:
    """A fault of ours while handling a mail from a UTF-8 address with an 8-bit
    Message-ID: the mail is marked failed and the sender gets the internal-error reply."""
    from judge.service.handling import handle_waiting
    from judge.store import inbox

    config = Config(name="T", address=JUDGE, database=tmp_path / "j.db")
    db = open_db(config.database)
    raw = _poison(1, "From: Jörg <jörg@bücher.example>\r\nMessage-ID: <\xe9@x>\r\n".encode())
    now = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)
    inbox.ingest(db, raw, "smtp", now)

    def broken(sub, ctx):
        raise RuntimeError("a bug of ours")

    raised_at = broken.__code__.co_firstlineno + 1  # the raise, the line after the def

    # Three tries, the retries 1 and 5 minutes after each failure, then set aside.
    for minutes in (0, 1, 6):
        moment = now + timedelta(minutes=minutes)
        assert handle_waiting(db, config, lambda moment=moment: moment, broken) == 1
    [(state, error)] = db.execute("SELECT state, error FROM inbound").fetchall()
    assert (state, error) == (
        "failed",
        f"RuntimeError: a bug of ours (at test_mail_poison.py:{raised_at} in broken)"
        " (after 3 attempts)",
    )
    [(recipients, out)] = db.execute("SELECT recipients, raw FROM outbound").fetchall()
    assert json.loads(recipients) == ["jörg@xn--bcher-kva.example"]
    msg = _check_head(out)
    assert msg["Subject"] == "Re: T your mail (not processed)"
    assert msg["In-Reply-To"] is None

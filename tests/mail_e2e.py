"""What the end-to-end games by mail share: the judge's clock, mail as a player writes
it, the mail the SMTP peer received (by recipient), and the judge's configuration for a
private Dovecot and the peer."""

from __future__ import annotations

import email
import itertools
import time
from collections import Counter
from dataclasses import dataclass, replace
from datetime import datetime
from email.policy import default
from email.utils import format_datetime
from pathlib import Path

from servers import Dovecot, imap_config
from smtp_sink import SmtpSink

from judge.config import Config, SmtpOutConfig
from judge.game.njudge_lines import njudge_phase
from judge.store.db import open_db

JUDGE = "judge@example.org"


class Clock:
    """The judge's clock: moved on by the test between batches, so deadlines are known."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def deadline_text(moment: datetime) -> str:
    """A moment as every mail shows it (the judge's zone is UTC here):
    'Wednesday 11 March 2026 12:00 UTC'."""
    return f"{moment:%A} {moment.day} {moment:%B} {moment.year} {moment:%H:%M} UTC"


_serial = itertools.count(1)


def mail(sender: str, subject: str, lines: list[str], now: datetime) -> bytes:
    """A plain-text mail from `sender` to the judge, as delivered into its mailbox."""
    n = next(_serial)
    name = sender.split("@")[0].title()
    body = "\r\n".join(lines)
    return (
        f"Return-Path: <{sender}>\r\nDelivered-To: {JUDGE}\r\n"
        f"From: {name} <{sender}>\r\nTo: Judge <{JUDGE}>\r\nSubject: {subject}\r\n"
        f"Date: {format_datetime(now)}\r\nMessage-ID: <m{n}.{time.time_ns()}@example.org>\r\n"
        f"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n"
    ).encode()


@dataclass(frozen=True)
class Mail:
    message_id: str
    subject: str
    body: str  # the text part
    to: tuple[str, ...]  # the SMTP envelope's recipients, lower case, sorted
    in_reply_to: str | None
    headers: str  # the header block as received
    list_id: str | None
    precedence: str | None
    pictures: tuple[tuple[str, bytes], ...]  # attached images: (file name, bytes)

    @property
    def picture(self) -> tuple[str, bytes] | None:
        """The one board picture, when there is one."""
        return self.pictures[0] if self.pictures else None

    @property
    def picture_names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.pictures)


def read_mail(data: bytes, recipients: list[str]) -> Mail:
    """A mail the SMTP peer received, with its text part and its images."""
    msg = email.message_from_bytes(data, policy=default)
    text = msg.get_body(preferencelist=("plain",))
    assert text is not None, data[:500]
    return Mail(
        msg["Message-ID"],
        str(msg["Subject"]),
        text.get_content().replace("\r\n", "\n"),
        tuple(sorted(r.lower() for r in recipients)),
        msg["In-Reply-To"],
        data.split(b"\r\n\r\n", 1)[0].decode("ascii", "replace"),
        msg["List-Id"],
        msg["Precedence"],
        tuple(
            (part.get_filename() or "", part.get_content())
            for part in msg.walk()
            if part.get_content_maintype() == "image"
        ),
    )


class Mailboxes:
    """What the SMTP peer received, by recipient, in arrival order."""

    def __init__(
        self, sink: SmtpSink, database: Path | None = None, dovecot: Dovecot | None = None
    ) -> None:
        self.sink = sink
        self.database = database  # the judge's store: `new` waits for it to settle
        self.dovecot = dovecot  # the judge's mailbox: settled once its INBOX is empty
        self.seen: dict[str, int] = {}
        self.unexpected: list[str] = []
        self._read: list[Mail] = []  # the peer's messages read so far, in arrival order

    def all(self) -> dict[str, list[Mail]]:
        # The peer's list only grows, so each message is parsed once: reading them all
        # again on every look (every 20 ms while a test waits) cost a long game by mail
        # more time than the judge took to play it.
        received = self.sink.messages
        for message in received[len(self._read) :]:
            self._read.append(read_mail(message.data, message.rcpt_tos))
        out: dict[str, list[Mail]] = {}
        for m in self._read:
            for rcpt in m.to:
                out.setdefault(rcpt, []).append(m)
        return out

    def new(self, expected: dict[str, list[str]], timeout: float = 15.0) -> dict[str, list[Mail]]:
        """Wait until each address has received the mails with the `expected` subjects and
        return every new mail by address. A mail nobody expected (at any address) is kept
        in `unexpected`; the test fails on them at the end, after checking everything else."""
        fresh = self._arrived(expected, timeout)
        for address, mails in fresh.items():
            extra = Counter(m.subject for m in mails) - Counter(expected.get(address, []))
            for m in mails:
                if extra[m.subject] > 0:
                    extra[m.subject] -= 1
                    self.unexpected.append(f"to {address}: {m.subject!r}: {m.body[:300]!r}")
        return fresh

    def expect(self, wanted: dict[str, list[str]], timeout: float = 15.0) -> dict[str, list[Mail]]:
        """Wait for exactly the mails named and return them by address: a mail too many at
        any address fails at once."""
        new = self._arrived(wanted, timeout)
        got = {a: sorted(m.subject for m in ms) for a, ms in new.items()}
        assert got == {a: sorted(s) for a, s in wanted.items() if s}, got
        return new

    def settled(self, database: Path, timeout: float = 15.0) -> None:
        """Wait until the judge on `database` has nothing left to do or send: every stored
        mail handled or ignored, nothing queued in its outbox, and every mail it sent here;
        with the Dovecot given, nothing left in its INBOX either. After it, `new({})` shows
        any mail too many at once."""
        deadline = time.monotonic() + timeout
        while True:
            # The INBOX looked at first: empty, every mail delivered is in the store
            # (the judge stores a mail before it moves it), and the store read after.
            waiting = len(self.dovecot.messages("INBOX")) if self.dovecot else 0
            if waiting:
                assert time.monotonic() < deadline, f"{waiting} mails still in the INBOX"
                time.sleep(0.02)
                continue
            db = open_db(database)
            try:
                busy = db.execute(
                    "SELECT (SELECT COUNT(*) FROM inbound"
                    " WHERE state NOT IN ('handled', 'ignored'))"
                    " + (SELECT COUNT(*) FROM outbound WHERE state = 'queued')"
                ).fetchone()[0]
                sent_rows = db.execute("SELECT COUNT(*) FROM outbound WHERE state = 'sent'")
                sent = sent_rows.fetchone()[0]
            finally:
                db.conn.close()
            if busy == 0 and len(self.sink.messages) >= sent:
                return
            assert time.monotonic() < deadline, f"the judge did not settle: {busy} busy"
            time.sleep(0.02)

    def quiet(self, seconds: float) -> None:
        """Nothing new comes within `seconds`."""
        time.sleep(seconds)
        new = self._fresh()
        assert new == {}, {a: [m.subject for m in ms] for a, ms in new.items()}

    def _arrived(self, expected: dict[str, list[str]], timeout: float) -> dict[str, list[Mail]]:
        """Wait for the `expected` subjects by address, then a little longer; every new mail
        by address, from then on seen."""
        deadline = time.monotonic() + timeout
        while True:
            fresh = self._fresh()
            missing = {
                a: list(
                    (Counter(subjects) - Counter(m.subject for m in fresh.get(a, []))).elements()
                )
                for a, subjects in expected.items()
            }
            missing = {a: ss for a, ss in missing.items() if ss}
            if not missing:
                break
            if time.monotonic() > deadline:
                got = {a: [m.subject for m in ms] for a, ms in fresh.items()}
                raise AssertionError(f"timed out: still missing {missing}; new mail: {got}")
            time.sleep(0.02)
        # Anything sent with them (a mail too many) arrives meanwhile: once the judge has
        # nothing left to handle or send, when its store is known; else after a while.
        if self.database is not None:
            self.settled(self.database)
        else:
            time.sleep(0.3)
        everything = self.all()  # one snapshot: what is returned is what is marked seen
        fresh = self._fresh(everything)
        self.seen = {a: len(ms) for a, ms in everything.items()}
        return fresh

    def first_subject(self, address: str, timeout: float = 15.0) -> str:
        """The subject of the next new mail to `address`, once it has come."""
        deadline = time.monotonic() + timeout
        while not self._fresh().get(address):
            assert time.monotonic() < deadline, f"timed out waiting for mail to {address}"
            time.sleep(0.02)
        return self._fresh()[address][0].subject

    def _fresh(self, everything: dict[str, list[Mail]] | None = None) -> dict[str, list[Mail]]:
        """The mail by address not yet seen (of `everything`, by default all received)."""
        everything = self.all() if everything is None else everything
        fresh = {a: ms[self.seen.get(a, 0) :] for a, ms in everything.items()}
        return {a: ms for a, ms in fresh.items() if ms}


def order(given: str, canonical: str, words: str, tag: str = "") -> tuple[str, str, str, str]:
    """An order as the player writes it, as the judge must read it back (canonical short
    form and full words), and its outcome tag in the results ('' when it succeeds)."""
    return given, canonical, words, tag


def one(mails: list[Mail], subject: str) -> Mail:
    found = [m for m in mails if m.subject == subject]
    assert len(found) == 1, (subject, [m.subject for m in mails])
    return found[0]


def flat(text: str) -> str:
    """Prose with its line breaks and indentation gone: what a sentence says, however the
    template wraps it."""
    return " ".join(text.split())


def has_lines(body: str, wanted: list[str]) -> bool:
    """Whether `wanted` are consecutive lines of `body` (indentation aside)."""
    got = [line.strip() for line in body.split("\n")]
    want = [line.strip() for line in wanted]
    return any(got[i : i + len(want)] == want for i in range(len(got) - len(want) + 1))


def make_config(tmp: Path, dovecot: Dovecot, sink: SmtpSink, **changes: object) -> Config:
    """The judge on the private Dovecot (IMAP IDLE) and the SMTP peer, named E2E."""
    config = Config(
        name="E2E",
        address=JUDGE,
        database=tmp / "judge.db",
        inbound_mode="imap",
        imap=imap_config(dovecot),
        outbound_mode="smtp",
        smtp_out=SmtpOutConfig(port=sink.port),
    )
    return replace(config, **changes)  # type: ignore[arg-type]


def prefix(game: str, code: str) -> str:
    """njudge's subject prefix of a mail about `game` in phase `code`: 'E2E:war1 - F1901B'."""
    return f"E2E:{game} - {njudge_phase(code)}"


def code_of(kind: str, title: str) -> str:
    """A phase's code from its words: ('Adjustment', 'Winter of 1901') -> 'W1901A'."""
    season, year = title.split()[0][0], title.split()[-1]
    return f"{season}{year}{kind[0]}"


def without_header(body: str) -> str:
    """The body below njudge's `::` header (the blank line, the `::` lines, the blank)."""
    lines = body.split("\n")
    if lines[:2] and lines[0] == "" and lines[1].startswith(":: "):
        rest = lines[1:]
        while rest and rest[0].startswith(":: "):
            rest = rest[1:]
        return "\n".join(rest[1:] if rest and rest[0] == "" else rest)
    return body

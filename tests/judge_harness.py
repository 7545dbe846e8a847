"""A judge on a store on disk with a clock the test controls: mail in, queued mail out."""

from __future__ import annotations

import email
import itertools
import json
import re
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.policy import default
from pathlib import Path

from judge.config import Config
from judge.game import pictures
from judge.mail import outbox
from judge.service import schedule
from judge.service.handling import handle_waiting
from judge.store import games, inbox
from judge.store.codes import code_hash
from judge.store.db import open_db

POWERS = "AEFGIRT"
CONFIG = Config(name="TEST", address="judge@example.org")  # the test judge, without a store
# Orders that hold every unit of the opening position, by power initial.
HOLDS = {
    "A": "A Vie H\nA Bud H\nF Tri H",
    "E": "F Lon H\nF Edi H\nA Lvp H",
    "F": "A Par H\nA Mar H\nF Bre H",
    "G": "F Kie H\nA Ber H\nA Mun H",
    "I": "A Ven H\nA Rom H\nF Nap H",
    "R": "A Mos H\nA War H\nF Sev H\nF StP H",
    "T": "F Ank H\nA Con H\nA Smy H",
}


@dataclass
class Mail:
    to: list[str]
    subject: str
    body: str  # the text below njudge's `::` header, without the closing "Time to ..." lines
    picture: str | None = None  # the board picture it will carry when sent (its name)
    message_id: str | None = None
    full: str = ""  # the whole text as sent: the header and the time left included


_TIME_LEFT = ("Time to deadline: ", "Time to grace period expiration: ")


def below_header(text: str) -> str:
    """`text` without njudge's machine-read lines (tests/test_njudge_lines_by_mail.py
    checks those): the blank line and `::` lines at the top and the blank line after
    them, and the "Time to ..." lines at the end with the blank line before them."""
    lines = text.split("\n")
    if len(lines) > 1 and lines[0] == "" and lines[1].startswith(":: "):
        i = 1
        while i < len(lines) and lines[i].startswith(":: "):
            i += 1
        lines = lines[i + 1 if i < len(lines) and lines[i] == "" else i :]
    end = len(lines) - (1 if lines and lines[-1] == "" else 0)
    start = end
    while start > 0 and lines[start - 1].startswith(_TIME_LEFT):
        start -= 1
    if start < end:
        lines = lines[: start - 1 if start > 0 and lines[start - 1] == "" else start] + [""]
    return "\n".join(lines)


def dashed(code: str) -> str:
    """A confirmation code as mailed: in groups of four joined by dashes."""
    return "-".join(code[i : i + 4] for i in range(0, len(code), 4))


def observing(game: str, code: str) -> str:
    """The acknowledgement's words for an OBSERVE of `game` seated with `code`."""
    return (
        f"  Observing {game}: confirm first that this address asked for\n"
        "  it; until then you get none of its mail. Mail the judge this line,\n"
        "  from this address, within 7 days:\n"
        f"    CONFIRM {game} {dashed(code)}\n"
        f"  Then sign on with SIGNON O{game} password.\n"
        "  If you did not ask for it, ignore this mail: you get nothing more.\n"
    )


class Judge:
    """The judge's handling path with a fixed clock; `send` returns the mails it queued."""

    def __init__(self, tmp: Path, **config: object) -> None:
        base = replace(
            CONFIG,
            database=tmp / "j.db",
            maildir=tmp / "outbox",  # where `judge run` would write, never the working folder
            rate_limit_per_hour=10**6,
            replies_per_hour=10**6,
        )
        self.config = replace(base, **config)  # type: ignore[arg-type]
        self.db = open_db(self.config.database)
        self.now = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)
        self.serial = itertools.count(1)

    def send(self, sender: str, body: str, subject: str = "orders", head: str = "") -> list[Mail]:
        """Mail `body` from `sender` (`head`: more header lines, CRLF-terminated)."""
        n = next(self.serial)
        self.now += timedelta(minutes=1)
        raw = (
            f"From: {sender}\r\nTo: judge@example.org\r\nSubject: {subject}\r\n"
            f"Message-ID: <{n}@example.org>\r\n{head}\r\n{body}\r\n"
        ).encode()
        inbox.ingest(self.db, raw, "smtp", self.now)
        before = self._last()
        handle_waiting(self.db, self.config, lambda: self.now)
        return self._since(before)

    def at(self, moment: datetime) -> list[Mail]:
        """Move the clock to `moment` and let the judge do what is due; the mails queued."""
        self.now = moment
        before = self._last()
        schedule.run_due(self.db, self.config, lambda: self.now)
        return self._since(before)

    def _last(self) -> int:
        return self.db.execute("SELECT COALESCE(MAX(id), 0) FROM outbound").fetchone()[0]

    def _since(self, before: int) -> list[Mail]:
        rows = self.db.execute(
            "SELECT recipients, raw, picture FROM outbound WHERE id > ? ORDER BY id", [before]
        ).fetchall()
        out = []
        for recipients, raw_out, picture in rows:
            msg = email.message_from_bytes(raw_out, policy=default)
            body_text = msg.get_body(("plain",)).get_content().replace("\r\n", "\n")
            name = json.loads(picture)["name"] if picture else None
            mail = Mail(
                json.loads(recipients),
                msg["Subject"],
                below_header(body_text),
                name,
                msg["Message-ID"],
                body_text,
            )
            out.append(mail)
        return out

    def deliver(self, maildir: Path | None = None) -> list[EmailMessage]:
        """Send everything queued with the judge's outbox drainer into a Maildir (board
        pictures drawn and attached on the way); the messages as delivered, in order."""
        path = maildir or self.config.database.parent / "delivered"
        before = {p.name for p in (path / "new").glob("*")} if path.exists() else set()
        outbox.drain(
            self.db, outbox.MaildirDelivery(path), lambda: self.now, attach_picture=pictures.finish
        )
        new = sorted(p for p in (path / "new").glob("*") if p.name not in before)
        return [email.message_from_bytes(p.read_bytes(), policy=default) for p in new]

    def start_game(self, name: str = "war1", variant: str = "") -> dict[str, str]:
        """A full, started game; returns power initial -> player address. `variant`: the
        words CREATE and each SIGNON name after the password (e.g. "gunboat")."""
        words = f" {variant}" if variant else ""
        self.send("gm@example.org", f"CREATE ?{name} masterpw{words}")
        for i, initial in enumerate(POWERS):
            self.send(f"p{i}@example.org", f"SIGNON ?{name} pw{i}{words}\nSET PREFERENCE {initial}")
        return {initial: f"p{i}@example.org" for i, initial in enumerate(POWERS)}

    def confirm_code(self, address: str, name: str = "war1") -> str:
        """The code mailed to `address` to confirm its seat of game `name` (an observer's,
        a PROMOTEd master's) or its new address of one (SET ADDRESS, REPLACE), without
        the dashes it is mailed with: read from the mails queued to it, the latest whose
        hash the seat's row holds (the row keeps only the hash)."""
        row = self.db.execute(
            "SELECT s.confirm_code FROM seats s JOIN games g ON g.id = s.game_id "
            "WHERE g.name = ? AND s.left_at IS NULL AND s.confirm_code IS NOT NULL "
            "AND (s.pending_address = ? OR s.address = ? AND s.pending_address IS NULL)",
            [name, address, address],
        ).fetchone()
        assert row is not None and row[0] is not None, f"{address} waits for no code"
        mailed = re.compile(rf"CONFIRM {re.escape(name)} ([A-Z0-9]{{4}}(?:-[A-Z0-9]{{4}})+)")
        for (raw,) in self.db.execute(
            "SELECT raw FROM outbound WHERE recipients LIKE ? ORDER BY id DESC",
            [f'%"{address}"%'],
        ).fetchall():
            body = email.message_from_bytes(raw, policy=default).get_body(("plain",))
            for code in (c.replace("-", "") for c in mailed.findall(body.get_content())):
                if code_hash(code) == row[0]:
                    return code
        raise AssertionError(f"no mail to {address} carries the code its seat waits for")

    def confirm(self, address: str, name: str = "war1") -> list[Mail]:
        """`address` confirms its seat of `name` (or its new address of one) with the code
        mailed to it."""
        return self.send(address, f"CONFIRM {name} {self.confirm_code(address, name)}")

    def observe(self, address: str, password: str, name: str = "war1") -> list[Mail]:
        """`address` observes `name` and confirms it, as a real observer would; the mails
        queued for both."""
        mails = self.send(address, f"OBSERVE {name} {password}")
        return mails + self.confirm(address, name)

    def game(self, name: str = "war1") -> games.Game:
        game = games.find_game(self.db, name)
        assert game is not None
        return game

    def effective(self, name: str, power: str) -> list[str]:
        game = games.find_game(self.db, name)
        assert game is not None and game.phase
        return games.effective_orders(self.db, game, game.phase).get(power, [])

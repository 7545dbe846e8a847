"""The outbox drainer: sends queued mail by SMTP, or writes it into a Maildir.

Delivery is at least once and never two different mails: each queued message was
rendered once, with its Message-ID, so a crash between sending and recording resends
the very same bytes (and a Maildir delivery of a message already there is skipped). A
mail that carries a board picture gets it here, before its first attempt: drawn,
attached and stored (judge/pictures.py), so that every attempt sends the same bytes.
Temporary failures are retried with backoff; permanent ones are recorded and dropped.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import smtplib
import ssl
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

import sqlite_utils

from judge import pictures
from judge.config import Config
from judge.crashpoints import crash_point
from judge.store import outbox

MAX_ATTEMPTS = 30  # with the backoff below, about three days of trying
log = logging.getLogger("judge.outbox")


class PermanentFailure(Exception):
    """The server refused the message for good (5xx)."""


def backoff(attempts: int) -> timedelta:
    """1, 2, 4 ... minutes, at most an hour between tries."""
    return timedelta(minutes=min(60, 2 ** max(0, attempts)))


class MaildirDelivery:
    """Writes each message into `path/new`, by the rules of Maildir (tmp, then rename)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        for sub in ("tmp", "new", "cur"):
            (self.path / sub).mkdir(parents=True, exist_ok=True)

    def deliver(self, item: outbox.Outbound) -> str:
        digest = hashlib.sha256(item.message_id.encode()).hexdigest()[:16]
        name = f"judge-{item.id:08d}-{digest}"
        for sub in ("new", "cur"):
            if any(p.name.split(":", 1)[0] == name for p in (self.path / sub).glob(name + "*")):
                return f"already in {self.path / sub}"  # delivered before a crash
        tmp = self.path / "tmp" / f"{name}.{os.getpid()}"
        with tmp.open("wb") as f:
            f.write(item.raw)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path / "new" / name)
        return f"written to {self.path / 'new' / name}"

    def close(self) -> None:
        pass


class SmtpDelivery:
    """Sends through one SMTP connection, opened when first needed and reused."""

    def __init__(self, config: Config, timeout: float = 30) -> None:
        self.config = config
        self.timeout = timeout
        self.smtp: smtplib.SMTP | None = None

    def _connect(self) -> smtplib.SMTP:
        c = self.config.smtp_out
        if c.ssl:
            smtp: smtplib.SMTP = smtplib.SMTP_SSL(
                c.host, c.port, timeout=self.timeout, context=ssl.create_default_context()
            )
        else:
            smtp = smtplib.SMTP(c.host, c.port, timeout=self.timeout)
        if c.starttls:
            smtp.starttls(context=ssl.create_default_context())
        if c.username:
            smtp.login(c.username, c.password)
        return smtp

    def deliver(self, item: outbox.Outbound) -> str:
        if self.smtp is None:
            self.smtp = self._connect()
        try:
            refused = self.smtp.sendmail(self.config.address, list(item.recipients), item.raw)
        except smtplib.SMTPRecipientsRefused as e:
            self.close()
            codes = [code for code, _ in e.recipients.values()]
            detail = "; ".join(
                f"{a}: {c} {m.decode(errors='replace')}" for a, (c, m) in e.recipients.items()
            )
            if all(c >= 500 for c in codes):
                raise PermanentFailure(f"all recipients refused: {detail}") from None
            raise OSError(f"recipients refused for now: {detail}") from None
        except smtplib.SMTPResponseException as e:
            self.close()
            text = f"{e.smtp_code} {e.smtp_error.decode(errors='replace')}"
            if e.smtp_code >= 500:
                raise PermanentFailure(text) from None
            raise OSError(text) from None
        if refused:
            return "sent; refused: " + ", ".join(refused)
        return f"sent to {self.config.smtp_out.host}:{self.config.smtp_out.port}"

    def close(self) -> None:
        if self.smtp is not None:
            with contextlib.suppress(smtplib.SMTPException, OSError):
                self.smtp.quit()
            self.smtp = None


def delivery_for(config: Config) -> MaildirDelivery | SmtpDelivery:
    if config.outbound_mode == "maildir":
        return MaildirDelivery(config.maildir)
    return SmtpDelivery(config)


def drain(
    db: sqlite_utils.Database,
    delivery: MaildirDelivery | SmtpDelivery,
    clock: Callable[[], datetime],
    limit: int = 500,
) -> int:
    """Send everything due; returns how many were sent."""
    sent = 0
    try:
        for item in outbox.due(db, clock(), limit):
            if item.picture:  # draw and attach the board picture, store, then send
                item = pictures.finish(db, item, clock())
            try:
                how = delivery.deliver(item)
            except PermanentFailure as e:
                log.warning("outbound %s %s: gave up: %s", item.id, item.message_id, e)
                outbox.mark_failed(db, item.id, clock(), str(e))
                continue
            except (OSError, smtplib.SMTPException) as e:
                delivery.close()
                error = f"{type(e).__name__}: {e}"
                if item.attempts + 1 >= MAX_ATTEMPTS:
                    outbox.mark_failed(db, item.id, clock(), f"gave up after retries: {error}")
                else:
                    outbox.mark_retry(db, item.id, clock(), error, backoff(item.attempts))
                log.warning("outbound %s %s: %s", item.id, item.message_id, error)
                break  # the server is unhappy: try the rest later
            crash_point("send-delivered")
            outbox.mark_sent(db, item.id, clock(), how)
            sent += 1
    finally:
        delivery.close()
    return sent

"""The outbox drainer: sends queued mail by SMTP, or writes it into a Maildir.

Delivery is at least once and never two different mails: each queued message was
rendered once, with its Message-ID, so a crash between sending and recording resends
the very same bytes (and a Maildir delivery of a message already there is skipped). A
mail that carries a board picture gets it here, before its first attempt: drawn and
stored by the `attach_picture` the caller passes (the daemon passes
judge/game/pictures.Attacher; the transport knows no game), and attached as it is sent
(`wire`), so that every attempt sends the same bytes.
Temporary failures are retried with backoff; permanent ones are recorded and dropped.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import smtplib
import ssl
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Protocol

import sqlite_utils

from judge.config import Config
from judge.crashpoints import crash_point
from judge.failures import is_transient
from judge.mail import addresses, compose, together
from judge.mail.smtp_transaction import transfer
from judge.store import outbox


class PictureStep(Protocol):
    """Draws the queued mails' pictures and attaches them (judge/game/pictures.Attacher)."""

    def ahead(self, items: Sequence[outbox.Head], further: Sequence[tuple[str, int]] = ()) -> None:
        """The mails about to be sent, in order: begin drawing their pictures, and those
        of `further` (pictures queued further on: their JSON, their first mail's id)."""

    def drawn_ahead(self) -> list[outbox.DrawnAhead]:
        """The pictures drawn ahead since the last call (JSON, first mail's id, picture)."""

    def store_drawn(
        self,
        db: sqlite_utils.Database,
        drawn: Sequence[outbox.DrawnAhead],
        now: datetime,
    ) -> None:
        """Store `drawn`, finishing the mails that carry them, in one transaction."""

    def ready(self, item: outbox.Head) -> bool:
        """Whether `item` can be finished without waiting (no picture, or it is drawn)."""

    def __call__(
        self, db: sqlite_utils.Database, items: Sequence[outbox.Outbound], now: datetime
    ) -> list[outbox.Outbound]:
        """`items` finished, in order: pictures attached, stored before any is sent."""


def wire(item: outbox.Outbound) -> bytes:
    """The bytes sent for `item`: its message, with its board picture attached if it has
    one. The same message, picture and Message-ID always give the same bytes."""
    if item.attachment is None:
        return item.raw
    picture = item.attachment
    return compose.attach_picture(item.raw, picture.name, picture.png, item.message_id)


def smtp_data(item: outbox.Outbound) -> tuple[bytes, int]:
    """The DATA sent for `item` by SMTP, dot_stuffed(wire(item)), and the size of
    wire(item) (declared in MAIL). The picture's base64 has no line that begins with a
    dot (compose.picture_parts): only the text and the picture part's headers are
    searched for dots, not the 150 KB of base64 (the search was 0.2-0.5 ms of each results
    mail, several seconds of a burst's send threads)."""
    if item.attachment is None:
        return dot_stuffed(item.raw), len(item.raw)
    picture = item.attachment
    text, head, body = compose.picture_parts(item.raw, picture.name, picture.png, item.message_id)
    data = b"".join([_doubled(text), _doubled(head), body, b".\r\n"])  # body ends in CRLF
    return data, len(text) + len(head) + len(body)


MAX_ATTEMPTS = 78  # with the backoff below, three days of trying (a relay down over a weekend)
log = logging.getLogger("judge.outbox")


class PermanentFailure(Exception):
    """The server refused the message for good (5xx)."""


class PartlyDelivered(Exception):
    """The relay took the message for some of its recipients and refused the others for
    now (4xx): `how` it went, and the recipients (as queued) to try again later."""

    def __init__(self, how: str, later: tuple[str, ...]) -> None:
        super().__init__(how)
        self.how = how
        self.later = later


def backoff(attempts: int) -> timedelta:
    """1, 2, 4 ... minutes, at most an hour between tries."""
    return timedelta(minutes=min(60, 2 ** max(0, attempts)))


class MaildirDelivery:
    """Writes each message into `path/new`, by the rules of Maildir (tmp, then rename)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._make_folders()
        # Where each message already delivered lies, by its name: read from the folders
        # once, at the first delivery, then kept as this delivery writes. Only a crash
        # leaves a mail delivered and not recorded, and a crash ends this process: the
        # next one reads the folders afresh. (Reading them for each mail made draining a
        # burst of thousands quadratic.)
        self._delivered: dict[str, str] | None = None

    def deliver(self, item: outbox.Outbound) -> str:
        raw = wire(item)
        digest = hashlib.sha256(item.message_id.encode()).hexdigest()[:16]
        name = f"judge-{item.id:08d}-{digest}"
        try:
            delivered = self._read_delivered()
        except FileNotFoundError:  # its folders removed under the judge: made again
            self._make_folders()
            delivered = self._read_delivered()
        if name in delivered:
            return f"already in {self.path / delivered[name]}"  # delivered before a crash
        try:
            self._write(name, raw)
        except FileNotFoundError:  # its folders removed under the judge: made again
            self._make_folders()
            self._write(name, raw)
        delivered[name] = "new"
        return f"written to {self.path / 'new' / name}"

    def close(self) -> None:
        pass

    def _make_folders(self) -> None:
        """tmp/, new/ and cur/, made if missing."""
        for sub in ("tmp", "new", "cur"):
            (self.path / sub).mkdir(parents=True, exist_ok=True)

    def _write(self, name: str, raw: bytes) -> None:
        """`raw` into new/`name`, by way of tmp/ and fsynced."""
        tmp = self.path / "tmp" / f"{name}.{os.getpid()}"
        with tmp.open("wb") as f:
            f.write(raw)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path / "new" / name)

    def _read_delivered(self) -> dict[str, str]:
        """The names of the messages in new/ and cur/ (a reader may have moved them
        there, adding its flags after a colon), each with its folder."""
        if self._delivered is None:
            self._delivered = {}
            for sub in ("cur", "new"):
                for entry in os.scandir(self.path / sub):
                    self._delivered[entry.name.split(":", 1)[0]] = sub
        return self._delivered


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
        """Send `item`; PermanentFailure when no recipient can ever take it, OSError or
        SMTPException when it may work later, PartlyDelivered when some recipients took
        it and others may later."""
        taken = self.transfer(item)
        if not taken.accepted:
            text, permanent = _refusal(taken)
            raise PermanentFailure(text) if permanent else OSError(text)
        return _how(self.config, taken)

    def transfer(self, item: outbox.Outbound) -> Taken:
        """Send `item` to its recipients, as `deliver`, but what the relay said of each
        recipient is returned, not raised (`Taken.accepted` is False when it refused them
        all). A connection kept open from before that the relay has closed meanwhile (its
        idle timeout) is opened again, once."""
        reused = self.smtp is not None
        try:
            return self._send(item)
        except (smtplib.SMTPServerDisconnected, ConnectionError) as e:
            if not reused:
                raise
            log.info("the relay closed the connection kept open (%s); connecting again", e)
            self.close()
            return self._send(item)

    def _send(self, item: outbox.Outbound) -> Taken:
        """Send `item` on the connection, opened if need be (see transfer).

        A recipient with a UTF-8 local part (RFC 6532) can only be sent to through a relay
        that offers SMTPUTF8; without it, that recipient is refused here for good rather
        than making smtplib raise. Domains go out IDNA-encoded."""
        data, size = smtp_data(item)
        if self.smtp is None:
            self.smtp = self._connect()
        smtp = self.smtp
        smtp.ehlo_or_helo_if_needed()
        utf8 = smtp.has_extn("smtputf8")
        sendable: list[str] = []
        unsendable: list[str] = []
        queued_as: dict[str, str] = {}  # each address sent to -> the recipient queued
        for recipient in item.recipients:
            address = addresses.ascii_form(recipient)
            queued_as[address] = recipient
            (sendable if address.isascii() or utf8 else unsendable).append(address)
        if not sendable:
            raise PermanentFailure(
                "no recipient the relay can take (an address with non-ASCII characters, "
                "and the relay does not offer SMTPUTF8): " + ", ".join(unsendable)
            )
        options = []
        # data is the mail with dots added: ASCII exactly when the mail is.
        if utf8 and not (data.isascii() and all(a.isascii() for a in sendable)):
            options.append("SMTPUTF8")
        if not data.isascii() and smtp.has_extn("8bitmime"):
            options.append("BODY=8BITMIME")
        sender = addresses.ascii_form(self.config.address)
        try:
            refused = transfer(smtp, sender, sendable, (data, size), options)
        except smtplib.SMTPRecipientsRefused as e:
            self.close()
            return Taken(dict(e.recipients), unsendable, queued_as, accepted=False)
        except smtplib.SMTPResponseException as e:
            self.close()
            error = e.smtp_error
            said = error.decode(errors="replace") if isinstance(error, bytes) else error
            text = f"{e.smtp_code} {said}"
            if e.smtp_code >= 500:
                raise PermanentFailure(text) from None
            raise OSError(text) from None
        return Taken(refused, unsendable, queued_as)

    def close(self) -> None:
        if self.smtp is not None:
            with contextlib.suppress(smtplib.SMTPException, OSError):
                self.smtp.quit()
            self.smtp = None


@dataclass(frozen=True)
class Taken:
    """What the relay said of a mail's recipients: those it `refused` (each address as
    sent -> its code and text), those `unsendable` through it (a UTF-8 local part and no
    SMTPUTF8), each address sent -> the recipient as queued, and whether it `accepted`
    any (then it took the mail, for them)."""

    refused: dict[str, tuple[int, bytes]]
    unsendable: list[str]
    queued_as: dict[str, str]
    accepted: bool = True

    def of(self, item: outbox.Outbound) -> Taken:
        """What was said of `item`'s own recipients, of a mail sent to several rows'."""
        mine = set(item.recipients)
        refused = {a: r for a, r in self.refused.items() if self.queued_as.get(a) in mine}
        unsendable = [a for a in self.unsendable if self.queued_as.get(a) in mine]
        accepted = len(refused) + len(unsendable) < len(item.recipients) and self.accepted
        return Taken(refused, unsendable, self.queued_as, accepted)


def _how(config: Config, taken: Taken) -> str:
    """How a mail the relay took went: to all, or with some recipients refused; raises
    PartlyDelivered when any was refused for now (4xx), for those to be tried again:
    marked sent, the mail would never reach them."""
    refused, unsendable, queued_as = taken.refused, taken.unsendable, taken.queued_as
    if not refused and not unsendable:
        return f"sent to {config.smtp_out.host}:{config.smtp_out.port}"
    said = [f"{a} ({c} {m.decode(errors='replace')})" for a, (c, m) in refused.items()]
    how = "sent; refused: " + ", ".join([*said, *unsendable])
    later = tuple(queued_as[a] for a, (code, _) in refused.items() if code < 500)
    if later:
        raise PartlyDelivered(how, later)
    return how


def dot_stuffed(raw: bytes) -> bytes:
    """`raw` as the DATA of an SMTP transaction (RFC 5321 4.5.2): each line that begins
    with a dot given another, the last line ended, and the lone dot that ends it."""
    body = _doubled(raw)
    return body + (b"" if body.endswith(b"\r\n") else b"\r\n") + b".\r\n"


def _doubled(lines: bytes) -> bytes:
    """`lines` (a run of lines at the start of a line) with each line that begins with a
    dot given another."""
    return (b"." if lines.startswith(b".") else b"") + lines.replace(b"\n.", b"\n..")


def delivery_for(config: Config) -> MaildirDelivery | SmtpDelivery:
    if config.outbound_mode == "maildir":
        return MaildirDelivery(config.maildir)
    return SmtpDelivery(config)


def drain(
    db: sqlite_utils.Database,
    delivery: MaildirDelivery | SmtpDelivery,
    clock: Callable[[], datetime],
    limit: int = 500,
    *,
    attach_picture: PictureStep,
    look_ahead: int = 0,
    give_way: Callable[[], bool] = lambda: False,
    bulk: bool = True,
) -> int:
    """Send up to `limit` of the mails due, stopping early once `give_way()` says so (a
    mail came, to be answered first); returns how many were sent. The pictures of
    `look_ahead` more are begun meanwhile. Mails queued with a picture are finished by
    `attach_picture` (which stores them) before the first is sent. Without `bulk`, only
    the direct answers and the results ready (store/outbox.due_heads)."""
    attach_picture.store_drawn(db, attach_picture.drawn_ahead(), clock())
    # One more than `limit`: is there more?
    items = outbox.due_heads(db, clock(), limit + max(1, look_ahead), bulk=bulk)
    if not items:
        delivery.close()  # idle: no connection kept open
        return 0
    attach_picture.ahead(items)
    batch = finished(db, clock, items, attach_picture, limit)
    delivered: list[tuple[int, str]] = []
    try:
        _deliver(db, delivery, clock, batch, delivered, give_way)
    finally:
        # One commit for the slice; a crash before it resends these same bytes.
        outbox.mark_sent_many(db, delivered, clock())
    if len(delivered) == len(items):
        delivery.close()  # nothing left due
    return len(delivered)


def finished(
    db: sqlite_utils.Database,
    clock: Callable[[], datetime],
    items: Sequence[outbox.Head],
    attach_picture: PictureStep,
    limit: int,
) -> list[outbox.Outbound]:
    """Up to `limit` of `items` that can be sent now (see sendable), read whole, their
    pictures attached and stored."""
    batch = outbox.bodies(db, sendable(items, attach_picture.ready, limit))
    if any(item.picture for item in batch):
        batch = attach_picture(db, batch, clock())
    return batch


def sendable(
    items: Sequence[outbox.Head], ready: Callable[[outbox.Head], bool], limit: int
) -> list[outbox.Head]:
    """Up to `limit` of `items`, in their order: those whose picture is ready, except
    where an earlier mail to one of the same recipients waits for its picture."""
    chosen: list[outbox.Head] = []
    waiting: set[str] = set()  # recipients of a mail that waits
    for item in items:
        if len(chosen) >= limit:
            break
        if waiting.intersection(item.recipients) or not ready(item):
            waiting.update(item.recipients)
            continue
        chosen.append(item)
    return chosen


def _deliver(
    db: sqlite_utils.Database,
    delivery: MaildirDelivery | SmtpDelivery,
    clock: Callable[[], datetime],
    batch: Sequence[outbox.Outbound],
    delivered: list[tuple[int, str]],
    give_way: Callable[[], bool],
) -> None:
    """Deliver `batch` in order, the copies of one mail together (mail/together.py),
    adding (id, how) of each mail delivered to `delivered`; a failure is recorded at
    once. Stops at the first sign that the server is unhappy, and after a mail other
    than a direct answer once `give_way()` says so."""
    for unit in together.units(batch):
        outcomes = attempt_together(delivery, unit)
        for outcome in outcomes:
            if outcome.how is not None and not outcome.later:
                delivered.append((outcome.item.id, outcome.how))
            else:  # not delivered, or not to all its recipients
                record_failure(db, outcome, clock())
        if any(outcome.stops for outcome in outcomes):
            return  # the server is unhappy: try the rest later
        sent = any(outcome.how is not None for outcome in outcomes)
        if sent and not unit[0].direct and give_way():
            return  # the direct answers all go first


@dataclass(frozen=True)
class Outcome:
    """What became of one mail: `how` it was delivered (to all its recipients but
    `later`, refused for now), or the `error` (`permanent`: it is given up; `stops`: the
    server failed, so the mails behind it wait), or untried (`how` and `error` both None:
    judge/mail/send_threads.py)."""

    item: outbox.Outbound
    how: str | None = None
    error: str | None = None
    permanent: bool = False
    stops: bool = False
    later: tuple[str, ...] = ()
    machine: bool = False  # the error was the machine's (failures.is_transient): not counted


def attempt(delivery: MaildirDelivery | SmtpDelivery, item: outbox.Outbound) -> Outcome:
    """Deliver `item` once; what became of it. Never raises a fault of the mail's or the
    server's."""
    try:
        how = delivery.deliver(item)
    except PartlyDelivered as e:
        crash_point("send-delivered")
        return Outcome(item, how=e.how, later=e.later)
    except PermanentFailure as e:
        return Outcome(item, error=str(e), permanent=True)
    except (OSError, smtplib.SMTPException) as e:
        delivery.close()
        error = f"{type(e).__name__}: {e}"
        return Outcome(item, error=error, stops=True, machine=is_transient(e))
    except Exception as e:  # a fault of this one mail: it never stops the others
        log.exception("outbound %s %s: could not be sent", item.id, item.message_id)
        delivery.close()
        return Outcome(item, error=f"{type(e).__name__}: {e}")
    crash_point("send-delivered")
    return Outcome(item, how=how)


def attempt_together(
    delivery: MaildirDelivery | SmtpDelivery, items: Sequence[outbox.Outbound]
) -> list[Outcome]:
    """Deliver `items`, copies of one mail to different readers (the same bytes and
    Message-ID: outbound.results_together), in one SMTP transaction to all their
    recipients; what became of each, as `attempt` would say of it alone, except that a
    reader refused while others took the mail is no sign the server failed (`stops`).
    Never raises a fault of the mail's or the server's."""
    if len(items) == 1 or not isinstance(delivery, SmtpDelivery):
        return [attempt(delivery, item) for item in items]
    readers = tuple(address for item in items for address in item.recipients)
    try:
        taken = delivery.transfer(replace(items[0], recipients=readers))
    except PermanentFailure as e:
        return [Outcome(item, error=str(e), permanent=True) for item in items]
    except (OSError, smtplib.SMTPException) as e:
        delivery.close()
        error = f"{type(e).__name__}: {e}"
        return [Outcome(item, error=error, stops=True, machine=is_transient(e)) for item in items]
    except Exception as e:  # a fault of this one mail: it never stops the others
        log.exception("outbound %s %s: could not be sent", items[0].id, items[0].message_id)
        delivery.close()
        return [Outcome(item, error=f"{type(e).__name__}: {e}") for item in items]
    crash_point("send-delivered")
    return [_outcome(delivery.config, item, taken.of(item), taken.accepted) for item in items]


def _outcome(config: Config, item: outbox.Outbound, taken: Taken, sent: bool) -> Outcome:
    """What became of `item` in a transaction that went to others too (`sent`: the relay
    took it for any of them), from what the relay said of its own recipients."""
    if taken.accepted:
        try:
            return Outcome(item, how=_how(config, taken))
        except PartlyDelivered as e:
            return Outcome(item, how=e.how, later=e.later)
    text, permanent = _refusal(taken)
    return Outcome(item, error=text, permanent=permanent, stops=not permanent and not sent)


def _refusal(taken: Taken) -> tuple[str, bool]:
    """Why a relay that took none of a mail's recipients refused them, and whether for
    good (every one refused with a 5xx, or not sendable through it at all)."""
    said = [f"{a}: {c} {m.decode(errors='replace')}" for a, (c, m) in taken.refused.items()]
    detail = "; ".join([*said, *(f"{a}: no SMTPUTF8" for a in taken.unsendable)])
    if all(c >= 500 for c, _ in taken.refused.values()):
        return f"all recipients refused: {detail}", True
    return f"recipients refused for now: {detail}", False


def record_failure(db: sqlite_utils.Database, outcome: Outcome, now: datetime) -> None:
    """Record a mail not delivered: given up (permanent), else tried again later; an
    untried mail stays queued as it is. A mail delivered to some of its recipients is
    tried again later for the others (`later`) only."""
    item, error = outcome.item, outcome.error
    if outcome.later and outcome.how is not None:
        retry_later(db, item, now, outcome.how, outcome.later)
        return
    if error is None:
        return
    if outcome.permanent:
        log.warning("outbound %s %s: gave up: %s", item.id, item.message_id, error)
        outbox.mark_failed(db, item.id, now, error)
    else:
        retry_later(db, item, now, error, counted=not outcome.machine)


def retry_later(
    db: sqlite_utils.Database,
    item: outbox.Outbound,
    now: datetime,
    error: str,
    recipients: Sequence[str] | None = None,
    counted: bool = True,
) -> None:
    """Try `item` again after the backoff (to `recipients` only, when given), or give it
    up after MAX_ATTEMPTS tries; a try failed by the machine (the outbox's disk full or
    read-only) is not `counted`: tried again at the same backoff, however long the fault
    lasts, never given up for it."""
    if not counted:
        outbox.mark_retry(db, item.id, now, error, backoff(item.attempts), counted=False)
    elif item.attempts + 1 >= MAX_ATTEMPTS:
        outbox.mark_failed(db, item.id, now, f"gave up after retries: {error}", recipients)
    else:
        outbox.mark_retry(db, item.id, now, error, backoff(item.attempts), recipients)
    log.warning("outbound %s %s: %s", item.id, item.message_id, error)

"""The embedded SMTP receiver (aiosmtpd): the default inbound when no IMAP is configured.

A message is stored and committed before the judge answers 250, so an accepted message
survives a crash; the sender's MTA retries anything not acknowledged, and the store's
deduplication makes the retry harmless. Only the judge's own address is accepted as a
recipient, and data beyond the protocol limit is refused. Connections past the caps of
judge/mail/smtp_limits.py (in all, per peer) are answered 421 and closed unread, unless
a connection silent long enough is closed to make room.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any, AnyStr

import sqlite_utils
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session

from judge.config import Config
from judge.crashpoints import crash_point
from judge.mail.intake import taken_bytes
from judge.mail.smtp_limits import (
    MAX_SMTP_CONNECTIONS,
    MAX_SMTP_CONNECTIONS_PER_PEER,
    SMTP_TIMEOUT_SECONDS,
    ConnectionSlots,
    peer_key,
    refusal_reply,
)
from judge.store import inbox
from judge.store.db import open_db

log = logging.getLogger("judge.smtp")


class JudgeHandler:
    def __init__(
        self, config: Config, clock: Callable[[], datetime], wake: Callable[[], None]
    ) -> None:
        self.config = config
        self.clock = clock
        self.wake = wake
        # Opened in the receiver's own thread, on first use.
        self.db: sqlite_utils.Database | None = None

    async def handle_RCPT(  # noqa: N802 (aiosmtpd's hook name)
        self,
        server: SMTP,
        session: Session,
        envelope: Envelope,
        address: str,
        rcpt_options: list[str],
    ) -> str:
        if address.strip().lower() != self.config.address.lower():
            return f"550 5.1.1 <{address}>: this server accepts mail only for {self.config.address}"
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

    async def handle_DATA(  # noqa: N802
        self, server: SMTP, session: Session, envelope: Envelope
    ) -> str:
        raw = envelope.original_content or b""
        mail_from = envelope_sender(envelope.mail_from)
        # As a final-delivery MTA does: the envelope sender becomes Return-Path, and the
        # null sender of a bounce (MAIL FROM:<>) is Return-Path: <>.
        # Control characters left out: aiosmtpd takes `MAIL FROM:<a\rb@c>`, and a bare CR
        # in this line ended the header block there (the mail's From: was never read).
        written = "".join(c for c in mail_from if c.isprintable())
        raw = f"Return-Path: <{written}>\r\n".encode("ascii", "replace") + raw
        crash_point("smtp-received")
        try:
            if self.db is None:
                self.db = open_db(self.config.database)
            inbound_id = inbox.ingest(self.db, raw, "smtp", self.clock(), return_path=mail_from)
        except Exception:
            log.exception("could not store a message from <%s>", mail_from)
            return "451 4.3.0 Could not store the message; please try again later"
        log.info(
            "stored message %s from <%s> (%d bytes)",
            inbound_id if inbound_id is not None else "(duplicate)",
            mail_from,
            len(raw),
        )
        crash_point("smtp-stored")
        self.wake()
        return "250 2.0.0 Message accepted"


def envelope_sender(mail_from: str | None) -> str:
    """The envelope sender without its angle brackets: "" for the null sender `<>`
    (aiosmtpd hands "<>" over as it was written)."""
    return (mail_from or "").strip().strip("<>").strip()


class _LenientSMTP(SMTP):
    # RFC 5321 allows 1000 characters a line, but real clients send longer lines and the
    # judge would rather read them than refuse a player's orders.
    line_length_limit = 100_000

    def __init__(self, handler: JudgeHandler, slots: ConnectionSlots, **kwargs: Any) -> None:
        super().__init__(handler, **kwargs)
        self.slots = slots
        self.peer: str | None = None  # the peer its slot is counted under, while it holds one
        self.refused = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """Take a slot, or answer 421 and close before reading anything."""
        # aiosmtpd calls this again after STARTTLS, on the same connection: counted once.
        if self.transport is None and not self.refused:
            peer = peer_key(transport.get_extra_info("peername"))
            reason = self.slots.admit(peer, self)
            if reason is not None:
                self.refused = True
                if isinstance(transport, asyncio.WriteTransport):
                    transport.write(refusal_reply(self.hostname, reason))
                transport.close()  # after the line is written
                return
            self.peer = peer
        super().connection_made(transport)

    def data_received(self, data: bytes) -> None:
        # A whole line (a command, a line of DATA) is heard; bytes dribbled without one
        # are not, or one byte every few seconds would keep a slot from being given.
        if b"\n" in data:
            self.slots.heard(self)
        super().data_received(data)

    async def push(self, status: AnyStr) -> None:
        # While the judge stores a mail or answers, the client waits for us, not idle.
        self.slots.heard(self)
        await super().push(status)

    def make_room(self, reason: str) -> None:
        """Closed for a new connection while every slot is taken: one 421 line saying
        `reason`, then the connection is closed (the sending MTA tries again later; a
        mail whose DATA it cut is not answered 250, so it comes again, and a copy the
        judge had stored already is known by its key)."""
        if isinstance(self.transport, asyncio.WriteTransport):
            self.transport.write(refusal_reply(self.hostname, reason))
        if self.transport is not None:
            self.transport.close()

    def connection_lost(self, error: Exception | None) -> None:
        """Free the slot however the connection ended: QUIT, the client vanishing, the
        timeout, the receiver stopping, or its closing to make room."""
        if self.peer is not None:
            self.slots.release(self.peer, self)
            self.peer = None
        if not self.refused:  # a refused one never started aiosmtpd's session
            super().connection_lost(error)


class _Controller(Controller):
    def __init__(self, handler: JudgeHandler, slots: ConnectionSlots, **kwargs: Any) -> None:
        super().__init__(handler, **kwargs)
        self.slots = slots

    def factory(self) -> SMTP:
        return _LenientSMTP(self.handler, self.slots, **self.SMTP_kwargs)


class SmtpReceiver:
    """Starts and stops the receiver in its own thread."""

    def __init__(
        self,
        config: Config,
        clock: Callable[[], datetime],
        wake: Callable[[], None] = lambda: None,
        slots: ConnectionSlots | None = None,
        timeout: float = SMTP_TIMEOUT_SECONDS,
    ) -> None:
        """`slots` and `timeout`: the judge's caps and aiosmtpd's silence timeout unless
        given (tests make them small)."""
        self.handler = JudgeHandler(config, clock, wake)
        if slots is None:
            slots = ConnectionSlots(MAX_SMTP_CONNECTIONS, MAX_SMTP_CONNECTIONS_PER_PEER)
        self.slots = slots
        # The protocol limit is generous; the judge's own size limit (max_message_bytes)
        # is applied after storing, with a reply, so that nothing is silently lost.
        self.controller = _Controller(
            self.handler,
            self.slots,
            hostname=config.smtp_in.host,
            port=config.smtp_in.port,
            data_size_limit=taken_bytes(config.max_message_bytes),
            server_hostname=config.address.rpartition("@")[2] or "judge",
            ready_timeout=10,
            timeout=timeout,
        )

    def start(self) -> None:
        self.controller.start()
        log.info("SMTP receiver listening on %s:%s", self.controller.hostname, self.controller.port)

    def stop(self) -> None:
        self.controller.stop()
        if self.handler.db is not None:
            self.handler.db.conn.close()

"""An aiosmtpd server on 127.0.0.1 that keeps what it receives: the judge's SMTP peer."""

from __future__ import annotations

import socket
import threading
from dataclasses import dataclass, field

from aiosmtpd.controller import Controller


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Received:
    mail_from: str
    rcpt_tos: list[str]
    data: bytes
    mail_options: list[str] = field(default_factory=list)  # e.g. SMTPUTF8, BODY=8BITMIME


@dataclass
class _Handler:
    messages: list[Received] = field(default_factory=list)
    answer: str | None = None  # e.g. "451 4.3.0 busy": refuse DATA with this
    # Recipient -> the answer to its RCPT (e.g. "452 4.2.2 mailbox full"); others get 250.
    refuse: dict[str, str] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    pipelining: bool = True  # offer PIPELINING (RFC 2920), as Postfix and Exim do

    async def handle_EHLO(self, server, session, envelope, hostname, responses) -> list[str]:  # noqa: N802
        session.host_name = hostname  # the hook's to set (aiosmtpd's 5-argument form)
        if not self.pipelining:
            return responses
        return [*responses[:-1], "250-PIPELINING", responses[-1]]

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options) -> str:  # noqa: N802
        if address in self.refuse:
            return self.refuse[address]
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope) -> str:  # noqa: N802
        if self.answer:
            return self.answer
        with self.lock:
            self.messages.append(
                Received(
                    envelope.mail_from,
                    list(envelope.rcpt_tos),
                    envelope.original_content,
                    list(envelope.mail_options),
                )
            )
        return "250 OK"


class SmtpSink:
    """`with SmtpSink() as sink:` ... `sink.messages`; `sink.answer = "550 ..."` to refuse."""

    def __init__(
        self, port: int | None = None, smtputf8: bool = False, pipelining: bool = True
    ) -> None:
        """`smtputf8`: offer SMTPUTF8 (RFC 6531), as some relays do and others do not;
        `pipelining`: offer PIPELINING (RFC 2920), as most do."""
        self.port = port or free_port()
        self.handler = _Handler(pipelining=pipelining)
        self.controller = Controller(
            self.handler, hostname="127.0.0.1", port=self.port, enable_SMTPUTF8=smtputf8
        )

    @property
    def messages(self) -> list[Received]:
        with self.handler.lock:
            return list(self.handler.messages)

    @property
    def refuse(self) -> dict[str, str]:
        """Recipient -> the answer to its RCPT, for those the sink refuses (a live dict)."""
        return self.handler.refuse

    @property
    def answer(self) -> str | None:
        return self.handler.answer

    @answer.setter
    def answer(self, value: str | None) -> None:
        self.handler.answer = value

    def __enter__(self) -> SmtpSink:
        self.controller.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.controller.stop()  # always: an unstopped controller hangs the process at exit

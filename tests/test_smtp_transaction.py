"""judge/mail/smtp_transaction.py against a scripted relay on 127.0.0.1: what reaches
the relay, in which groups, and what each of its answers makes of the mail."""

from __future__ import annotations

import smtplib
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import pytest
from smtp_sink import free_port

from judge.mail.outbox import dot_stuffed
from judge.mail.smtp_transaction import transfer

RAW = b"From: judge@example.org\r\nSubject: S1901M Results\r\n\r\n.a line with a dot\r\n"
DATA = (dot_stuffed(RAW), len(RAW))


@dataclass
class Script:
    """A relay's answers: to each command, in order of the commands (MAIL, each RCPT,
    DATA), and to the mail's end. `pipelining`: offered in EHLO; the relay then answers
    nothing until DATA has come (a client that waits for MAIL's answer would wait for
    ever), else it answers each command as it comes. `close_after`: the relay closes the
    connection after that many answers to the commands."""

    commands: list[str]
    end: str = "250 2.0.0 queued"
    pipelining: bool = True
    close_after: int | None = None
    groups: list[list[bytes]] = field(default_factory=list)  # the commands as they came
    data: list[bytes] = field(default_factory=list)  # each mail's content, as sent


def _serve(listener: socket.socket, script: Script) -> None:
    conn, _ = listener.accept()
    with conn:
        reader = conn.makefile("rb")
        conn.sendall(b"220 relay ready\r\n")
        reader.readline()  # EHLO
        offered = b"250-PIPELINING\r\n" if script.pipelining else b""
        conn.sendall(b"250-relay\r\n" + offered + b"250 SIZE 1000000\r\n")
        answers = iter(script.commands)
        answered = 0
        while True:
            group = [reader.readline()]
            if group[0] in (b"", b"QUIT\r\n"):
                conn.sendall(b"221 bye\r\n")
                return
            while script.pipelining and group[-1] != b"DATA\r\n":
                group.append(reader.readline())
            script.groups.append(group)
            for _ in group:
                conn.sendall(next(answers).encode() + b"\r\n")
                answered += 1
                if answered == script.close_after:
                    return
            if group[-1] == b"DATA\r\n" and script.commands[answered - 1].startswith("354"):
                lines = []
                while not lines or lines[-1] != b".\r\n":
                    lines.append(reader.readline())
                script.data.append(b"".join(lines))
                conn.sendall(script.end.encode() + b"\r\n")


@contextmanager
def relay(script: Script) -> Iterator[smtplib.SMTP]:
    """An SMTP connection, EHLO said, to a relay that follows `script`."""
    port = free_port()
    listener = socket.create_server(("127.0.0.1", port))
    server = threading.Thread(target=_serve, args=(listener, script), daemon=True)
    server.start()
    smtp = smtplib.SMTP("127.0.0.1", port, timeout=10)
    try:
        smtp.ehlo()
        yield smtp
    finally:
        smtp.close()
        listener.close()
        server.join(10)


def test_a_pipelining_relay_gets_mail_rcpts_and_data_in_one_group() -> None:
    script = Script(["250 ok", "250 ok", "250 ok", "354 go ahead"])
    with relay(script) as smtp:
        refused = transfer(smtp, "judge@example.org", ["a@example.org", "b@example.org"], DATA, [])
    assert refused == {}
    assert script.groups == [
        [
            f"MAIL FROM:<judge@example.org> size={len(RAW)}\r\n".encode(),
            b"RCPT TO:<a@example.org>\r\n",
            b"RCPT TO:<b@example.org>\r\n",
            b"DATA\r\n",
        ]
    ]
    assert script.data == [DATA[0]]  # the dot doubled, the final dot


def test_a_relay_without_pipelining_is_asked_one_command_at_a_time() -> None:
    script = Script(["250 ok", "250 ok", "354 go ahead"], pipelining=False)
    with relay(script) as smtp:
        assert transfer(smtp, "judge@example.org", ["a@example.org"], DATA, []) == {}
    assert script.groups == [
        [f"mail FROM:<judge@example.org> size={len(RAW)}\r\n".encode()],
        [b"rcpt TO:<a@example.org>\r\n"],
        [b"DATA\r\n"],
    ]
    assert script.data == [DATA[0]]


@pytest.mark.parametrize("pipelining", [True, False])
def test_a_recipient_refused_among_others_is_returned_and_the_mail_sent(pipelining: bool) -> None:
    answers = ["250 ok", "550 5.1.1 no such user", "250 ok", "354 go ahead"]
    script = Script(answers, pipelining=pipelining)
    with relay(script) as smtp:
        refused = transfer(
            smtp, "judge@example.org", ["gone@example.org", "b@example.org"], DATA, []
        )
    assert refused == {"gone@example.org": (550, b"5.1.1 no such user")}
    assert script.data == [DATA[0]]


def test_every_recipient_refused_sends_no_mail() -> None:
    answers = ["250 ok", "550 5.1.1 no such user", "452 4.2.2 full", "554 5.5.1 no recipients"]
    script = Script(answers)
    with relay(script) as smtp, pytest.raises(smtplib.SMTPRecipientsRefused) as caught:
        transfer(smtp, "judge@example.org", ["a@example.org", "b@example.org"], DATA, [])
    assert caught.value.recipients == {
        "a@example.org": (550, b"5.1.1 no such user"),
        "b@example.org": (452, b"4.2.2 full"),
    }
    assert script.data == []


def test_a_relay_that_lets_data_go_ahead_with_no_recipient_gets_an_empty_mail() -> None:
    # RFC 2920 says it should refuse DATA then; one that does not is given the lone dot.
    script = Script(["250 ok", "550 5.1.1 no such user", "354 go ahead"], end="554 no thanks")
    with relay(script) as smtp, pytest.raises(smtplib.SMTPRecipientsRefused):
        transfer(smtp, "judge@example.org", ["a@example.org"], DATA, [])
    assert script.data == [b".\r\n"]


def test_a_sender_refused_is_raised_after_the_other_answers_are_read() -> None:
    answers = ["552 5.3.4 too big", "503 5.5.1 MAIL first", "503 5.5.1 MAIL first"]
    script = Script(answers)
    with relay(script) as smtp:
        with pytest.raises(smtplib.SMTPSenderRefused) as caught:
            transfer(smtp, "judge@example.org", ["a@example.org"], DATA, [])
        assert (caught.value.smtp_code, caught.value.smtp_error) == (552, b"5.3.4 too big")
        assert smtp.docmd("QUIT") == (221, b"bye")  # in step: the next answer is QUIT's
    assert script.data == []


def test_a_relay_closing_at_rcpt_is_not_read_further() -> None:
    answers = ["250 ok", "421 4.3.2 shutting down", "250 ok", "354 go ahead"]
    script = Script(answers, close_after=2)
    with relay(script) as smtp, pytest.raises(smtplib.SMTPRecipientsRefused) as caught:
        transfer(smtp, "judge@example.org", ["a@example.org", "b@example.org"], DATA, [])
    assert caught.value.recipients == {"a@example.org": (421, b"4.3.2 shutting down")}


def test_a_line_break_in_a_command_sends_nothing() -> None:
    # smtplib's own guard, kept: no command of the relay's made out of a value of ours.
    # (quoteaddr already drops what follows a line break in an address.)
    script = Script([])
    with relay(script) as smtp, pytest.raises(ValueError, match="line break"):
        transfer(smtp, "judge@example.org", ["a@example.org"], DATA, ["BODY=7BIT\r\nRSET"])
    assert script.groups == []


def test_smtputf8_commands_go_in_utf8() -> None:
    script = Script(["250 ok", "250 ok", "354 go ahead"])
    with relay(script) as smtp:
        transfer(smtp, "judge@example.org", ["österreich@example.org"], DATA, ["SMTPUTF8"])
    assert script.groups[0][1] == "RCPT TO:<österreich@example.org>\r\n".encode()
    assert script.groups[0][0].endswith(b" SMTPUTF8\r\n")

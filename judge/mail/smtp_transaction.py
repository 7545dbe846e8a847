"""One mail handed to the relay: MAIL, RCPT for each recipient, DATA (RFC 5321).

With a relay that offers PIPELINING (RFC 2920), as Postfix, Exim and the big mail
providers do, MAIL, the RCPTs and DATA go in one write and their answers are read
together: two waits for the relay a mail instead of three or more. Each wait costs a
round trip (a relay across the internet: tens of milliseconds a mail, on every one of a
send thread's mails) and, to a relay on the same machine, the system calls and thread
switches of a write and a read (measured with Postfix's smtp-sink on loopback: half the
CPU the judge's send threads spent a mail). A relay that does not offer it is asked one
command at a time, as smtplib's sendmail does.
"""

from __future__ import annotations

import smtplib


def transfer(
    smtp: smtplib.SMTP,
    sender: str,
    recipients: list[str],
    data: tuple[bytes, int],
    options: list[str],
) -> dict[str, tuple[int, bytes]]:
    """Send a mail on `smtp` as smtplib's sendmail does (MAIL with the size when the relay
    takes it, RCPT for each recipient, DATA), raising its errors, and return the
    recipients refused; the caller closes the connection after an error. `data`: the mail
    with its lines that begin with a dot doubled and the final dot (judge/mail/outbox.
    smtp_data), and its size before (sendmail's regular expression took half a
    millisecond for each results mail's 150 KB, some 4 s of CPU in the daemon's process
    for a thousand games' results)."""
    stuffed, size = data
    if smtp.does_esmtp and smtp.has_extn("size"):  # as sendmail declares it
        options = [f"size={size}", *options]
    if smtp.does_esmtp and smtp.has_extn("pipelining"):
        refused = _pipelined(smtp, sender, recipients, options)
    else:
        refused = _one_by_one(smtp, sender, recipients, options)
    smtp.send(stuffed)
    code, said = smtp.getreply()
    if code != 250:
        raise smtplib.SMTPDataError(code, said)
    return refused


def _one_by_one(
    smtp: smtplib.SMTP, sender: str, recipients: list[str], options: list[str]
) -> dict[str, tuple[int, bytes]]:
    """MAIL, each RCPT and DATA, each answer awaited before the next; the recipients
    refused. Returns once DATA is answered 354 (go ahead)."""
    code, said = smtp.mail(sender, options)
    if code != 250:
        raise smtplib.SMTPSenderRefused(code, said, sender)
    refused: dict[str, tuple[int, bytes]] = {}
    for recipient in recipients:
        code, said = smtp.rcpt(recipient)
        if code not in (250, 251):
            refused[recipient] = (code, said)
        if code == 421:  # the relay is closing: the rest cannot be asked
            raise smtplib.SMTPRecipientsRefused(refused)
    if len(refused) == len(recipients):
        raise smtplib.SMTPRecipientsRefused(refused)
    code, said = smtp.docmd("DATA")
    if code != 354:
        raise smtplib.SMTPDataError(code, said)
    return refused


def _pipelined(
    smtp: smtplib.SMTP, sender: str, recipients: list[str], options: list[str]
) -> dict[str, tuple[int, bytes]]:
    """MAIL, the RCPTs and DATA in one write, then their answers in order (RFC 2920);
    the recipients refused. Returns once DATA is answered 354, as _one_by_one does, and
    raises what it raises; every answer is read first, but after a 421 (the relay is
    closing: nothing more comes)."""
    smtp.send(_commands(smtp, sender, recipients, options))
    code, said = smtp.getreply()
    if code == 421:
        raise smtplib.SMTPSenderRefused(code, said, sender)
    mail_refused = None if code == 250 else smtplib.SMTPSenderRefused(code, said, sender)
    refused: dict[str, tuple[int, bytes]] = {}
    for recipient in recipients:
        code, said = smtp.getreply()
        if code not in (250, 251):
            refused[recipient] = (code, said)
        if code == 421:
            raise mail_refused or smtplib.SMTPRecipientsRefused(refused)
    code, said = smtp.getreply()  # DATA's
    if code == 354 and (mail_refused or len(refused) == len(recipients)):
        # A relay that lets DATA go ahead with no one to send to (RFC 2920 says it
        # should not): an empty mail ends the transaction, and the relay is answered.
        smtp.send(b".\r\n")
        smtp.getreply()
    if mail_refused:
        raise mail_refused
    if len(refused) == len(recipients):
        raise smtplib.SMTPRecipientsRefused(refused)
    if code != 354:
        raise smtplib.SMTPDataError(code, said)
    return refused


def _commands(smtp: smtplib.SMTP, sender: str, recipients: list[str], options: list[str]) -> bytes:
    """The MAIL, RCPT and DATA commands of one mail, as smtplib writes each (an address
    in angle brackets, UTF-8 when SMTPUTF8 is asked for, ASCII otherwise); ValueError for
    a line break in any (smtplib's own guard: it would make commands of its own)."""
    tail = "".join(f" {option}" for option in options)
    lines = [f"MAIL FROM:{smtplib.quoteaddr(sender)}{tail}"]
    lines += [f"RCPT TO:{smtplib.quoteaddr(recipient)}" for recipient in recipients]
    lines.append("DATA")
    for line in lines:
        if "\r" in line or "\n" in line:
            raise ValueError(f"a line break in an SMTP command: {line!r}")
    utf8 = any(option.lower() == "smtputf8" for option in options)
    if utf8:
        smtp.command_encoding = "utf-8"  # as smtplib's mail() does for SMTPUTF8
    return "".join(f"{line}\r\n" for line in lines).encode(smtp.command_encoding)

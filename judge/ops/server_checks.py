"""The checks of `judge check-config` that talk to servers: the IMAP mailbox, the SMTP
receiver's port and the SMTP relay; their failures in plain words, never a password."""

from __future__ import annotations

import contextlib
import imaplib
import smtplib
import socket
import ssl

from judge.config import Config
from judge.ops.checks import Check
from judge.ops.console import plural
from judge.service.startup import port_reason, probe_port

NETWORK_TIMEOUT = 10.0  # seconds: check-config never hangs on a dead server


def _plain(e: BaseException, host: str, port: int) -> str:
    """A network or server error in plain words."""
    where = f"{host}:{port}"
    if isinstance(e, ConnectionRefusedError):
        return f"connection refused: nothing is listening on {where}"
    if isinstance(e, socket.gaierror):
        return f"unknown host {host!r} ({e.strerror})"
    if isinstance(e, TimeoutError | socket.timeout):
        return f"no answer from {where} within {NETWORK_TIMEOUT:g} seconds"
    if isinstance(e, ssl.SSLCertVerificationError):
        return f"the TLS certificate of {where} was not accepted: {e.verify_message}"
    if isinstance(e, ssl.SSLError):
        reason = e.reason or str(e)
        if reason in ("WRONG_VERSION_NUMBER", "UNKNOWN_PROTOCOL", "RECORD_LAYER_FAILURE"):
            return f"TLS failed ({reason}): {where} does not seem to speak TLS here"
        return f"TLS failed: {reason}"
    if isinstance(e, smtplib.SMTPAuthenticationError):
        return f"login refused: {e.smtp_code} {_text(e.smtp_error)}"
    if isinstance(e, smtplib.SMTPServerDisconnected):
        return f"{where} closed the connection ({e or 'no reason given'})"
    if isinstance(e, smtplib.SMTPResponseException):
        return f"{where} answered {e.smtp_code} {_text(e.smtp_error)}"
    if isinstance(e, smtplib.SMTPException):
        return str(e)
    if isinstance(e, ConnectionResetError | BrokenPipeError | EOFError):
        return f"{where} closed the connection"
    if isinstance(e, imaplib.IMAP4.error):
        return str(e) or type(e).__name__
    if isinstance(e, OSError) and e.strerror:
        return e.strerror
    return f"{type(e).__name__}: {e}"


def _text(value: bytes | str) -> str:
    """A server's answer as text, whatever its bytes."""
    return value.decode(errors="replace") if isinstance(value, bytes) else str(value)


def check_imap(config: Config, check: Check) -> None:
    """Log in to the IMAP server, select the mailbox, look for the processed one."""
    from imapclient import IMAPClient

    c = config.imap
    security = "TLS" if c.ssl else ("STARTTLS" if c.starttls else "plain text")
    part = f"inbound: IMAP {c.username or '(no user)'}@{c.host}:{c.port} ({security})"
    client = None
    step = "connect"
    try:
        client = IMAPClient(
            c.host,
            c.port,
            ssl=c.ssl,
            ssl_context=ssl.create_default_context() if c.ssl else None,
            timeout=NETWORK_TIMEOUT,
        )
        if not c.ssl and c.starttls:
            step = "STARTTLS"
            client.starttls(ssl.create_default_context())
        step = "log in"
        client.login(c.username, c.password)
        step = f"select the mailbox {c.mailbox!r}"
        info = client.select_folder(c.mailbox, readonly=True)
        waiting = int(info.get(b"EXISTS", 0))
        step = f"look for the mailbox {c.processed_mailbox!r}"
        processed = (
            "exists"
            if client.folder_exists(c.processed_mailbox)
            else "does not exist yet; the judge will create it"
        )
    except Exception as e:
        reason = _plain(e, c.host, c.port)
        if step == "log in":
            reason = f"login refused for {c.username!r}: {reason}"
        check.fail(part, f"could not {step}: {reason}")
        return
    finally:
        if client is not None:
            with contextlib.suppress(Exception):
                client.logout()
    check.ok(
        part,
        f"logged in; {c.mailbox} holds {plural(waiting, 'message')}; "
        f"{c.processed_mailbox} {processed}",
    )


def check_smtp_in(config: Config, check: Check) -> None:
    """The embedded SMTP receiver's address can be bound."""
    c = config.smtp_in
    part = f"inbound: SMTP receiver on {c.host}:{c.port}"
    try:
        probe_port(config)  # as judge run does before it starts the receiver
    except socket.gaierror as e:
        check.fail(part, _plain(e, c.host, c.port))
        return
    except OSError as e:
        reason = port_reason(e, c.host, "by the judge itself") or _plain(e, c.host, c.port)
        check.fail(part, f"cannot listen there: {reason}")
        return
    check.ok(part, "the port can be bound")


def check_smtp_out(config: Config, check: Check) -> None:
    """Connect to the SMTP relay, log in if configured, and have it answer NOOP."""
    c = config.smtp_out
    security = "TLS" if c.ssl else ("STARTTLS" if c.starttls else "plain text")
    login = f", login {c.username}" if c.username else ""
    part = f"outbound: SMTP relay {c.host}:{c.port} ({security}{login})"
    smtp: smtplib.SMTP | None = None
    step = "connect"
    try:
        if c.ssl:
            smtp = smtplib.SMTP_SSL(
                c.host, c.port, timeout=NETWORK_TIMEOUT, context=ssl.create_default_context()
            )
        else:
            smtp = smtplib.SMTP(c.host, c.port, timeout=NETWORK_TIMEOUT)
        step = "say EHLO"
        smtp.ehlo()
        if c.starttls:
            step = "start TLS"
            smtp.starttls(context=ssl.create_default_context())
            smtp.ehlo()
        if c.username:
            step = "log in"
            smtp.login(c.username, c.password)
        step = "NOOP"
        code, message = smtp.noop()
        if code != 250:
            raise smtplib.SMTPResponseException(code, message)
    except Exception as e:
        check.fail(part, f"could not {step}: {_plain(e, c.host, c.port)}")
        return
    finally:
        if smtp is not None:
            with contextlib.suppress(Exception):
                smtp.quit()
    check.ok(part, "connected" + (", logged in" if c.username else "") + ", NOOP answered 250")

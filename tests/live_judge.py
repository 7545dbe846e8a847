"""The judge as a running process, from the outside: waits on conditions, a `judge run`
subprocess on a TOML configuration, mail into its SMTP port and out of its Maildir."""

from __future__ import annotations

import email
import itertools
import os
import smtplib
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from email.message import EmailMessage
from email.policy import default
from pathlib import Path
from typing import IO

from smtp_sink import free_port

from judge.config import Config, SmtpInConfig
from judge.store.db import open_db

JUDGE = "judge@example.org"
ORDERS = "SIGNON FTEST secret\r\nA PAR - BUR\r\n"
_serial = itertools.count(1)


def player_mail(subject: str = "orders", body: str = ORDERS) -> bytes:
    """A mail to the judge from a new player each time (Player n <playern@example.org>),
    with a Message-ID no other mail has."""
    n = next(_serial)
    return (
        f"From: Player {n} <player{n}@example.org>\r\n"
        f"To: {JUDGE}\r\n"
        f"Subject: {subject}\r\n"
        f"Message-ID: <{n}.{time.time_ns()}@example.org>\r\n"
        f"\r\n"
        f"{body}"
    ).encode()


def wait_until(condition: Callable[[], object], timeout: float = 10.0) -> bool:
    """Whether `condition()` held within `timeout` seconds (checked every 20 ms)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return bool(condition())


def waited(condition: Callable[[], object], timeout: float = 10.0) -> float:
    """Seconds until `condition()` held; fails the test on timeout."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if condition():
            return time.monotonic() - start
        time.sleep(0.02)
    raise AssertionError("timed out")


def listening(port: int) -> bool:
    """Whether something accepts connections on 127.0.0.1:`port`."""
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
        return True
    except OSError:
        return False


def smtp_config(tmp: Path, **changes: object) -> Config:
    """A judge "T" taking mail by SMTP on a free port and answering into the Maildir
    `tmp`/outbox; its store `tmp`/judge.db."""
    return Config(
        name="T",
        address=JUDGE,
        database=tmp / "judge.db",
        maildir=tmp / "outbox",
        smtp_in=SmtpInConfig(port=free_port()),
        **changes,  # type: ignore[arg-type]
    )


def judge_toml(folder: Path, name: str, port: int, sink_port: int | None = None) -> Path:
    """`folder`/judge.toml: a judge `name` with its store in judge.db (relative to the
    directory it runs in), taking mail by SMTP on `port` and sending it to the SMTP peer
    on `sink_port`, or into the Maildir `outbox` when there is none."""
    path = folder / "judge.toml"
    if sink_port is None:
        out = '[outbound]\nmode = "maildir"\n[outbound.maildir]\npath = "outbox"\n'
    else:
        out = '[outbound]\nmode = "smtp"\n[outbound.smtp]\nhost = "127.0.0.1"\n'
        out += f"port = {sink_port}\n"
    path.write_text(
        f'[judge]\nname = "{name}"\naddress = "{JUDGE}"\ndatabase = "judge.db"\n'
        f'[inbound]\nmode = "smtp"\n[inbound.smtp]\nhost = "127.0.0.1"\nport = {port}\n' + out
    )
    return path


def crash_env(crash: str | None) -> dict[str, str]:
    """This process's environment with JUDGE_CRASH_AT=`crash` (the judge kills itself
    there), or without it when `crash` is empty."""
    env = {k: v for k, v in os.environ.items() if k != "JUDGE_CRASH_AT"}
    if crash:
        env["JUDGE_CRASH_AT"] = crash
    return env


def start_judge(
    config: Path,
    port: int,
    *,
    log: IO | int = subprocess.DEVNULL,
    crash: str | None = None,
    cwd: Path | None = None,
    seconds: float = 20,
) -> subprocess.Popen:
    """`judge run` on `config` (JUDGE_CRASH_AT=`crash` when given, else unset), its
    output into `log`; returns once its SMTP `port` answers, the process has ended (the
    caller sees `poll()`), or `seconds` have gone by."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "judge.ops.cli", "--config", str(config), "run"],
        env=crash_env(crash),
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=log,
    )
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and proc.poll() is None and not listening(port):
        time.sleep(0.05)
    return proc


def send(
    port: int, raw: bytes, sender: str = "bob@example.org", to: str = JUDGE, timeout: float = 5
) -> None:
    """One mail into the SMTP port on 127.0.0.1, as an MTA hands it over."""
    with smtplib.SMTP("127.0.0.1", port, timeout=timeout) as smtp:
        smtp.sendmail(sender, [to], raw)


def maildir(path: Path) -> list[EmailMessage]:
    """The mails in `path`/new, in file-name order (none when it does not exist yet)."""
    new = path / "new"
    files = sorted(new.glob("*")) if new.exists() else []
    return [email.message_from_bytes(f.read_bytes(), policy=default) for f in files]


def replies_by_parent(raws: list[bytes]) -> dict[str, set[str]]:
    """In-Reply-To -> the Message-IDs of the replies to it, over the mails `raws`."""
    out: dict[str, set[str]] = {}
    for raw in raws:
        msg = email.message_from_bytes(raw, policy=default)
        out.setdefault(msg["In-Reply-To"], set()).add(msg["Message-ID"])
    return out


def send_to(config: Config, raw: str | bytes, to: str = JUDGE) -> None:
    """One mail from bob@example.org into the SMTP receiver of the judge on `config`."""
    send(config.smtp_in.port, raw if isinstance(raw, bytes) else raw.encode(), to=to)


def outbox(config: Config, count: int, timeout: float = 5) -> list[EmailMessage]:
    """The replies in the judge's Maildir once there are `count` of them at least."""
    if wait_until(lambda: len(maildir(config.maildir)) >= count, timeout):
        return maildir(config.maildir)
    found = len(maildir(config.maildir))
    raise AssertionError(
        f"expected {count} replies in the outbox, found {found}: {inbound_states(config)}"
    )


def settled(config: Config, messages: int, timeout: float = 10) -> None:
    """Wait until `messages` mails are stored, each handled or ignored, and nothing is
    left queued in the outbox: whatever the judge will send for them has been sent."""

    def done() -> bool:
        db = open_db(config.database)
        try:
            states = [r["state"] for r in db.query("SELECT state FROM inbound")]
            queued = db.execute("SELECT COUNT(*) FROM outbound WHERE state = 'queued'")
            return (
                len(states) == messages
                and all(s in ("handled", "ignored") for s in states)
                and queued.fetchone()[0] == 0
            )
        finally:
            db.conn.close()

    assert wait_until(done, timeout), f"not settled: {inbound_states(config)}"


def inbound_states(config: Config) -> list[tuple[str, str | None]]:
    """(state, error) of each stored inbound message, oldest first."""
    db = open_db(config.database)
    try:
        return [
            (r["state"], r["error"])
            for r in db.query("SELECT state, error FROM inbound ORDER BY id")
        ]
    finally:
        db.conn.close()

"""SIGHUP reloads the configuration of a running `judge run`; logging says what it did."""

from __future__ import annotations

import os
import signal
import smtplib
import socket
import subprocess
import sys
import time
from email import message_from_bytes
from email.policy import default
from pathlib import Path

from smtp_sink import free_port

CONFIG = """
[judge]
name = "{name}"
address = "judge@example.org"
database = "judge.db"
[inbound]
mode = "smtp"
[inbound.smtp]
host = "127.0.0.1"
port = {port}
[outbound]
mode = "maildir"
[outbound.maildir]
path = "outbox"
"""


def _send(port: int, n: int) -> None:
    mail = (
        f"From: p@example.org\r\nSubject: hello {n}\r\nMessage-ID: <reload-{n}@example.org>\r\n"
        "\r\nHELP\r\n"
    )
    with smtplib.SMTP("127.0.0.1", port, timeout=5) as smtp:
        smtp.sendmail("p@example.org", ["judge@example.org"], mail.encode())


def _subjects(outbox: Path, count: int) -> list[str]:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        files = sorted((outbox / "new").glob("*")) if (outbox / "new").exists() else []
        if len(files) >= count:
            return [message_from_bytes(f.read_bytes(), policy=default)["Subject"] for f in files]
        time.sleep(0.05)
    raise AssertionError(f"expected {count} replies")


def test_sighup_reloads_the_configuration(tmp_path: Path) -> None:
    port = free_port()
    config = tmp_path / "judge.toml"
    config.write_text(CONFIG.format(name="BEFORE", port=port))
    log = (tmp_path / "judge.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "judge.cli", "--config", str(config), "run"],
        stdout=log,
        stderr=log,
        env={k: v for k, v in os.environ.items() if k != "JUDGE_CRASH_AT"},
    )
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        _send(port, 1)
        assert _subjects(tmp_path / "outbox", 1) == ["[BEFORE] Re: hello 1"]
        config.write_text(CONFIG.format(name="AFTER", port=port))
        proc.send_signal(signal.SIGHUP)
        time.sleep(1.5)
        _send(port, 2)
        assert _subjects(tmp_path / "outbox", 2)[1] == "[AFTER] Re: hello 2"
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)
        log.close()
    text = (tmp_path / "judge.log").read_text()
    assert "SIGHUP: configuration reloaded from" in text
    assert "message 1 from p@example.org: handled, 1 reply queued" in text
    assert "HELP" not in text  # no message bodies in the log

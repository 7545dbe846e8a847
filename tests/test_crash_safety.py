"""Crash safety: the judge killed with SIGKILL at every step of ingest and of sending.

The real `judge run` daemon receives mail on its SMTP port and sends replies to an
aiosmtpd peer. Each of its lives ends in SIGKILL at a named crash point (see
judge/crashpoints.py); a test "MTA" resends whatever was not acknowledged with 250, and
the judge is restarted until everything is done. Then: every message was handled exactly
once, every reply was delivered at least once, and no message got two different replies.
"""

from __future__ import annotations

import email
import os
import signal
import smtplib
import socket
import subprocess
import sys
import time
from email.policy import default
from pathlib import Path

from smtp_sink import SmtpSink, free_port

from judge.store.db import open_db

N = 20
# (crash point, on which pass): one judge life per entry, then lives without crashes.
PLANS = [
    ("smtp-received", 1),
    ("smtp-stored", 1),
    ("smtp-stored", 3),
    ("handle-queued", 1),
    ("handle-committed", 1),
    ("handle-queued", 3),
    ("send-delivered", 1),
    ("send-delivered", 2),
    ("smtp-received", 4),
    ("handle-committed", 3),
]


def _mail(i: int) -> bytes:
    return (
        f"From: Player {i} <player{i}@example.org>\r\n"
        f"To: judge@example.org\r\n"
        f"Subject: orders {i}\r\n"
        f"Message-ID: <orders-{i}@example.org>\r\n"
        f"Date: Sat, 21 Nov 2026 12:00:00 +0000\r\n\r\n"
        f"A Par-Bur\r\nF Bre-Mao {i}\r\n"
    ).encode()


def _config(tmp: Path, port: int, sink_port: int) -> Path:
    path = tmp / "judge.toml"
    path.write_text(
        f"""
[judge]
name = "CRASH"
address = "judge@example.org"
database = "judge.db"
[inbound]
mode = "smtp"
[inbound.smtp]
host = "127.0.0.1"
port = {port}
[outbound]
mode = "smtp"
[outbound.smtp]
host = "127.0.0.1"
port = {sink_port}
"""
    )
    return path


def _start(config: Path, port: int, crash: str | None) -> subprocess.Popen:
    env = dict(os.environ)
    env.pop("JUDGE_CRASH_AT", None)
    if crash:
        env["JUDGE_CRASH_AT"] = crash
    proc = subprocess.Popen(
        [sys.executable, "-m", "judge.cli", "--config", str(config), "run"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc
        except OSError:
            time.sleep(0.05)
    return proc  # died on the way up: the caller sees poll() is not None


def _offer(port: int, pending: set[int]) -> None:
    """Like an MTA: try each unacknowledged message; keep the ones refused or cut off."""
    for i in sorted(pending):
        try:
            with smtplib.SMTP("127.0.0.1", port, timeout=5) as smtp:
                smtp.sendmail(f"player{i}@example.org", ["judge@example.org"], _mail(i))
            pending.discard(i)
        except (OSError, smtplib.SMTPException):
            return  # the judge is down (or refusing): try again after the restart


def test_every_message_handled_once_and_answered_whatever_crashes(tmp_path: Path) -> None:
    port = free_port()
    kills = 0
    with SmtpSink() as sink:
        config = _config(tmp_path, port, sink.port)
        pending = set(range(N))
        plans = list(PLANS)
        proc = None
        deadline = time.monotonic() + 240
        try:
            while time.monotonic() < deadline:
                if proc is None or proc.poll() is not None:
                    if proc is not None and proc.returncode == -signal.SIGKILL:
                        kills += 1
                    plan = plans.pop(0) if plans else None
                    proc = _start(config, port, f"{plan[0]}:{plan[1]}" if plan else None)
                _offer(port, pending)
                # Done when everything is handled and answered. A planned crash point
                # that can no longer be reached (its message already handled) is dropped.
                if not pending and _replied(sink) == N and _all_handled(tmp_path):
                    break
                time.sleep(0.1)
        finally:
            if proc is not None and proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                proc.wait(timeout=20)
        assert not pending, f"never accepted: {sorted(pending)}"
        received = sink.messages

    assert kills >= len(PLANS) - 2  # the crash points really fired
    db = open_db(tmp_path / "judge.db")
    rows = list(db.query("SELECT message_id, state FROM inbound ORDER BY id"))
    assert sorted(r["message_id"] for r in rows) == sorted(
        f"<orders-{i}@example.org>" for i in range(N)
    )
    assert {r["state"] for r in rows} == {"handled"}
    replies: dict[str, set[str]] = {}
    copies: dict[str, set[bytes]] = {}
    for m in received:
        msg = email.message_from_bytes(m.data, policy=default)
        replies.setdefault(msg["In-Reply-To"], set()).add(msg["Message-ID"])
        copies.setdefault(msg["Message-ID"], set()).add(m.data)
    # Delivery is at least once: a kill between the relay's 250 and the record of it
    # sends the mail again, byte for byte, so a receiver can drop the copy.
    assert all(len(data) == 1 for data in copies.values())
    for i in range(N):
        ids = replies.get(f"<orders-{i}@example.org>", set())
        assert len(ids) == 1, f"message {i}: replies {ids}"  # delivered, and one reply only
    assert db.execute("SELECT COUNT(*) FROM outbound WHERE state != 'sent'").fetchone()[0] == 0


def _replied(sink: SmtpSink) -> int:
    seen = set()
    for m in sink.messages:
        seen.add(email.message_from_bytes(m.data, policy=default)["In-Reply-To"])
    return len(seen)


def _all_handled(tmp: Path) -> bool:
    db = open_db(tmp / "judge.db")
    try:
        row = db.execute("SELECT COUNT(*), SUM(state = 'handled') FROM inbound").fetchone()
        queued = db.execute("SELECT COUNT(*) FROM outbound WHERE state != 'sent'").fetchone()[0]
        return row[0] == N and row[1] == N and queued == 0
    finally:
        db.conn.close()

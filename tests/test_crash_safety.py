"""Crash safety: the judge killed with SIGKILL at every step of ingest and of sending.

The real `judge run` daemon receives mail on its SMTP port and sends replies to an
aiosmtpd peer. Each of its lives ends in SIGKILL at a named crash point (see
judge/crashpoints.py); a test "MTA" resends whatever was not acknowledged with 250, and
the judge is restarted until everything is done. Then: every message was handled exactly
once, every reply was delivered at least once, and no message got two different replies.
"""

from __future__ import annotations

import email
import signal
import smtplib
import time
from email.policy import default
from pathlib import Path

from live_judge import judge_toml, replies_by_parent, send, start_judge
from smtp_sink import SmtpSink, free_port

from judge.store.db import open_db

N = 30
# (crash point, on which pass): one judge life per entry, then lives without crashes.
# Each planned life is offered FRESH messages it has never seen, so the first pass of
# every point is always reached, however fast or slow the machine (the later passes
# depend on how the lives' work falls: not counted on).
FRESH = 2
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
    ("group-committed", 1),
    ("group-committed", 2),
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


def _offer(port: int, now: set[int], pending: set[int]) -> None:
    """Like an MTA: try each unacknowledged message of `now`; those accepted leave
    `pending`, the ones refused or cut off stay in it."""
    for i in sorted(now):
        try:
            send(port, _mail(i), sender=f"player{i}@example.org")
            pending.discard(i)
        except (OSError, smtplib.SMTPException):
            return  # the judge is down (or refusing): try again after the restart


def test_every_message_handled_once_and_answered_whatever_crashes(tmp_path: Path) -> None:
    port = free_port()
    kills = 0
    with SmtpSink() as sink:
        config = judge_toml(tmp_path, "CRASH", port, sink.port)
        pending = set(range(N))
        plans = list(PLANS)
        proc = None
        plan: tuple[str, int] | None = None
        fired: list[str] = []
        lives = 0
        deadline = time.monotonic() + 240
        try:
            while time.monotonic() < deadline:
                if proc is None or proc.poll() is not None:
                    if proc is not None and proc.returncode == -signal.SIGKILL:
                        kills += 1
                        fired.append(plan[0] if plan else "?")
                    plan = plans.pop(0) if plans else None
                    proc = start_judge(config, port, crash=f"{plan[0]}:{plan[1]}" if plan else None)
                    lives += 1
                offered = N if plan is None else min(N, FRESH * lives)
                _offer(port, {i for i in pending if i < offered}, pending)
                if plan is not None and _idle(tmp_path, offered, pending):
                    # A later pass this life's work never reached: on to the next plan.
                    proc.send_signal(signal.SIGTERM)
                    proc.wait(timeout=20)
                    continue
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

    # The crash points really fired: each point at least on its first pass (fresh mail).
    assert set(fired) == {point for point, _ in PLANS}, fired
    assert kills >= len({point for point, _ in PLANS})
    db = open_db(tmp_path / "judge.db")
    rows = list(db.query("SELECT message_id, state FROM inbound ORDER BY id"))
    assert sorted(r["message_id"] for r in rows) == sorted(
        f"<orders-{i}@example.org>" for i in range(N)
    )
    assert {r["state"] for r in rows} == {"handled"}
    replies = replies_by_parent([m.data for m in received])
    copies: dict[str, set[bytes]] = {}
    for m in received:
        msg = email.message_from_bytes(m.data, policy=default)
        copies.setdefault(msg["Message-ID"], set()).add(m.data)
    # Delivery is at least once: a kill between the relay's 250 and the record of it
    # sends the mail again, byte for byte, so a receiver can drop the copy.
    assert all(len(data) == 1 for data in copies.values())
    for i in range(N):
        ids = replies.get(f"<orders-{i}@example.org>", set())
        assert len(ids) == 1, f"message {i}: replies {ids}"  # delivered, and one reply only
    assert db.execute("SELECT COUNT(*) FROM outbound WHERE state != 'sent'").fetchone()[0] == 0


def _replied(sink: SmtpSink) -> int:
    return len(replies_by_parent([m.data for m in sink.messages]))


def _idle(tmp: Path, offered: int, pending: set[int]) -> bool:
    """Whether the messages offered so far are all accepted, handled and answered."""
    if any(i < offered for i in pending):
        return False
    db = open_db(tmp / "judge.db")
    try:
        row = db.execute("SELECT COUNT(*), SUM(state = 'handled') FROM inbound").fetchone()
        queued = db.execute("SELECT COUNT(*) FROM outbound WHERE state != 'sent'").fetchone()[0]
        return row[0] == offered and row[1] == offered and queued == 0
    finally:
        db.conn.close()


def _all_handled(tmp: Path) -> bool:
    db = open_db(tmp / "judge.db")
    try:
        row = db.execute("SELECT COUNT(*), SUM(state = 'handled') FROM inbound").fetchone()
        queued = db.execute("SELECT COUNT(*) FROM outbound WHERE state != 'sent'").fetchone()[0]
        return row[0] == N and row[1] == N and queued == 0
    finally:
        db.conn.close()

"""The whole mail path with real servers: Dovecot (IMAP) in, the judge, aiosmtpd out.

Mail appended to the INBOX is stored, answered through the SMTP peer and moved to the
processed mailbox; the same mail twice is answered once; IDLE brings new mail in within
two seconds; Dovecot killed and restarted mid-run loses nothing; and the IMAP side of
the judge survives SIGKILL between storing a message and moving it.
"""

from __future__ import annotations

import email
import logging
import signal
import subprocess
import sys
from email.policy import default
from pathlib import Path

import pytest
from live_judge import crash_env, player_mail, replies_by_parent, waited
from mail_e2e import make_config
from servers import running_judge
from smtp_sink import SmtpSink

from judge.service.daemon import real_clock
from judge.store.db import open_db


def _mail(tag: str = "orders") -> bytes:
    return player_mail(tag, "A Par-Bur\r\n")


def _message_id(raw: bytes) -> str:
    return email.message_from_bytes(raw, policy=default)["Message-ID"]


def _replies_to(sink: SmtpSink) -> dict[str, set[str]]:
    return replies_by_parent([m.data for m in sink.messages])


def test_mail_in_the_inbox_is_answered_and_moved(tmp_path: Path, servers) -> None:
    dovecot, sink = servers
    first, second = _mail(), _mail()
    dovecot.append(first)
    dovecot.append(first)  # the same mail twice
    dovecot.append(second)
    with running_judge(make_config(tmp_path, dovecot, sink), real_clock):
        waited(lambda: len(_replies_to(sink)) == 2)
        waited(lambda: dovecot.messages("INBOX") == [])
        # IDLE: mail arriving now is answered within two seconds.
        third = _mail()
        dovecot.append(third)
        took = waited(lambda: _message_id(third) in _replies_to(sink), timeout=2)
        assert took < 2
    replies = _replies_to(sink)
    assert set(replies) == {_message_id(r) for r in (first, second, third)}
    assert all(len(ids) == 1 for ids in replies.values())  # the duplicate: answered once
    assert sorted(dovecot.messages("processed")) == sorted([first, first, second, third])
    db = open_db(tmp_path / "judge.db")
    assert [r["state"] for r in db.query("SELECT state FROM inbound")] == ["handled"] * 3


def test_dovecot_killed_and_restarted_mid_run_loses_nothing(
    tmp_path: Path, servers, caplog: pytest.LogCaptureFixture
) -> None:
    dovecot, sink = servers
    caplog.set_level(logging.WARNING, logger="judge")
    before = _mail("before")
    dovecot.append(before)
    with running_judge(make_config(tmp_path, dovecot, sink), real_clock):
        waited(lambda: _message_id(before) in _replies_to(sink))
        dovecot.stop()
        # The judge notices (its IMAP connection fails) and backs off.
        waited(lambda: any("reconnecting in" in r.getMessage() for r in caplog.records))
        dovecot.start()
        during = [_mail("after-restart") for _ in range(3)]
        for raw in during:
            dovecot.append(raw)
        waited(lambda: all(_message_id(r) in _replies_to(sink) for r in during), timeout=30)
    assert dovecot.messages("INBOX") == []
    assert len(_replies_to(sink)) == 4


def test_sigkill_between_storing_and_moving_loses_and_repeats_nothing(
    tmp_path: Path, servers
) -> None:
    dovecot, sink = servers
    raws = [_mail("crash") for _ in range(4)]
    for raw in raws:
        dovecot.append(raw)
    cfg = tmp_path / "judge.toml"
    cfg.write_text(
        f"""
[judge]
name = "E2E"
address = "judge@example.org"
database = "judge.db"
[inbound]
mode = "imap"
[inbound.imap]
host = "{dovecot.host}"
port = {dovecot.port}
ssl = false
username = "{dovecot.user}"
password = "{dovecot.password}"
[outbound]
mode = "smtp"
[outbound.smtp]
host = "127.0.0.1"
port = {sink.port}
"""
    )
    kills = 0
    for crash in ["imap-stored:1", "imap-stored:2", "handle-committed:1", "send-delivered:1", ""]:
        proc = subprocess.run(
            [sys.executable, "-m", "judge.ops.cli", "--config", str(cfg), "run", "--once"],
            env=crash_env(crash),
            capture_output=True,
            timeout=60,
        )
        kills += proc.returncode == -signal.SIGKILL
    assert kills == 4
    assert dovecot.messages("INBOX") == []
    replies = _replies_to(sink)
    assert set(replies) == {_message_id(r) for r in raws}
    assert all(len(ids) == 1 for ids in replies.values())
    db = open_db(tmp_path / "judge.db")
    assert [r["state"] for r in db.query("SELECT state FROM inbound")] == ["handled"] * 4

"""Fixtures shared by the tests: the servers, and the judge on a test clock or running."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from judge_harness import Judge
from live_judge import smtp_config
from servers import Dovecot, running_judge
from smtp_sink import SmtpSink

from judge.config import Config
from judge.service.daemon import real_clock


@pytest.fixture
def dovecot() -> Iterator[Dovecot]:
    """A private Dovecot on 127.0.0.1 (plain IMAP), stopped afterwards."""
    with Dovecot() as server:
        yield server


@pytest.fixture
def servers() -> Iterator[tuple[Dovecot, SmtpSink]]:
    """A private Dovecot and an aiosmtpd peer on 127.0.0.1, stopped afterwards."""
    with Dovecot() as dovecot, SmtpSink() as sink:
        yield dovecot, sink


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    """The judge's handling path on a store in `tmp_path`, on a clock the test moves."""
    return Judge(tmp_path)


@pytest.fixture
def smtp_judge(tmp_path: Path) -> Iterator[Config]:
    """The daemon in a thread with its SMTP receiver on a free port, answering into a
    Maildir (limits: 20000-byte mails, 5 mails an hour); its configuration."""
    config = smtp_config(tmp_path, max_message_bytes=20_000, rate_limit_per_hour=5)
    with running_judge(config, real_clock):
        yield config

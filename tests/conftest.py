"""Fixtures shared by the tests: the servers, and the judge on a test clock or running."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from judge_harness import Judge
from live_judge import smtp_config
from servers import Dovecot, running_judge
from smtp_sink import SmtpSink

from judge.config import Config
from judge.game import passwords
from judge.service.daemon import real_clock
from judge.variants import maps

# The processes the tests start (`judge run`, `judge adjudicate`, ...) import the judge of
# this checkout, as the tests themselves do: from a temporary folder they would import
# whichever checkout the environment's editable install names (a second worktree's
# tests ran the first one's daemon).
_ROOT = str(Path(__file__).resolve().parents[1])
os.environ["PYTHONPATH"] = os.pathsep.join(
    [_ROOT, *(p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p)]
)


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


@pytest.fixture
def map_folder(tmp_path: Path) -> Iterator[Path]:
    """An empty operator's map folder (the test may make the judge use it, with
    maps.use_operator_folder); the bundled maps only again after the test."""
    where = tmp_path / "operator-maps"
    where.mkdir()
    yield where
    maps.use_operator_folder(None)


@pytest.fixture
def fresh_password_cache() -> Iterator[None]:
    """The verified-password cache emptied before and after the test."""
    passwords.forget_verified()
    yield
    passwords.forget_verified()


@pytest.fixture
def scrypt_calls(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """The passwords scrypt is run on in this process from now on (hash_password's
    included)."""
    calls: list[bytes] = []
    real: Callable[..., bytes] = passwords.hashlib.scrypt

    def counting(password: bytes, **kwargs: Any) -> bytes:
        calls.append(password)
        return real(password, **kwargs)

    monkeypatch.setattr(passwords.hashlib, "scrypt", counting)
    return calls

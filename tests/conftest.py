"""Fixtures shared by the end-to-end tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from servers import Dovecot
from smtp_sink import SmtpSink


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

"""The IMAP poller against a real Dovecot (tests/servers.py) with real imapclient.

A message's life (DESIGN.md): stored first, only then marked seen and moved.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from live_judge import player_mail as mail
from live_judge import wait_until
from servers import Dovecot, imap_config

from judge.config import ImapConfig
from judge.mail import imap_in
from judge.mail.imap_in import ImapInbound
from judge.store.db import open_db
from judge.store.inbox import ingest

SEEN = b"\\Seen"


def config(server: Dovecot, **changes: object) -> ImapConfig:
    return imap_config(server, **{"poll_seconds": 60, **changes})


class Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def warnings(self) -> list[str]:
        return [r.getMessage() for r in self.records if r.levelno >= logging.WARNING]


def logger(name: str) -> tuple[logging.Logger, Records]:
    log = logging.getLogger(f"test_imap.{name}")
    log.setLevel(logging.DEBUG)
    handler = Records()
    log.addHandler(handler)
    return log, handler


@contextlib.contextmanager
def running(inbound: ImapInbound) -> Iterator[threading.Event]:
    """run() in a thread; on exit stop it and check it ended without raising."""
    stop = threading.Event()
    errors: list[BaseException] = []

    def target() -> None:
        try:
            inbound.run(stop)
        except BaseException as e:  # pragma: no cover - the failure being tested for
            errors.append(e)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    try:
        yield stop
    finally:
        stop.set()
        thread.join(10)
        assert not thread.is_alive(), "run() did not stop within 10 s of stop being set"
        assert not errors, f"run() raised {errors[0]!r}"


# -- one pass ------------------------------------------------------------------------------


def test_mail_is_stored_then_flagged_seen_and_moved(dovecot: Dovecot) -> None:
    raws = [mail(), mail()]
    for raw in raws:
        dovecot.append(raw)
    stored: list[bytes] = []
    woken: list[bool] = []
    inbound = ImapInbound(config(dovecot), stored.append, wake=lambda: woken.append(True))
    try:
        assert inbound.fetch_once() == 2
        assert stored == raws
        assert woken
        assert dovecot.messages("INBOX") == []
        assert dovecot.messages("processed") == raws
        assert all(SEEN in flags for flags in dovecot.flags("processed"))
        assert inbound.fetch_once() == 0
        assert len(stored) == 2
    finally:
        inbound.close()


def test_nothing_is_seen_or_moved_before_the_message_is_stored(dovecot: Dovecot) -> None:
    raw = mail()
    dovecot.append(raw)
    observed: list[tuple] = []

    def store(message: bytes) -> int:
        # what the server holds at the moment the judge stores the message
        observed.append((dovecot.messages("INBOX"), dovecot.flags("INBOX")))
        assert dovecot.messages("processed") == []
        return 1

    inbound = ImapInbound(config(dovecot), store)
    try:
        assert inbound.fetch_once() == 1
    finally:
        inbound.close()
    assert len(observed) == 1
    messages, flags = observed[0]
    assert messages == [raw]
    assert SEEN not in flags[0]
    assert dovecot.messages("processed") == [raw]


def test_a_message_that_fails_to_store_stays_unseen_and_is_retried(dovecot: Dovecot) -> None:
    good, bad = mail("good"), mail("bad")
    dovecot.append(good)
    dovecot.append(bad)
    stored: list[bytes] = []
    broken = [True]

    def store(raw: bytes) -> int:
        if raw == bad and broken[0]:
            raise RuntimeError("database is locked")
        stored.append(raw)
        return len(stored)

    log, records = logger("retry")
    inbound = ImapInbound(config(dovecot), store, log=log)
    try:
        assert inbound.fetch_once() == 1
        assert stored == [good]
        assert dovecot.messages("INBOX") == [bad]
        assert SEEN not in dovecot.flags("INBOX")[0]
        assert dovecot.messages("processed") == [good]
        assert any("could not store" in m for m in records.warnings())

        broken[0] = False
        assert inbound.fetch_once() == 1
        assert stored == [good, bad]
        assert dovecot.messages("INBOX") == []
        assert dovecot.messages("processed") == [good, bad]
    finally:
        inbound.close()


def test_the_same_mail_twice_is_fetched_twice_and_stored_once(dovecot: Dovecot, tmp_path) -> None:
    raw = mail()
    dovecot.append(raw)
    dovecot.append(raw)
    db = open_db(tmp_path / "judge.db")
    ids: list[int | None] = []

    def store(message: bytes) -> int | None:
        ids.append(ingest(db, message, "imap", datetime.now(UTC)))
        return ids[-1]

    inbound = ImapInbound(config(dovecot), store)
    try:
        assert inbound.fetch_once() == 2
    finally:
        inbound.close()
    assert len(ids) == 2 and ids[0] is not None and ids[1] is None
    assert db.execute("SELECT COUNT(*) FROM inbound").fetchone()[0] == 1
    assert db.execute("SELECT raw FROM inbound").fetchone()[0] == raw
    assert dovecot.messages("INBOX") == []
    assert len(dovecot.messages("processed")) == 2


def test_a_big_inbox_is_handled_in_batches(dovecot: Dovecot, monkeypatch) -> None:
    monkeypatch.setattr(imap_in, "BATCH", 3)
    raws = [mail() for _ in range(7)]
    with dovecot.client() as c:
        for raw in raws:
            c.append("INBOX", raw)
    stored: list[bytes] = []
    wakes: list[int] = []
    inbound = ImapInbound(config(dovecot), stored.append, wake=lambda: wakes.append(len(stored)))
    try:
        assert inbound.fetch_once() == 7
    finally:
        inbound.close()
    assert stored == raws
    assert wakes == [3, 6, 7]  # woken after each batch is stored
    assert dovecot.messages("processed") == raws


@pytest.mark.parametrize("missing", [{"MOVE"}, {"MOVE", "UIDPLUS"}])
def test_without_move_copy_and_expunge_give_the_same_result(
    dovecot: Dovecot, missing: set[str]
) -> None:
    already_read = mail("read by a person")  # \Seen in a mail client: still unprocessed
    dovecot.append(already_read, flags=(SEEN,))
    raws = [mail(), mail()]
    for raw in raws:
        dovecot.append(raw)
    stored: list[bytes] = []
    asked: list[str] = []
    inbound = ImapInbound(config(dovecot), stored.append)
    real = inbound.has_capability

    def has_capability(name: str) -> bool:
        asked.append(name)
        return name not in missing and real(name)

    inbound.has_capability = has_capability  # type: ignore[method-assign]
    try:
        assert inbound.fetch_once() == 3
    finally:
        inbound.close()
    assert "MOVE" in asked
    assert "UIDPLUS" in asked  # the fallback chose between UID EXPUNGE and EXPUNGE
    assert stored == [already_read, *raws]
    assert dovecot.messages("INBOX") == []
    assert dovecot.messages("processed") == [already_read, *raws]
    assert all(SEEN in flags and b"\\Deleted" not in flags for flags in dovecot.flags("processed"))


# -- the daemon loop -----------------------------------------------------------------------


def _watch(inbound: ImapInbound, method: str) -> threading.Event:
    """An event set each time the poller's `method` has been called and has returned."""
    called = threading.Event()
    original = getattr(inbound, method)

    def watched(*args: object) -> object:
        result = original(*args)
        called.set()
        return result

    setattr(inbound, method, watched)
    return called


def _in_idle(inbound: ImapInbound) -> threading.Event:
    """An event set each time the poller waits inside IDLE (in idle_check): the server
    has answered IDLE, so mail appended from then on is announced at once."""
    event = threading.Event()
    connect = inbound.connect

    def connected() -> object:
        client = connect()
        check = client.idle_check
        if not getattr(check, "watched", False):

            def watched_check(*args: object, **kwargs: object) -> object:
                event.set()
                return check(*args, **kwargs)

            watched_check.watched = True  # type: ignore[attr-defined]
            client.idle_check = watched_check  # type: ignore[method-assign]
        return client

    inbound.connect = connected  # type: ignore[method-assign]
    return event


def test_idle_stores_new_mail_within_two_seconds(dovecot: Dovecot) -> None:
    stored: list[bytes] = []
    # poll_seconds is long: only IDLE can bring the mail in time
    inbound = ImapInbound(config(dovecot, idle=True, poll_seconds=600), stored.append)
    idling = _in_idle(inbound)
    with running(inbound):
        first = mail()
        dovecot.append(first)
        # Setup, not the timing: a mail that lands while the poller is between its search
        # and IDLE is found by the next search, IDLE_RENEW (10 s) later at worst.
        assert wait_until(lambda: first in stored, 30), "the first message was not stored"
        idling.clear()
        assert idling.wait(30)  # the poller is in IDLE again, waiting for news
        second = mail()
        sent = time.monotonic()
        dovecot.append(second)
        assert wait_until(lambda: second in stored, 10)
        delay = time.monotonic() - sent
    assert delay < 2.0, f"IDLE took {delay:.2f} s"
    assert stored == [first, second]
    assert dovecot.messages("processed") == [first, second]


def test_polling_picks_up_mail(dovecot: Dovecot) -> None:
    stored: list[bytes] = []
    inbound = ImapInbound(config(dovecot, idle=False, poll_seconds=0.5), stored.append)
    fetched = _watch(inbound, "fetch_once")
    with running(inbound):
        assert fetched.wait(10)  # a first poll found nothing: the mail comes by a later one
        raws = [mail(), mail()]
        for raw in raws:
            dovecot.append(raw)
        assert wait_until(lambda: len(stored) == 2, 10)
    assert stored == raws
    assert dovecot.messages("INBOX") == []
    assert dovecot.messages("processed") == raws


def test_run_survives_a_server_restart_and_loses_nothing(dovecot: Dovecot) -> None:
    stored: list[bytes] = []
    log, records = logger("restart")
    # The backoff's pauses pass twenty times faster: how long a loaded machine takes to
    # restart Dovecot must not decide whether the poller is back before the wait ends
    # (the backoff's own lengths are the next test's subject).
    inbound = ImapInbound(
        config(dovecot, idle=True, poll_seconds=600),
        stored.append,
        log=log,
        sleep=lambda seconds: time.sleep(seconds / 20),
    )
    idling = threading.Event()
    idle = inbound._idle

    def watched_idle(stop: threading.Event, renew: float) -> None:
        idling.set()
        idle(stop, renew)

    inbound._idle = watched_idle  # type: ignore[method-assign]
    with running(inbound):
        before = mail("before")
        dovecot.append(before)
        assert wait_until(lambda: before in stored, 30)
        assert idling.wait(30)

        dovecot.stop()
        assert wait_until(lambda: any("reconnecting" in m for m in records.warnings()), 30)
        dovecot.start()
        during = mail("while the judge was away")
        dovecot.append(during)  # the poller may still be backing off
        assert wait_until(lambda: during in stored, 60), records.warnings()

        after = mail("after")
        dovecot.append(after)
        assert wait_until(lambda: after in stored, 30)
    assert set(stored) == {before, during, after}
    assert dovecot.messages("INBOX") == []
    assert sorted(dovecot.messages("processed")) == sorted([before, during, after])


def test_a_wrong_password_is_logged_and_retried_with_backoff(dovecot: Dovecot) -> None:
    log, records = logger("password")
    slept: list[float] = []
    stop_after = 8

    def sleep(seconds: float) -> None:  # no real waiting: count the backoff instead
        slept.append(seconds)
        if len(records.warnings()) >= stop_after:
            stop.set()

    inbound = ImapInbound(config(dovecot, password="wrong"), lambda raw: None, log=log, sleep=sleep)
    stop = threading.Event()
    thread = threading.Thread(target=inbound.run, args=(stop,), daemon=True)
    thread.start()
    thread.join(20)
    stop.set()
    assert not thread.is_alive()
    warnings = records.warnings()
    assert len(warnings) >= stop_after
    assert all("LoginError" in w for w in warnings)
    delays = [float(w.rsplit("reconnecting in ", 1)[1].split()[0]) for w in warnings]
    assert delays[:stop_after] == [1, 2, 4, 8, 16, 32, 60, 60]
    assert sum(slept) == pytest.approx(sum(delays[: stop_after - 1]) + 0.1, abs=0.2)


# -- TLS -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tls_dovecot() -> Iterator[Dovecot]:
    with Dovecot(tls=True) as server:
        yield server


def test_implicit_tls_and_starttls(tls_dovecot: Dovecot) -> None:
    server = tls_dovecot
    for settings in (dict(port=server.ssl_port, ssl=True), dict(ssl=False, starttls=True)):
        raw = mail()
        server.append(raw)
        stored: list[bytes] = []
        inbound = ImapInbound(
            config(server, **settings), stored.append, ssl_context=server.ssl_context()
        )
        try:
            assert inbound.fetch_once() == 1, settings
        finally:
            inbound.close()
        assert stored == [raw]


def test_an_unverifiable_certificate_is_refused_and_retried(tls_dovecot: Dovecot) -> None:
    server = tls_dovecot
    server.append(mail())
    log, records = logger("tls")
    stored: list[bytes] = []
    inbound = ImapInbound(config(server, port=server.ssl_port, ssl=True), stored.append, log=log)
    with running(inbound):  # the default context verifies: a self-signed cert fails
        assert wait_until(lambda: records.warnings(), 10)
    assert "CERTIFICATE_VERIFY_FAILED" in records.warnings()[0]
    assert stored == []


def test_run_retries_a_failed_message_without_waiting_for_new_mail(dovecot: Dovecot) -> None:
    raw = mail()
    dovecot.append(raw)
    stored: list[bytes] = []
    attempts: list[bytes] = []

    def store(message: bytes) -> None:
        attempts.append(message)
        if len(attempts) == 1:
            raise RuntimeError("disk full")
        stored.append(message)

    log, _ = logger("failed")
    # IDLE would wait for new mail; a failed message is retried after poll_seconds
    inbound = ImapInbound(config(dovecot, idle=True, poll_seconds=0.3), store, log=log)
    with running(inbound):
        assert wait_until(lambda: stored == [raw], 10)
    assert len(attempts) == 2
    assert dovecot.messages("processed") == [raw]

"""The daemon's send threads (judge/mail/send_threads.py) against real aiosmtpd peers:
order per recipient across several connections, a direct answer ahead of the bulk on its
thread, a relay's failures, and what is recorded in the outbox."""

from __future__ import annotations

import asyncio
import email
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from email.policy import default
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from judge_harness import CONFIG
from smtp_sink import SmtpSink, free_port

from judge.config import SmtpOutConfig
from judge.game import pictures
from judge.mail import compose, send_threads
from judge.mail.outbox import Outcome, SmtpDelivery
from judge.store import outbox
from judge.store.db import open_db

NOW = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)


def _queue(db, to: str, kind: str = "results", subject: str = "") -> str:
    mid = compose.new_message_id(CONFIG)
    raw = compose.build(CONFIG, [to], subject or mid, "Body\n", NOW, mid)
    with db.atomic():
        outbox.queue(db, raw, mid, [to], kind, NOW)
    return mid


def _threads(port: int, connections: int, woken: threading.Event | None = None):
    config = replace(CONFIG, outbound_mode="smtp", smtp_out=SmtpOutConfig(port=port))
    on_done = woken.set if woken else (lambda: None)
    return send_threads.SendThreads([SmtpDelivery(config) for _ in range(connections)], on_done)


def _until(condition: Callable[[], bool], seconds: float = 30.0) -> None:
    ends = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < ends, "timed out"
        time.sleep(0.01)


def _drain_all(db, threads: send_threads.SendThreads) -> None:
    """Hand over and record until nothing is queued (the daemon's passes, in short)."""
    waiting = "SELECT COUNT(*) FROM outbound WHERE state = 'queued'"
    ends = time.monotonic() + 30
    while db.execute(waiting).fetchone()[0]:
        assert time.monotonic() < ends, "timed out"
        send_threads.drain(db, threads, lambda: NOW, 100, attach_picture=pictures.finish)
        time.sleep(0.01)


def _ids(messages) -> list[str]:
    return [email.message_from_bytes(m.data, policy=default)["Message-ID"] for m in messages]


def test_each_recipient_gets_its_mail_in_the_order_queued_across_connections(
    tmp_path: Path,
) -> None:
    db = open_db(tmp_path / "j.db")
    readers = [f"p{n}@example.org" for n in range(7)]
    queued = {r: [] for r in readers}
    for i in range(140):
        reader = readers[(i * 3) % 7]
        queued[reader].append(_queue(db, reader))
    with SmtpSink() as sink:
        threads = _threads(sink.port, 4)
        try:
            _drain_all(db, threads)
        finally:
            threads.close()
        got = {r: [] for r in readers}
        for m, mid in zip(sink.messages, _ids(sink.messages), strict=True):
            [reader] = m.rcpt_tos
            got[reader].append(mid)
    assert got == queued
    rows = db.execute("SELECT state, attempts, COUNT(*) FROM outbound GROUP BY 1, 2").fetchall()
    assert rows == [("sent", 1, 140)]
    assert threads.in_flight == set()


class _Gate:
    """A relay whose first DATA waits until `gate` is set; keeps the Message-IDs."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.first = threading.Event()  # the first mail has arrived and waits
        self.seen: list[str] = []

    async def handle_DATA(self, server, session, envelope) -> str:  # noqa: N802
        if not self.first.is_set():
            self.first.set()
            await asyncio.get_running_loop().run_in_executor(None, self.gate.wait, 30)
        msg = email.message_from_bytes(envelope.original_content, policy=default)
        self.seen.append(msg["Subject"])
        return "250 OK"


def test_a_direct_answer_goes_ahead_of_the_results_waiting_on_its_connection(
    tmp_path: Path,
) -> None:
    db = open_db(tmp_path / "j.db")
    for n in range(5):
        _queue(db, f"r{n}@example.org", subject=f"results {n}")
    relay = _Gate()
    controller = Controller(relay, hostname="127.0.0.1", port=free_port())
    controller.start()
    threads = _threads(controller.port, 1)
    try:
        send_threads.drain(db, threads, lambda: NOW, 100, attach_picture=pictures.finish)
        assert relay.first.wait(30)  # "results 0" is at the relay; four wait on the thread
        _queue(db, "ann@example.org", kind="reply", subject="your orders")
        send_threads.drain(db, threads, lambda: NOW, 100, attach_picture=pictures.finish)
        relay.gate.set()
        _drain_all(db, threads)
    finally:
        threads.close()
        controller.stop()
    assert relay.seen == [
        "results 0",
        "your orders",
        "results 1",
        "results 2",
        "results 3",
        "results 4",
    ]


def _collected(threads: send_threads.SendThreads, n: int) -> list[Outcome]:
    """The threads' next `n` outcomes, as the daemon's passes collect them."""
    found: list[Outcome] = []
    _until(lambda: len(found.__iadd__(threads.collect())) >= n)
    return found


def test_a_refusing_relay_gets_one_try_and_the_mails_behind_it_stay_queued_untried(
    tmp_path: Path,
) -> None:
    db = open_db(tmp_path / "j.db")
    for n in range(3):
        _queue(db, "bob@example.org", subject=f"mail {n}")
    woken = threading.Event()
    with SmtpSink() as sink:
        sink.answer = "451 4.3.0 try again"
        threads = _threads(sink.port, 2, woken)
        try:
            handed = send_threads.drain(
                db, threads, lambda: NOW, 100, attach_picture=pictures.finish
            )
            assert handed == 3
            outcomes = _collected(threads, 3)
            assert woken.is_set()
            send_threads.record(db, outcomes, NOW)
        finally:
            threads.close()
        assert sink.messages == []
    assert [(o.how, o.permanent) for o in outcomes] == [(None, False)] * 3
    assert [o.error is None for o in outcomes] == [False, True, True]
    rows = db.execute(
        "SELECT id, state, attempts, next_attempt_at, last_error FROM outbound ORDER BY id"
    ).fetchall()
    assert rows == [
        (1, "queued", 1, "2026-11-21T12:01:00.000000+00:00", "OSError: 451 4.3.0 try again"),
        (2, "queued", 0, "2026-11-21T12:00:00.000000+00:00", None),
        (3, "queued", 0, "2026-11-21T12:00:00.000000+00:00", None),
    ]


def test_a_permanent_refusal_fails_that_mail_and_the_next_one_is_sent(tmp_path: Path) -> None:
    db = open_db(tmp_path / "j.db")
    _queue(db, "gone@example.org", subject="refused")
    with SmtpSink() as sink:
        sink.answer = "550 5.1.1 no such user"
        threads = _threads(sink.port, 1)
        try:
            send_threads.drain(db, threads, lambda: NOW, 100, attach_picture=pictures.finish)
            send_threads.record(db, _collected(threads, 1), NOW)
            sink.answer = None
            _queue(db, "gone@example.org", subject="next")
            _drain_all(db, threads)
        finally:
            threads.close()
        assert [m.rcpt_tos for m in sink.messages] == [["gone@example.org"]]
    rows = db.execute("SELECT id, state, attempts, last_error FROM outbound ORDER BY id")
    assert rows.fetchall() == [
        (1, "failed", 1, "550 5.1.1 no such user"),
        (2, "sent", 1, None),
    ]


@pytest.mark.parametrize("connections", [1, 4])
def test_close_lets_the_mail_being_sent_finish_and_leaves_the_rest_queued(
    tmp_path: Path, connections: int
) -> None:
    db = open_db(tmp_path / "j.db")
    for n in range(6):
        _queue(db, "carl@example.org", subject=f"mail {n}")
    relay = _Gate()
    controller = Controller(relay, hostname="127.0.0.1", port=free_port())
    controller.start()
    threads = _threads(controller.port, connections)
    try:
        send_threads.drain(db, threads, lambda: NOW, 100, attach_picture=pictures.finish)
        assert relay.first.wait(30)  # mail 0 at the relay, five waiting on one thread
        threads.stop()
        relay.gate.set()
        outcomes = threads.close()
        send_threads.record(db, outcomes, NOW)
    finally:
        controller.stop()
    assert relay.seen == ["mail 0"]
    rows = db.execute("SELECT state, attempts, COUNT(*) FROM outbound GROUP BY 1, 2 ORDER BY 1")
    assert rows.fetchall() == [("queued", 0, 5), ("sent", 1, 1)]


class _Held:
    """A delivery whose every mail waits until `gate` is set."""

    def __init__(self) -> None:
        self.gate = threading.Event()

    def deliver(self, item: outbox.Outbound) -> str:
        assert self.gate.wait(30)
        return "delivered"

    def close(self) -> None:
        pass


def test_the_threads_are_busy_while_over_half_their_room_is_still_to_send() -> None:
    # The daemon paces its passes only then (service/daemon._paced): the threads wake it
    # when they run lower.
    held = _Held()
    threads = send_threads.SendThreads([held], on_done=lambda: None)
    half = send_threads.MAX_IN_FLIGHT // 2
    mails = [outbox.Outbound(n, f"<{n}@x>", ("a@example.org",), b"x", 0) for n in range(half + 1)]
    try:
        assert not threads.busy()
        threads.submit(mails[:half])
        assert not threads.busy()  # half: not over it
        threads.submit(mails[half:])
        assert threads.busy()
        held.gate.set()  # sent: no longer busy
        ends = time.monotonic() + 30
        while threads.busy() and time.monotonic() < ends:
            time.sleep(0.01)
        assert not threads.busy()
    finally:
        held.gate.set()
        threads.close()


class _Noting:
    """A picture step that notes what it is asked to begin (no mail here has a picture
    to attach)."""

    def __init__(self) -> None:
        self.begun: list[tuple[list[int], list[str]]] = []

    def ahead(self, items, further=()) -> None:
        self.begun.append(([i.id for i in items], list(further)))

    def ready(self, item) -> bool:
        return True

    def drawn_ahead(self) -> list:
        return []

    def store_drawn(self, db, drawn, now) -> None:
        assert not drawn

    def __call__(self, db, items, now):
        return list(items)


def test_the_pictures_of_games_processed_are_begun_even_when_the_threads_are_full(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = open_db(tmp_path / "j.db")
    mid = compose.new_message_id(CONFIG)
    raw = compose.build(CONFIG, ["a@example.org"], "Results", "Body\n", NOW, mid)
    with db.atomic():
        first = outbox.queue(
            db, raw, mid, ["a@example.org"], "results", NOW, picture='{"name": "x"}'
        )
    monkeypatch.setattr(send_threads, "MAX_IN_FLIGHT", 0)  # no room for any mail
    step = _Noting()
    threads = send_threads.SendThreads([])
    handed = send_threads.drain(db, threads, lambda: NOW, 100, attach_picture=step)
    assert (handed, step.begun) == (0, [([], [('{"name": "x"}', first)])])


class _Faulty(SmtpDelivery):
    """Raises a fault of the mail's own (not the relay's) for the mail with `subject`."""

    subject = b"Subject: poison"

    def deliver(self, item):
        if self.subject in item.raw:
            raise ValueError("this mail cannot be sent")
        return super().deliver(item)


def test_a_fault_of_one_mail_does_not_hold_back_the_mails_behind_it(tmp_path: Path) -> None:
    db = open_db(tmp_path / "j.db")
    for subject in ("poison", "next 1", "next 2"):
        _queue(db, "dora@example.org", subject=subject)
    with SmtpSink() as sink:
        config = replace(CONFIG, outbound_mode="smtp", smtp_out=SmtpOutConfig(port=sink.port))
        threads = send_threads.SendThreads([_Faulty(config)])
        try:
            send_threads.drain(db, threads, lambda: NOW, 100, attach_picture=pictures.finish)
            send_threads.record(db, _collected(threads, 3), NOW)
        finally:
            threads.close()
        got = [email.message_from_bytes(m.data, policy=default)["Subject"] for m in sink.messages]
    assert got == ["next 1", "next 2"]
    rows = db.execute("SELECT id, state, attempts, last_error FROM outbound ORDER BY id")
    assert rows.fetchall() == [
        (1, "queued", 1, "ValueError: this mail cannot be sent"),
        (2, "sent", 1, None),
        (3, "sent", 1, None),
    ]


def test_a_recipient_refused_for_now_is_tried_again_alone(tmp_path: Path) -> None:
    db = open_db(tmp_path / "j.db")
    to = ["ann@example.org", "bob@example.org"]
    mid = compose.new_message_id(CONFIG)
    with db.atomic():
        outbox.queue(db, compose.build(CONFIG, to, "R", "Body\n", NOW, mid), mid, to, "public", NOW)
    woken = threading.Event()
    with SmtpSink() as sink:
        sink.refuse["bob@example.org"] = "451 4.7.1 greylisted"
        threads = _threads(sink.port, 2, woken)
        try:
            send_threads.drain(db, threads, lambda: NOW, 100, attach_picture=pictures.finish)
            [outcome] = _collected(threads, 1)
            assert woken.is_set()
            assert outcome.later == ("bob@example.org",)
            send_threads.record(db, [outcome], NOW)
            row = db.execute("SELECT state, recipients, attempts FROM outbound").fetchone()
            assert row == ("queued", '["bob@example.org"]', 1)
            del sink.refuse["bob@example.org"]
            later = NOW + timedelta(minutes=1)
            send_threads.drain(db, threads, lambda: later, 100, attach_picture=pictures.finish)
            send_threads.record(db, _collected(threads, 1), later)
        finally:
            threads.close()
        assert [m.rcpt_tos for m in sink.messages] == [["ann@example.org"], ["bob@example.org"]]
    assert db.execute("SELECT state, attempts FROM outbound").fetchall() == [("sent", 2)]

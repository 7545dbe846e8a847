"""The writers of one database in the daemon's process take turns in the order they came
(judge.store.db.WriteGate): a thread that writes again and again no longer leaves the
SMTP receiver's one write polling for SQLite's lock for seconds (issue 16)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from judge.store import db as store_db
from judge.store.db import WriteGate, open_db, transaction


def _until(condition, seconds: float = 10.0) -> None:
    ends = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < ends, "the condition never came true"
        time.sleep(0.001)


def test_a_writer_that_leaves_hands_its_turn_to_the_one_waiting() -> None:
    gate = WriteGate()
    order: list[str] = []
    assert gate.enter(1.0)

    def other() -> None:
        assert gate.enter(10.0)
        order.append("other")
        gate.leave()

    thread = threading.Thread(target=other)
    thread.start()
    _until(lambda: len(gate._waiting) == 1)
    gate.leave()
    assert gate.enter(10.0)  # at once again: but the other writer came first
    order.append("again")
    gate.leave()
    thread.join()
    assert order == ["other", "again"]


def test_a_writer_that_waits_too_long_goes_on_without_its_turn() -> None:
    gate = WriteGate()
    assert gate.enter(1.0)
    answers: list[bool] = []
    thread = threading.Thread(target=lambda: answers.append(gate.enter(0.01)))
    thread.start()
    thread.join()
    assert answers == [False]
    assert not gate._waiting  # its place given up: the next writer is not held behind it
    gate.leave()
    assert gate.enter(0.01)
    gate.leave()


def test_the_connections_to_one_file_share_a_gate_and_each_transaction_takes_it(
    tmp_path: Path,
) -> None:
    first, second = open_db(tmp_path / "judge.db"), open_db(tmp_path / "judge.db")
    other = open_db(tmp_path / "other.db")
    gate = store_db._gate_of[first]
    assert store_db._gate_of[second] is gate
    assert store_db._gate_of[other] is not gate
    with transaction(first):
        assert gate._held
        with transaction(first):  # nested: a savepoint, the same turn
            first.execute("CREATE TABLE t (x INTEGER)")
    assert not gate._held
    try:
        with transaction(second):
            second.execute("INSERT INTO t VALUES (1)")
            raise RuntimeError("rolled back")
    except RuntimeError:
        pass
    assert not gate._held  # left on the way out of a failed transaction too
    assert second.execute("SELECT COUNT(*) FROM t").fetchone()[0] == 0
    for db in (first, second, other):
        db.conn.close()


def test_a_write_between_the_many_of_another_thread_waits_one_turn(tmp_path: Path) -> None:
    busy, receiver = open_db(tmp_path / "judge.db"), open_db(tmp_path / "judge.db")
    with transaction(busy):
        busy.execute("CREATE TABLE log (who TEXT)")
    gate = store_db._gate_of[busy]
    done = threading.Event()

    def receive() -> None:
        with transaction(receiver):
            receiver.execute("INSERT INTO log VALUES ('receiver')")
        done.set()

    with transaction(busy):
        busy.execute("INSERT INTO log VALUES ('busy')")
        thread = threading.Thread(target=receive)
        thread.start()
        _until(lambda: len(gate._waiting) == 1)
    # The busy writer at once again, and again: the receiver's write went in between.
    for _ in range(3):
        with transaction(busy):
            busy.execute("INSERT INTO log VALUES ('busy')")
    thread.join()
    rows = [r[0] for r in busy.execute("SELECT who FROM log ORDER BY rowid")]
    assert rows == ["busy", "receiver", "busy", "busy", "busy"]
    busy.conn.close()
    receiver.conn.close()


def test_a_writer_interrupted_while_waiting_leaves_no_turn_behind(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    gate = WriteGate()
    assert gate.enter(1.0)

    def interrupted(self, timeout=None):  # as a signal's exception would, mid-wait
        raise KeyboardInterrupt

    monkeypatch.setattr(threading.Event, "wait", interrupted)
    with pytest.raises(KeyboardInterrupt):
        gate.enter(10.0)
    monkeypatch.undo()
    assert not gate._waiting
    gate.leave()
    assert not gate._held  # free: the next writer goes in at once
    assert gate.enter(0.01)
    gate.leave()

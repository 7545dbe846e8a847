"""Mail handled in groups (issue 16): messages waiting together share one commit, each in
a savepoint of its own, so one that raises is rolled back alone."""

from __future__ import annotations

import logging
import sqlite3
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

import pytest
from judge_harness import HOLDS, Judge

from judge.commands.context import Context
from judge.commands.dispatch import dispatch
from judge.mail.message import Submission
from judge.replies import Reply
from judge.service import handling
from judge.service.handling import handle_waiting
from judge.store import inbox


def _store(judge: Judge, sender: str, body: str) -> None:
    n = next(judge.serial)
    raw = (
        f"From: {sender}\r\nTo: judge@example.org\r\nSubject: orders\r\n"
        f"Message-ID: <group{n}@example.org>\r\n\r\n{body}\r\n"
    ).encode()
    inbox.ingest(judge.db, raw, "smtp", judge.now)


def _commits(judge: Judge) -> list[str]:
    seen: list[str] = []
    judge.db.conn.set_trace_callback(
        lambda sql: seen.append(sql) if sql.strip().upper() == "COMMIT" else None
    )
    return seen


def test_mail_waiting_together_shares_one_commit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(handling, "GROUP_SECONDS", 3600.0)  # one group, however slow
    judge = Judge(tmp_path)
    players = judge.start_game()
    for initial, number in (("A", 0), ("E", 1), ("F", 2), ("G", 3)):
        _store(judge, players[initial], f"SIGNON {initial}war1 pw{number}\n{HOLDS[initial]}")
    commits = _commits(judge)
    assert handle_waiting(judge.db, judge.config, lambda: judge.now) == 4
    judge.db.conn.set_trace_callback(None)
    assert commits == ["COMMIT"]
    states = judge.db.execute("SELECT state FROM inbound ORDER BY id DESC LIMIT 4").fetchall()
    assert states == [("handled",)] * 4
    assert judge.effective("war1", "GERMANY") == ["F KIE H", "A BER H", "A MUN H"]


def test_a_group_ends_after_group_seconds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(handling, "GROUP_SECONDS", -1.0)  # every message its own group
    judge = Judge(tmp_path)
    for n in range(3):
        _store(judge, f"p{n}@example.org", "LIST")
    commits = _commits(judge)
    assert handle_waiting(judge.db, judge.config, lambda: judge.now) == 3
    judge.db.conn.set_trace_callback(None)
    assert commits == ["COMMIT"] * 3


def test_a_message_that_raises_is_rolled_back_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(handling, "GROUP_SECONDS", 3600.0)
    judge = Judge(tmp_path)
    players = judge.start_game()

    def failing_for_germany(sub: Submission, ctx: Context) -> list[Reply]:
        replies = dispatch(sub, ctx)  # its orders are stored, then it raises
        if sub.sender == players["G"]:
            raise RuntimeError("a bug of ours")
        return replies

    _store(judge, players["F"], f"SIGNON Fwar1 pw2\n{HOLDS['F']}")
    _store(judge, players["G"], f"SIGNON Gwar1 pw3\n{HOLDS['G']}")
    _store(judge, players["E"], f"SIGNON Ewar1 pw1\n{HOLDS['E']}")
    before = judge.db.execute("SELECT MAX(id) FROM outbound").fetchone()[0]
    handle_waiting(judge.db, judge.config, lambda: judge.now, failing_for_germany)
    rows = judge.db.execute(
        "SELECT state, attempts FROM inbound ORDER BY id DESC LIMIT 3"
    ).fetchall()
    assert rows == [("handled", 0), ("new", 1), ("handled", 0)]  # E, G (retried), F
    assert judge.effective("war1", "GERMANY") == []  # rolled back with its message
    assert judge.effective("war1", "FRANCE") == ["A PAR H", "A MAR H", "F BRE H"]
    replies = judge.db.execute(
        "SELECT recipients FROM outbound WHERE id > ? ORDER BY id", [before]
    ).fetchall()
    assert replies == [(f'["{players["F"]}"]',), (f'["{players["E"]}"]',)]


def test_the_first_idle_pass_compiles_the_acknowledgement_templates(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    judge = Judge(tmp_path)
    compiled: list[tuple[str, ...]] = []
    monkeypatch.setattr(handling.compose, "prepare", lambda *names: compiled.append(names))
    handling._prepared.cache_clear()
    try:
        _store(judge, "someone@example.org", "HELP")
        handle_waiting(judge.db, judge.config, lambda: judge.now)
        assert compiled == []  # mail was waiting: no time for it
        handle_waiting(judge.db, judge.config, lambda: judge.now)
        handle_waiting(judge.db, judge.config, lambda: judge.now)
        assert compiled == [handling.PREPARED]  # once per process
    finally:
        handling._prepared.cache_clear()


def test_the_prepared_templates_are_templates() -> None:
    handling.compose.prepare(*handling.PREPARED)  # none missing


def test_a_senders_mail_behind_one_left_to_be_tried_again_waits_for_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(handling, "GROUP_SECONDS", 3600.0)
    judge = Judge(tmp_path)
    players = judge.start_game()
    raised: list[str] = []

    def failing_once_for_germany(sub: Submission, ctx: Context) -> list[Reply]:
        if sub.sender == players["G"] and not raised:  # a passing fault: a locked database
            raised.append(sub.body)
            raise RuntimeError("database is locked")
        return dispatch(sub, ctx)

    _store(judge, players["G"], f"SIGNON Gwar1 pw3\n{HOLDS['G']}")
    _store(judge, players["E"], f"SIGNON Ewar1 pw1\n{HOLDS['E']}")
    _store(judge, players["G"], "SIGNON Gwar1 pw3\nF Kie - Den\nA Ber - Kie\nA Mun - Ruh")
    start = judge.now
    # Two tried (Germany's first, England's); Germany's revised orders left untried.
    assert handle_waiting(judge.db, judge.config, lambda: start, failing_once_for_germany) == 2
    states = judge.db.execute("SELECT state, attempts FROM inbound ORDER BY id").fetchall()
    assert states[-3:] == [("new", 1), ("handled", 0), ("new", 0)]  # G retried, E, G waits
    assert judge.effective("war1", "GERMANY") == []  # the revised orders did not go first
    # Before the retry, Germany's revised orders wait behind it; England is handled.
    later = start + timedelta(seconds=59)
    assert handle_waiting(judge.db, judge.config, lambda: later, failing_once_for_germany) == 0
    retry = start + timedelta(seconds=61)
    before = judge.db.execute("SELECT MAX(id) FROM outbound").fetchone()[0]
    assert handle_waiting(judge.db, judge.config, lambda: retry, failing_once_for_germany) == 2
    assert judge.effective("war1", "GERMANY") == ["F KIE - DEN", "A BER - KIE", "A MUN - RUH"]
    acks = judge.db.execute(
        "SELECT inbound_id FROM outbound WHERE id > ? ORDER BY id", [before]
    ).fetchall()
    germany = judge.db.execute(
        "SELECT id FROM inbound WHERE sender = ? ORDER BY id", [players["G"]]
    ).fetchall()
    assert acks == germany[-2:]  # the first orders' answer, then the revised orders'


def test_what_became_of_a_message_is_logged_only_once_its_group_is_committed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # Logged inside the group, "handled" was written for mail whose commit then failed
    # (a disk fault): the log said answered of mail that was waiting still.
    real = handling.transaction

    @contextmanager
    def commit_fails(db):  # the outermost transaction's commit fails, as on a disk fault
        outermost = not db.conn.in_transaction
        with real(db):
            yield db
            if outermost:
                raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(handling, "GROUP_SECONDS", 3600.0)
    monkeypatch.setattr(handling, "transaction", commit_fails)
    judge = Judge(tmp_path)
    for n in range(2):
        _store(judge, f"p{n}@example.org", "LIST")
    caplog.set_level(logging.INFO, logger="judge")
    with pytest.raises(sqlite3.OperationalError):
        handle_waiting(judge.db, judge.config, lambda: judge.now)
    assert [r.getMessage() for r in caplog.records if " from p" in r.getMessage()] == []
    states = judge.db.execute("SELECT state FROM inbound ORDER BY id").fetchall()
    assert states == [("new",), ("new",)]
    monkeypatch.setattr(handling, "transaction", real)
    assert handle_waiting(judge.db, judge.config, lambda: judge.now) == 2
    assert [r.getMessage() for r in caplog.records if " from p" in r.getMessage()] == [
        "message 1 from p0@example.org: handled, 1 reply queued",
        "message 2 from p1@example.org: handled, 1 reply queued",
    ]

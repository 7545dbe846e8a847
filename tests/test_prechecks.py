"""Passwords checked ahead (issue 16): the daemon checks the SIGNONs of the mails waiting
to be handled, in worker processes, before it handles them; the handling then decides
exactly as before, with each password checked by scrypt once."""

from __future__ import annotations

import email
import os
import threading
from collections.abc import Sequence
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from email.policy import default
from pathlib import Path
from typing import Any

import pytest
from judge_harness import HOLDS, Judge

from judge.commands.signon import WINDOW
from judge.game import passwords
from judge.mail.message import parse_submission
from judge.service import handling, prechecks
from judge.service.handling import handle_waiting
from judge.service.prechecks import Pair, PasswordPool, check_ahead, check_here
from judge.store import games, guesses, inbox

pytestmark = pytest.mark.usefixtures("fresh_password_cache")


class Recording:
    """A Checker that checks here and records what it was given."""

    def __init__(self) -> None:
        self.given: list[list[str]] = []

    def __call__(self, pairs: Sequence[Pair]) -> Future[list[bool]]:
        self.given.append([password for password, _ in pairs])
        return check_here(pairs)


def _started(tmp_path: Path) -> tuple[Judge, dict[str, str]]:
    """A started game's judge and players (power initial -> address), with no password
    remembered from before: every check is a real one."""
    judge = Judge(tmp_path)
    players = judge.start_game()
    passwords.forget_verified()
    return judge, players


def _store(judge: Judge, sender: str, body: str, head: str = "") -> None:
    n = next(judge.serial)
    raw = (
        f"From: {sender}\r\nTo: judge@example.org\r\nSubject: orders\r\n"
        f"Message-ID: <ahead{n}@example.org>\r\n{head}\r\n{body}\r\n"
    ).encode()
    inbox.ingest(judge.db, raw, "smtp", judge.now)


def _store_three(judge: Judge, players: dict[str, str], germany: str) -> None:
    """Order mails from France (its right password), Germany (`germany`) and England
    (its right password), in that order."""
    _store(judge, players["F"], f"SIGNON Fwar1 pw2\n{HOLDS['F']}")
    _store(judge, players["G"], f"SIGNON Gwar1 {germany}\n{HOLDS['G']}")
    _store(judge, players["E"], f"SIGNON Ewar1 pw1\n{HOLDS['E']}")


def _acks(judge: Judge, since: int) -> dict[str, str]:
    rows = judge.db.execute(
        "SELECT recipients, raw FROM outbound WHERE id > ? ORDER BY id", [since]
    ).fetchall()
    out = {}
    for recipients, raw in rows:
        msg = email.message_from_bytes(raw, policy=default)
        out[recipients] = msg.get_body(("plain",)).get_content().replace("\r\n", "\n")
    return out


def _last(judge: Judge) -> int:
    return int(judge.db.execute("SELECT COALESCE(MAX(id), 0) FROM outbound").fetchone()[0])


def test_a_batch_is_checked_ahead_once_and_handled_as_before(
    tmp_path: Path, scrypt_calls: list[bytes]
) -> None:
    judge, players = _started(tmp_path)
    _store_three(judge, players, "wrong")
    checker, before = Recording(), _last(judge)
    scrypt_calls.clear()
    assert handle_waiting(judge.db, judge.config, lambda: judge.now, checker=checker) == 3
    # One call for the mails read together, each password once; the handling ran no scrypt.
    assert checker.given == [["pw2", "wrong", "pw1"]]
    assert scrypt_calls == [b"pw2", b"wrong", b"pw1"]
    acks = _acks(judge, before)
    france, germany = acks[f'["{players["F"]}"]'], acks[f'["{players["G"]}"]']
    assert "\nLine 1: SIGNON Fwar1 ****\n  Signed on to war1 as France.\n" in france
    assert (
        "\nLine 1: SIGNON Gwar1 ****\n"
        "  ERROR: signon refused: the game name, the power or the password is wrong.\n"
    ) in germany
    assert judge.effective("war1", "FRANCE") == ["A PAR H", "A MAR H", "F BRE H"]
    # The wrong one was counted, as when the handling checks it itself, and forgotten.
    assert guesses.count(judge.db, guesses.power_key("war1", "G"), judge.now, WINDOW) == 1
    [germany_seat] = [s for s in games.seats(judge.db, judge.game()) if s.power == "GERMANY"]
    assert not passwords.known("wrong", germany_seat.password_hash)
    assert passwords.verified_count() == 2


def test_mail_stored_while_the_first_waits_is_checked_meanwhile(
    tmp_path: Path, scrypt_calls: list[bytes]
) -> None:
    judge, players = _started(tmp_path)
    _store(judge, players["F"], f"SIGNON Fwar1 pw2\n{HOLDS['F']}")
    given: list[list[str]] = []
    order: list[str] = []
    second_started = threading.Event()
    first: Future[list[bool]] = Future()

    def answer_first(pairs: Sequence[Pair]) -> None:
        second_started.wait(60)  # the first's answer comes only once the second is begun
        order.append("first answered")
        first.set_result(prechecks.check_here_now(pairs))

    def checker(pairs: Sequence[Pair]) -> Future[list[bool]]:
        given.append([password for password, _ in pairs])
        if len(given) == 1:
            # England's mail arrives while France's password is being checked.
            _store(judge, players["E"], f"SIGNON Ewar1 pw1\n{HOLDS['E']}")
            threading.Thread(target=answer_first, args=(pairs,)).start()
            return first
        order.append("second started")
        second_started.set()
        return check_here(pairs)

    before = _last(judge)
    scrypt_calls.clear()
    assert handle_waiting(judge.db, judge.config, lambda: judge.now, checker=checker) == 2
    assert given == [["pw2"], ["pw1"]]
    assert order == ["second started", "first answered"]
    assert sorted(scrypt_calls) == [b"pw1", b"pw2"]  # each once, none by the handling
    acks = _acks(judge, before)
    assert "Signed on to war1 as France." in acks[f'["{players["F"]}"]']
    assert "Signed on to war1 as England." in acks[f'["{players["E"]}"]']


def test_a_password_in_two_waiting_mails_is_checked_ahead_once(
    tmp_path: Path, scrypt_calls: list[bytes]
) -> None:
    judge, players = _started(tmp_path)
    _store(judge, players["F"], f"SIGNON Fwar1 pw2\n{HOLDS['F']}")
    _store(judge, players["F"], "SIGNON Fwar1 pw2\nA Par-Bur\nA Mar H\nF Bre H")
    checker, before = Recording(), _last(judge)
    scrypt_calls.clear()
    assert handle_waiting(judge.db, judge.config, lambda: judge.now, checker=checker) == 2
    assert checker.given == [["pw2"]]
    assert scrypt_calls == [b"pw2"]
    assert len(_acks(judge, before)) == 1  # both to France: the later one kept by _acks
    assert judge.effective("war1", "FRANCE") == ["A PAR - BUR", "A MAR H", "F BRE H"]


def test_mails_read_together_are_checked_together_up_to_the_limit(
    tmp_path: Path, scrypt_calls: list[bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(handling, "CHECKED_TOGETHER", 2)
    judge, players = _started(tmp_path)
    _store_three(judge, players, "wrong")
    checker = Recording()
    scrypt_calls.clear()
    assert handle_waiting(judge.db, judge.config, lambda: judge.now, checker=checker) == 3
    assert checker.given == [["pw2", "wrong"], ["pw1"]]
    assert scrypt_calls == [b"pw2", b"wrong", b"pw1"]  # none again by the handling
    assert judge.effective("war1", "FRANCE") == ["A PAR H", "A MAR H", "F BRE H"]
    assert judge.effective("war1", "ENGLAND") == ["F LON H", "F EDI H", "A LVP H"]
    assert judge.effective("war1", "GERMANY") == []


def test_one_mail_whose_check_ahead_raises_leaves_the_others_checked_ahead(
    tmp_path: Path, scrypt_calls: list[bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    judge, players = _started(tmp_path)
    real = handling.check_ahead

    def fails_on_germany(*args: Any, **kwargs: Any) -> prechecks.Ahead:
        subs = args[3]
        if any(sub.sender == players["G"] for sub in subs):
            raise RuntimeError("a fault of ours")
        return real(*args, **kwargs)

    monkeypatch.setattr(handling, "check_ahead", fails_on_germany)
    _store_three(judge, players, "pw3")
    checker, before = Recording(), _last(judge)
    scrypt_calls.clear()
    assert handle_waiting(judge.db, judge.config, lambda: judge.now, checker=checker) == 3
    # Together they failed; alone, France's and England's were checked ahead.
    assert checker.given == [["pw2"], ["pw1"]]
    assert scrypt_calls == [b"pw2", b"pw1", b"pw3"]  # Germany's by its handling
    acks = _acks(judge, before)
    assert (
        "\nLine 1: SIGNON Gwar1 ****\n  Signed on to war1 as Germany.\n"
        in (acks[f'["{players["G"]}"]'])
    )
    assert judge.effective("war1", "GERMANY") == ["F KIE H", "A BER H", "A MUN H"]


def test_a_wrong_password_checked_ahead_is_answered_once(scrypt_calls: list[bytes]) -> None:
    stored = passwords.hash_password("secret")
    passwords.remember("guess", stored, False)
    scrypt_calls.clear()
    assert passwords.known("guess", stored)
    assert passwords.check_password("guess", stored) is False
    assert scrypt_calls == []
    assert not passwords.known("guess", stored)
    assert passwords.check_password("guess", stored) is False  # checked again, here
    assert scrypt_calls == [b"guess"]


def test_mail_not_answered_too_many_signons_and_locks_are_not_checked_ahead(
    tmp_path: Path,
) -> None:
    judge = Judge(tmp_path, wrong_passwords_per_hour=2, passwords_per_mail=2)
    players = judge.start_game()
    for n in range(2):  # Germany's power reaches the limit on wrong passwords
        judge.send(players["G"], f"SIGNON Gwar1 wrong{n}")
    passwords.forget_verified()
    _store(judge, players["F"], "SIGNON Fwar1 pw2", head="Auto-Submitted: auto-replied\r\n")
    _store(judge, players["E"], "SIGNON Ewar1 pw1\nSIGNON Ewar1 x1\nSIGNON Ewar1 x2")
    _store(judge, players["I"], "SIGNON Gwar1 pw3")  # locked: never checked
    _store(judge, players["A"], "SIGNON Anowhere pw1")  # no such game: nothing to check
    checker = Recording()
    handle_waiting(judge.db, judge.config, lambda: judge.now, checker=checker)
    assert checker.given == [["pw1", "x1"]]


def test_a_checker_that_fails_leaves_the_checks_to_the_handling(
    tmp_path: Path, scrypt_calls: list[bytes]
) -> None:
    judge, players = _started(tmp_path)

    def broken(pairs: Sequence[Pair]) -> Future[list[bool]]:
        failed: Future[list[bool]] = Future()
        failed.set_exception(RuntimeError("worker died"))
        return failed

    _store(judge, players["F"], f"SIGNON Fwar1 pw2\n{HOLDS['F']}")
    before = _last(judge)
    scrypt_calls.clear()
    assert handle_waiting(judge.db, judge.config, lambda: judge.now, checker=broken) == 1
    assert scrypt_calls == [b"pw2"]  # checked by the handling
    [ack] = _acks(judge, before).values()
    assert "\nLine 1: SIGNON Fwar1 ****\n  Signed on to war1 as France.\n" in ack


def test_the_pool_checks_in_workers_and_answers_in_order(tmp_path: Path) -> None:
    stored = {pw: passwords.hash_password(pw) for pw in ("a", "b", "c")}
    pairs = [("a", stored["a"]), ("x", stored["b"]), ("c", stored["c"]), ("b", stored["c"])]
    pool = PasswordPool(workers=2)
    try:
        assert pool(pairs).result(timeout=60) == [True, False, True, False]
        assert pool([]).result() == []
    finally:
        pool.close()


def test_check_ahead_reads_the_signons_of_each_mail(tmp_path: Path) -> None:
    judge, players = _started(tmp_path)
    _store(judge, players["F"], "SIGNON Fwar1 pw2\nA Par H\nSIGNOFF\nSIGNON Ewar1 pw0")
    [item] = inbox.due(judge.db, judge.now)
    sub = parse_submission(item.raw, judge.config.max_message_bytes)
    ahead = check_ahead(judge.db, judge.config, judge.now, [sub], Recording())
    assert [password for password, _ in ahead.pairs] == ["pw2"]  # SIGNOFF ends the mail
    assert ahead.remember() == 1
    assert passwords.verified_count() == 1
    assert prechecks.check_here([]).result() == []


def test_a_pool_whose_worker_died_starts_new_workers() -> None:
    stored = passwords.hash_password("a")
    pool = PasswordPool(workers=2)
    try:
        died = pool._pool.submit(os._exit, 1)  # a worker killed, as by the OOM killer
        with pytest.raises(BrokenProcessPool):
            died.result(timeout=60)
        answers = pool([("a", stored), ("b", stored)])
        assert answers.result(timeout=60) == [True, False]
    finally:
        pool.close()


def test_with_mail_far_ahead_new_mail_is_read_a_batch_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(handling, "AHEAD", 6)
    monkeypatch.setattr(handling, "CHECKED_TOGETHER", 3)
    judge, players = _started(tmp_path)
    for n in range(9):  # wrong passwords: each one new, checked ahead
        _store(judge, players["AEFGIRT"[n % 7]], f"SIGNON {'AEFGIRT'[n % 7]}war1 x{n}")
    given: list[list[str]] = []

    def never_answers(pairs: Sequence[Pair]) -> Future[list[bool]]:
        given.append([password for password, _ in pairs])
        return Future()

    queue = handling._Queue(judge.db, judge.config, lambda: judge.now, never_answers)
    queue.top_up()
    assert given == [["x0", "x1", "x2"], ["x3", "x4", "x5"]]
    queue.items.popleft()  # handled: 5 wait, room for 1
    queue.top_up()
    queue.items.popleft()  # 4 wait, room for 2
    queue.top_up()
    assert len(queue.items) == 4 and len(given) == 2  # nothing read: a batch has no room
    queue.items.popleft()  # room for 3: the next batch is read
    queue.top_up()
    assert given[2:] == [["x6", "x7", "x8"]] and len(queue.items) == 6

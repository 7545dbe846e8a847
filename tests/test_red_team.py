"""The red team's attacks on the paths issue 16 made fast: mail read ahead, passwords
checked ahead in worker processes, mail handled in groups, replies sent on several relay
connections. Each test is an attack from outside (mail anyone may send) and asserts what
the judge must still promise: the limits on wrong passwords and their scrypt cost as if
each mail were handled alone, every mail answered once and in order, no password shown.
"""

from __future__ import annotations

import email
import json
import logging
import os
import re
import signal
from collections.abc import Iterator, Sequence
from concurrent.futures import Future
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from email.policy import default
from functools import partial
from pathlib import Path

import pytest
import sqlite_utils
from judge_harness import HOLDS, Judge
from live_judge import JUDGE, judge_toml, replies_by_parent, start_judge, wait_until
from smtp_sink import Received, SmtpSink, free_port
from test_prechecks import Recording

from judge.commands.signon import WINDOW
from judge.config import SmtpOutConfig
from judge.game import passwords, pictures
from judge.mail import outbox as outbox_sender
from judge.mail import send_threads
from judge.mail.message import Submission
from judge.replies import Reply
from judge.service import handling
from judge.service.handling import handle_waiting
from judge.service.prechecks import Pair, PasswordPool, check_here
from judge.store import games, guesses, inbox, outbox
from judge.store.audit import iso
from judge.store.db import open_db, transaction

pytestmark = pytest.mark.usefixtures("fresh_password_cache")

WRONG = "  ERROR: signon refused: the game name, the power or the password is wrong.\n"
LOCKED = "  ERROR: signon refused, and the password was not checked: too many wrong\n"
SIGNED_ON_FRANCE = "  Signed on to war1 as France.\n"


# Every password the tests here use: none may appear in a reply or a log line.
PASSWORDS = (
    "masterpw",
    *(f"pw{n}" for n in range(7)),
    *(f"guess{n}" for n in range(200)),
    *(f"new{n}" for n in range(4)),
    "fresh9",
    "wrong-guess",
    "wrong1",
    "wrong2",
    "wrong3",
    "pässwörd",
    "passwörd",
    "A" * 9_987,
    "A" * 10_240,
    "C" * 987,
)


# Every password at once, as a word of its own: one pass over a text, not one a password
# (some 200 passes over a game's Diaries mails were seconds of a test's teardown).
_ANY_PASSWORD = re.compile(
    r"(?<![\w-])("
    + "|".join(re.escape(p) for p in sorted(PASSWORDS, key=len, reverse=True))
    + r")(?![\w-])"
)


def _shown(text: str) -> list[str]:
    """The PASSWORDS that `text` shows as words of their own."""
    found = set(_ANY_PASSWORD.findall(text))
    return [p for p in PASSWORDS if p in found]


def _readable(raw: bytes) -> str:
    """A mail's headers and text parts, decoded (its picture, base64, left out: any three
    letters turn up in 100 KB of it)."""
    msg = email.message_from_bytes(raw, policy=default)
    texts = [f"{k}: {v}" for k, v in msg.items()]
    texts += [p.get_content() for p in msg.walk() if p.get_content_maintype() == "text"]
    return "\n".join(texts).replace("\r\n", "\n")


@pytest.fixture(autouse=True)
def no_password_shown(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """After each test: no password in a log line, nor in any mail its judge queued."""
    caplog.set_level(logging.DEBUG)
    yield
    assert _shown(caplog.text) == []
    for path in tmp_path.glob("*.db"):
        db = open_db(path)
        try:
            mails = [_readable(raw) for (raw,) in db.execute("SELECT raw FROM outbound")]
        finally:
            db.conn.close()
        assert mails and [_shown(text) for text in mails] == [[]] * len(mails)


def _started(tmp_path: Path, **config: object) -> tuple[Judge, dict[str, str]]:
    """A started game war1's judge and players (power initial -> address), with no
    password remembered: every check is a real one."""
    judge = Judge(tmp_path, **config)
    players = judge.start_game()
    passwords.forget_verified()
    return judge, players


def _store(judge: Judge, sender: str, body: str, subject: str = "orders") -> str:
    """Store a mail from `sender` without handling it; its Message-ID."""
    n = next(judge.serial)
    message_id = f"<red{n}@example.org>"
    raw = (
        f"From: {sender}\r\nTo: judge@example.org\r\nSubject: {subject}\r\n"
        f"Message-ID: {message_id}\r\n\r\n{body}\r\n"
    ).encode()
    inbox.ingest(judge.db, raw, "smtp", judge.now)
    return message_id


def _answers(judge: Judge, since: int = 0) -> dict[str, str]:
    """The acknowledgements queued after outbound `since`, by the Message-ID they answer:
    their text."""
    out = {}
    rows = judge.db.execute(
        "SELECT raw FROM outbound WHERE id > ? AND kind IN ('reply', 'signed reply') ORDER BY id",
        [since],
    )
    for (raw,) in rows:
        msg = email.message_from_bytes(raw, policy=default)
        out[msg["In-Reply-To"]] = msg.get_body(("plain",)).get_content().replace("\r\n", "\n")
    return out


def _last(judge: Judge) -> int:
    return int(judge.db.execute("SELECT COALESCE(MAX(id), 0) FROM outbound").fetchone()[0])


# Scenario 2: one power guessed by many mails read ahead in one go.


@pytest.mark.parametrize("mails", [10, 50, 200])
@pytest.mark.parametrize("senders", [1, 200])
def test_a_power_guessed_by_many_mails_at_once_costs_what_one_by_one_would(
    tmp_path: Path, scrypt_calls: list[bytes], mails: int, senders: int
) -> None:
    # Before the fix, every guess read ahead (up to AHEAD, 100) was checked by scrypt in
    # the workers, though the handling refuses all past the tenth unchecked.
    judge, players = _started(tmp_path)
    ids = [
        _store(judge, f"guesser{n % senders}@example.org", f"SIGNON Fwar1 guess{n}\nA Par H")
        for n in range(mails)
    ]
    checker, before = Recording(), _last(judge)
    scrypt_calls.clear()
    assert handle_waiting(judge.db, judge.config, lambda: judge.now, checker=checker) == mails
    limit = judge.config.wrong_passwords_per_hour  # 10
    # Exactly the ten the handling checks, each once, ahead; none past the limit.
    assert scrypt_calls == [f"guess{n}".encode() for n in range(limit)]
    assert sum(checker.given, []) == [f"guess{n}" for n in range(limit)]
    answers = _answers(judge, before)
    for n, message_id in enumerate(ids):
        expected = WRONG if n < limit else LOCKED
        assert f"Line 1: SIGNON Fwar1 ****\n{expected}" in answers[message_id], n
    assert guesses.count(judge.db, guesses.power_key("war1", "F"), judge.now, WINDOW) == limit
    assert judge.effective("war1", "FRANCE") == []
    # France's player told once; the one guessing address too, once.
    notices = judge.db.execute(
        "SELECT recipients FROM outbound WHERE kind = 'notice' AND id > ?", [before]
    )
    expected = [f'["{players["F"]}"]'] + ['["guesser0@example.org"]'] * (senders == 1)
    assert [r for (r,) in notices] == expected
    # The player's own password is refused too, unchecked, for the rest of the hour.
    scrypt_calls.clear()
    [ack] = [m for m in judge.send(players["F"], "SIGNON Fwar1 pw2") if "SIGNON" in m.body]
    assert f"Line 1: SIGNON Fwar1 ****\n{LOCKED}" in ack.body
    assert scrypt_calls == []


def test_signons_past_a_mails_budget_are_not_checked_ahead(
    tmp_path: Path, scrypt_calls: list[bytes]
) -> None:
    # SET PASSWORD hashes a password: it spends the mail's budget (5) as a check does,
    # so the SIGNON after four of them is refused unread, and must not be checked ahead.
    judge, _ = _started(tmp_path)
    sets = "\n".join(f"SET PASSWORD new{n}" for n in range(4))
    message_id = _store(judge, "p2@example.org", f"SIGNON Fwar1 pw2\n{sets}\nSIGNON Gwar1 guess")
    checker, before = Recording(), _last(judge)
    scrypt_calls.clear()
    assert handle_waiting(judge.db, judge.config, lambda: judge.now, checker=checker) == 1
    assert checker.given == [["pw2"]]
    assert scrypt_calls == [b"pw2", b"new0", b"new1", b"new2", b"new3"]
    answer = _answers(judge, before)[message_id]
    assert "Line 6: SIGNON Gwar1 ****\n  ERROR: not read: one mail may carry at most 5" in answer
    assert guesses.count(judge.db, guesses.power_key("war1", "G"), judge.now, WINDOW) == 0


def test_a_guess_for_no_game_counts_toward_the_senders_limit_ahead(
    tmp_path: Path, scrypt_calls: list[bytes]
) -> None:
    # A SIGNON for a game that does not exist is a wrong password for its sender: ten of
    # them lock the sender, so the right-looking guesses behind them are never checked.
    judge, _ = _started(tmp_path)
    for n in range(10):
        _store(judge, "guesser@example.org", f"SIGNON Fnowhere{n} x")
    ids = [_store(judge, "guesser@example.org", f"SIGNON Fwar1 guess{n}") for n in range(5)]
    checker, before = Recording(), _last(judge)
    scrypt_calls.clear()
    assert handle_waiting(judge.db, judge.config, lambda: judge.now, checker=checker) == 15
    assert scrypt_calls == [] and sum(checker.given, []) == []
    answers = _answers(judge, before)
    assert all(f"Line 1: SIGNON Fwar1 ****\n{LOCKED}" in answers[i] for i in ids)


def test_signons_handled_no_longer_hold_back_the_checks_ahead_of_later_mail(
    tmp_path: Path, scrypt_calls: list[bytes]
) -> None:
    # Ten mails from France's player, read together, might each have been wrong: the
    # sender's eleventh SIGNON is left to its handling while they wait. Once they are
    # handled (right), a mail read after them is checked ahead again.
    judge, players = _started(tmp_path)
    for _ in range(10):
        _store(judge, players["F"], f"SIGNON Fwar1 pw2\n{HOLDS['F']}")
    given: list[list[str]] = []

    def checker(pairs: Sequence[Pair]) -> Future[list[bool]]:
        given.append([password for password, _ in pairs])
        if len(given) == 1:  # read after the ten: handled after them
            _store(judge, players["F"], "SIGNON Gwar1 pw3")
        return check_here(pairs)

    scrypt_calls.clear()
    assert handle_waiting(judge.db, judge.config, lambda: judge.now, checker=checker) == 11
    assert given == [["pw2"], ["pw3"]]
    assert scrypt_calls == [b"pw2", b"pw3"]


# Scenario 1: a password changed by a mail read together with one that uses the old one.


def test_a_password_changed_in_a_batch_refuses_the_old_one_in_the_mail_after(
    tmp_path: Path, scrypt_calls: list[bytes]
) -> None:
    judge, players = _started(tmp_path)
    change = _store(judge, players["F"], "SIGNON Fwar1 pw2\nSET PASSWORD fresh9")
    old = _store(judge, "thief@example.org", f"SIGNON Fwar1 pw2\n{HOLDS['F']}")
    checker, before = Recording(), _last(judge)
    scrypt_calls.clear()
    assert handle_waiting(judge.db, judge.config, lambda: judge.now, checker=checker) == 2
    # The old pair was checked ahead once (right, then); the handling of the second
    # mail checks it against the new hash, by scrypt, and refuses it.
    assert checker.given == [["pw2"]]
    assert scrypt_calls == [b"pw2", b"fresh9", b"pw2"]
    answers = _answers(judge, before)
    assert f"Line 1: SIGNON Fwar1 ****\n{SIGNED_ON_FRANCE}" in answers[change]
    assert f"Line 1: SIGNON Fwar1 ****\n{WRONG}" in answers[old]
    assert judge.effective("war1", "FRANCE") == []
    # The new password works, the old one does not, whichever is checked first.
    [old_again] = judge.send(players["F"], "SIGNON Fwar1 pw2")
    [new] = judge.send(players["F"], "SIGNON Fwar1 fresh9\nA Par H")
    assert WRONG in old_again.body and SIGNED_ON_FRANCE in new.body
    assert judge.effective("war1", "FRANCE") == ["A PAR H"]


def test_a_mail_read_while_the_change_waits_is_checked_against_the_old_hash_and_refused(
    tmp_path: Path, scrypt_calls: list[bytes]
) -> None:
    # The second mail arrives after the first was read, before it is handled: checked
    # ahead against the hash before the change, it must still be refused.
    judge, players = _started(tmp_path)
    change = _store(judge, players["F"], "SIGNON Fwar1 pw2\nSET PASSWORD fresh9")
    first: Future[list[bool]] = Future()
    held: list[Sequence[Pair]] = []
    late: list[str] = []

    def checker(pairs: Sequence[Pair]) -> Future[list[bool]]:
        if not held:  # the change's check: answered once the late mail is read
            held.append(pairs)
            late.append(_store(judge, "thief@example.org", "SIGNON Fwar1 pw2\nSIGNON Ewar1 pw1"))
            return first
        first.set_result(check_here(held[0]).result())
        return check_here(pairs)  # England's, the old France pair being checked already

    before = _last(judge)
    scrypt_calls.clear()
    assert handle_waiting(judge.db, judge.config, lambda: judge.now, checker=checker) == 2
    answers = _answers(judge, before)
    assert f"Line 1: SIGNON Fwar1 ****\n{SIGNED_ON_FRANCE}" in answers[change]
    assert (
        f"Line 1: SIGNON Fwar1 ****\n{WRONG}"
        "Line 2: SIGNON Ewar1 ****\n  Signed on to war1 as England.\n"
    ) in answers[late[0]]
    # Ahead: the old pair (then right) and England's; the handling: the new hash, then
    # the old password against it.
    assert scrypt_calls == [b"pw2", b"pw1", b"fresh9", b"pw2"]


# Scenario 3: SIGNONs of every kind in one mail, and passwords of every shape.


def test_a_mail_of_mixed_signons_costs_and_answers_as_one_by_one(
    tmp_path: Path, scrypt_calls: list[bytes]
) -> None:
    judge, _ = _started(tmp_path)
    body = (
        "SIGNON Fwar1 pw2\nSIGNON Gwar1 wrong\nSIGNON Fnowhere pw2\nSIGNON Fwar1 pw2\n"
        "SIGNON Gwar1 wrong\nSIGNON Ewar1 pw1\nSIGNON Fwar1 pw2"
    )
    message_id = _store(judge, "p2@example.org", body)
    checker, before = Recording(), _last(judge)
    scrypt_calls.clear()
    assert handle_waiting(judge.db, judge.config, lambda: judge.now, checker=checker) == 1
    # Ahead, each pair once; the handling, the repeated wrong one again (each wrong
    # password costs its check): three, as one by one.
    assert checker.given == [["pw2", "wrong"]]
    assert scrypt_calls == [b"pw2", b"wrong", b"wrong"]
    answer = _answers(judge, before)[message_id]
    budget = "  ERROR: not read: one mail may carry at most 5 passwords (SIGNON,\n"
    for line, words in [
        ("1: SIGNON Fwar1", SIGNED_ON_FRANCE),
        ("2: SIGNON Gwar1", WRONG),
        ("3: SIGNON Fnowhere", WRONG),
        ("4: SIGNON Fwar1", SIGNED_ON_FRANCE),
        ("5: SIGNON Gwar1", WRONG),
        ("6: SIGNON Ewar1", budget),
        ("7: SIGNON Fwar1", budget),
    ]:
        assert f"Line {line} ****\n{words}" in answer
    count = guesses.count(judge.db, guesses.sender_key("p2@example.org"), judge.now, WINDOW)
    assert count == 3  # Germany's twice, the game that does not exist once


def test_a_thousand_signons_in_one_mail_cost_five_checks(
    tmp_path: Path, scrypt_calls: list[bytes]
) -> None:
    judge, _ = _started(tmp_path)
    body = "\n".join(f"SIGNON Gwar1 guess{n}" for n in range(1000))
    message_id = _store(judge, "guesser@example.org", body)
    checker, before = Recording(), _last(judge)
    scrypt_calls.clear()
    assert handle_waiting(judge.db, judge.config, lambda: judge.now, checker=checker) == 1
    assert scrypt_calls == [f"guess{n}".encode() for n in range(5)]
    answer = _answers(judge, before)[message_id]
    assert "Line 6: SIGNON Gwar1 ****\n  ERROR: not read: one mail may carry at most 5" in answer
    assert "Line 101: SIGNON Gwar1 ****\n  ERROR: Only the first 100 command lines" in answer
    assert "Line 102:" not in answer and "guess" not in answer


def test_a_password_too_long_for_its_line_is_refused_not_cut(
    tmp_path: Path, scrypt_calls: list[bytes]
) -> None:
    # A mail's line is cut at 10,000 characters: a 10 KB password was set cut short, and
    # any password beginning with its first 9,987 characters was then taken for it.
    judge, players = _started(tmp_path)
    long = "A" * 10_240
    [changed] = judge.send(players["F"], f"SIGNON Fwar1 pw2\nSET PASSWORD {long}")
    too_long = (
        "  ERROR: not read: a line that carries a password may have 1000 characters at\n  most.\n"
    )
    assert f"Line 2: SET PASSWORD ****\n{too_long}" in changed.body
    for password in (long, "A" * 9_987):
        [refused] = judge.send(players["F"], f"SIGNON Fwar1 {password}\nA Par H")
        assert f"Line 1: SIGNON Fwar1 ****\n{too_long}" in refused.body
        assert "AAAA" not in refused.full
    assert judge.effective("war1", "FRANCE") == []
    assert b"A" * 100 not in b"".join(scrypt_calls)  # never checked nor hashed
    # The longest password a line may carry works whole, and only whole.
    longest = "C" * (1000 - len("SET PASSWORD "))
    [changed] = judge.send(players["F"], f"SIGNON Fwar1 pw2\nSET PASSWORD {longest}")
    assert "Your password for war1 is changed." in changed.body
    [cut] = judge.send(players["F"], f"SIGNON Fwar1 {longest[:-1]}")
    assert WRONG in cut.body
    [right] = judge.send(players["F"], f"SIGNON Fwar1 {longest}\nA Par H")
    assert SIGNED_ON_FRANCE in right.body and judge.effective("war1", "FRANCE") == ["A PAR H"]


def test_non_ascii_nul_and_order_word_passwords(tmp_path: Path) -> None:
    judge, players = _started(tmp_path)
    for password, wrong in [("pässwörd", "passwörd"), ("HOLD", "hold"), ("A Par H", "A")]:
        [changed] = judge.send(players["F"], f"SIGNON Fwar1 pw2\nSET PASSWORD {password}")
        if " " in password:  # one word only: refused, the old one kept
            assert "Line 2: SET PASSWORD ****\n  ERROR:" in changed.body
            continue
        assert "Your password for war1 is changed." in changed.body
        [refused] = judge.send(players["F"], f"SIGNON Fwar1 {wrong}\nA Par H")
        assert WRONG in refused.body
        [right] = judge.send(players["F"], f"SIGNON Fwar1 {password}\nA Par H")
        assert SIGNED_ON_FRANCE in right.body
        assert password not in right.full.replace("A PAR H", "").replace("HOLD\n", "")
        [back] = judge.send(players["F"], f"SIGNON Fwar1 {password}\nSET PASSWORD pw2")
        assert "Your password for war1 is changed." in back.body
    # A NUL is taken out of the mail's text as it is read, in SET PASSWORD as in SIGNON.
    [nul] = judge.send(players["F"], "SIGNON Fwar1 pw\x002\nA Mar H")
    assert SIGNED_ON_FRANCE in nul.body


# Scenarios 5 to 8, through the real daemon: a batch of mail stored before it starts (so
# that it is read together, its passwords checked ahead together), the daemon killed while
# the batch is checked ahead, in the middle of a group and after a group's commit, then
# left to finish; the replies go to an SMTP relay through the four send threads.

BAD_MIME_HEAD = "MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=zz\r\n"
BAD_MIME_BODY = (
    "--zz\r\nContent-Type: text/plain; charset=x-no-such-charset\r\n"
    "Content-Transfer-Encoding: base64\r\n\r\n!!!not base64 SIGNON Iwar1 pw4\r\n"
)


# The game's deadline, beyond the reach of any run of the daemon (which reads the wall
# clock): the phase is processed by its orders, never by its deadline.
FAR_DEADLINE = datetime(2999, 1, 1, tzinfo=UTC)


def _game_on_disk(tmp_path: Path) -> tuple[dict[str, str], datetime]:
    """A started game war1 in `tmp_path`/judge.db, made on the harness's clock (a day
    long past, so that all it queued is due when the daemon starts), its deadline moved
    to FAR_DEADLINE: the players' addresses by power initial, and the harness's time."""
    judge = Judge(tmp_path, database=tmp_path / "judge.db")
    players = judge.start_game()
    game = games.find_game(judge.db, "war1")
    assert game is not None
    with transaction(judge.db):
        games.update_game(judge.db, game, judge.now, deadline=iso(FAR_DEADLINE))
    judge.db.conn.close()
    return players, judge.now


def _raw(sender: str, message_id: str, body: str, head: str = "") -> bytes:
    return (
        f"From: {sender}\r\nTo: {JUDGE}\r\nSubject: orders\r\n"
        f"Message-ID: {message_id}\r\n{head}\r\n{body}"
    ).encode()


def _batch(players: dict[str, str]) -> list[tuple[str, bytes]]:
    """The mails of the batch, in order, each with a name (its Message-ID's left part)."""
    orders = {i: f"SIGNON {i}war1 pw{n}\r\n{HOLDS[i]}\r\n" for n, i in enumerate("AEFGIRT")}
    mails = [
        ("change", players["F"], "SIGNON Fwar1 pw2\r\nSET PASSWORD fresh9\r\n" + HOLDS["F"]),
        ("thief", "thief@example.org", "SIGNON Fwar1 pw2\r\nA Par-Bur\r\n"),
        ("germany", players["G"], orders["G"]),
        ("revised", players["G"], "SIGNON Gwar1 pw3\r\nF Kie-Den\r\nA Ber H\r\nA Mun H\r\n"),
        ("guess", "guesser@example.org", "SIGNON Ewar1 wrong-guess\r\n"),
        ("germany", players["G"], orders["G"]),  # the same mail again: stored once
        ("bad-mime", players["I"], BAD_MIME_BODY),
        ("italy", players["I"], orders["I"]),
        ("austria", players["A"], orders["A"]),
        ("russia", players["R"], orders["R"]),
        ("england", players["E"], orders["E"]),
        ("turkey", players["T"], orders["T"]),  # the last orders: the phase is processed
        ("after", players["F"], "SIGNON Fwar1 fresh9\r\nA Par H\r\n"),
        ("old", players["F"], "SIGNON Fwar1 pw2\r\nA Par-Bur\r\n"),
    ]
    return [
        (
            name,
            _raw(sender, f"<{name}@red.example.org>", body, BAD_MIME_HEAD * (name == "bad-mime")),
        )
        for name, sender, body in mails
    ]


def _settled(tmp_path: Path, stored: int) -> bool:
    db = open_db(tmp_path / "judge.db")
    try:
        states = [r[0] for r in db.execute("SELECT state FROM inbound")]
        queued = db.execute("SELECT COUNT(*) FROM outbound WHERE state != 'sent'").fetchone()[0]
        return len(states) == stored and set(states) == {"handled"} and queued == 0
    finally:
        db.conn.close()


def test_a_batch_through_the_daemon_killed_three_times_is_answered_once_and_in_order(
    tmp_path: Path,
) -> None:
    players, now = _game_on_disk(tmp_path)
    batch = _batch(players)
    db = open_db(tmp_path / "judge.db")
    stored = [inbox.ingest(db, raw, "smtp", now) for _, raw in batch]
    db.conn.close()
    assert [i is None for i in stored].count(True) == 1  # the repeat of Germany's mail
    names = list(dict.fromkeys(name for name, _ in batch))
    port, log_path = free_port(), tmp_path / "daemon.log"
    with SmtpSink() as sink, log_path.open("wb") as log:
        config = judge_toml(tmp_path, "RED", port, sink.port)
        # Killed as the batch's passwords are checked ahead, in the middle of its first
        # group (its third mail queued, not committed), and once a group is committed.
        for crash in ("checked-ahead:1", "handle-queued:3", "group-committed:1"):
            proc = start_judge(config, port, log=log, crash=crash)
            assert proc.wait(timeout=60) == -signal.SIGKILL, crash
        proc = start_judge(config, port, log=log)
        try:
            assert wait_until(lambda: _settled(tmp_path, 8 + len(names)), timeout=60)
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=20)
        relayed = sink.messages
    received = [m.data for m in relayed]
    _assert_each_answered_once(received, names)
    acks = {}
    for raw in received:
        msg = email.message_from_bytes(raw, policy=default)
        if msg["In-Reply-To"]:
            acks[msg["In-Reply-To"].split("@")[0][1:]] = _readable(raw)
    signed = {i: f"  Signed on to war1 as {power}.\n" for i, power in _POWERS.items()}
    assert "Line 2: SET PASSWORD ****\n  Your password for war1 is changed." in acks["change"]
    for name, line, words in [
        ("thief", "SIGNON Fwar1", WRONG),
        ("germany", "SIGNON Gwar1", signed["G"]),
        ("revised", "SIGNON Gwar1", signed["G"]),
        ("guess", "SIGNON Ewar1", WRONG),
        ("italy", "SIGNON Iwar1", signed["I"]),
        ("turkey", "SIGNON Twar1", signed["T"]),
        ("after", "SIGNON Fwar1", signed["F"]),
        ("old", "SIGNON Fwar1", WRONG),
    ]:
        assert f"Line 1: {line} ****\n{words}" in acks[name], name
    assert "  ERROR: this line needs a SIGNON line before it\n" in acks["bad-mime"]
    db = open_db(tmp_path / "judge.db")
    game = games.find_game(db, "war1")
    assert game is not None and game.phase == "F1901M"
    spring = games.effective_orders(db, game, "S1901M")
    assert spring["GERMANY"] == ["F KIE - DEN", "A BER H", "A MUN H"]  # the revised ones
    assert games.effective_orders(db, game, "F1901M") == {"FRANCE": ["A PAR H"]}
    _assert_in_queue_order(db, relayed)
    db.conn.close()
    # No password in any mail the relay took, nor in the daemon's log.
    assert [_shown(_readable(raw)) for raw in received] == [[]] * len(received)
    assert _shown(log_path.read_text(errors="replace")) == []


_POWERS = dict(
    zip(
        "AEFGIRT",
        ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"],
        strict=True,
    )
)


def _assert_each_answered_once(received: list[bytes], names: list[str]) -> None:
    """Each mail of the batch handled once, answered by one acknowledgement at the relay
    (a resend after a kill is the same bytes)."""
    by_parent = replies_by_parent(received)
    for name in names:
        assert len(by_parent.get(f"<{name}@red.example.org>", set())) == 1, name
    copies: dict[str, set[bytes]] = {}
    for raw in received:
        message_id = email.message_from_bytes(raw, policy=default)["Message-ID"]
        copies.setdefault(message_id, set()).add(raw)
    assert all(len(same) == 1 for same in copies.values())


def _assert_in_queue_order(db: sqlite_utils.Database, received: list[Received]) -> None:
    """Each address got its mails in the order they were queued (a resend's copy aside)."""
    queued: dict[str, list[str]] = {}
    for recipients, message_id in db.execute(
        "SELECT recipients, message_id FROM outbound ORDER BY id"
    ):
        for address in json.loads(recipients):
            queued.setdefault(address, []).append(message_id)
    arrived: dict[str, list[str]] = {}
    for mail in received:
        message_id = email.message_from_bytes(mail.data, policy=default)["Message-ID"]
        for address in mail.rcpt_tos:
            seen = arrived.setdefault(address, [])
            if message_id not in seen:
                seen.append(message_id)
    assert arrived == queued


# Scenario 4: a password worker killed (SIGKILL, by its PID) while a batch is checked.


def _signons(judge: Judge, players: dict[str, str], wrong: str) -> dict[str, str]:
    """Each power's orders mail, stored: its Message-ID by power initial; Germany's with
    the password `wrong`, the others' right."""
    ids = {}
    for n, initial in enumerate("AEFGIRT"):
        password = wrong if initial == "G" else f"pw{n}"
        ids[initial] = _store(judge, players[initial], f"SIGNON {initial}war1 {password}\nA Xxx H")
    return ids


def _assert_signed_on(judge: Judge, ids: dict[str, str], before: int) -> None:
    answers = _answers(judge, before)
    for initial, message_id in ids.items():
        words = WRONG if initial == "G" else f"  Signed on to war1 as {_POWERS[initial]}.\n"
        assert f"Line 1: SIGNON {initial}war1 ****\n{words}" in answers[message_id], initial


def test_a_password_worker_killed_mid_batch_leaves_every_answer_right(tmp_path: Path) -> None:
    judge, players = _started(tmp_path)
    pool = PasswordPool(workers=2)
    try:
        first = pool._pool
        assert pool([("x", passwords.hash_password("x"))]).result(timeout=60) == [True]
        killed: list[int] = []

        def killing(pairs: Sequence[Pair]) -> Future[list[bool]]:
            answers = pool(pairs)
            if not killed:  # as the batch's checks begin: one of the two workers dies
                killed.append(next(iter(first._processes)))
                os.kill(killed[0], signal.SIGKILL)
            return answers

        ids, before = _signons(judge, players, "wrong1"), _last(judge)
        assert handle_waiting(judge.db, judge.config, lambda: judge.now, checker=killing) == 7
        _assert_signed_on(judge, ids, before)
        # The pool knows its worker died: the next batch has new workers check it.
        assert wait_until(lambda: first._broken, timeout=30)
        passwords.forget_verified()
        ids, before = _signons(judge, players, "wrong2"), _last(judge)
        assert handle_waiting(judge.db, judge.config, lambda: judge.now, checker=pool) == 7
        _assert_signed_on(judge, ids, before)
        assert pool._pool is not first
        count = guesses.count(judge.db, guesses.power_key("war1", "G"), judge.now, WINDOW)
        assert count == 2  # each wrong one counted once, checked where it was
    finally:
        pool.close()


# Scenario 7: the order of two mails to one address when the first must be tried again.


def test_a_reply_waiting_to_be_tried_again_is_not_overtaken_by_the_next(tmp_path: Path) -> None:
    # The relay refused the first answer for now: it waits a minute. Before the fix the
    # second answer to the same player, due at once, went first.
    judge, players = _started(tmp_path)
    with SmtpSink() as sink:
        config = replace(judge.config, outbound_mode="smtp", smtp_out=SmtpOutConfig(port=sink.port))
        db, now = judge.db, judge.now
        db.execute("UPDATE outbound SET state = 'sent'")  # the game's start: sent before
        first = _store(judge, players["F"], f"SIGNON Fwar1 pw2\n{HOLDS['F']}")
        other = _store(judge, players["E"], "SIGNON Ewar1 pw1")
        handle_waiting(db, judge.config, lambda: now)
        sink.handler.answer = "451 4.3.0 try again later"
        drained = outbox_sender.drain(
            db, outbox_sender.SmtpDelivery(config), lambda: now, attach_picture=pictures.finish
        )
        assert drained == 0 and sink.messages == []
        sink.handler.answer = None
        second = _store(judge, players["F"], "SIGNON Fwar1 pw2\nA Par-Bur")
        handle_waiting(db, judge.config, lambda: now)
        sends = outbox_sender.SmtpDelivery(config)
        outbox_sender.drain(db, sends, lambda: now, attach_picture=pictures.finish)
        # England's answer goes; France's second waits behind France's first.
        assert [_parent(m.data) for m in sink.messages] == [other]
        later = now + timedelta(minutes=1)
        outbox_sender.drain(db, sends, lambda: later, attach_picture=pictures.finish)
        assert [_parent(m.data) for m in sink.messages] == [other, first, second]
        # A mail that keeps failing holds the others back for its first three tries only.
        third = _store(judge, players["F"], "SIGNON Fwar1 pw2\nA Par H")
        fourth = _store(judge, players["F"], "SIGNON Fwar1 pw2\nA Mar H")
        handle_waiting(db, judge.config, lambda: later)
        [(stuck,)] = db.execute(
            "SELECT o.id FROM outbound o JOIN inbound i ON o.inbound_id = i.id "
            "WHERE i.message_id = ?",
            [third],
        )
        failing = "UPDATE outbound SET attempts = ?, next_attempt_at = '9999' WHERE id = ?"
        db.execute(failing, [3, stuck])  # its third try failed: the fourth mail waits
        outbox_sender.drain(db, sends, lambda: later, attach_picture=pictures.finish)
        assert [_parent(m.data) for m in sink.messages][3:] == []
        db.execute(failing, [4, stuck])  # its fourth failed: the fourth mail goes
        outbox_sender.drain(db, sends, lambda: later, attach_picture=pictures.finish)
        sends.close()
        assert [_parent(m.data) for m in sink.messages][3:] == [fourth]


def _parent(raw: bytes) -> str:
    return str(email.message_from_bytes(raw, policy=default)["In-Reply-To"])


# Scenario 8: the judge's own notices echo the sender's subject too.

SECRET_SUBJECT = "SIGNON Fwar1 pw2"
MASKED = "TEST SIGNON Fwar1 ****"


def test_the_judges_notices_mask_a_password_in_the_subject_they_echo(tmp_path: Path) -> None:
    # Before the fix the notices of a mail too large, of too many mails from one address,
    # of too many replies to one, and of a mail the judge failed on, repeated the subject
    # as it came: "Re: TEST SIGNON Fwar1 pw2 (too large)".
    judge, players = _started(
        tmp_path, max_message_bytes=2_000, rate_limit_per_hour=2, replies_per_hour=3
    )
    [large] = judge.send(players["F"], "x" * 3_000, subject=SECRET_SUBJECT)
    assert large.subject == f"Re: {MASKED} (too large)"
    subjects = [
        m.subject for _ in range(3) for m in judge.send("a@example.org", "HELP", SECRET_SUBJECT)
    ]
    assert subjects[-1] == f"Re: {MASKED} (too many mails)"
    capped = Judge(tmp_path, database=tmp_path / "capped.db", replies_per_hour=1)
    subjects = [
        m.subject for _ in range(2) for m in capped.send("b@example.org", "HELP", SECRET_SUBJECT)
    ]
    assert subjects[-1] == f"Re: {MASKED} (too many replies)"
    failing = Judge(tmp_path, database=tmp_path / "failing.db")
    _store(failing, "c@example.org", "HELP", SECRET_SUBJECT)

    def broken(*_: object) -> list[Reply]:
        raise RuntimeError("a fault of ours")

    for minutes in (0, 1, 6):
        at = failing.now + timedelta(minutes=minutes)
        handle_waiting(failing.db, failing.config, lambda at=at: at, dispatcher=broken)
    [failed] = failing._since(0)
    assert failed.subject == f"Re: {MASKED} (not processed)"


def test_a_password_late_in_the_subject_is_masked_in_the_answers(tmp_path: Path) -> None:
    # A player answering a results mail put the SIGNON after the subject the judge had
    # given it: only the subject's first three words were looked at, so the answer's
    # subject repeated the password.
    judge, players = _started(tmp_path, max_message_bytes=2_000)
    subject = f"Re: TEST:war1 - S1901M Results {SECRET_SUBJECT}"
    [ack] = judge.send(players["F"], "SIGNON Fwar1 pw2", subject=subject)
    assert ack.subject == "Re: TEST:war1 - S1901M Results SIGNON ****"
    [large] = judge.send(players["F"], "x" * 3_000, subject=subject)
    assert large.subject == "Re: TEST Results SIGNON **** (too large)"


def test_a_password_late_in_a_command_line_is_masked_in_the_echo(tmp_path: Path) -> None:
    # Only a line's first words were looked at: prose before the SIGNON, or words after
    # an order, were echoed whole with the password.
    judge, players = _started(tmp_path)
    body = "Dear judge, here it goes: SIGNON Fwar1 pw2\nSIGNON Fwar1 pw2\nA Par H ; my password pw2"
    [ack] = judge.send(players["F"], body)
    assert "Line 1: Dear judge, here it goes: SIGNON ****\n  ERROR: this line needs" in ack.body
    assert (
        "  A Par H ; my password ****   ERROR: I don't know the word or place 'my'.\n" in ack.body
    )
    assert "pw2" not in ack.full
    # Nor were the words glued to it: "SIGNONFwar1 pw2", "SIGNON,Fwar1,pw2".
    [ack] = judge.send(players["F"], "SIGNONFwar1 pw2\nSIGNON,Fwar1,pw2\nLogin:Fwar1 pw2")
    assert "Line 1: SIGNON ****\n" in ack.body and "Line 2: SIGNON ****\n" in ack.body
    assert "Line 3: Login ****\n" in ack.body and "pw2" not in ack.full


# Scenario 6: a mail that cannot be read at all in the middle of a batch.


def test_a_mail_that_cannot_be_read_leaves_the_batch_around_it_answered_in_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    judge, players = _started(tmp_path)
    real = handling.parse_submission

    def fails_on_poison(raw: bytes, limit: int) -> Submission:
        if b"poison" in raw:
            raise ValueError("cannot be read")
        return real(raw, limit)

    monkeypatch.setattr(handling, "parse_submission", fails_on_poison)
    ids = _signons(judge, players, "wrong3")
    poison = _store(judge, players["R"], "poison")
    ids |= {"F2": _store(judge, players["F"], "SIGNON Fwar1 pw2\nA Par-Bur")}
    checker, before = Recording(), _last(judge)
    assert handle_waiting(judge.db, judge.config, lambda: judge.now, checker=checker) == 9
    assert checker.given == [["pw0", "pw1", "pw2", "wrong3", "pw4", "pw5", "pw6"]]
    answers = _answers(judge, before)
    assert list(answers) == [ids[i] for i in "AEFGIRT"] + [ids["F2"]]  # in order, one each
    assert "Line 1: SIGNON Fwar1 ****\n  Signed on to war1 as France.\n" in answers[ids["F2"]]
    assert judge.effective("war1", "FRANCE") == ["A PAR - BUR"]
    row = judge.db.execute("SELECT state, attempts FROM inbound WHERE message_id = ?", [poison])
    assert row.fetchone() == ("new", 1)  # kept, tried again later


# Scenario 7 again: the send threads, as the relay fails a mail.


def test_a_mail_handed_over_as_the_one_before_it_fails_waits_for_it(tmp_path: Path) -> None:
    # The relay refused France's first answer for now on a send thread, whose queue was
    # then empty; the daemon's thread, not yet told, handed over the second answer:
    # before the fix the thread sent it, ahead of the first (tried again a minute later).
    judge, players = _started(tmp_path)
    db, now = judge.db, judge.now
    db.execute("UPDATE outbound SET state = 'sent'")
    first = _store(judge, players["F"], f"SIGNON Fwar1 pw2\n{HOLDS['F']}")
    handle_waiting(db, judge.config, lambda: now)
    with SmtpSink() as sink:
        config = replace(judge.config, outbound_mode="smtp", smtp_out=SmtpOutConfig(port=sink.port))
        threads = send_threads.SendThreads([outbox_sender.SmtpDelivery(config)])
        try:
            sink.handler.answer = "451 4.3.0 try again later"
            send_threads.drain(db, threads, lambda: now, 100, attach_picture=pictures.finish)
            assert wait_until(lambda: threads._outcomes.qsize() == 1)  # failed, not collected
            sink.handler.answer = None
            second = _store(judge, players["F"], "SIGNON Fwar1 pw2\nA Par-Bur")
            handle_waiting(db, judge.config, lambda: now)
            items = outbox.due(db, now, 10, exclude=threads.in_flight)
            assert [_parent(item.raw) for item in items] == [second]
            threads.submit(items)  # it waits for the first (before the fix: it went)
            drain = partial(send_threads.drain, db, threads, attach_picture=pictures.finish)
            drain(lambda: now, 100)  # the failure recorded: both wait a minute
            later = now + timedelta(minutes=1)
            drain(lambda: later, 100)
            assert wait_until(lambda: len(sink.messages) == 2)
        finally:
            threads.close()
        assert [_parent(m.data) for m in sink.messages] == [first, second]


# The daemon's memory: mail read ahead is held in memory until it is handled.


def test_mail_read_ahead_holds_at_most_its_bytes_in_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The SMTP receiver takes mails of up to 10 MB (ten times the size limit, to refuse
    # them with a reply): a hundred of them read ahead were a gigabyte in the daemon.
    monkeypatch.setattr(handling, "AHEAD_BYTES", 2_500_000)
    judge, players = _started(tmp_path, max_message_bytes=100_000)
    big = "\n".join(["SIGNON Fwar1 guess"] + ["y" * 999] * 1_000)  # a megabyte each
    ids = [_store(judge, f"big{n}@example.org", big) for n in range(4)]
    ids.append(_store(judge, players["F"], f"SIGNON Fwar1 pw2\n{HOLDS['F']}"))
    queue = handling._Queue(judge.db, judge.config, lambda: judge.now, check_here)
    queue.top_up()
    assert len(queue.items) == 2 and queue.bytes < 2_500_000  # the third would pass it
    queue.top_up()  # not read into a queue that holds mail, though first of its reading
    assert len(queue.items) == 2 and queue.bytes < 2_500_000
    before = _last(judge)
    assert handle_waiting(judge.db, judge.config, lambda: judge.now) == 5
    answers = _answers(judge, before)
    assert list(answers) == ids  # each answered, in order
    assert all("(too large)" in judge._since(before)[n].subject for n in range(4))
    assert judge.effective("war1", "FRANCE") == ["A PAR H", "A MAR H", "F BRE H"]

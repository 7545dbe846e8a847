"""The red team's attacks on the paths issue 16 made fast: mail read ahead, passwords
checked ahead in worker processes, mail handled in groups, replies sent on several relay
connections. Each test is an attack from outside (mail anyone may send) and asserts what
the judge must still promise: the limits on wrong passwords and their scrypt cost as if
each mail were handled alone, every mail answered once and in order, no password shown.
"""

from __future__ import annotations

import email
from collections.abc import Sequence
from concurrent.futures import Future
from email.policy import default
from pathlib import Path

import pytest
from judge_harness import HOLDS, Judge

from judge.commands.signon import WINDOW
from judge.game import passwords
from judge.service.handling import handle_waiting
from judge.service.prechecks import Pair, check_here
from judge.store import guesses, inbox

pytestmark = pytest.mark.usefixtures("fresh_password_cache")

WRONG = "  ERROR: signon refused: the game name, the power or the password is wrong.\n"
LOCKED = "  ERROR: signon refused, and the password was not checked: too many wrong\n"
SIGNED_ON_FRANCE = "  Signed on to war1 as France.\n"


class Recording:
    """A Checker that checks here, now, and records the passwords it was given."""

    def __init__(self) -> None:
        self.given: list[list[str]] = []

    def __call__(self, pairs: Sequence[Pair]) -> Future[list[bool]]:
        self.given.append([password for password, _ in pairs])
        return check_here(pairs)


def _started(tmp_path: Path, **config: object) -> tuple[Judge, dict[str, str]]:
    """A started game war1's judge and players (power initial -> address), with no
    password remembered: every check is a real one."""
    judge = Judge(tmp_path, **config)
    players = judge.start_game()
    passwords.forget_verified()
    return judge, players


def _store(judge: Judge, sender: str, body: str) -> str:
    """Store a mail from `sender` without handling it; its Message-ID."""
    n = next(judge.serial)
    message_id = f"<red{n}@example.org>"
    raw = (
        f"From: {sender}\r\nTo: judge@example.org\r\nSubject: orders\r\n"
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

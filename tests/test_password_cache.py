"""The verified-password cache (issue 16): a right password is checked by scrypt once per
process, a changed password is refused with the old one, a wrong one is never
remembered, the cache holds no password and keeps at most VERIFIED_LIMIT pairs."""

from __future__ import annotations

from pathlib import Path

import pytest
from judge_harness import Judge

from judge.game import passwords
from judge.game.passwords import check_password, hash_password

pytestmark = pytest.mark.usefixtures("fresh_password_cache")


def test_a_right_password_is_checked_by_scrypt_once(scrypt_calls: list[bytes]) -> None:
    stored = hash_password("secret")
    assert [check_password("secret", stored) for _ in range(3)] == [True, True, True]
    assert scrypt_calls == [b"secret", b"secret"]  # the hash, then the first check
    assert passwords.verified_count() == 1


def test_a_wrong_password_is_never_remembered(scrypt_calls: list[bytes]) -> None:
    stored = hash_password("secret")
    assert check_password("guess", stored) is False
    assert check_password("guess", stored) is False
    assert scrypt_calls == [b"secret", b"guess", b"guess"]
    assert passwords.verified_count() == 0
    assert check_password("secret", stored) is True  # and the right one still works


def test_a_changed_password_is_refused_with_the_old_one(scrypt_calls: list[bytes]) -> None:
    old = hash_password("first")
    assert check_password("first", old) is True
    new = hash_password("second")
    scrypt_calls.clear()
    assert check_password("first", new) is False
    assert scrypt_calls == [b"first"]  # checked against the new hash, not remembered
    assert check_password("second", new) is True
    assert check_password("second", old) is False
    # The same password hashed again (a new salt): checked afresh, right.
    again = hash_password("first")
    scrypt_calls.clear()
    assert check_password("first", again) is True
    assert scrypt_calls == [b"first"]


def test_the_cache_holds_no_password() -> None:
    stored = hash_password("correct horse")
    assert check_password("correct horse", stored)
    [entry] = list(passwords._verified)
    assert len(entry) == 32  # an HMAC-SHA256
    assert b"correct" not in entry and b"horse" not in entry


def test_the_limit_forgets_the_least_recently_used(
    monkeypatch: pytest.MonkeyPatch, scrypt_calls: list[bytes]
) -> None:
    monkeypatch.setattr(passwords, "VERIFIED_LIMIT", 3)
    stored = {pw: hash_password(pw) for pw in ("a", "b", "c", "d")}
    for pw in ("a", "b", "c"):
        assert check_password(pw, stored[pw])
    assert check_password("a", stored["a"])  # used again: "b" is now the oldest
    assert check_password("d", stored["d"])
    assert passwords.verified_count() == 3
    scrypt_calls.clear()
    assert [check_password(pw, stored[pw]) for pw in ("a", "c", "d")] == [True, True, True]
    assert scrypt_calls == []
    assert check_password("b", stored["b"]) is True
    assert scrypt_calls == [b"b"]  # forgotten, so checked by scrypt again
    assert passwords.verified_count() == 3


WRONG = (
    "Line 1: SIGNON Fwar1 ****\n"
    "  ERROR: signon refused: the game name, the power or the password is wrong.\n"
    "Line 2: A Par H\n"
    "  ERROR: not used, because the SIGNON before it was refused.\n"
)


def test_wrong_passwords_after_a_right_one_still_lock_the_power(
    tmp_path: Path, scrypt_calls: list[bytes]
) -> None:
    """France's right password is remembered; each wrong one is still checked and
    counted, and at the limit even the right one is refused unchecked."""
    judge = Judge(tmp_path, wrong_passwords_per_hour=3)
    france = judge.start_game()["F"]
    for _ in range(2):
        [ack] = judge.send(france, "SIGNON Fwar1 pw2\nA Par H")
        assert ack.body.startswith("Line 1: SIGNON Fwar1 ****\n  Signed on to war1 as France.\n")
    scrypt_calls.clear()
    for n in range(3):
        [reply, *notices] = judge.send(france, f"SIGNON Fwar1 wrong{n}\nA Par H")
        assert reply.body == WRONG
    assert scrypt_calls == [b"wrong0", b"wrong1", b"wrong2"]
    assert [m.subject for m in notices] == [
        "TEST:war1 - S1901M wrong passwords for France",
        "TEST wrong passwords from your address",
    ]
    [locked] = judge.send(france, "SIGNON Fwar1 pw2\nA Par H")
    assert locked.body.startswith(
        "Line 1: SIGNON Fwar1 ****\n"
        "  ERROR: signon refused, and the password was not checked: too many wrong\n"
    )
    assert scrypt_calls == [b"wrong0", b"wrong1", b"wrong2"]  # nothing checked

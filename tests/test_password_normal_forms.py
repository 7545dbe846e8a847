"""A password typed in another Unicode normal form is the same password: a Mac's mail
program may send "é" as "e" and a combining accent (NFD), another as one character
(NFC). Passwords are hashed in NFC and checked in NFC; a hash stored before (made from
the form as typed) still matches that form, and the NFC form of a password stored from
its NFD form. Through the real handling path, the
password workers' check and the verified-password cache."""

from __future__ import annotations

import base64
import hashlib
import os
import unicodedata
from pathlib import Path

import pytest
from judge_harness import HOLDS, Judge

from judge.game import passwords
from judge.game.passwords import check_password, hash_password
from judge.service.prechecks import PasswordPool, check_here_now
from judge.store import games

pytestmark = pytest.mark.usefixtures("fresh_password_cache")

NFC = unicodedata.normalize("NFC", "crème-brûlée")
NFD = unicodedata.normalize("NFD", "crème-brûlée")
UTF8 = "MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n"
SIGNED_ON = "Line 1: SIGNON Fwar1 ****\n  Signed on to war1 as France.\n"
REFUSED = (
    "Line 1: SIGNON Fwar1 ****\n"
    "  ERROR: signon refused: the game name, the power or the password is wrong.\n"
)


def legacy_hash(password: str) -> str:
    """A hash as the judge stored it before passwords were normalized: scrypt of the
    password exactly as typed, with the same parameters."""
    salt = os.urandom(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=2**14, r=8, p=1, dklen=32)
    return f"scrypt$16384$8$1${base64.b64encode(salt).decode()}${base64.b64encode(digest).decode()}"


def france_seat(judge: Judge) -> games.Seat:
    [seat] = [s for s in games.seats(judge.db, judge.game()) if s.power == "FRANCE"]
    return seat


@pytest.mark.parametrize(("set_in", "typed_in"), [(NFD, NFC), (NFC, NFD)])
def test_a_password_set_in_one_form_signs_on_in_the_other(
    tmp_path: Path, set_in: str, typed_in: str
) -> None:
    judge = Judge(tmp_path)
    france = judge.start_game()["F"]
    [ack] = judge.send(france, f"SIGNON Fwar1 pw2\nSET PASSWORD {set_in}", head=UTF8)
    assert "Line 2: SET PASSWORD ****\n" in ack.body
    passwords.forget_verified()
    [ack] = judge.send(france, f"SIGNON Fwar1 {typed_in}\n{HOLDS['F']}", head=UTF8)
    assert ack.body.startswith(SIGNED_ON)
    assert judge.effective("war1", "FRANCE") == ["A PAR H", "A MAR H", "F BRE H"]
    # The form as typed the first time still works, of course.
    [ack] = judge.send(france, f"SIGNON Fwar1 {set_in}\nCLEAR", head=UTF8)
    assert ack.body.startswith(SIGNED_ON)


def test_a_game_created_from_a_mac_is_run_from_another_mail_program(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.send("gm@example.org", f"CREATE ?war1 {NFD}", head=UTF8)
    [ack] = judge.send("gm@example.org", f"SIGNON Mwar1 {NFC}\nSET NONMR", head=UTF8)
    assert ack.body.startswith("Line 1: SIGNON Mwar1 ****\n  Signed on to war1 as master.\n")
    assert judge.game().settings.nmr is False


def test_a_hash_stored_from_the_decomposed_form_takes_either_form(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    france = judge.start_game()["F"]
    seat = france_seat(judge)
    games.update_seat(judge.db, seat, judge.now, password_hash=legacy_hash(NFD))
    [ack] = judge.send(france, f"SIGNON Fwar1 {NFD}\n{HOLDS['F']}", head=UTF8)
    assert ack.body.startswith(SIGNED_ON)
    # The player set it from a Mac, and now writes from another mail program.
    passwords.forget_verified()
    [ack] = judge.send(france, f"SIGNON Fwar1 {NFC}\nCLEAR", head=UTF8)
    assert ack.body.startswith(SIGNED_ON)
    # A guess is still a guess: neither form of another password matches.
    [ack] = judge.send(france, "SIGNON Fwar1 creme-brulee\nCLEAR", head=UTF8)
    assert ack.body.startswith(REFUSED)


def test_the_password_workers_check_both_forms(scrypt_calls: list[bytes]) -> None:
    new, old = hash_password(NFD), legacy_hash(NFD)
    scrypt_calls.clear()
    pairs = [(NFC, new), (NFD, new), (NFD, old), (NFC, old), ("nope", new)]
    assert check_here_now(pairs) == [True, True, True, True, False]
    # The forms as typed and in NFD are tried only where they differ from NFC, and only
    # when NFC failed.
    nfc, nfd = NFC.encode(), NFD.encode()
    assert scrypt_calls == [nfc, nfc, nfc, nfd, nfc, nfd, b"nope"]
    pool = PasswordPool(workers=1)
    try:
        assert pool(pairs).result(timeout=60) == [True, True, True, True, False]
    finally:
        pool.close()


def test_the_cache_answers_each_form_as_scrypt_would(scrypt_calls: list[bytes]) -> None:
    old = legacy_hash(NFD)
    assert check_password(NFD, old) is True
    scrypt_calls.clear()
    assert check_password(NFC, old) is True  # by scrypt: the NFD entry is not its own
    assert scrypt_calls == [NFC.encode(), NFD.encode()]
    scrypt_calls.clear()
    assert check_password(NFD, old) is True
    assert check_password(NFC, old) is True
    assert scrypt_calls == []
    # A changed password (its new hash) finds nothing remembered for the old one.
    new = hash_password("another")
    scrypt_calls.clear()
    assert check_password(NFD, new) is False
    assert scrypt_calls == [NFC.encode(), NFD.encode()]


def test_a_changed_password_is_refused_in_either_form(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    france = judge.start_game()["F"]
    judge.send(france, f"SIGNON Fwar1 pw2\nSET PASSWORD {NFD}", head=UTF8)
    assert judge.send(france, f"SIGNON Fwar1 {NFC}\nCLEAR", head=UTF8)[0].body.startswith(SIGNED_ON)
    judge.send(france, f"SIGNON Fwar1 {NFD}\nSET PASSWORD plain", head=UTF8)
    for old in (NFC, NFD):
        [ack] = judge.send(france, f"SIGNON Fwar1 {old}\nCLEAR", head=UTF8)
        assert ack.body.startswith(REFUSED)
    assert judge.send(france, "SIGNON Fwar1 plain\nCLEAR")[0].body.startswith(SIGNED_ON)


def test_a_listed_master_types_the_master_password_in_either_form(tmp_path: Path) -> None:
    judge = Judge(tmp_path, masters=("boss@example.org",), master_password=NFC)
    judge.start_game()
    [ack, *_] = judge.send("boss@example.org", f"SIGNON Mwar1 {NFD}\nSET NONMR", head=UTF8)
    assert "Signed on to war1 as master (one of the judge's masters)." in ack.body
    assert judge.game().settings.nmr is False

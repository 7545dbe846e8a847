"""Passwords: stored only as salted scrypt hashes, compared in constant time.

A right password is remembered for the life of the process, so a player's next mail in
the phase costs no scrypt (about 40 ms of CPU, inside the write transaction). What is
remembered is an HMAC-SHA256, under a key drawn at random when the process starts, of
the stored hash and the password: no password is held, the entry cannot be checked
against a guess without that key, and a changed password (a new hash, with its new
salt) finds no entry, so the old password is checked with scrypt and refused.

The daemon checks the passwords of the mails waiting to be handled before it handles
them, in worker processes, outside the write transaction (service/prechecks.py); it
hands the answers over with `remember`. A right one joins the pairs above; a wrong one
is remembered for the one check that follows (`check_password` forgets it as it answers),
so each wrong password still costs its scrypt once and is counted by the limits on wrong
passwords (commands/signon.py, store/guesses.py) when its mail is handled.

A password is the same password in whatever Unicode normal form a mail program sends
it (a Mac's may send "é" as "e" and a combining accent, NFD; most send NFC): it is
hashed in NFC, and checked in NFC and then, for a hash stored before passwords were
normalized, in the form as typed and in NFD, where those differ.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import threading
import unicodedata
from collections import OrderedDict

_N, _R, _P = 2**14, 8, 1

# How many verified (hash, password) pairs are remembered, the least recently used
# forgotten first: 32 bytes each, under 2 MB in all; ten thousand players' worth.
VERIFIED_LIMIT = 10_000
# Wrong pairs checked ahead of their mail's handling, waiting for it: a handling pass
# reads at most a hundred mails of five passwords each (store/inbox.due).
REFUTED_LIMIT = 1_000

_KEY = os.urandom(32)  # this process's own: the entries mean nothing outside it
_verified: OrderedDict[bytes, None] = OrderedDict()
_refuted: OrderedDict[bytes, None] = OrderedDict()
_lock = threading.Lock()  # the SMTP receiver's thread and the main loop may both check


def normal_form(password: str) -> str:
    """The form a password is hashed in: NFC, the same whatever form it was typed in."""
    return unicodedata.normalize("NFC", password)


def hash_password(password: str) -> str:
    """A new stored hash of `password`, in its normal form, with a salt of its own."""
    salt = os.urandom(16)
    digest = hashlib.scrypt(normal_form(password).encode(), salt=salt, n=_N, r=_R, p=_P, dklen=32)
    encoded = f"{base64.b64encode(salt).decode()}${base64.b64encode(digest).decode()}"
    return f"scrypt${_N}${_R}${_P}${encoded}"


def check_password(password: str, stored: str) -> bool:
    """Whether `password` is the one `stored` (a hash_password value) was made from: by
    scrypt with the stored parameters, unless this process verified the pair already."""
    key = _entry(password, stored)
    with _lock:
        if key in _verified:
            _verified.move_to_end(key)
            return True
        if key in _refuted:  # checked ahead, wrong: answered once
            del _refuted[key]
            return False
    matches = scrypt_matches(password, stored)
    if matches:
        _remember(_verified, key, VERIFIED_LIMIT)
    return matches


def known(password: str, stored: str) -> bool:
    """Whether check_password would answer without scrypt (the pair checked already)."""
    key = _entry(password, stored)
    with _lock:
        return key in _verified or key in _refuted


def remember(password: str, stored: str, matches: bool) -> None:
    """Take the answer of a check made elsewhere (scrypt_matches in a worker process):
    a right pair is remembered as check_password remembers it; a wrong one until the
    next check_password of the same pair."""
    key = _entry(password, stored)
    _remember(_verified if matches else _refuted, key, VERIFIED_LIMIT if matches else REFUTED_LIMIT)


def _remember(entries: OrderedDict[bytes, None], key: bytes, limit: int) -> None:
    with _lock:
        entries[key] = None
        entries.move_to_end(key)
        while len(entries) > limit:
            entries.popitem(last=False)


def forget_verified() -> None:
    """Forget every verified password (the next check of each runs scrypt)."""
    with _lock:
        _verified.clear()
        _refuted.clear()


def verified_count() -> int:
    """How many verified pairs are remembered now."""
    with _lock:
        return len(_verified)


def _entry(password: str, stored: str) -> bytes:
    """The remembered form of a (stored hash, password) pair; the hash's length first,
    so that no other pair gives the same bytes."""
    stored_bytes = stored.encode()
    message = len(stored_bytes).to_bytes(8, "big") + stored_bytes + password.encode()
    return hmac.new(_KEY, message, hashlib.sha256).digest()


def scrypt_matches(password: str, stored: str) -> bool:
    """Whether scrypt, with the parameters and salt `stored` names, makes its digest from
    `password` in its normal form, or, where they differ, from `password` as typed or
    decomposed (NFD): a hash stored before passwords were normalized, from a password
    typed on a Mac (NFD) and now sent by another mail program (NFC). Remembers nothing:
    a worker process may run it (service/prechecks.py)."""
    # Only a password with characters NFC or NFD changes costs more than one scrypt.
    forms = dict.fromkeys([normal_form(password), password, unicodedata.normalize("NFD", password)])
    return any(_digest_matches(form, stored) for form in forms)


def _digest_matches(password: str, stored: str) -> bool:
    """Whether scrypt, with the parameters and salt `stored` names, makes its digest
    from `password` exactly."""
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return False
        expected = base64.b64decode(digest)
        got = hashlib.scrypt(
            password.encode(),
            salt=base64.b64decode(salt),
            n=int(n),
            r=int(r),
            p=int(p),
            dklen=len(expected),
        )
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got, expected)

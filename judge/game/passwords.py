"""Passwords: stored only as salted scrypt hashes, compared in constant time.

A right password is remembered for the life of the process, so a player's next mail in
the phase costs no scrypt (about 40 ms of CPU, inside the write transaction). What is
remembered is an HMAC-SHA256, under a key drawn at random when the process starts, of
the stored hash and the password: no password is held, the entry cannot be checked
against a guess without that key, and a changed password (a new hash, with its new
salt) finds no entry, so the old password is checked with scrypt and refused. A wrong
password is never remembered: each one costs its scrypt and is counted by the limits on
wrong passwords (commands/signon.py, store/guesses.py).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import threading
from collections import OrderedDict

_N, _R, _P = 2**14, 8, 1

# How many verified (hash, password) pairs are remembered, the least recently used
# forgotten first: 32 bytes each, under 2 MB in all; ten thousand players' worth.
VERIFIED_LIMIT = 10_000

_KEY = os.urandom(32)  # this process's own: the entries mean nothing outside it
_verified: OrderedDict[bytes, None] = OrderedDict()
_lock = threading.Lock()  # the SMTP receiver's thread and the main loop may both check


def hash_password(password: str) -> str:
    salt = os.urandom(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=_N, r=_R, p=_P, dklen=32)
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
    if not _scrypt_matches(password, stored):
        return False
    with _lock:
        _verified[key] = None
        _verified.move_to_end(key)
        while len(_verified) > VERIFIED_LIMIT:
            _verified.popitem(last=False)
    return True


def forget_verified() -> None:
    """Forget every verified password (the next check of each runs scrypt)."""
    with _lock:
        _verified.clear()


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


def _scrypt_matches(password: str, stored: str) -> bool:
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

"""What went wrong, said safely: one line for the store, the log, the operator and a
game's master, never quoting the mail that caused it (it may hold a password)."""

from __future__ import annotations

import errno
import os
import re
import sqlite3
import traceback

REASON_CHARS = 300  # a failure reason is cut to this length
_WORD = re.compile(r"[^\W_]{3,}")


def failure_reason(error: BaseException, raw: bytes = b"") -> str:
    """`Type: message (at file:line in function)`, at most REASON_CHARS long. The message
    is withheld when it quotes a word of the body of `raw` (the mail being handled); the
    place in the code where it was raised is always given."""
    text = " ".join(str(error).split())
    sep = b"\r\n\r\n" if b"\r\n\r\n" in raw else b"\n\n"
    body = raw.split(sep, 1)[-1]
    said = set(_WORD.findall(body.decode("utf-8", "replace").lower()))
    if said & set(_WORD.findall(text.lower())):
        text = "(message withheld: it quotes the mail)"
    frames = traceback.extract_tb(error.__traceback__)
    where = ""
    if frames:  # the innermost frame: where it was raised
        frame = frames[-1]
        where = f" (at {os.path.basename(frame.filename)}:{frame.lineno} in {frame.name})"
    name = type(error).__name__
    return (f"{name}: {text}{where}" if text else f"{name}{where}")[:REASON_CHARS]


# What SQLite says when the machine, not the judge, failed a write: another writer held
# the lock, or the disk was full, read-only or failing.
_MACHINE_WORDS = ("locked", "busy", "full", "readonly", "disk I/O error")
_MACHINE_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EIO, errno.EACCES}


def is_transient(error: BaseException) -> bool:
    """Whether trying again later may well succeed: a fault of the machine (the database
    locked by another writer; the disk full, read-only or failing), not of the judge's
    own or of a game's, which trying again would only repeat."""
    if isinstance(error, sqlite3.OperationalError):
        return any(word in str(error) for word in _MACHINE_WORDS)
    return isinstance(error, OSError) and error.errno in _MACHINE_ERRNOS

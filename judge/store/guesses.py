"""Wrong passwords, counted over a sliding window per key: a power of a game
(`power:war1:F`, whoever sent them) and a sender (`sender:a@example.org`).

One row per wrong password; rows older than the window are deleted as new ones come.
The caller holds the transaction (the message's own)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from datetime import datetime, timedelta

import sqlite_utils

from .audit import iso


def power_key(game: str, who: str) -> str:
    """The key of a power (or M, O) of a game, by the name written in the SIGNON."""
    return f"power:{game.lower()}:{who.upper()}"


def sender_key(address: str) -> str:
    return f"sender:{address.lower()}"


def record_wrong(
    db: sqlite_utils.Database, keys: list[str], now: datetime, window: timedelta
) -> None:
    """One wrong password against each of `keys`; rows past the window are dropped."""
    db.execute("DELETE FROM wrong_passwords WHERE at <= ?", [iso(now - window)])
    for key in keys:
        db.execute("INSERT INTO wrong_passwords (key, at) VALUES (?, ?)", [key, iso(now)])


def count(db: sqlite_utils.Database, key: str, now: datetime, window: timedelta) -> int:
    """Wrong passwords against `key` within the window before `now`."""
    row = db.execute(
        "SELECT COUNT(*) FROM wrong_passwords WHERE key = ? AND at > ?",
        [key, iso(now - window)],
    ).fetchone()
    return int(row[0])


def locked_until(
    db: sqlite_utils.Database,
    keys: list[str],
    limit: int,
    now: datetime,
    window: timedelta,
) -> datetime | None:
    """When the last of `keys` that has reached `limit` wrong passwords within the window
    falls below it again (assuming no more come); None when none has reached it."""
    until = None
    for key in keys:
        rows = db.execute(
            "SELECT at FROM wrong_passwords WHERE key = ? AND at > ? ORDER BY at DESC LIMIT ?",
            [key, iso(now - window), limit],
        ).fetchall()
        if len(rows) >= limit:
            # The limit-th most recent one leaves the window first among those that count.
            free = datetime.fromisoformat(rows[-1][0]) + window
            until = free if until is None else max(until, free)
    return until


def add_notice_key(
    db: sqlite_utils.Database, address: str, message_id: str, now: datetime, lifetime: timedelta
) -> None:
    """Remember the Message-ID of a wrong-password notice mailed to `address`: a mail
    from `address` that answers it proves its sender reads that mailbox (a forger does
    not see the notice), for `lifetime`. Only a hash of the Message-ID is kept."""
    db.execute("DELETE FROM signon_keys WHERE expires_at <= ?", [iso(now)])
    db.execute(
        "INSERT OR REPLACE INTO signon_keys (key, id_hash, expires_at) VALUES (?, ?, ?)",
        [address.lower(), _id_hash(message_id), iso(now + lifetime)],
    )


def answers_notice(
    db: sqlite_utils.Database, address: str, references: Iterable[str], now: datetime
) -> bool:
    """Whether a mail from `address` that refers to `references` (its In-Reply-To and
    References) answers an unexpired notice mailed to `address`."""
    key = address.lower()
    hashes = [_id_hash(r) for r in list(references)[-20:]]
    if not hashes:
        return False
    marks = ", ".join("?" for _ in hashes)
    row = db.execute(
        f"SELECT 1 FROM signon_keys WHERE key = ? AND expires_at > ? AND id_hash IN ({marks})",
        [key, iso(now), *hashes],
    ).fetchone()
    return row is not None


def _id_hash(message_id: str) -> str:
    return hashlib.sha256(message_id.strip().lower().encode("utf-8", "replace")).hexdigest()

"""What the mail limits count: replies queued per address in the last hour (`reply_log`,
for the reply cap of judge/game/outgoing.py) and when each key was last told it was over a
limit (`rate_notice`: the rate limit and reply cap of judge/service/handling.py, and the
wrong-password limits of judge/commands/signon.py). The caller holds the transaction
(the message's own)."""

from __future__ import annotations

from datetime import datetime, timedelta

import sqlite_utils

from .audit import iso


def prune_replies(db: sqlite_utils.Database, since: str) -> None:
    """Drop the reply log's rows at or before `since` (ISO): the table stays an hour long."""
    db.execute("DELETE FROM reply_log WHERE at <= ?", [since])


def replies_since(db: sqlite_utils.Database, address: str, since: str, most: int) -> int:
    """Replies logged to `address` (lower case) after `since` (ISO), counted up to `most`:
    counting costs at most `most` index rows, however many mails arrive."""
    row = db.execute(
        "SELECT COUNT(*) FROM (SELECT 1 FROM reply_log WHERE address = ? AND at > ? LIMIT ?)",
        [address, since, most],
    ).fetchone()
    return int(row[0])


def log_reply(db: sqlite_utils.Database, address: str, now: datetime) -> None:
    """One reply queued to `address` (lower case) at `now`."""
    db.execute("INSERT INTO reply_log (address, at) VALUES (?, ?)", [address, iso(now)])


def first_notice(
    db: sqlite_utils.Database, key: str, now: datetime, window: timedelta = timedelta(hours=1)
) -> bool:
    """True once per `window` per key, and then `now` is stored as the key's last notice;
    False (nothing stored) when the key had a notice within the window before `now`.
    Keys: a sender or address over a mail limit (`a@x`), or a wrong-password limit
    reached (`power:war1:F`, `sender:a@x`: store/guesses.py)."""
    row = db.execute("SELECT noticed_at FROM rate_notice WHERE sender = ?", [key]).fetchone()
    if row and row[0] > iso(now - window):
        return False
    db.execute(
        "INSERT INTO rate_notice (sender, noticed_at) VALUES (?, ?) "
        "ON CONFLICT(sender) DO UPDATE SET noticed_at = excluded.noticed_at",
        [key, iso(now)],
    )
    return True

"""Old mail forgotten: the text of each mail handled or sent, and the board pictures,
MAIL_KEPT_DAYS after.

Every mail the judge stored was kept for ever. A player's SIGNON line carries the
password in plain text, which the store otherwise keeps only as a scrypt hash, so any
copy of the database (a backup, a stolen disk) gave every password ever used; and each
phase of each game left a picture of about 100 KB, some 5 GB a year for a judge of a
thousand games. After MAIL_KEPT_DAYS, long after any mail is still handled, sent or
tried again (three days at most: judge/mail/outbox.MAX_ATTEMPTS), the text is emptied
and the picture deleted, with SQLite's secure_delete on (store/db.open_db), so that the
pages they took are overwritten with zeros, not merely freed. The rows stay: a mail
that arrives again is still known by its key (store/inbox.dedupe_key), and the
operator still sees when each mail came or went, from and to whom, and how it fared. A
mail whose handling failed keeps its text for the operator (`judge inbox --retry`) for
FAILED_KEPT_DAYS, then it is forgotten too: it may hold a password, and an operator who
has not looked at it in that time will not. A mail the judge failed to send keeps its
text (`judge outbox --retry`): the judge's own mail carries no password.

The daemon forgets only while its outbox is empty, so a deadline's burst never waits for
it and no picture a queued mail needs is deleted; a slice at a time, each in a
transaction of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

import sqlite_utils

from .audit import iso
from .db import transaction

MAIL_KEPT_DAYS = 14
FAILED_KEPT_DAYS = 60  # an inbound mail set aside as failed: the operator's time to retry it
SLICE = 200  # mails (and pictures) forgotten in one transaction


@dataclass(frozen=True)
class Forgotten:
    """How many of each were forgotten."""

    inbound: int = 0
    outbound: int = 0
    pictures: int = 0

    def __bool__(self) -> bool:
        return bool(self.inbound or self.outbound or self.pictures)


def forget_old_mail(db: sqlite_utils.Database, now: datetime, limit: int = SLICE) -> Forgotten:
    """Empty the text of up to `limit` inbound mails handled or ignored, and of up to
    `limit` outbound mails sent, that came or went more than MAIL_KEPT_DAYS before `now`,
    and delete up to `limit` pictures drawn before then; and empty the text of up to
    `limit` inbound mails set aside as failed that came FAILED_KEPT_DAYS before `now`;
    nothing while any mail is queued to be sent. In one transaction, with the freed pages
    overwritten."""
    cutoff = iso(now - timedelta(days=MAIL_KEPT_DAYS))
    failed_cutoff = iso(now - timedelta(days=FAILED_KEPT_DAYS))
    if _queued(db) or not (_anything_old(db, cutoff) or _old(db, "failed", failed_cutoff, 1)):
        return Forgotten()  # the daemon's every idle pass: a few index lookups, no write
    with transaction(db):  # the pages freed are zeroed: open_db turns secure_delete on
        if _queued(db):  # queued meanwhile (an operator's command, another process)
            return Forgotten()
        inbound = _old(db, "inbound", cutoff, limit) + _old(db, "failed", failed_cutoff, limit)
        forgotten = Forgotten(
            _emptied(db, "inbound", inbound),
            _emptied(db, "outbound", _old(db, "outbound", cutoff, limit)),
            _deleted_pictures(db, cutoff, limit),
        )
    if forgotten:
        # The write-ahead log still holds the pages as they were: copied into the
        # database and emptied (when no reader holds it; else at a later checkpoint).
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return forgotten


def _queued(db: sqlite_utils.Database) -> bool:
    return bool(
        db.execute(
            "SELECT 1 FROM outbound INDEXED BY idx_outbound_queued WHERE state = 'queued' LIMIT 1"
        ).fetchone()
    )


def _anything_old(db: sqlite_utils.Database, cutoff: str) -> bool:
    return bool(
        _old(db, "inbound", cutoff, 1)
        or _old(db, "outbound", cutoff, 1)
        or _old(db, "pictures", cutoff, 1)
    )


# What is old enough to forget, each found by an index of its own without reading a
# row's text (migration 23; the failed inbound mail by its state).
_OLD = {
    "inbound": "SELECT id FROM inbound INDEXED BY idx_inbound_to_forget "
    "WHERE state IN ('handled', 'ignored') AND length(raw) > 0 AND received_at < ? LIMIT ?",
    "failed": "SELECT id FROM inbound INDEXED BY idx_inbound_state_id "
    "WHERE state = 'failed' AND length(raw) > 0 AND received_at < ? LIMIT ?",
    "outbound": "SELECT id FROM outbound INDEXED BY idx_outbound_to_forget "
    "WHERE state = 'sent' AND length(raw) > 0 AND sent_at < ? LIMIT ?",
    "pictures": "SELECT id FROM pictures INDEXED BY idx_pictures_created "
    "WHERE created_at < ? LIMIT ?",
}


def _old(db: sqlite_utils.Database, what: str, cutoff: str, limit: int) -> list[int]:
    """The ids of up to `limit` rows of `what` (see _OLD) from before `cutoff`."""
    return [row[0] for row in db.execute(_OLD[what], [cutoff, limit])]


def _emptied(db: sqlite_utils.Database, table: str, ids: list[int]) -> int:
    """The text (`raw`) of the rows `ids` of `table` emptied; how many."""
    if ids:
        marks = ", ".join("?" for _ in ids)
        db.execute(f"UPDATE {table} SET raw = X'' WHERE id IN ({marks})", ids)
    return len(ids)


def _deleted_pictures(db: sqlite_utils.Database, cutoff: str, limit: int) -> int:
    ids = _old(db, "pictures", cutoff, limit)
    if ids:
        marks = ", ".join("?" for _ in ids)
        db.execute(f"DELETE FROM pictures WHERE id IN ({marks})", ids)
    return len(ids)

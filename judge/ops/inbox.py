"""`judge inbox`: the mail the judge failed to handle; `--retry` hands it back."""

from __future__ import annotations

import argparse
from datetime import UTC, datetime

import sqlite_utils

from judge.config import Config
from judge.ops.console import STORED_ID_LIMIT, fail, out, plural, table, when, with_database
from judge.store import retention


def inbox(args: argparse.Namespace) -> int:
    """`judge inbox [--retry [ID]]`: the troubled inbound mail, or a retry of it."""
    return with_database(args, lambda config, db: _inbox(config, db, args.retry))


def _inbox(config: Config, db: sqlite_utils.Database, retry: str | None) -> int:
    """Counts of inbound mail by state, then every message set aside as failed or waiting
    for another attempt: id, when it came, its sender, attempts and the reason. Never a
    message's text (it may hold a password)."""
    from judge.store import inbox as store

    if retry is not None:
        return _inbox_retry(db, retry)
    counts = store.counts(db)
    shown = {state: counts.pop(state, 0) for state in ("new", "handled", "ignored", "failed")}
    shown.update(counts)
    out(", ".join(f"{state} {n}" for state, n in shown.items()))
    troubles = store.troubles(db)
    if not troubles:
        return 0
    rows = [
        [
            str(t.id),
            t.state,
            when(t.received_at, config.timezone),
            t.sender or "?",
            str(t.attempts),
            when(t.next_attempt_at, config.timezone) if t.state == "new" else "-",
            " ".join((t.error or "-").split()) + (" [text forgotten]" if t.forgotten else ""),
        ]
        for t in troubles
    ]
    header = ["ID", "STATE", "RECEIVED", "FROM", "ATTEMPTS", "NEXT ATTEMPT", "REASON"]
    for line in table(header, rows):
        out(line)
    return 0


_FORGOTTEN = (
    f"forgotten, as every failed mail's is after {retention.FAILED_KEPT_DAYS} days "
    "(it may hold a password)"
)


def _inbox_retry(db: sqlite_utils.Database, which: str) -> int:
    """Set a failed message (or every one) back to new with a fresh count of attempts:
    the judge handles it at its next pass."""
    from judge.store import inbox as store
    from judge.store.db import transaction

    now = datetime.now(UTC)
    if which == "all":
        failed = [t for t in store.troubles(db) if t.state == store.FAILED]
        ids = [t.id for t in failed if not t.forgotten]
        if len(ids) < len(failed):
            left = plural(len(failed) - len(ids), "failed message")
            out(f"{left} not set back: the text was {_FORGOTTEN}")
    else:
        try:
            inbound_id = int(which)
        except ValueError:
            return fail(f"--retry takes a message id (a number), not {which!r}")
        if not 0 < inbound_id < STORED_ID_LIMIT:  # SQLite could not even look it up
            return fail(f"there is no inbound message {which}")
        status = store.status(db, inbound_id)
        if status is None:
            return fail(f"there is no inbound message {inbound_id}")
        if status.state != store.FAILED and not (status.state == store.NEW and status.attempts):
            return fail(
                f"message {inbound_id} is {status.state}; only failed mail (or mail waiting for "
                "another attempt) is retried"
            )
        if status.forgotten:
            return fail(f"message {inbound_id}: its text was {_FORGOTTEN}: nothing to handle")
        ids = [inbound_id]
    with transaction(db):
        for inbound_id in ids:
            attempts = store.attempts(db, inbound_id)
            detail = f"operator: retry now (had {plural(attempts, 'failed attempt')})"
            store.retry_now(db, inbound_id, now, detail)
    out(
        f"{plural(len(ids), 'message')} set back to new; the judge handles "
        f"{'it' if len(ids) == 1 else 'them'} at its next pass"
    )
    return 0

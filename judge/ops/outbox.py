"""`judge outbox`: the mail waiting to be sent or given up on; `--retry` makes it due now."""

from __future__ import annotations

import argparse
from datetime import UTC, datetime

import sqlite_utils

from judge.config import Config
from judge.ops.console import STORED_ID_LIMIT, fail, out, plural, table, when, with_database


def outbox(args: argparse.Namespace) -> int:
    """`judge outbox [--retry [ID]]`: counts by state and the unsent mail, or a retry."""
    return with_database(args, lambda config, db: _outbox(config, db, args.retry))


def _outbox(config: Config, db: sqlite_utils.Database, retry: str | None) -> int:
    """Counts of outbound mail by state, then every message not sent yet."""
    from judge.store import outbox as store

    if retry is not None:
        return _retry(db, retry)
    counts = store.counts(db)
    shown = {state: counts.pop(state, 0) for state in ("queued", "sent", "failed")}
    shown.update(counts)
    out(", ".join(f"{state} {n}" for state, n in shown.items()))
    unsent = store.unsent(db)
    if not unsent:
        return 0
    rows = [
        [
            str(u.id),
            u.state,
            u.kind,
            str(u.attempts),
            when(u.next_attempt_at, config.timezone) if u.state == store.QUEUED else "-",
            ", ".join(u.recipients),
            " ".join((u.last_error or "-").split()),
        ]
        for u in unsent
    ]
    header = ["ID", "STATE", "KIND", "ATTEMPTS", "NEXT ATTEMPT", "RECIPIENTS", "LAST ERROR"]
    for line in table(header, rows):
        out(line)
    return 0


def _retry(db: sqlite_utils.Database, which: str) -> int:
    """Make queued and failed messages due now; failed ones are queued again with a fresh
    count of attempts (so they get the full series of retries)."""
    from judge.store import outbox as store
    from judge.store.db import transaction

    now = datetime.now(UTC)
    outbound_id: int | None = None
    if which != "all":
        try:
            outbound_id = int(which)
        except ValueError:
            return fail(f"--retry takes a message id (a number), not {which!r}")
        if not 0 < outbound_id < STORED_ID_LIMIT:  # SQLite could not even look it up
            return fail(f"there is no outbound message {which}")
        state = store.state(db, outbound_id)
        if state is None:
            return fail(f"there is no outbound message {outbound_id}")
        if state not in (store.QUEUED, store.FAILED):
            return fail(f"message {outbound_id} is {state}; only queued or failed mail is retried")
    with transaction(db):
        rows = store.retryable(db, outbound_id)
        for row in rows:
            detail = "operator: retry now" + (
                f" (had failed after {plural(row.attempts, 'attempt')})"
                if row.state == store.FAILED
                else ""
            )
            store.retry_now(db, row, now, detail)
    failed = sum(1 for row in rows if row.state == store.FAILED)
    out(
        f"{plural(len(rows), 'message')} due now ({failed} of them queued again after failing); "
        "the judge sends them at its next pass"
    )
    return 0

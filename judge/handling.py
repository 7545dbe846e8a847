"""A stored message's life after arrival: read, guarded, dispatched, answered.

Each message is handled in one transaction that runs its commands, queues every reply
and marks it handled; a crash before the commit leaves it waiting, a crash after leaves
its replies queued. The loop and rate guards run first: the judge never answers an
autoresponder, a bounce, a list, or itself, and answers a flooding sender once.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta

import sqlite_utils

from judge.commands.dispatch import dispatch
from judge.commands.replies import Context, Reply
from judge.config import Config
from judge.crashpoints import crash_point
from judge.mail.guards import reason_not_to_answer
from judge.mail.message import Submission, parse_submission, reply_address
from judge.outgoing import queue_reply
from judge.store import inbox
from judge.store.audit import iso
from judge.store.db import transaction

log = logging.getLogger("judge.handling")
Dispatcher = Callable[[Submission, Context], list[Reply]]


def handle_waiting(
    db: sqlite_utils.Database,
    config: Config,
    clock: Callable[[], datetime],
    dispatcher: Dispatcher = dispatch,
) -> int:
    """Handle every stored message not yet handled, oldest first; returns how many."""
    done = 0
    while batch := inbox.waiting(db):
        for item in batch:
            handle_one(db, config, item, clock(), dispatcher)
            done += 1
    return done


def handle_one(
    db: sqlite_utils.Database,
    config: Config,
    item: inbox.Inbound,
    now: datetime,
    dispatcher: Dispatcher = dispatch,
) -> None:
    sub = parse_submission(item.raw, config.max_message_bytes)
    try:
        with transaction(db):
            outcome = _handle(db, config, item, sub, now, dispatcher)
            crash_point("handle-queued")
        crash_point("handle-committed")
        log.info("message %d from %s: %s", item.id, sub.sender or "?", outcome)
    except Exception as e:  # a bug of ours: keep the message, tell the sender once
        log.exception("message %d from %s failed", item.id, sub.sender or "?")
        with transaction(db):
            inbox.mark(db, item.id, inbox.FAILED, now, f"{type(e).__name__}: {e}")
            if reason_not_to_answer(sub, config.address) is None and reply_address(sub):
                _queue(
                    db,
                    config,
                    sub,
                    item.id,
                    now,
                    Reply((reply_address(sub),), "internal_error", {"sub": sub}),
                )


def _handle(
    db: sqlite_utils.Database,
    config: Config,
    item: inbox.Inbound,
    sub: Submission,
    now: datetime,
    dispatcher: Dispatcher,
) -> str:
    reason = reason_not_to_answer(sub, config.address)
    if reason:
        inbox.mark(db, item.id, inbox.IGNORED, now, f"not answered: {reason}")
        return f"not answered ({reason})"
    limit = config.rate_limit_per_hour
    if inbox.count_before(db, item) > limit:
        if _first_notice(db, sub.sender, now):
            _queue(
                db,
                config,
                sub,
                item.id,
                now,
                Reply((reply_address(sub),), "rate_limited", {"sub": sub, "limit": limit}),
            )
        inbox.mark(db, item.id, inbox.IGNORED, now, f"rate limit: over {limit} mails an hour")
        return "over the rate limit"
    if sub.too_large:
        reply = Reply(
            (reply_address(sub),),
            "too_large",
            {"sub": sub, "size": sub.size, "limit": config.max_message_bytes},
        )
        _queue(db, config, sub, item.id, now, reply)
        inbox.mark(db, item.id, inbox.IGNORED, now, f"too large: {sub.size} bytes")
        return "too large"
    replies = dispatcher(sub, Context(db, config, now, item.id))
    for reply in replies:
        _queue(db, config, sub, item.id, now, reply)
    inbox.mark(db, item.id, inbox.HANDLED, now)
    return f"handled, {len(replies)} repl{'y' if len(replies) == 1 else 'ies'} queued"


def _first_notice(db: sqlite_utils.Database, sender: str, now: datetime) -> bool:
    """True once per hour per sender: whether to send the rate-limit notice."""
    row = db.execute("SELECT noticed_at FROM rate_notice WHERE sender = ?", [sender]).fetchone()
    if row and row[0] > iso(now - timedelta(hours=1)):
        return False
    db.execute(
        "INSERT INTO rate_notice (sender, noticed_at) VALUES (?, ?) "
        "ON CONFLICT(sender) DO UPDATE SET noticed_at = excluded.noticed_at",
        [sender, iso(now)],
    )
    return True


def _queue(
    db: sqlite_utils.Database,
    config: Config,
    sub: Submission,
    inbound_id: int,
    now: datetime,
    reply: Reply,
) -> None:
    queue_reply(db, config, now, reply, inbound_id, sub.message_id, sub.references)

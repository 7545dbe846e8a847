"""A stored message's life after arrival: read, guarded, dispatched, answered.

Each message is handled in one transaction that runs its commands, queues every reply
and marks it handled; a crash before the commit leaves it waiting, a crash after leaves
its replies queued. A message whose handling raises is rolled back and tried again with
back-off, then set aside as failed with its reason (`judge inbox` lists it). The loop
and rate guards run first: the judge never answers an autoresponder, a bounce, a list,
or itself, and answers a flooding sender once.
"""

from __future__ import annotations

import logging
import traceback
from collections.abc import Callable
from datetime import datetime, timedelta

import sqlite_utils

from judge.commands.dispatch import dispatch
from judge.commands.replies import Context, Reply
from judge.config import Config
from judge.crashpoints import crash_point
from judge.failures import failure_reason
from judge.mail.guards import reason_not_to_answer
from judge.mail.message import Submission, parse_submission, reply_address
from judge.outgoing import queue_reply
from judge.store import inbox
from judge.store.audit import iso
from judge.store.db import transaction

log = logging.getLogger("judge.handling")
Dispatcher = Callable[[Submission, Context], list[Reply]]


# A message whose handling raises is tried MAX_ATTEMPTS times in all, the next attempt
# RETRY_DELAYS[n - 1] after the n-th failure: a locked database or a passing fault gets a
# second chance, a bug of ours is set aside after a few minutes, never retried forever.
MAX_ATTEMPTS = 3
RETRY_DELAYS = (timedelta(minutes=1), timedelta(minutes=5))


def handle_waiting(
    db: sqlite_utils.Database,
    config: Config,
    clock: Callable[[], datetime],
    dispatcher: Dispatcher = dispatch,
    stopping: Callable[[], bool] = lambda: False,
) -> int:
    """Handle every stored message that is due (new, and not waiting out a back-off),
    oldest first, until `stopping()` says the daemon is stopping; returns how many were
    tried. Each message is tried at most once per call, so one whose failure cannot even
    be recorded never makes this spin."""
    done = 0
    last = 0
    while not stopping() and (batch := inbox.due(db, clock(), after_id=last)):
        for item in batch:
            if stopping():  # the rest wait, stored, for the next start
                break
            handle_one(db, config, item, clock(), dispatcher)
            last = item.id
            done += 1
    return done


def handle_one(
    db: sqlite_utils.Database,
    config: Config,
    item: inbox.Inbound,
    now: datetime,
    dispatcher: Dispatcher = dispatch,
) -> None:
    """Handle one stored message in one transaction: its commands, its replies, its new
    state. If that raises, nothing of it is kept and the message is tried again later;
    after MAX_ATTEMPTS it is set aside as failed and the sender told once. Never raises
    an Exception: the daemon goes on with the next message whatever this one does."""
    sub: Submission | None = None
    try:
        sub = parse_submission(item.raw, config.max_message_bytes)
        with transaction(db):
            outcome = _handle(db, config, item, sub, now, dispatcher)
            crash_point("handle-queued")
    except Exception as e:  # a bug of ours or a passing fault: keep the message
        _failed(db, config, item, sub, now, e)
        return
    # Committed: whatever happens from here on, the message is handled.
    crash_point("handle-committed")
    log.info("message %d from %s: %s", item.id, sub.sender or "?", outcome)


def _failed(
    db: sqlite_utils.Database,
    config: Config,
    item: inbox.Inbound,
    sub: Submission | None,
    now: datetime,
    error: Exception,
) -> None:
    """Record a failed attempt: a later retry, or (the last attempt) failed for good with
    one internal_error reply. A failure to record it is logged, never raised: the message
    then stays waiting and is tried again at the next pass."""
    reason = failure_reason(error, item.raw)
    log.error(
        "message %d from %s raised %s\n%s",
        item.id,
        item.sender or "?",
        reason,
        "".join(traceback.format_tb(error.__traceback__)).rstrip(),
    )
    try:
        tried = inbox.attempts(db, item.id) + 1
        if tried < MAX_ATTEMPTS:
            at = now + RETRY_DELAYS[min(tried, len(RETRY_DELAYS)) - 1]
            with transaction(db):
                inbox.retry_later(db, item.id, now, at, reason)
            log.warning(
                "message %d: attempt %d of %d failed; trying again at %s",
                item.id,
                tried,
                MAX_ATTEMPTS,
                iso(at),
            )
            return
        _give_up(db, config, item, sub, now, f"{reason} (after {tried} attempts)")
    except Exception as e:
        log.error(
            "message %d: its failure could not be recorded (%s); it stays waiting",
            item.id,
            failure_reason(e, item.raw),
        )


def _give_up(
    db: sqlite_utils.Database,
    config: Config,
    item: inbox.Inbound,
    sub: Submission | None,
    now: datetime,
    reason: str,
) -> None:
    """Set the message aside as failed and tell its sender once (internal_error); if even
    that reply cannot be queued, set it aside without one."""
    try:
        with transaction(db):
            inbox.give_up(db, item.id, now, reason)
            to = _answerable(sub, config)
            if sub is not None and to:
                _queue(db, config, sub, item.id, now, Reply((to,), "internal_error", {"sub": sub}))
        log.error("message %d set aside as failed: %s", item.id, reason)
        return
    except Exception as e:
        no_reply = failure_reason(e, item.raw)
    with transaction(db):
        inbox.give_up(db, item.id, now, f"{reason}; no reply sent: {no_reply}")
    log.error("message %d set aside as failed without a reply: %s; %s", item.id, reason, no_reply)


def _answerable(sub: Submission | None, config: Config) -> str | None:
    """The address to tell of a failure, or None for mail the judge never answers."""
    if sub is None or reason_not_to_answer(sub, config.address) is not None:
        return None
    return reply_address(sub) or None


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

"""A stored message's life after arrival: read, guarded, dispatched, answered.

Each message is handled in one transaction that runs its commands, queues every reply
and marks it handled; a crash before the commit leaves it waiting, a crash after leaves
its replies queued. The loop guards run first: the judge never answers an
autoresponder, a bounce, a list, or itself. The rate limit (mails an hour from one From:)
and the reply cap (replies an hour to one address) hold back replies, with one notice an
hour, but never the reading: a flood's commands run like any others.
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
from judge.outgoing import LIMIT, REPLY, queue_reply, within_reply_cap
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
    # The rate limit is keyed by From:, which anyone can forge: it limits the replies,
    # never the reading. A flood's commands still run, so a real player's signed-on
    # orders land however many mails a forger sends in the player's name.
    limit = config.rate_limit_per_hour
    flooding = inbox.count_before(db, item, most=limit + 1) > limit
    if sub.too_large:
        replies = [
            Reply(
                (reply_address(sub),),
                "too_large",
                {"sub": sub, "size": sub.size, "limit": config.max_message_bytes},
            )
        ]
        state, note, outcome = inbox.IGNORED, f"too large: {sub.size} bytes", "too large"
    else:
        replies = dispatcher(sub, Context(db, config, now, item.id))
        state, note, outcome = inbox.HANDLED, None, "handled"
    queued = held = 0
    for reply in replies:
        if flooding and reply.kind == REPLY:
            held += 1
            continue
        sent, over = _queue(db, config, sub, item.id, now, reply)
        queued, held = queued + sent, held + over
    if flooding:
        if held and _first_notice(db, sub.sender, now):
            notice = {"sub": sub, "limit": limit}
            _queue(
                db,
                config,
                sub,
                item.id,
                now,
                Reply((reply_address(sub),), "rate_limited", notice, LIMIT),
            )
        note = "; ".join(
            filter(None, [note, f"rate limit: over {limit} mails an hour, not answered"])
        )
    elif held:
        cap = config.replies_per_hour
        note = "; ".join(filter(None, [note, f"reply cap: {held} not sent (over {cap} an hour)"]))
    inbox.mark(db, item.id, state, now, note)
    queued_words = f"{queued} repl{'y' if queued == 1 else 'ies'} queued"
    return f"{outcome}, {queued_words}, {held} held back" if held else f"{outcome}, {queued_words}"


def _first_notice(db: sqlite_utils.Database, key: str, now: datetime) -> bool:
    """True once an hour per key (a sender over the rate limit, an address over the
    reply cap; the same address either way shares one): whether to send the notice."""
    row = db.execute("SELECT noticed_at FROM rate_notice WHERE sender = ?", [key]).fetchone()
    if row and row[0] > iso(now - timedelta(hours=1)):
        return False
    db.execute(
        "INSERT INTO rate_notice (sender, noticed_at) VALUES (?, ?) "
        "ON CONFLICT(sender) DO UPDATE SET noticed_at = excluded.noticed_at",
        [key, iso(now)],
    )
    return True


def _queue(
    db: sqlite_utils.Database,
    config: Config,
    sub: Submission,
    inbound_id: int,
    now: datetime,
    reply: Reply,
) -> tuple[int, int]:
    """Queue `reply` within the per-address reply cap; (mails queued, addresses left out).
    An address over the cap gets one notice an hour instead, then silence."""
    kept, over = within_reply_cap(db, config, now, reply)
    queued = 0
    if kept is not None:
        queue_reply(db, config, now, kept, inbound_id, sub.message_id, sub.references)
        queued += 1
    for address in over:
        if _first_notice(db, address.strip().lower(), now):
            context = {"sub": sub, "limit": config.replies_per_hour}
            notice = Reply((address,), "reply_cap", context, LIMIT)
            queue_reply(db, config, now, notice, inbound_id, sub.message_id, sub.references)
            queued += 1
    return queued, len(over)

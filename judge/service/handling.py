"""A stored message's life after arrival: read, guarded, dispatched, answered.

Each message is handled in one transaction that runs its commands, queues every reply
and marks it handled; a crash before the commit leaves it waiting, a crash after leaves
its replies queued. Messages waiting together are handled in groups that share one
commit (one fsync), each message in a savepoint of its own within it. A message whose
handling raises is rolled back and tried again with back-off, then set aside as failed
with its reason (`judge inbox` lists it). The loop guards run first: the judge never
answers an autoresponder, a bounce, a list, or itself. The rate limit (mails an hour
from one From:) and the reply cap (replies an hour to one address) hold back replies,
with one notice an hour, but never the reading: a flood's commands run like any others.
"""

from __future__ import annotations

import logging
import time
import traceback
from collections import Counter, deque
from collections.abc import Callable
from concurrent.futures import wait
from dataclasses import replace
from datetime import datetime, timedelta
from functools import cache

import sqlite_utils

from judge.commands.context import Context
from judge.commands.dispatch import dispatch
from judge.commands.language import masked_line
from judge.config import Config
from judge.crashpoints import crash_point
from judge.failures import failure_reason, is_transient
from judge.game.outgoing import LIMIT, REPLY, queue_reply, within_reply_cap
from judge.mail import compose
from judge.mail.guards import reason_not_to_answer
from judge.mail.intake import taken_bytes
from judge.mail.message import Submission, parse_submission, reply_address
from judge.replies import Reply
from judge.service.prechecks import Ahead, Checker, Pair, check_ahead, check_here
from judge.store import inbox, limits
from judge.store.audit import iso
from judge.store.db import transaction

log = logging.getLogger("judge.service.handling")
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
    checker: Checker = check_here,
) -> int:
    """Handle every stored message that is due (new, and not waiting out a back-off),
    oldest first, until `stopping()` says the daemon is stopping; returns how many were
    tried. Each message is tried at most once per call, so one whose failure cannot even
    be recorded never makes this spin. The passwords of each message are checked first,
    with `checker`, outside any transaction (service/prechecks.py), as it is read. A
    sender's mail behind one of theirs left to be tried again is left too, to be handled
    after it (inbox.due holds it back meanwhile): revised orders never go before the
    orders they revise."""
    done = 0
    held: set[str] = set()  # senders of mail left to be tried again in this call
    queue = _Queue(db, config, clock, checker)
    queue.top_up()
    if not queue.items:
        _prepared()
    ready: list[_Item] = []
    while (ready or queue.items) and not stopping():
        if not ready:
            ready = queue.ready(stopping)
            continue
        taken, tried = _handle_some(db, config, clock, dispatcher, stopping, ready, held)
        queue.handled(ready[:taken])
        ready, done = ready[taken:], done + tried
        queue.top_up()  # the rest wait, stored, for the next start if stopping
    return done


# Mail is handled in groups that share one commit, one fsync, which costs more than the
# handling of a revised order itself. A group holds the write lock, and the SMTP receiver
# waits for it to store a new mail: a group ends after about this long.
GROUP_SECONDS = 0.1
# How many messages are read ahead of their handling, their passwords being checked: at
# most a hundred mails of five passwords each (game/passwords.py's REFUTED_LIMIT).
AHEAD = 100
# While the first message waits for its answers, new mail is read this often, its
# passwords checked meanwhile: the workers are kept busy while any mail waits.
READ_SECONDS = 0.01
# The raw mail the queue holds, at most (the first mail whatever its size): a hundred mails
# of the SMTP receiver's 10 MB each, read ahead, were a gigabyte in memory.
AHEAD_BYTES = 16_000_000
# Mail read together has its passwords checked together, up to this many mails: their
# answers come together and they are handled in one group, one commit, where each alone
# cost a commit (about half a millisecond of CPU) and a round trip to a worker. A mail
# waits at most for the checks of this many (each at most passwords_per_mail of them),
# shared by the workers.
CHECKED_TOGETHER = 8

_Item = tuple[inbox.Inbound, Submission | None]


def _handle_some(
    db: sqlite_utils.Database,
    config: Config,
    clock: Callable[[], datetime],
    dispatcher: Dispatcher,
    stopping: Callable[[], bool],
    waiting: list[_Item],
    held: set[str],
) -> tuple[int, int]:
    """Handle the first messages of `waiting`, at least one, in one transaction, each in
    a savepoint of its own (handle_one); how many were taken, and how many of them tried.
    A crash before the commit leaves them all waiting, none answered. A message from a
    sender in `held` is taken and left waiting, untried; the sender of one left to be
    tried again joins them."""
    started = time.monotonic()
    taken = tried = 0
    outcomes: list[str] = []
    with transaction(db):
        for item, sub in waiting:
            taken += 1
            if item.sender not in held:
                tried += 1
                done = handle_one(db, config, item, clock(), dispatcher, sub, outcomes)
                if not done and item.sender:
                    held.add(item.sender)
            if stopping() or time.monotonic() - started > GROUP_SECONDS:
                break
    crash_point("group-committed")
    for outcome in outcomes:  # only once committed: a log that says handled is true
        log.info("%s", outcome)
    return taken, tried


# The templates of an order mail's acknowledgement: compiled while the judge has nothing
# to do (its first idle pass), not while its first players wait for their answers.
PREPARED = ("acknowledgement", "words", "events/signed_on", "events/orders")


@cache
def _prepared() -> None:
    """Compile the PREPARED templates, once per process; a failure is only logged (the
    first mail that needs them compiles them, and meets the fault, as before)."""
    try:
        compose.prepare(*PREPARED)
    except Exception as e:
        log.warning("templates not compiled ahead (%s)", failure_reason(e))


class _Queue:
    """The due messages read and not yet handled, oldest first, each read (None where
    reading raises: handle_one tries again and keeps the message) with its passwords
    being checked ahead (None if that raised: the handling checks them itself). A
    message is read as soon as it is stored, so the workers check the passwords of the
    mail behind while the mail in front waits for its answers or is handled."""

    def __init__(
        self,
        db: sqlite_utils.Database,
        config: Config,
        clock: Callable[[], datetime],
        checker: Checker,
    ) -> None:
        self.db, self.config, self.clock, self.checker = db, config, clock, checker
        self.items: deque[tuple[inbox.Inbound, Submission | None, Ahead | None]] = deque()
        self.last_id = 0  # each message is read once per handle_waiting
        self.started: set[Pair] = set()  # being checked for a message in the queue
        # The SIGNONs of the messages read and not yet handled, by the keys of the limits
        # on wrong passwords, and each message's (check_ahead's `pending`).
        self.pending: Counter[str] = Counter()
        self.counted: dict[int, tuple[str, ...]] = {}
        self.bytes = 0  # of the raw mail read and not yet handled

    def top_up(self) -> None:
        """Read the messages stored since the last read, up to AHEAD in the queue, and
        start checking their passwords."""
        room, space = AHEAD - len(self.items), AHEAD_BYTES - self.bytes
        # With mail far ahead, read it CHECKED_TOGETHER at a time: read as each group
        # left, it would come in small batches, each a commit (the workers have enough).
        if room <= 0 or (room < CHECKED_TOGETHER and len(self.items) >= CHECKED_TOGETHER):
            return
        if space <= 0 and self.items:
            return
        now = self.clock()
        # The first mail whatever its size only into an empty queue: never past the bytes.
        first = not self.items
        due = inbox.due(self.db, now, self.last_id, room, max_bytes=space, at_least_one=first)
        self.bytes += sum(len(item.raw) for item in due)
        read = [(item, _parsed(item, self.config)) for item in due]
        for start in range(0, len(read), CHECKED_TOGETHER):
            together = read[start : start + CHECKED_TOGETHER]
            self.last_id = together[-1][0].id
            checked = self._checked_together(now, [sub for _, sub in together])
            for (item, sub), (ahead, keys) in zip(together, checked, strict=True):
                self.items.append((item, sub, ahead))
                if keys:
                    self.counted[item.id] = keys
            crash_point("checked-ahead")  # begun, none handled: the next life reads them again

    def handled(self, items: list[_Item]) -> None:
        """`items` are handled: their SIGNONs' wrong passwords, if any, are recorded now
        and no longer pending, and their room is free."""
        for item, _ in items:
            self.pending -= Counter(self.counted.pop(item.id, ()))
            self.bytes -= len(item.raw)

    def _checked_together(
        self, now: datetime, subs: list[Submission | None]
    ) -> list[tuple[Ahead | None, tuple[str, ...]]]:
        """Each of `subs`' checks ahead, begun as one, and the keys its SIGNONs counted
        against; if that raises, each mail's alone, so that one mail's fault leaves the
        others' checks ahead."""
        read = [sub for sub in subs if sub is not None]
        ahead = self._check_ahead(now, read)
        if ahead is None and len(read) > 1:
            return [self._alone(now, sub) for sub in subs]
        counted = iter(ahead.counted if ahead is not None else ())
        return [(ahead, next(counted, ())) if sub is not None else (None, ()) for sub in subs]

    def _alone(self, now: datetime, sub: Submission | None) -> tuple[Ahead | None, tuple[str, ...]]:
        """One mail's check ahead (see _checked_together)."""
        ahead = self._check_ahead(now, [sub]) if sub is not None else None
        return ahead, ahead.counted[0] if ahead is not None and ahead.counted else ()

    def _check_ahead(self, now: datetime, subs: list[Submission]) -> Ahead | None:
        """The passwords of `subs` being checked together (None if none could be: the
        handling then checks them itself)."""
        if not subs:
            return None
        try:
            return check_ahead(
                self.db, self.config, now, subs, self.checker, self.started, self.pending
            )
        except Exception as e:
            log.warning("passwords not checked ahead (%s)", failure_reason(e))
            return None

    def ready(self, stopping: Callable[[], bool]) -> list[_Item]:
        """The first messages whose answers are in, remembered, out of the queue: at
        least the first (waited for, new mail read meanwhile) unless stopping."""
        while self.items and not _done(self.items[0][2]) and not stopping():
            ahead = self.items[0][2]
            assert ahead is not None  # _done says so
            wait([ahead.answers], timeout=READ_SECONDS)
            self.top_up()
        out: list[_Item] = []
        remembered: Ahead | None = None
        while self.items and (not out or _done(self.items[0][2])) and not stopping():
            item, sub, ahead = self.items.popleft()
            if ahead is not None and ahead is not remembered:  # once for the mails together
                self._remember(ahead)
                remembered = ahead
            out.append((item, sub))
        return out

    def _remember(self, ahead: Ahead) -> None:
        """Remember the answers (handling then finds them); if the check failed, the
        handling checks those passwords itself."""
        self.started.difference_update(ahead.pairs)
        try:
            ahead.remember()
        except Exception as e:
            log.warning("passwords not checked ahead (%s)", failure_reason(e))


def _done(ahead: Ahead | None) -> bool:
    return ahead is None or ahead.done()


def _parsed(item: inbox.Inbound, config: Config) -> Submission | None:
    try:
        return parse_submission(item.raw, config.max_message_bytes)
    except Exception:
        return None


def handle_one(
    db: sqlite_utils.Database,
    config: Config,
    item: inbox.Inbound,
    now: datetime,
    dispatcher: Dispatcher = dispatch,
    parsed: Submission | None = None,
    outcomes: list[str] | None = None,
) -> bool:
    """Handle one stored message (`parsed`: as already read) in one transaction (within
    a caller's, a savepoint): its commands, its replies, its new state. What became of
    it is logged once committed, or added to `outcomes` for a caller whose transaction
    holds it to log after its commit. If that raises,
    nothing of it is kept and the message is tried again later; after MAX_ATTEMPTS it is
    set aside as failed and the sender told once. Whether it is done with (handled, or
    set aside): False when it is left to be tried again. Never raises an Exception: the
    daemon goes on with the next message whatever this one does."""
    sub: Submission | None = parsed
    try:
        if sub is None:
            sub = parse_submission(item.raw, config.max_message_bytes)
        with transaction(db):
            outcome = _handle(db, config, item, sub, now, dispatcher)
            crash_point("handle-queued")
    except Exception as e:  # a bug of ours or a passing fault: keep the message
        return not _failed(db, config, item, sub, now, e)
    # Committed (or, in a group, kept until the group's commit).
    crash_point("handle-committed")
    said = f"message {item.id} from {sub.sender or '?'}: {outcome}"
    if outcomes is None:
        log.info("%s", said)
    else:
        outcomes.append(said)
    return True


def _failed(
    db: sqlite_utils.Database,
    config: Config,
    item: inbox.Inbound,
    sub: Submission | None,
    now: datetime,
    error: Exception,
) -> bool:
    """Record a failed attempt: a later retry, or (the last attempt) failed for good with
    one internal_error reply; a fault of the machine (failures.is_transient) is tried
    again a minute later, never counted, so a full disk loses no mail however long it
    lasts. Whether the message is left to be tried again. A failure to
    record it is logged, never raised: the message then stays waiting and is tried again
    at the next pass."""
    reason = failure_reason(error, item.raw)
    log.error(
        "message %d from %s raised %s\n%s",
        item.id,
        item.sender or "?",
        reason,
        "".join(traceback.format_tb(error.__traceback__)).rstrip(),
    )
    try:
        if is_transient(error):  # the machine's fault: tried again, however long it lasts
            at = now + RETRY_DELAYS[0]
            with transaction(db):
                inbox.retry_later(db, item.id, now, at, reason, counted=False)
            log.warning("message %d: trying again at %s (not counted)", item.id, iso(at))
            return True
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
            return True
        _give_up(db, config, item, sub, now, f"{reason} (after {tried} attempts)")
        return False
    except Exception as e:
        log.error(
            "message %d: its failure could not be recorded (%s); it stays waiting",
            item.id,
            failure_reason(e, item.raw),
        )
        return True


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
                _queue(
                    db,
                    config,
                    sub,
                    item.id,
                    now,
                    Reply((to,), "internal_error", {"sub": _shown(sub)}),
                )
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
    # The rate limit is keyed by From:, which anyone can forge: it limits the replies,
    # never the reading. A flood's commands still run, so a real player's signed-on
    # orders land however many mails a forger sends in the player's name.
    limit = config.rate_limit_per_hour
    flooding = inbox.count_before(db, item, most=limit + 1) > limit
    if sub.too_large:
        replies = [_too_large(config, sub)]
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
    if flooding and held:
        # One notice an hour per key; a sender over the rate limit and an address over
        # the reply cap share one when they are the same address.
        if limits.first_notice(db, sub.sender, now):
            notice = {"sub": _shown(sub), "limit": limit}
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


def _too_large(config: Config, sub: Submission) -> Reply:
    """The answer to a mail over max_message_bytes."""
    context = {
        "sub": _shown(sub),
        "size": sub.size,
        "limit": config.max_message_bytes,
        # Past this, only this much was taken in (IMAP): its size is unknown.
        "taken": taken_bytes(config.max_message_bytes),
    }
    return Reply((reply_address(sub),), "too_large", context)


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
        if limits.first_notice(db, address.strip().lower(), now):
            context = {"sub": _shown(sub), "limit": config.replies_per_hour}
            notice = Reply((address,), "reply_cap", context, LIMIT)
            queue_reply(db, config, now, notice, inbound_id, sub.message_id, sub.references)
            queued += 1
    return queued, len(over)


def _shown(sub: Submission) -> Submission:
    """`sub` as the judge's own notices may echo it: its subject with any password masked,
    as the acknowledgement's is (commands/dispatch.py)."""
    return replace(sub, subject=masked_line(sub.subject))

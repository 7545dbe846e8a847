"""The daemon's sending: several relay connections, each on a thread of its own.

Sent one after another on the daemon's loop, a deadline burst's mails made the loop wait
for each of the relay's answers in turn: a third of the burst went in waiting, while no
game was processed and no picture finished. Here the loop hands the mails it has finished
to SEND_CONNECTIONS threads, each with its own connection to the relay, goes on with its
work, and records what they report, the sent mails of a pass in one commit. (A Maildir
outbox is written by the loop itself: judge/service/daemon._outgoing says why.)

The copies of one mail to several readers (the same bytes and Message-ID: a game's
results with outbound.results_together) that come one after another are sent in one
transaction, to MAX_TOGETHER readers at most: the relay gets the picture once, not once
for each reader; each copy is still recorded (sent, retried, failed) for its own reader.

What stays as it was:
- Order per recipient: a mail goes to the thread that has mail of any of its readers in
  hand (none: the thread its readers choose), and waits in the outbox while two threads
  have; each thread sends in the order it was given, except that a direct answer
  (outbox.DIRECT: an acknowledgement with no earlier mail queued to its reader) goes
  ahead of the bulk results waiting on its thread.
- At least once, never two different mails: a mail is recorded as sent only after the
  relay took it; a crash before the record resends the same bytes (at most the
  MAX_IN_FLIGHT mails handed over and not yet recorded).
- The database is the daemon's thread's alone: the threads only talk to the relay.
- A thread whose relay fails hands back the mails it had waiting, untried: they are due
  still and go on a later pass, as the drainer's `_deliver` stops at the first failure.
  A mail to the same recipients as one that failed is not handed over until the daemon's
  thread has collected that failure (and recorded its backoff, which holds back the mail
  behind it: store/outbox.due), so that it never goes first.
"""

from __future__ import annotations

import collections
import contextlib
import itertools
import logging
import queue
import threading
import time
import zlib
from collections.abc import Callable, Sequence
from datetime import datetime

import sqlite_utils

from judge.mail import outbox as sender
from judge.mail.together import Unit, readers, units
from judge.store import outbox

log = logging.getLogger("judge.outbox")

SEND_CONNECTIONS = 4  # connections to the relay at once
# Mails handed to the threads and not yet recorded as sent: enough for the threads to
# send while the loop processes a slice of games (DUE_SLICE_SECONDS, half a second,
# some 400 mails of a burst), so the results of a burst go out while it is processed.
# At 200, half a burst's results waited for its last game.
MAX_IN_FLIGHT = 800
# The pictures of the games processed are begun this far ahead of the mails that carry
# them: the picture workers draw while the loop processes the next games.
PICTURES_AHEAD = 96
IDLE_CLOSE_SECONDS = 5.0  # a thread closes its connection after this long with no mail


class SendThreads:
    """The threads and their queues, for the daemon's life. `on_done` wakes the daemon's
    loop when it has something to record (see _report)."""

    def __init__(
        self,
        deliveries: Sequence[sender.MaildirDelivery | sender.SmtpDelivery],
        on_done: Callable[[], None] = lambda: None,
    ) -> None:
        self.on_done = on_done
        self.in_flight: set[int] = set()  # the daemon's thread's alone
        self._order = itertools.count()
        self._queues: list[queue.PriorityQueue[tuple[int, int, Unit | None]]] = [
            queue.PriorityQueue() for _ in deliveries
        ]
        self._outcomes: queue.SimpleQueue[sender.Outcome] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._waiting = 0  # handed over, outcome not yet reported
        # The readers of each mail the relay failed, until the daemon's thread collects
        # the failure (and records its backoff): a mail to them is not handed over meanwhile.
        self._failed_to: collections.Counter[str] = collections.Counter()
        # Each reader with mail handed over and not yet tried: its thread, and how many.
        self._lane_of: dict[str, tuple[int, int]] = {}
        self._threads = [
            threading.Thread(target=self._run, args=(q, d), name=f"send-{n}", daemon=True)
            for n, (q, d) in enumerate(zip(self._queues, deliveries, strict=True))
        ]
        for thread in self._threads:
            thread.start()

    def busy(self) -> bool:
        """Whether the threads have more than half of MAX_IN_FLIGHT mails still to send:
        they wake the daemon's thread themselves when they run lower (see _report)."""
        with self._lock:
            return self._waiting > MAX_IN_FLIGHT // 2

    def room(self) -> int:
        """How many more mails may be handed over now."""
        return max(0, MAX_IN_FLIGHT - len(self.in_flight))

    def submit(self, items: Sequence[outbox.Outbound]) -> list[outbox.Outbound]:
        """Hand `items` (finished: pictures attached and stored) to their threads, in
        order, copies of one mail joined (see `units`), but those to readers whose earlier
        mail just failed or is in hand on two threads, and any later mail to the same
        readers (they stay queued, to go after it); the mails handed over."""
        handed: list[outbox.Outbound] = []
        held: set[str] = set()  # the readers of a mail not handed over
        with self._lock:  # a thread's failure and this hand-over come one after the other
            for unit in units(items):
                keys = readers(unit)
                lane = self._lane_for(keys)
                if lane is None or held.intersection(keys):
                    held.update(keys)
                    continue
                for key in keys:
                    self._lane_of[key] = (lane, self._lane_of.get(key, (lane, 0))[1] + 1)
                handed += unit
                self._waiting += len(unit)
                self._queues[lane].put((0 if unit[0].direct else 1, next(self._order), unit))
        self.in_flight.update(item.id for item in handed)
        return handed

    def _lane_for(self, keys: Sequence[str]) -> int | None:
        """The thread for a mail to `keys`: the one with mail of theirs in hand, else the
        one their addresses choose; None while one of them waits for a failure to be
        recorded, or two threads have their mail in hand. Under the lock."""
        if any(self._failed_to[key] for key in keys):
            return None
        lanes = {self._lane_of[key][0] for key in keys if key in self._lane_of}
        if len(lanes) > 1:
            return None
        if lanes:
            return lanes.pop()
        return zlib.crc32("\n".join(keys).encode()) % len(self._queues)

    def _done(self, unit: Unit, outcomes: Sequence[sender.Outcome]) -> None:
        """`unit` tried (or given back untried): its readers' hold on their thread let go,
        and those of a failure to be retried held until it is collected. Under the lock."""
        for key in readers(unit):
            lane, count = self._lane_of[key]
            if count > 1:
                self._lane_of[key] = (lane, count - 1)
            else:
                del self._lane_of[key]
        for outcome in outcomes:
            if _retried(outcome):
                self._failed_to.update(readers([outcome.item]))

    def collect(self) -> list[sender.Outcome]:
        """The outcomes reported since the last call."""
        found: list[sender.Outcome] = []
        while True:
            try:
                outcome = self._outcomes.get_nowait()
            except queue.Empty:
                break
            self.in_flight.discard(outcome.item.id)
            if _retried(outcome):  # recorded next, with its backoff: the store holds the rest
                with self._lock:
                    self._failed_to.subtract(readers([outcome.item]))
                    self._failed_to = +self._failed_to  # the counts at 0 dropped
            found.append(outcome)
        return found

    def stop(self) -> None:
        """Tell each thread to stop once it has finished the mail it is sending: the
        mails waiting stay queued in the outbox, for the next life."""
        for q in self._queues:
            q.put((-1, -1, None))  # ahead of any mail waiting

    def close(self, timeout: float = 3.0) -> list[sender.Outcome]:
        """Stop the threads (see stop) and wait for them, `timeout` seconds in all (a
        relay that hangs must not hold up a stop: what it had is simply not recorded,
        and sent again by the next life); the outcomes not yet collected."""
        self.stop()
        ends = time.monotonic() + timeout
        for thread in self._threads:
            thread.join(max(0.0, ends - time.monotonic()))
        return self.collect()

    def _run(
        self,
        mails: queue.PriorityQueue[tuple[int, int, Unit | None]],
        delivery: sender.MaildirDelivery | sender.SmtpDelivery,
    ) -> None:
        failed = False  # since the relay last failed, the mails waiting go back untried
        while True:
            try:
                _, _, unit = mails.get(timeout=IDLE_CLOSE_SECONDS)
            except queue.Empty:
                with contextlib.suppress(Exception):  # closing is all that is left to do
                    delivery.close()
                continue
            if unit is None:
                with contextlib.suppress(Exception):
                    delivery.close()
                return
            if failed:
                outcomes = [sender.Outcome(item) for item in unit]
            else:
                try:
                    outcomes = sender.attempt_together(delivery, unit)
                except Exception as e:  # a fault of ours: never the end of the thread
                    log.exception("outbound %s: the send thread failed", unit[0].id)
                    outcomes = [sender.Outcome(i, error=f"{type(e).__name__}: {e}") for i in unit]
                failed = any(outcome.stops for outcome in outcomes)
            with self._lock:  # see submit: a mail to them now waits, or goes back untried
                self._done(unit, outcomes)
                if mails.empty():
                    failed = False
            self._report(outcomes)

    def _report(self, outcomes: Sequence[sender.Outcome]) -> None:
        """Pass `outcomes` to the daemon's thread; wake it when half the room is free
        again, on a failure, and when nothing is left (not for each mail: each wake costs
        it a pass)."""
        for outcome in outcomes:
            self._outcomes.put(outcome)
        with self._lock:
            before = self._waiting
            self._waiting -= len(outcomes)
            left = self._waiting
        half = MAX_IN_FLIGHT // 2
        if left == 0 or left <= half < before or any(_woken_by(o) for o in outcomes):
            self.on_done()


def _retried(outcome: sender.Outcome) -> bool:
    """Whether `outcome` is a failure to be tried again after a backoff, which the mails
    behind it to the same readers must wait for."""
    return bool(outcome.later) or (outcome.error is not None and not outcome.permanent)


def _woken_by(outcome: sender.Outcome) -> bool:
    return outcome.error is not None or bool(outcome.later)


def drain(
    db: sqlite_utils.Database,
    threads: SendThreads,
    clock: Callable[[], datetime],
    limit: int,
    *,
    attach_picture: sender.PictureStep,
    look_ahead: int = 0,
    bulk: bool = True,
) -> int:
    """Record what the threads report, then hand them up to `limit` more of the mails
    due (finished first: see outbox.drain; without `bulk`, only the direct answers and
    the results ready), the pictures of `look_ahead` more and the next PICTURES_AHEAD
    pictures queued begun; returns how many were handed over."""
    record(db, threads.collect(), clock())
    # Committed apart from the mails sent: a fault storing a picture never undoes the
    # record of a mail sent (it would be sent again).
    attach_picture.store_drawn(db, attach_picture.drawn_ahead(), clock())
    room = min(limit, threads.room())
    items = []
    if room:
        items = outbox.due_heads(
            db, clock(), room + max(1, look_ahead), threads.in_flight, bulk=bulk
        )
    # Even with no room: the pictures of the games just processed are begun at once.
    attach_picture.ahead(items, outbox.pictures_ahead(db, PICTURES_AHEAD))
    if not items:
        return 0
    batch = sender.finished(db, clock, items, attach_picture, room)
    return len(threads.submit(batch))


def record(db: sqlite_utils.Database, outcomes: Sequence[sender.Outcome], now: datetime) -> None:
    """Record `outcomes`: the mails sent in one commit; a failure retried later, or given
    up (a mail sent to some of its recipients, for the others); an untried mail stays
    queued as it is."""
    sent = [(o.item.id, o.how) for o in outcomes if o.how is not None and not o.later]
    outbox.mark_sent_many(db, sent, now)
    for outcome in outcomes:
        sender.record_failure(db, outcome, now)

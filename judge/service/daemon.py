"""`judge run`: the daemon (inbound, handling, outbox) and `judge run --once`.

The database is the source of truth: on start the judge handles whatever is stored and
unhandled and sends whatever is queued, so a restart after any crash picks up where the
last run stopped.
"""

from __future__ import annotations

import contextlib
import logging
import math
import selectors
import signal
import socket
import sqlite3
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from functools import partial
from typing import TYPE_CHECKING, Any

import sqlite_utils

from judge.config import Config
from judge.failures import failure_reason
from judge.game import pictures
from judge.mail import outbox as sender
from judge.mail import send_threads
from judge.service import picture_pool, schedule
from judge.service.handling import handle_waiting
from judge.service.picture_pool import PicturePool
from judge.service.prechecks import Checker, PasswordPool, check_here
from judge.service.startup import StartFailed, probe_port, sole_judge, start_words
from judge.store import games, inbox, retention
from judge.store.db import open_db
from judge.variants.maps import use_operator_folder

if TYPE_CHECKING:
    from judge.mail.smtp_in import SmtpReceiver

log = logging.getLogger("judge")


def real_clock() -> datetime:
    """The wall clock, in UTC."""
    return datetime.now(UTC)


def fixed_clock(moment: datetime) -> Callable[[], datetime]:
    """A clock that reads `moment` (for `--now`): time does not pass during the run."""
    return lambda: moment


class _ThreadStore:
    """One database connection per thread that stores inbound mail (IMAP poller)."""

    def __init__(self, config: Config, clock: Callable[[], datetime], source: str) -> None:
        self.config, self.clock, self.source = config, clock, source
        self.local = threading.local()

    def __call__(self, raw: bytes) -> int | None:
        db = getattr(self.local, "db", None)
        if db is None:
            db = self.local.db = open_db(self.config.database)
        return inbox.ingest(db, raw, self.source, self.clock())


def run_once(
    config: Config, clock: Callable[[], datetime] = real_clock, forget: bool = True
) -> dict[str, int]:
    """Fetch waiting mail (IMAP), handle everything stored, drain the outbox, forget old
    mail (unless not to `forget`: a clock set ahead would forget mail not yet old),
    return."""
    use_operator_folder(config.maps)
    with sole_judge(config):
        return _once(config, clock, forget)


def _once(config: Config, clock: Callable[[], datetime], forget: bool) -> dict[str, int]:
    """run_once's work, the database's lock held."""
    db = open_db(config.database)
    try:
        try:  # before any mail is handled: a Maildir that cannot be written is said first
            delivery = sender.delivery_for(config)
        except OSError as e:
            raise StartFailed(start_words("outbox", e, config)) from None
        try:
            fetched = _fetched_once(config, clock)
            handled = handle_waiting(db, config, clock)
            due = schedule.run_due(db, config, clock)
            # The pictures are drawn here, one after another, as the drainer reaches them.
            sent = sender.drain(db, delivery, clock, attach_picture=pictures.finish)
            if forget:
                _forget_old_mail(db, clock)
        finally:
            delivery.close()
        return {"fetched": fetched, "handled": handled, "due": due, "sent": sent}
    finally:
        db.conn.close()


def _fetched_once(config: Config, clock: Callable[[], datetime]) -> int:
    """The mail fetched from the IMAP mailbox (0 by SMTP). A mailbox out of reach is
    logged in one line and the run goes on: the mail stored already and the deadlines
    due are not held up by a mail server down."""
    if config.inbound_mode != "imap":
        return 0
    from judge.mail.imap_in import CONNECTION_ERRORS, ImapInbound

    poller = ImapInbound(
        config.imap, _ThreadStore(config, clock, "imap"), max_message_bytes=config.max_message_bytes
    )
    try:
        return poller.fetch_once()
    except CONNECTION_ERRORS as e:
        log.warning(
            "IMAP %s:%s: nothing fetched (%s: %s); the mailbox is tried again at the next run",
            config.imap.host,
            config.imap.port,
            type(e).__name__,
            e,
        )
        return 0
    finally:
        poller.close()


# After a pass of the main loop raises, the next waits 1 s, then 2, 4, ... up to this.
LOOP_BACKOFF_MAX = 60.0
STOP_JOIN_SECONDS = 3.0  # how long shutdown waits for the IMAP thread (it is a daemon)


class _Wakeup:
    """What the main loop sleeps on: a socket pair. Threads call `set` (new mail, a timer
    falling due); a signal wakes it through `signal.set_wakeup_fd`, written by the C-level
    handler. Nothing here takes a lock, so a signal arriving at any moment, any number of
    times, can neither deadlock nor be lost (threading.Event.set is not safe to enter from
    a signal handler that interrupted the same thread inside it)."""

    def __init__(self) -> None:
        self.reader, self.writer = socket.socketpair()
        self.reader.setblocking(False)
        self.writer.setblocking(False)
        self.selector = selectors.DefaultSelector()  # epoll: no limit on the fd's number
        self.selector.register(self.reader, selectors.EVENT_READ)
        # A mail stored since the loop last cleared it: its slice of due games then gives
        # way soon (MAIL_SLICE_SECONDS). A plain flag: set by a receiver's thread, read
        # and cleared by the loop; a mail stored as it is cleared is handled anyway.
        self.mail = False

    def mail_stored(self) -> None:
        """A receiver stored a mail: wake the loop, and cut its slice of due games short."""
        self.mail = True
        self.set()

    def set(self) -> None:
        with contextlib.suppress(OSError):  # full: it will wake anyway; closed: stopping
            self.writer.send(b"\0")

    def wait(self, timeout: float) -> None:
        """Sleep until woken or `timeout` seconds pass; forget the wake-ups so far."""
        with contextlib.suppress(OSError):
            self.selector.select(max(0.0, timeout))
        with contextlib.suppress(OSError):
            while self.reader.recv(4096):
                pass

    def close(self) -> None:
        self.selector.close()
        self.reader.close()
        self.writer.close()


# The signals `judge run` takes: SIGTERM and SIGINT stop it, SIGHUP reloads.
_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


class _Signals:
    """SIGTERM/SIGINT (stop) and SIGHUP (reload), taken in the main thread: each handler
    only sets a flag, which the loop reads between passes."""

    def __init__(self, wakeup: _Wakeup) -> None:
        self.stop = False
        self.reload = False
        self.installed = threading.current_thread() is threading.main_thread()
        self.previous_fd = -1
        if self.installed:
            # Held back while the three handlers are set, then taken by them: a SIGINT
            # come between two of them ran Python's own handler, and its KeyboardInterrupt
            # was raised from the next signal.signal. No other thread runs yet to take one.
            signal.pthread_sigmask(signal.SIG_BLOCK, _SIGNALS)
            try:
                self.previous_fd = signal.set_wakeup_fd(
                    wakeup.writer.fileno(), warn_on_full_buffer=False
                )
                signal.signal(signal.SIGTERM, self._on_stop)
                signal.signal(signal.SIGINT, self._on_stop)
                signal.signal(signal.SIGHUP, self._on_reload)
            finally:
                signal.pthread_sigmask(signal.SIG_UNBLOCK, _SIGNALS)

    def _on_stop(self, signum: int, frame: object) -> None:
        self.stop = True

    def _on_reload(self, signum: int, frame: object) -> None:
        self.reload = True

    def release(self) -> None:
        """At the start of the shutdown: from now on these signals are ignored. Not our
        handlers: at interpreter exit Python puts back the default action for every signal
        with a Python handler, and a late SIGTERM would then kill the process (-15)
        instead of letting it exit 0; an ignored signal stays ignored."""
        if self.installed:
            hook = sys.unraisablehook
            if getattr(hook, "func", None) is not _unreported_if_ignored:  # once a process
                sys.unraisablehook = partial(_unreported_if_ignored, hook)
            for sig in _SIGNALS:
                signal.signal(sig, signal.SIG_IGN)
            signal.set_wakeup_fd(self.previous_fd)


def _unreported_if_ignored(report: Callable[[Any], object], unraisable: Any) -> None:
    """sys.unraisablehook once the signals are ignored: CPython reports a signal of ours
    that came in the instant its handler was being set to SIG_IGN (after its check of
    signals waiting, before the kernel's action changed) as the OSError "Signal 15 ignored
    due to race condition", a traceback ending in signal.signal on standard error, though
    the signal is ignored as meant. Any of the daemon's threads may take a signal, so no
    mask closes that instant; that report alone is dropped, every other one made."""
    error = unraisable.exc_value
    ignored = {f"Signal {int(sig)} ignored due to race condition" for sig in _SIGNALS}
    if isinstance(error, OSError) and str(error) in ignored:
        return
    report(unraisable)


def run_forever(
    config: Config,
    clock: Callable[[], datetime] = real_clock,
    stop: threading.Event | None = None,
    ready: Callable[[], None] = lambda: None,
) -> None:
    """Run until SIGTERM/SIGINT (any number of them; the judge stops within seconds) or
    until `stop` is set. A pass of the loop that raises is logged and tried again after
    a back-off: no message, game or fault of the moment ends the daemon. StartFailed
    when it cannot start (another judge on the database, the port taken, ...), before
    any mail is taken in."""
    with sole_judge(config):
        _serve(config, clock, stop, ready)


def _serve(
    config: Config,
    clock: Callable[[], datetime],
    stop: threading.Event | None,
    ready: Callable[[], None],
) -> None:
    """run_forever's work, the database's lock held."""
    stop = stop or threading.Event()
    wakeup = _Wakeup()
    signals = _Signals(wakeup)

    def stopping() -> bool:
        return signals.stop or stop.is_set()

    db = None
    receiver = None
    imap_thread = None
    timers = schedule.Timers(wakeup.set, clock)
    checker = PasswordPool()
    drawer: PicturePool | None = None
    outgoing: Outgoing | None = None
    use_operator_folder(config.maps)
    try:
        db = open_db(config.database)
        drawer = PicturePool(config.maps, on_ready=wakeup.set, warm=_maps_in_play(db))
        step = "outbox"
        try:
            outgoing = _outgoing(config, wakeup)
            timers.start()
            step = "receiver"
            if config.inbound_mode == "smtp":
                probe_port(config)
            receiver, imap_thread = _inbound_started(config, clock, wakeup, stop)
        except OSError as e:
            raise StartFailed(start_words(step, e, config)) from None
        ready()
        _loop(db, config, clock, outgoing, timers, wakeup, signals, stopping, checker, drawer)
    finally:
        signals.release()
        stop.set()  # the IMAP thread watches it; never called from a signal handler
        with contextlib.suppress(Exception):  # never started
            timers.stop()
        if receiver is not None:
            receiver.stop()
        if imap_thread is not None:
            imap_thread.join(timeout=STOP_JOIN_SECONDS)
        if isinstance(outgoing, send_threads.SendThreads):
            outcomes = outgoing.close()
            if db is not None:
                with contextlib.suppress(Exception):  # unrecorded: resent by the next life
                    send_threads.record(db, outcomes, clock())
        elif outgoing is not None:
            outgoing.close()
        if db is not None:
            db.conn.close()
        checker.close()
        if drawer is not None:
            drawer.close()
        wakeup.close()
        log.info("stopped")


def _maps_in_play(db: sqlite_utils.Database) -> list[str]:
    """The maps the picture workers ready as they start: those most played (none when
    the games cannot be read: the pictures then ready themselves, as they are drawn)."""
    try:
        return games.variants_in_play(db, picture_pool.WARM_MAPS)
    except sqlite3.Error as e:
        log.warning("the maps in play could not be read: %s", failure_reason(e))
        return []


# How the daemon sends its mail (one_pass).
Outgoing = sender.MaildirDelivery | sender.SmtpDelivery | send_threads.SendThreads


def _outgoing(config: Config, wakeup: _Wakeup) -> Outgoing:
    """An SMTP relay is sent to on SEND_CONNECTIONS threads, whose answers the loop does
    not wait for; a Maildir outbox is written by the loop itself: a local write waits for
    no one, and on a thread it only made the loop's groups of mail smaller (revised
    order mails, benchmarks/orders.py: 163-178 a second, against 223-236)."""
    if config.outbound_mode == "smtp":
        deliveries = [sender.SmtpDelivery(config) for _ in range(send_threads.SEND_CONNECTIONS)]
        return send_threads.SendThreads(deliveries, on_done=wakeup.set)
    return sender.delivery_for(config)


def _inbound_started(
    config: Config, clock: Callable[[], datetime], wakeup: _Wakeup, stop: threading.Event
) -> tuple[SmtpReceiver | None, threading.Thread | None]:
    """The mail coming in, started: the SMTP receiver, or the IMAP poller's thread."""
    if config.inbound_mode == "smtp":
        from judge.mail.smtp_in import SmtpReceiver

        receiver = SmtpReceiver(config, clock, wakeup.mail_stored)
        receiver.start()
        return receiver, None
    from judge.mail.imap_in import ImapInbound

    poller = ImapInbound(
        config.imap,
        _ThreadStore(config, clock, "imap"),
        wakeup.mail_stored,
        max_message_bytes=config.max_message_bytes,
    )
    imap_thread = threading.Thread(target=poller.run, args=(stop,), name="imap", daemon=True)
    imap_thread.start()
    return None, imap_thread


def _loop(
    db: sqlite_utils.Database,
    config: Config,
    clock: Callable[[], datetime],
    outgoing: Outgoing,
    timers: schedule.Timers,
    wakeup: _Wakeup,
    signals: _Signals,
    stopping: Callable[[], bool],
    checker: PasswordPool,
    drawer: PicturePool,
) -> None:
    """The daemon's passes until `stopping()`: reload on SIGHUP, handle the stored mail,
    send the deadlines' mail, drain the outbox, then sleep until something is to do."""
    failures = 0
    attach = pictures.Attacher(drawer)
    while not stopping():
        try:
            if signals.reload:
                signals.reload = False
                config = _reloaded(config)
            wakeup.mail = False  # before the pass reads the mail waiting
            started = time.monotonic()
            more = one_pass(
                db, config, clock, outgoing, stopping, checker, attach, lambda: wakeup.mail
            )
            timers.sync(schedule.next_wake(db))
            failures = 0
            if more and not stopping():
                continue  # the mail waiting first, then the next slice
            # Wake for new mail, a retry falling due, a picture drawn or mail sent (the
            # pool and the send threads wake it: they are not polled), or (within a
            # second) a stop.
            sending = isinstance(outgoing, send_threads.SendThreads) and outgoing.in_flight
            busy = drawer.drawing() or sending
            wait = 1.0 if busy else _seconds_until_next_send(db, clock)
            wakeup.wait(min(1.0, wait))
            if isinstance(outgoing, send_threads.SendThreads):
                _paced(wakeup, started, outgoing, stopping)
        except Exception as e:
            failures += 1
            backoff = min(LOOP_BACKOFF_MAX, 2.0 ** (failures - 1))
            log.error(
                "a pass of the main loop raised %s (%d in a row); trying again in %.0f s\n%s",
                failure_reason(e),
                failures,
                backoff,
                "".join(traceback.format_tb(e.__traceback__)).rstrip(),
            )
            _sleep(backoff, wakeup, stopping)


# Many games due at once (a shared deadline) are processed, and their mail sent, in slices
# with the waiting mail handled in between: a player's acknowledgement never waits for a
# thousand games' results. A slice gives way to mail that came meanwhile after
# MAIL_SLICE_SECONDS: with half a second, a mail waited for the rest of the slice (a
# p99 of 2.4 s while 1,000 games were processed, benchmarks/deadlines.py --players).
DUE_SLICE_SECONDS = 0.5
MAIL_SLICE_SECONDS = 0.1
SEND_SLICE = 400  # mails sent per pass, recorded as sent in one commit (MAX_IN_FLIGHT)
LOOK_AHEAD = 200  # mails beyond those whose pictures are begun in the pool meanwhile


def one_pass(
    db: sqlite_utils.Database,
    config: Config,
    clock: Callable[[], datetime],
    delivery: Outgoing,
    stopping: Callable[[], bool],
    checker: Checker = check_here,
    attach: sender.PictureStep = pictures.finish,
    mail_waiting: Callable[[], bool] = lambda: False,
) -> bool:
    """One pass of the daemon's work: handle the waiting mail, process the games due for
    up to DUE_SLICE_SECONDS, send up to SEND_SLICE mails (those whose pictures `attach`
    has ready; those of LOOK_AHEAD more begun), here or by handing them to the send
    threads. Once `mail_waiting()` says mail came meanwhile, the games and the writing
    into a Maildir give way after MAIL_SLICE_SECONDS each. Whether work was left for the
    next pass (games still due, mail still to send, mail come)."""
    handle_waiting(db, config, clock, stopping=stopping, checker=checker)
    cut = _Slice(DUE_SLICE_SECONDS, stopping, MAIL_SLICE_SECONDS, mail_waiting)
    schedule.run_due(db, config, clock, stopping=cut)
    if isinstance(delivery, send_threads.SendThreads):
        drain = partial(send_threads.drain, db, delivery)
    else:  # each write waits for its fsync: a mail that came goes first, once the
        # slice has written for MAIL_SLICE_SECONDS (a flood of mail never starves results)
        writing = _Slice(math.inf, stopping, MAIL_SLICE_SECONDS, mail_waiting)
        drain = partial(sender.drain, db, delivery, give_way=writing)
    # While games are still due (a burst), the other mail waits for them: the direct
    # answers and the results ready go meanwhile, the rest (a burst's notices, eight for
    # each game's results) would take the loop's time from the games still to process.
    sent = drain(
        clock, limit=SEND_SLICE, attach_picture=attach, look_ahead=LOOK_AHEAD, bulk=not cut.told
    )
    if not sent and not cut.told:  # idle enough: old mail forgotten, a slice at a time
        _forget_old_mail(db, clock)
    return cut.told or sent >= SEND_SLICE or mail_waiting()


# When forgetting old mail last failed, and why: the same failure is logged once an hour,
# not on each idle pass.
_forget_failed: dict[str, float] = {}
FORGET_FAILURE_LOG_SECONDS = 3600.0


def _forget_old_mail(db: sqlite_utils.Database, clock: Callable[[], datetime]) -> None:
    """The texts of old mail and the old pictures forgotten (store/retention.py), up to a
    slice of each, and said in the log. Never raises: a fault here (a full disk) must not
    hold up the handling of mail, which the loop's back-off after a failed pass would."""
    try:
        forgotten = retention.forget_old_mail(db, clock())
    except Exception as e:
        reason = failure_reason(e)
        now = time.monotonic()
        if now - _forget_failed.get(reason, -math.inf) >= FORGET_FAILURE_LOG_SECONDS:
            _forget_failed[reason] = now
            log.warning("could not forget old mail (tried again on each idle pass): %s", reason)
        return
    if forgotten:
        log.info(
            "forgot the text of %d inbound and %d outbound mails and %d pictures, "
            "older than %d days",
            forgotten.inbound,
            forgotten.outbound,
            forgotten.pictures,
            retention.MAIL_KEPT_DAYS,
        )


class _Slice:
    """A `stopping` that also says stop once `seconds` have passed since it was made, or
    `yield_after` seconds once `mail_waiting()` says mail came meanwhile."""

    def __init__(
        self,
        seconds: float,
        stopping: Callable[[], bool],
        yield_after: float = math.inf,
        mail_waiting: Callable[[], bool] = lambda: False,
    ) -> None:
        start = time.monotonic()
        self.ends = start + seconds
        self.yields = start + min(seconds, yield_after)
        self.stopping = stopping
        self.mail_waiting = mail_waiting
        self.told = False  # told to stop for the time: what is left is due still
        self.first = True

    def __call__(self) -> bool:
        if self.first:  # the first game of a slice is always done: every pass gets on
            self.first = False
            return self.stopping()
        now = time.monotonic()
        self.told = self.told or now > self.ends or (now > self.yields and self.mail_waiting())
        return self.told or self.stopping()


# While a burst's pictures are drawn and its mail sent, the picture pool wakes the loop as
# each picture is done: some 650 passes in a 1,000-game burst, each reading the due games
# and the outbox's queue again (7-8 ms of the loop's CPU). While the send threads have
# over half their room still to send, a pass woken so starts at least PASS_GAP_SECONDS
# after the one before, and finds several pictures done; once the threads run lower (they
# wake the loop then), a mail comes, or the daemon stops, it starts at once.
PASS_GAP_SECONDS = 0.1


def _paced(
    wakeup: _Wakeup,
    started: float,
    threads: send_threads.SendThreads,
    stopping: Callable[[], bool],
) -> None:
    """Wait until PASS_GAP_SECONDS after `started` (the last pass's start) while the
    `threads` are busy, unless mail came or the daemon is stopping."""
    while not wakeup.mail and not stopping() and threads.busy():
        left = started + PASS_GAP_SECONDS - time.monotonic()
        if left <= 0:
            return
        wakeup.wait(left)


def _sleep(seconds: float, wakeup: _Wakeup, stopping: Callable[[], bool]) -> None:
    """Sleep `seconds` (new mail does not cut it short), returning at once on a stop."""
    end = time.monotonic() + seconds
    while not stopping() and (left := end - time.monotonic()) > 0:
        wakeup.wait(min(left, 1.0))


def _reloaded(config: Config) -> Config:
    """SIGHUP: read the configuration file again. Names, addresses, masters, limits and
    the time zone take effect at once; a change to the database or the mail servers
    needs a restart, which the log says."""
    from judge.config import ConfigError, load_config

    if config.source == "embedded defaults":
        log.info("SIGHUP: running on the embedded defaults, nothing to reload")
        return config
    try:
        fresh = load_config(config.source)
    except ConfigError as e:
        log.error("SIGHUP: configuration not reloaded: %s", e)
        return config
    # The maps too: a game under way must not change its map under its players.
    fixed = (
        "database",
        "inbound_mode",
        "imap",
        "smtp_in",
        "outbound_mode",
        "smtp_out",
        "maildir",
        "maps",
    )
    changed = [k for k in fixed if getattr(fresh, k) != getattr(config, k)]
    if changed:
        log.warning(
            "SIGHUP: %s changed; restart the judge for that to take effect", ", ".join(changed)
        )
        fresh = replace(fresh, **{k: getattr(config, k) for k in fixed})
    for warning in fresh.warnings:  # as at start (judge/ops/cli.py): a mistake said again
        log.warning("SIGHUP: %s", warning)
    log.info("SIGHUP: configuration reloaded from %s", config.source)
    return fresh


def _seconds_until_next_send(db: sqlite_utils.Database, clock: Callable[[], datetime]) -> float:
    """Sleep until the next queued retry is due, at most 30 seconds."""
    from judge.store import outbox

    due = outbox.next_attempt(db)
    if due is None:
        return 30.0
    try:
        wait = (datetime.fromisoformat(due) - clock()).total_seconds()
    except (ValueError, TypeError):  # damaged on disk: raising here slowed every pass
        return 30.0
    return min(30.0, max(0.05, wait))

"""`judge run`: the daemon (inbound, handling, outbox) and `judge run --once`.

The database is the source of truth: on start the judge handles whatever is stored and
unhandled and sends whatever is queued, so a restart after any crash picks up where the
last run stopped.
"""

from __future__ import annotations

import logging
import signal
import threading
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime

from judge import schedule
from judge.config import Config
from judge.handling import handle_waiting
from judge.mail import outbox as sender
from judge.store import inbox
from judge.store.db import open_db

log = logging.getLogger("judge")


def real_clock() -> datetime:
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


def run_once(config: Config, clock: Callable[[], datetime] = real_clock) -> dict[str, int]:
    """Fetch waiting mail (IMAP), handle everything stored, drain the outbox, return."""
    db = open_db(config.database)
    try:
        fetched = 0
        if config.inbound_mode == "imap":
            from judge.mail.imap_in import ImapInbound

            poller = ImapInbound(config.imap, _ThreadStore(config, clock, "imap"))
            try:
                fetched = poller.fetch_once()
            finally:
                poller.close()
        handled = handle_waiting(db, config, clock)
        due = schedule.run_due(db, config, clock)
        sent = sender.drain(db, sender.delivery_for(config), clock)
        return {"fetched": fetched, "handled": handled, "due": due, "sent": sent}
    finally:
        db.conn.close()


def run_forever(
    config: Config,
    clock: Callable[[], datetime] = real_clock,
    stop: threading.Event | None = None,
    ready: Callable[[], None] = lambda: None,
) -> None:
    """Run until SIGTERM/SIGINT (or `stop` is set)."""
    stop = stop or threading.Event()
    wake = threading.Event()
    reload = threading.Event()
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: (stop.set(), wake.set()))
        signal.signal(signal.SIGHUP, lambda *_: (reload.set(), wake.set()))
    db = open_db(config.database)
    delivery = sender.delivery_for(config)
    receiver = None
    imap_thread = None
    timers = schedule.Timers(wake.set, clock)
    try:
        timers.start()
        if config.inbound_mode == "smtp":
            from judge.mail.smtp_in import SmtpReceiver

            receiver = SmtpReceiver(config, clock, wake.set)
            receiver.start()
        else:
            from judge.mail.imap_in import ImapInbound

            poller = ImapInbound(config.imap, _ThreadStore(config, clock, "imap"), wake.set)
            imap_thread = threading.Thread(
                target=poller.run, args=(stop,), name="imap", daemon=True
            )
            imap_thread.start()
        ready()
        while not stop.is_set():
            wake.clear()
            if reload.is_set():
                reload.clear()
                config = _reloaded(config)
            handle_waiting(db, config, clock)
            schedule.run_due(db, config, clock)
            timers.sync(schedule.next_events(db))
            sender.drain(db, delivery, clock)
            # Wake for new mail, a retry falling due, or (within a second) a stop.
            wake.wait(min(1.0, _seconds_until_next_send(db, clock)))
    finally:
        stop.set()
        timers.stop()
        if receiver is not None:
            receiver.stop()
        if imap_thread is not None:
            imap_thread.join(timeout=10)
        db.conn.close()
        log.info("stopped")


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
    fixed = ("database", "inbound_mode", "imap", "smtp_in", "outbound_mode", "smtp_out", "maildir")
    changed = [k for k in fixed if getattr(fresh, k) != getattr(config, k)]
    if changed:
        log.warning(
            "SIGHUP: %s changed; restart the judge for that to take effect", ", ".join(changed)
        )
        fresh = replace(fresh, **{k: getattr(config, k) for k in fixed})
    log.info("SIGHUP: configuration reloaded from %s", config.source)
    return fresh


def _seconds_until_next_send(db, clock: Callable[[], datetime]) -> float:
    """Sleep until the next queued retry is due, at most 30 seconds."""
    from judge.store import outbox

    due = outbox.next_attempt(db)
    if due is None:
        return 30.0
    wait = (datetime.fromisoformat(due) - clock()).total_seconds()
    return min(30.0, max(0.05, wait))

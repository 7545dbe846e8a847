"""Inbound mail by IMAP: fetch, store, and only then mark seen and move on the server.

Each undeleted message in the configured mailbox is fetched with BODY.PEEK[] (RFC822 would
mark it seen before it is stored), handed to `store_message` (which stores and commits
it, deduplicating), then flagged \\Seen and moved to the processed mailbox. A crash
between storing and moving fetches the message again on the next pass; the store's
dedupe key makes that harmless. A message that fails to store stays unseen in the
mailbox and is tried again on the next pass.

Anyone can mail the mailbox, and a provider may take messages of 50 MB: the sizes of a
batch are asked first (RFC822.SIZE), and the bodies fetched in groups of at most
FETCH_BYTES, in UID order. A message over the cap (`fetch_cap`, the SMTP receiver's DATA
limit), or whose size the server does not give, is fetched only up to cap + 1 bytes (a
partial fetch, RFC 3501 6.4.5) and stored so: longer than max_message_bytes, it is
answered "too large" as an over-large SMTP mail is, then moved as any other.

`run()` waits for new mail with IDLE when the server offers it (else it polls), and
survives every connection failure by reconnecting with exponential backoff.
"""

from __future__ import annotations

import contextlib
import imaplib
import logging
import ssl
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from imapclient import IMAPClient

from judge.config import Config, ImapConfig
from judge.crashpoints import crash_point
from judge.mail.intake import taken_bytes

BATCH = 50  # UIDs whose sizes are asked per round trip, their bodies then fetched by FETCH_BYTES
FETCH_BYTES = 16 * 1024 * 1024  # bytes of bodies asked for in one round trip (imapclient
# holds the whole answer, about three times over while reading it): a batch of eight 25 MB
# messages fetched at once took the poller from 50 to 675 MB; in groups, and each cut to
# the cap, to 88 MB, as fifty of them did. A message alone in its group may pass it, up to
# the cap (fetch_cap).
SOCKET_TIMEOUT = 30.0  # seconds: a dead server cannot hang the judge
IDLE_RENEW = 10.0  # seconds: re-search and re-IDLE this often: a missed notification
# (a race between a search and IDLE starting) then delays a mail 10 s at most
BACKOFF_MAX = 60.0
SEEN, DELETED = b"\\Seen", b"\\Deleted"

# What a broken connection or a refusing server raises; imapclient's exceptions are
# imaplib.IMAP4.error and its subclasses (LoginError, CapabilityError, abort...).
CONNECTION_ERRORS = (OSError, EOFError, imaplib.IMAP4.error)


class ConnectionLost(ConnectionError):
    """The server said BYE or closed the connection."""


def fetch_cap(max_message_bytes: int) -> int:
    """The most bytes of one message taken whole: the SMTP receiver's DATA limit
    (mail/intake.py). Beyond it only cap + 1 bytes are fetched: enough to be answered
    "too large", the headers (the From: answered) being in the first bytes."""
    return taken_bytes(max_message_bytes)


@dataclass(frozen=True)
class Group:
    """Messages whose bodies are fetched in one round trip, in UID order."""

    uids: tuple[int, ...]
    partial: bool  # only the first cap + 1 bytes of each: over the cap, or size unknown


def message_size(item: Mapping[bytes, object]) -> int | None:
    """The RFC822.SIZE in one message's FETCH answer; None when missing or garbage."""
    size = item.get(b"RFC822.SIZE")
    if isinstance(size, int) and not isinstance(size, bool) and size >= 0:
        return size
    return None


def plan_groups(
    uids: list[int], sizes: Mapping[int, int | None], cap: int, bound: int
) -> list[Group]:
    """`uids` (in order) cut into runs whose bodies together ask for at most `bound`
    bytes (one message alone may ask for more, up to cap + 1). A UID without an entry in
    `sizes` was expunged since the search and is left out; a size of None or over `cap`
    makes a partial fetch of cap + 1 bytes, in groups of their own."""
    groups: list[Group] = []
    run: list[int] = []
    run_partial, run_bytes = False, 0
    for uid in uids:
        if uid not in sizes:
            continue
        size = sizes[uid]
        partial = size is None or size > cap
        cost = cap + 1 if partial or size is None else size  # (None is partial: for mypy)
        if run and (partial != run_partial or run_bytes + cost > bound):
            groups.append(Group(tuple(run), run_partial))
            run, run_bytes = [], 0
        run.append(uid)
        run_partial, run_bytes = partial, run_bytes + cost
    if run:
        groups.append(Group(tuple(run), run_partial))
    return groups


def _body(item: Mapping[bytes, object]) -> bytes | None:
    """The body in one message's FETCH answer (BODY[] or a partial BODY[]<0>); None
    when the server sent none (NIL, nothing, or not a string)."""
    for key, value in item.items():
        if key.startswith(b"BODY[]") and isinstance(value, bytes) and value:
            return value
    return None


class ImapInbound:
    def __init__(
        self,
        config: ImapConfig,
        store_message: Callable[[bytes], object],
        wake: Callable[[], None] = lambda: None,
        log: logging.Logger | None = None,
        sleep: Callable[[float], None] = time.sleep,
        *,
        ssl_context: ssl.SSLContext | None = None,
        timeout: float = SOCKET_TIMEOUT,
        max_message_bytes: int = Config.max_message_bytes,
    ) -> None:
        self.config = config
        self.max_message_bytes = max_message_bytes  # the judge's limit: sets fetch_cap
        self.store_message = store_message
        self.wake = wake
        self.log = log or logging.getLogger(__name__)
        self.sleep = sleep
        self.ssl_context = ssl_context  # None: the system's verifying default
        self.timeout = timeout
        self.failed = 0  # messages that could not be stored on the last pass
        # their UIDs, and those of messages the server sent no body for: no reason to
        # skip IDLE for them
        self.failed_uids: set[int] = set()
        self._client: IMAPClient | None = None
        self._processed_ready = False

    # -- connection --------------------------------------------------------------------

    def connect(self) -> IMAPClient:
        """The open connection, making one if need be: TLS as configured, logged in,
        the mailbox selected."""
        if self._client is not None:
            return self._client
        c = self.config
        if c.ssl:
            context = self.ssl_context or ssl.create_default_context()
            client = IMAPClient(c.host, c.port, ssl=True, ssl_context=context, timeout=self.timeout)
        else:
            client = IMAPClient(c.host, c.port, ssl=False, timeout=self.timeout)
        try:
            if not c.ssl and c.starttls:
                client.starttls(self.ssl_context or ssl.create_default_context())
            client.login(c.username, c.password)
            client.select_folder(c.mailbox)
        except BaseException:
            _shutdown(client)
            raise
        self._client = client
        self._processed_ready = False
        self.log.info("IMAP: connected to %s:%s as %s", c.host, c.port, c.username)
        return client

    def close(self) -> None:
        """Log out (quietly: the connection may already be gone)."""
        client, self._client = self._client, None
        if client is None:
            return
        try:
            client.logout()
        except Exception:
            _shutdown(client)

    def _drop(self) -> None:
        """Forget a broken connection without talking to the server."""
        client, self._client = self._client, None
        if client is not None:
            _shutdown(client)

    def has_capability(self, name: str) -> bool:
        """Whether the server offers `name` (tests override this to force fallbacks)."""
        return bool(self.connect().has_capability(name))

    # -- one pass ------------------------------------------------------------------------

    def fetch_once(self) -> int:
        """Store every undeleted message in the mailbox, then flag it \\Seen and
        move it to the processed mailbox. Returns how many were stored (a duplicate the
        store recognised counts: it is safe too). Connection errors propagate, and the
        broken connection is dropped so the next call reconnects."""
        try:
            return self._fetch_all(self.connect())
        except CONNECTION_ERRORS:
            self._drop()
            raise

    def _fetch_all(self, client: IMAPClient) -> int:
        # Everything left in the mailbox is unprocessed (stored mail is moved out), even
        # mail a person has read in a mail client: \Seen does not mean stored here.
        uids = sorted(client.search(["NOT", "DELETED"]))
        stored_total = 0
        self.failed = 0
        self.failed_uids = set()
        for start in range(0, len(uids), BATCH):
            batch = uids[start : start + BATCH]
            stored = self._store_batch(client, batch)
            if stored:
                self._move(client, stored)
                stored_total += len(stored)
        return stored_total

    def _store_batch(self, client: IMAPClient, batch: list[int]) -> list[int]:
        """Store the batch's messages, bodies fetched by groups bounded in bytes; the
        UIDs stored, in order."""
        cap = fetch_cap(self.max_message_bytes)
        answer = client.fetch(batch, ["RFC822.SIZE"])
        sizes = {uid: message_size(item) for uid, item in answer.items()}
        stored: list[int] = []
        for group in plan_groups(batch, sizes, cap, FETCH_BYTES):
            stored += self._store_group(client, group, cap)
        if stored:
            try:
                self.wake()
            except Exception:
                self.log.exception("IMAP: wake() failed")
        return stored

    def _store_group(self, client: IMAPClient, group: Group, cap: int) -> list[int]:
        """Fetch one group's bodies and store each; the UIDs stored."""
        keep = cap + 1
        item = f"BODY.PEEK[]<0.{keep}>" if group.partial else "BODY.PEEK[]"
        fetched = client.fetch(list(group.uids), [item])
        stored: list[int] = []
        for uid in group.uids:
            raw = _body(fetched.get(uid, {}))
            if raw is None:  # expunged by someone else meanwhile, or an empty answer
                self._no_body(uid, uid in fetched)
                continue
            # A server that sends more than asked is not believed further: never more
            # than cap + 1 bytes kept (Dovecot sends exactly the range asked for).
            if self._store(uid, raw[:keep]):
                stored.append(uid)
                crash_point("imap-stored")  # stored, not yet moved: the next pass refetches it
        return stored

    def _store(self, uid: int, raw: bytes) -> bool:
        """Hand one message to the store; False (logged) when that raised."""
        try:
            self.store_message(bytes(raw))
        except Exception:
            self.failed += 1
            self.failed_uids.add(uid)
            self.log.exception(
                "IMAP: could not store message UID %s from %s; it stays in the mailbox and "
                "will be tried again",
                uid,
                self.config.mailbox,
            )
            return False
        return True

    def _no_body(self, uid: int, answered: bool) -> None:
        """A message the server sent no body for stays in the mailbox, unseen, for the
        next pass; IDLE is not skipped for it (that would spin)."""
        self.failed_uids.add(uid)
        if answered:  # the message is there, its body empty or NIL: worth a warning
            self.log.warning(
                "IMAP: the server sent no body for message UID %s in %s; it stays in the "
                "mailbox and will be tried again",
                uid,
                self.config.mailbox,
            )
        else:  # most likely expunged since its size was asked
            self.log.info("IMAP: message UID %s is gone from %s; skipped", uid, self.config.mailbox)

    def _move(self, client: IMAPClient, uids: list[int]) -> None:
        """Flag the stored messages \\Seen and move them to the processed mailbox."""
        target = self.config.processed_mailbox
        self._ensure_processed(client)
        client.add_flags(uids, [SEEN], silent=True)
        if self.has_capability("MOVE"):
            client.move(uids, target)
            return
        client.copy(uids, target)
        client.add_flags(uids, [DELETED], silent=True)
        if self.has_capability("UIDPLUS"):
            client.uid_expunge(uids)
        else:  # removes every \Deleted message in the mailbox, not only ours
            client.expunge()

    def _ensure_processed(self, client: IMAPClient) -> None:
        if self._processed_ready:
            return
        target = self.config.processed_mailbox
        if not client.folder_exists(target):
            try:
                client.create_folder(target)
                self.log.info("IMAP: created mailbox %s", target)
            except imaplib.IMAP4.error:
                if not client.folder_exists(target):  # not a race with another client
                    raise
        self._processed_ready = True

    # -- the daemon loop -------------------------------------------------------------------

    def run(self, stop: threading.Event) -> None:
        """Fetch, then wait for mail (IDLE or polling), until `stop` is set. Connection
        failures are logged and retried with backoff (1 s, 2 s, 4 s ... 60 s); nothing
        is raised."""
        backoff = 1.0
        while not stop.is_set():
            try:
                self.fetch_once()
                backoff = 1.0
                if stop.is_set():
                    break
                self._wait_for_mail(stop)
            except Exception as e:
                if isinstance(e, CONNECTION_ERRORS):
                    self.log.warning(
                        "IMAP %s:%s: %s: %s; reconnecting in %g s",
                        self.config.host,
                        self.config.port,
                        type(e).__name__,
                        e,
                        backoff,
                    )
                else:  # a bug, not the network: log it in full, but keep the judge alive
                    self.log.exception("IMAP: unexpected error; reconnecting in %g s", backoff)
                self._drop()
                self._pause(backoff, stop)
                backoff = min(backoff * 2, BACKOFF_MAX)
        self.close()

    def _wait_for_mail(self, stop: threading.Event) -> None:
        # While some message failed to store, come back for it after poll_seconds even
        # if nothing new arrives.
        retry = self.config.poll_seconds if self.failed else IDLE_RENEW
        if self.config.idle and self.has_capability("IDLE"):
            self._idle(stop, min(retry, IDLE_RENEW))
        else:
            self._pause(self.config.poll_seconds, stop)

    def _idle(self, stop: threading.Event, renew: float) -> None:
        """IDLE until the mailbox changes, `renew` seconds pass or `stop` is set."""
        client = self.connect()
        # Mail that arrived after the last search was announced during that pass, and
        # IDLE will not announce it again: look once more before waiting.
        if set(client.search(["NOT", "DELETED"])) - self.failed_uids:
            return
        pending = getattr(client._imap, "untagged_responses", None)  # imaplib's own store
        if isinstance(pending, dict):
            pending.clear()
        client.idle()
        # An EXISTS sent just before the server's "+ idling" is filed by imaplib and never
        # reaches idle_check(): look for it, or the mail would wait for the renewal.
        if isinstance(pending, dict) and any(k in pending for k in ("EXISTS", "RECENT")):
            client.idle_done()
            return
        deadline = time.monotonic() + renew
        while not stop.is_set() and time.monotonic() < deadline:
            started = time.monotonic()
            wait = min(1.0, max(0.05, deadline - started))
            responses = client.idle_check(timeout=wait)
            if any(r[:1] == (b"BYE",) for r in responses):
                raise ConnectionLost(f"server said {responses}")
            if any(r[:1] != (b"OK",) for r in responses):
                break  # EXISTS, RECENT, EXPUNGE...: something to fetch
            if not responses and time.monotonic() - started < wait / 2:
                # imapclient returns at once with nothing when the socket reached EOF;
                # ending IDLE below raises if the connection is really gone.
                break
        client.idle_done()

    def _pause(self, seconds: float, stop: threading.Event) -> None:
        """Sleep `seconds` in small steps, returning early when `stop` is set."""
        left = seconds
        while left > 0 and not stop.is_set():
            step = min(left, 0.1)
            self.sleep(step)
            left -= step


def _shutdown(client: IMAPClient) -> None:
    with contextlib.suppress(Exception):
        client.shutdown()

"""Inbound mail: stored raw before anything else happens, once however often it arrives."""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.message import Message
from email.parser import BytesHeaderParser
from email.utils import getaddresses

import sqlite_utils

from . import header_policy
from .audit import iso, record
from .db import transaction
from .rows import inserted_id

NEW, HANDLED, IGNORED, FAILED = "new", "handled", "ignored", "failed"
# Headers a receiving MTA, filter or mailbox adds or rewrites on each delivery: two
# deliveries of one mail differ in them, so the canonical form leaves them out.
_TRACE = frozenset(
    (
        "received",
        "return-path",
        "delivered-to",
        "x-original-to",
        "envelope-to",
        "status",
        "x-status",
        "x-uid",
        "x-keywords",
        "lines",
        "content-length",
        "authentication-results",
        "arc-authentication-results",
        "arc-message-signature",
        "arc-seal",
        "received-spf",
        "x-virus-scanned",
    )
)
_TRACE_PREFIXES = ("x-spam-", "x-ms-exchange-", "x-mailscanner")


@dataclass(frozen=True)
class Inbound:
    id: int
    raw: bytes
    source: str
    sender: str
    return_path: str | None
    received_at: str


@dataclass(frozen=True)
class Keys:
    """What recognises a mail stored already: its key, and the key the judge gave the
    same mail before senders were part of it (None without a Message-ID)."""

    key: str
    before_senders: str | None
    message_id: str | None
    sender: str


def dedupe_key(raw: bytes) -> tuple[str, str | None, str]:
    """(key, Message-ID, From address). Two deliveries of one mail have one key: the
    Message-ID, the From address and the body where there is a Message-ID, else a hash of
    the headers without trace headers (unfolded) and the body. The same Message-ID with
    another body (a client that reuses one), or from another sender (two players'
    clients that collide, or a stranger who reuses a player's), is another mail."""
    keys = _keys(raw)
    return keys.key, keys.message_id, keys.sender


def _keys(raw: bytes) -> Keys:
    """The keys, Message-ID and From address of `raw`, as dedupe_key describes them."""
    head, body = _split(raw)
    headers = BytesHeaderParser(policy=header_policy.DEFAULT).parsebytes(head + b"\n\n")
    message_id = _header(headers, "Message-ID")
    sender = ""
    try:
        addrs = getaddresses([str(v) for v in headers.get_all("From", [])])
        sender = addrs[0][1].lower() if addrs else ""
    except Exception:  # a From header that cannot be parsed: no sender, never a crash
        sender = ""
    body_digest = hashlib.sha256(body.replace(b"\r\n", b"\n").rstrip()).hexdigest()
    if message_id:
        # Hashed: a stranger's megabyte-long Message-ID makes no megabyte index entry.
        mid = hashlib.sha256(message_id.encode("utf-8", "surrogateescape")).hexdigest()
        before = f"mid:{mid}|{body_digest}"
        return Keys(
            f"mid:{mid}|{_from_digest(head, sender)}|{body_digest}", before, message_id, sender
        )
    digest = hashlib.sha256()
    for name, value in _unfolded(head):
        if name not in _TRACE and not name.startswith(_TRACE_PREFIXES):
            digest.update(f"{name}:{value}\n".encode("utf-8", "surrogateescape"))
    digest.update(b"\n" + body_digest.encode())
    return Keys(f"canon:{digest.hexdigest()}", None, None, sender)


def _from_digest(head: bytes, sender: str) -> str:
    """Who a mail is from, hashed for its key: the From address, or where none can be
    read, the From fields as written (unfolded), so that two unreadable ones differ."""
    if sender:
        text = "address:" + sender
    else:
        text = "fields:" + "\n".join(v for name, v in _unfolded(head) if name == "from")
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


def _split(raw: bytes) -> tuple[bytes, bytes]:
    """Header block and body, at the first empty line whatever the line ends."""
    ends = [(i, len(sep)) for sep in (b"\r\n\r\n", b"\n\n") if (i := raw.find(sep)) >= 0]
    if not ends:
        return raw, b""
    at, size = min(ends)
    return raw[:at], raw[at + size :]


def _unfolded(head: bytes) -> list[tuple[str, str]]:
    """(lower-case name, value with its whitespace collapsed) of each header, a folded
    continuation line belonging to the header above it."""
    # Each field's lines gathered in a list and joined once: a field folded on a million
    # lines made a million ever longer strings (quadratic).
    fields: list[tuple[str, list[str]]] = []
    for line in head.decode("utf-8", "surrogateescape").splitlines():
        if line[:1] in (" ", "\t") and fields:
            fields[-1][1].append(line.strip())
        elif ":" in line:
            name, _, value = line.partition(":")
            fields.append((name.strip().lower(), [" ".join(value.split())]))
        elif line.strip():
            fields.append(("", [" ".join(line.split())]))  # not a header: kept as it is
    return [(name, " ".join(part for part in parts if part)) for name, parts in fields]


def _header(headers: Message, name: str) -> str | None:
    try:
        value = headers.get(name)
    except Exception:
        return None
    return str(value).strip() if value else None


def ingest(
    db: sqlite_utils.Database,
    raw: bytes,
    source: str,
    now: datetime,
    return_path: str | None = None,
) -> int | None:
    """Store one raw message and commit. Returns its id, or None if it was already
    stored: the same key, or the same Message-ID and body from the same sender stored
    before senders were part of the key."""
    keys = _keys(raw)
    with transaction(db):
        if keys.before_senders is not None and _stored_before_senders(db, keys):
            return None
        cur = db.execute(
            "INSERT OR IGNORE INTO inbound (dedupe_key, message_id, sender, return_path, "
            "source, received_at, size, raw, state) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'new')",
            [keys.key, keys.message_id, keys.sender, return_path, source, iso(now), len(raw), raw],
        )
        if cur.rowcount == 0:
            return None
        inbound_id = inserted_id(cur)
        sender = keys.sender
        record(db, now, "inbound", inbound_id, "stored", f"from {sender or '?'} by {source}")
    return inbound_id


def _stored_before_senders(db: sqlite_utils.Database, keys: Keys) -> bool:
    """Whether this mail was stored under the key of a judge before senders were part of
    it (an MTA's retry, or the IMAP copy, of a mail taken in before the upgrade)."""
    row = db.execute(
        "SELECT 1 FROM inbound WHERE dedupe_key = ? AND sender = ?",
        [keys.before_senders, keys.sender],
    ).fetchone()
    return row is not None


def waiting(db: sqlite_utils.Database, limit: int = 100) -> list[Inbound]:
    """Stored messages not handled yet, oldest first."""
    rows = db.execute(
        "SELECT id, raw, source, sender, return_path, received_at FROM inbound "
        "WHERE state = 'new' ORDER BY id LIMIT ?",
        [limit],
    ).fetchall()
    return [Inbound(*row) for row in rows]


def received_at(db: sqlite_utils.Database, inbound_id: int) -> str | None:
    """When the stored message arrived (ISO); None if there is no such message."""
    row = db.execute("SELECT received_at FROM inbound WHERE id = ?", [inbound_id]).fetchone()
    return row[0] if row else None


def mark(
    db: sqlite_utils.Database, inbound_id: int, state: str, now: datetime, error: str | None = None
) -> None:
    """Set a message's state (call inside the transaction that handled it)."""
    db.execute(
        "UPDATE inbound SET state = ?, error = ?, handled_at = ? WHERE id = ?",
        [state, error, iso(now), inbound_id],
    )
    record(db, now, "inbound", inbound_id, state, error)


def count_before(db: sqlite_utils.Database, item: Inbound, hours: float = 1, most: int = 0) -> int:
    """How many messages the sender of `item` sent in the hour up to and including it
    (for the rate limit; mail that arrived after it does not count against it). With
    `most`, counting stops there: a flood costs each message at most that many rows."""
    since = iso(datetime.fromisoformat(item.received_at) - timedelta(hours=hours))
    limit = most if most > 0 else -1
    row = db.execute(
        "SELECT COUNT(*) FROM (SELECT 1 FROM inbound WHERE sender = ? AND id <= ? "
        "AND received_at > ? LIMIT ?)",
        [item.sender, item.id, since, limit],
    ).fetchone()
    return int(row[0])


# -- retries: a message whose handling raised (judge/service/handling.py) --------------


@dataclass(frozen=True)
class Trouble:
    """A message set aside as failed, or waiting for another attempt (for the operator)."""

    id: int
    state: str
    sender: str
    received_at: str
    attempts: int
    next_attempt_at: str | None
    error: str | None
    forgotten: bool = False  # its text emptied (store/retention.FAILED_KEPT_DAYS)


def due(
    db: sqlite_utils.Database,
    now: datetime,
    after_id: int = 0,
    limit: int = 100,
    max_bytes: float = math.inf,
    at_least_one: bool = True,
) -> list[Inbound]:
    """Stored messages not handled yet whose next attempt is due by `now`, past `after_id`,
    oldest first, as many as `max_bytes` of mail hold (the first whatever its size, with
    `at_least_one`). A message waiting out its back-off is left alone, and so is every
    later one from its sender: a sender's mail is handled in the order it came."""
    held = _held_senders(db, now)
    rows = db.execute(
        "SELECT id, raw, source, sender, return_path, received_at FROM inbound "
        "WHERE state = 'new' AND id > ? AND (next_attempt_at IS NULL OR next_attempt_at <= ?) "
        "ORDER BY id LIMIT ?",
        [after_id, iso(now), limit],
    )
    out: list[Inbound] = []
    for row in rows:  # read one by one: the rest of the rows are never loaded
        if row[3] in held and row[0] > held[row[3]]:
            continue  # behind its sender's mail that waits out its back-off
        if (out or not at_least_one) and len(row[1]) > max_bytes:
            break
        max_bytes -= len(row[1])
        out.append(Inbound(*row))
    return out


def _held_senders(db: sqlite_utils.Database, now: datetime) -> dict[str, int]:
    """Each sender with mail waiting out its back-off, and the first such mail's id (a
    mail without a sender holds back no other)."""
    rows = db.execute(
        "SELECT sender, MIN(id) FROM inbound WHERE state = 'new' AND next_attempt_at > ? "
        "AND sender != '' GROUP BY sender",
        [iso(now)],
    )
    return dict(rows.fetchall())


def attempts(db: sqlite_utils.Database, inbound_id: int) -> int:
    """How many attempts to handle the message have failed so far."""
    row = db.execute("SELECT attempts FROM inbound WHERE id = ?", [inbound_id]).fetchone()
    return row[0] if row else 0


def retry_later(
    db: sqlite_utils.Database,
    inbound_id: int,
    now: datetime,
    at: datetime,
    reason: str,
    counted: bool = True,
) -> None:
    """Count one failed attempt (unless not `counted`: a fault of the machine's) and
    leave the message waiting until `at`."""
    db.execute(
        "UPDATE inbound SET attempts = attempts + ?, next_attempt_at = ?, error = ? WHERE id = ?",
        [int(counted), iso(at), reason, inbound_id],
    )
    record(db, now, "inbound", inbound_id, "retry", f"{reason}; next attempt at {iso(at)}")


def give_up(db: sqlite_utils.Database, inbound_id: int, now: datetime, reason: str) -> None:
    """Count the last failed attempt and set the message aside as failed with `reason`."""
    db.execute(
        "UPDATE inbound SET attempts = attempts + 1, next_attempt_at = NULL WHERE id = ?",
        [inbound_id],
    )
    mark(db, inbound_id, FAILED, now, reason)


def troubles(db: sqlite_utils.Database) -> list[Trouble]:
    """Failed messages and those waiting for another attempt, oldest first."""
    rows = db.execute(
        "SELECT id, state, sender, received_at, attempts, next_attempt_at, error, "
        "length(raw) = 0 FROM inbound "
        "WHERE state = 'failed' OR (state = 'new' AND attempts > 0) ORDER BY id"
    ).fetchall()
    return [Trouble(r[0], r[1], r[2], r[3], r[4], r[5], r[6], forgotten=bool(r[7])) for r in rows]


def counts(db: sqlite_utils.Database) -> dict[str, int]:
    """How many inbound messages are in each state (only states that occur)."""
    rows = db.execute("SELECT state, COUNT(*) FROM inbound GROUP BY state ORDER BY state")
    return dict(rows.fetchall())


@dataclass(frozen=True)
class Status:
    """Where a message stands, for `judge inbox --retry`."""

    state: str
    attempts: int  # failed attempts so far
    forgotten: bool = False  # its text emptied (store/retention.py)


def status(db: sqlite_utils.Database, inbound_id: int) -> Status | None:
    """The message's state and failed attempts; None if there is no such message."""
    row = db.execute(
        "SELECT state, attempts, length(raw) = 0 FROM inbound WHERE id = ?", [inbound_id]
    ).fetchone()
    return Status(row[0], row[1], bool(row[2])) if row else None


def retry_now(db: sqlite_utils.Database, inbound_id: int, now: datetime, detail: str) -> None:
    """Set a failed (or waiting) message back to new with a fresh count of attempts."""
    db.execute(
        "UPDATE inbound SET state = 'new', attempts = 0, next_attempt_at = NULL, error = NULL, "
        "handled_at = NULL WHERE id = ?",
        [inbound_id],
    )
    record(db, now, "inbound", inbound_id, "retry", detail)

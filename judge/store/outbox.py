"""Outbound mail: rendered, given its final Message-ID, and queued in the same transaction
as whatever caused it; the drainer (judge/mail/outbox.py) sends it and records the result."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence, Set
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache

import sqlite_utils

from .audit import iso, record, record_many
from .db import transaction
from .rows import inserted_id

QUEUED, SENT, FAILED = "queued", "sent", "failed"


@dataclass(frozen=True)
class Attachment:
    """A board picture that goes with a mail (judge/game/pictures.py): stored once for
    every mail that carries it, attached as each is sent."""

    name: str
    png: bytes


# A picture drawn ahead of its mails' turn (finish_drawn): its JSON, the id of its first
# mail, the picture.
DrawnAhead = tuple[str, int, Attachment]


@dataclass(frozen=True)
class Outbound:
    id: int
    message_id: str
    recipients: tuple[str, ...]
    raw: bytes
    attempts: int
    picture: str | None = None  # what to draw and attach before sending (judge/game/pictures.py)
    direct: bool = False  # a direct answer (DIRECT) with no earlier mail queued to its readers
    attachment: Attachment | None = None  # the picture drawn, attached as it is sent


def queue(
    db: sqlite_utils.Database,
    raw: bytes,
    message_id: str,
    recipients: list[str],
    kind: str,
    now: datetime,
    inbound_id: int | None = None,
    picture: str | None = None,
) -> int:
    """Queue one rendered message (call inside the caller's transaction). `picture`: what
    to draw and attach when it is sent (JSON), for a mail that carries a board picture."""
    [outbound_id] = queue_each(db, [(raw, message_id, recipients)], kind, now, inbound_id, picture)
    return outbound_id


def queue_each(
    db: sqlite_utils.Database,
    mails: Sequence[tuple[bytes, str, list[str]]],
    kind: str,
    now: datetime,
    inbound_id: int | None = None,
    picture: str | None = None,
) -> list[int]:
    """Queue each of `mails` (its message, Message-ID and recipients), all of one kind
    and picture, in the order given; their ids. Inside the caller's transaction (as a
    savepoint), or in one of its own. Each row gets its audit line ("queued": its kind
    and recipients), all in one statement: a game's results are a mail to each reader."""
    at = iso(now)
    with transaction(db):
        ids = [
            inserted_id(
                db.conn.execute(
                    "INSERT INTO outbound (message_id, inbound_id, kind, recipients, raw, "
                    "state, attempts, next_attempt_at, created_at, picture) "
                    "VALUES (?, ?, ?, ?, ?, 'queued', 0, ?, ?, ?)",
                    [message_id, inbound_id, kind, json.dumps(to), raw, at, at, picture],
                )
            )
            for raw, message_id, to in mails
        ]
        detail = [f"{kind} to {', '.join(to)}" for _, _, to in mails]
        record_many(db, now, "outbound", "queued", list(zip(ids, detail, strict=True)))
    return ids


# The kinds of the direct answers to a mail (game/outgoing.py, judge/replies.py): the
# fast lane. A player's acknowledgement is sent before the results of a deadline burst
# queued earlier, but never before an earlier mail to the same address.
DIRECT = ("reply", "signed reply", "limit")
# A game's results (game/outgoing.py): the next lane. Once its picture is drawn, it goes
# before the other mail queued earlier (the notices of the games before it in a burst,
# eight for each results mail) but, again, never before an earlier mail to its readers.
RESULTS = "results"


@dataclass(frozen=True)
class Head:
    """A queued mail as choosing what to send needs it (`due_heads`): not its text, nor
    its stored picture's bytes, which `bodies` reads for the mails chosen."""

    id: int
    recipients: tuple[str, ...]
    picture: str | None = None  # what to draw before sending, not drawn yet
    direct: bool = False  # a direct answer (DIRECT) with no earlier mail queued to its readers


def due(
    db: sqlite_utils.Database,
    now: datetime,
    limit: int = 100,
    exclude: Set[int] = frozenset(),
) -> list[Outbound]:
    """Up to `limit` queued messages due by `now`, whole, in the order to send them (see
    `due_heads`)."""
    return bodies(db, due_heads(db, now, limit, exclude))


def due_heads(
    db: sqlite_utils.Database,
    now: datetime,
    limit: int = 100,
    exclude: Set[int] = frozenset(),
    bulk: bool = True,
) -> list[Head]:
    """Up to `limit` queued messages due by `now`, in the order to send them: first the
    direct answers (DIRECT), then the results (RESULTS) whose picture is drawn (or that
    have none), each with no earlier queued message to the same recipients, then the
    rest, each lane in the order queued, but none behind an earlier message to the
    same recipients that waits out its backoff; none of `exclude` (mails being sent). The
    lanes are found in the queue's partial indexes (migrations 18 and 25), reading no
    more of a deadline burst's queue than is chosen. Each is read without its text: the
    sender reads the mails ahead of its turn on every pass (their pictures begun, the
    first drawn sent first), 50,000 in a 1,000-game burst, and sends 9,000 of them.
    Without `bulk`, the first two lanes alone (the daemon while games are still due)."""
    at = iso(now)
    fast = [i for i in _direct_first(db, at) if i not in exclude][:limit]
    skip = exclude | set(fast)
    results = _results_first(db, at, limit - len(fast), skip)
    room = limit - len(fast) - len(results)
    slow = _in_order(db, at, room, skip | set(results)) if bulk else []
    chosen = _not_held_back(db, at, (fast + results + slow)[:limit])
    if not chosen:
        return []
    direct = set(fast)
    marks = ", ".join("?" for _ in chosen)
    found: dict[int, Head] = {}
    for outbound_id, recipients, picture in db.execute(
        f"SELECT id, recipients, picture FROM outbound WHERE id IN ({marks})", chosen
    ).fetchall():
        to = _recipients(recipients)
        if isinstance(to, str):  # damaged on disk: set aside, never sent, shown to the operator
            mark_failed(db, outbound_id, now, f"its recipients do not read: {to}")
            continue
        found[outbound_id] = Head(outbound_id, to, picture, outbound_id in direct)
    return [found[i] for i in chosen if i in found]


def bodies(db: sqlite_utils.Database, heads: Sequence[Head]) -> list[Outbound]:
    """`heads` whole, in their order: each with its text, and its picture when stored (a
    mail sent or set aside meanwhile is left out)."""
    if not heads:
        return []
    marks = ", ".join("?" for _ in heads)
    rows = db.execute(
        "SELECT id, message_id, raw, attempts, picture, picture_id FROM outbound "
        f"WHERE id IN ({marks}) AND state = 'queued'",
        [h.id for h in heads],
    ).fetchall()
    attachments = _attachments(db, {r[5] for r in rows if r[5] is not None})
    by_id = {r[0]: r for r in rows}
    out = []
    for head in heads:
        r = by_id.get(head.id)
        if r is not None:
            outbound_id, message_id, raw, attempts, picture, picture_id = r
            attachment = attachments.get(picture_id) if picture_id is not None else None
            out.append(
                Outbound(
                    outbound_id,
                    message_id,
                    head.recipients,
                    raw,
                    attempts,
                    picture,
                    head.direct,
                    attachment,
                )
            )
    return out


def _attachments(db: sqlite_utils.Database, picture_ids: Set[int]) -> dict[int, Attachment]:
    """The stored pictures of `picture_ids`, each read once: the mails that carry one
    share it (one object, so its base64 is computed once: judge/mail/compose)."""
    if not picture_ids:
        return {}
    marks = ", ".join("?" for _ in picture_ids)
    return {
        picture_id: Attachment(name, png)
        for picture_id, name, png in db.execute(
            f"SELECT id, name, png FROM pictures WHERE id IN ({marks})", list(picture_ids)
        )
    }


# The sender reads the recipients of the mails ahead on each pass, the same ones again
# and again (50,000 reads for 9,000 mails in a 1,000-game burst): each text parsed once.
@lru_cache(maxsize=4096)
def _recipients(text: str) -> tuple[str, ...] | str:
    """A mail's stored recipients, or why they do not read (a disk fault, a hand edit)."""
    try:
        value = json.loads(text)
    except (ValueError, TypeError) as e:
        return str(e)
    if not isinstance(value, list) or not all(isinstance(a, str) for a in value):
        return f"not a list of addresses: {text[:80]!r}"
    return tuple(value)


PICTURE_READERS = 10  # mails per picture read ahead: seven powers, a master, the list, one more


def pictures_ahead(db: sqlite_utils.Database, count: int) -> list[tuple[str, int]]:
    """The next `count` pictures to draw, distinct, in the order their mails were queued:
    those of the mails queued with one and not yet finished, each as (its JSON, the id of
    its first mail)."""
    # Made distinct by SQLite among the first mails (the mails of one phase of one game
    # share their picture: a results mail to each reader, a copy to the list).
    rows = db.execute(
        "SELECT picture, MIN(id) AS first FROM (SELECT id, picture FROM outbound "
        "INDEXED BY idx_outbound_to_draw WHERE state = 'queued' AND picture IS NOT NULL "
        "ORDER BY id LIMIT ?) GROUP BY picture ORDER BY first LIMIT ?",
        [count * PICTURE_READERS, count],
    )
    return [(spec, first) for spec, first in rows]


# The mails one picture finishes early (finish_drawn) are found among the next
# CARRIERS_SCANNED mails still to draw from its first: a game's results mails are queued
# together, one to each seat (up to 7 powers, 10 masters, 50 observers) and the list.
# One queued further on is finished as it is sent, its picture drawn again then.
CARRIERS_SCANNED = 100


def finish_drawn(
    db: sqlite_utils.Database,
    drawn: Sequence[DrawnAhead],
    now: datetime,
) -> None:
    """Store, in one transaction, each picture drawn ahead of its mails' turn to be sent
    (its JSON, the id of its first mail, the picture), and finish the queued mails that
    carry it (see finish_many): the picture then leaves the daemon's memory, and the
    workers draw on while the mails wait their turn."""
    if not drawn:
        return
    with transaction(db):
        finished: list[tuple[int, str, Attachment | None]] = []
        for spec, first, attachment in drawn:
            rows = db.execute(
                "SELECT id, picture = ? FROM outbound INDEXED BY idx_outbound_to_draw "
                "WHERE state = 'queued' AND picture IS NOT NULL AND id >= ? ORDER BY id "
                "LIMIT ?",
                [spec, first, CARRIERS_SCANNED],
            )
            finished += [(outbound_id, spec, attachment) for outbound_id, same in rows if same]
        finish_many(db, finished, now)


# A mail waiting out its backoff holds back the later mails to the same recipients for its
# first HOLD_TRIES failed tries (1, 2 and 4 minutes apart: a relay down for a while), not
# for the three days of its 78: one that keeps failing, through a fault of its own, then
# lets them by.
HOLD_TRIES = 3


def _not_held_back(db: sqlite_utils.Database, at: str, chosen: list[int]) -> list[int]:
    """`chosen` without the mails that an earlier mail to the same recipients, waiting out
    its backoff after a failure, must go before (see HOLD_TRIES): mail to one address
    goes in the order queued, a retry too. (The direct answers were chosen so already:
    _direct_first.)"""
    if not chosen:
        return chosen
    marks = ", ".join("?" for _ in chosen)
    held = {
        outbound_id
        for (outbound_id,) in db.execute(
            f"SELECT o.id FROM outbound o WHERE o.id IN ({marks}) AND EXISTS (SELECT 1 FROM "
            "outbound e INDEXED BY idx_outbound_queued_to WHERE e.state = 'queued' AND "
            "e.recipients = o.recipients AND e.id < o.id AND e.next_attempt_at > ? "
            "AND e.attempts <= ?)",
            [*chosen, at, HOLD_TRIES],
        )
    }
    return [i for i in chosen if i not in held] if held else chosen


def _in_order(db: sqlite_utils.Database, at: str, limit: int, skip: Set[int]) -> list[int]:
    """Up to `limit` queued mails due by `at`, none of `skip`, in the order queued."""
    chosen: list[int] = []
    if limit <= 0:
        return chosen
    rows = db.execute(
        "SELECT id FROM outbound INDEXED BY idx_outbound_queued "
        "WHERE state = 'queued' AND next_attempt_at <= ? ORDER BY id",
        [at],
    )
    for (outbound_id,) in rows:  # read as far as needed: the cursor stops here
        if outbound_id not in skip:
            chosen.append(outbound_id)
            if len(chosen) >= limit:
                break
    return chosen


def _results_first(db: sqlite_utils.Database, at: str, limit: int, skip: Set[int]) -> list[int]:
    """Up to `limit` results mails due by `at` and ready to send (their picture stored,
    or none to draw), none of `skip`, in the order queued: those of a mail each of whose
    copies (results_together: one row for each reader) has no earlier queued mail to its
    reader. A mail's copies are taken together or not at all, so that the relay is
    still given them in one transaction."""
    if limit <= 0:
        return []
    wanted = limit + len(skip) + MAX_COPIES
    rows = db.execute(
        "SELECT id, message_id FROM outbound INDEXED BY idx_outbound_results_ready "
        # The kind written out, not bound: SQLite uses a partial index only for a query
        # it can see implies the index's own WHERE.
        f"WHERE state = 'queued' AND kind = '{RESULTS}' AND picture IS NULL "
        "AND next_attempt_at <= ? ORDER BY id LIMIT ?",
        [at, wanted],
    ).fetchall()
    copies: dict[str, list[int]] = {}  # each mail's copies, in the order queued
    for outbound_id, message_id in rows:
        copies.setdefault(message_id, []).append(outbound_id)
    if len(rows) == wanted:  # the last mail's copies may go on beyond what was read
        copies.popitem()
    behind = _behind_earlier(db, [i for ids in copies.values() for i in ids if i not in skip])
    chosen: list[int] = []
    for ids in copies.values():
        ready = [i for i in ids if i not in skip]
        if behind.intersection(ready) or len(chosen) + len(ready) > limit:
            continue
        chosen += ready
    return chosen


# A results mail's copies read at once beyond what the lane may take: a game's readers
# (7 powers, 10 masters, 50 observers) are fewer.
MAX_COPIES = 100


# Whether a queued mail `o` has an earlier mail queued to the same recipients, which it
# never goes before (the lanes: `_direct_first`, `_results_first`).
_EARLIER_TO_THE_SAME = (
    "EXISTS (SELECT 1 FROM outbound e INDEXED BY idx_outbound_queued_to "
    "WHERE e.state = 'queued' AND e.recipients = o.recipients AND e.id < o.id)"
)


def _behind_earlier(db: sqlite_utils.Database, ids: list[int]) -> set[int]:
    """Those of `ids` with an earlier queued mail to the same recipients."""
    if not ids:
        return set()
    marks = ", ".join("?" for _ in ids)
    return {
        outbound_id
        for (outbound_id,) in db.execute(
            f"SELECT o.id FROM outbound o WHERE o.id IN ({marks}) AND {_EARLIER_TO_THE_SAME}",
            ids,
        )
    }


def _direct_first(db: sqlite_utils.Database, at: str) -> list[int]:
    """The direct answers due by `at` with no earlier queued mail to their recipients,
    in the order queued."""
    kinds = ", ".join("?" for _ in DIRECT)
    rows = db.execute(
        "SELECT o.id FROM outbound o INDEXED BY idx_outbound_queued_kind "
        f"WHERE o.state = 'queued' AND o.kind IN ({kinds}) AND o.next_attempt_at <= ? "
        f"AND NOT {_EARLIER_TO_THE_SAME} ORDER BY o.id",
        [*DIRECT, at],
    )
    return [outbound_id for (outbound_id,) in rows]


def finish_many(
    db: sqlite_utils.Database,
    finished: Sequence[tuple[int, str, Attachment | None]],
    now: datetime,
) -> None:
    """Store, in one transaction, what each mail queued with a picture is sent with:
    (its id, the JSON the picture was drawn from, the picture or None for its text
    alone). Each picture is stored once, however many mails carry it; a mail finished
    before keeps what it had: what may have been sent is never changed."""
    if not finished:
        return
    with transaction(db):
        stored: dict[str, int] = {}
        rows: list[tuple[int | None, int]] = []
        for outbound_id, spec, attachment in finished:
            picture_id = None
            if attachment is not None:
                if spec not in stored:
                    stored[spec] = _store_picture(db, spec, attachment, now)
                picture_id = stored[spec]
            rows.append((picture_id, outbound_id))
        # Each statement once for all (executemany): a burst finishes 8,000 mails.
        db.conn.executemany(
            "UPDATE outbound SET picture = NULL, picture_id = ? "
            "WHERE id = ? AND picture IS NOT NULL",
            rows,
        )
        done = [(i, f"picture {p}" if p else "its text alone") for p, i in rows]
        record_many(db, now, "outbound", "pictured", done)


def _store_picture(
    db: sqlite_utils.Database, spec: str, attachment: Attachment, now: datetime
) -> int:
    """The id of the picture drawn from `spec`, stored now unless it was before."""
    digest = hashlib.sha256(spec.encode()).hexdigest()
    db.execute(
        "INSERT OR IGNORE INTO pictures (spec_sha256, name, png, created_at) VALUES (?, ?, ?, ?)",
        [digest, attachment.name, attachment.png, iso(now)],
    )
    row = db.execute("SELECT id FROM pictures WHERE spec_sha256 = ?", [digest]).fetchone()
    picture_id: int = row[0]
    return picture_id


def next_attempt(db: sqlite_utils.Database) -> str | None:
    """When the earliest queued message is due (ISO), or None."""
    row = db.execute("SELECT MIN(next_attempt_at) FROM outbound WHERE state = 'queued'").fetchone()
    due_at: str | None = row[0]  # NULL when nothing is queued
    return due_at


def mark_sent(db: sqlite_utils.Database, outbound_id: int, now: datetime, how: str) -> None:
    mark_sent_many(db, [(outbound_id, how)], now)


def mark_sent_many(
    db: sqlite_utils.Database, sent: Sequence[tuple[int, str]], now: datetime
) -> None:
    """Record messages as sent, (id, how) each, in one transaction: one commit for a
    slice of the drain."""
    if not sent:
        return
    at = iso(now)
    # Each statement once for the slice (executemany), not once for each mail: a burst
    # marks 24,000 mails sent.
    with transaction(db):
        db.conn.executemany(
            "UPDATE outbound SET state = 'sent', sent_at = ?, attempts = attempts + 1, "
            "last_error = NULL WHERE id = ?",
            [(at, outbound_id) for outbound_id, _ in sent],
        )
        record_many(db, now, "outbound", "sent", sent)


def mark_retry(
    db: sqlite_utils.Database,
    outbound_id: int,
    now: datetime,
    error: str,
    delay: timedelta,
    recipients: Sequence[str] | None = None,
    counted: bool = True,
) -> None:
    """Try the message again after `delay`; to `recipients` only, when given (the relay
    took it for the others); counting the try unless not `counted` (a fault of the
    machine's: the outbox's disk full)."""
    with transaction(db):
        _narrow(db, outbound_id, recipients)
        db.execute(
            "UPDATE outbound SET attempts = attempts + ?, last_error = ?, next_attempt_at = ? "
            "WHERE id = ?",
            [int(counted), error, iso(now + delay), outbound_id],
        )
        again = f" to {', '.join(recipients)}" if recipients else ""
        record(db, now, "outbound", outbound_id, "retry", f"{error}; next try{again} in {delay}")


def mark_failed(
    db: sqlite_utils.Database,
    outbound_id: int,
    now: datetime,
    error: str,
    recipients: Sequence[str] | None = None,
) -> None:
    """Give the message up; for `recipients` only, when given (the others took it)."""
    with transaction(db):
        _narrow(db, outbound_id, recipients)
        db.execute(
            "UPDATE outbound SET state = 'failed', attempts = attempts + 1, last_error = ? "
            "WHERE id = ?",
            [error, outbound_id],
        )
        record(db, now, "outbound", outbound_id, "failed", error)


def _narrow(db: sqlite_utils.Database, outbound_id: int, recipients: Sequence[str] | None) -> None:
    """The message's recipients made `recipients`, when given: those still to get it."""
    if recipients:
        db.execute(
            "UPDATE outbound SET recipients = ? WHERE id = ?",
            [json.dumps(list(recipients)), outbound_id],
        )


# -- for the operator (`judge outbox`) ------------------------------------------------------


def counts(db: sqlite_utils.Database) -> dict[str, int]:
    """How many outbound messages are in each state (only states that occur)."""
    rows = db.execute("SELECT state, COUNT(*) FROM outbound GROUP BY state ORDER BY state")
    return dict(rows.fetchall())


@dataclass(frozen=True)
class Unsent:
    """A message queued or failed, as the operator sees it (never its text)."""

    id: int
    state: str
    kind: str
    attempts: int
    next_attempt_at: str | None
    recipients: tuple[str, ...]
    last_error: str | None


def unsent(db: sqlite_utils.Database) -> list[Unsent]:
    """Every message queued or failed, oldest first."""
    rows = db.execute(
        "SELECT id, state, kind, attempts, next_attempt_at, recipients, last_error FROM outbound "
        "WHERE state IN ('queued', 'failed') ORDER BY id"
    ).fetchall()
    return [
        Unsent(id_, state, kind, attempts, next_at, _shown_recipients(to), error)
        for id_, state, kind, attempts, next_at, to, error in rows
    ]


def _shown_recipients(text: str) -> tuple[str, ...]:
    """The recipients for the operator's list; a damaged value as it is stored."""
    to = _recipients(text)
    return (repr(text[:80]),) if isinstance(to, str) else to


def state(db: sqlite_utils.Database, outbound_id: int) -> str | None:
    """The message's state; None if there is no such message."""
    row = db.execute("SELECT state FROM outbound WHERE id = ?", [outbound_id]).fetchone()
    return row[0] if row else None


@dataclass(frozen=True)
class Retryable:
    """A message `judge outbox --retry` may make due now."""

    id: int
    state: str
    attempts: int


def retryable(db: sqlite_utils.Database, outbound_id: int | None = None) -> list[Retryable]:
    """Queued and failed messages (or the one message `outbound_id`, whatever its state),
    oldest first."""
    if outbound_id is None:
        selected, params = "state IN ('queued', 'failed')", []
    else:
        selected, params = "id = ?", [outbound_id]
    rows = db.execute(
        f"SELECT id, state, attempts FROM outbound WHERE {selected} ORDER BY id", params
    ).fetchall()
    return [Retryable(*row) for row in rows]


def retry_now(db: sqlite_utils.Database, message: Retryable, now: datetime, detail: str) -> None:
    """Make the message due at `now`; a failed one is queued again with a fresh count of
    attempts (so it gets the full series of retries). Call inside the caller's
    transaction."""
    attempts = 0 if message.state == FAILED else message.attempts
    db.execute(
        "UPDATE outbound SET state = 'queued', next_attempt_at = ?, attempts = ? WHERE id = ?",
        [iso(now), attempts, message.id],
    )
    record(db, now, "outbound", message.id, "retry", detail)

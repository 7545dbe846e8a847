"""The IMAP poller bounds what a mailbox of huge messages can take in memory: sizes first,
bodies by groups of at most FETCH_BYTES, and a message over the cap fetched only up to
cap + 1 bytes, stored so and answered "too large". Against a real Dovecot (tests/servers.py),
with small limits: max_message_bytes 1,000 and a cap of 10,000 bytes.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from judge_harness import Judge
from live_judge import player_mail
from servers import Dovecot, imap_config
from test_imap import SEEN, logger

from judge.config import Config
from judge.mail import imap_in, intake
from judge.mail.imap_in import ConnectionLost, Group, ImapInbound, message_size, plan_groups
from judge.service.daemon import run_once
from judge.service.handling import handle_waiting
from judge.store import inbox

MAX_BYTES = 1_000
CAP = 10_000  # fetch_cap(MAX_BYTES) once CAP_MINIMUM is 10,000
TOO_LARGE = (
    "Your mail to the TEST judge was {size} bytes long, more than the\n"
    "1000 bytes the judge reads, so it was not processed.\n"
    "\n"
    "Please send your commands again as plain text, without attachments.\n"
)


@pytest.fixture(autouse=True)
def small_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(intake, "CAP_MINIMUM", CAP)
    assert imap_in.fetch_cap(MAX_BYTES) == CAP


def sized(size: int, subject: str = "orders") -> bytes:
    """A player's mail (a new sender each time) of exactly `size` bytes: its body is
    lines of x, with CRLF, as Dovecot counts RFC822.SIZE."""
    head = player_mail(subject, body="")
    fill = size - len(head)
    assert fill >= 2
    lines = (b"x" * 78 + b"\r\n") * (fill // 80)
    rest = fill - len(lines)
    raw = head + lines + (b"x" * (rest - 2) + b"\r\n" if rest else b"")
    assert len(raw) == size
    return raw


def sender(raw: bytes) -> str:
    """The address in a mail's From: line."""
    line = raw.split(b"\r\n", 1)[0].decode()
    return line.split("<", 1)[1].rstrip(">")


def recording(inbound: ImapInbound) -> list[tuple[list[int], list[str]]]:
    """Every FETCH the poller sends from now on: its UIDs and items, in order."""
    calls: list[tuple[list[int], list[str]]] = []
    connect = inbound.connect

    def connected() -> object:
        client = connect()
        fetch = client.fetch
        if not getattr(client, "recorded", False):  # once per connection

            def recorded_fetch(uids: list[int], items: list[str], *args: object) -> object:
                calls.append((list(uids), list(items)))
                return fetch(uids, items, *args)

            client.recorded = True  # a mark of this test's
            client.fetch = recorded_fetch
        return client

    inbound.connect = connected  # type: ignore[method-assign]  # the test stands in the way
    return calls


def stored_raws(judge: Judge) -> list[bytes]:
    return [r[0] for r in judge.db.execute("SELECT raw FROM inbound ORDER BY id").fetchall()]


def poller(dovecot: Dovecot, judge: Judge, log: logging.Logger | None = None) -> ImapInbound:
    """The poller storing into `judge`'s store, with the judge's limit."""
    return ImapInbound(
        imap_config(dovecot),
        lambda raw: inbox.ingest(judge.db, raw, "imap", judge.now),
        log=log,
        max_message_bytes=judge.config.max_message_bytes,
    )


# -- the plan, alone -------------------------------------------------------------------------


def test_groups_are_bounded_in_bytes_and_keep_the_uid_order() -> None:
    sizes: dict[int, int | None] = {1: 1000, 2: 1000, 3: 900, 4: 25_000, 5: None, 7: 9_000, 8: 1}
    # 6 was expunged since the search: it has no size
    assert plan_groups([1, 2, 3, 4, 5, 6, 7, 8], sizes, cap=CAP, bound=2_500) == [
        Group((1, 2), False),
        Group((3,), False),
        Group((4,), True),  # over the cap: cap + 1 bytes, more than the bound alone
        Group((5,), True),  # no size given: as large
        Group((7,), False),  # under the cap: whole, alone over the bound
        Group((8,), False),
    ]
    # partial fetches share a group when the bound allows (each counts cap + 1)
    assert plan_groups([1, 2, 3, 4], {1: 1, 2: 10_001, 3: None, 4: 99_999}, CAP, 25_000) == [
        Group((1,), False),
        Group((2, 3), True),
        Group((4,), True),
    ]
    assert plan_groups([1, 2], {}, CAP, 2_500) == []


def test_a_missing_or_garbage_size_is_none() -> None:
    assert message_size({b"RFC822.SIZE": 1234}) == 1234
    assert message_size({b"RFC822.SIZE": 0}) == 0
    for garbage in (b"1234", b"lots", -1, None, True, 12.5):
        assert message_size({b"RFC822.SIZE": garbage}) is None
    assert message_size({b"SEQ": 3}) is None


# -- against Dovecot -------------------------------------------------------------------------


def test_a_message_over_the_cap_is_stored_cut_answered_too_large_and_moved(
    dovecot: Dovecot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(imap_in, "FETCH_BYTES", 2_500)
    raws = [sized(1000), sized(1000), sized(900), sized(25_000), sized(9_000), sized(500)]
    huge, large = raws[3], raws[4]
    for raw in raws:
        dovecot.append(raw)
    judge = Judge(tmp_path, max_message_bytes=MAX_BYTES)
    inbound = poller(dovecot, judge)
    fetches = recording(inbound)
    try:
        assert inbound.fetch_once() == 6
    finally:
        inbound.close()

    whole, cut = ["BODY.PEEK[]"], [f"BODY.PEEK[]<0.{CAP + 1}>"]
    assert fetches == [
        ([1, 2, 3, 4, 5, 6], ["RFC822.SIZE"]),
        ([1, 2], whole),  # 2,000 bytes; with the third, 2,900: over FETCH_BYTES
        ([3], whole),
        ([4], cut),  # 25,000 bytes: only the first cap + 1
        ([5], whole),  # 9,000: under the cap, whole, alone over FETCH_BYTES
        ([6], whole),
    ]
    assert stored_raws(judge) == [*raws[:3], huge[: CAP + 1], large, raws[5]]
    assert dovecot.messages("INBOX") == []
    assert dovecot.messages("processed") == raws  # moved whole, as any other
    assert all(SEEN in flags for flags in dovecot.flags("processed"))

    handle_waiting(judge.db, judge.config, lambda: judge.now)
    answers = [m for m in judge._since(0) if m.subject.endswith("(too large)")]
    assert [(m.to, m.subject, m.body) for m in answers] == [
        ([sender(huge)], "Re: TEST orders (too large)", TOO_LARGE.format(size=f"more than {CAP}")),
        ([sender(large)], "Re: TEST orders (too large)", TOO_LARGE.format(size=9_000)),
    ]
    states = judge.db.execute("SELECT state, error FROM inbound ORDER BY id").fetchall()
    assert states[3] == ("ignored", f"too large: {CAP + 1} bytes")
    assert [s for s, _ in states] == ["handled"] * 3 + ["ignored"] * 2 + ["handled"]


def test_a_message_expunged_after_its_size_was_asked_is_skipped(
    dovecot: Dovecot, tmp_path: Path
) -> None:
    raws = [sized(300), sized(400), sized(20_000), sized(500)]
    for raw in raws:
        dovecot.append(raw)
    judge = Judge(tmp_path, max_message_bytes=MAX_BYTES)
    log, records = logger("expunged")
    inbound = poller(dovecot, judge, log=log)
    client = inbound.connect()
    fetch = client.fetch

    def fetch_then_expunge(uids: list[int], items: list[str], *args: object) -> object:
        answer = fetch(uids, items, *args)
        if items == ["RFC822.SIZE"]:  # someone else expunges 2 and 3 meanwhile
            with dovecot.client() as other:
                other.select_folder("INBOX")
                other.add_flags([2, 3], [b"\\Deleted"])
                other.expunge()
            # Dovecot still serves a message expunged elsewhere until this session has
            # synchronised; a NOOP makes it do so, as a later moment would.
            client.noop()
        return answer

    client.fetch = fetch_then_expunge
    try:
        assert inbound.fetch_once() == 2
    finally:
        inbound.close()
    assert stored_raws(judge) == [raws[0], raws[3]]
    assert dovecot.messages("INBOX") == []
    assert dovecot.messages("processed") == [raws[0], raws[3]]
    assert records.warnings() == []
    gone = [r.getMessage() for r in records.records if "gone" in r.getMessage()]
    assert gone == [f"IMAP: message UID {uid} is gone from INBOX; skipped" for uid in (2, 3)]


Change = Callable[
    [int, dict[bytes, object]], dict[bytes, object]
]  # (UID, the server's answer for it) -> the answer seen


def _answering(inbound: ImapInbound, change: dict[str, Change]) -> None:
    """The poller sees each FETCH answer for an item named in `change` (without its
    partial range) as `change`'s function makes it, message by message."""
    client = inbound.connect()
    fetch = client.fetch

    def altered(uids: list[int], items: list[str], *args: object) -> object:
        answer = fetch(uids, items, *args)
        alter = change.get(items[0].split("<")[0])
        if alter is None:
            return answer
        return {uid: alter(uid, data) for uid, data in answer.items()}

    client.fetch = altered


def test_a_server_giving_no_size_or_garbage_makes_partial_fetches(
    dovecot: Dovecot, tmp_path: Path
) -> None:
    raws = [sized(300), sized(20_000), sized(400)]
    for raw in raws:
        dovecot.append(raw)
    judge = Judge(tmp_path, max_message_bytes=MAX_BYTES)
    inbound = poller(dovecot, judge)
    fetches = recording(inbound)
    garbage: dict[int, dict[bytes, object]] = {
        1: {b"SEQ": 1},
        2: {b"RFC822.SIZE": b"big"},
        3: {b"RFC822.SIZE": None},
    }
    _answering(inbound, {"RFC822.SIZE": lambda uid, data: garbage[uid]})
    try:
        assert inbound.fetch_once() == 3
    finally:
        inbound.close()
    # all three as large: one partial group (3 x 10,001 bytes are under 16 MB)
    assert fetches[1:] == [([1, 2, 3], [f"BODY.PEEK[]<0.{CAP + 1}>"])]
    assert stored_raws(judge) == [raws[0], raws[1][: CAP + 1], raws[2]]
    assert dovecot.messages("processed") == raws


def test_a_server_sending_more_than_asked_is_cut_to_cap_plus_one(
    dovecot: Dovecot, tmp_path: Path
) -> None:
    raws = [sized(20_000), sized(300)]
    for raw in raws:
        dovecot.append(raw)
    judge = Judge(tmp_path, max_message_bytes=MAX_BYTES)
    inbound = poller(dovecot, judge)
    fetches = recording(inbound)
    # the size lies (100 bytes): the body is fetched whole, and sends 20,000
    _answering(inbound, {"RFC822.SIZE": lambda uid, data: {**data, b"RFC822.SIZE": 100}})
    try:
        assert inbound.fetch_once() == 2
    finally:
        inbound.close()
    assert fetches[1:] == [([1, 2], ["BODY.PEEK[]"])]
    assert stored_raws(judge) == [raws[0][: CAP + 1], raws[1]]


@pytest.mark.parametrize("body", [None, b""])
def test_a_message_whose_fetch_returns_nothing_stays_for_the_next_pass(
    dovecot: Dovecot, tmp_path: Path, body: bytes | None
) -> None:
    raws = [sized(300), sized(20_000), sized(400)]
    for raw in raws:
        dovecot.append(raw)
    judge = Judge(tmp_path, max_message_bytes=MAX_BYTES)
    log, records = logger(f"nothing-{body!r}")
    inbound = poller(dovecot, judge, log=log)
    key = b"BODY[]<0>"

    def emptied(uid: int, data: dict[bytes, object]) -> dict[bytes, object]:
        return {**data, key: body} if key in data else data

    _answering(inbound, {"BODY.PEEK[]": emptied})
    try:
        assert inbound.fetch_once() == 2
        assert inbound.failed == 0 and inbound.failed_uids == {2}  # IDLE is not skipped
    finally:
        inbound.close()
    assert stored_raws(judge) == [raws[0], raws[2]]
    assert dovecot.messages("INBOX") == [raws[1]]
    assert SEEN not in dovecot.flags("INBOX")[0]
    assert records.warnings() == [
        "IMAP: the server sent no body for message UID 2 in INBOX; it stays in the mailbox "
        "and will be tried again"
    ]
    again = poller(dovecot, judge)  # an honest answer on the next pass
    try:
        assert again.fetch_once() == 1
    finally:
        again.close()
    assert stored_raws(judge) == [raws[0], raws[2], raws[1][: CAP + 1]]
    assert dovecot.messages("INBOX") == []


def test_the_daemon_gives_the_poller_the_judges_limit(dovecot: Dovecot, tmp_path: Path) -> None:
    huge = sized(30_000)
    dovecot.append(huge)
    config = Config(
        name="TEST",
        address="judge@example.org",
        database=tmp_path / "judge.db",
        max_message_bytes=MAX_BYTES,
        inbound_mode="imap",
        imap=replace(imap_config(dovecot), poll_seconds=60),
        maildir=tmp_path / "outbox",
    )
    assert run_once(config)["fetched"] == 1
    judge = Judge(tmp_path, database=config.database, max_message_bytes=MAX_BYTES)
    assert stored_raws(judge) == [huge[: CAP + 1]]
    [answer] = judge._since(0)
    assert (answer.to, answer.subject) == ([sender(huge)], "Re: TEST orders (too large)")
    assert answer.body == TOO_LARGE.format(size=f"more than {CAP}")
    assert dovecot.messages("processed") == [huge]


def test_a_cut_message_fetched_again_after_a_failure_to_move_is_stored_once(
    dovecot: Dovecot, tmp_path: Path
) -> None:
    huge = sized(30_000)
    dovecot.append(huge)
    judge = Judge(tmp_path, max_message_bytes=MAX_BYTES)
    ids: list[int | None] = []
    inbound = ImapInbound(
        imap_config(dovecot),
        lambda raw: ids.append(inbox.ingest(judge.db, raw, "imap", judge.now)),
        max_message_bytes=MAX_BYTES,
    )
    move = inbound._move

    def lost(client: object, uids: list[int]) -> None:  # it breaks between storing and moving
        raise ConnectionLost("gone")

    inbound._move = lost  # type: ignore[method-assign]  # the test breaks the connection
    try:
        with pytest.raises(ConnectionLost):
            inbound.fetch_once()
        assert dovecot.messages("INBOX") == [huge]  # stored, neither seen nor moved
        assert SEEN not in dovecot.flags("INBOX")[0]
        inbound._move = move  # type: ignore[method-assign]  # the connection is back
        assert inbound.fetch_once() == 1
    finally:
        inbound.close()
    assert ids[0] is not None and ids[1:] == [None]  # the same cap + 1 bytes: a duplicate
    assert stored_raws(judge) == [huge[: CAP + 1]]
    assert dovecot.messages("processed") == [huge]

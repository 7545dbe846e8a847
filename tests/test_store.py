"""The store: schema, migrations, deduplication, outbox bookkeeping, audit rows."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from judge.store import games, inbox, limits, outbox
from judge.store.db import Peek, migrate, open_db, peek, schema_version, transaction
from judge.store.header_policy import MAX_FIELD
from judge.store.schema import MIGRATIONS

NOW = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)
MAIL = b"From: Bob <Bob@Example.org>\r\nMessage-ID: <1@x>\r\nSubject: hi\r\n\r\nA Par-Bur\r\n"


def test_a_new_database_is_wal_with_foreign_keys_at_the_latest_schema(tmp_path: Path) -> None:
    db = open_db(tmp_path / "sub" / "judge.db")
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert schema_version(db) == len(MIGRATIONS)
    assert {"inbound", "outbound", "audit", "rate_notice"} <= set(db.table_names())


def test_migrations_run_forward_once(tmp_path: Path) -> None:
    calls: list[int] = []
    steps = [lambda db: calls.append(1), lambda db: calls.append(2)]
    db = open_db(tmp_path / "j.db")
    db.execute("PRAGMA user_version = 0")
    db.conn.commit()
    for name in ["inbound", "outbound", "audit", "rate_notice"]:
        db[name].drop()
    migrate(db, steps)
    migrate(db, steps)
    assert calls == [1, 2] and schema_version(db) == 2


def test_a_database_newer_than_the_judge_is_refused(tmp_path: Path) -> None:
    db = open_db(tmp_path / "j.db")
    db.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    db.conn.commit()
    with pytest.raises(RuntimeError, match="upgrade the judge"):
        migrate(db)


def test_the_same_mail_is_stored_once_however_it_arrives(tmp_path: Path) -> None:
    db = open_db(tmp_path / "j.db")
    first = inbox.ingest(db, MAIL, "smtp", NOW)
    assert first == 1
    assert inbox.ingest(db, MAIL, "smtp", NOW) is None
    # A second delivery by another route adds trace headers: still the same mail.
    rerouted = b"Received: from relay\r\nReturn-Path: <bob@example.org>\r\n" + MAIL
    assert inbox.ingest(db, rerouted, "imap", NOW) is None
    # The same Message-ID with other content is another message.
    assert inbox.ingest(db, MAIL.replace(b"Bur", b"Pic"), "smtp", NOW) == 2
    rows = list(db["inbound"].rows)
    assert [(r["id"], r["sender"], r["state"], r["message_id"]) for r in rows] == [
        (1, "bob@example.org", "new", "<1@x>"),
        (2, "bob@example.org", "new", "<1@x>"),
    ]
    assert [(a["entity_id"], a["event"]) for a in db["audit"].rows] == [
        (1, "stored"),
        (2, "stored"),
    ]


FOLDED = (
    b"Received: from relay{n}.example.net (relay{n}.example.net [192.0.2.{n}])\r\n"
    b"\tby mx.example.org with ESMTP id Q{n}\r\n"
    b"\tfor <judge@example.org>; Thu, 26 Nov 2026 08:0{n}:00 +0000\r\n"
)


@pytest.mark.parametrize("mail", [MAIL, MAIL.replace(b"Message-ID: <1@x>\r\n", b"")])
def test_trace_headers_folded_over_lines_do_not_make_another_mail(mail: bytes) -> None:
    # An MTA that delivers a mail twice writes other Received lines, folded as they are.
    first = FOLDED.replace(b"{n}", b"1") + mail
    second = FOLDED.replace(b"{n}", b"2") + FOLDED.replace(b"{n}", b"3") + mail
    later = b"X-Spam-Status: No, score=-1.0\r\nDelivered-To: judge@example.org\r\n" + mail
    assert inbox.dedupe_key(first) == inbox.dedupe_key(second) == inbox.dedupe_key(later)
    assert inbox.dedupe_key(mail)[0] == inbox.dedupe_key(first)[0]


def test_without_a_message_id_the_other_headers_still_count() -> None:
    mail = MAIL.replace(b"Message-ID: <1@x>\r\n", b"")
    key = inbox.dedupe_key(mail)[0]
    assert key.startswith("canon:")
    # Another subject, or the same header folded elsewhere: the same words count alike.
    assert inbox.dedupe_key(mail.replace(b"Subject: hi", b"Subject: ho"))[0] != key
    refolded = mail.replace(b"Subject: hi", b"Subject:\r\n hi")
    assert inbox.dedupe_key(refolded)[0] == key
    assert inbox.dedupe_key(mail.replace(b"Bur", b"Pic"))[0] != key


def test_the_key_stays_short_whatever_the_message_id() -> None:
    huge = MAIL.replace(b"<1@x>", b"<" + b"x" * 500_000 + b"@x>")
    key, message_id, _ = inbox.dedupe_key(huge)
    # The field is read up to its first MAX_FIELD characters (the stdlib's parsers are
    # quadratic in a field's length: store/header_policy.py).
    assert len(key) == len("mid:||") + 3 * 64 and message_id == "<" + "x" * (MAX_FIELD - 1)


def test_garbage_is_stored_too(tmp_path: Path) -> None:
    db = open_db(tmp_path / "j.db")
    assert inbox.ingest(db, b"\x00\xff not a mail at all", "smtp", NOW) == 1
    assert inbox.ingest(db, b"", "smtp", NOW) == 2
    assert [w.id for w in inbox.waiting(db)] == [1, 2]


def test_rate_counting_looks_back_one_hour_from_the_message(tmp_path: Path) -> None:
    db = open_db(tmp_path / "j.db")
    for i in range(6):
        mail = MAIL.replace(b"<1@x>", f"<{i}@x>".encode())
        inbox.ingest(db, mail, "smtp", NOW + timedelta(minutes=20 * i))
    by_id = {w.id: w for w in inbox.waiting(db)}
    assert inbox.count_before(db, by_id[1]) == 1  # later mail does not count
    assert inbox.count_before(db, by_id[3]) == 3  # 0, 20 and 40 minutes in
    assert inbox.count_before(db, by_id[6]) == 3  # 60 minutes ago is out of the hour
    assert inbox.count_before(db, by_id[3], most=2) == 2  # counting stops at `most`


def test_outbox_bookkeeping(tmp_path: Path) -> None:
    db = open_db(tmp_path / "j.db")
    with db.atomic():
        oid = outbox.queue(db, b"raw", "<m1@judge>", ["a@x", "b@x"], "reply", NOW)
    [item] = outbox.due(db, NOW)
    assert (item.id, item.message_id, item.recipients, item.raw) == (
        oid,
        "<m1@judge>",
        ("a@x", "b@x"),
        b"raw",
    )
    outbox.mark_retry(db, oid, NOW, "421 busy", timedelta(minutes=2))
    assert outbox.due(db, NOW + timedelta(minutes=1)) == []
    assert [i.attempts for i in outbox.due(db, NOW + timedelta(minutes=2))] == [1]
    outbox.mark_sent(db, oid, NOW, "sent")
    row = db["outbound"].get(oid)
    assert (row["state"], row["attempts"], row["last_error"]) == ("sent", 2, None)
    events = [a["event"] for a in db["audit"].rows_where("entity = 'outbound'")]
    assert events == ["queued", "retry", "sent"]
    # A copy of the same mail to another reader (outbound.results_together) is a row of
    # its own, with the same Message-ID.
    with db.atomic():
        copy = outbox.queue(db, b"raw", "<m1@judge>", ["c@x"], "results", NOW)
    assert [(i.id, i.message_id, i.recipients) for i in outbox.due(db, NOW)] == [
        (copy, "<m1@judge>", ("c@x",))
    ]


# -- the store functions that took over SQL from other modules (issue 15) -----------------


def test_rewind_deletes_later_phases_and_the_orders_to_be_sent_again(tmp_path: Path) -> None:
    db = open_db(tmp_path / "j.db")
    with transaction(db):
        game = games.create_game(db, "war1", "standard", NOW)
        for hour, phase in enumerate(["S1901M", "F1901M", "W1901A"]):
            game = games.update_game(db, game, NOW, phase=phase)
            games.add_phase(db, game, phase, {"n": hour}, "deadline", NOW + timedelta(hours=hour))
            games.set_effective_orders(db, game, "F", [f"order in {phase}"])
            if phase != "W1901A":
                games.finish_phase(db, game, phase, {"r": hour}, NOW)
        marks = games.phase_marks(db, game)
        assert [(m.phase, m.started_at) for m in marks] == [
            ("S1901M", "2026-11-21T12:00:00.000000+00:00"),
            ("F1901M", "2026-11-21T13:00:00.000000+00:00"),
            ("W1901A", "2026-11-21T14:00:00.000000+00:00"),
        ]
        games.rewind(db, game, marks[0])
    rows = db.execute(
        "SELECT phase, position, processed_at, results FROM phases ORDER BY id"
    ).fetchall()
    assert rows == [("S1901M", '{"n": 0}', None, None)]
    assert db.execute("SELECT COUNT(*) FROM orders").fetchone()[0] == 0
    [only] = games.phase_history(db, game)
    assert only == games.StoredPhase(
        "S1901M", {"n": 0}, "2026-11-21T12:00:00.000000+00:00", None, None
    )
    assert games.last_phase(db, game) == only


def test_a_rate_notice_goes_once_an_hour_per_key(tmp_path: Path) -> None:
    db = open_db(tmp_path / "j.db")
    with transaction(db):
        assert limits.first_notice(db, "a@x", NOW)
        assert not limits.first_notice(db, "a@x", NOW + timedelta(minutes=59))
        assert limits.first_notice(db, "b@x", NOW + timedelta(minutes=59))
        assert limits.first_notice(db, "a@x", NOW + timedelta(hours=1))
    assert db.execute("SELECT sender, noticed_at FROM rate_notice ORDER BY sender").fetchall() == [
        ("a@x", "2026-11-21T13:00:00.000000+00:00"),
        ("b@x", "2026-11-21T12:59:00.000000+00:00"),
    ]


def test_the_reply_log_counts_up_to_its_cap_and_is_pruned(tmp_path: Path) -> None:
    db = open_db(tmp_path / "j.db")
    with transaction(db):
        for minute in range(5):
            limits.log_reply(db, "a@x", NOW + timedelta(minutes=minute))
        since = "2026-11-21T12:01:00.000000+00:00"
        assert limits.replies_since(db, "a@x", since, 10) == 3  # after, not at, `since`
        assert limits.replies_since(db, "a@x", since, 2) == 2  # counting stops at `most`
        assert limits.replies_since(db, "b@x", since, 10) == 0
        limits.prune_replies(db, since)
    assert [r[0] for r in db.execute("SELECT at FROM reply_log ORDER BY at")] == [
        "2026-11-21T12:02:00.000000+00:00",
        "2026-11-21T12:03:00.000000+00:00",
        "2026-11-21T12:04:00.000000+00:00",
    ]


def test_an_operators_retry_queues_failed_mail_afresh(tmp_path: Path) -> None:
    db = open_db(tmp_path / "j.db")
    with transaction(db):
        sent = outbox.queue(db, b"raw", "<m1@judge>", ["a@x"], "reply", NOW)
        failed = outbox.queue(db, b"raw", "<m2@judge>", ["b@x"], "reply", NOW)
        waiting = outbox.queue(db, b"raw", "<m3@judge>", ["c@x"], "reply", NOW)
    outbox.mark_sent(db, sent, NOW, "smtp")
    outbox.mark_failed(db, failed, NOW, "550 no such user")
    outbox.mark_retry(db, waiting, NOW, "421 busy", timedelta(minutes=5))
    assert outbox.counts(db) == {"failed": 1, "queued": 1, "sent": 1}
    assert outbox.state(db, sent) == "sent" and outbox.state(db, 99) is None
    assert outbox.unsent(db) == [
        outbox.Unsent(
            failed,
            "failed",
            "reply",
            1,
            "2026-11-21T12:00:00.000000+00:00",
            ("b@x",),
            "550 no such user",
        ),
        outbox.Unsent(
            waiting, "queued", "reply", 1, "2026-11-21T12:05:00.000000+00:00", ("c@x",), "421 busy"
        ),
    ]
    later = NOW + timedelta(minutes=1)
    with transaction(db):
        rows = outbox.retryable(db)
        assert rows == [
            outbox.Retryable(failed, "failed", 1),
            outbox.Retryable(waiting, "queued", 1),
        ]
        for row in rows:
            outbox.retry_now(db, row, later, f"retry {row.id}")
    assert db.execute(
        "SELECT id, state, attempts, next_attempt_at FROM outbound WHERE id != ? ORDER BY id",
        [sent],
    ).fetchall() == [
        (failed, "queued", 0, "2026-11-21T12:01:00.000000+00:00"),
        (waiting, "queued", 1, "2026-11-21T12:01:00.000000+00:00"),
    ]
    assert outbox.retryable(db, sent) == [outbox.Retryable(sent, "sent", 1)]


def test_peek_reads_an_existing_database_and_never_creates_one(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    with pytest.raises(sqlite3.Error):
        peek(path)
    assert not path.exists()
    db = open_db(path)
    with transaction(db):
        games.create_game(db, "war1", "standard", NOW)
    db.conn.close()
    assert peek(path) == Peek(version=len(MIGRATIONS), games=1)


def test_a_nested_transaction_that_raises_is_rolled_back_alone(tmp_path: Path) -> None:
    db = open_db(tmp_path / "j.db")
    db.execute("CREATE TABLE t (v INTEGER)")
    statements: list[str] = []
    db.conn.set_trace_callback(statements.append)
    with transaction(db):
        db.execute("INSERT INTO t VALUES (1)")
        with transaction(db):
            db.execute("INSERT INTO t VALUES (2)")
            with pytest.raises(ValueError), transaction(db):  # two deep, one name
                db.execute("INSERT INTO t VALUES (3)")
                raise ValueError("the innermost block fails")
            db.execute("INSERT INTO t VALUES (4)")
        with pytest.raises(KeyError), transaction(db):
            db.execute("INSERT INTO t VALUES (5)")
            with transaction(db):
                db.execute("INSERT INTO t VALUES (6)")
            raise KeyError("the second block fails after its own nested one")
    db.conn.set_trace_callback(None)
    assert [v for (v,) in db.execute("SELECT v FROM t ORDER BY v")] == [1, 2, 4]
    # Each savepoint by the one name: its statements stay prepared, and no random name
    # is drawn for each (sqlite_utils' atomic() did both).
    assert [s for s in statements if "SAVEPOINT" in s] == [
        "SAVEPOINT judge_nested",
        "SAVEPOINT judge_nested",
        "ROLLBACK TO SAVEPOINT judge_nested",
        "RELEASE SAVEPOINT judge_nested",
        "RELEASE SAVEPOINT judge_nested",
        "SAVEPOINT judge_nested",
        "SAVEPOINT judge_nested",
        "RELEASE SAVEPOINT judge_nested",
        "ROLLBACK TO SAVEPOINT judge_nested",
        "RELEASE SAVEPOINT judge_nested",
    ]


def test_a_nested_block_after_the_transaction_ended_raises_its_own_error(tmp_path: Path) -> None:
    db = open_db(tmp_path / "j.db")
    db.execute("CREATE TABLE t (v INTEGER)")
    db.execute(
        "CREATE TRIGGER no_sevens BEFORE INSERT ON t WHEN NEW.v = 7 "
        "BEGIN SELECT RAISE(ROLLBACK, 'no sevens'); END"
    )
    with pytest.raises(sqlite3.IntegrityError, match="no sevens"), transaction(db):
        db.execute("INSERT INTO t VALUES (1)")
        with transaction(db):
            db.execute("INSERT INTO t VALUES (7)")  # ends the whole transaction
    assert not db.conn.in_transaction
    assert db.execute("SELECT COUNT(*) FROM t").fetchone()[0] == 0


def test_the_variants_in_play_are_listed_the_most_played_first(tmp_path: Path) -> None:
    """What the picture workers ready as they start (service/daemon.py): the variants of
    the forming and active games, the most played first, a tie by name; a finished or
    paused game's variant is not in play."""
    db = open_db(tmp_path / "j.db")
    made = [
        ("chaos", games.ACTIVE),
        ("standard", games.ACTIVE),
        ("standard", games.FORMING),
        ("ancmed", games.FORMING),
        ("fleet_rome", games.FINISHED),
        ("fleet_rome", games.FINISHED),
        ("fleet_rome", games.FINISHED),
        ("pure", games.PAUSED),
    ]
    with transaction(db):
        for i, (variant, state) in enumerate(made):
            game = games.create_game(db, f"g{i}", variant, NOW)
            games.update_game(db, game, NOW, state=state)
    assert games.variants_in_play(db, 3) == ["standard", "ancmed", "chaos"]
    assert games.variants_in_play(db, 1) == ["standard"]

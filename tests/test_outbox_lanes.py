"""The outbox's lanes (issue 16): a direct answer to a mail is sent before bulk mail
queued earlier (a deadline's results), and a game's results, once their picture is drawn,
before the other mail queued earlier (the notices of a burst); neither ever before an
earlier mail to the same address."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from judge.store import outbox
from judge.store.db import open_db, transaction

NOW = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)


def test_direct_answers_go_first_but_never_before_an_earlier_mail_to_their_address(
    tmp_path: Path,
) -> None:
    db = open_db(tmp_path / "j.db")
    queued = [
        ("results", "a@example.org"),
        ("results", "b@example.org"),
        ("public", "list@example.org"),
        ("reply", "c@example.org"),
        ("reply", "a@example.org"),  # a@ has results waiting: it stays behind them
        ("signed reply", "d@example.org"),
        ("limit", "e@example.org"),
        ("results", "c@example.org"),
    ]
    with transaction(db):
        ids = {
            (kind, to): outbox.queue(db, b"x", f"<{n}@j>", [to], kind, NOW)
            for n, (kind, to) in enumerate(queued)
        }
    by_id = {v: k for k, v in ids.items()}
    assert [by_id[m.id] for m in outbox.due(db, NOW)] == [
        ("reply", "c@example.org"),
        ("signed reply", "d@example.org"),
        ("limit", "e@example.org"),
        ("results", "a@example.org"),
        ("results", "b@example.org"),
        ("public", "list@example.org"),
        ("reply", "a@example.org"),
        ("results", "c@example.org"),
    ]
    # The limit counts the lanes together: the first two of that order.
    assert [by_id[m.id] for m in outbox.due(db, NOW, limit=2)] == [
        ("reply", "c@example.org"),
        ("signed reply", "d@example.org"),
    ]
    # Once a@'s results are sent, its answer is in the fast lane, in the order queued.
    outbox.mark_sent(db, ids[("results", "a@example.org")], NOW, "maildir")
    assert [by_id[m.id] for m in outbox.due(db, NOW)][:4] == [
        ("reply", "c@example.org"),
        ("reply", "a@example.org"),
        ("signed reply", "d@example.org"),
        ("limit", "e@example.org"),
    ]


def test_results_ready_to_send_go_before_the_mail_queued_before_them(tmp_path: Path) -> None:
    # A deadline burst queues each game's results, then its notices: the results of the
    # last games waited behind every notice of the games before them.
    db = open_db(tmp_path / "j.db")
    queued = [
        ("results", "a@example.org", '{"name":"A.png"}'),  # its picture not drawn yet
        ("notice", "b@example.org", None),
        ("notice", "c@example.org", None),
        ("results", "d@example.org", '{"name":"D.png"}'),  # drawn below
        ("notice", "e@example.org", None),
        ("results", "c@example.org", None),  # c@ has a notice queued before it
        ("results", "f@example.org", None),  # nothing to draw
        ("reply", "g@example.org", None),
    ]
    with transaction(db):
        ids = {
            (kind, to): outbox.queue(db, b"x", f"<{n}@j>", [to], kind, NOW, picture=picture)
            for n, (kind, to, picture) in enumerate(queued)
        }
    by_id = {v: k for k, v in ids.items()}
    drawn = outbox.Attachment("D.png", b"png-D")
    outbox.finish_many(db, [(ids[("results", "d@example.org")], '{"name":"D.png"}', drawn)], NOW)
    assert [by_id[h.id] for h in outbox.due_heads(db, NOW)] == [
        ("reply", "g@example.org"),
        ("results", "d@example.org"),
        ("results", "f@example.org"),
        ("results", "a@example.org"),
        ("notice", "b@example.org"),
        ("notice", "c@example.org"),
        ("notice", "e@example.org"),
        ("results", "c@example.org"),
    ]
    # While games are still due, the first two lanes alone: the rest waits for them.
    assert [by_id[h.id] for h in outbox.due_heads(db, NOW, bulk=False)] == [
        ("reply", "g@example.org"),
        ("results", "d@example.org"),
        ("results", "f@example.org"),
    ]
    # The limit counts every lane; mails being sent are left out of each.
    assert [by_id[h.id] for h in outbox.due_heads(db, NOW, limit=3)] == [
        ("reply", "g@example.org"),
        ("results", "d@example.org"),
        ("results", "f@example.org"),
    ]
    sending = {ids[("results", "d@example.org")], ids[("reply", "g@example.org")]}
    assert [by_id[h.id] for h in outbox.due_heads(db, NOW, limit=2, exclude=sending)] == [
        ("results", "f@example.org"),
        ("results", "a@example.org"),
    ]
    # Once c@'s notice is sent, its results are ready and go with the others.
    outbox.mark_sent(db, ids[("notice", "c@example.org")], NOW, "maildir")
    assert [by_id[h.id] for h in outbox.due_heads(db, NOW, limit=4)] == [
        ("reply", "g@example.org"),
        ("results", "d@example.org"),
        ("results", "c@example.org"),
        ("results", "f@example.org"),
    ]


def test_the_copies_of_one_results_mail_go_first_together_or_not_at_all(tmp_path: Path) -> None:
    # results_together: a game's results are one row for each reader, given to the relay
    # in one transaction. Had the copies to readers with no earlier mail gone first, the
    # others would have followed in a transaction of their own.
    db = open_db(tmp_path / "j.db")
    with transaction(db):
        notice = outbox.queue(db, b"n", "<n@j>", ["b@example.org"], "notice", NOW)
        held = outbox.queue_each(
            db,
            [(b"r1", "<r1@j>", ["a@example.org"]), (b"r1", "<r1@j>", ["b@example.org"])],
            "results",
            NOW,
        )
        free = outbox.queue_each(
            db,
            [(b"r2", "<r2@j>", ["c@example.org"]), (b"r2", "<r2@j>", ["d@example.org"])],
            "results",
            NOW,
        )
    assert [h.id for h in outbox.due_heads(db, NOW)] == [*free, notice, *held]
    # A limit that would cut a mail's copies in two takes none of them in the lane.
    assert [h.id for h in outbox.due_heads(db, NOW, limit=1)] == [notice]
    outbox.mark_sent(db, notice, NOW, "maildir")
    assert [h.id for h in outbox.due_heads(db, NOW)] == [*held, *free]

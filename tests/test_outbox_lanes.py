"""Two lanes in the outbox (issue 16): a direct answer to a mail is sent before bulk mail
queued earlier (a deadline's results), never before an earlier mail to the same address."""

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

"""The mail corpus: real-looking messages from real clients, and what the judge must make of them.

Each tests/mail/*.eml has one entry in tests/mail/expected.toml (see the comment at its top).
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from judge.mail.guards import reason_not_to_answer
from judge.mail.message import parse_submission, reply_address

CORPUS = Path(__file__).parent / "mail"
JUDGE = "judge@example.org"
FIELDS = {"file", "answer", "reason", "sender", "reply", "subject", "notes", "body"}


def _entries() -> list[dict]:
    with open(CORPUS / "expected.toml", "rb") as f:
        return tomllib.load(f)["message"]


ENTRIES = _entries()


def test_corpus_is_large_enough() -> None:
    assert len(ENTRIES) >= 45
    assert len(list(CORPUS.glob("*.eml"))) >= 45


def test_every_message_has_one_entry_and_every_entry_a_message() -> None:
    named = [entry["file"] for entry in ENTRIES]
    assert len(named) == len(set(named)), "a file has two entries"
    on_disk = {path.name for path in CORPUS.glob("*.eml")}
    assert on_disk - set(named) == set(), "messages without an entry"
    assert set(named) - on_disk == set(), "entries without a message"


def test_corpus_covers_both_answers() -> None:
    answers = [entry["answer"] for entry in ENTRIES]
    assert answers.count(True) >= 35 and answers.count(False) >= 10


@pytest.mark.parametrize("entry", ENTRIES, ids=[entry["file"] for entry in ENTRIES])
def test_message(entry: dict) -> None:
    assert set(entry) <= FIELDS, f"unknown fields {set(entry) - FIELDS}"
    assert ("reason" in entry) == (not entry["answer"]), "a reason goes with answer = false"
    raw = (CORPUS / entry["file"]).read_bytes()
    sub = parse_submission(raw)

    assert sub.size == len(raw)
    assert not sub.too_large
    assert sub.sender == entry["sender"]
    assert reply_address(sub) == entry["reply"]
    assert sub.subject == entry["subject"]
    assert sub.body == entry["body"]

    for expected in entry["notes"]:
        assert any(expected in note for note in sub.notes), f"no note {expected!r} in {sub.notes}"
    for note in sub.notes:
        assert any(expected in note for expected in entry["notes"]), f"unexpected note {note!r}"

    reason = reason_not_to_answer(sub, JUDGE)
    if entry["answer"]:
        assert reason is None
    else:
        assert reason is not None and entry["reason"] in reason, reason


@pytest.mark.parametrize("entry", ENTRIES, ids=[entry["file"] for entry in ENTRIES])
def test_message_ids_and_references_are_bracketed(entry: dict) -> None:
    sub = parse_submission((CORPUS / entry["file"]).read_bytes())
    assert sub.message_id is not None
    for mid in (sub.message_id, *sub.references):
        assert mid.startswith("<") and mid.endswith(">") and " " not in mid


def test_too_large_corpus_message_keeps_its_headers() -> None:
    raw = (CORPUS / "gmail_very_long_lines.eml").read_bytes()
    sub = parse_submission(raw, max_bytes=1000)
    assert sub.too_large and sub.body == ""
    assert sub.sender == "edward.hughes.dip@gmail.com"
    assert sub.subject == "treaty"
    assert any("too large" in note for note in sub.notes)

"""The red team's second round: the ways into the judge besides passwords and the queues
(tests/test_red_team.py): header fields, MIME, paths, templates, loops. Each test is an
attack from outside and asserts what the judge must still promise: every mail read at a
bounded cost and answered once or not at all, no header the attacker wrote, no password.
"""

from __future__ import annotations

import email
from email.policy import default
from pathlib import Path

import pytest
from judge_harness import Judge
from test_red_team import no_password_shown  # noqa: F401  (autouse: no password shown)

from judge.mail.guards import reason_not_to_answer
from judge.mail.message import parse_submission
from judge.service.handling import handle_waiting
from judge.store import header_policy, inbox

pytestmark = pytest.mark.usefixtures("fresh_password_cache")


def _raw(head: str, body: str = "HELP") -> bytes:
    return f"{head}Subject: x\r\nMessage-ID: <rt2@example.org>\r\n\r\n{body}\r\n".encode()


# Header fields past MAX_FIELD: the stdlib parses address lists and parameters in time
# quadratic in a field's length (a From: of 20,000 quote marks took 14 s to read, at the
# SMTP receiver's ingest and again when handled; 256 KiB of it, hours).


def test_a_from_field_past_its_limit_is_cut_and_holds_no_address() -> None:
    name = '"' + "x" * header_policy.MAX_FIELD + '"'
    sub = parse_submission(_raw(f"From: {name} <p0@example.org>\r\n"))
    assert sub.sender == ""
    assert reason_not_to_answer(sub, "judge@example.org") == "no usable sender address"
    # The same field within the limit keeps its address.
    short = parse_submission(_raw('From: "x" <p0@example.org>\r\n'))
    assert short.sender == "p0@example.org"


def test_a_megabyte_of_quote_marks_in_from_and_reply_to_is_read_and_not_answered(
    tmp_path: Path,
) -> None:
    judge = Judge(tmp_path)
    judge.start_game()
    quotes = '""' * 500_000
    head = f"From: {quotes} <p0@example.org>\r\nReply-To: {quotes}\r\n"
    raw = _raw(head)
    key, _, sender = inbox.dedupe_key(raw)
    assert sender == ""
    assert judge.send(f"{quotes} <p0@example.org>", "HELP", head=f"Reply-To: {quotes}\r\n") == []
    state, reason = judge.db.execute(
        "SELECT state, error FROM inbound ORDER BY id DESC LIMIT 1"
    ).fetchone()
    assert (state, reason) == (inbox.IGNORED, "not answered: no usable sender address")
    # The judge goes on: the next mail is answered.
    assert [m.to for m in judge.send("p0@example.org", "HELP")] == [["p0@example.org"]]


def test_parameters_by_the_hundred_thousand_in_content_type_are_read_as_a_bounce() -> None:
    params = "; a*0=x" * 100_000
    head = (
        "From: someone@example.org\r\n"
        f"Content-Type: multipart/report; report-type=delivery-status{params}\r\n"
    )
    sub = parse_submission(_raw(head))
    assert reason_not_to_answer(sub, "judge@example.org") == (
        "a bounce (multipart/report; report-type=delivery-status)"
    )


def test_a_field_folded_on_a_million_lines_is_stored_once_and_answered_once(
    tmp_path: Path,
) -> None:
    judge = Judge(tmp_path)
    raw = _raw("From: p0@example.org\r\nX-Long: a\r\n" + " a\r\n" * 1_000_000)
    raw = raw.replace(b"Message-ID: <rt2@example.org>\r\n", b"")  # keyed by its headers
    assert inbox.ingest(judge.db, raw, "smtp", judge.now) is not None
    assert inbox.ingest(judge.db, raw, "smtp", judge.now) is None
    handle_waiting(judge.db, judge.config, lambda: judge.now)
    rows = judge.db.execute("SELECT recipients, raw FROM outbound").fetchall()
    assert [recipients for recipients, _ in rows] == ['["p0@example.org"]']
    text = email.message_from_bytes(rows[0][1], policy=default).get_content()
    assert "was 4000053 bytes long, more than the\r\n1000000 bytes the judge reads" in text


# Text the stdlib or the trimming read in quadratic time.


def test_html_tags_that_never_close_are_read_as_their_text() -> None:
    # The stdlib's HTML parser read each "<a" to the end of the text before taking it as
    # text: 30 KB took 7 s, a megabyte hours.
    markup = "<p>HELP</p>" + "<a " * 20_000
    raw = _raw("From: p0@example.org\r\nContent-Type: text/html\r\n", markup)
    sub = parse_submission(raw)
    assert sub.body.split("\n") == ["HELP", "", ("<a " * 20_000)[:10_000].rstrip()]
    assert sub.notes == ("converted HTML to text", "cut a line longer than 10000 characters")


def test_a_mail_of_half_a_million_blank_lines_is_answered(tmp_path: Path) -> None:
    # Each blank line at the top was popped from the front of the list (40 s).
    judge = Judge(tmp_path)
    answers = judge.send("p0@example.org", "\r\n" * 450_000 + "HELP")
    plain = judge.send("p0@example.org", "HELP")
    assert [(m.to, m.body) for m in answers] == [(m.to, m.body) for m in plain]
    assert "HELP" in plain[0].body and len(plain) == 1

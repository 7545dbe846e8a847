"""The red team's second round: the ways into the judge besides passwords and the queues
(tests/test_red_team.py): header fields, MIME, paths, templates, loops. Each test is an
attack from outside and asserts what the judge must still promise: every mail read at a
bounded cost and answered once or not at all, no header the attacker wrote, no password.
"""

from __future__ import annotations

import email
import smtplib
import socket
from dataclasses import replace
from datetime import UTC, datetime
from email.policy import default
from pathlib import Path

import pytest
from judge_harness import Judge
from smtp_sink import free_port
from test_red_team import no_password_shown  # noqa: F401  (autouse: no password shown)

from judge.config import Config
from judge.mail.guards import reason_not_to_answer
from judge.mail.message import parse_submission
from judge.mail.smtp_in import SmtpReceiver
from judge.service.handling import handle_waiting
from judge.store import header_policy, inbox
from judge.store.db import open_db
from judge.variants.import_dpjudge import read_dpjudge
from judge.variants.map_import import MapFileError

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


# The SMTP receiver, through a real connection.


def _receiver(tmp_path: Path) -> tuple[SmtpReceiver, Config]:
    base = Config(name="TEST", address="judge@example.org", database=tmp_path / "j.db")
    config = replace(base, smtp_in=replace(base.smtp_in, host="127.0.0.1", port=free_port()))
    receiver = SmtpReceiver(config, lambda: datetime(2026, 11, 21, 12, 0, tzinfo=UTC))
    receiver.start()
    return receiver, config


def _say(conn: socket.socket, line: bytes, wanted: bytes) -> bytes:
    """Send `line`, then read until the answer holds `wanted`."""
    conn.sendall(line)
    answer = b""
    while wanted not in answer:
        chunk = conn.recv(4096)
        assert chunk, answer
        answer += chunk
    return answer


def test_a_carriage_return_in_mail_from_stays_out_of_the_stored_header(tmp_path: Path) -> None:
    receiver, config = _receiver(tmp_path)
    try:
        with socket.create_connection(("127.0.0.1", config.smtp_in.port), timeout=10) as conn:
            conn.recv(4096)
            _say(conn, b"EHLO attacker\r\n", b"250 HELP")
            _say(conn, b"MAIL FROM:<a\rb@example.org>\r\n", b"250")
            _say(conn, b"RCPT TO:<judge@example.org>\r\n", b"250")
            _say(conn, b"DATA\r\n", b"354")
            mail = b"From: p0@example.org\r\nMessage-ID: <cr@example.org>\r\n\r\nHELP\r\n.\r\n"
            _say(conn, mail, b"250 2.0.0")
    finally:
        receiver.stop()
    db = open_db(config.database)
    (raw,) = db.execute("SELECT raw FROM inbound").fetchone()
    assert raw.split(b"\r\n")[:2] == [b"Return-Path: <ab@example.org>", b"From: p0@example.org"]
    handle_waiting(db, config, lambda: datetime(2026, 11, 21, 12, 1, tzinfo=UTC))
    assert [r for (r,) in db.execute("SELECT recipients FROM outbound")] == ['["p0@example.org"]']


def test_a_client_stalled_in_data_leaves_the_receiver_answering_others(tmp_path: Path) -> None:
    receiver, config = _receiver(tmp_path)
    try:
        with socket.create_connection(("127.0.0.1", config.smtp_in.port), timeout=10) as slow:
            slow.recv(4096)
            _say(slow, b"EHLO slow\r\nMAIL FROM:<s@example.org>\r\n", b"250 OK")
            _say(slow, b"RCPT TO:<judge@example.org>\r\nDATA\r\n", b"354")
            slow.sendall(b"From: s@example.org\r\n\r\nHEL")  # and nothing more
            with smtplib.SMTP("127.0.0.1", config.smtp_in.port, timeout=10) as other:
                refused = other.sendmail(
                    "p0@example.org", ["judge@example.org"], b"From: p0@example.org\r\n\r\nHELP\r\n"
                )
            assert refused == {}
    finally:
        receiver.stop()
    db = open_db(config.database)
    handle_waiting(db, config, lambda: datetime(2026, 11, 21, 12, 1, tzinfo=UTC))
    assert [r for (r,) in db.execute("SELECT sender FROM inbound")] == ["p0@example.org"]
    assert [r for (r,) in db.execute("SELECT recipients FROM outbound")] == ['["p0@example.org"]']


def test_comments_nested_a_thousand_deep_are_stored_and_answered(tmp_path: Path) -> None:
    # The default policy's parser recursed once a level: RecursionError as the mail was
    # stored (the SMTP receiver answered 451 for ever; IMAP left it in the mailbox).
    judge = Judge(tmp_path)
    head = "Content-Type: text/plain; charset=" + "(" * 1_500 + "\r\n"
    answers = judge.send("p0@example.org", "HELP", head=head)
    assert [m.to for m in answers] == [["p0@example.org"]]
    assert "HELP" in answers[0].body


# Header injection and template injection: what a stranger writes is a value, never a
# header line of the judge's mail nor template source.

_JUDGES_HEADERS = [
    "From",
    "To",
    "Subject",
    "Date",
    "Message-ID",
    "In-Reply-To",
    "References",
    "Auto-Submitted",
    "X-Judge",
    "MIME-Version",
    "Content-Type",
    "Content-Transfer-Encoding",
]


@pytest.mark.parametrize(
    "subject",
    [
        "=?utf-8?b?aGkNCkJjYzogdmljdGltQGV4YW1wbGUub3Jn?=",  # "hi\r\nBcc: victim@..."
        "=?utf-8?q?hi=0ABcc:_victim@example.org?=",
        "hi\u2028Bcc: victim@example.org",
        "hi\u0085Bcc: victim@example.org",
    ],
)
def test_a_subject_that_decodes_to_a_line_break_adds_no_header(
    tmp_path: Path, subject: str
) -> None:
    judge = Judge(tmp_path)
    judge.start_game()
    before = judge.db.execute("SELECT MAX(id) FROM outbound").fetchone()[0]
    judge.send("p0@example.org", "SIGNON Awar1 pw0\nA Vie H", subject=subject)
    rows = judge.db.execute("SELECT raw FROM outbound WHERE id > ?", [before]).fetchall()
    assert len(rows) == 1
    msg = email.message_from_bytes(rows[0][0], policy=default)
    assert list(msg.keys()) == _JUDGES_HEADERS
    assert msg["Subject"] == "Re: TEST:war1 - S1901M hi Bcc: victim@example.org"
    assert msg["To"] == "p0@example.org"


def test_template_syntax_in_press_subject_and_comment_is_shown_as_written(
    tmp_path: Path,
) -> None:
    judge = Judge(tmp_path)
    judge.start_game()
    jinja = "{{ 7*7 }} {% for x in range(3) %}X{% endfor %} {{ config }}"
    answer, press, copy = judge.send(
        "p0@example.org", f"SIGNON Awar1 pw0\nPRESS TO F\n{jinja}\nENDPRESS", subject=jinja
    )
    assert answer.subject == f"Re: TEST:war1 - S1901M {jinja}"
    assert press.to == ["p2@example.org"] and press.body.endswith(f"\n{jinja}\n")
    assert copy.to == ["gm@example.org"] and copy.body.endswith(f"\n{jinja}\n")
    comment = judge.send("gm@example.org", "SIGNON Mwar1 masterpw\nSET COMMENT {{ 7*7 }}")
    assert "Brief comment set: [{{ 7*7 }}]." in comment[0].body


def test_get_names_that_look_like_paths_are_refused(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    names = ["../../etc/passwd", "/etc/passwd", "info.../../x", "info./dev/zero", "files/info"]
    (answer,) = judge.send("p0@example.org", "\n".join(f"GET {n}" for n in names))
    for name in names:
        assert f"ERROR: Sorry, there is no file {name} available." in answer.body


# Numbers int() cannot read: more than 4,300 digits, or digits of other kinds ("²").


@pytest.mark.parametrize(
    ("line", "error"),
    [
        ("SET END " + "9" * 5_000, "Expected SET END year [DRAW or MOST], the year 1901 or later."),
        ("SET END ²", "Expected SET END year [DRAW or MOST], the year 1901 or later."),
        ("SET VICTORY ²", "Expected a number from 1 to 34."),
        ("SET MAXYEARS " + "9" * 5_000, "Expected a number from 1 to 1000."),
    ],
)
def test_a_number_int_cannot_read_is_refused_with_a_reply(
    tmp_path: Path, line: str, error: str
) -> None:
    judge = Judge(tmp_path)
    judge.start_game()
    (answer,) = judge.send("gm@example.org", f"SIGNON Mwar1 masterpw\n{line}")
    assert error in answer.body
    state = judge.db.execute("SELECT state FROM inbound ORDER BY id DESC LIMIT 1").fetchone()
    assert state == (inbox.HANDLED,)


@pytest.mark.parametrize("line", ["VICTORY ²", "BEGIN SPRING ² MOVEMENT"])
def test_a_map_files_number_int_cannot_read_is_refused_with_its_line(line: str) -> None:
    source = Path(__file__).parent / "maps_import" / "dpjudge" / "tri.map"
    text = source.read_text().replace("BEGIN SPRING 2001 MOVEMENT", line)
    with pytest.raises(MapFileError) as refused:
        read_dpjudge(text, "tri")
    assert refused.value.line == 40


# Loops and third parties: a Reply-To is never answered; the judge's own address or mail
# coming back is not answered at all.


def test_a_reply_to_a_third_party_gets_nothing(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    answers = judge.send("p0@example.org", "HELP", head="Reply-To: victim@example.net\r\n")
    assert [m.to for m in answers] == [["p0@example.org"]]
    for head in (
        "Reply-To: judge@example.org\r\n",
        "X-Loop: judge@example.org\r\n",
        "X-Judge: OTHER\r\n",
        "Auto-Submitted: auto-replied\r\n",
        "Precedence: junk\r\n",
        "List-Id: <players.example.org>\r\n",
        "Return-Path: <>\r\n",
    ):
        assert judge.send("p0@example.org", "HELP", head=head) == [], head
    assert judge.send("JUDGE@Example.ORG", "HELP") == []
    assert judge.send("MAILER-DAEMON@example.net", "HELP") == []

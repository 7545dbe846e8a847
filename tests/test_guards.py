"""Loop and abuse guards: which mail the judge must not answer, and why."""

from __future__ import annotations

from types import MappingProxyType

import pytest

from judge.mail.guards import reason_not_to_answer
from judge.mail.message import Submission, parse_submission

JUDGE = "judge@example.org"


def sub(
    sender: str = "player@example.net", reply_to: str | None = None, **headers: str
) -> Submission:
    return Submission(
        sender=sender,
        sender_name="",
        reply_to=reply_to,
        subject="orders",
        message_id="<1@example.net>",
        references=(),
        body="A Par - Bur",
        notes=(),
        headers=MappingProxyType({k.replace("_", "-"): v for k, v in headers.items()}),
        size=100,
        too_large=False,
    )


def parsed(headers: str, sender: str = "Player <player@example.net>") -> Submission:
    raw = f"From: {sender}\nTo: {JUDGE}\nSubject: orders\n{headers}\nA Par - Bur\n"
    return parse_submission(raw.encode())


def test_ordinary_mail_is_answered() -> None:
    assert reason_not_to_answer(sub(), JUDGE) is None
    assert reason_not_to_answer(parsed(""), JUDGE) is None


@pytest.mark.parametrize(
    "headers, reason",
    [
        ("Auto-Submitted: auto-replied\n", "Auto-Submitted: auto-replied"),
        ("Auto-Submitted: auto-generated\n", "Auto-Submitted: auto-generated"),
        ("auto-submitted: Auto-Replied; owner-email=x@y.z\n", "Auto-Submitted"),
        ("Auto-Submitted: yes-please\n", "Auto-Submitted"),
        ("Precedence: bulk\n", "Precedence: bulk"),
        ("Precedence: JUNK\n", "Precedence: junk"),
        ("PRECEDENCE: List\n", "Precedence: list"),
        ("List-Id: Chat <chat.lists.example.org>\n", "List-Id"),
        ("List-Unsubscribe: <mailto:leave@lists.example.org>\n", "List-Unsubscribe"),
        ("X-Autoreply: yes\n", "X-Autoreply"),
        ("x-autorespond: Orders\n", "X-Autorespond"),
        ("Return-Path: <>\n", "null return path"),
        ("Return-Path: < >\n", "null return path"),
        ("Return-Path: <<>>\n", "null return path"),  # "<>" bracketed again
        ("Return-Path: <MAILER-DAEMON@mx.example.net>\n", "mailer daemon"),
        ("X-Judge: EXAMPLE\n", "X-Judge"),
        ("x-judge: \n", "X-Judge"),
        ("X-Loop: Judge@Example.org\n", "X-Loop"),
        (
            "MIME-Version: 1.0\nContent-Type: multipart/report; report-type=delivery-status;\n"
            " boundary=b\n",
            "bounce",
        ),
        (
            'Content-Type: Multipart/Report; report-type="delivery-status"; boundary=b\n',
            "bounce",
        ),
        (
            "Content-Type: multipart/report; boundary=b; report-type=disposition-notification\n",
            "disposition-notification",
        ),
    ],
)
def test_mail_not_to_answer(headers: str, reason: str) -> None:
    got = reason_not_to_answer(parsed(headers), JUDGE)
    assert got is not None and reason in got


@pytest.mark.parametrize(
    "headers",
    [
        "Auto-Submitted: no\n",
        "Auto-Submitted: No\n",
        "Auto-Submitted: no (not automatic)\n",
        "Precedence: first-class\n",
        "Precedence: normal\n",
        "Return-Path: <player@example.net>\n",
        "X-Loop: something-else\n",
        "Content-Type: multipart/mixed; boundary=b\n",
        "X-Mailer: bulk-mailer-but-not-really\n",
    ],
)
def test_mail_to_answer(headers: str) -> None:
    assert reason_not_to_answer(parsed(headers), JUDGE) is None


@pytest.mark.parametrize(
    "sender",
    [
        "MAILER-DAEMON@mx.example.net",
        "Mail Delivery System <mailer-daemon@mx.example.net>",
        "postmaster@example.net",
        "PostMaster@Example.Net",
        "mailer-daemon@googlemail.com",
    ],
)
def test_daemon_senders(sender: str) -> None:
    got = reason_not_to_answer(parsed("", sender=sender), JUDGE)
    assert got is not None and "mailer daemon" in got


@pytest.mark.parametrize("sender", ["", "MAILER-DAEMON", "undisclosed-recipients:;", "<>"])
def test_no_usable_sender(sender: str) -> None:
    got = reason_not_to_answer(parsed("", sender=sender), JUDGE)
    assert got == "no usable sender address"


def test_no_from_header_at_all() -> None:
    got = reason_not_to_answer(parse_submission(b"To: judge@example.org\n\nLIST\n"), JUDGE)
    assert got == "no usable sender address"


@pytest.mark.parametrize(
    "judge", ["judge@example.org", "JUDGE@Example.Org", "EXAMPLE <judge@example.org>"]
)
def test_mail_from_the_judge_itself(judge: str) -> None:
    got = reason_not_to_answer(parsed("", sender="Diplomacy Judge <Judge@EXAMPLE.org>"), judge)
    assert got is not None and "judge's own address" in got


def test_reply_to_the_judge_itself() -> None:
    got = reason_not_to_answer(parsed("Reply-To: judge@example.org\n"), JUDGE)
    assert got is not None and "reply address" in got


def test_own_loop_header_wins_over_everything() -> None:
    got = reason_not_to_answer(sub(sender="", x_judge="EXAMPLE", precedence="bulk"), JUDGE)
    assert got is not None and "X-Judge" in got


def test_headers_given_with_any_case_in_a_hand_made_submission() -> None:
    assert reason_not_to_answer(sub(**{"Auto-Submitted": "auto-replied"}), JUDGE) is not None
    assert reason_not_to_answer(sub(**{"PRECEDENCE": "Bulk"}), JUDGE) is not None


def test_nested_headers_do_not_count() -> None:
    # the judge's own mail inside an ordinary forward is not a loop
    raw = (
        "From: Player <player@example.net>\nTo: judge@example.org\nSubject: fwd\n"
        "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b\n\n"
        "--b\nContent-Type: text/plain\n\nLIST\n"
        "--b\nContent-Type: message/rfc822\n\nFrom: judge@example.org\nX-Judge: EXAMPLE\n"
        "Auto-Submitted: auto-generated\n\nresults\n--b--\n"
    )
    sub_ = parse_submission(raw.encode())
    assert reason_not_to_answer(sub_, JUDGE) is None


def test_reasons_are_short() -> None:
    cases = [
        parsed("Auto-Submitted: auto-replied\n"),
        parsed("", sender="postmaster@x.org"),
        parsed("List-Id: <a.b>\n"),
        sub(sender=""),
    ]
    for case in cases:
        reason = reason_not_to_answer(case, JUDGE)
        assert reason is not None and 0 < len(reason) <= 120 and "\n" not in reason

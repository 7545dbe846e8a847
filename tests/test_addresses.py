"""Addresses of record (judge/mail/addresses.py) and outgoing headers (compose.build):
whatever a stranger writes, the judge's mail has valid headers and never fails to build."""

from __future__ import annotations

import email
from datetime import UTC, datetime
from email.parser import BytesParser
from email.policy import SMTP, default

import pytest
from judge_harness import CONFIG

from judge.config import Config
from judge.mail import compose
from judge.mail.addresses import (
    BAD_DOMAIN,
    NON_ASCII_LOCAL,
    NOT_AN_ADDRESS,
    TOO_LONG,
    Undeliverable,
    ascii_form,
    deliverable,
)
from judge.mail.message import parse_submission

NOW = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("given", "normal"),
    [
        ("bob@example.org", "bob@example.org"),
        ("<Bob.Smith+dip@Example.ORG>", "bob.smith+dip@example.org"),
        ("bob@Bücher.Example", "bob@xn--bcher-kva.example"),
        ("bob@xn--bcher-kva.example", "bob@xn--bcher-kva.example"),
        ("ann@münchen.de", "ann@xn--mnchen-3ya.de"),
        ("x@localhost", "x@localhost"),
    ],
)
def test_deliverable_addresses_in_their_normal_form(given: str, normal: str) -> None:
    assert deliverable(given) == normal


@pytest.mark.parametrize(
    ("given", "reason"),
    [
        ("österreich@example.org", NON_ASCII_LOCAL),
        ("jörg@bücher.example", NON_ASCII_LOCAL),
        ("用户@例子.广告", NON_ASCII_LOCAL),
        ("nowhere", NOT_AN_ADDRESS),
        ("@example.org", NOT_AN_ADDRESS),
        ("bob@", NOT_AN_ADDRESS),
        ('"bob smith"@example.org', NOT_AN_ADDRESS),
        ("bob..smith@example.org", NOT_AN_ADDRESS),
        (".bob@example.org", NOT_AN_ADDRESS),
        ("bob@[192.0.2.1]", BAD_DOMAIN),
        ("bob@exa mple.org", BAD_DOMAIN),
        ("bob@example..org", BAD_DOMAIN),
        ("bob@-example.org", BAD_DOMAIN),
        ("bob@example.org.", BAD_DOMAIN),
        ("bob@" + "a" * 64 + ".org", BAD_DOMAIN),
        ("bob@\u2603\u2603.example\u0000", BAD_DOMAIN),
        ("b" * 65 + "@example.org", TOO_LONG),
        ("bob@" + ".".join(["a" * 60] * 5), TOO_LONG),
        ("x" * 100_000, TOO_LONG),
    ],
)
def test_undeliverable_addresses_say_why(given: str, reason: str) -> None:
    got = deliverable(given)
    assert isinstance(got, Undeliverable) and got.reason == reason
    assert len(got.address) <= 80  # fit to be quoted in a reply


def test_ascii_form_encodes_the_domain_and_keeps_what_it_cannot() -> None:
    assert ascii_form("jörg@bücher.example") == "jörg@xn--bcher-kva.example"
    assert ascii_form("bob@example.org") == "bob@example.org"
    assert ascii_form("bob@\u2603..example") == "bob@\u2603..example"  # never raises
    assert ascii_form("nobody") == "nobody"


# -- compose.build ----------------------------------------------------------------------------


def _valid(raw: bytes) -> email.message.EmailMessage:
    """The mail parsed with the SMTP policy, after checking its head line by line."""
    head = raw.split(b"\r\n\r\n", 1)[0]
    assert b"\n" not in head.replace(b"\r\n", b"") and b"\r" not in head.replace(b"\r\n", b"")
    for line in head.split(b"\r\n"):
        assert len(line) <= 998, line[:80]
    msg = BytesParser(policy=SMTP).parsebytes(raw)
    assert not msg.defects and all(not msg[k].defects for k in msg)
    return msg


def test_a_plain_ascii_mail_has_exactly_these_headers() -> None:
    raw = compose.build(
        CONFIG,
        ["bob@example.org"],
        "[TEST] Re: orders",
        "Hello\n",
        NOW,
        "<a@example.org>",
        in_reply_to="<q@x.org>",
        references=["<p@x.org>"],
    )
    assert raw == (
        b"From: TEST judge <judge@example.org>\r\n"
        b"To: bob@example.org\r\n"
        b"Subject: [TEST] Re: orders\r\n"
        b"Date: Sat, 21 Nov 2026 12:00:00 +0000\r\n"
        b"Message-ID: <a@example.org>\r\n"
        b"In-Reply-To: <q@x.org>\r\n"
        b"References: <p@x.org> <q@x.org>\r\n"
        b"Auto-Submitted: auto-replied\r\n"
        b"X-Judge: TEST\r\n"
        b"MIME-Version: 1.0\r\n"
        b'Content-Type: text/plain; charset="us-ascii"\r\n'
        b"Content-Transfer-Encoding: 7bit\r\n"
        b"\r\n"
        b"Hello\r\n"
    )


def test_a_long_non_ascii_subject_is_encoded_and_folded_with_crlf() -> None:
    subject = "[TEST] Re: " + "Grüße aus Österreich, " * 40
    raw = compose.build(CONFIG, ["bob@example.org"], subject, "x\n", NOW, "<a@example.org>")
    head = raw.split(b"\r\n\r\n")[0]
    assert head.isascii()
    assert all(len(line) <= 78 for line in head.split(b"\r\n"))
    msg = _valid(raw)
    cut = subject[: compose.MAX_HEADER_CHARS - 3] + "..."
    assert " ".join(str(msg["Subject"]).split()) == " ".join(cut.split())


def test_a_long_unbroken_subject_never_makes_a_line_over_998() -> None:
    raw = compose.build(CONFIG, ["bob@example.org"], "x" * 5000, "x\n", NOW, "<a@example.org>")
    msg = _valid(raw)
    assert str(msg["Subject"]) == "x" * (compose.MAX_HEADER_CHARS - 3) + "..."


def test_line_breaks_in_a_subject_cannot_add_headers() -> None:
    raw = compose.build(
        CONFIG, ["bob@example.org"], "hi\r\nBcc: eve@example.org\nX: y", "x\n", NOW, "<a@b.org>"
    )
    msg = _valid(raw)
    assert msg["Bcc"] is None and msg["X"] is None
    assert msg["Subject"] == "hi Bcc: eve@example.org X: y"


@pytest.mark.parametrize(
    "in_reply_to",
    [
        "<caf\udce9@example.org>",  # raw 8-bit byte, as the parser leaves it
        "<café@example.org>",
        "<" + "a" * 2000 + "@example.org>",
        "<a@example.org>\r\nBcc: eve@example.org",
        "not a message id",
    ],
)
def test_a_message_id_that_cannot_be_written_is_not_referred_to(in_reply_to: str) -> None:
    raw = compose.build(
        CONFIG,
        ["bob@example.org"],
        "Re: x",
        "x\n",
        NOW,
        "<a@example.org>",
        in_reply_to=in_reply_to,
        references=["<p@x.org>", "<b\u00e4d@x.org>"],
    )
    msg = _valid(raw)
    assert raw.isascii()
    assert msg["In-Reply-To"] is None and msg["References"] is None and msg["Bcc"] is None


def test_bad_references_are_dropped_and_good_ones_kept() -> None:
    raw = compose.build(
        CONFIG,
        ["bob@example.org"],
        "Re: x",
        "x\n",
        NOW,
        "<a@example.org>",
        in_reply_to="<q@x.org>",
        references=["<p@x.org>", "<b\u00e4d@x.org>", "<\udcff@x.org>"],
    )
    msg = _valid(raw)
    assert msg["References"] == "<p@x.org> <q@x.org>"


def test_an_idn_recipient_is_written_in_idna() -> None:
    raw = compose.build(CONFIG, ["bob@bücher.example"], "x", "x\n", NOW, "<a@example.org>")
    assert raw.isascii()
    assert _valid(raw)["To"] == "bob@xn--bcher-kva.example"


def test_a_utf8_local_part_is_written_in_utf8_and_nothing_else_is() -> None:
    raw = compose.build(CONFIG, ["österreich@example.org"], "Grüße", "x\n", NOW, "<a@example.org>")
    head = raw.split(b"\r\n\r\n")[0].split(b"\r\n")
    assert [line for line in head if not line.isascii()] == ["To: österreich@example.org".encode()]
    msg = email.message_from_bytes(raw, policy=default)
    assert msg["To"] == "österreich@example.org" and msg["Subject"] == "Grüße"


def test_a_long_message_id_is_one_line() -> None:
    mid = "<" + "1" * 60 + "@xn--bcher-kva.example>"
    raw = compose.build(CONFIG, ["a@b.org"], "x", "x\n", NOW, mid, in_reply_to=mid)
    assert f"\r\nMessage-ID: {mid}\r\nIn-Reply-To: {mid}\r\n".encode() in raw


def test_a_non_ascii_judge_name_is_encoded() -> None:
    config = Config(name="Jüdge", address="judge@bücher.example")
    mid = compose.new_message_id(config)
    assert mid.isascii() and mid.endswith("@xn--bcher-kva.example>")
    raw = compose.build(config, ["bob@example.org"], "x", "x\n", NOW, mid)
    assert raw.isascii()
    msg = _valid(raw)
    assert msg["Message-ID"] == mid
    assert msg["From"] == "Jüdge judge <judge@xn--bcher-kva.example>"
    assert msg["X-Judge"] == "Jüdge"


@pytest.mark.parametrize(
    ("answered", "subject"),
    [
        ("orders", "Re: TEST orders (too many mails)"),
        ("Re: orders", "Re: TEST orders (too many mails)"),
        ("RE: Re: AW: Sv[2]: orders", "Re: TEST orders (too many mails)"),
        ("Re: [TEST] Re: game1 results", "Re: TEST game1 results (too many mails)"),
        ("Re: TEST:game1 - F1901B Results", "Re: TEST Results (too many mails)"),
        ("", "Re: TEST your mail (too many mails)"),
    ],
)
def test_a_reply_subject_has_one_re(answered: str, subject: str) -> None:
    raw = f"From: bob@example.org\r\nSubject: {answered}\r\n\r\nx\r\n".encode()
    got, _ = compose.render("rate_limited", CONFIG, sub=parse_submission(raw), limit=5)
    assert got == subject


@pytest.mark.parametrize("n", [1, 3, 4, 30])
def test_a_list_of_recipients_is_folded_as_the_smtp_policy_folds_it(n: int) -> None:
    to = [f"observer{i}@example.org" for i in range(n)]
    raw = compose.build(CONFIG, to, "x", "x\n", NOW, "<a@example.org>")
    value = ", ".join(to)
    assert SMTP.header_factory("To", value).fold(policy=SMTP).encode() in raw
    assert _valid(raw)["To"] == value


def test_thousands_of_recipients_make_short_lines() -> None:
    to = [f"observer{i}@example.org" for i in range(3000)]
    raw = compose.build(CONFIG, to, "x", "x\n", NOW, "<a@example.org>")
    assert _valid(raw)["To"].addresses[-1].addr_spec == "observer2999@example.org"
    assert max(len(line) for line in raw.split(b"\r\n")) <= 78

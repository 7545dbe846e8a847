"""Raw mail -> Submission: headers, the MIME walk, charsets, HTML, quotes and signatures."""

from __future__ import annotations

import base64
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge.mail.message import MAX_SUBJECT, Submission, parse_submission, reply_address
from judge.mail.trim import MAX_LINE

CORPUS = Path(__file__).parent / "mail"

HEAD = "From: Player <player@example.net>\nTo: judge@example.org\nSubject: orders\n"


def mail(body: str | bytes, headers: str = "", head: str = HEAD) -> bytes:
    """A message with the usual headers, extra headers, and a body."""
    if isinstance(body, str):
        body = body.encode("utf-8")
    return (head + headers).encode("utf-8") + b"\n" + body


def plain(text: str | bytes, charset: str | None = "utf-8", extra: str = "") -> bytes:
    ctype = "text/plain" + (f"; charset={charset}" if charset else "") + extra
    return mail(
        text, f"MIME-Version: 1.0\nContent-Type: {ctype}\nContent-Transfer-Encoding: 8bit\n"
    )


def html(markup: str, charset: str = "utf-8") -> bytes:
    return mail(markup, f"MIME-Version: 1.0\nContent-Type: text/html; charset={charset}\n")


def body_of(raw: bytes) -> str:
    return parse_submission(raw).body


def notes_of(raw: bytes) -> str:
    return " | ".join(parse_submission(raw).notes)


def multipart(subtype: str, *parts: str, boundary: str = "BOUNDARY") -> bytes:
    text = f"MIME-Version: 1.0\nContent-Type: multipart/{subtype}; boundary={boundary}\n"
    body = "".join(f"--{boundary}\n{part}\n" for part in parts) + f"--{boundary}--\n"
    return mail(body, text)


# --- headers -----------------------------------------------------------------------------


def test_sender_is_bare_lower_case_address_and_name_is_kept() -> None:
    sub = parse_submission(mail("x", head='From: "Smith, Jo" <Jo.Smith@Example.NET>\n'))
    assert sub.sender == "jo.smith@example.net"
    assert sub.sender_name == "Smith, Jo"


def test_sender_without_display_name() -> None:
    sub = parse_submission(mail("x", head="From: jo@example.net\n"))
    assert (sub.sender, sub.sender_name) == ("jo@example.net", "")


def test_encoded_display_name() -> None:
    sub = parse_submission(mail("x", head="From: =?utf-8?q?J=C3=BCrgen_M=C3=BCller?= <j@ex.de>\n"))
    assert sub.sender_name == "Jürgen Müller"


@pytest.mark.parametrize(
    "from_header",
    [
        "",
        "From: \n",
        "From: undisclosed\n",
        "From: <>\n",
        "From: Bob <bob>\n",
        "From: @@@\n",
        "From: a@b@c\n",
        "From: Bob <bob@exa mple.org>\n",
        'From: "unterminated <x@y.z>\n',
    ],
)
def test_no_usable_sender(from_header: str) -> None:
    sub = parse_submission(mail("x", head=from_header + "Subject: s\n"))
    assert sub.sender == ""


def test_first_of_several_from_addresses() -> None:
    sub = parse_submission(mail("x", head="From: a@example.net, b@example.net\n"))
    assert sub.sender == "a@example.net"


def test_reply_to_and_reply_address() -> None:
    sub = parse_submission(mail("x", "Reply-To: Other <Other@Example.ORG>\n"))
    assert sub.reply_to == "other@example.org"
    assert reply_address(sub) == "player@example.net"  # answers never go to a Reply-To
    plain_sub = parse_submission(mail("x"))
    assert plain_sub.reply_to is None
    assert reply_address(plain_sub) == "player@example.net"


def test_unusable_reply_to_is_none() -> None:
    assert parse_submission(mail("x", "Reply-To: nobody\n")).reply_to is None


def test_subject_decoded_and_whitespace_collapsed() -> None:
    raw = mail(
        "x", head="From: a@example.net\nSubject: =?utf-8?q?Befehle_f=C3=BCr?=\n  \t game1   now\n"
    )
    assert parse_submission(raw).subject == "Befehle für game1 now"


def test_subject_in_raw_8bit_utf8() -> None:
    raw = b"From: a@example.net\nSubject: caf\xc3\xa9 orders\n\nx"
    assert parse_submission(raw).subject == "café orders"


def test_subject_in_raw_8bit_windows_1252_with_encoded_words() -> None:
    raw = b"From: a@example.net\nSubject: caf\xe9 \x93x\x94 =?utf-8?q?=C3=A9t=C3=A9?=\n\nx"
    assert parse_submission(raw).subject == "café “x” été"


def test_display_name_in_raw_8bit() -> None:
    sub = parse_submission(b"From: Ren\xc3\xa9 Lambert <Rene@Example.fr>\n\nx")
    assert (sub.sender_name, sub.sender) == ("René Lambert", "rene@example.fr")


def test_subject_missing() -> None:
    assert parse_submission(b"From: a@example.net\n\nLIST").subject == ""


def test_message_id_and_references() -> None:
    raw = mail(
        "x",
        "Message-ID:\n <abc@example.net>\nIn-Reply-To: <parent@judge>\n"
        "References: <root@judge> <parent@judge>\n <other@judge>\n",
    )
    sub = parse_submission(raw)
    assert sub.message_id == "<abc@example.net>"
    assert sub.references == ("<parent@judge>", "<root@judge>", "<other@judge>")


def test_message_id_without_brackets_gets_them_and_missing_is_none() -> None:
    assert parse_submission(mail("x", "Message-ID: abc@host\n")).message_id == "<abc@host>"
    assert parse_submission(mail("x")).message_id is None


def test_only_the_listed_headers_are_kept_first_occurrence_lower_case_names() -> None:
    raw = mail(
        "x",
        "AUTO-SUBMITTED: auto-replied\nPrecedence: bulk\nPrecedence: list\nX-Other: 1\n"
        "List-Id: Chat <chat.example.org>\nReturn-Path: <>\nX-Judge: EXAMPLE\n"
        "Content-Type: text/plain;\n charset=utf-8\n",
    )
    headers = parse_submission(raw).headers
    assert headers == {
        "auto-submitted": "auto-replied",
        "precedence": "bulk",
        "list-id": "Chat <chat.example.org>",
        "return-path": "<>",
        "x-judge": "EXAMPLE",
        "content-type": "text/plain; charset=utf-8",
    }


def test_size_and_too_large_keeps_headers_but_not_the_body() -> None:
    raw = mail("A Par - Bur\n" * 1000)
    small = parse_submission(raw)
    assert small.size == len(raw) and not small.too_large and small.body.startswith("A Par")
    big = parse_submission(raw, max_bytes=100)
    assert big.too_large and big.size == len(raw)
    assert big.body == ""
    assert big.sender == "player@example.net" and big.subject == "orders"
    assert any("too large" in note for note in big.notes)


def test_submission_is_frozen() -> None:
    sub = parse_submission(mail("x"))
    assert isinstance(sub, Submission)
    with pytest.raises(AttributeError):
        sub.body = "y"  # type: ignore[misc]


# --- the MIME walk -----------------------------------------------------------------------


def test_alternative_prefers_plain_text() -> None:
    raw = multipart(
        "alternative",
        "Content-Type: text/html\n\n<p>HTML</p>",
        "Content-Type: text/plain\n\nPLAIN",
    )
    assert body_of(raw) == "PLAIN"
    assert "HTML" not in notes_of(raw)


def test_alternative_falls_back_to_html_when_plain_is_empty() -> None:
    raw = multipart(
        "alternative",
        "Content-Type: text/plain\n\n\n",
        "Content-Type: text/html\n\n<div>LIST</div>",
    )
    assert body_of(raw) == "LIST"
    assert "converted HTML to text" in notes_of(raw)


def test_alternative_with_related_html_only() -> None:
    inner = (
        "Content-Type: multipart/related; boundary=INNER\n\n--INNER\nContent-Type: text/html\n\n"
        "<p>HELP</p>\n--INNER\nContent-Type: image/png\nContent-ID: <x>\n\nPNG\n--INNER--"
    )
    raw = multipart("alternative", inner)
    assert body_of(raw) == "HELP"
    assert "image/png" in notes_of(raw)


def test_mixed_text_parts_are_joined_in_order() -> None:
    raw = multipart(
        "mixed",
        "Content-Type: text/plain\n\nSIGNON Fgame1 pw",
        "Content-Type: image/jpeg\nContent-Disposition: inline; filename=map.jpg\n"
        "Content-Transfer-Encoding: base64\n\n/9j/4AAQ",
        "Content-Type: text/plain\n\nA Par - Bur",
    )
    assert body_of(raw) == "SIGNON Fgame1 pw\nA Par - Bur"
    assert "ignored attachment map.jpg (image/jpeg)" in notes_of(raw)


@pytest.mark.parametrize(
    "part, note",
    [
        ("Content-Type: text/plain\nContent-Disposition: attachment\n\nA Par H", "(text/plain)"),
        ('Content-Type: text/plain; name="orders.txt"\n\nA Par H', "orders.txt (text/plain)"),
        ("Content-Type: application/octet-stream\n\nA Par H", "(application/octet-stream)"),
        ("Content-Type: text/calendar\n\nBEGIN:VCALENDAR", "(text/calendar)"),
        (
            'Content-Type: application/pdf; name="=?utf-8?q?Befehle_f=C3=BCr_1901.pdf?="\n'
            'Content-Disposition: attachment; filename="=?utf-8?q?Befehle_f=C3=BCr_1901.pdf?="\n'
            "\nJVBERi0=",
            "ignored attachment Befehle für 1901.pdf (application/pdf)",
        ),
    ],
)
def test_attachments_are_ignored_and_noted(part: str, note: str) -> None:
    raw = multipart("mixed", "Content-Type: text/plain\n\nLIST", part)
    assert body_of(raw) == "LIST"
    assert note in notes_of(raw)


def test_forwarded_message_part_is_not_commands() -> None:
    nested = "Content-Type: message/rfc822\n\nFrom: x@example.net\nSubject: old\n\nA Par - Bur\n"
    raw = multipart("mixed", "Content-Type: text/plain\n\nSee the attached.", nested)
    assert body_of(raw) == "See the attached."
    assert "ignored the forwarded original message" in notes_of(raw)


def test_message_that_is_only_a_forwarded_message() -> None:
    raw = mail("From: x@example.net\n\nA Par - Bur\n", "Content-Type: message/rfc822\n")
    assert body_of(raw) == ""
    assert "forwarded original" in notes_of(raw)


def test_pgp_mime_takes_the_first_part() -> None:
    raw = multipart(
        'signed; micalg=pgp-sha256; protocol="application/pgp-signature"',
        "Content-Type: text/plain\n\nA Par H\n",
        "Content-Type: application/pgp-signature\n\n-----BEGIN PGP SIGNATURE-----\nxx\n",
    )
    assert body_of(raw) == "A Par H"
    assert "signed" in notes_of(raw)


def test_encrypted_mail_has_no_body() -> None:
    raw = multipart(
        'encrypted; protocol="application/pgp-encrypted"',
        "Content-Type: application/pgp-encrypted\n\nVersion: 1",
        "Content-Type: application/octet-stream\n\n-----BEGIN PGP MESSAGE-----\n",
    )
    assert body_of(raw) == ""
    assert "encrypted" in notes_of(raw)


def test_multipart_without_its_boundary() -> None:
    raw = mail("A Par H\n", "Content-Type: multipart/mixed; boundary=NOWHERE\n")
    sub = parse_submission(raw)
    assert sub.body == ""
    assert sub.notes


def test_deeply_nested_multiparts_do_not_crash() -> None:
    depth = 120
    head = "".join(
        f"Content-Type: multipart/mixed; boundary=b{i}\n\n--b{i}\n" for i in range(depth)
    )
    tail = "".join(f"\n--b{i}--" for i in reversed(range(depth)))
    raw = mail(head + "Content-Type: text/plain\n\nA Par H" + tail, "MIME-Version: 1.0\n")
    sub = parse_submission(raw)
    assert isinstance(sub.body, str)


# --- transfer encodings and charsets -------------------------------------------------------


def test_quoted_printable() -> None:
    raw = mail(
        "A Par =\n- Bur\nPRESS TO E\nGr=C3=BC=C3=9Fe=\n\nENDPRESS\n",
        "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n",
    )
    assert body_of(raw) == "A Par - Bur\nPRESS TO E\nGrüße\nENDPRESS"


def test_base64() -> None:
    text = "SIGNON Rgame1 pw\r\nF Sev - Bla\r\nПривет\r\n"
    encoded = base64.encodebytes(text.encode("utf-8")).decode("ascii")
    raw = mail(
        encoded, "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n"
    )
    assert body_of(raw) == "SIGNON Rgame1 pw\nF Sev - Bla\nПривет"


def test_broken_base64_does_not_crash() -> None:
    raw = mail(
        "!!!not base64@@@\n", "Content-Type: text/plain\nContent-Transfer-Encoding: base64\n"
    )
    assert isinstance(body_of(raw), str)


@pytest.mark.parametrize(
    "charset, text",
    [
        ("windows-1252", "“Deal” – I’m in… 5€"),
        ("iso-8859-1", "Très bien, à bientôt"),
        ("iso-8859-15", "100 € et un œuf"),
        ("koi8-r", "Привет, Турция"),
        ("utf-8", "Grüße – 🙂"),
        ("iso-2022-jp", "こんにちは"),
        ("shift_jis", "こんにちは"),
    ],
)
def test_declared_charsets(charset: str, text: str) -> None:
    raw = plain(f"PRESS TO E\n{text}\nENDPRESS".encode(charset), charset)
    assert body_of(raw) == f"PRESS TO E\n{text}\nENDPRESS"
    assert notes_of(raw) == ""


def test_latin1_label_with_windows_1252_smart_quotes() -> None:
    raw = plain("“Deal” – à bientôt".encode("cp1252"), "iso-8859-1")
    assert body_of(raw) == "“Deal” – à bientôt"
    assert notes_of(raw) == ""


def test_utf8_declared_as_latin1_is_read_as_utf8() -> None:
    raw = plain("Ça va très bien".encode(), "iso-8859-1")
    assert body_of(raw) == "Ça va très bien"
    assert "declared charset iso-8859-1 was wrong" in notes_of(raw)


def test_latin1_declared_as_utf8_is_read_as_windows_1252() -> None:
    raw = plain("Ça va très bien".encode("latin-1"), "utf-8")
    assert body_of(raw) == "Ça va très bien"
    assert "read as windows-1252" in notes_of(raw)


def test_8bit_declared_us_ascii() -> None:
    raw = plain("Grüße".encode(), "us-ascii")
    assert body_of(raw) == "Grüße"
    assert "us-ascii was wrong" in notes_of(raw)


@pytest.mark.parametrize(
    "data, expected, note",
    [
        ("Grüße".encode(), "Grüße", "read as utf-8"),
        ("“Grüße”".encode("cp1252"), "“Grüße”", "read as windows-1252"),
    ],
)
def test_missing_charset_tries_utf8_then_windows_1252(
    data: bytes, expected: str, note: str
) -> None:
    raw = plain(data, None)
    assert body_of(raw) == expected
    assert "no charset declared: " + note in notes_of(raw)


@pytest.mark.parametrize("charset", ["x-unknown", "utf8mb4", "base64", "rot13", "undefined", "!!"])
def test_unknown_or_non_text_charsets(charset: str) -> None:
    raw = plain("Grüße".encode(), charset)
    assert body_of(raw) == "Grüße"
    assert "read as utf-8" in notes_of(raw)


def test_undecodable_bytes_are_replaced() -> None:
    raw = plain(b"A Par H\n\x81\x8d\x8f\x90\x9d\xff\xfe", None)
    assert body_of(raw).startswith("A Par H\n")
    assert "\ufffd" in body_of(raw)
    assert "replaced undecodable characters" in notes_of(raw)


def test_undecodable_bytes_in_a_declared_multibyte_charset() -> None:
    raw = plain(b"A Par H \x82\xa0\xff\xff", "shift_jis")
    assert body_of(raw).startswith("A Par H")
    assert "replaced undecodable characters" in notes_of(raw)


def test_html_charset_from_meta_tag() -> None:
    markup = '<html><head><meta charset="windows-1252"></head><body>“Hi”</body></html>'
    raw = mail(markup.encode("cp1252"), "Content-Type: text/html\n")
    assert body_of(raw) == "“Hi”"


# --- HTML to text ------------------------------------------------------------------------


def test_html_line_structure() -> None:
    raw = html(
        "<div>SIGNON Fgame1 pw</div><div>A Par - Bur<br>F Bre - MAO</div>"
        "<ul><li>A Mar H</li><li>A Mar\n   S A Par</li></ul>"
        "<table><tr><td>F</td><td>Bre</td></tr><tr><td>A</td><td>Par</td></tr></table>"
    )
    assert (
        body_of(raw)
        == "SIGNON Fgame1 pw\nA Par - Bur\nF Bre - MAO\nA Mar H\nA Mar S A Par\nF Bre\nA Par"
    )
    assert "converted HTML to text" in notes_of(raw)


def test_html_paragraphs_are_separated_by_a_blank_line_but_outlook_lines_are_not() -> None:
    assert body_of(html("<p>One</p><p>Two<br></p>")) == "One\n\nTwo"
    outlook = '<p class=MsoNormal>A Par H<o:p></o:p></p><p class="MsoNormal">F Bre H</p>'
    assert body_of(html(outlook)) == "A Par H\nF Bre H"
    blank = (
        "<p class=MsoNormal>A<o:p></o:p></p><p class=MsoNormal><o:p>&nbsp;</o:p></p>"
        "<p class=MsoNormal>B</p>"
    )
    assert body_of(html(blank)) == "A\n\nB"


def test_gmail_blank_lines() -> None:
    assert body_of(html("<div>A</div><div><br></div><div>B</div>")) == "A\n\nB"


def test_html_entities_and_dropped_elements() -> None:
    raw = html(
        "<html><head><title>T</title><style>p {color: red}</style></head>"
        "<body><script>var x = '<div>no</div>';</script>"
        "<p>Fran&ccedil;ois &amp; co &lt;3 &#8212; &#x263A; a&nbsp;b</p></body></html>"
    )
    assert body_of(raw) == "François & co <3 — ☺ a b"


def test_html_head_without_end() -> None:
    assert body_of(html("<head><title>x</title><body>LIST</body>")) == "LIST"
    assert body_of(html("<html><head><meta charset=utf-8><title>x</title><p>LIST")) == "LIST"


def test_html_that_is_all_quote_has_no_body() -> None:
    raw = html(
        "<div>On Tue, 3 Nov 2026, J &lt;j@x.org&gt; wrote:</div><blockquote>A Par</blockquote>"
    )
    assert body_of(raw) == ""


def test_html_blockquote_is_quoted_text() -> None:
    raw = html(
        "<div>A Par - Bur</div><div>On Tue, 3 Nov 2026, Judge &lt;j@x&gt; wrote:</div>"
        "<blockquote>old <blockquote>older</blockquote> stuff</blockquote><div>F Bre H</div>"
    )
    assert body_of(raw) == "A Par - Bur\nF Bre H"
    assert "ignored quoted text" in notes_of(raw)


def test_html_pre_keeps_its_lines_and_spaces() -> None:
    assert body_of(html("<pre>A Par H\n  F Bre H</pre>")) == "A Par H\n  F Bre H"


def test_malformed_html_does_not_crash() -> None:
    for markup in [
        "<div><p>A<",
        "<<<>>>&&&;",
        "<![CDATA[x",
        "<!-- open",
        "<a href='x>y</a>",
        "<table><td>A<td>B</table></tr>",
        "</blockquote>LIST",
        "<br/><br/>LIST",
    ]:
        assert isinstance(body_of(html(markup)), str)
    assert body_of(html("</blockquote>LIST")) == "LIST"


def test_html_outlook_header_block_ends_the_commands() -> None:
    raw = html(
        "<p class=MsoNormal>F Den - Swe</p><div style='border-top:solid #E1E1E1 1pt'>"
        "<p class=MsoNormal><b>From:</b> Judge &lt;judge@example.org&gt;<br><b>Sent:</b> Tuesday"
        "<br><b>To:</b> Bob<br><b>Subject:</b> results</p></div><p class=MsoNormal>A DEN H</p>"
    )
    assert body_of(raw) == "F Den - Swe"


# --- text: quotes, attributions, forwards, signatures -----------------------------------


def test_quoted_lines_are_dropped_even_indented() -> None:
    raw = plain("A Par - Bur\n> old\n   >> older\n>\nF Bre H\n")
    assert body_of(raw) == "A Par - Bur\nF Bre H"
    assert "ignored quoted text" in notes_of(raw)


def test_order_arrows_are_not_quotes() -> None:
    assert body_of(plain("A Par -> Bur\nA Mar => Spa")) == "A Par -> Bur\nA Mar => Spa"


@pytest.mark.parametrize(
    "attribution",
    [
        "On Tue, 3 Nov 2026 at 10:00, Bob <bob@example.net> wrote:",
        "On Tue, 3 Nov 2026 at 10:00, Bob <bob@example.net>\nwrote:",
        "On Tue, Nov 3, 2026 at 10:00 AM Diplomacy Judge <\njudge@example.org> wrote:",
        "On 03/11/2026 10:00, Diplomacy Judge wrote:",
        "On Tue, Nov 03, 2026 at 10:00:00AM +0000, Frank wrote:",
        "On 3 Nov 2026, at 10:00, Bob <bob@example.net> wrote:",
        "Le mar. 3 nov. 2026 à 10:00, Bob <bob@example.net> a écrit :",
        "Le mar. 3 nov. 2026 à 10:00, Bob <bob@example.net> a\nécrit :",
        "Am 03.11.2026 um 10:00 schrieb Bob <bob@example.net>:",
        "El mar, 3 nov 2026 a las 10:00, Bob (<bob@example.net>) escribió:",
        "Il giorno mar 3 nov 2026 alle ore 10:00 Bob <bob@example.net> ha scritto:",
        "Op di 3 nov. 2026 om 10:00 schreef Bob <bob@example.net>:",
        "Em ter., 3 de nov. de 2026 às 10:00, Bob <bob@example.net> escreveu:",
    ],
)
def test_attributions_are_dropped(attribution: str) -> None:
    raw = plain(f"A Par - Bur\n\n{attribution}\n\n> old orders\n> A Par H\n")
    assert body_of(raw) == "A Par - Bur"


def test_attribution_with_bottom_posted_commands() -> None:
    raw = plain("On Tue, 3 Nov 2026 at 10:00, Judge <j@x.org> wrote:\n> errors\n\nA Par - Bur\n")
    assert body_of(raw) == "A Par - Bur"


def test_plain_name_wrote_line_needs_a_quote_after_it() -> None:
    assert body_of(plain("A Par H\nBob Smith wrote:\n> hi\n")) == "A Par H"
    press = "PRESS TO E\nHere is what Russia wrote:\nnothing at all.\nENDPRESS"
    assert body_of(plain(press)) == press


def test_press_line_starting_with_on_is_kept() -> None:
    press = "PRESS TO E\nOn reflection, here is what I think:\nwar.\nENDPRESS"
    assert body_of(plain(press)) == press


@pytest.mark.parametrize(
    "marker",
    [
        "-----Original Message-----",
        "----- Original Message -----",
        "-----Ursprüngliche Nachricht-----",
        "-----Message d'origine-----",
    ],
)
def test_outlook_original_message_ends_the_commands(marker: str) -> None:
    raw = plain(f"A Par - Bur\n\n{marker}\nFrom: Judge\nA Par H\n")
    assert body_of(raw) == "A Par - Bur"
    assert "ignored quoted text" in notes_of(raw)


@pytest.mark.parametrize(
    "block",
    [
        "From: Judge <judge@example.org>\nSent: Tuesday, November 3, 2026 10:00 AM\n"
        "To: Bob\nSubject: results",
        "________________________________\nFrom: Judge <judge@example.org>\n"
        "Sent: 03 November 2026 10:00\nTo: bob@example.com\nSubject: results",
        "Von: Judge <judge@example.org>\nGesendet: Dienstag, 3. November 2026 10:00\n"
        "An: Bob\nBetreff: results",
        "De : Judge <judge@example.org>\nEnvoyé : mardi 3 novembre 2026 10:00\n"
        "À : Bob\nObjet : results",
        "*From:* Judge <judge@example.org>\n*Sent:* Tuesday\n*To:* Bob\n*Subject:* results",
    ],
)
def test_outlook_header_block_ends_the_commands(block: str) -> None:
    raw = plain(f"F Den - Swe\n\n{block}\n\nA DEN H\n")
    assert body_of(raw) == "F Den - Swe"


def test_press_with_from_line_but_no_header_block_is_kept() -> None:
    press = "PRESS TO G\nFrom: the Tsar\nTo: the Kaiser\nStay out of Sweden.\nENDPRESS"
    assert body_of(plain(press)) == press


def test_underscore_line_alone_is_kept() -> None:
    text = "PRESS TO G\n____________________\nHi\nENDPRESS"
    assert body_of(plain(text)) == text


@pytest.mark.parametrize(
    "marker",
    [
        "---------- Forwarded message ---------",
        "-------- Forwarded Message --------",
        "Begin forwarded message:",
        "---------- Weitergeleitete Nachricht ----------",
    ],
)
def test_forwarded_markers_end_the_commands(marker: str) -> None:
    raw = plain(f"LIST game1\n\n{marker}\n\nFrom: x\nSIGNON Fgame1 pw\nA Par - Bur\n")
    assert body_of(raw) == "LIST game1"
    assert "ignored the forwarded original message" in notes_of(raw)


@pytest.mark.parametrize("separator", ["-- ", "--", "--   ", "-- \t"])
def test_signature_ends_the_body(separator: str) -> None:
    raw = plain(f"A Par - Bur\nSIGNOFF\n{separator}\nBob\nA Par H\n")
    assert body_of(raw) == "A Par - Bur\nSIGNOFF"
    assert "stopped at the signature" in notes_of(raw)


@pytest.mark.parametrize("line", ["---", " -- ", "A Par -- Bur", "-- Bob", "----"])
def test_not_signatures(line: str) -> None:
    assert body_of(plain(f"A Par H\n{line}\nF Bre H")) == f"A Par H\n{line.rstrip()}\nF Bre H"


@pytest.mark.parametrize(
    "signoff",
    [
        "Sent from my iPhone",
        "Sent from my iPad",
        "Sent from my Samsung Galaxy smartphone.",
        "Sent from Outlook for Android",
        "Get Outlook for iOS<https://aka.ms/o0ukef>",
        "Envoyé de mon iPhone",
        "Von meinem iPhone gesendet",
        "Enviado desde mi iPhone",
        "Sent from Yahoo Mail for iPhone",
    ],
)
def test_mobile_signoffs_are_dropped(signoff: str) -> None:
    raw = plain(f"A Par H\n\n{signoff}\n")
    assert body_of(raw) == "A Par H"
    assert "sign-off" in notes_of(raw)


def test_sent_from_press_is_kept() -> None:
    text = "PRESS TO E\nSent from Paris with love\nENDPRESS"
    assert body_of(plain(text)) == text


def test_pgp_inline_keeps_only_the_signed_text() -> None:
    text = (
        "Unsigned preamble\n-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\n"
        "A Par - Bur\n- - dashed line\n- -- \nBob\n-----BEGIN PGP SIGNATURE-----\n\n"
        "iQEz\n=abcd\n-----END PGP SIGNATURE-----\n"
    )
    raw = plain(text)
    assert body_of(raw) == "A Par - Bur\n- dashed line"
    assert "kept only the signed text" in notes_of(raw)
    assert "stopped at the signature" in notes_of(raw)


def test_truncated_pgp_inline() -> None:
    raw = plain("-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA1\n\nA Par H\n")
    assert body_of(raw) == "A Par H"


def test_quoted_pgp_block_is_just_quoted() -> None:
    raw = plain("A Par H\n> -----BEGIN PGP SIGNED MESSAGE-----\n> Hash: SHA1\n>\n> F Bre H\n")
    assert body_of(raw) == "A Par H"


def test_outlook_inline_image_placeholder_is_dropped() -> None:
    raw = plain("SIGNOFF\n\nBob\n[cid:image001.png@01DB4DD9.7C2E1A40]\n")
    assert body_of(raw) == "SIGNOFF\n\nBob"


# --- text: lines, spaces, flowed -----------------------------------------------------------


def test_line_endings_trailing_spaces_and_blank_lines() -> None:
    raw = plain(b"\r\n\r\n  \r\nA Par H   \r\n\r\n\r\n\tF Bre H\t\rA Mar H\r\n \r\n\r\n")
    assert body_of(raw) == "A Par H\n\n\n\tF Bre H\nA Mar H"


def test_no_break_and_zero_width_spaces() -> None:
    text = "A\u00a0Par\u202f-\u2009Bur\n\ufeffF\u200b Bre\u200d H\u00a0\u00a0\nA\u2060 Mar H"
    assert body_of(plain(text)) == "A Par - Bur\nF Bre H\nA Mar H"


def test_control_characters_are_removed() -> None:
    assert body_of(plain("A Par\x00 H\x07\nF Bre H\x1b")) == "A Par H\nF Bre H"


def test_very_long_line_is_kept_and_an_over_long_one_is_cut() -> None:
    kept = "A" * 9_999
    cut = "B" * (MAX_LINE + 500)
    raw = plain(f"{kept}\n{cut}\nSIGNOFF")
    assert body_of(raw) == f"{kept}\n{'B' * MAX_LINE}\nSIGNOFF"
    assert f"cut a line longer than {MAX_LINE} characters" in notes_of(raw)


def test_format_flowed_is_joined() -> None:
    text = "PRESS TO F\nDear France, the \nChannel is \nempty.\n\nSIGNOFF\n"
    raw = plain(text, "utf-8", "; format=flowed")
    assert body_of(raw) == "PRESS TO F\nDear France, the Channel is empty.\n\nSIGNOFF"


def test_format_flowed_delsp_and_space_stuffing() -> None:
    text = "Dear France, the Chan \nnel is empty.\n From me.\n>quoted \n>text\n-- \nsig\n"
    raw = plain(text, "utf-8", "; format=flowed; delsp=yes")
    assert body_of(raw) == "Dear France, the Channel is empty.\nFrom me."


def test_fixed_format_trailing_spaces_are_not_soft_breaks() -> None:
    assert body_of(plain("A Par H \nF Bre H \n")) == "A Par H\nF Bre H"


# --- never crash ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"\n",
        b"\r\n\r\n",
        b"no headers at all, just text",
        b"From: \xff\xfe\x00<\x80@\x81>\nSubject: \xff\n\n\xff\xfe",
        b'Content-Type: text/plain; charset="\nContent-Transfer-Encoding: base64\n\n====',
        b'Content-Type: multipart/alternative; boundary=""\n\n--\n--\n',
        b"Content-Type: multipart/mixed\n\n--x\n",
        b"Subject: =?utf-8?q?=FF=FE?= =?bogus?b?////?= =?utf-8?b?\n\nx",
        b"From: =?utf-8?b?AAAA?= <a@b.c>\nFrom: second@b.c\n\nx",
        b"Content-Type: text/html; charset=utf-16\n\n\xff\xfe<\x00p\x00>\x00",
        b"Content-Type: text/plain; charset=utf-16\n\n\xff\xfeA\x00\x00\xd8",
        b"Content-Type: text/plain\nContent-Transfer-Encoding: x-uuencode\n\n"
        b"begin 644 f\n!!!\nend\n",
        b"From bob@example.net Tue Nov  3 10:00:00 2026\nFrom: bob@example.net\n\nLIST",
    ],
)
def test_odd_messages_do_not_crash(raw: bytes) -> None:
    sub = parse_submission(raw)
    assert isinstance(sub, Submission)
    assert sub.size == len(raw)
    assert isinstance(sub.body, str) and isinstance(sub.subject, str)


def test_mbox_from_line_is_not_a_header() -> None:
    raw = b"From bob@example.net Tue Nov  3 10:00:00 2026\nFrom: Bob@Example.net\n\nLIST"
    sub = parse_submission(raw)
    assert (sub.sender, sub.body) == ("bob@example.net", "LIST")


def _check(sub: Submission, raw: bytes) -> None:
    assert isinstance(sub, Submission)
    assert sub.size == len(raw)
    assert isinstance(sub.body, str) and isinstance(sub.subject, str)
    assert isinstance(sub.sender, str) and sub.sender == sub.sender.lower()
    assert all(isinstance(note, str) for note in sub.notes)
    assert all(len(line) <= MAX_LINE for line in sub.body.split("\n"))
    assert not any(0xD800 <= ord(c) <= 0xDFFF for c in sub.body + sub.subject + sub.sender_name)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=4000), st.integers(min_value=50, max_value=5000))
def test_random_bytes_never_crash(raw: bytes, max_bytes: int) -> None:
    _check(parse_submission(raw), raw)
    _check(parse_submission(raw, max_bytes=max_bytes), raw)


CORPUS_MESSAGES = sorted(path.read_bytes() for path in CORPUS.glob("*.eml"))
ALPHABET = [
    b"\n",
    b"\r\n",
    b"--",
    b"=",
    b"?",
    b"<",
    b">",
    b":",
    b";",
    b'"',
    b"\xff",
    b"\x00",
    b"=?utf-8?b?",
    b"boundary=",
    b"charset=",
    b"multipart/",
    b"base64",
    b"<blockquote>",
]


@st.composite
def mutated_corpus_message(draw: st.DrawFn) -> bytes:
    raw = bytearray(draw(st.sampled_from(CORPUS_MESSAGES)))
    rng = random.Random(draw(st.integers(min_value=0, max_value=2**32)))
    for _ in range(draw(st.integers(min_value=1, max_value=12))):
        if not raw:
            break
        where = rng.randrange(len(raw))
        action = rng.randrange(5)
        if action == 0:
            raw[where] = rng.randrange(256)
        elif action == 1:
            del raw[where : where + rng.randrange(1, 200)]
        elif action == 2:
            raw[where:where] = rng.choice(ALPHABET)
        elif action == 3:
            raw = raw[:where]  # truncated
        else:
            start = rng.randrange(len(raw))
            raw[where:where] = raw[start : start + rng.randrange(1, 300)]
    return bytes(raw)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_corpus_message())
def test_mutated_corpus_messages_never_crash(raw: bytes) -> None:
    _check(parse_submission(raw), raw)


def test_an_idn_sender_is_read_in_idna_and_a_utf8_local_part_as_written() -> None:
    raw = "From: Ann <Ann@München.DE>\nSubject: s\n\nx\n".encode()
    assert parse_submission(raw).sender == "ann@xn--mnchen-3ya.de"
    raw = "From: Jörg <jörg@bücher.example>\nSubject: s\n\nx\n".encode()
    sub = parse_submission(raw)
    assert (sub.sender_name, sub.sender) == ("Jörg", "jörg@xn--bcher-kva.example")


def test_a_long_subject_is_cut() -> None:
    sub = parse_submission(mail("x", head="From: p@example.net\nSubject: " + "word " * 500 + "\n"))
    assert sub.subject == ("word " * 40)[: MAX_SUBJECT - 3] + "..."

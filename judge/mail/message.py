"""A raw RFC 822 message -> a Submission: who sent it and the plain text the judge reads.

The body is what a person reading the mail would say the sender wrote: the text/plain
alternative (or the HTML one turned into text), decoded whatever the charset claims,
without attachments, forwarded messages, quoted replies, signatures or mobile sign-offs.
Everything left out is named in `notes`. `parse_submission` never raises.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from email.parser import BytesParser
from types import MappingProxyType

from judge.mail.headers import cut, header_address, header_text, message_id_of, references_of
from judge.mail.mime import text_of
from judge.store import header_policy

HEADER_CAP = 256 * 1024  # a too-large message's header block is read up to this size
MAX_SUBJECT = 200  # a longer subject is cut to this many characters (it is echoed in replies)

KEPT_HEADERS = (
    "auto-submitted",
    "precedence",
    "list-id",
    "list-unsubscribe",
    "return-path",
    "x-judge",
    "x-loop",
    "x-autoreply",
    "x-autorespond",
    "content-type",
)


@dataclass(frozen=True)
class Submission:
    """A received mail as the judge reads it (parse_submission)."""

    sender: str  # bare address from From:, lower case, IDNA domain; "" if none or unusable
    sender_name: str  # display name from From: ("" if none)
    reply_to: str | None  # bare address from Reply-To:, lower case, or None
    subject: str  # decoded (RFC 2047), whitespace collapsed, cut to MAX_SUBJECT; "" if none
    message_id: str | None  # as in the header, with angle brackets
    references: tuple[str, ...]  # Message-IDs from In-Reply-To and References
    body: str  # the plain text the judge reads commands from
    notes: tuple[str, ...]  # what was done to get the body, in plain words
    headers: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    size: int = 0  # len(raw)
    too_large: bool = False  # size > the limit given


def reply_address(sub: Submission) -> str:
    """Where an answer goes: the sender (From), never Reply-To.

    Anyone can write any Reply-To, and an answer sent there would let a stranger make the
    judge mail a third party (with the orders, or an error about a forged SIGNON). The
    addresses of record get their copies from the dispatcher, so a player whose Reply-To
    is their address of record still has the answer there."""
    return sub.sender


def parse_submission(raw: bytes, max_bytes: int = 1_000_000) -> Submission:
    """Parse raw message bytes. Never raises: the worst case is an empty submission."""
    try:
        data = _as_bytes(raw)
    except Exception:
        data = b""
    size = len(data)
    too_large = size > max_bytes
    try:
        return _parse(data, size, too_large)
    except Exception:
        pass
    try:  # the MIME structure defeated us: the headers alone, then
        sub = _parse(_header_block(data), size, True)
        note = "could not read the message structure; its text was not read"
        return replace(sub, body="", notes=(note,), too_large=too_large)
    except Exception:
        return Submission(
            sender="",
            sender_name="",
            reply_to=None,
            subject="",
            message_id=None,
            references=(),
            body="",
            notes=("could not read the message at all",),
            headers=MappingProxyType({}),
            size=size,
            too_large=too_large,
        )


def _as_bytes(raw: object) -> bytes:
    """The message's bytes; a str (a caller's mistake) as its UTF-8, surrogates kept.
    Anything else raises TypeError (parse_submission turns it into an empty message)."""
    if isinstance(raw, str):
        return raw.encode("utf-8", "surrogateescape")
    if isinstance(raw, bytes | bytearray | memoryview):
        return bytes(raw)
    raise TypeError(f"a message is bytes, not {type(raw).__name__}")


def _header_block(data: bytes) -> bytes:
    head = data[:HEADER_CAP]
    m = re.search(rb"\r?\n\r?\n", head)
    return head[: m.end()] if m else head


def _parse(data: bytes, size: int, too_large: bool) -> Submission:
    notes: list[str] = []
    # The header fields with the modern policy (RFC 2047, address lists); the MIME walk with
    # compat32, which is ten times quicker on mail made of thousands of parts. Both cut
    # each field to header_policy.MAX_FIELD: the stdlib's parsers are quadratic.
    head = _header_block(data)
    msg = BytesParser(policy=header_policy.DEFAULT).parsebytes(head, headersonly=True)
    if too_large:
        notes.append(f"the message is too large ({size} bytes); its text was not read")
        body = ""
    else:
        body = text_of(BytesParser(policy=header_policy.COMPAT32).parsebytes(data), notes)
    sender_name, sender = header_address(msg, "from")
    _, reply_to = header_address(msg, "reply-to")
    headers = {}
    for name in KEPT_HEADERS:
        value = header_text(msg, name)
        if value is not None:
            headers[name] = value
    return Submission(
        sender=sender,
        sender_name=sender_name,
        reply_to=reply_to or None,
        subject=cut(" ".join((header_text(msg, "subject") or "").split()), MAX_SUBJECT),
        message_id=message_id_of(msg),
        references=references_of(msg),
        body=body,
        notes=tuple(dict.fromkeys(notes)),
        headers=MappingProxyType(headers),
        size=size,
        too_large=too_large,
    )

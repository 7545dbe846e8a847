"""Outgoing mail: templates rendered into RFC 822 messages with the judge's headers.

Every mail the judge sends carries `Auto-Submitted` and `X-Judge` (so that judges and
autoresponders never answer each other), a Message-ID fixed when it is queued, and on
replies `In-Reply-To`/`References`.
"""

from __future__ import annotations

import base64
import hashlib
import uuid
from collections.abc import Sequence
from datetime import datetime
from email.header import Header
from email.quoprimime import body_encode
from email.utils import format_datetime, formataddr, make_msgid
from functools import cache

import jinja2

from judge.config import Config
from judge.paths import data_dir

TEMPLATES_DIR = data_dir("templates")


@cache
def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES_DIR),
        undefined=jinja2.StrictUndefined,  # a missing variable is a bug, not a blank
        keep_trailing_newline=True,
        trim_blocks=True,  # a block tag's own line leaves no blank line behind
        lstrip_blocks=True,
        autoescape=False,  # plain-text mail
    )


def render(name: str, config: Config, **context: object) -> tuple[str, str]:
    """Render `templates/<name>.txt` -> (subject, body)."""
    template = _environment().get_template(f"{name}.txt")
    text = template.render(judge={"name": config.name, "address": config.address}, **context)
    first, _, body = text.lstrip("\n").partition("\n")
    if not first.startswith("Subject:"):
        raise ValueError(f"template {name}.txt must begin with a Subject: line")
    subject = first[len("Subject:") :].strip()
    return f"[{config.name}] {subject}" if config.name else subject, body.strip("\n") + "\n"


def new_message_id(config: Config) -> str:
    domain = config.address.rpartition("@")[2] or "judge.invalid"
    return make_msgid(idstring=uuid.uuid4().hex[:12], domain=domain)


def build(
    config: Config,
    to: Sequence[str],
    subject: str,
    body: str,
    now: datetime,
    message_id: str,
    in_reply_to: str | None = None,
    references: Sequence[str] = (),
    auto_submitted: str = "auto-replied",
    extra: Sequence[tuple[str, str]] = (),
) -> bytes:
    """An RFC 822 message with CRLF line ends, as bytes ready for SMTP or a Maildir.

    Written out directly rather than through email.message: the judge's mail is one
    text/plain part with short headers, and the library's header machinery cost more than
    everything else in handling a message."""
    lines = body.replace("\r\n", "\n").split("\n")
    if body.isascii() and all(len(line) <= 998 for line in lines):
        payload, charset, cte = "\r\n".join(lines), "us-ascii", "7bit"
    else:
        # quoprimime encodes characters below 256 as bytes: hand it the UTF-8 bytes.
        utf8 = body.replace("\r\n", "\n").encode("utf-8").decode("latin-1")
        payload = body_encode(utf8, maxlinelen=76, eol="\r\n")
        charset, cte = "utf-8", "quoted-printable"
    sender = formataddr((f"{config.name} judge" if config.name else "", config.address))
    headers = [
        ("From", sender),
        ("To", ", ".join(to)),
        ("Subject", _ascii(subject)),
        ("Date", format_datetime(now)),
        ("Message-ID", message_id),
    ]
    if in_reply_to:
        headers.append(("In-Reply-To", in_reply_to))
        headers.append(("References", " ".join([*references, in_reply_to][-10:])))
    headers += [(name, _ascii(value)) for name, value in extra]
    headers += [
        ("Auto-Submitted", auto_submitted),
        ("X-Judge", _ascii(config.name or "judge")),
        ("MIME-Version", "1.0"),
        ("Content-Type", f'text/plain; charset="{charset}"'),
        ("Content-Transfer-Encoding", cte),
    ]
    head = "".join(f"{name}: {_fold(value)}\r\n" for name, value in headers)
    return (head + "\r\n" + payload).encode("ascii")


_PART_HEADERS = (b"content-type:", b"content-transfer-encoding:", b"mime-version:")


def attach_picture(raw: bytes, name: str, png: bytes, message_id: str) -> bytes:
    """`raw` (a message from `build`: one text/plain part) with the PNG `png` attached
    inline after the text: multipart/mixed, the text part first, then the image with
    Content-Disposition: inline and a Content-ID. The same arguments give the same bytes
    (the boundary comes from the Message-ID), so a resend is the same mail."""
    head, _, text = raw.partition(b"\r\n\r\n")
    kept, part = [], []
    for line in head.split(b"\r\n"):
        lower = line.lower()
        if lower.startswith(_PART_HEADERS):
            if not lower.startswith(b"mime-version:"):
                part.append(line)
        else:
            kept.append(line)
    digest = hashlib.sha256(message_id.encode()).hexdigest()
    boundary = f"=_judge_{digest[:24]}".encode()
    domain = message_id.strip("<>").rpartition("@")[2] or "judge.invalid"
    encoded = base64.encodebytes(png).replace(b"\n", b"\r\n")
    name_b = name.encode("ascii")
    lines = [
        *kept,
        b"MIME-Version: 1.0",
        b'Content-Type: multipart/mixed; boundary="' + boundary + b'"',
        b"",
        b"This message has two parts: the text, then a picture of the board (PNG).",
        b"",
        b"--" + boundary,
        *part,
        b"",
        text,
        b"--" + boundary,
        b'Content-Type: image/png; name="' + name_b + b'"',
        b'Content-Disposition: inline; filename="' + name_b + b'"',
        b"Content-ID: <" + name_b + b"." + digest[:12].encode() + b"@" + domain.encode() + b">",
        b"Content-Transfer-Encoding: base64",
        b"",
        encoded + b"--" + boundary + b"--",
        b"",
    ]
    return b"\r\n".join(lines)


def _ascii(value: str) -> str:
    """A header value as ASCII: RFC 2047 encoded words when it has other characters."""
    return value if value.isascii() else Header(value, "utf-8").encode()


def _fold(value: str) -> str:
    """Fold a long header at spaces so no line passes 78 characters where it can."""
    if len(value) <= 76:
        return value
    out, line = [], ""
    for word in value.split(" "):
        if line and len(line) + 1 + len(word) > 76:
            out.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    out.append(line)
    return "\r\n ".join(out)

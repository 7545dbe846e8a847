"""Outgoing mail: templates rendered into RFC 822 messages with the judge's headers.

Every mail the judge sends carries `Auto-Submitted` and `X-Judge` (so that judges and
autoresponders never answer each other), a Message-ID fixed when it is queued, and on
replies `In-Reply-To`/`References`. Whatever a stranger's mail held (8-bit bytes, UTF-8
addresses, a megabyte of subject), building the answer never raises and every header
line is CRLF-terminated and within 998 octets (see `build` and `header_line`).
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import os
import re
import secrets
import time
from collections.abc import Sequence
from datetime import datetime
from email import policy
from email.header import Header
from email.quoprimime import body_encode
from email.utils import format_datetime, formataddr
from functools import cache, lru_cache

import jinja2

from judge.config import Config
from judge.mail import addresses
from judge.mail.error_lines import error_lines
from judge.paths import data_dir

TEMPLATES_DIR = data_dir("templates")


@cache
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES_DIR),
        undefined=jinja2.StrictUndefined,  # a missing variable is a bug, not a blank
        keep_trailing_newline=True,
        trim_blocks=True,  # a block tag's own line leaves no blank line behind
        lstrip_blocks=True,
        autoescape=False,  # plain-text mail
        # The templates are part of the judge, not of its configuration: read once a
        # process, not checked on disk again at each use (two stat calls a mail, 16,000
        # in a deadline burst).
        auto_reload=False,
    )
    env.filters["answered"] = answered_subject
    env.filters["error_lines"] = error_lines  # an ERROR line's words, broken to fit 78
    return env


def prepare(*names: str) -> None:
    """Compile `templates/<name>.txt` for each name now, as render would at its first
    use (and keeps them compiled): the first mail rendered then waits for none."""
    for name in names:
        _environment().get_template(f"{name}.txt")


def render(name: str, config: Config, **context: object) -> tuple[str, str]:
    """Render `templates/<name>.txt` -> (subject, body). The subject is the template's
    own (njudge's `CODE:game - PHASE ...` forms are in the templates). A body that begins
    with njudge's `::` header keeps the blank line njudge puts before it."""
    template = _environment().get_template(f"{name}.txt")
    text = template.render(judge={"name": config.name, "address": config.address}, **context)
    first, _, body = text.lstrip("\n").partition("\n")
    if not first.startswith("Subject:"):
        raise ValueError(f"template {name}.txt must begin with a Subject: line")
    body = body.strip("\n") + "\n"
    return first[len("Subject:") :].strip(), ("\n" + body if body.startswith(":: ") else body)


# "Re:", "RE[2]:", "AW:", "Sv:", "Antw:" ... as mail programs put them before a subject.
_REPLY_MARK = r"(?:re|aw|sv|antw)\s*(?:\[\d+\]|\^\d+)?\s*:\s*"
# What the judge itself put in front of a subject the sender answers: "[Error Flag]",
# "CODE:game - S1901M " (njudge's prefix).
_OWN_MARK = r"\[error flag\]\s*|[A-Za-z0-9_.-]+:[A-Za-z0-9_.-]+ - [A-Z]\d+[A-Z]X?\s+"

MAX_SUBJECT_ECHO = 100  # characters of a sender's subject repeated in the answer's


def answered_subject(subject: object, code: str = "") -> str:
    """A sender's subject as the answer repeats it after its own "Re: CODE:game - PHASE":
    one line (no CR, LF or control characters), every leading reply mark ("Re:", "AW:",
    ...) and the judge's own prefixes (`code`'s) removed (so never "Re: Re:"), at most
    MAX_SUBJECT_ECHO characters ("..." marks a cut). Encoded words were decoded when the
    mail was read; `build` encodes the result again."""
    text = _one_line(str(subject or ""))
    # The judge's own "[CODE]" tag too, as its mails' subjects began before njudge's forms.
    tag = rf"|\[{re.escape(code)}\]\s*" if code else ""
    text = re.sub(rf"^(?:{_REPLY_MARK}|{_OWN_MARK}{tag})+", "", text, flags=re.IGNORECASE)
    if len(text) > MAX_SUBJECT_ECHO:
        text = text[: MAX_SUBJECT_ECHO - 3] + "..."
    return text


def new_message_id(config: Config) -> str:
    """A fresh <unique@domain> of the judge's own domain, in ASCII (IDNA): the time and
    a count of this process's mails under a key of its own (blake2b), so that the ids
    tell a reader nothing of the mails between two of his. (make_msgid's random bits
    and a uuid4 for each, some 10 us, were a twentieth of a deadline burst's work.)"""
    mark = hashlib.blake2b(
        next(_ids.count).to_bytes(8, "big"), key=_ids.key, digest_size=8
    ).hexdigest()
    return f"<{int(time.time() * 100)}.{mark}@{_own_domain(config)}>"


class _Ids:
    """What makes this process's Message-IDs unique: made again in a forked child."""

    def __init__(self) -> None:
        self.key = secrets.token_bytes(32)
        self.count = itertools.count(1)


def _new_ids() -> None:
    global _ids
    _ids = _Ids()


_ids = _Ids()
os.register_at_fork(after_in_child=_new_ids)


def secret_message_id(config: Config) -> str:
    """A Message-ID nobody can guess (128 random bits): only the mail's recipient can
    answer it (`In-Reply-To`), which proves they read mail at that address."""
    return f"<{secrets.token_hex(16)}@{_own_domain(config)}>"


def _own_domain(config: Config) -> str:
    """The judge's domain for its Message-IDs, in ASCII (IDNA)."""
    return _domain_of(config.address)


@lru_cache(maxsize=8)
def _domain_of(address: str) -> str:
    # Kept: a deadline burst makes 24,000 Message-IDs of the one address.
    domain = addresses.ascii_form(address).rpartition("@")[2]
    return domain if domain.isascii() and domain else "judge.invalid"


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

    Never raises, whatever the recipients, subject or references hold: every header is
    one `header_line` (the stdlib's SMTP policy, RFC 2047), the subject and other values
    are cut to MAX_HEADER_CHARS, and a Message-ID that is not plain ASCII <left@right> is
    not referred to. The head is ASCII unless a recipient has a UTF-8 local part."""
    [raw] = build_each(
        config,
        [(to, message_id)],
        subject,
        body,
        now,
        in_reply_to=in_reply_to,
        references=references,
        auto_submitted=auto_submitted,
        extra=extra,
    )
    return raw


def build_each(
    config: Config,
    mails: Sequence[tuple[Sequence[str], str]],
    subject: str,
    body: str,
    now: datetime,
    in_reply_to: str | None = None,
    references: Sequence[str] = (),
    auto_submitted: str = "auto-replied",
    extra: Sequence[tuple[str, str]] = (),
    group: str | None = None,
) -> list[bytes]:
    """`build` for each of `mails` (its recipients, its Message-ID), the same text to
    each: what all share (the body and the other headers) made once, for a game's
    results to each of its readers. With `group` (words, e.g. "Diplomacy game war1"),
    the To: field is that group with no member shown (RFC 5322 3.4, `... war1:;`), not
    the recipients: one mail's bytes for readers who must not see each other's address."""
    lines = body.replace("\r\n", "\n").split("\n")
    if body.isascii() and all(len(line) <= 998 for line in lines):
        payload, charset, cte = "\r\n".join(lines), "us-ascii", "7bit"
    else:
        # quoprimime encodes characters below 256 as bytes: hand it the UTF-8 bytes.
        utf8 = body.replace("\r\n", "\n").encode("utf-8").decode("latin-1")
        payload = body_encode(utf8, maxlinelen=76, eol="\r\n")
        charset, cte = "utf-8", "quoted-printable"
    sender = formataddr(
        (f"{config.name} judge" if config.name else "", addresses.ascii_form(config.address))
    )
    first = header_line("From", sender)
    middle = header_line("Subject", _short(subject)) + header_line("Date", format_datetime(now))
    headers = []
    thread = [m for m in (_message_id(r) for r in (*references, in_reply_to or "")) if m]
    if in_reply_to and (replied := _message_id(in_reply_to)):
        headers.append(("In-Reply-To", replied))
        headers.append(("References", " ".join(dict.fromkeys(thread[-MAX_REFERENCES:]))))
    headers += [(name, _short(value)) for name, value in extra]
    headers += [
        ("Auto-Submitted", auto_submitted),
        ("X-Judge", _short(config.name or "judge")),
        ("MIME-Version", "1.0"),
        ("Content-Type", f'text/plain; charset="{charset}"'),
        ("Content-Transfer-Encoding", cte),
    ]
    last = "".join(header_line(name, value) for name, value in headers) + "\r\n"
    text = payload.encode("ascii")
    return [
        (
            first
            + (
                header_line("To", group_field(group))
                if group is not None
                else _address_list("To", ", ".join(_recipient(a) for a in to))
            )
            + middle
            + header_line("Message-ID", message_id)
            + last
        ).encode("utf-8")
        + text
        for to, message_id in mails
    ]


# A word of a phrase that needs no quotes (RFC 5322 atext).
_ATOM = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+")


def group_field(words: str) -> str:
    """An address group of no member named `words` (`Diplomacy game war1:;`): ASCII,
    each word that is not an atom quoted, never empty."""
    shown = []
    for word in _one_line(words).encode("ascii", "replace").decode().split():
        if _ATOM.fullmatch(word):
            shown.append(word)
        else:
            shown.append('"' + word.replace("\\", "\\\\").replace('"', '\\"') + '"')
    return " ".join(shown or ["readers"]) + ":;"


def _recipient(address: str) -> str:
    return addresses.ascii_form(_one_line(address).strip())


_PART_HEADERS = (b"content-type:", b"content-transfer-encoding:", b"mime-version:")


@lru_cache(maxsize=8)
def _base64_lines(png: bytes) -> bytes:
    """`png` in base64, in CRLF-ended lines of 76 (as encodebytes, whose loop is slow).
    Kept for the few pictures last attached: each goes to every reader of its game."""
    flat = base64.b64encode(png)
    lines_76 = [flat[i : i + 76] for i in range(0, len(flat), 76)]
    return b"\r\n".join(lines_76) + b"\r\n" if flat else b""


def attach_picture(raw: bytes, name: str, png: bytes, message_id: str) -> bytes:
    """`raw` (a message from `build`: one text/plain part) with the PNG `png` attached
    inline after the text: multipart/mixed, the text part first, then the image with
    Content-Disposition: inline and a Content-ID. The same arguments give the same bytes
    (the boundary comes from the Message-ID), so a resend is the same mail."""
    return b"".join(picture_parts(raw, name, png, message_id))


def picture_parts(raw: bytes, name: str, png: bytes, message_id: str) -> tuple[bytes, bytes, bytes]:
    """attach_picture's message in three pieces, each a run of whole CRLF-ended lines:
    the headers and the text part; the picture part's boundary and headers; the
    picture's base64 and the closing boundary. No line of the third begins with a dot
    (base64 and "--"), so sending it by SMTP needs no search for dots
    (judge/mail/outbox.smtp_data): 150 KB of it in each results mail."""
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
    name_b = name.encode("ascii")
    text_lines = [
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
    ]
    picture_lines = [
        b"--" + boundary,
        b'Content-Type: image/png; name="' + name_b + b'"',
        b'Content-Disposition: inline; filename="' + name_b + b'"',
        b"Content-ID: <" + name_b + b"." + digest[:12].encode() + b"@" + domain.encode() + b">",
        b"Content-Transfer-Encoding: base64",
    ]
    return (
        b"\r\n".join(text_lines) + b"\r\n",
        b"\r\n".join(picture_lines) + b"\r\n\r\n",
        _base64_lines(png) + b"--" + boundary + b"--\r\n",
    )


MAX_HEADER_CHARS = 300  # a subject or other header value is cut to this many characters
MAX_MESSAGE_ID = 250  # a longer Message-ID in a mail answered is not referred to
MAX_REFERENCES = 10  # References names at most this many earlier mails
MAX_LINE = 78  # RFC 5322 2.1.1: lines SHOULD be at most 78 characters (and MUST be 998)

_SMTP = policy.SMTP
_SMTPUTF8 = policy.SMTPUTF8
_CONTROL = re.compile(r"[\x00-\x1f\x7f\u0080-\u009f\u2028\u2029\ud800-\udfff]+")
_MSG_ID = re.compile(r"<[!-;=?A-~]+@[!-;=?A-~]+>")  # printable ASCII, no <, > or second @


def header_line(name: str, value: str, utf8: bool = False) -> str:
    """One header field, CRLF-terminated: ASCII (RFC 2047 encoded words for other
    characters) unless `utf8`, folded by the stdlib's SMTP policy so that no line passes
    78 characters where it can, and none ever 998. Never raises."""
    value = _one_line(value)
    if value.isascii() and len(name) + 2 + len(value) <= MAX_LINE:
        return f"{name}: {value}\r\n"  # what the policy writes too, at a tenth of the cost
    if name.lower() in ("message-id", "in-reply-to") and _message_id(value):
        # One token that folding cannot shorten (the policy would put it alone on a
        # second line, which some readers take as part of the id); under 998 by its limit.
        return f"{name}: {value}\r\n"
    if value.isascii() and "=?" not in value and all(len(w) < 900 for w in value.split(" ")):
        # Plain words: folded at spaces here, the first line as full as it can be. (The
        # policy may fold right after "Subject:", which readers show as a leading space.)
        return _fold_words(name, value)
    chosen = _SMTPUTF8 if utf8 else _SMTP
    try:
        folded: str = chosen.header_factory(name, value).fold(policy=chosen)
        lines = folded.split("\r\n")
        if all(len(line) <= 998 for line in lines) and (utf8 or folded.isascii()):
            return folded
    except Exception:  # the header parser choked on a stranger's value
        pass
    return _hard_wrap(name, value)


_PLAIN_ADDRESS = re.compile(r"[^\s,;:<>()\[\]\\\"@]+@[^\s,;:<>()\[\]\\\"@]+")


def _address_list(name: str, value: str) -> str:
    """An address list of plain ASCII addresses folded after its commas, as the policy
    would, but in linear time: a results mail may go to thousands of observers, and the
    policy's parser takes seconds on that. Anything else goes to `header_line`."""
    items = value.split(", ")
    if not value.isascii():
        # A recipient with a UTF-8 local part (RFC 6532) can only be written in UTF-8:
        # such a mail goes out by SMTPUTF8 or not at all (judge/mail/outbox.py).
        return header_line(name, value, utf8=True)
    if not all(_PLAIN_ADDRESS.fullmatch(a) for a in items):
        return header_line(name, value)
    lines, line = [], f"{name}:"
    for i, item in enumerate(items):
        word = item + ("," if i < len(items) - 1 else "")
        if len(line) + 1 + len(word) > MAX_LINE and line != f"{name}:":
            lines.append(line)
            line = ""
        line = f"{line} {word}"
    lines.append(line)
    return "\r\n".join(lines) + "\r\n"


def _fold_words(name: str, value: str) -> str:
    """`name: value` folded at its spaces into lines of at most MAX_LINE characters
    where the words allow (a longer word stands alone on its line), CRLF-terminated."""
    lines, line = [], f"{name}:"
    for word in value.split(" "):
        if len(line) + 1 + len(word) > MAX_LINE and line != f"{name}:":
            lines.append(line)
            line = ""
        line = f"{line} {word}"
    lines.append(line)
    return "\r\n".join(lines) + "\r\n"


def _one_line(value: str) -> str:
    """No CR, LF or other control characters (nor lone surrogates): one line of text."""
    value = str(value)
    # Most headers are plain already (a printable ASCII value has no character _CONTROL
    # matches, and no whitespace but spaces): returned as they are, without the regular
    # expression, several times for each of a burst's 24,000 mails.
    if value.isascii() and value.isprintable() and "  " not in value:
        return value.strip(" ")
    return " ".join(_CONTROL.sub(" ", value).split())


def _short(value: str) -> str:
    value = _one_line(value)
    return value if len(value) <= MAX_HEADER_CHARS else value[: MAX_HEADER_CHARS - 3] + "..."


def _message_id(value: str | None) -> str | None:
    """The Message-ID as written when it is a plain ASCII <left@right>, else None: a
    reference the judge cannot write faithfully is better left out."""
    value = (value or "").strip()
    return value if len(value) <= MAX_MESSAGE_ID and _MSG_ID.fullmatch(value) else None


def _hard_wrap(name: str, value: str) -> str:
    """The last resort: the value cut into short RFC 2047 encoded words, one a line."""
    chunks = [value[i : i + 10] for i in range(0, min(len(value), MAX_HEADER_CHARS), 10)]
    words = [Header(chunk, "utf-8").encode() for chunk in chunks]
    return f"{name}: " + "\r\n ".join(words or [""]) + "\r\n"

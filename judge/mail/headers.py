"""The header fields of a received mail: its sender's address, subject, Message-ID and
references, decoded whatever the sender's mail program wrote (RFC 2047, raw 8-bit)."""

from __future__ import annotations

import base64
import contextlib
import quopri
import re
from email.headerregistry import AddressHeader
from email.message import Message
from email.utils import parseaddr

from judge.mail import addresses
from judge.mail.decoding import decode_text

SURROGATES = re.compile("[\ud800-\udfff]")


def clean_str(text: str) -> str:
    """Undo surrogate escapes (8-bit bytes in headers): utf-8, else windows-1252."""
    if not SURROGATES.search(text):
        return text
    try:
        data = text.encode("utf-8", "surrogateescape")
    except UnicodeError:
        return SURROGATES.sub("\ufffd", text)
    for codec in ("utf-8", "cp1252"):
        try:
            return data.decode(codec)
        except UnicodeError:
            continue
    return data.decode("utf-8", "replace")


def _raw_header(msg: Message, name: str) -> str | None:
    for key, value in msg.raw_items():
        if key.lower() == name:
            return value if isinstance(value, str) else str(value)
    return None


def header_text(msg: Message, name: str) -> str | None:
    """The first header of that name, decoded and unfolded; None when absent."""
    try:
        raw = _raw_header(msg, name)
    except Exception:
        return None
    if raw is None:
        return None
    raw = re.sub(r"\r?\n[ \t]*", " ", raw)
    if SURROGATES.search(raw):  # raw 8-bit bytes: utf-8, else windows-1252, then RFC 2047
        return clean_str(header_text_value(clean_str(raw))).strip()
    try:
        value = msg[name] if name != "content-type" else None  # that one as written
        text = str(value) if value is not None else raw
    except Exception:
        text = raw
    return clean_str(text).strip()


_ENCODED_WORD = re.compile(r"=\?([^?\s]+)\?([bBqQ])\?([^?\s]*)\?=")


def header_text_value(text: str) -> str:
    """Decode RFC 2047 encoded words where the header parser does not: in a header that also
    holds raw 8-bit text, and in attachment names."""

    def decode(m: re.Match[str]) -> str:
        charset, encoding, data = m.groups()
        try:
            if encoding in "bB":
                raw = base64.b64decode(data + "=" * (-len(data) % 4))
            else:
                raw = quopri.decodestring(data.encode("ascii"), header=True)
        except Exception:
            return m.group()
        return decode_text(raw, charset.split("*")[0], [])

    text = re.sub(r"(\?=)\s+(?==\?)", r"\1", text)  # the space between encoded words goes
    return _ENCODED_WORD.sub(decode, text)


_ADDR = re.compile(r"[^\s@<>()\[\]\\,;:\"]+@[^\s@<>()\[\]\\,;:\".][^\s@<>()\[\]\\,;:\"]*")


def _usable(addr: str) -> str:
    addr = clean_str(addr).strip().lower()
    if "\ufffd" in addr or not _ADDR.fullmatch(addr) or addr.endswith("."):
        return ""
    return addr


def cut(text: str, limit: int) -> str:
    """`text` cut to `limit` characters, "..." marking the cut."""
    return text if len(text) <= limit else text[: limit - 3].rstrip() + "..."


def header_address(msg: Message, name: str) -> tuple[str, str]:
    """(display name, bare lower-case address) of the first usable address in the header.

    An address counts only if it stands in the header as written: the header parser makes
    "bob@exa" of "<bob@exa mple.org>", and an answer to that would go astray.
    """
    try:
        if _raw_header(msg, name) is None:
            return "", ""
        written = clean_str(re.sub(r"\r?\n[ \t]*", " ", _raw_header(msg, name) or ""))
    except Exception:
        return "", ""
    candidates: list[tuple[str, str]] = []
    with contextlib.suppress(Exception):
        header = msg[name]
        if isinstance(header, AddressHeader):  # a str (parsed by another policy) has none
            candidates = [(a.display_name or "", a.addr_spec or "") for a in header.addresses]
    with contextlib.suppress(Exception):
        display, addr = parseaddr(written)
        if SURROGATES.search(_raw_header(msg, name) or ""):  # raw 8-bit name: ours is better
            display = header_text_value(display)
            candidates.insert(0, (display, addr))
        else:
            candidates.append((display, addr))
    for display, addr in candidates:
        addr = _usable(addr)
        if addr and _written(addr, written):
            # An internationalised domain in IDNA: one form for the sender, the one
            # SET ADDRESS stores.
            return " ".join(clean_str(display).split()), addresses.ascii_form(addr)
    display = candidates[0][0] if candidates else ""
    return " ".join(clean_str(display).split()), ""


def _written(addr: str, header: str) -> bool:
    """Whether `addr` stands in `header` as written, case aside: between < and > (spaces
    allowed), or as a word of its own (after the start, a space , : or ;, before the end,
    a space , ; or ()."""
    if not (addr.isascii() and header.isascii()):
        return _written_pattern(addr, header)
    # ASCII: lower case keeps every position, so the address is looked for as plain
    # text; a pattern made for each sender was compiled anew for each (issue 16).
    text, wanted = header.lower(), addr.lower()
    at = text.find(wanted)
    while at >= 0:
        end = at + len(wanted)
        if _between_angles(text, at, end) or _a_word(text, at, end):
            return True
        at = text.find(wanted, at + 1)
    return False


def _between_angles(text: str, start: int, end: int) -> bool:
    # Walked, not sliced: a stranger's header may hold the address thousands of times.
    while start > 0 and text[start - 1] in _SPACES:
        start -= 1
    while end < len(text) and text[end] in _SPACES:
        end += 1
    return start > 0 and text[start - 1] == "<" and end < len(text) and text[end] == ">"


def _a_word(text: str, start: int, end: int) -> bool:
    before = start == 0 or text[start - 1] in _SPACES or text[start - 1] in ",:;"
    after = end == len(text) or text[end] in _SPACES or text[end] in ",;("
    return before and after


_SPACES = "".join(chr(c) for c in range(128) if chr(c).isspace())  # what \s is in ASCII


def _written_pattern(addr: str, header: str) -> bool:
    """_written by regular expressions (any text)."""
    quoted = re.escape(addr)
    return bool(
        re.search(rf"<\s*{quoted}\s*>", header, re.I)
        or re.search(rf"(?:^|[\s,:;]){quoted}(?=$|[\s,;(])", header, re.I)
    )


_MSGID = re.compile(r"<[^<>\s]+>")


def message_id_of(msg: Message) -> str | None:
    """The Message-ID with its angle brackets (added to a bare token); None if none."""
    try:
        raw = _raw_header(msg, "message-id")
    except Exception:
        return None
    if raw is None:
        return None
    raw = clean_str(raw)
    m = _MSGID.search(raw)
    if m:
        return m.group()
    token = raw.strip()
    if token and not re.search(r"[\s<>]", token):
        return f"<{token}>"
    return None


def references_of(msg: Message) -> tuple[str, ...]:
    """The Message-IDs of In-Reply-To and References, each once, in order."""
    found: list[str] = []
    for name in ("in-reply-to", "references"):
        try:
            for key, value in msg.raw_items():
                if key.lower() == name:
                    found.extend(_MSGID.findall(clean_str(str(value))))
        except Exception:
            continue
    return tuple(dict.fromkeys(found))

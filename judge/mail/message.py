"""A raw RFC 822 message -> a Submission: who sent it and the plain text the judge reads.

The body is what a person reading the mail would say the sender wrote: the text/plain
alternative (or the HTML one turned into text), decoded whatever the charset claims,
without attachments, forwarded messages, quoted replies, signatures or mobile sign-offs.
Everything left out is named in `notes`. `parse_submission` never raises.
"""

from __future__ import annotations

import base64
import codecs
import contextlib
import html
import quopri
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from email import policy
from email.headerregistry import AddressHeader
from email.message import Message
from email.parser import BytesParser
from email.utils import parseaddr
from html.parser import HTMLParser
from types import MappingProxyType

from judge.mail import addresses

MAX_LINE = 10_000  # a longer line is cut to this many characters
HEADER_CAP = 256 * 1024  # a too-large message's header block is read up to this size
MAX_DEPTH = 30  # MIME nesting deeper than this is not read
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


# --- the message as a whole ------------------------------------------------------------


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
    # compat32, which is ten times quicker on mail made of thousands of parts.
    msg = BytesParser(policy=policy.default).parsebytes(_header_block(data), headersonly=True)
    if too_large:
        notes.append(f"the message is too large ({size} bytes); its text was not read")
        body = ""
    else:
        body = _body(BytesParser(policy=policy.compat32).parsebytes(data), notes)
    sender_name, sender = _address(msg, "from")
    _, reply_to = _address(msg, "reply-to")
    headers = {}
    for name in KEPT_HEADERS:
        value = _header_text(msg, name)
        if value is not None:
            headers[name] = value
    return Submission(
        sender=sender,
        sender_name=sender_name,
        reply_to=reply_to or None,
        subject=_cut(" ".join((_header_text(msg, "subject") or "").split()), MAX_SUBJECT),
        message_id=_message_id(msg),
        references=_references(msg),
        body=body,
        notes=tuple(dict.fromkeys(notes)),
        headers=MappingProxyType(headers),
        size=size,
        too_large=too_large,
    )


_SURROGATES = re.compile("[\ud800-\udfff]")


def _clean_str(text: str) -> str:
    """Undo surrogate escapes (8-bit bytes in headers): utf-8, else windows-1252."""
    if not _SURROGATES.search(text):
        return text
    try:
        data = text.encode("utf-8", "surrogateescape")
    except UnicodeError:
        return _SURROGATES.sub("\ufffd", text)
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


def _header_text(msg: Message, name: str) -> str | None:
    """The first header of that name, decoded and unfolded; None when absent."""
    try:
        raw = _raw_header(msg, name)
    except Exception:
        return None
    if raw is None:
        return None
    raw = re.sub(r"\r?\n[ \t]*", " ", raw)
    if _SURROGATES.search(raw):  # raw 8-bit bytes: utf-8, else windows-1252, then RFC 2047
        return _clean_str(_header_text_value(_clean_str(raw))).strip()
    try:
        value = msg[name] if name != "content-type" else None  # that one as written
        text = str(value) if value is not None else raw
    except Exception:
        text = raw
    return _clean_str(text).strip()


_ENCODED_WORD = re.compile(r"=\?([^?\s]+)\?([bBqQ])\?([^?\s]*)\?=")


def _header_text_value(text: str) -> str:
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
    addr = _clean_str(addr).strip().lower()
    if "\ufffd" in addr or not _ADDR.fullmatch(addr) or addr.endswith("."):
        return ""
    return addr


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 3].rstrip() + "..."


def _address(msg: Message, name: str) -> tuple[str, str]:
    """(display name, bare lower-case address) of the first usable address in the header.

    An address counts only if it stands in the header as written: the header parser makes
    "bob@exa" of "<bob@exa mple.org>", and an answer to that would go astray.
    """
    try:
        if _raw_header(msg, name) is None:
            return "", ""
        written = _clean_str(re.sub(r"\r?\n[ \t]*", " ", _raw_header(msg, name) or ""))
    except Exception:
        return "", ""
    candidates: list[tuple[str, str]] = []
    with contextlib.suppress(Exception):
        header = msg[name]
        if isinstance(header, AddressHeader):  # a str (parsed by another policy) has none
            candidates = [(a.display_name or "", a.addr_spec or "") for a in header.addresses]
    with contextlib.suppress(Exception):
        display, addr = parseaddr(written)
        if _SURROGATES.search(_raw_header(msg, name) or ""):  # raw 8-bit name: ours is better
            display = _header_text_value(display)
            candidates.insert(0, (display, addr))
        else:
            candidates.append((display, addr))
    for display, addr in candidates:
        addr = _usable(addr)
        if addr and _written(addr, written):
            # An internationalised domain in IDNA: one form for the sender, the one
            # SET ADDRESS stores.
            return " ".join(_clean_str(display).split()), addresses.ascii_form(addr)
    display = candidates[0][0] if candidates else ""
    return " ".join(_clean_str(display).split()), ""


def _written(addr: str, header: str) -> bool:
    quoted = re.escape(addr)
    return bool(
        re.search(rf"<\s*{quoted}\s*>", header, re.I)
        or re.search(rf"(?:^|[\s,:;]){quoted}(?=$|[\s,;(])", header, re.I)
    )


_MSGID = re.compile(r"<[^<>\s]+>")


def _message_id(msg: Message) -> str | None:
    try:
        raw = _raw_header(msg, "message-id")
    except Exception:
        return None
    if raw is None:
        return None
    raw = _clean_str(raw)
    m = _MSGID.search(raw)
    if m:
        return m.group()
    token = raw.strip()
    if token and not re.search(r"[\s<>]", token):
        return f"<{token}>"
    return None


def _references(msg: Message) -> tuple[str, ...]:
    found: list[str] = []
    for name in ("in-reply-to", "references"):
        try:
            for key, value in msg.raw_items():
                if key.lower() == name:
                    found.extend(_MSGID.findall(_clean_str(str(value))))
        except Exception:
            continue
    return tuple(dict.fromkeys(found))


# --- the MIME walk -----------------------------------------------------------------------


def _body(msg: Message, notes: list[str]) -> str:
    chunks = _walk(msg, notes, 0)
    return _clean_text("\n".join(chunks), notes)


def _content_type(part: Message) -> str:
    try:
        return part.get_content_type().lower()
    except Exception:
        return "text/plain"


def _filename(part: Message) -> str | None:
    try:
        name = part.get_filename()
    except Exception:
        return None
    if not name:
        return None
    name = _header_text_value(_clean_str(str(name)))  # Outlook's =?utf-8?Q?...?= names
    return " ".join(name.split())


def _is_attachment(part: Message) -> bool:
    try:
        if part.get_content_disposition() == "attachment":
            return True
    except Exception:
        pass
    return _filename(part) is not None


def _ignored(part: Message, ctype: str) -> str:
    name = _filename(part)
    return f"ignored attachment {name} ({ctype})" if name else f"ignored attachment ({ctype})"


def _walk(part: Message, notes: list[str], depth: int) -> list[str]:
    """The text chunks of a part, in reading order; what is left out goes into notes."""
    if depth > MAX_DEPTH:
        notes.append("ignored parts nested too deeply")
        return []
    ctype = _content_type(part)
    main, _, sub = ctype.partition("/")
    if main == "multipart":
        children = part.get_payload()
        if not isinstance(children, list) or not children:
            notes.append(f"could not split the {ctype} body into its parts")
            return []
        if sub == "alternative":
            return _alternative(children, notes, depth)
        if sub == "signed":
            notes.append("kept only the signed text")
            first = children[0]
            return _walk(first, notes, depth + 1) if isinstance(first, Message) else []
        if sub == "encrypted":
            notes.append("ignored encrypted content")
            return []
        chunks: list[str] = []
        for child in children:
            if isinstance(child, Message):
                chunks.extend(_walk(child, notes, depth + 1))
        return chunks
    if main == "message":
        if sub in ("rfc822", "global"):
            notes.append("ignored the forwarded original message")
        else:
            notes.append(_ignored(part, ctype))
        return []
    if ctype not in ("text/plain", "text/html") or _is_attachment(part):
        notes.append(_ignored(part, ctype))
        return []
    text = _decode_part(part, ctype, notes)
    if ctype == "text/html":
        return [_html_to_text(text, notes)]
    if _param(part, "format") == "flowed":
        text = _unflow(text, delsp=_param(part, "delsp") == "yes")
    return [text]


def _alternative(children: list[Message | str], notes: list[str], depth: int) -> list[str]:
    def rank(child: Message) -> int:
        ctype = _content_type(child)
        if ctype == "text/plain":
            return 0
        if ctype.startswith("multipart/"):
            return 1
        return 2 if ctype == "text/html" else 3

    candidates = [c for c in children if isinstance(c, Message) and rank(c) < 3]
    candidates = [c for c in candidates if not _is_attachment(c)]
    for child in sorted(candidates, key=rank):
        tried: list[str] = []
        chunks = _walk(child, tried, depth + 1)
        if "".join(chunks).strip():
            notes.extend(tried)
            return chunks
    return []


def _param(part: Message, name: str) -> str:
    try:
        value = part.get_param(name)
    except Exception:
        return ""
    if isinstance(value, tuple):  # RFC 2231 (charset, language, value)
        value = value[2]
    return str(value).strip().lower() if value else ""


# --- bytes to text -----------------------------------------------------------------------

_SINGLE_BYTE = re.compile(r"ascii|iso8859-\d+|cp125\d|cp437|cp850|koi8-[a-z]+|mac-[a-z]+|latin-1")
_BAD_CODECS = ("escape", "idna", "punycode", "undefined")


def _codec(name: str | None) -> str | None:
    """Python's name for a declared charset, or None when unknown (or not a text charset)."""
    if not name:
        return None
    name = name.strip().strip("'\"").lower()
    candidates = [name]
    if name.startswith("x-"):
        candidates.append(name[2:])
    candidates.append(re.sub(r"^(cp|windows)[-_ ]?", "cp", name))
    for candidate in candidates:
        try:
            info = codecs.lookup(candidate)
        except (LookupError, ValueError, TypeError):
            continue
        if not getattr(info, "_is_text_encoding", True):
            return None
        if any(bad in info.name for bad in _BAD_CODECS):
            return None
        return info.name
    return None


def _part_bytes(part: Message) -> bytes:
    try:
        data = part.get_payload(decode=True)
    except Exception:
        data = None
    if isinstance(data, bytes):
        return data
    payload = part.get_payload()
    if isinstance(payload, str):
        try:
            return payload.encode("utf-8", "surrogateescape")
        except UnicodeError:
            return payload.encode("utf-8", "replace")
    return b""


_META_CHARSET = re.compile(rb"<meta[^>]{0,200}?charset\s*=\s*[\"']?\s*([A-Za-z0-9_:.-]+)", re.I)


def _decode_part(part: Message, ctype: str, notes: list[str]) -> str:
    data = _part_bytes(part)
    try:
        declared = part.get_content_charset()
    except Exception:
        declared = None
    if not declared and ctype == "text/html":
        m = _META_CHARSET.search(data[:4096])
        if m:
            declared = m.group(1).decode("ascii", "replace").lower()
    return decode_text(data, declared, notes)


def _strict(data: bytes, codec: str) -> str | None:
    try:
        return data.decode(codec)
    except (UnicodeError, LookupError):
        return None


def decode_text(data: bytes, declared: str | None, notes: list[str]) -> str:
    """Bytes in a declared (maybe wrong, missing or unknown) charset -> text, never failing."""
    if not data:
        return ""
    codec = _codec(declared)
    eight_bit = not data.isascii()
    if declared and codec is None:
        if not eight_bit:
            return data.decode("ascii")
        return _guess(data, notes, f"unknown charset {declared}")
    if codec is None:
        if not eight_bit:
            return data.decode("ascii")
        return _guess(data, notes, "no charset declared")
    if codec in ("ascii", "utf-8"):
        text = _strict(data, "utf-8")
        if text is not None:
            if codec == "ascii" and eight_bit:
                notes.append(f"declared charset {declared} was wrong: read as utf-8")
            return text
        text = _strict(data, "cp1252")
        if text is not None:
            notes.append(f"declared charset {declared} was wrong: read as windows-1252")
            return text
        notes.append("replaced undecodable characters")
        return data.decode("utf-8", "replace")
    if eight_bit and _SINGLE_BYTE.fullmatch(codec):
        text = _strict(data, "utf-8")
        if text is not None:  # single-byte text is almost never valid utf-8 by chance
            notes.append(f"declared charset {declared} was wrong: read as utf-8")
            return text
    if codec == "iso8859-1":  # as browsers do: latin-1 labels mean windows-1252 (smart quotes)
        text = _strict(data, "cp1252")
        if text is not None:
            return text
    text = _strict(data, codec)
    if text is not None:
        return text
    notes.append("replaced undecodable characters")
    try:
        return data.decode(codec, "replace")
    except Exception:
        return data.decode("utf-8", "replace")


def _guess(data: bytes, notes: list[str], why: str) -> str:
    for codec, label in (("utf-8", "utf-8"), ("cp1252", "windows-1252")):
        text = _strict(data, codec)
        if text is not None:
            notes.append(f"{why}: read as {label}")
            return text
    notes.append("replaced undecodable characters")
    return data.decode("utf-8", "replace")


def _unflow(text: str, delsp: bool) -> str:
    """Join the soft line breaks of format=flowed text (RFC 3676)."""
    out: list[str] = []
    current: str | None = None
    current_depth = 0
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        quote = re.match(r">+", line)
        depth = len(quote.group()) if quote else 0
        content = line[depth:]
        if content.startswith(" "):
            content = content[1:]  # space-stuffing
        flowed = content.endswith(" ") and content != "-- "
        if flowed and delsp:
            content = content[:-1]
        if current is not None and depth == current_depth:
            current += content
        else:
            if current is not None:
                out.append(_requote(current, current_depth))
            current, current_depth = content, depth
        if not flowed:
            out.append(_requote(current, current_depth))
            current = None
    if current is not None:
        out.append(_requote(current, current_depth))
    return "\n".join(out)


def _requote(content: str, depth: int) -> str:
    return (">" * depth + " " + content) if depth else content


# --- HTML to text ------------------------------------------------------------------------

_BLOCK_TAGS = frozenset(
    [
        "address",
        "article",
        "aside",
        "blockquote",
        "center",
        "dd",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hr",
        "li",
        "main",
        "nav",
        "ol",
        "p",
        "pre",
        "section",
        "table",
        "tbody",
        "thead",
        "tfoot",
        "tr",
        "ul",
    ]
)
_SKIP_TAGS = frozenset(("head", "style", "script", "title", "xml", "template", "noscript"))
_HEAD_TAGS = _SKIP_TAGS | {"meta", "link", "base", "basefont", "object"}
_HTML_SPACE = re.compile(r"[ \t\r\n\f]+")


class _HTMLText(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping: dict[str, int] = {}
        self.quote = 0
        self.pre = 0
        self.paragraphs: list[bool] = []  # open <p>s: True when spaced from the next block
        self.dropped_quote = False
        self.written = False  # any visible text yet

    def _last(self) -> str:
        for piece in reversed(self.parts):
            if piece:
                return piece[-1]
        return "\n"

    def _line_start(self) -> None:
        if self._last() != "\n":
            self.parts.append("\n")

    def _paragraph(self) -> None:
        """A blank line before the next text, unless nothing has been written yet."""
        text = "".join(self.parts[-4:])
        if not self.written or text.endswith("\n\n"):
            return
        self.parts.append("\n" if text.endswith("\n") else "\n\n")

    def _block_end(self, spaced: bool) -> None:
        if spaced:
            self._paragraph()
        else:
            self._line_start()

    def _visible(self) -> bool:
        return not self.quote and not any(self.skipping.values())

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "body" or (self.skipping.get("head") and tag not in _HEAD_TAGS):
            self.skipping.pop("head", None)  # the head ends where the body starts
            self.skipping.pop("title", None)
        if tag in _SKIP_TAGS:
            self.skipping[tag] = self.skipping.get(tag, 0) + 1
            return
        visible = self._visible()
        if tag == "blockquote":
            if visible:
                self._line_start()
            self.quote += 1
            return
        if not visible:
            return
        if tag == "br":
            self.parts.append("\n")
        elif tag == "p":
            # Outlook's MsoNormal paragraphs have no margins: one per line
            css = " ".join(str(value) for name, value in attrs if name == "class").lower()
            self.paragraphs.append("msonormal" not in css)
            self._block_end(self.paragraphs[-1])
        elif tag in _BLOCK_TAGS:
            self._line_start()
        elif tag in ("td", "th") and self._last() not in "\n ":
            self.parts.append(" ")
        if tag == "pre":
            self.pre += 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIP_TAGS or tag == "blockquote":
            return  # <style/> and the like enclose nothing
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP_TAGS:
            if self.skipping.get(tag):
                self.skipping[tag] -= 1
            return
        if tag == "blockquote":
            self.quote = max(0, self.quote - 1)
            if self._visible():
                self._line_start()
            return
        if not self._visible():
            return
        if tag == "p":
            self._block_end(self.paragraphs.pop() if self.paragraphs else True)
        elif tag in _BLOCK_TAGS:
            self._line_start()
        if tag == "pre":
            self.pre = max(0, self.pre - 1)

    def handle_data(self, data: str) -> None:
        if not self._visible():
            if self.quote and data.strip():
                self.dropped_quote = True
            return
        if not self.pre:
            data = _HTML_SPACE.sub(" ", data)
            if self._last() in "\n ":
                data = data.lstrip(" ")
        if data:
            self.parts.append(data)
            self.written = self.written or not data.isspace()


def _html_to_text(markup: str, notes: list[str]) -> str:
    notes.append("converted HTML to text")
    parser = _HTMLText()
    try:
        parser.feed(markup)
        parser.close()
    except Exception:  # the parser gave up: what it read so far, else the bare text
        if not "".join(parser.parts).strip():
            return html.unescape(re.sub(r"<[^>]*>", "\n", markup))
    if parser.dropped_quote:
        notes.append("ignored quoted text")
    return "".join(parser.parts)


# --- the text: quotes, signatures, forwards ---------------------------------------------

_CHAR_MAP = {
    **{c: " " for c in (0xA0, 0x1680, 0x202F, 0x205F, 0x3000, *range(0x2000, 0x200B))},
    **{c: None for c in (0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0xAD, 0x200E, 0x200F, 0x180E)},
    **{c: None for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))},
    **{c: None for c in (*range(0x00, 0x09), *range(0x0E, 0x20), 0x7F, *range(0x80, 0xA0))},
    0x0B: "\n",
    0x0C: "\n",
    0x2028: "\n",
    0x2029: "\n",
}

_PGP_BEGIN = "-----BEGIN PGP SIGNED MESSAGE-----"
_PGP_SIGNATURE = "-----BEGIN PGP SIGNATURE-----"

_ATTR_START = r"(?:On|Le|Am|El|Il|Op|Em|Den|På|W dniu|Dne|В)\s"
_ATTR_VERB = (
    r"(?:wrote|writes|a écrit|schrieb|escribió|ha scritto|schreef|escreveu|skrev|"
    r"napisał|napsal|написал)"
)
_ATTR_STRONG = re.compile(rf"{_ATTR_START}.*\b{_ATTR_VERB}\b[^:]{{0,120}}\s?:", re.I)
_ATTR_WEAK = re.compile(rf".{{1,200}}\s{_ATTR_VERB}\s?:", re.I)

_FORWARDED = re.compile(
    r"-{3,}\s*(?:Forwarded message|Weitergeleitete Nachricht|"
    r"Mensaje reenviado|Message transféré|Messaggio inoltrato|Doorgestuurd bericht|"
    r"Mensagem encaminhada|Videresendt meddelelse|Vidarebefordrat meddelande)\s*-{3,}|"
    r"Begin forwarded message:|Début du message réexpédié\s?:|"
    r"Anfang der weitergeleiteten Nachricht:|Inicio del mensaje reenviado:|"
    r"Inizio messaggio inoltrato:",
    re.I,
)
_ORIGINAL = re.compile(
    r"-{2,}\s*(?:Original Message|Ursprüngliche Nachricht|Message d'origine|Mensaje original|"
    r"Messaggio originale|Oorspronkelijk bericht|Originalmeddelande|Alkuperäinen viesti|"
    r"Oprindelig meddelelse|Opprinnelig melding|Mensagem original)\s*-{2,}",
    re.I,
)
_UNDERSCORES = re.compile(r"_{10,}")
_CID = re.compile(r"\[cid:[^\]\s]*\]")
_HDR_FROM = re.compile(r"\*?(?:From|Von|De|Da|Van|Från|Fra|Od|От)\s?:\*?\s*\S", re.I)
_HDR_SENT = re.compile(
    r"\*?(?:Sent|Date|Gesendet|Datum|Envoyé|Enviado|Fecha|Inviato|Data|Verzonden|Skickat|"
    r"Sendt|Отправлено)\s?:",
    re.I,
)
_HDR_TO = re.compile(
    r"\*?(?:To|Cc|An|À|A|Para|Aan|Till|Til|Komu|Кому|Subject|Betreff|Objet|Asunto|Oggetto|"
    r"Onderwerp|Ämne|Emne|Assunto|Тема)\s?:",
    re.I,
)
_SIGNOFF = re.compile(
    r"Sent from my \S.{0,60}|"
    r"Sent from (?:Yahoo Mail|Outlook|Mail for Windows|Proton ?Mail|AOL|Gmail|Samsung)\b.{0,60}|"
    r"Sent with (?:Proton ?Mail|BlackBerry)\b.{0,60}|Get Outlook for (?:iOS|Android)\b.{0,80}|"
    r"Envoyé de mon \S.{0,40}|Von meinem \S.{0,40} gesendet\.?|Enviado desde mi \S.{0,40}|"
    r"Enviado do meu \S.{0,40}|Inviato da(?:l mio)? (?:iPhone|iPad|Android|smartphone)\b.{0,40}",
    re.I,
)


def _clean_text(text: str, notes: list[str]) -> str:
    text = text.replace("\r\n", "\n").replace("\r", "\n").translate(_CHAR_MAP)
    text = _SURROGATES.sub("\ufffd", text)
    lines = [line.rstrip() for line in text.split("\n")]
    lines = _pgp_signed(lines, notes)
    lines = _commands_only(lines, notes)
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    for i, line in enumerate(lines):
        if len(line) > MAX_LINE:
            lines[i] = line[:MAX_LINE].rstrip()
            notes.append(f"cut a line longer than {MAX_LINE} characters")
    return "\n".join(lines)


def _pgp_signed(lines: list[str], notes: list[str]) -> list[str]:
    """Inline PGP: keep only the signed text, with its dash-escaping undone."""
    try:
        begin = lines.index(_PGP_BEGIN)
    except ValueError:
        return lines
    start = begin + 1
    while start < len(lines) and lines[start].strip():  # armor headers (Hash: SHA256)
        start += 1
    end = start
    while end < len(lines) and lines[end] != _PGP_SIGNATURE:
        end += 1
    notes.append("kept only the signed text")
    return [line[2:] if line.startswith("- ") else line for line in lines[start + 1 : end]]


def _commands_only(lines: list[str], notes: list[str]) -> list[str]:
    out: list[str] = []
    dropped = False  # lines were left out since the last line of text
    i = 0
    while i < len(lines):
        line = lines[i]
        text = line.strip()
        if line == "--":  # "-- " with its trailing space stripped, or "--" alone
            notes.append("stopped at the signature")
            break
        if _FORWARDED.fullmatch(text):
            notes.append("ignored the forwarded original message")
            break
        if _ORIGINAL.fullmatch(text) or _header_block_at(lines, i):
            notes.append("ignored quoted text")
            break
        if _UNDERSCORES.fullmatch(text) and _header_block_at(lines, i + 1):
            notes.append("ignored quoted text")
            break
        if text.startswith(">"):
            notes.append("ignored quoted text")
            dropped = True
            i += 1
            continue
        taken = _attribution(lines, i)
        if taken:
            notes.append("ignored quoted text")
            dropped = True
            i += taken
            continue
        if _SIGNOFF.fullmatch(text):
            notes.append(f'dropped the sign-off "{text}"')
            dropped = True
            i += 1
            continue
        if _CID.fullmatch(text):
            notes.append("dropped an inline image placeholder")
            i += 1
            continue
        if not line and dropped and out and not out[-1]:
            i += 1  # one blank line where quoted text was is enough
            continue
        dropped = dropped and not line
        out.append(line)
        i += 1
    return out


def _header_block_at(lines: list[str], i: int) -> bool:
    """An Outlook-style header block (From:, Sent:, To:, Subject:) starts at line i."""
    if i >= len(lines) or not _HDR_FROM.match(lines[i]):
        return False
    following = lines[i + 1 : i + 6]
    return any(_HDR_SENT.match(x) for x in following) and any(_HDR_TO.match(x) for x in following)


def _attribution(lines: list[str], i: int) -> int:
    """How many lines an attribution ("On <date>, <name> wrote:") starting at line i takes."""
    first = lines[i].strip()
    if not first or len(first) > 300:
        return 0
    joined = first
    for taken in (1, 2, 3):
        if taken > 1:
            if i + taken - 1 >= len(lines) or not lines[i + taken - 1].strip():
                return 0
            joined += " " + lines[i + taken - 1].strip()
        if joined.endswith(":"):
            if _ATTR_STRONG.fullmatch(joined) and re.search(r"[\d@]", joined):
                return taken
            if _ATTR_WEAK.fullmatch(joined) and _quote_follows(lines, i + taken):
                return taken
            return 0
        if taken == 1 and not re.match(_ATTR_START, first, re.I):
            return 0  # only the "On ..." forms are wrapped over lines
    return 0


def _quote_follows(lines: list[str], i: int) -> bool:
    # By index, not over lines[i:]: a copy of the rest at every line of a mail of
    # "Bob wrote:" lines made reading it quadratic (15 s for a mail at the size limit).
    for j in range(i, len(lines)):
        if lines[j].strip():
            return lines[j].lstrip().startswith(">")
    return True

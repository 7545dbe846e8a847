"""The MIME walk: the text parts of a received mail in reading order (text/plain preferred
to HTML), with attachments, forwarded and encrypted parts left out and named in notes."""

from __future__ import annotations

from email.message import Message

from judge.mail.decoding import decode_part, unflow
from judge.mail.headers import clean_str, header_text_value
from judge.mail.html_text import html_to_text
from judge.mail.trim import clean_text

MAX_DEPTH = 30  # MIME nesting deeper than this is not read


def text_of(msg: Message, notes: list[str]) -> str:
    """The text a reader of the mail sees, trimmed to what the judge reads."""
    chunks = _walk(msg, notes, 0)
    return clean_text("\n".join(chunks), notes)


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
    name = header_text_value(clean_str(str(name)))  # Outlook's =?utf-8?Q?...?= names
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
    text = decode_part(part, ctype, notes)
    if ctype == "text/html":
        return [html_to_text(text, notes)]
    if _param(part, "format") == "flowed":
        text = unflow(text, delsp=_param(part, "delsp") == "yes")
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

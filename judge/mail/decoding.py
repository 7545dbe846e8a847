"""Bytes to text: a part's payload decoded by its declared charset (or a good guess when
the declaration is wrong), and format=flowed text unflowed."""

from __future__ import annotations

import codecs
import re
from email.message import Message

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


def decode_part(part: Message, ctype: str, notes: list[str]) -> str:
    """A text part's payload as text, by its declared charset (or a meta tag's, for HTML)."""
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


def unflow(text: str, delsp: bool) -> str:
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

"""How many bytes a text takes at most in the body of a mail as compose.build writes it,
without encoding it: plain 7-bit lines, or quoted-printable as soon as any character of
the mail is not ASCII (or a line is over 998), which writes each byte outside printable
ASCII (and each '=') as three and breaks lines at 76. A bound on a mail's size must
count these bytes, not the text's: a text of '€' is three times larger in the mail."""

from __future__ import annotations

# The bytes quoted-printable writes as they are (quoprimime's body characters), the line
# end aside: printable ASCII but '=', and space and tab (but at a line's end).
_AS_THEY_ARE = bytes(b for b in range(33, 127) if b != ord("=")) + b" \t\n"
# Quoted-printable's longest line (compose.build's maxlinelen) holds at least this many
# bytes of the text before a soft break ("=" CRLF): an escape of three is never split.
_SOFT_LINE = 72


def body_bytes(text: str) -> int:
    """At most the bytes `text` adds to a mail's body, whichever way the body is written:
    each line's CRLF, each escape, and each soft line break counted."""
    data = text.replace("\r\n", "\n").encode("utf-8", "surrogatepass")
    escaped = len(data.translate(None, _AS_THEY_ARE))
    # a space or tab that ends a line is escaped too
    escaped += data.count(b" \n") + data.count(b"\t\n") + data.endswith((b" ", b"\t"))
    flat = len(data) + 2 * escaped + data.count(b"\n")  # an LF is a CRLF
    return flat + 3 * (flat // _SOFT_LINE + 1)

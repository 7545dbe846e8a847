"""The words of an ERROR line broken to fit an 80-column terminal.

An acknowledgement writes a refused line's words after `  ERROR: `; RFC 5322 says a line
SHOULD be at most 78 characters, and many players read mail in 80 columns. Words that
fit are left exactly as they are; only a line that would be longer is broken, at spaces.
"""

from __future__ import annotations

import textwrap

LEAD = "  ERROR: "  # written before the first line of the words (templates/events/)
WIDTH = 78  # columns of a rendered line (RFC 5322's SHOULD)
CONTINUATION = "  "  # the indent of a broken line's continuation with none of its own


def error_lines(words: str, lead: str = LEAD, continuation: str = CONTINUATION) -> str:
    """The words with each line that would be longer than WIDTH (the first counted after
    `lead`, what the template writes before them) broken at its spaces, the first line's
    continuation indented by `continuation`, a later line's as that line was (or by
    CONTINUATION). Lines that fit, and a trailing newline, are kept as they are; a word
    longer than the width is never cut."""
    body, newline, _ = words.rpartition("\n") if words.endswith("\n") else (words, "", "")
    lines = body.split("\n")
    first = _first_line(lines[0], lead, continuation)
    return "\n".join([first] + [_later_line(line) for line in lines[1:]]) + newline


def _first_line(line: str, lead: str, continuation: str) -> str:
    """The first line, broken as it reads after `lead`; the lead itself is not returned."""
    if len(lead + line) <= WIDTH:
        return line
    return "\n".join(_wrap(line, lead, continuation)).removeprefix(lead)


def _later_line(line: str) -> str:
    """A later line of the words, broken with its own indent kept on each part."""
    if len(line) <= WIDTH:
        return line
    indent = line[: len(line) - len(line.lstrip(" "))] or CONTINUATION
    return "\n".join(_wrap(line.lstrip(" "), indent, indent))


def _wrap(words: str, first: str, indent: str) -> list[str]:
    # The indents are given apart from the words, not as leading spaces of them: so a
    # word too long for any line still starts on the first line, after `first`, and
    # spaces inside the words stay as written except where the line is broken.
    return textwrap.wrap(
        words,
        width=WIDTH,
        initial_indent=first,
        subsequent_indent=indent,
        break_long_words=False,
        break_on_hyphens=False,
        drop_whitespace=True,
        replace_whitespace=False,
    )

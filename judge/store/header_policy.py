"""The email policies every received mail is parsed with: the stdlib's, with each header
field cut to MAX_FIELD characters as it is read.

The stdlib parses address lists (From, Reply-To) and parameters (Content-Type,
Content-Disposition) in time quadratic in a field's length: a From: of 20,000 quote marks
took 14 s, and a field can be as long as the mail (10 MB at the SMTP receiver). No honest
field needs more than MAX_FIELD characters: the subject is cut to 200 anyway.
"""

from __future__ import annotations

from email.policy import Compat32, EmailPolicy
from typing import Any

MAX_FIELD = 2_000  # characters of a header field read, its folded lines together


class _CappedCompat32(Compat32):
    """compat32 (the quick one, for the MIME walk), each field cut to MAX_FIELD."""

    def header_source_parse(self, sourcelines: list[str]) -> tuple[str, str]:
        """(name, value) as compat32 reads them, the value cut to MAX_FIELD."""
        name, value = super().header_source_parse(sourcelines)
        return name, value[:MAX_FIELD]


class _CappedEmailPolicy(EmailPolicy):
    """The default policy (RFC 2047, address lists), each field cut to MAX_FIELD."""

    def header_source_parse(self, sourcelines: list[str]) -> tuple[str, str]:
        """(name, value) as the default policy reads them, the value cut to MAX_FIELD."""
        name, value = super().header_source_parse(sourcelines)
        return name, value[:MAX_FIELD]

    def header_fetch_parse(self, name: str, value: str) -> Any:
        """The header as the default policy parses it; its text alone, unfolded, where the
        parser recursed too deep (comments nested a thousand deep, "((((...", raised
        RecursionError when the mail was stored: it was refused with 451 for ever)."""
        try:
            return super().header_fetch_parse(name, value)
        except RecursionError:
            return "".join(value.splitlines())


COMPAT32 = _CappedCompat32()
DEFAULT = _CappedEmailPolicy()

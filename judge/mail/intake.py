"""How much of one incoming message the judge takes in, by SMTP or IMAP.

The judge's own size limit (`max_message_bytes`) is applied after a mail is stored, with
a reply, so that nothing is silently lost; what is taken in is bounded ten times above
it: the SMTP receiver refuses DATA beyond it, and the IMAP poller fetches only that much
(and one byte more, to know it was more) of a larger message."""

from __future__ import annotations

CAP_MINIMUM = 1_000_000  # bytes: the cap is never below it


def taken_bytes(max_message_bytes: int) -> int:
    """The most bytes of one message taken in whole."""
    return max(10 * max_message_bytes, CAP_MINIMUM)

"""The copies of one mail to several readers, sent in one SMTP transaction.

With `[outbound] results_together` a game's results are queued as one row per reader,
each with the same bytes and Message-ID (judge/game/outgoing.py): each reader's mail is
still ordered, retried and given up on its own. Here the senders find the runs of such
copies among the mails they are about to send, so that the relay is given the mail (and
its picture) once for all of them."""

from __future__ import annotations

from collections.abc import Sequence

from judge.mail import addresses
from judge.store import outbox

# Readers of one mail sent in one transaction: every relay takes 100 (RFC 5321 4.5.3.1.8).
MAX_TOGETHER = 100

Unit = tuple[outbox.Outbound, ...]  # the copies of one mail sent in one transaction


def units(items: Sequence[outbox.Outbound]) -> list[Unit]:
    """`items` in order, each run of copies of one mail (the same Message-ID, bytes and
    picture, none a direct answer) joined, to MAX_TOGETHER readers and no reader twice."""
    found: list[Unit] = []
    seen: set[str] = set()  # the readers of the last unit
    for item in items:
        keys = readers([item])
        last = found[-1][0] if found else None
        if (
            last is not None
            and item.message_id == last.message_id
            and not item.direct
            and not last.direct
            and item.raw == last.raw
            and item.attachment == last.attachment
            and len(seen) + len(keys) <= MAX_TOGETHER
            and seen.isdisjoint(keys)
        ):
            found[-1] += (item,)
            seen.update(keys)
        else:
            found.append((item,))
            seen = set(keys)
    return found


def readers(unit: Sequence[outbox.Outbound]) -> list[str]:
    """The addresses `unit` goes to, as the relay is given them, in lower case."""
    return [addresses.ascii_form(a).lower() for item in unit for a in item.recipients]

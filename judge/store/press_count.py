"""How much press a seat has sent lately, counted from the press it stored (held postal
press included), so that a restart of the daemon resets nothing (commands/press.py's
limit an hour)."""

from __future__ import annotations

from datetime import datetime

import sqlite_utils

from judge.store.audit import iso
from judge.store.games import Seat


def sent_since(db: sqlite_utils.Database, seat: Seat, since: datetime) -> int:
    """The press messages `seat` has sent after `since` (in this transaction too: the
    mails handled before it in one commit are counted)."""
    row = db.execute(
        # The index on press (game_id, sent_at) bounds the rows read to the hour's.
        "SELECT COUNT(*) FROM press WHERE game_id = ? AND sent_at > ? AND seat_id = ?",
        [seat.game_id, iso(since), seat.id],
    ).fetchone()
    return int(row[0])

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


def sent_as_power_since(db: sqlite_utils.Database, seat: Seat, since: datetime) -> int:
    """The press messages sent after `since` by every seat that has played `seat`'s power
    in its game, `seat` and those that left it included: a player who RESIGNs and takes
    the power over again (a new seat, from any address) counts with the seats before."""
    row = db.execute(
        "SELECT COUNT(*) FROM press p JOIN seats s ON s.id = p.seat_id "
        "WHERE p.game_id = ? AND p.sent_at > ? AND s.role = ? AND s.power = ?",
        [seat.game_id, iso(since), seat.role, seat.power],
    ).fetchone()
    return int(row[0])

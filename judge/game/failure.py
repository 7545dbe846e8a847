"""A game whose processing raised: paused, its time left kept, its masters told.

The daemon's deadline run and a mail whose orders complete a phase both use this, so a
fault of the judge's own in one game stops that game only, never the daemon or the
other games, and never loses the mail that triggered it."""

from __future__ import annotations

from datetime import datetime

import sqlite_utils

from judge.game.dates import MAX_AHEAD
from judge.replies import Reply
from judge.store import games


def pause_failed(
    db: sqlite_utils.Database, game: games.Game | games.GameRow, now: datetime, reason: str
) -> list[Reply]:
    """Pause `game` if it is still active, in the caller's transaction, and return the
    notice for its masters (none when it has none or was not active). Only the game's
    plain columns are read: a game whose settings no longer read is paused the same way."""
    return pause_telling_masters(db, game, now, "game_failed", {"reason": reason})


def pause_telling_masters(
    db: sqlite_utils.Database,
    game: games.Game | games.GameRow,
    now: datetime,
    template: str,
    context: dict[str, object],
) -> list[Reply]:
    """Pause `game` if it is still active (its clock kept), in the caller's transaction,
    and return the notice `template` for its masters, with the game's name and phase and
    `context` (none when it has no master or was not active). Reads the plain columns."""
    current = games.game_row(db, game.id)
    if current.state != games.ACTIVE:
        return []
    games.pause(db, current, now, time_left(current, now))
    masters = tuple(dict.fromkeys(s.address for s in games.seats(db, current, games.MASTER)))
    if not masters:
        return []
    values = {"game": current.name, "phase": current.phase, **context}
    return [Reply(masters, template, values, "notice", False)]


def time_left(game: games.Game | games.GameRow, now: datetime) -> float:
    """Seconds to the deadline, kept while paused: never negative and at most MAX_AHEAD
    (a deadline out of range, which may be what raised, comes back as a year ahead)."""
    try:
        left = (datetime.fromisoformat(game.deadline or "") - now).total_seconds()
    except (ValueError, OverflowError, TypeError):
        return 0.0
    return min(max(0.0, left), MAX_AHEAD.total_seconds())

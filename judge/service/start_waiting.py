"""The daily Start Waiting mail of a full manual-start game: njudge repeats it every day
the game waits for its master, as it repeats Turn Waiting (judge/service/schedule.py)."""

from __future__ import annotations

from datetime import datetime, timedelta

import sqlite_utils

from judge.commands.blocks import players_needed
from judge.game.rules import starts_itself
from judge.replies import Reply
from judge.store import games

EVERY = timedelta(days=1)  # njudge's daily repeat


def waiting_since(db: sqlite_utils.Database, game: games.Game) -> datetime | None:
    """When the forming manual-start `game` became full (its last player's JOIN); None
    when it does not wait for its master (not forming, starts itself, or not full)."""
    if game.state != games.FORMING or starts_itself(game):
        return None
    players = [
        s for s in games.seat_spans(db, game) if s.role == games.PLAYER and s.left_at is None
    ]
    if not players or len(players) < players_needed(game):
        return None
    return max(datetime.fromisoformat(s.joined_at) for s in players)


def due(
    db: sqlite_utils.Database, game: games.Game, now: datetime
) -> tuple[list[Reply], datetime | None]:
    """The Start Waiting mail due by `now` (each whole day after the game filled, once:
    the JOIN that filled it sent the first), and the next moment one falls due (None:
    none until the game changes)."""
    since = waiting_since(db, game)
    if since is None:
        return [], None
    day = (now - since) // EVERY
    # Keyed by the moment it filled too: a game UNSTARTed and filled again starts anew.
    kind = f"start_waiting:{since.isoformat()}:{day}"
    mails: list[Reply] = []
    if day >= 1 and not games.notice_sent(db, game, kind):
        games.record_notice(db, game, kind, now)
        everyone = tuple(dict.fromkeys(s.address for s in games.seats(db, game)))
        mails.append(Reply(everyone, "start_waiting", {"game": game.name}, "notice", False))
    return mails, since + (day + 1) * EVERY

"""A full forming game that waits: the daily Start Waiting mail of a manual-start game or
of one held until its SET START date (njudge repeats it every day the game waits, as it
repeats Turn Waiting: judge/service/schedule.py), and the start at that date."""

from __future__ import annotations

from datetime import datetime, timedelta

import sqlite_utils

from judge.commands.blocks import players_needed, start_seed
from judge.config import Config
from judge.game import play
from judge.game.rules import starts_itself, waits_for_start_date
from judge.replies import Reply
from judge.store import games

EVERY = timedelta(days=1)  # njudge's daily repeat


def full_since(db: sqlite_utils.Database, game: games.Game) -> datetime | None:
    """When the forming `game` became full (its last player's JOIN); None when it is not
    forming or not full."""
    if game.state != games.FORMING:
        return None
    players = [
        s for s in games.seat_spans(db, game) if s.role == games.PLAYER and s.left_at is None
    ]
    if not players or len(players) < players_needed(game):
        return None
    return max(datetime.fromisoformat(s.joined_at) for s in players)


def due(
    db: sqlite_utils.Database, config: Config, game: games.Game, now: datetime
) -> tuple[list[Reply], datetime | None, str]:
    """What is due by `now` in a forming game: its start, when full at its SET START date
    (the first deadline counted from now); else the Start Waiting mail (each whole day
    after the game filled, once: the JOIN that filled it sent the first). With the next
    moment something falls due (None: none until the game changes, or it started) and
    what was done, for the log."""
    since = full_since(db, game)
    if since is None:
        return [], None, ""
    if starts_itself(game) and not waits_for_start_date(game, now):
        if game.settings.start_at is None:
            return [], None, ""  # starts at its last JOIN (blocks.start_if_full)
        return play.start_game(db, config, game, now, start_seed(game, now)), None, "started"
    day = (now - since) // EVERY
    # Keyed by the moment it filled too: a game UNSTARTed and filled again starts anew.
    kind = f"start_waiting:{since.isoformat()}:{day}"
    mails: list[Reply] = []
    if day >= 1 and not games.notice_sent(db, game, kind):
        games.record_notice(db, game, kind, now)
        everyone = tuple(dict.fromkeys(s.address for s in games.seats(db, game)))
        mails.append(Reply(everyone, "start_waiting", {"game": game.name}, "notice", False))
    moments = [since + (day + 1) * EVERY]
    if starts_itself(game) and game.settings.start_at is not None:
        moments.append(datetime.fromisoformat(game.settings.start_at))
    return mails, min(moments), "waiting for its start" if mails else ""

"""Whether a power was taken over, and left again, in the phase under way: a takeover
of each power a phase at most (commands/takeover.py)."""

from __future__ import annotations

from collections.abc import Sequence

import sqlite_utils

from judge.store.games import PLAYER, Game


def left_this_phase(db: sqlite_utils.Database, game: Game, powers: Sequence[str]) -> bool:
    """Whether a player's seat of one of `powers` joined after the game's current phase
    began and has left the game since (RESIGN, EJECT, another takeover). After: the
    seats of a game's players who joined it as it started have the start's moment."""
    marks = ", ".join("?" for _ in powers)
    row = db.execute(
        "SELECT 1 FROM seats s JOIN phases p ON p.game_id = s.game_id AND p.phase = ? "
        f"WHERE s.game_id = ? AND s.role = ? AND s.power IN ({marks}) "
        "AND s.left_at IS NOT NULL AND s.joined_at > p.started_at LIMIT 1",
        [game.phase or "", game.id, PLAYER, *powers],
    ).fetchone()
    return row is not None

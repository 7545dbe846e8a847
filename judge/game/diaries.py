"""The diaries of a game (DIARY's entries), mailed to everyone in it when it ends."""

from __future__ import annotations

import sqlite_utils

from judge.replies import Reply
from judge.store import diary, games
from judge.variants.maps import load_map


def diary_mails(db: sqlite_utils.Database, game: games.Game) -> list[Reply]:
    """One mail to everyone in the ended game with every entry not deleted, by writer;
    none when nobody kept a diary."""
    entries = diary.game_entries(db, game)
    if not entries:
        return []
    gm = load_map(game.variant)
    writers = {games.MASTER: "the master", games.OBSERVER: "an observer"}
    listed = [
        {
            "writer": gm.powers[e.power].name if e.power else writers.get(e.role, e.role),
            "number": e.number,
            "text": e.text,
        }
        for e in entries
    ]
    everyone = tuple(dict.fromkeys(s.address for s in games.seats(db, game)))
    return [Reply(everyone, "diary_end", {"game": game.name, "entries": listed}, "end", False)]

"""DIARY's entries: a seat's private notes in a game, numbered from 1 (a deleted entry's
number is not used again), kept deleted rather than removed so numbers stay."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime

import sqlite_utils

from judge.store.audit import iso
from judge.store.games import OBSERVER, Game, Seat

MAX_ENTRY_CHARS = 20_000  # one DIARY entry's text (README: limits)
MAX_ENTRIES = 200  # DIARY entries recorded by one seat of a game, deleted ones too
# What one game's diaries may hold, in characters, all seats together: anyone may observe
# a game (50 observers), and 50 seats of 200 entries of 20,000 characters were 200 million
# characters in the database from strangers. Twice the Diaries mail (game/diaries.py),
# ten times a long game's real diaries.
GAME_CHARS = 2_000_000
# The observers' share of GAME_CHARS, theirs alone: strangers' diaries fill it and no
# more, so the players' and the masters' own (GAME_CHARS less this) are never crowded out.
OBSERVERS_CHARS = 400_000


@dataclass(frozen=True)
class Entry:
    """One entry: its number, text and when it was written; whose, for the game's end."""

    number: int
    text: str
    modified_at: str
    role: str = ""
    power: str | None = None


def record(db: sqlite_utils.Database, game: Game, seat: Seat, text: str, now: datetime) -> int:
    """Store a new entry of the seat's; its number (one more than any before, deleted too)."""
    row = db.execute(
        "SELECT COALESCE(MAX(number), 0) FROM diary WHERE seat_id = ?", [seat.id]
    ).fetchone()
    number = int(row[0]) + 1
    db.execute(
        "INSERT INTO diary (game_id, seat_id, number, text, modified_at, deleted) "
        "VALUES (?, ?, ?, ?, ?, 0)",
        [game.id, seat.id, number, text, iso(now)],
    )
    return number


def count(db: sqlite_utils.Database, seat: Seat) -> int:
    """The entries the seat has recorded, deleted ones too (MAX_ENTRIES bounds them)."""
    return int(db.execute("SELECT COUNT(*) FROM diary WHERE seat_id = ?", [seat.id]).fetchone()[0])


def entries(db: sqlite_utils.Database, seat: Seat) -> list[Entry]:
    """The seat's entries not deleted, by number."""
    rows = db.execute(
        "SELECT number, text, modified_at FROM diary WHERE seat_id = ? AND deleted = 0 "
        "ORDER BY number",
        [seat.id],
    ).fetchall()
    return [Entry(int(n), text, at) for n, text, at in rows]


def held(db: sqlite_utils.Database, game: Game, observers: bool) -> int:
    """The characters the game's diary entries hold: the observers' (`observers`) or
    everyone else's, deleted entries too (those deleted before their text was dropped)."""
    row = db.execute(
        "SELECT COALESCE(SUM(length(d.text)), 0) FROM diary d "
        "JOIN seats s ON s.id = d.seat_id WHERE d.game_id = ? AND (s.role = ?) = ?",
        [game.id, OBSERVER, observers],
    ).fetchone()
    return int(row[0])


def delete(db: sqlite_utils.Database, seat: Seat, number: int) -> bool:
    """Delete one of the seat's entries, its text dropped (its room in the game's share
    freed; the row stays, so its number is not used again); False if it has none of
    that number."""
    cursor = db.execute(
        "UPDATE diary SET deleted = 1, text = '' WHERE seat_id = ? AND number = ? AND deleted = 0",
        [seat.id, number],
    )
    return cursor.rowcount > 0


@dataclass(frozen=True)
class Listed:
    """One entry of a game's without its text: whose and its number."""

    id: int
    number: int
    role: str
    power: str | None
    seat_id: int


def game_entries(db: sqlite_utils.Database, game: Game) -> list[Listed]:
    """Every entry not deleted in the game, in the order written, without its text: a
    game's entries may be hundreds of megabytes, and only some go in the Diaries mail
    ([] for a database without the diary table)."""
    if "diary" not in db.table_names():
        return []
    rows = db.execute(
        "SELECT d.id, d.number, s.role, s.power, s.id "
        "FROM diary d JOIN seats s ON s.id = d.seat_id WHERE d.game_id = ? AND d.deleted = 0 "
        "ORDER BY d.id",
        [game.id],
    ).fetchall()
    return [Listed(int(i), int(n), role, power, int(seat)) for i, n, role, power, seat in rows]


def each_text(db: sqlite_utils.Database, game: Game) -> Iterator[tuple[int, str]]:
    """Each entry not deleted of the game, its id and text, read a row at a time (never
    all held at once)."""
    cursor = db.execute(
        "SELECT id, text FROM diary WHERE game_id = ? AND deleted = 0 ORDER BY id", [game.id]
    )
    for i, text in cursor:
        yield int(i), text


def texts(db: sqlite_utils.Database, game: Game, ids: set[int]) -> dict[int, str]:
    """The texts of the game's entries `ids`, read a row at a time (the others are
    passed over, never all held at once)."""
    return {i: text for i, text in each_text(db, game) if i in ids}

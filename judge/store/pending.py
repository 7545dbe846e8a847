"""Orders held for a later phase (njudge's PHASE): each mail's lines for one phase of one
seat (a player at a power: a replacement or newcomer does not inherit them), kept as
written (conditions included) until that phase starts. The caller holds the
transaction."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

import sqlite_utils

from .audit import iso


@dataclass(frozen=True)
class Held:
    """One mail's held lines for one phase of one seat, oldest first when listed."""

    id: int
    seat_id: int
    power: str
    phase: str  # its code, e.g. F1902M
    lines: tuple[str, ...]


def hold(
    db: sqlite_utils.Database,
    game_id: int,
    seat_id: int,
    power: str,
    phase: str,
    lines: list[str],
    now: datetime,
) -> None:
    """Keep `lines` of the seat (at `power`) for `phase` after the lines held before."""
    db.execute(
        "INSERT INTO pending_orders (game_id, seat_id, power, phase, lines, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        [game_id, seat_id, power, phase, json.dumps(lines), iso(now)],
    )


def held(db: sqlite_utils.Database, game_id: int, seat_id: int | None = None) -> list[Held]:
    """The lines held in the game (by one seat, if given), oldest first."""
    sql = "SELECT id, seat_id, power, phase, lines FROM pending_orders WHERE game_id = ?"
    args: list[object] = [game_id]
    if seat_id is not None:
        sql += " AND seat_id = ?"
        args.append(seat_id)
    rows = db.execute(sql + " ORDER BY id", args).fetchall()
    return [Held(int(r[0]), int(r[1]), str(r[2]), str(r[3]), tuple(json.loads(r[4]))) for r in rows]


def clear(db: sqlite_utils.Database, game_id: int, seat_id: int, phase: str) -> int:
    """Drop the lines the seat holds for `phase`; how many mails' lines were dropped."""
    cursor = db.execute(
        "DELETE FROM pending_orders WHERE game_id = ? AND seat_id = ? AND phase = ?",
        [game_id, seat_id, phase],
    )
    return int(cursor.rowcount)


def drop(db: sqlite_utils.Database, ids: list[int]) -> None:
    """Drop the held lines `ids` (entered, or for a phase that has passed)."""
    for row_id in ids:
        db.execute("DELETE FROM pending_orders WHERE id = ?", [row_id])

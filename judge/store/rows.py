"""What sqlite3 hands back, typed: the id of the row an INSERT made, and the one value a
query such as COUNT(*) returns. sqlite3 types rows as Any; these say what the SQL does."""

from __future__ import annotations

import sqlite3


def inserted_id(cursor: sqlite3.Cursor) -> int:
    """The id of the row the INSERT on `cursor` made (sqlite3 leaves it None only when
    the statement made no row, which the callers' INSERTs always do)."""
    if cursor.lastrowid is None:
        raise RuntimeError("the INSERT made no row")
    return cursor.lastrowid


def count(cursor: sqlite3.Cursor) -> int:
    """The whole number in the first column of the first row: a COUNT(*), a pragma's value."""
    row = cursor.fetchone()
    return int(row[0])

"""The schema the migrations build, pinned: migrations are history (judge/store/schema.py
says never to edit a released one), so a change to what any step creates, a split
included, shows here. Described through SQLite's pragmas, not the CREATE text, so that
only the schema itself counts, not how sqlite-utils spaces its SQL."""

from __future__ import annotations

from pathlib import Path

import sqlite_utils

from judge.store.db import open_db
from judge.store.schema import MIGRATIONS

PINNED = Path(__file__).parent / "schema_pinned.txt"


def describe(db: sqlite_utils.Database) -> list[str]:
    """Each table's columns, foreign keys and indexes, one line each, tables by name."""
    lines = [f"user_version {db.execute('PRAGMA user_version').fetchone()[0]}"]
    for (table,) in db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
    ).fetchall():
        lines.append(f"table {table}")
        for _, name, kind, notnull, default, pk in db.execute(f"PRAGMA table_info('{table}')"):
            lines.append(f"  column {name} {kind} notnull={notnull} default={default} pk={pk}")
        for row in db.execute(f"PRAGMA foreign_key_list('{table}')"):
            lines.append(f"  foreign key {row[3]} -> {row[2]}({row[4]})")
        for _, index, unique, origin, partial in db.execute(f"PRAGMA index_list('{table}')"):
            columns = [r[2] for r in db.execute(f"PRAGMA index_info('{index}')")]
            where = " partial" if partial else ""
            lines.append(f"  index {index} unique={unique} {origin} {columns}{where}")
    return lines


def test_the_migrations_build_the_pinned_schema(tmp_path: Path) -> None:
    db = open_db(tmp_path / "j.db")
    assert len(MIGRATIONS) == 25
    assert describe(db) == PINNED.read_text(encoding="utf-8").splitlines()

"""The audit log: one row for every state change of every message (and later, game)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

import sqlite_utils


def record(
    db: sqlite_utils.Database,
    now: datetime,
    entity: str,
    entity_id: int | None,
    event: str,
    detail: str | None = None,
) -> None:
    db.execute(
        "INSERT INTO audit (at, entity, entity_id, event, detail) VALUES (?, ?, ?, ?, ?)",
        [iso(now), entity, entity_id, event, detail],
    )


def record_many(
    db: sqlite_utils.Database,
    now: datetime,
    entity: str,
    event: str,
    rows: Sequence[tuple[int, str | None]],
) -> None:
    """`record` for each (entity id, detail) of `rows`, all of one event, in one statement."""
    at = iso(now)
    db.conn.executemany(
        "INSERT INTO audit (at, entity, entity_id, event, detail) VALUES (?, ?, ?, ?, ?)",
        [(at, entity, entity_id, event, detail) for entity_id, detail in rows],
    )


def iso(moment: datetime) -> str:
    """UTC ISO 8601 with seconds: the one time format in the database."""
    if moment.tzinfo is None:
        raise ValueError("naive datetime: the judge stores UTC only")
    return moment.astimezone(UTC).isoformat(timespec="microseconds")

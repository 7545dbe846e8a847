"""Opening the database: WAL, foreign keys, and forward migrations to the current schema."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import sqlite_utils

from . import schema

Migration = Callable[[sqlite_utils.Database], None]


def open_db(path: str | Path) -> sqlite_utils.Database:
    """Open (creating if need be) the judge's database and migrate it forward."""
    path = Path(path)
    if str(path) != ":memory:":
        path.parent.mkdir(parents=True, exist_ok=True)
    # check_same_thread=False: one connection per thread is the rule, but the SMTP
    # receiver hands its connection to aiosmtpd's thread once, at start-up.
    conn = sqlite3.connect(str(path), timeout=30, check_same_thread=False)
    db = sqlite_utils.Database(conn)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA foreign_keys=ON")
    # FULL: a message the judge has acknowledged (SMTP 250, IMAP moved) is on disk.
    conn.execute("PRAGMA synchronous=FULL")
    migrate(db)
    return db


@dataclass(frozen=True)
class Peek:
    """What `peek` saw in a database file."""

    version: int  # its schema version (PRAGMA user_version)
    games: int  # how many games it holds (0 before the games table exists)


def peek(path: Path, timeout: float = 5) -> Peek:
    """Look into an existing database file without changing it: no migration, no WAL
    switch, never creating it. Raises sqlite3.Error if it cannot be opened or read."""
    conn = sqlite3.connect(f"file:{path}?mode=rw", uri=True, timeout=timeout)
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        n_games = (
            conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] if "games" in tables else 0
        )
    finally:
        conn.close()
    return Peek(version, n_games)


def schema_version(db: sqlite_utils.Database) -> int:
    return int(db.execute("PRAGMA user_version").fetchone()[0])


def migrate(db: sqlite_utils.Database, migrations: list[Migration] | None = None) -> None:
    """Apply every migration past the stored schema version, each in its own transaction."""
    steps = schema.MIGRATIONS if migrations is None else migrations
    version = schema_version(db)
    if version > len(steps):
        raise RuntimeError(
            f"the database has schema version {version}, newer than this judge "
            f"({len(steps)}): upgrade the judge"
        )
    for number, step in enumerate(steps[version:], start=version + 1):
        with transaction(db):
            step(db)
            db.execute(f"PRAGMA user_version = {number}")


@contextlib.contextmanager
def transaction(db: sqlite_utils.Database) -> Iterator[sqlite_utils.Database]:
    """A write transaction taken at once (BEGIN IMMEDIATE): in WAL mode a transaction that
    reads first and writes later cannot wait for another writer and fails at once, so
    every transaction that will write says so up front. Nested use is a savepoint."""
    if db.conn.in_transaction:
        with db.atomic():
            yield db
        return
    db.conn.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.conn.rollback()
        raise
    db.conn.execute("COMMIT")

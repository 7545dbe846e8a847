"""Opening the database: WAL, foreign keys, and forward migrations to the current schema."""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import weakref
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import sqlite_utils

from . import schema

Migration = Callable[[sqlite_utils.Database], None]


class UnusableDatabase(RuntimeError):
    """The database file cannot be used at all (a folder, not SQLite, a newer schema, a
    folder that cannot be created); the message names the file and why."""


def open_db(path: str | Path) -> sqlite_utils.Database:
    """Open (creating if need be) the judge's database and migrate it forward; raises
    UnusableDatabase, naming the file, when it cannot be used."""
    path = Path(path)
    if str(path) != ":memory:":
        _check_place(path)
    try:
        # check_same_thread=False: one connection per thread is the rule, but the SMTP
        # receiver hands its connection to aiosmtpd's thread once, at start-up.
        conn = sqlite3.connect(str(path), timeout=30, check_same_thread=False)
        db = sqlite_utils.Database(conn)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA foreign_keys=ON")
        # FULL: a message the judge has acknowledged (SMTP 250, IMAP moved) is on disk.
        conn.execute("PRAGMA synchronous=FULL")
        # Freed pages overwritten with zeros (as Debian's SQLite does unless told not to):
        # a mail's text forgotten (store/retention.py), or left behind when its row was
        # rewritten, stays in no free page of the file for a copy to read.
        conn.execute("PRAGMA secure_delete=ON")
    except sqlite3.DatabaseError as e:
        raise UnusableDatabase(f"{path}: {_why(e)}") from None
    if str(path) != ":memory:":
        _gate_of[db] = _gates.setdefault(str(path.resolve()), WriteGate())
    try:
        _not_foreign(db)
        migrate(db)
    except sqlite3.DatabaseError as e:  # another program's database, or a damaged one
        conn.close()
        raise UnusableDatabase(f"{path}: cannot be brought to this judge's schema: {e}") from None
    except UnusableDatabase as e:
        conn.close()
        raise UnusableDatabase(f"{path}: {e}") from None
    return db


def _check_place(path: Path) -> None:
    """UnusableDatabase unless `path` is a file or can be created as one."""
    if path.is_dir():
        raise UnusableDatabase(f"{path}: a folder, not a database file")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UnusableDatabase(
            f"{path}: its folder {path.parent} cannot be created: {e.strerror or e}"
        ) from None


def _why(e: sqlite3.DatabaseError) -> str:
    """SQLite's reason in an operator's words."""
    text = str(e)
    if text == "file is not a database":
        return "not an SQLite database (is judge.database the right file?)"
    if text == "unable to open database file":
        return "cannot be opened or created (is its folder writable?)"
    if "readonly" in text:
        return "read-only: the judge must write its database (and the -wal file beside it)"
    return text


class WriteGate:
    """The write transactions of one database file in this process, let in one at a time
    in the order they came. SQLite lets a writer that finds the file locked wait by polling
    (sleeps of up to 100 ms), so a thread that writes again and again, as the daemon's loop
    does through a thousand games due, left the SMTP receiver's one write polling for
    seconds (the gap between two of the loop's transactions is too short to be found):
    the player's SMTP client waited that long for its 250. Here a writer that leaves hands
    its turn straight to the first one waiting."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._held = False
        self._waiting: deque[threading.Event] = deque()

    def enter(self, timeout: float) -> bool:
        """Wait for this writer's turn; False if `timeout` seconds pass first (the writer
        then goes on without it, and SQLite's own waiting applies)."""
        with self._lock:
            if not self._held:
                self._held = True
                return True
            turn = threading.Event()
            self._waiting.append(turn)
        try:
            handed = turn.wait(timeout)
        except BaseException:  # interrupted: never left holding a turn no one ends
            if self._give_up(turn):
                self.leave()
            raise
        return handed or self._give_up(turn)

    def _give_up(self, turn: threading.Event) -> bool:
        """Take `turn` out of the queue; True if it was handed over meanwhile (then held)."""
        with self._lock:
            if turn.is_set():
                return True
            self._waiting.remove(turn)
            return False

    def wanted(self) -> bool:
        """Whether another writer waits for its turn."""
        with self._lock:
            return bool(self._waiting)

    def leave(self) -> None:
        """End this writer's turn: the first one waiting has it at once."""
        with self._lock:
            if self._waiting:
                self._waiting.popleft().set()  # still held, now on its behalf
            else:
                self._held = False


GATE_SECONDS = 30.0  # a writer waits this long for its turn, as long as for SQLite's lock
_gates: dict[str, WriteGate] = {}  # by database file, for the process's life
_gate_of: weakref.WeakKeyDictionary[sqlite_utils.Database, WriteGate] = weakref.WeakKeyDictionary()


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


def _not_foreign(db: sqlite_utils.Database) -> None:
    """UnusableDatabase when `db` is no judge's (schema version 0) but holds tables: some
    other program's file, which migrating would change."""
    if schema_version(db) == 0 and (tables := _tables(db)):
        raise UnusableDatabase(
            f"holds another program's tables ({', '.join(tables[:5])}) and no judge's: "
            "is judge.database the right file?"
        )


def _tables(db: sqlite_utils.Database) -> list[str]:
    """The names of the tables (and views, indexes) in `db`, in order."""
    return [r[0] for r in db.execute("SELECT name FROM sqlite_master ORDER BY name")]


def schema_version(db: sqlite_utils.Database) -> int:
    return int(db.execute("PRAGMA user_version").fetchone()[0])


def migrate(db: sqlite_utils.Database, migrations: list[Migration] | None = None) -> None:
    """Apply every migration past the stored schema version, each in its own transaction."""
    steps = schema.MIGRATIONS if migrations is None else migrations
    version = schema_version(db)
    if version > len(steps):
        raise UnusableDatabase(
            f"the database has schema version {version}, newer than this judge "
            f"({len(steps)}): upgrade the judge"
        )
    for number, step in enumerate(steps[version:], start=version + 1):
        with transaction(db):
            step(db)
            db.execute(f"PRAGMA user_version = {number}")


# One name for every nested savepoint: SQLite's RELEASE and ROLLBACK TO act on the most
# recent savepoint of that name, which is always this block's own, as blocks nest. The
# statements then stay prepared in the connection's cache; sqlite_utils' atomic() names
# each one afresh from os.urandom: a system call and two statements parsed for each of
# the 17,000 savepoints of a 1,000-game deadline burst.
_SAVEPOINT = "judge_nested"


def _savepoint(db: sqlite_utils.Database) -> Iterator[sqlite_utils.Database]:
    """`transaction`'s nested use: a savepoint, rolled back to if the block raises."""
    conn = db.conn
    conn.execute(f"SAVEPOINT {_SAVEPOINT}")
    try:
        yield db
    except BaseException:
        # A failure that ended the whole transaction (a RAISE(ROLLBACK) trigger, a full
        # disk) took the savepoint with it: the error is raised as it is.
        if conn.in_transaction:
            conn.execute(f"ROLLBACK TO SAVEPOINT {_SAVEPOINT}")
            conn.execute(f"RELEASE SAVEPOINT {_SAVEPOINT}")
        raise
    conn.execute(f"RELEASE SAVEPOINT {_SAVEPOINT}")


def writers_waiting(db: sqlite_utils.Database) -> bool:
    """Whether another writer of `db`'s file in this process waits for its turn (a
    writer holding one transaction for many steps ends it then: see schedule.run_due)."""
    gate = _gate_of.get(db)
    return gate is not None and gate.wanted()


@contextlib.contextmanager
def transaction(db: sqlite_utils.Database) -> Iterator[sqlite_utils.Database]:
    """A write transaction taken at once (BEGIN IMMEDIATE): in WAL mode a transaction that
    reads first and writes later cannot wait for another writer and fails at once, so
    every transaction that will write says so up front. Nested use is a savepoint. The
    writers of a database opened by open_db in this process take turns (WriteGate)."""
    if db.conn.in_transaction:
        yield from _savepoint(db)
        return
    gate = _gate_of.get(db)
    entered = gate is not None and gate.enter(GATE_SECONDS)
    try:
        db.conn.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            db.conn.rollback()
            raise
        db.conn.execute("COMMIT")
    finally:
        if entered:
            assert gate is not None
            gate.leave()
